//! Recurring tasks: which local days (or minutes, or hours) they repeat on, at which local time,
//! how many periods apart, until when, and when the next occurrence is.
//!
//! Day-based rules (daily, weekly, monthly, yearly) are computed on the user's wall clock and
//! only then turned into instants (never by adding 24 h in UTC), so a daily 09:00 task stays at
//! 09:00 across DST changes, and "every 2 days" keeps its wall time too. Wall times that fall
//! into a DST gap or overlap follow [`resolve_local`]'s policy. Minute- and hour-based rules
//! ("every 30 minutes", "every 3 hours") keep elapsed time instead: their occurrences are
//! exactly 30 min or 3 h apart whatever the clock on the wall says.
//!
//! An interval above 1 needs an [`Anchor`] that fixes its phase: "every 2 days" counts days from
//! the anchor's date, "every 2 weeks" counts Monday-based weeks from the anchor's week, "every 3
//! months" months from its month, "every 2 years" years from its year, and "every 3 hours"
//! hours from the anchor instant. The anchor fixes the phase only: the schedule extends both
//! ways from it, so the anchor is simply the first occurrence when a task is created.
//!
//! A series may end ([`End`]: on a date, or after a number of occurrences) and may count from
//! when each occurrence was done rather than from the schedule ([`Recurrence::counts_from_done`],
//! Todoist's `every!`). [`Recurrence::next_after`] is the schedule alone, endless;
//! [`Recurrence::first_occurrence`], [`Recurrence::next_occurrence`] and
//! [`Recurrence::after_done`] walk the series with its end and its "from done", numbering each
//! [`Occurrence`] so that a store can keep where a counted series stands (see the `series`
//! module).

mod days;
mod rule;
mod series;

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Timelike, Utc, Weekday, WeekdaySet};
use chrono_tz::Tz;

use crate::domain::timezone::{resolve_local, to_local};

pub use rule::RuleError;
pub use series::{End, MAX_COUNT, Occurrence};

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

/// The shortest repeat, in minutes: "every 5 minutes" is a repeat, "every 2 minutes" is refused
/// ([`RecurrenceError::TooOften`]); reminding that often is nagging, which a chat offers instead.
pub const MIN_MINUTES: u32 = 5;

/// On which local days (or how often, for [`Frequency::Minutely`] and [`Frequency::Hourly`]) a
/// recurring task happens; the rule's interval says how many of these periods apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frequency {
    /// Every `interval` minutes (at least [`MIN_MINUTES`], never a whole number of hours, which
    /// is [`Frequency::Hourly`]) of elapsed time from the anchor instant, as hourly rules.
    Minutely,
    /// Every `interval` hours of elapsed time from the anchor instant (not the wall clock: a DST
    /// change does not move it). With [`Frequency::Minutely`], the only frequencies without a
    /// time of day.
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
    /// On one weekday of one week of every month: the first Monday, the last Friday (RRULE
    /// `BYDAY=1MO`, `BYDAY=-1FR`). Every month has a first to fourth and a last of each weekday,
    /// so no month is skipped.
    MonthlyOnWeekday {
        /// Which of the month's such weekdays.
        week: WeekOfMonth,
        /// The weekday.
        day: Weekday,
    },
    /// On this date every year; 29 February falls on 28 February in other years.
    Yearly {
        /// The month, 1–12.
        month: u32,
        /// The day of the month, valid in that month of a leap year.
        day: u32,
    },
}

impl Frequency {
    /// Whether occurrences are a fixed elapsed time apart (minutes or hours) rather than at a
    /// time of day on the wall clock.
    pub fn counts_elapsed_time(self) -> bool {
        matches!(self, Frequency::Minutely | Frequency::Hourly)
    }
}

/// Which of a month's weekdays of one kind a [`Frequency::MonthlyOnWeekday`] falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeekOfMonth {
    /// The first (days 1–7).
    First,
    /// The second (days 8–14).
    Second,
    /// The third (days 15–21).
    Third,
    /// The fourth (days 22–28).
    Fourth,
    /// The last (the last seven days of the month).
    Last,
}

impl WeekOfMonth {
    /// The RFC 5545 ordinal: 1 to 4, or -1 for the last.
    pub fn ordinal(self) -> i8 {
        match self {
            WeekOfMonth::First => 1,
            WeekOfMonth::Second => 2,
            WeekOfMonth::Third => 3,
            WeekOfMonth::Fourth => 4,
            WeekOfMonth::Last => -1,
        }
    }

    /// The week of an RFC 5545 ordinal (1 to 4, or -1).
    pub fn from_ordinal(ordinal: i8) -> Option<WeekOfMonth> {
        Some(match ordinal {
            1 => WeekOfMonth::First,
            2 => WeekOfMonth::Second,
            3 => WeekOfMonth::Third,
            4 => WeekOfMonth::Fourth,
            -1 => WeekOfMonth::Last,
            _ => return None,
        })
    }
}

/// Where an interval counts from (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// For day-based rules: a local date, normalized to the start of its period (the Monday of
    /// its week for weekly rules, the 1st of its month for monthly ones, 1 January for yearly
    /// ones), so that equal schedules compare equal.
    Date(NaiveDate),
    /// For minute and hour rules: an instant of one occurrence, to the second.
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
    /// A repeat more often than every [`MIN_MINUTES`] minutes.
    #[error("a repeat every {minutes} minutes is more often than every {MIN_MINUTES}")]
    TooOften {
        /// The interval asked for, in whole minutes.
        minutes: u32,
    },
    /// A minute or hour rule built without its anchor instant (see [`Recurrence::hourly`]).
    #[error("a minute or hour recurrence needs the instant it counts from")]
    HourlyNeedsAnchor,
    /// A count of occurrences of 0 or above [`MAX_COUNT`].
    #[error("a count of {count} occurrences is not between 1 and {MAX_COUNT}")]
    CountOutOfRange {
        /// The count that was given.
        count: u32,
    },
    /// "After done" for a rule on fixed days (weekdays, the last day or a weekday of the month),
    /// which has no length of time to count from a completion.
    #[error("a repeat on fixed days cannot count from when it was done")]
    FixedDaysFromDone,
}

/// A recurring schedule: a [`Frequency`], the local wall-clock time of day, an interval and,
/// when the interval matters, its [`Anchor`]; optionally an [`End`] and the "from done" mark.
///
/// Built only through [`Recurrence::new`], [`Recurrence::every`], [`Recurrence::hourly`] and
/// [`Recurrence::minutely`] (then [`Recurrence::ending`] and [`Recurrence::from_done`]), which
/// validate and normalize it (a weekly Mon–Fri set becomes [`Frequency::Weekdays`], all seven
/// days every week become [`Frequency::Daily`], 120 minutes become 2 hours, sub-second precision
/// is dropped, an interval of 1 has no anchor), so equal schedules compare equal and survive the
/// text round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recurrence {
    frequency: Frequency,
    time: NaiveTime,
    interval: u32,
    anchor: Option<Anchor>,
    end: Option<End>,
    from_done: bool,
}

impl Recurrence {
    /// Validates and normalizes a schedule that repeats every period (interval 1). Minute and
    /// hour rules need an anchor: build them with [`Recurrence::minutely`] and
    /// [`Recurrence::hourly`].
    pub fn new(frequency: Frequency, time: NaiveTime) -> Result<Self, RecurrenceError> {
        if frequency.counts_elapsed_time() {
            return Err(RecurrenceError::HourlyNeedsAnchor);
        }
        Ok(Recurrence {
            frequency: normalized(frequency, 1)?,
            time: whole_seconds(time),
            interval: 1,
            anchor: None,
            end: None,
            from_done: false,
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
        if frequency.counts_elapsed_time() {
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
            end: None,
            from_done: false,
        })
    }

    /// Every `hours` hours of elapsed time, the first occurrence at `anchor` (kept to the
    /// second). Its [`Recurrence::time`] is the anchor's time of day in UTC.
    pub fn hourly(hours: u32, anchor: DateTime<Utc>) -> Result<Self, RecurrenceError> {
        check_interval(hours)?;
        Ok(Self::elapsed(Frequency::Hourly, hours, anchor))
    }

    /// Every `minutes` minutes of elapsed time, the first occurrence at `anchor` (kept to the
    /// second): at least [`MIN_MINUTES`] ([`RecurrenceError::TooOften`] below); a whole number
    /// of hours is the [`Recurrence::hourly`] rule.
    pub fn minutely(minutes: u32, anchor: DateTime<Utc>) -> Result<Self, RecurrenceError> {
        if minutes < MIN_MINUTES {
            return Err(RecurrenceError::TooOften { minutes });
        }
        if minutes.is_multiple_of(60) {
            return Self::hourly(minutes / 60, anchor);
        }
        check_interval(minutes)?;
        Ok(Self::elapsed(Frequency::Minutely, minutes, anchor))
    }

    fn elapsed(frequency: Frequency, interval: u32, anchor: DateTime<Utc>) -> Recurrence {
        let anchor = anchor.with_nanosecond(0).unwrap_or(anchor);
        Recurrence {
            frequency,
            time: anchor.time(),
            interval,
            anchor: Some(Anchor::Instant(anchor)),
            end: None,
            from_done: false,
        }
    }

    /// The same schedule ending as `end` says (replacing any end it had): on a date, or after a
    /// number of occurrences (1 to [`MAX_COUNT`], else [`RecurrenceError::CountOutOfRange`]).
    pub fn ending(self, end: End) -> Result<Self, RecurrenceError> {
        if let End::Count(count) = end
            && !(1..=MAX_COUNT).contains(&count)
        {
            return Err(RecurrenceError::CountOutOfRange { count });
        }
        Ok(Recurrence {
            end: Some(end),
            ..self
        })
    }

    /// The same rule counted from when each occurrence is done ("3 days after done", Todoist's
    /// `every! 3 days`): the next one is `interval` minutes, hours, days, months or years after
    /// the completion (see [`Recurrence::after_done`]). Only for rules that are a length of
    /// time: minutes, hours, days, a day of the month, a date every year;
    /// [`RecurrenceError::FixedDaysFromDone`] for weekdays, the last day or a weekday of the
    /// month.
    pub fn from_done(self) -> Result<Self, RecurrenceError> {
        match self.frequency {
            Frequency::Minutely
            | Frequency::Hourly
            | Frequency::Daily
            | Frequency::MonthlyOnDay(_)
            | Frequency::Yearly { .. } => Ok(Recurrence {
                from_done: true,
                ..self
            }),
            Frequency::Weekdays
            | Frequency::Weekly(_)
            | Frequency::MonthlyOnLastDay
            | Frequency::MonthlyOnWeekday { .. } => Err(RecurrenceError::FixedDaysFromDone),
        }
    }

    /// The same schedule (days, interval, anchor, end) at another local time of day; for a
    /// minute or hour rule, which has no time of day, the rule itself.
    pub fn with_time(&self, time: NaiveTime) -> Recurrence {
        if self.frequency.counts_elapsed_time() {
            return *self;
        }
        Recurrence {
            time: whole_seconds(time),
            ..*self
        }
    }

    /// For a minute or hour rule, the same rule counting its elapsed time from `start` (its new
    /// anchor); a day-based rule is its own schedule whatever the start, and stays as it is.
    pub fn restarted_at(&self, start: DateTime<Utc>) -> Recurrence {
        if !self.frequency.counts_elapsed_time() {
            return *self;
        }
        Recurrence {
            anchor: Some(Anchor::Instant(start.with_nanosecond(0).unwrap_or(start))),
            time: start.time(),
            ..*self
        }
    }

    /// On which days it repeats.
    pub fn frequency(&self) -> Frequency {
        self.frequency
    }

    /// The local wall-clock time of each occurrence (for a minute or hour rule, the anchor's
    /// time of day in UTC, which says nothing about the others).
    pub fn time(&self) -> NaiveTime {
        self.time
    }

    /// How many periods (minutes, hours, days, weeks, months or years) apart the occurrences
    /// are; 1 unless the user said "every 2 …".
    pub fn interval(&self) -> u32 {
        self.interval
    }

    /// Where the interval counts from: `None` exactly when the interval is 1 and the rule is
    /// not a minute or hour rule.
    pub fn anchor(&self) -> Option<Anchor> {
        self.anchor
    }

    /// How the series ends, if it does.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// Whether each next occurrence counts from when the previous one was done ("3 days after
    /// done", `every!`) rather than from the schedule.
    pub fn counts_from_done(&self) -> bool {
        self.from_done
    }

    /// The first slot of the schedule strictly after `after`, for a user in `tz`: the schedule
    /// alone, endless, as if every occurrence came on time (it ignores [`Recurrence::end`]; a
    /// series that may end is walked with [`Recurrence::next_occurrence`]).
    ///
    /// Each candidate day's wall time is resolved on its own: a time in a
    /// spring-forward gap fires at the first valid instant after the gap,
    /// an ambiguous fall-back time fires once, at the earlier instant.
    /// Minute and hour rules ignore `tz`: they count elapsed time.
    pub fn next_after(&self, after: DateTime<Utc>, tz: Tz) -> DateTime<Utc> {
        if let Some(Anchor::Instant(anchor)) = self.anchor {
            return next_elapsed(anchor, self.step_seconds(), after);
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

    /// The seconds between occurrences of a minute or hour rule.
    fn step_seconds(&self) -> i64 {
        let unit = match self.frequency {
            Frequency::Minutely => 60,
            _ => 3600,
        };
        i64::from(self.interval) * unit
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

/// The first of `anchor + k·step` seconds (any whole `k ≥ 0`) strictly after `after`: the
/// anchor is the first occurrence, as an iCalendar DTSTART is ("every 8 hours starting 8pm" said
/// at 10:00 starts at 20:00, not at 12:00 on the same lattice; a rule restarted at a later
/// instant has nothing before it).
fn next_elapsed(anchor: DateTime<Utc>, step: i64, after: DateTime<Utc>) -> DateTime<Utc> {
    if after < anchor {
        return anchor;
    }
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
        assert_eq!(r.next_after(anchor - TimeDelta::hours(5), tz), anchor);
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
