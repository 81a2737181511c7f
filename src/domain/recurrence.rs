//! Recurring tasks: which local days they repeat on, at which local time, and
//! when the next occurrence is.
//!
//! Occurrences are computed on the user's wall clock and only then turned
//! into instants (never by adding 24 h in UTC), so a daily 09:00 task stays
//! at 09:00 across DST changes. Wall times that fall into a DST gap or
//! overlap follow [`resolve_local`]'s policy.

mod rule;

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Timelike, Utc, Weekday, WeekdaySet};
use chrono_tz::Tz;

use crate::domain::timezone::{resolve_local, to_local};

pub use rule::RuleError;

/// Monday to Friday, the set that [`Frequency::Weekdays`] stands for.
pub const WORKING_DAYS: WeekdaySet = WeekdaySet::from_array([
    Weekday::Mon,
    Weekday::Tue,
    Weekday::Wed,
    Weekday::Thu,
    Weekday::Fri,
]);

/// On which local days a recurring task happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frequency {
    /// Every day.
    Daily,
    /// Monday to Friday.
    Weekdays,
    /// On each of the given weekdays (never empty inside a [`Recurrence`]).
    Weekly(WeekdaySet),
    /// On this day of every month (1–31). In a month that is too short the
    /// last day of that month is used instead: `MonthlyOnDay(31)` fires on
    /// 30 April and 28/29 February, so no month is silently skipped.
    MonthlyOnDay(u32),
}

/// Why a recurrence cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecurrenceError {
    /// A weekly recurrence without any weekday.
    #[error("a weekly recurrence needs at least one weekday")]
    NoWeekdays,
    /// A monthly day outside 1–31.
    #[error("day of month {day} is not between 1 and 31")]
    DayOfMonthOutOfRange {
        /// The day that was given.
        day: u32,
    },
}

/// A recurring schedule: a [`Frequency`] and the local wall-clock time of day.
///
/// Built only through [`Recurrence::new`], which validates and normalizes it
/// (a weekly Mon–Fri set becomes [`Frequency::Weekdays`], all seven days
/// become [`Frequency::Daily`], sub-second precision is dropped), so equal
/// schedules compare equal and survive the text round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recurrence {
    frequency: Frequency,
    time: NaiveTime,
}

impl Recurrence {
    /// Validates and normalizes a schedule.
    pub fn new(frequency: Frequency, time: NaiveTime) -> Result<Self, RecurrenceError> {
        let frequency = match frequency {
            Frequency::Weekly(days) if days.is_empty() => {
                return Err(RecurrenceError::NoWeekdays);
            }
            Frequency::Weekly(days) if days == WeekdaySet::ALL => Frequency::Daily,
            Frequency::Weekly(days) if days == WORKING_DAYS => Frequency::Weekdays,
            Frequency::MonthlyOnDay(day) if !(1..=31).contains(&day) => {
                return Err(RecurrenceError::DayOfMonthOutOfRange { day });
            }
            other => other,
        };
        let time = time.with_nanosecond(0).unwrap_or(time);
        Ok(Recurrence { frequency, time })
    }

    /// On which days it repeats.
    pub fn frequency(&self) -> Frequency {
        self.frequency
    }

    /// The local wall-clock time of each occurrence.
    pub fn time(&self) -> NaiveTime {
        self.time
    }

    /// The first occurrence strictly after `after`, for a user in `tz`.
    ///
    /// Each candidate day's wall time is resolved on its own: a time in a
    /// spring-forward gap fires at the first valid instant after the gap,
    /// an ambiguous fall-back time fires once, at the earlier instant.
    pub fn next_after(&self, after: DateTime<Utc>, tz: Tz) -> DateTime<Utc> {
        let local_after = to_local(tz, after).date();
        // Start a day early: a candidate's instant can differ from its wall
        // time by a DST shift, so yesterday's occurrence is checked too.
        let mut from = local_after.pred_opt().unwrap_or(local_after);
        loop {
            let Some(day) = self.first_day_on_or_after(from) else {
                return DateTime::<Utc>::MAX_UTC;
            };
            let at = resolve_local(tz, day.and_time(self.time));
            if at > after {
                return at;
            }
            match day.succ_opt() {
                Some(next) => from = next,
                None => return DateTime::<Utc>::MAX_UTC,
            }
        }
    }

    /// The first day on or after `from` that this schedule fires on; `None`
    /// only past the end of chrono's calendar.
    fn first_day_on_or_after(&self, from: NaiveDate) -> Option<NaiveDate> {
        match self.frequency {
            Frequency::Daily => Some(from),
            Frequency::Weekdays => first_weekday_in(from, WORKING_DAYS),
            Frequency::Weekly(days) => first_weekday_in(from, days),
            Frequency::MonthlyOnDay(day) => {
                let this_month = clamped_day_in_month(from.year(), from.month(), day)?;
                if this_month >= from {
                    Some(this_month)
                } else {
                    let (year, month) = match from.month() {
                        12 => (from.year().checked_add(1)?, 1),
                        m => (from.year(), m + 1),
                    };
                    clamped_day_in_month(year, month, day)
                }
            }
        }
    }
}

/// The first day on or after `from` whose weekday is in `days`.
fn first_weekday_in(from: NaiveDate, days: WeekdaySet) -> Option<NaiveDate> {
    from.iter_days()
        .take(7)
        .find(|d| days.contains(d.weekday()))
}

/// `day` of the given month, or the month's last day if it is shorter.
fn clamped_day_in_month(year: i32, month: u32, day: u32) -> Option<NaiveDate> {
    let last = (28..=31)
        .rev()
        .find(|d| NaiveDate::from_ymd_opt(year, month, *d).is_some())?;
    NaiveDate::from_ymd_opt(year, month, day.min(last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDateTime;

    fn time(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).expect("valid time")
    }

    fn local(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").expect("valid datetime")
    }

    fn at(tz: Tz, s: &str) -> DateTime<Utc> {
        resolve_local(tz, local(s))
    }

    #[test]
    fn daily_keeps_wall_time_across_dst() {
        let tz = chrono_tz::Europe::Berlin;
        let r = Recurrence::new(Frequency::Daily, time(9, 0)).expect("valid");
        let first = r.next_after(at(tz, "2026-03-28 10:00"), tz);
        assert_eq!(to_local(tz, first), local("2026-03-29 09:00"));
        let second = r.next_after(first, tz);
        assert_eq!(to_local(tz, second), local("2026-03-30 09:00"));
        assert_eq!((second - first).num_hours(), 24);
        let before = r.next_after(at(tz, "2026-03-28 08:00"), tz);
        assert_eq!((first - before).num_hours(), 23);
    }

    #[test]
    fn gap_and_overlap_follow_the_policy() {
        let tz = chrono_tz::Europe::Berlin;
        let r = Recurrence::new(Frequency::Daily, time(2, 30)).expect("valid");
        let gap = r.next_after(at(tz, "2026-03-28 12:00"), tz);
        assert_eq!(to_local(tz, gap), local("2026-03-29 03:00"));
        assert_eq!(
            to_local(tz, r.next_after(gap, tz)),
            local("2026-03-30 02:30")
        );
        let overlap = r.next_after(at(tz, "2026-10-24 12:00"), tz);
        assert_eq!(overlap, local("2026-10-25 00:30").and_utc());
        assert_eq!(
            to_local(tz, r.next_after(overlap, tz)),
            local("2026-10-26 02:30")
        );
    }

    #[test]
    fn monthly_on_31_uses_last_day_of_short_months() {
        let tz = chrono_tz::Asia::Tashkent;
        let r = Recurrence::new(Frequency::MonthlyOnDay(31), time(9, 0)).expect("valid");
        let mut t = at(tz, "2026-01-31 10:00");
        let mut seen = Vec::new();
        for _ in 0..4 {
            t = r.next_after(t, tz);
            seen.push(to_local(tz, t).date().to_string());
        }
        assert_eq!(
            seen,
            ["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]
        );
    }

    #[test]
    fn weekdays_skip_the_weekend() {
        let tz = chrono_tz::Europe::Moscow;
        let r = Recurrence::new(Frequency::Weekdays, time(8, 0)).expect("valid");
        let next = r.next_after(at(tz, "2026-03-27 09:00"), tz);
        assert_eq!(to_local(tz, next), local("2026-03-30 08:00"));
    }

    #[test]
    fn new_validates_and_normalizes() {
        assert_eq!(
            Recurrence::new(Frequency::Weekly(WeekdaySet::EMPTY), time(9, 0)),
            Err(RecurrenceError::NoWeekdays)
        );
        assert_eq!(
            Recurrence::new(Frequency::MonthlyOnDay(32), time(9, 0)),
            Err(RecurrenceError::DayOfMonthOutOfRange { day: 32 })
        );
        let weekly = Recurrence::new(Frequency::Weekly(WORKING_DAYS), time(9, 0));
        assert_eq!(weekly.map(|r| r.frequency()), Ok(Frequency::Weekdays));
        let all = Recurrence::new(Frequency::Weekly(WeekdaySet::ALL), time(9, 0));
        assert_eq!(all.map(|r| r.frequency()), Ok(Frequency::Daily));
    }
}
