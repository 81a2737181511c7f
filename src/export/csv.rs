//! The tasks as a table (RFC 4180): a header row, then one row per task; fields with a comma,
//! quote or line break quoted (quotes doubled), lines ended by CRLF, UTF-8 with a byte-order mark
//! (so spreadsheets read Cyrillic). A cell that a spreadsheet would run as a formula (beginning
//! with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`.

use chrono::SecondsFormat;

use crate::domain::timezone::to_local;
use crate::store::tasks::Task;

/// The columns, in order.
pub const HEADER: [&str; 7] = [
    "id",
    "text",
    "due_local",
    "zone",
    "due_utc",
    "repeat_rule",
    "lead_minutes",
];

/// The table of `tasks`.
pub fn table(tasks: &[Task]) -> String {
    let mut out = String::from("\u{feff}");
    push_row(&mut out, HEADER.iter().map(|h| (*h).to_owned()));
    for task in tasks {
        push_row(&mut out, row(task).into_iter());
    }
    out
}

/// A task's cells.
fn row(task: &Task) -> [String; 7] {
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

/// The cell with `'` before a leading character that makes a spreadsheet read it as a formula.
pub fn formula_safe(cell: &str) -> String {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{cell}"),
        _ => cell.to_owned(),
    }
}

/// The cell as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote or a
/// line break.
pub fn quoted(cell: &str) -> String {
    if cell.contains([',', '"', '\r', '\n']) {
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
        assert_eq!(quoted("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quoted("two\nlines"), "\"two\nlines\"");
        for risky in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx"] {
            assert_eq!(formula_safe(risky), format!("'{risky}"));
        }
        assert_eq!(formula_safe("buy milk"), "buy milk");
    }
}
