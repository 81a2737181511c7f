//! An hour that may as well be in the morning as in the evening: "tomorrow at 6", "every day at
//! 7", "в пятницу в 6", "ertaga soat 7 da", with no am/pm, no part of the day and no word of
//! the morning or evening in the message. The parser takes the daytime reading (6 is 18:00, 7 is
//! 07:00) and gives both, so that a chat can ask with two buttons ([06:00] [18:00]) and apply
//! the one tapped ([`ParsedDue::choose`]). So too an hour without a day whose first reading is in
//! the night ("call client at 1" at 13:40): that reading is taken and the afternoon offered.

use std::ops::RangeInclusive;

use chrono::{DateTime, NaiveTime, Utc};

use super::{Assumption, ParsedDue};
use crate::domain::recurrence::Recurrence;

/// The hours (as typed, on a 12-hour clock) that are truly either side of noon on a named day:
/// people get up and have dinner at both. Other hours have a natural reading (3 is 15:00, 9 is
/// 09:00), which is taken and noted without a question.
pub const AMBIGUOUS_HOURS: RangeInclusive<u32> = 6..=7;

/// Which half of the day a reading is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HalfOfDay {
    /// Before noon (06:00).
    Morning,
    /// After noon (18:00).
    Evening,
}

/// One reading of the hour: its time of day, and the deadline (and rule, for a repeat) it
/// gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// The time of day, on the 24-hour clock.
    pub time: NaiveTime,
    /// The deadline with this reading (a repeat's first occurrence).
    pub due: DateTime<Utc>,
    /// The rule with this reading, for a repeat.
    pub recurrence: Option<Recurrence>,
}

/// Both readings of an hour in [`AMBIGUOUS_HOURS`] on a named day, or of one without a day read
/// first in the night, and which one the parse took (its [`ParsedDue::due`] and
/// [`ParsedDue::recurrence`] are that reading's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HourChoice {
    /// The hour as typed, on a 12-hour clock (06:00 for "6").
    pub typed: NaiveTime,
    /// The morning reading (06:00).
    pub morning: Reading,
    /// The evening reading (18:00).
    pub evening: Reading,
    /// The reading taken: the daytime one ([`super::daytime_reading`]) on a named day, the night
    /// one without a day.
    pub taken: HalfOfDay,
}

impl HourChoice {
    /// The reading of `half`.
    pub fn reading(&self, half: HalfOfDay) -> &Reading {
        match half {
            HalfOfDay::Morning => &self.morning,
            HalfOfDay::Evening => &self.evening,
        }
    }
}

impl ParsedDue {
    /// The parse with the hour read in `half` of the day, as a chat applies the button the
    /// user tapped: its deadline, rule and note are that reading's (the note then says what was
    /// chosen). A parse without a [`ParsedDue::choice`] is returned as it is.
    pub fn choose(mut self, half: HalfOfDay) -> ParsedDue {
        let Some(choice) = self.choice.as_mut() else {
            return self;
        };
        choice.taken = half;
        let reading = *choice.reading(half);
        self.due = reading.due;
        self.recurrence = reading.recurrence;
        for assumption in &mut self.assumptions {
            if let Assumption::HourWithoutAmPm { chosen, .. } = assumption {
                *chosen = reading.time;
            }
        }
        self
    }
}
