//! The time of day a phrase says: a clock time read with its am/pm or part of the day, an
//! hour that may be either side of noon ("at 3"), midnight, or nothing (a part of the day's
//! own time, or [`DEFAULT_TIME`]).

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, Timelike};

use super::super::grammar::Clock;
use super::super::keys::Period;
use super::super::{Assumption, DEFAULT_TIME, DueError, daytime_reading};

/// What a phrase says about the time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Said {
    /// No clock time.
    Nothing,
    /// One time of day.
    Exact(NaiveTime),
    /// An hour from 1 to 12 without am/pm, a part of the day or a leading zero ("at 3",
    /// "9:30"): either reading is possible.
    Either {
        /// The time as typed on a 12-hour clock (`03:00` for "3", `12:00` for "12").
        typed: NaiveTime,
        /// The reading before noon (`00:xx` for 12).
        am: NaiveTime,
        /// The reading after noon (`12:xx` for 12).
        pm: NaiveTime,
    },
    /// The word midnight: the end of the day it is said with.
    Midnight,
}

impl Said {
    /// Reads `clock` with `period`: "9 pm" and "9 вечера" are 21:00, "2 ночи" is 02:00, "11
    /// ночи" 23:00, "12 am" 00:00; an hour 1–12 with nothing to tell am from pm is
    /// [`Said::Either`].
    pub fn read(clock: Option<Clock>, period: Option<Period>) -> Result<Said, DueError> {
        let Some(clock) = clock else {
            return Ok(Said::Nothing);
        };
        if clock.midnight {
            return Ok(Said::Midnight);
        }
        let invalid = DueError::InvalidTime {
            hour: clock.hour,
            minute: clock.minute,
        };
        let at = |hour: u32| NaiveTime::from_hms_opt(hour, clock.minute, 0).ok_or(invalid.clone());
        if clock.meridiem.is_none()
            && period.is_none()
            && !clock.exact
            && (1..=12).contains(&clock.hour)
        {
            let typed = at(clock.hour)?;
            let (am, pm) = if clock.hour == 12 {
                (at(0)?, typed)
            } else {
                (typed, at(clock.hour + 12)?)
            };
            return Ok(Said::Either { typed, am, pm });
        }
        let hour = hour_of_day(clock, period).ok_or_else(|| invalid.clone())?;
        at(hour).map(Said::Exact)
    }

    /// The moment of the day on a day that was named (or in a repeat): an hour 1–12 is read
    /// in the daytime, 1–6 after noon and 7–12 before it or at noon ("tomorrow at 3" is 15:00,
    /// "tomorrow at 9" 09:00, "tomorrow at quarter to seven" 06:45: see [`daytime_reading`]),
    /// and noted; no time at all is the part of the day's time or
    /// [`DEFAULT_TIME`], noted too.
    pub fn on_a_day(self, period: Option<Period>, notes: &mut Vec<Assumption>) -> Moment {
        match self {
            Said::Nothing => {
                let chosen = period.map_or(DEFAULT_TIME, period_default);
                notes.push(Assumption::TimeNotSaid { chosen });
                Moment::same_day(chosen)
            }
            Said::Exact(time) => Moment {
                time,
                next_day: period.is_some_and(|p| {
                    matches!(p, Period::Night | Period::Evening | Period::Tonight)
                }) && time.hour() < 6,
            },
            Said::Either { typed, .. } => {
                let chosen = daytime_reading(typed);
                notes.push(Assumption::HourWithoutAmPm { typed, chosen });
                Moment::same_day(chosen)
            }
            Said::Midnight => Moment {
                time: NaiveTime::MIN,
                next_day: true,
            },
        }
    }
}

/// A time of day on a named day, which may fall on the next calendar date: midnight and the
/// small hours "at night" belong to the night after the day they are said with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Moment {
    /// The wall-clock time.
    pub time: NaiveTime,
    /// Whether it is on the date after the named day.
    pub next_day: bool,
}

impl Moment {
    /// `time` on the named day itself.
    pub fn same_day(time: NaiveTime) -> Moment {
        Moment {
            time,
            next_day: false,
        }
    }

    /// The local date and time this moment is at, for the named day `day`.
    pub fn local(self, day: NaiveDate) -> NaiveDateTime {
        let date = if self.next_day {
            day.succ_opt().unwrap_or(day)
        } else {
            day
        };
        date.and_time(self.time)
    }
}

/// The 24-hour hour of `clock` read with its am/pm or part of the day:
/// "9 pm" and "9 вечера" are 21, "2 ночи" is 2, "11 ночи" is 23, "12 am" is 0, "вечером в 12"
/// is 0 (midnight), "tonight at 1" is 1 (the night after the evening) and "tonight at 9" 21.
fn hour_of_day(clock: Clock, period: Option<Period>) -> Option<u32> {
    let h = clock.hour;
    match (clock.meridiem, period) {
        (Some(false), _) => match h {
            12 => Some(0),
            1..=11 => Some(h),
            _ => None,
        },
        (Some(true), _) => match h {
            12 => Some(12),
            1..=11 => Some(h + 12),
            _ => None,
        },
        (None, Some(Period::Morning)) => (h <= 11).then_some(h),
        (None, Some(Period::Afternoon | Period::Lunch | Period::Evening)) => match h {
            1..=11 => Some(h + 12),
            12 if period == Some(Period::Evening) => Some(0),
            12 => Some(12),
            13..=23 => Some(h),
            _ => None,
        },
        (None, Some(Period::Tonight)) => match h {
            0..=4 => Some(h),
            12 => Some(0),
            5..=11 => Some(h + 12),
            13..=23 => Some(h),
            _ => None,
        },
        (None, Some(Period::Night)) => match h {
            0..=5 => Some(h),
            12 => Some(0),
            6..=11 => Some(h + 12),
            13..=23 => Some(h),
            _ => None,
        },
        (None, None) => (h <= 23).then_some(h),
    }
}

/// The time a part of the day means when no clock time is given.
pub(super) fn period_default(period: Period) -> NaiveTime {
    let hour = match period {
        Period::Morning => 9,
        Period::Lunch => 13,
        Period::Afternoon => 14,
        Period::Evening | Period::Tonight => 19,
        Period::Night => 22,
    };
    NaiveTime::from_hms_opt(hour, 0, 0).unwrap_or(DEFAULT_TIME)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hour(h: u32, meridiem: Option<bool>, period: Option<Period>) -> Option<u32> {
        let clock = Clock {
            meridiem,
            ..Clock::at(h, 0)
        };
        hour_of_day(clock, period)
    }

    fn t(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).expect("valid time")
    }

    #[test]
    fn am_pm_follow_the_12_hour_clock() {
        assert_eq!(hour(12, Some(false), None), Some(0));
        assert_eq!(hour(9, Some(false), None), Some(9));
        assert_eq!(hour(12, Some(true), None), Some(12));
        assert_eq!(hour(9, Some(true), None), Some(21));
        assert_eq!(hour(13, Some(true), None), None);
        assert_eq!(hour(0, Some(false), None), None);
    }

    #[test]
    fn parts_of_the_day_set_am_or_pm() {
        assert_eq!(hour(9, None, Some(Period::Morning)), Some(9));
        assert_eq!(hour(15, None, Some(Period::Morning)), None);
        assert_eq!(hour(3, None, Some(Period::Afternoon)), Some(15));
        assert_eq!(hour(12, None, Some(Period::Afternoon)), Some(12));
        assert_eq!(hour(1, None, Some(Period::Lunch)), Some(13));
        assert_eq!(hour(9, None, Some(Period::Evening)), Some(21));
        assert_eq!(hour(21, None, Some(Period::Evening)), Some(21));
        assert_eq!(hour(12, None, Some(Period::Evening)), Some(0));
        assert_eq!(hour(2, None, Some(Period::Night)), Some(2));
        assert_eq!(hour(11, None, Some(Period::Night)), Some(23));
        assert_eq!(hour(12, None, Some(Period::Night)), Some(0));
        assert_eq!(hour(1, None, Some(Period::Tonight)), Some(1));
        assert_eq!(hour(9, None, Some(Period::Tonight)), Some(21));
        assert_eq!(hour(12, None, Some(Period::Tonight)), Some(0));
        assert_eq!(hour(23, None, None), Some(23));
        assert_eq!(hour(24, None, None), None);
    }

    #[test]
    fn a_bare_hour_is_either_side_of_noon_unless_written_24_hour() {
        let either = |h, m| Said::read(Some(Clock::at(h, m)), None);
        assert_eq!(
            either(3, 0),
            Ok(Said::Either {
                typed: t(3, 0),
                am: t(3, 0),
                pm: t(15, 0)
            })
        );
        assert_eq!(
            either(12, 0),
            Ok(Said::Either {
                typed: t(12, 0),
                am: t(0, 0),
                pm: t(12, 0)
            })
        );
        assert_eq!(either(15, 0), Ok(Said::Exact(t(15, 0))));
        let zero = Clock {
            exact: true,
            ..Clock::at(3, 0)
        };
        assert_eq!(Said::read(Some(zero), None), Ok(Said::Exact(t(3, 0))));
        assert_eq!(
            Said::read(Some(Clock::at(3, 0)), Some(Period::Evening)),
            Ok(Said::Exact(t(15, 0)))
        );
    }

    #[test]
    fn on_a_day_the_daytime_reading_wins_and_is_noted() {
        let mut notes = Vec::new();
        let read = |h| {
            let said = Said::read(Some(Clock::at(h, 0)), None).expect("valid");
            said.on_a_day(None, &mut Vec::new()).time
        };
        assert_eq!(read(3), t(15, 0));
        assert_eq!(read(6), t(18, 0));
        assert_eq!(read(7), t(7, 0));
        assert_eq!(read(11), t(11, 0));
        assert_eq!(read(12), t(12, 0));
        let said = Said::read(Some(Clock::at(3, 0)), None).expect("valid");
        said.on_a_day(None, &mut notes);
        assert_eq!(
            notes,
            [Assumption::HourWithoutAmPm {
                typed: t(3, 0),
                chosen: t(15, 0)
            }]
        );
        let night = Said::Exact(t(2, 0)).on_a_day(Some(Period::Night), &mut notes);
        assert!(night.next_day);
        assert!(Said::Midnight.on_a_day(None, &mut notes).next_day);
    }
}
