//! Recurring tasks: which local days (or hours) they repeat on, at which local time, how many
//! periods apart, and when the next occurrence is.
//!
//! Day-based rules (daily, weekly, monthly, yearly) are computed on the user's wall clock and
//! only then turned into instants (never by adding 24 h in UTC), so a daily 09:00 task stays at
//! 09:00 across DST changes, and "every 2 days" keeps its wall time too. Wall times that fall
//! into a DST gap or overlap follow [`resolve_local`]'s policy. Hour-based rules ("every 3
//! hours") keep elapsed time instead: their occurrences are exactly 3 h apart whatever the clock
//! on the wall says.
//!
//! An interval above 1 needs an [`Anchor`] that fixes its phase: "every 2 days" counts days from
//! the anchor's date, "every 2 weeks" counts Monday-based weeks from the anchor's week, "every 3
//! months" months from its month, "every 2 years" years from its year, and "every 3 hours"
//! hours from the anchor instant. The anchor fixes the phase only: the schedule extends both
//! ways from it, so the anchor is simply the first occurrence when a task is created.

mod days;
mod rule;

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Timelike, Utc, Weekday, WeekdaySet};
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

/// The largest interval a rule may have ("every 1000 days"); larger ones are refused as
/// [`RecurrenceError::IntervalOutOfRange`].
pub const MAX_INTERVAL: u32 = 1000;

/// On which local days (or how often, for [`Frequency::Hourly`]) a recurring task happens; the
/// rule's interval says how many of these periods apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frequency {
    /// Every `interval` hours of elapsed time from the anchor instant (not the wall clock: a DST
    /// change does not move it). The only frequency without a time of day.
    Hourly,
    /// Every day (every `interval` days).
    Daily,
    /// Monday to Friday.
    Weekdays,
    /// On each of the given weekdays (never empty inside a [`Recurrence`]).
    Weekly(WeekdaySet),
    /// On this day of every month (1–31). In a month that is too short the
    /// last day of that month is used instead: `MonthlyOnDay(31)` fires on
    /// 30 April and 28/29 February, so no month is silently skipped.
    MonthlyOnDay(u32),
    /// On the last day of every month ("every month on the last day").
    MonthlyOnLastDay,
    /// On this date every year; 29 February falls on 28 February in other years.
    Yearly {
        /// The month, 1–12.
        month: u32,
        /// The day of the month, valid in that month of a leap year.
        day: u32,
    },
}

/// Where an interval counts from (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// For day-based rules: a local date, normalized to the start of its period (the Monday of
    /// its week for weekly rules, the 1st of its month for monthly ones, 1 January for yearly
    /// ones), so that equal schedules compare equal.
    Date(NaiveDate),
    /// For hourly rules: an instant of one occurrence, to the second.
    Instant(DateTime<Utc>),
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
    /// A yearly date that no year has, like 30 February.
    #[error("{day:02}.{month:02} is not a date")]
    InvalidYearlyDate {
        /// The month that was given.
        month: u32,
        /// The day that was given.
        day: u32,
    },
    /// An interval of 0 or above [`MAX_INTERVAL`].
    #[error("an interval of {interval} is not between 1 and {MAX_INTERVAL}")]
    IntervalOutOfRange {
        /// The interval that was given.
        interval: u32,
    },
    /// An hourly rule built without its anchor instant (see [`Recurrence::hourly`]).
    #[error("an hourly recurrence needs the instant it counts from")]
    HourlyNeedsAnchor,
}

/// A recurring schedule: a [`Frequency`], the local wall-clock time of day, an interval and,
/// when the interval matters, its [`Anchor`].
///
/// Built only through [`Recurrence::new`], [`Recurrence::every`] and [`Recurrence::hourly`],
/// which validate and normalize it (a weekly Mon–Fri set becomes [`Frequency::Weekdays`], all
/// seven days every week become [`Frequency::Daily`], sub-second precision is dropped, an
/// interval of 1 has no anchor), so equal schedules compare equal and survive the text round
/// trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recurrence {
    frequency: Frequency,
    time: NaiveTime,
    interval: u32,
    anchor: Option<Anchor>,
}

impl Recurrence {
    /// Validates and normalizes a schedule that repeats every period (interval 1). Hourly
    /// rules need an anchor: build them with [`Recurrence::hourly`].
    pub fn new(frequency: Frequency, time: NaiveTime) -> Result<Self, RecurrenceError> {
        if frequency == Frequency::Hourly {
            return Err(RecurrenceError::HourlyNeedsAnchor);
        }
        Ok(Recurrence {
            frequency: normalized(frequency, 1)?,
            time: whole_seconds(time),
            interval: 1,
            anchor: None,
        })
    }

    /// A day-based schedule that repeats every `interval` periods (days, weeks, months or
    /// years, as `frequency` says), counted from the period that holds `anchor` (see the
    /// module docs). With an interval of 1 the anchor is dropped.
    pub fn every(
        frequency: Frequency,
        time: NaiveTime,
        interval: u32,
        anchor: NaiveDate,
    ) -> Result<Self, RecurrenceError> {
        if frequency == Frequency::Hourly {
            return Err(RecurrenceError::HourlyNeedsAnchor);
        }
        check_interval(interval)?;
        let frequency = normalized(frequency, interval)?;
        let anchor = (interval > 1).then(|| Anchor::Date(days::period_start(frequency, anchor)));
        Ok(Recurrence {
            frequency,
            time: whole_seconds(time),
            interval,
            anchor,
        })
    }

    /// Every `hours` hours of elapsed time, one occurrence being at `anchor` (kept to the
    /// second). Its [`Recurrence::time`] is the anchor's time of day in UTC.
    pub fn hourly(hours: u32, anchor: DateTime<Utc>) -> Result<Self, RecurrenceError> {
        check_interval(hours)?;
        let anchor = anchor.with_nanosecond(0).unwrap_or(anchor);
        Ok(Recurrence {
            frequency: Frequency::Hourly,
            time: anchor.time(),
            interval: hours,
            anchor: Some(Anchor::Instant(anchor)),
        })
    }

    /// The same schedule (days, interval, anchor) at another local time of day; for an
    /// hourly rule, which has no time of day, the rule itself.
    pub fn with_time(&self, time: NaiveTime) -> Recurrence {
        if self.frequency == Frequency::Hourly {
            return *self;
        }
        Recurrence {
            time: whole_seconds(time),
            ..*self
        }
    }

    /// On which days it repeats.
    pub fn frequency(&self) -> Frequency {
        self.frequency
    }

    /// The local wall-clock time of each occurrence (for an hourly rule, the anchor's time of
    /// day in UTC, which says nothing about the others).
    pub fn time(&self) -> NaiveTime {
        self.time
    }

    /// How many periods (hours, days, weeks, months or years) apart the occurrences are; 1
    /// unless the user said "every 2 …".
    pub fn interval(&self) -> u32 {
        self.interval
    }

    /// Where the interval counts from: `None` exactly when the interval is 1 and the rule is
    /// not hourly.
    pub fn anchor(&self) -> Option<Anchor> {
        self.anchor
    }

    /// The first occurrence strictly after `after`, for a user in `tz`.
    ///
    /// Each candidate day's wall time is resolved on its own: a time in a
    /// spring-forward gap fires at the first valid instant after the gap,
    /// an ambiguous fall-back time fires once, at the earlier instant.
    /// Hourly rules ignore `tz`: they count elapsed hours.
    pub fn next_after(&self, after: DateTime<Utc>, tz: Tz) -> DateTime<Utc> {
        if let Some(Anchor::Instant(anchor)) = self.anchor {
            return next_hourly(anchor, self.interval, after);
        }
        let local_after = to_local(tz, after).date();
        // Start a day early: a candidate's instant can differ from its wall
        // time by a DST shift, so yesterday's occurrence is checked too.
        let mut from = local_after.pred_opt().unwrap_or(local_after);
        loop {
            let Some(day) = days::first_on_or_after(self, from) else {
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

    /// The anchor's date, for day-based rules with an interval.
    fn anchor_date(&self) -> Option<NaiveDate> {
        match self.anchor {
            Some(Anchor::Date(date)) => Some(date),
            _ => None,
        }
    }
}

/// The first instant after `after` at which the local clock of `zone` reads `time`: daily, on
/// the wall clock (a time in a DST gap comes at the first instant after it, an ambiguous one at
/// the earlier), as recurring tasks are.
pub fn next_time_of_day(time: NaiveTime, zone: Tz, after: DateTime<Utc>) -> DateTime<Utc> {
    match Recurrence::new(Frequency::Daily, time) {
        Ok(daily) => daily.next_after(after, zone),
        // A daily rule always builds; should it not, the same time tomorrow on the UTC clock.
        Err(_) => after + chrono::TimeDelta::days(1),
    }
}

fn check_interval(interval: u32) -> Result<(), RecurrenceError> {
    if (1..=MAX_INTERVAL).contains(&interval) {
        Ok(())
    } else {
        Err(RecurrenceError::IntervalOutOfRange { interval })
    }
}

fn whole_seconds(time: NaiveTime) -> NaiveTime {
    time.with_nanosecond(0).unwrap_or(time)
}

/// Validates `frequency` and picks its one canonical form.
fn normalized(frequency: Frequency, interval: u32) -> Result<Frequency, RecurrenceError> {
    Ok(match frequency {
        Frequency::Weekly(days) if days.is_empty() => return Err(RecurrenceError::NoWeekdays),
        // Every day of every other week is not every other day, so only with interval 1.
        Frequency::Weekly(days) if days == WeekdaySet::ALL && interval == 1 => Frequency::Daily,
        Frequency::Weekly(days) if days == WORKING_DAYS => Frequency::Weekdays,
        Frequency::MonthlyOnDay(day) if !(1..=31).contains(&day) => {
            return Err(RecurrenceError::DayOfMonthOutOfRange { day });
        }
        // 2000 is a leap year: a date that fails there fails in every year.
        Frequency::Yearly { month, day } if NaiveDate::from_ymd_opt(2000, month, day).is_none() => {
            return Err(RecurrenceError::InvalidYearlyDate { month, day });
        }
        other => other,
    })
}

/// The first of `anchor + k·hours` (any whole `k`) strictly after `after`.
fn next_hourly(anchor: DateTime<Utc>, hours: u32, after: DateTime<Utc>) -> DateTime<Utc> {
    let step = i64::from(hours) * 3600;
    // `timestamp` rounds down and the anchor is a whole second, so a fraction of a second past
    // an occurrence still counts as past it.
    let steps = (after.timestamp() - anchor.timestamp()).div_euclid(step) + 1;
    steps
        .checked_mul(step)
        .and_then(TimeDelta::try_seconds)
        .and_then(|d| anchor.checked_add_signed(d))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
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

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("valid date")
    }

    fn at(tz: Tz, s: &str) -> DateTime<Utc> {
        resolve_local(tz, local(s))
    }

    /// The local dates of the next `n` occurrences after `start`.
    fn dates(r: &Recurrence, tz: Tz, start: &str, n: usize) -> Vec<String> {
        let mut t = at(tz, start);
        (0..n)
            .map(|_| {
                t = r.next_after(t, tz);
                to_local(tz, t).date().to_string()
            })
            .collect()
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
        assert_eq!(
            dates(&r, tz, "2026-01-31 10:00", 4),
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
    fn every_two_days_counts_from_its_anchor_across_dst() {
        let tz = chrono_tz::Europe::Berlin;
        let r =
            Recurrence::every(Frequency::Daily, time(9, 0), 2, date("2026-03-27")).expect("valid");
        assert_eq!(
            dates(&r, tz, "2026-03-26 10:00", 4),
            ["2026-03-27", "2026-03-29", "2026-03-31", "2026-04-02"]
        );
        let sunday = r.next_after(at(tz, "2026-03-28 10:00"), tz);
        assert_eq!(to_local(tz, sunday), local("2026-03-29 09:00"));
    }

    #[test]
    fn every_two_weeks_on_two_days_skips_the_odd_weeks() {
        let tz = chrono_tz::America::New_York;
        let days = WeekdaySet::from_array([Weekday::Tue, Weekday::Thu]);
        let r = Recurrence::every(Frequency::Weekly(days), time(19, 0), 2, date("2026-03-05"))
            .expect("valid");
        assert_eq!(r.anchor(), Some(Anchor::Date(date("2026-03-02"))));
        assert_eq!(
            dates(&r, tz, "2026-03-01 10:00", 5),
            [
                "2026-03-03",
                "2026-03-05",
                "2026-03-17",
                "2026-03-19",
                "2026-03-31"
            ]
        );
    }

    #[test]
    fn monthly_last_day_and_every_third_month() {
        let tz = chrono_tz::Australia::Sydney;
        let last = Recurrence::new(Frequency::MonthlyOnLastDay, time(9, 0)).expect("valid");
        assert_eq!(
            dates(&last, tz, "2028-01-31 10:00", 3),
            ["2028-02-29", "2028-03-31", "2028-04-30"]
        );
        let quarterly = Recurrence::every(
            Frequency::MonthlyOnDay(15),
            time(9, 0),
            3,
            date("2026-04-15"),
        )
        .expect("valid");
        assert_eq!(
            dates(&quarterly, tz, "2026-03-01 10:00", 3),
            ["2026-04-15", "2026-07-15", "2026-10-15"]
        );
    }

    #[test]
    fn yearly_on_29_february_falls_on_the_28th_in_other_years() {
        let tz = chrono_tz::Europe::Berlin;
        let r =
            Recurrence::new(Frequency::Yearly { month: 2, day: 29 }, time(9, 0)).expect("valid");
        assert_eq!(
            dates(&r, tz, "2026-03-01 10:00", 3),
            ["2027-02-28", "2028-02-29", "2029-02-28"]
        );
        let every_other = Recurrence::every(
            Frequency::Yearly { month: 2, day: 14 },
            time(9, 0),
            2,
            date("2027-02-14"),
        )
        .expect("valid");
        assert_eq!(
            dates(&every_other, tz, "2026-03-01 10:00", 2),
            ["2027-02-14", "2029-02-14"]
        );
    }

    #[test]
    fn hourly_keeps_elapsed_time_across_dst() {
        let tz = chrono_tz::Europe::Berlin;
        let anchor = at(tz, "2026-03-28 23:00");
        let r = Recurrence::hourly(3, anchor).expect("valid");
        let next = r.next_after(anchor, tz);
        assert_eq!((next - anchor).num_hours(), 3);
        assert_eq!(to_local(tz, next), local("2026-03-29 03:00"));
        assert_eq!(
            to_local(tz, r.next_after(next, tz)),
            local("2026-03-29 06:00")
        );
        assert_eq!(
            r.next_after(anchor - TimeDelta::hours(5), tz),
            anchor - TimeDelta::hours(3)
        );
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
        assert_eq!(
            Recurrence::new(Frequency::Yearly { month: 2, day: 30 }, time(9, 0)),
            Err(RecurrenceError::InvalidYearlyDate { month: 2, day: 30 })
        );
        assert_eq!(
            Recurrence::new(Frequency::Hourly, time(9, 0)),
            Err(RecurrenceError::HourlyNeedsAnchor)
        );
        assert_eq!(
            Recurrence::every(Frequency::Daily, time(9, 0), 0, date("2026-01-01")),
            Err(RecurrenceError::IntervalOutOfRange { interval: 0 })
        );
        let weekly = Recurrence::new(Frequency::Weekly(WORKING_DAYS), time(9, 0));
        assert_eq!(weekly.map(|r| r.frequency()), Ok(Frequency::Weekdays));
        let all = Recurrence::new(Frequency::Weekly(WeekdaySet::ALL), time(9, 0));
        assert_eq!(all.map(|r| r.frequency()), Ok(Frequency::Daily));
        let all_biweekly = Recurrence::every(
            Frequency::Weekly(WeekdaySet::ALL),
            time(9, 0),
            2,
            date("2026-01-01"),
        );
        assert_eq!(
            all_biweekly.map(|r| r.frequency()),
            Ok(Frequency::Weekly(WeekdaySet::ALL))
        );
        let once = Recurrence::every(Frequency::Daily, time(9, 0), 1, date("2026-01-01"));
        assert_eq!(once, Recurrence::new(Frequency::Daily, time(9, 0)));
    }

    #[test]
    fn with_time_keeps_days_interval_and_anchor() {
        let r =
            Recurrence::every(Frequency::Daily, time(9, 0), 3, date("2026-01-01")).expect("valid");
        let moved = r.with_time(time(18, 30));
        assert_eq!(moved.time(), time(18, 30));
        assert_eq!((moved.interval(), moved.anchor()), (3, r.anchor()));
    }
}
