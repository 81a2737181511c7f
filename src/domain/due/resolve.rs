//! Turning what a phrase says into instants, in the user's zone and under
//! the DST policy of [`resolve_local`].

use chrono::{DateTime, Datelike, Days, Months, NaiveDate, NaiveTime, TimeDelta, Utc, WeekdaySet};
use chrono_tz::Tz;

use crate::domain::lead::Lead;
use crate::domain::recurrence::{Frequency, Recurrence, RecurrenceError};
use crate::domain::timezone::{resolve_local, to_local};

use super::grammar::{Clock, DayRef, RepeatRef, Span};
use super::spec::Spec;
use super::vocab::Period;
use super::{DEFAULT_TIME, DueError, MAX_YEAR};

/// When and how often, once the phrase is resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Resolved {
    /// The deadline.
    pub due: DateTime<Utc>,
    /// The recurrence, for repeating tasks.
    pub recurrence: Option<Recurrence>,
    /// How long before the deadline to remind.
    pub lead: Option<Lead>,
}

/// Resolves `spec` against `now` in `tz`.
pub(super) fn resolve(spec: &Spec, now: DateTime<Utc>, tz: Tz) -> Result<Resolved, DueError> {
    let lead = spec.lead.map(lead_duration).transpose()?;
    let time = time_of_day(spec.clock, spec.period)?;
    let (due, recurrence) = if let Some(repeat) = spec.repeat {
        let recurrence = recurrence(repeat, time.unwrap_or(DEFAULT_TIME), now, tz)?;
        (recurrence.next_after(now, tz), Some(recurrence))
    } else if let Some(span) = spec.relative {
        (relative(span, time, now, tz)?, None)
    } else {
        (
            one_off(spec.day, time.unwrap_or(DEFAULT_TIME), now, tz)?,
            None,
        )
    };
    if to_local(tz, due).year() > MAX_YEAR {
        return Err(too_far());
    }
    Ok(Resolved {
        due,
        recurrence,
        lead,
    })
}

fn too_far() -> DueError {
    DueError::TooFar { max_year: MAX_YEAR }
}

/// The time of day said, if any: a clock time (am/pm or the part of the day
/// applied) or the default time of a part of the day.
fn time_of_day(
    clock: Option<Clock>,
    period: Option<Period>,
) -> Result<Option<NaiveTime>, DueError> {
    let Some(clock) = clock else {
        return Ok(period.map(period_default));
    };
    let invalid = DueError::InvalidTime {
        hour: clock.hour,
        minute: clock.minute,
    };
    let hour = hour_of_day(clock, period).ok_or_else(|| invalid.clone())?;
    NaiveTime::from_hms_opt(hour, clock.minute, 0)
        .map(Some)
        .ok_or(invalid)
}

/// The 24-hour hour of `clock` read with its am/pm or part of the day:
/// "9 pm" and "9 вечера" are 21, "2 ночи" is 2, "11 ночи" is 23, "12 am" is 0.
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
        (None, Some(Period::Afternoon | Period::Evening)) => match h {
            1..=11 => Some(h + 12),
            12 if period == Some(Period::Afternoon) => Some(12),
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
fn period_default(period: Period) -> NaiveTime {
    let hour = match period {
        Period::Morning => 9,
        Period::Afternoon => 14,
        Period::Evening => 19,
        Period::Night => 22,
    };
    NaiveTime::from_hms_opt(hour, 0, 0).unwrap_or(DEFAULT_TIME)
}

/// A lead time as a plain duration (a day of lead is 24 hours), at most [`Lead::MAX`].
pub(super) fn lead_duration(span: Span) -> Result<Lead, DueError> {
    let too_long = DueError::LeadTooLong {
        max_days: (Lead::MAX.secs() / 86_400) as u32,
    };
    let secs = span
        .days
        .checked_mul(86_400)
        .and_then(|s| s.checked_add(span.seconds))
        .and_then(|s| i64::try_from(s).ok())
        .ok_or(too_long.clone())?;
    Lead::from_secs(secs).map_err(|_| too_long)
}

/// The schedule of a recurrence; "every week"/"every month" repeat on
/// today's weekday/day of month.
fn recurrence(
    repeat: RepeatRef,
    time: NaiveTime,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<Recurrence, DueError> {
    let today = to_local(tz, now).date();
    let frequency = match repeat {
        RepeatRef::Daily => Frequency::Daily,
        RepeatRef::Weekdays => Frequency::Weekdays,
        RepeatRef::Weekly(days) => Frequency::Weekly(days),
        RepeatRef::WeeklyToday => Frequency::Weekly(WeekdaySet::single(today.weekday())),
        RepeatRef::MonthlyOnDay(day) => Frequency::MonthlyOnDay(day),
        RepeatRef::MonthlyToday => Frequency::MonthlyOnDay(today.day()),
    };
    Recurrence::new(frequency, time).map_err(|e| match e {
        RecurrenceError::DayOfMonthOutOfRange { day } => DueError::InvalidDayOfMonth { day },
        RecurrenceError::NoWeekdays => DueError::NoTime,
    })
}

/// "in …": elapsed units are added to `now` exactly; calendar units move the
/// local date and keep the wall time (or take the time said).
fn relative(
    span: Span,
    time: Option<NaiveTime>,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, DueError> {
    let base = if span.days == 0 && span.months == 0 {
        now
    } else {
        let local = to_local(tz, now);
        let date = u32::try_from(span.months)
            .ok()
            .and_then(|m| local.date().checked_add_months(Months::new(m)))
            .and_then(|d| d.checked_add_days(Days::new(span.days)))
            .ok_or_else(too_far)?;
        resolve_local(tz, date.and_time(time.unwrap_or(local.time())))
    };
    i64::try_from(span.seconds)
        .ok()
        .and_then(TimeDelta::try_seconds)
        .and_then(|elapsed| base.checked_add_signed(elapsed))
        .ok_or_else(too_far)
}

/// A one-off day (or none) at `time`. Without a day a past time rolls to
/// tomorrow; a weekday said on that day means today if the time is ahead,
/// else next week; an explicitly past day is an error.
fn one_off(
    day: Option<DayRef>,
    time: NaiveTime,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, DueError> {
    let today = to_local(tz, now).date();
    let at = |date: NaiveDate| resolve_local(tz, date.and_time(time));
    let plus = |days: u64| today.checked_add_days(Days::new(days)).ok_or_else(too_far);
    let not_past = |date: NaiveDate| {
        let due = at(date);
        if due > now {
            Ok(due)
        } else {
            Err(DueError::InPast {
                local: date.and_time(time),
            })
        }
    };
    match day {
        None if at(today) > now => Ok(at(today)),
        None => plus(1).map(at),
        Some(DayRef::Yesterday) => Err(DueError::InPast {
            local: today.pred_opt().unwrap_or(today).and_time(time),
        }),
        Some(DayRef::Today) => not_past(today),
        Some(DayRef::Tomorrow) => plus(1).map(at),
        Some(DayRef::DayAfterTomorrow) => plus(2).map(at),
        Some(DayRef::Weekday { day, next }) => {
            let ahead = u64::from(day.days_since(today.weekday()));
            let date = plus(ahead)?;
            if ahead == 0 && (next || at(date) <= now) {
                plus(7).map(at)
            } else {
                Ok(at(date))
            }
        }
        Some(DayRef::Date { day, month, year }) => date(day, month, year, time, now, tz),
    }
}

/// An explicit date. Without a year it is the next time that date comes
/// (this year or later; 29.02 waits for a leap year), except that today's
/// date with a time already past is in the past, not next year.
fn date(
    day: u32,
    month: u32,
    year: Option<u64>,
    time: NaiveTime,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, DueError> {
    let invalid = |year: Option<i32>| DueError::InvalidDate { day, month, year };
    let in_past = |date: NaiveDate| DueError::InPast {
        local: date.and_time(time),
    };
    // 2000 is a leap year: a date that fails there fails in every year.
    if NaiveDate::from_ymd_opt(2000, month, day).is_none() {
        return Err(invalid(year.and_then(|y| i32::try_from(y).ok())));
    }
    let at = |date: NaiveDate| resolve_local(tz, date.and_time(time));
    if let Some(year) = year {
        let year = i32::try_from(year)
            .ok()
            .filter(|y| *y <= MAX_YEAR)
            .ok_or_else(too_far)?;
        let date = NaiveDate::from_ymd_opt(year, month, day).ok_or(invalid(Some(year)))?;
        let due = at(date);
        return if due > now {
            Ok(due)
        } else {
            Err(in_past(date))
        };
    }
    let today = to_local(tz, now).date();
    for year in today.year()..=today.year().saturating_add(8) {
        let Some(date) = NaiveDate::from_ymd_opt(year, month, day) else {
            continue;
        };
        if date < today {
            continue;
        }
        let due = at(date);
        if due > now {
            return Ok(due);
        }
        return Err(in_past(date));
    }
    Err(invalid(None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hour(h: u32, meridiem: Option<bool>, period: Option<Period>) -> Option<u32> {
        let clock = Clock {
            hour: h,
            minute: 0,
            meridiem,
        };
        hour_of_day(clock, period)
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
        assert_eq!(hour(9, None, Some(Period::Evening)), Some(21));
        assert_eq!(hour(21, None, Some(Period::Evening)), Some(21));
        assert_eq!(hour(12, None, Some(Period::Evening)), None);
        assert_eq!(hour(2, None, Some(Period::Night)), Some(2));
        assert_eq!(hour(11, None, Some(Period::Night)), Some(23));
        assert_eq!(hour(12, None, Some(Period::Night)), Some(0));
        assert_eq!(hour(23, None, None), Some(23));
        assert_eq!(hour(24, None, None), None);
    }

    #[test]
    fn lead_days_are_24_hours() {
        let span = Span {
            seconds: 1800,
            days: 1,
            months: 0,
        };
        assert_eq!(
            lead_duration(span).map(Lead::duration),
            Ok(TimeDelta::minutes(24 * 60 + 30))
        );
    }
}
