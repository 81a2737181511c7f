//! One line of a readings corpus: a message as a user sent it, and what a person expects the bot
//! to read from it.

use chrono::NaiveDateTime;
use chrono_tz::Tz;
use remindbot::domain::lang::Lang;

/// The time format of the corpus's `NOW` and `DUE` fields.
pub const TIME_FORMAT: &str = "%Y-%m-%d %H:%M";

/// One message and its expected reading (a corpus line `LANG|ZONE|NOW|MESSAGE|DUE|REPEAT|TEXT`).
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The file and line it came from, for the report.
    pub origin: String,
    /// The chat's language.
    pub lang: Lang,
    /// The user's zone.
    pub zone: Tz,
    /// The user's wall clock when the message was sent.
    pub now: NaiveDateTime,
    /// The message.
    pub message: String,
    /// When it should be due: the deadline or, where a lead is said ("30 min before"), either
    /// the deadline or the time the reminder goes out ahead of it.
    pub due: ExpectedDue,
    /// How it should repeat, in the corpus's words (`-`, `daily`, `weekly:mon,thu`, …).
    pub repeat: String,
    /// The task text a person expects the bot to keep.
    pub text: String,
    /// The writer's note (after ` ;; ` in the text field), if any.
    pub note: Option<String>,
}

/// When a message should be due.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpectedDue {
    /// No time was given: the bot should ask when.
    Ask,
    /// The first reminder at one of these local times (more than one when a person would
    /// accept either reading), and a second reminder (two times joined by "and") at one of
    /// those.
    At {
        /// The acceptable first times.
        first: Vec<NaiveDateTime>,
        /// The acceptable second times, empty when the message asks for one reminder.
        second: Vec<NaiveDateTime>,
    },
}

/// Why a corpus line cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{origin}: {problem}")]
pub struct CaseError {
    origin: String,
    problem: String,
}

impl Case {
    /// Why the bot's reading is known to differ from this expectation, when a maintainer
    /// decided to leave it so: a note that starts with `known:`.
    pub fn known(&self) -> Option<&str> {
        let note = self.note.as_deref()?;
        note.strip_prefix("known:").map(str::trim)
    }

    /// Why the bot's task text is known to differ from the expected one, when a maintainer
    /// decided to leave it so: a note that starts with `text:`.
    pub fn text_known(&self) -> Option<&str> {
        let note = self.note.as_deref()?;
        note.strip_prefix("text:").map(str::trim)
    }

    /// Reads one corpus line; `origin` names it in errors and in the report.
    pub fn parse(line: &str, origin: String) -> Result<Case, CaseError> {
        let problem = |problem: String| CaseError {
            origin: origin.clone(),
            problem,
        };
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [lang, zone, now, message, due, repeat, text] = fields[..] else {
            return Err(problem(format!("{} fields, not 7", fields.len())));
        };
        let lang = Lang::parse(lang).ok_or_else(|| problem(format!("no language {lang:?}")))?;
        let zone: Tz = zone
            .parse()
            .map_err(|_| problem(format!("no zone {zone:?}")))?;
        let now = local_time(now).map_err(problem)?;
        let due = ExpectedDue::parse(due).map_err(problem)?;
        let (text, note) = match text.split_once(";;") {
            Some((text, note)) => (text.trim(), Some(note.trim().to_owned())),
            None => (text, None),
        };
        Ok(Case {
            origin,
            lang,
            zone,
            now,
            message: message.to_owned(),
            due,
            repeat: repeat.to_owned(),
            text: text.to_owned(),
            note,
        })
    }
}

impl ExpectedDue {
    /// Reads `ask`, `T`, `T or T`, `T + T` (and alternatives on either side of the `+`).
    fn parse(field: &str) -> Result<ExpectedDue, String> {
        if field.eq_ignore_ascii_case("ask") {
            return Ok(ExpectedDue::Ask);
        }
        let (first, second) = match field.split_once(" + ") {
            Some((first, second)) => (first, Some(second)),
            None => (field, None),
        };
        let alternatives = |times: &str| -> Result<Vec<NaiveDateTime>, String> {
            times
                .split(" or ")
                .map(|time| local_time(time.trim()))
                .collect()
        };
        Ok(ExpectedDue::At {
            first: alternatives(first)?,
            second: second.map(alternatives).transpose()?.unwrap_or_default(),
        })
    }
}

/// A local `YYYY-MM-DD HH:MM`.
fn local_time(field: &str) -> Result<NaiveDateTime, String> {
    NaiveDateTime::parse_from_str(field, TIME_FORMAT).map_err(|_| format!("no time {field:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        local_time(text).unwrap()
    }

    #[test]
    fn reads_a_line_with_alternatives_a_second_time_and_a_note() {
        let case = Case::parse(
            "en|Europe/Berlin|2026-03-27 10:00|pills at 3 and 21|2026-03-27 15:00 or 2026-03-28 03:00 + 2026-03-27 21:00|-|pills ;; should say 15:00",
            "en.tsv:1".into(),
        )
        .unwrap();
        assert_eq!(case.lang, Lang::En);
        assert_eq!(case.text, "pills");
        assert_eq!(case.note.as_deref(), Some("should say 15:00"));
        assert_eq!(
            case.due,
            ExpectedDue::At {
                first: vec![at("2026-03-27 15:00"), at("2026-03-28 03:00")],
                second: vec![at("2026-03-27 21:00")],
            }
        );
    }

    #[test]
    fn refuses_a_line_with_a_missing_field_or_a_bad_time() {
        assert!(Case::parse("en|Europe/Berlin|2026-03-27 10:00|x|ask|-", "a".into()).is_err());
        assert!(Case::parse("en|Europe/Berlin|2026-03-27|x|ask|-|x", "a".into()).is_err());
        assert!(Case::parse("en|Mars/Base|2026-03-27 10:00|x|ask|-|x", "a".into()).is_err());
    }
}
