//! Reading the answer to "new time?" for a task that exists. An edit changes only what the user
//! said, so besides the moment it resolves to, the answer says which parts it names (a day, a
//! time of day, a whole moment, a repeat) and whether it brings a new text; an answer without any
//! time phrase is a new text alone.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::keys::Key;
use super::lexer::TokenKind;
use super::{Assumption, DueError, HourChoice, Unplaced, noted};
use crate::domain::lang::Lang;
use crate::domain::lead::Lead;
use crate::domain::recurrence::Recurrence;

/// Which parts of a moment an answer names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Said {
    /// A day: a date, a weekday, "tomorrow", "in 2 days".
    pub day: bool,
    /// A time of day ("19:00") or a part of the day ("in the evening").
    pub time: bool,
    /// A moment from now ("in 2 hours"): a day and a time at once.
    pub elapsed: bool,
    /// A repeat ("every friday").
    pub repeat: bool,
}

/// The answer to "new time?", resolved as [`super::parse_due`] resolves a task message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedEdit {
    /// A new text, when the answer has one besides the time phrase.
    pub text: Option<String>,
    /// What the time phrase names.
    pub said: Said,
    /// The moment the phrase means on its own (a day alone at the default time).
    pub due: DateTime<Utc>,
    /// The repeat it says, if any.
    pub recurrence: Option<Recurrence>,
    /// The lead time it says, if any.
    pub lead: Option<Lead>,
    /// What the parser assumed reading it, as [`super::ParsedDue::assumptions`]; which of them
    /// hold for the task depends on what the edit keeps (a day alone keeps the time, so a time
    /// taken for it is no assumption).
    pub assumptions: Vec<Assumption>,
    /// Time words left in the new text, and a second time cut from it ("9 and 21": one task has
    /// one time), as [`super::ParsedDue::unplaced`].
    pub unplaced: Vec<Unplaced>,
    /// Both readings of an hour either side of noon, as [`super::ParsedDue::choice`].
    pub choice: Option<HourChoice>,
}

/// Reads `input`, the answer to "new time?", for a user in `tz` at `now`; hours alone ("9", "9
/// and 21") are times there. [`DueError::NoTime`] when it has no time phrase (a new text alone);
/// other errors as [`super::parse_due`]'s.
pub fn parse_edit(
    input: &str,
    lang_hint: Lang,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<ParsedEdit, DueError> {
    let (found, resolved, _) = match super::read_phrase(input, lang_hint, now, tz) {
        Err(DueError::NoTime) if is_hours_alone(&super::grammar::Lexed::new(input, lang_hint)) => {
            let at = format!("{} {input}", at_word(lang_hint));
            super::read_phrase(&at, lang_hint, now, tz)?
        }
        read => read?,
    };
    let spec = found.spec;
    let elapsed = spec.relative.is_some_and(|span| !span.is_calendar_only());
    Ok(ParsedEdit {
        assumptions: noted(found.typos, resolved.assumptions),
        unplaced: found.unplaced,
        text: (!found.text.is_empty()).then_some(found.text),
        said: Said {
            day: spec.day.is_some() || spec.relative.is_some_and(|span| span.is_calendar_only()),
            time: spec.clock.is_some() || spec.period.is_some(),
            elapsed,
            repeat: spec.repeat.is_some(),
        },
        due: resolved.due,
        recurrence: resolved.recurrence,
        lead: resolved.lead,
        choice: resolved.choice,
    })
}

/// Whether `lexed` is nothing but hours joined by "and" ("9", "21", "9 and 21", "9 и 21"): sent
/// as the answer to "new time?", they are times of day, not a new text for the task.
fn is_hours_alone(lexed: &super::grammar::Lexed) -> bool {
    lexed.len() > 0
        && (0..lexed.len()).all(|i| {
            if i % 2 == 1 {
                lexed.has(i, Key::And)
            } else {
                lexed.token(i).is_some_and(|t| {
                    matches!(t.kind, TokenKind::Number { value, digits } if digits <= 2 && value <= 24)
                })
            }
        })
}

/// The word that makes an hour a time of day in `lang` ("at 9", "в 9", "soat 9").
fn at_word(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "at",
        Lang::Ru => "в",
        Lang::Uz => "soat",
        Lang::UzCyrl => "соат",
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Timelike};

    use super::*;

    #[test]
    fn an_hour_alone_is_a_time_in_every_language_and_a_word_is_a_text() {
        let tz = chrono_tz::Asia::Tashkent;
        let now = tz.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap().to_utc();
        for lang in [Lang::En, Lang::Ru, Lang::Uz, Lang::UzCyrl] {
            for (answer, hour) in [("21", 21), ("9 and 21", 9), ("9 и 21", 9), ("9 va 21", 9)] {
                let parsed = parse_edit(answer, lang, now, tz).unwrap();
                assert!(
                    parsed.said.time && parsed.text.is_none(),
                    "{lang:?} {answer}"
                );
                let local = crate::domain::timezone::to_local(tz, parsed.due);
                assert_eq!(local.hour(), hour, "{lang:?} {answer}");
            }
        }
        assert_eq!(
            parse_edit("2 bottles", Lang::En, now, tz),
            Err(DueError::NoTime)
        );
    }
}
