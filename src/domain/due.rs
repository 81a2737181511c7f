//! The due-date parser: finds the time phrase in a message in English,
//! Russian or Uzbek, resolves it in the user's zone, and returns the task
//! text without it.
//!
//! Decisions worth knowing:
//! - all three languages are accepted whatever the user's language; the
//!   hint only breaks ties (`5/6` is 6 May for English, 5 June otherwise);
//! - relative times keep elapsed time ("in 2 hours" is exactly `now + 2h`,
//!   seconds kept), while day-based phrases ("in 2 days", "tomorrow",
//!   "every day") keep the wall-clock time across DST;
//! - a date or day without a time is at [`DEFAULT_TIME`]; a part of the day
//!   alone means 09:00, 14:00, 19:00 or 22:00;
//! - a bare hour is on the 24-hour clock ("at 9" is 09:00); with no day
//!   said, a time already past today means tomorrow;
//! - a weekday said on that very day means today if the time is still
//!   ahead, else a week later; "next monday" always skips today, and on
//!   other days is the coming Monday;
//! - a date without a year is its next occurrence (so on 27 March "5 March"
//!   is next year), but today's date with a past time, or any date with an
//!   explicit past year, is [`DueError::InPast`];
//! - wall times in a DST gap or overlap follow
//!   [`resolve_local`](crate::domain::timezone::resolve_local).

mod edit;
mod en;
mod grammar;
mod lexer;
mod phrase;
mod resolve;
mod ru;
mod spec;
mod uz;
mod vocab;

use chrono::{DateTime, NaiveDateTime, NaiveTime, Utc};
use chrono_tz::Tz;

pub use edit::{ParsedEdit, Said, parse_edit};

use crate::domain::fold::is_space;
use crate::domain::lang::Lang;
use crate::domain::lead::Lead;
use crate::domain::recurrence::Recurrence;

/// The time of day used when a day but no time is said ("tomorrow", "5
/// декабря", "every monday").
pub const DEFAULT_TIME: NaiveTime = match NaiveTime::from_hms_opt(9, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// The last year a due date may fall in; later ones are [`DueError::TooFar`].
pub const MAX_YEAR: i32 = 2100;

/// The longest message parsed, in characters: Telegram's message limit, so
/// that no input makes the parser do unbounded work.
pub const MAX_INPUT_CHARS: usize = 4096;

/// A task parsed from a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedDue {
    /// The task text with the time phrase removed, trimmed, never empty.
    pub text: String,
    /// The deadline (for a recurring task, its first occurrence).
    pub due: DateTime<Utc>,
    /// How the task repeats, if it does.
    pub recurrence: Option<Recurrence>,
    /// How long before the deadline to remind, if the user said so.
    pub lead: Option<Lead>,
}

/// Why a message gave no task; each variant is one thing the bot can
/// explain to the user in their language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DueError {
    /// The message is empty or only spaces and invisible characters.
    #[error("the message is empty")]
    EmptyInput,
    /// The message is longer than [`MAX_INPUT_CHARS`].
    #[error("the message is longer than {max} characters")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// No date or time was found: the bot should ask when.
    #[error("no date or time found")]
    NoTime,
    /// Only a date or time was given, no task text.
    #[error("no task text besides the time")]
    EmptyText,
    /// A time of day that does not exist, like 25:61 or 13 pm.
    #[error("{hour:02}:{minute:02} is not a valid time")]
    InvalidTime {
        /// The hour as typed.
        hour: u32,
        /// The minute as typed.
        minute: u32,
    },
    /// A date that does not exist, like 31.02 or 32.13 (or 29.02.2027).
    #[error("{day:02}.{month:02} is not a valid date")]
    InvalidDate {
        /// The day as typed.
        day: u32,
        /// The month as typed.
        month: u32,
        /// The year, if one was typed.
        year: Option<i32>,
    },
    /// A monthly recurrence on a day that no month has, like the 32nd.
    #[error("no month has a day {day}")]
    InvalidDayOfMonth {
        /// The day as typed.
        day: u32,
    },
    /// An explicit date and time that has already passed (a past year,
    /// "yesterday", or today with a time already gone).
    #[error("{local} is in the past")]
    InPast {
        /// The local date and time that was meant.
        local: NaiveDateTime,
    },
    /// A date after [`MAX_YEAR`], or a duration reaching past it.
    #[error("dates after {max_year} are not accepted")]
    TooFar {
        /// The last accepted year.
        max_year: i32,
    },
    /// A lead time longer than [`Lead::MAX`] ("remind 40 days before").
    #[error("a lead time longer than {max_days} days")]
    LeadTooLong {
        /// The longest lead, in days.
        max_days: u32,
    },
}

/// Reads a lead time typed on its own (`/settings 30 min`, "2 hrs", "2 часа", "1 kun"; `0` or
/// "off" for none) with the same duration grammar as the lead times inside task phrases.
/// [`DueError::NoTime`] when it is no duration, [`DueError::LeadTooLong`] past [`Lead::MAX`].
pub fn parse_lead(input: &str, lang_hint: Lang) -> Result<Lead, DueError> {
    if input.chars().count() > MAX_INPUT_CHARS {
        return Err(DueError::TooLong {
            max: MAX_INPUT_CHARS,
        });
    }
    if matches!(
        crate::domain::fold::fold(input.trim()).as_str(),
        "0" | "off" | "none" | "нет" | "0 мин" | "yo'q"
    ) {
        return Ok(Lead::ZERO);
    }
    let lexed = grammar::Lexed::new(input, lang_hint);
    let span = grammar::parse_duration(&lexed)
        .filter(|span| span.months == 0)
        .ok_or(DueError::NoTime)?;
    resolve::lead_duration(span)
}

/// Parses a task message such as "pay rent tomorrow 9:00", "через 2 часа
/// позвонить маме" or "har dushanba soat 10 da yig'ilish", for a user in
/// `tz` whose language is `lang_hint`, at instant `now`.
///
/// The time phrase may come before or after the text (or both halves
/// around it). One-off due times are always after `now`; a recurring task's
/// `due` is its first occurrence after `now`. Never panics.
pub fn parse_due(
    input: &str,
    lang_hint: Lang,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<ParsedDue, DueError> {
    if input.chars().all(is_space) {
        return Err(DueError::EmptyInput);
    }
    if input.chars().count() > MAX_INPUT_CHARS {
        return Err(DueError::TooLong {
            max: MAX_INPUT_CHARS,
        });
    }
    let lexed = grammar::Lexed::new(input, lang_hint);
    let found = phrase::find(input, &lexed).ok_or(DueError::NoTime)?;
    let resolved = resolve::resolve(&found.spec, now, tz)?;
    if found.text.is_empty() {
        return Err(DueError::EmptyText);
    }
    Ok(ParsedDue {
        text: found.text,
        due: resolved.due,
        recurrence: resolved.recurrence,
        lead: resolved.lead,
    })
}
