//! The tasks as a table (RFC 4180): a header row in the chat's language, then one row per task
//! (its repeat in words beside the rule, for people, and the rule, for programs); fields with a comma, a
//! semicolon, a tab, a quote or a line break quoted (quotes doubled), lines ended by CRLF, UTF-8
//! with a byte-order mark (so spreadsheets read Cyrillic).
//!
//! No cell starts a formula in any field a spreadsheet could cut it into. A spreadsheet of a
//! locale whose separator is `;` (Russian, Uzbek) reads this file with `;` and takes the commas
//! and quotes for text, so it cuts a cell at each `;` and line break; a naive import cuts at
//! each `,` and tab too. So wherever a field could begin (the cell's start and after each `,`,
//! `;`, tab, CR or LF), when what follows (past spaces and quotes) begins with a character that
//! starts a formula (OWASP's `=`, `+`, `-`, `@`, tab, carriage return, and their full-width
//! forms), a `'` is put in front of it, which spreadsheets read as "text".

use chrono::SecondsFormat;

use crate::domain::timezone::to_local;
use crate::i18n::Tr;
use crate::i18n::repeats::repeats_text;
use crate::store::tasks::Task;

/// The columns' string keys, in order: the task's id, text, local deadline, zone, deadline in
/// UTC, repeat in words, repeat rule (RFC 5545's RRULE syntax) and lead in minutes.
const COLUMN_KEYS: [&str; 8] = [
    "csv-id",
    "csv-text",
    "csv-due-local",
    "csv-zone",
    "csv-due-utc",
    "csv-repeat",
    "csv-repeat-rule",
    "csv-lead-minutes",
];

/// The header row in `tr`'s language.
pub fn header(tr: Tr) -> [String; 8] {
    COLUMN_KEYS.map(|key| tr.t(key))
}

/// The table of `tasks`, its header and repeats in words in `tr`'s language.
pub fn table(tasks: &[Task], tr: Tr) -> String {
    let mut out = String::from("\u{feff}");
    push_row(&mut out, header(tr).into_iter());
    for task in tasks {
        push_row(&mut out, row(task, tr).into_iter());
    }
    out
}

/// A task's cells.
fn row(task: &Task, tr: Tr) -> [String; 8] {
    [
        task.id.to_string(),
        task.text.clone(),
        to_local(task.zone, task.due_at)
            .format("%Y-%m-%d %H:%M")
            .to_string(),
        task.zone.name().to_owned(),
        task.due_at.to_rfc3339_opts(SecondsFormat::Secs, true),
        task.recurrence
            .as_ref()
            .map(|rule| repeats_text(tr, rule))
            .unwrap_or_default(),
        task.recurrence
            .as_ref()
            .map(|rule| rule.to_rule_string())
            .unwrap_or_default(),
        (task.lead.secs() / 60).to_string(),
    ]
}

fn push_row(out: &mut String, cells: impl Iterator<Item = String>) {
    let cells: Vec<String> = cells.map(|cell| quoted(&formula_safe(&cell))).collect();
    out.push_str(&cells.join(","));
    out.push_str("\r\n");
}

/// Where a spreadsheet may cut a cell into fields: the separators of `,` and `;` locales, a tab
/// (tab-separated import, pasting) and line breaks (an import that ignores quotes ends the row).
const FIELD_BREAKS: [char; 5] = [',', ';', '\t', '\r', '\n'];

/// What makes a spreadsheet read a field as a formula when the field starts with it (OWASP's
/// list, with the full-width forms some spreadsheets take for the same).
const FORMULA_STARTS: [char; 10] = [
    '=', '+', '-', '@', '\t', '\r', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}',
];

/// The cell with `'` put at each place a field could begin (its start, and after each of
/// [`FIELD_BREAKS`]) where a formula would start: no field a spreadsheet cuts it into runs.
pub fn formula_safe(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len() + 1);
    if starts_formula(cell) {
        out.push('\'');
    }
    for (at, c) in cell.char_indices() {
        out.push(c);
        if FIELD_BREAKS.contains(&c) && starts_formula(&cell[at + c.len_utf8()..]) {
            out.push('\'');
        }
    }
    out
}

/// Whether a field beginning with `text` is a formula: its first character past spaces and
/// quotes (which spreadsheets may trim or take for quoting) starts one.
pub fn starts_formula(text: &str) -> bool {
    text.trim_start_matches([' ', '"'])
        .starts_with(FORMULA_STARTS)
}

/// The cell as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a semicolon,
/// a tab, a quote or a line break.
pub fn quoted(cell: &str) -> String {
    if cell.contains([',', ';', '\t', '"', '\r', '\n']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_formulas_defused() {
        assert_eq!(quoted("plain"), "plain");
        assert_eq!(quoted("a,b"), "\"a,b\"");
        assert_eq!(quoted("a;b"), "\"a;b\"");
        assert_eq!(quoted("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quoted("two\nlines"), "\"two\nlines\"");
        for risky in [
            "=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", " =1", "\"=1\"",
        ] {
            assert_eq!(formula_safe(risky), format!("'{risky}"));
        }
        assert_eq!(formula_safe("a;=1"), "a;'=1");
        assert_eq!(formula_safe("a, -1"), "a,' -1");
        assert_eq!(formula_safe("a\r\n@x"), "a\r\n'@x");
        assert_eq!(formula_safe("a\t+1"), "a\t'+1");
        assert_eq!(
            formula_safe("buy milk; eggs, 2-3 pcs"),
            "buy milk; eggs, 2-3 pcs"
        );
        assert_eq!(formula_safe("email me@home"), "email me@home");
    }
}
