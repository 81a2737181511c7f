//! Turning what a phrase says into instants, in the user's zone and under
//! the DST policy of [`resolve_local`], noting what was assumed on the way.

mod time;

use chrono::{
    DateTime, Datelike, Days, LocalResult, Months, NaiveDate, NaiveTime, TimeDelta, TimeZone,
    Timelike, Utc, Weekday, WeekdaySet,
};
use chrono_tz::Tz;

use crate::domain::lead::Lead;
use crate::domain::recurrence::WeekOfMonth;
use crate::domain::recurrence::{End, Frequency, MIN_MINUTES, Recurrence, RecurrenceError};
use crate::domain::timezone::{resolve_local, to_local};

use super::choice::{AMBIGUOUS_HOURS, HalfOfDay, HourChoice, Reading};
use super::grammar::{DayRef, PeriodWord, RelativeGuess, Repeat, RepeatRef, Span};
use super::keys::Period;
use super::spec::Spec;
use super::{Assumption, DueError, MAX_YEAR, NIGHT_ENDS};
use time::{Moment, Said, period_default};

/// When and how often, once the phrase is resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Resolved {
    /// The deadline.
    pub due: DateTime<Utc>,
    /// The recurrence, for repeating tasks.
    pub recurrence: Option<Recurrence>,
    /// How long before the deadline to remind.
    pub lead: Option<Lead>,
    /// What was assumed.
    pub assumptions: Vec<Assumption>,
    /// Both readings of an hour that may be either side of noon (see [`choice`]).
    pub choice: Option<HourChoice>,
}

/// Resolves `spec` against `now` in `tz`, or in the zone the phrase names ("10:00 по мск"),
/// noted; `cue` is the part of the day the message's other words point to ("wake me",
/// "dinner"), which reads an hour without am/pm.
pub(super) fn resolve(
    spec: &Spec,
    cue: Option<Period>,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<Resolved, DueError> {
    let lead = spec.lead.map(lead_duration).transpose()?;
    let mut notes = Vec::new();
    let said = cued(Said::read(spec.clock, spec.period)?, cue, &mut notes);
    let zone = spec.zone.unwrap_or(tz);
    let (due, recurrence) = moment(spec, said, now, zone, &mut notes)?;
    notes.extend(skipped(said, due, zone));
    if to_local(zone, due).year() > MAX_YEAR {
        return Err(too_far());
    }
    let other_zone = zone != tz && !spec.is_zone_free();
    if other_zone {
        // The chat's Change time reads the user's clock: an hour's note speaks of it too, so
        // that "send 00:00" gives 00:00 there.
        for note in &mut notes {
            if let Assumption::HourWithoutAmPm { chosen, .. } = note {
                *chosen = to_local(tz, due).time();
            }
        }
        notes.push(Assumption::OtherZone { zone, due });
    }
    // The buttons name times on the user's clock; a time said in another zone has none.
    let choice = (!other_zone)
        .then(|| choice(spec, said, (due, recurrence), now, zone))
        .flatten();
    Ok(Resolved {
        due,
        recurrence,
        lead,
        assumptions: notes,
        choice,
    })
}

/// The note that the time `said` does not exist on the day of `due`, which a spring-forward gap
/// moved to the first instant after it ([`resolve_local`]); `None` when it was taken as said.
fn skipped(said: Said, due: DateTime<Utc>, zone: Tz) -> Option<Assumption> {
    let local = to_local(zone, due);
    let readings = match said {
        Said::Nothing => return None,
        Said::Exact(time) => [time, time],
        Said::Either { am, pm, .. } => [am, pm],
        Said::Midnight => [NaiveTime::MIN, NaiveTime::MIN],
    };
    readings
        .into_iter()
        .find(|&time| {
            let wall = local.date().and_time(time);
            time != local.time()
                && matches!(zone.from_local_datetime(&wall), LocalResult::None)
                && resolve_local(zone, wall) == due
        })
        .map(|said| Assumption::ClockSkipped {
            said,
            chosen: local.time(),
            date: local.date(),
        })
}

/// The deadline (and rule) that `spec` means with the time of day `said`.
fn moment(
    spec: &Spec,
    said: Said,
    now: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<(DateTime<Utc>, Option<Recurrence>), DueError> {
    if let Some(repeat) = spec.repeat {
        let start = spec
            .starting
            .map(|day| named_date(day, now, tz, notes))
            .transpose()?
            .filter(|date| {
                let without_year = matches!(
                    spec.starting,
                    Some(DayRef::Date { year: None, .. } | DayRef::MonthDay(_))
                );
                !(without_year && passed_this_year(*date, now, tz))
            });
        let rule = recurrence(spec, repeat, said, now, start, tz, notes)?;
        let from = sought_from(start, now, tz);
        let first = rule.first_occurrence(from, tz).ok_or_else(|| {
            let first = to_local(tz, rule.next_after(from, tz));
            match rule.end() {
                Some(End::Until(until)) => DueError::EndsBeforeFirst { until, first },
                _ => too_far(),
            }
        })?;
        return Ok((first.at, Some(rule)));
    }
    let due = if let Some(span) = spec.relative {
        // "через 3 дня в обед", "in 3 days in the evening": a part of the day alone is its time
        // on that day; with neither, the days keep the time of now.
        let part_of_a_day = spec.period.is_some() && span.seconds == 0;
        let moment =
            (said != Said::Nothing || part_of_a_day).then(|| said.on_a_day(spec.period, notes));
        let due = relative(span, moment, now, tz)?;
        match spec.relative_guess {
            Some(RelativeGuess::MinutesUnsaid) => notes.push(Assumption::MinutesUnsaid {
                minutes: u32::try_from(span.seconds / 60).unwrap_or(u32::MAX),
            }),
            Some(RelativeGuess::InADay) => notes.push(Assumption::InADay {
                date: to_local(tz, due).date(),
                time: to_local(tz, due).time(),
            }),
            None => {}
        }
        due
    } else if let Some(day) = spec.day.or(spec.until).or(spec.starting) {
        // "until friday" without a repeat is a deadline on Friday, "с понедельника в 7" Monday.
        on_day(day, said, spec, now, tz, notes)?
    } else {
        without_day(said, spec.period, now, tz, notes)
    };
    Ok((due, None))
}

/// An hour without am/pm read as the message's other words say (`cue`): "wake me at 6" in the
/// morning, "dinner at 7" in the evening; noted like any reading of such an hour. Noon and
/// midnight (12) are left to the usual reading.
fn cued(said: Said, cue: Option<Period>, notes: &mut Vec<Assumption>) -> Said {
    let Said::Either { typed, am, pm } = said else {
        return said;
    };
    let chosen = match cue {
        _ if typed.hour() == 12 => return said,
        Some(Period::Morning) => am,
        Some(Period::Evening | Period::Tonight) => pm,
        _ => return said,
    };
    notes.push(Assumption::HourWithoutAmPm { typed, chosen });
    Said::Exact(chosen)
}

/// Both readings of an hour in [`AMBIGUOUS_HOURS`] said without am/pm, a part of the day or a
/// word of the morning or evening, on a named day, after "in 2 days" or in a day-based repeat
/// ("tomorrow at 6", "every day at 7"): the one taken (the daytime reading, `taken`) and the
/// other, resolved the same way. Also an hour without a day whose first reading is in the night
/// before [`NIGHT_ENDS`] ("at 1" at 13:40: 01:00, and 13:00 offered). `None` for any other
/// phrase, or when the other reading is no moment (in the past).
fn choice(
    spec: &Spec,
    said: Said,
    taken: (DateTime<Utc>, Option<Recurrence>),
    now: DateTime<Utc>,
    tz: Tz,
) -> Option<HourChoice> {
    let Said::Either { typed, am, pm } = said else {
        return None;
    };
    let day_based_repeat = spec
        .repeat
        .is_some_and(|r| !matches!(r.kind, RepeatRef::Hourly | RepeatRef::Minutely));
    let named_day = day_based_repeat
        || spec.relative.is_some_and(|span| span.is_calendar_only())
        || spec
            .day
            .or(spec.until)
            .is_some_and(|day| day != DayRef::Today);
    // "call client at 1" at 13:40, no day: the reading that comes first is in the night, which
    // few tasks mean, so the afternoon one is offered as well.
    let no_day = spec.day.is_none() && spec.until.is_none() && spec.repeat.is_none();
    let in_the_night =
        no_day && spec.relative.is_none() && to_local(tz, taken.0).time() == am && am < NIGHT_ENDS;
    let chosen = if in_the_night {
        am
    } else if named_day && AMBIGUOUS_HOURS.contains(&typed.hour()) {
        super::daytime_reading(typed)
    } else {
        return None;
    };
    let other = if chosen == am { pm } else { am };
    let (due, recurrence) = moment(spec, Said::Exact(other), now, tz, &mut Vec::new()).ok()?;
    let taken = Reading {
        time: chosen,
        due: taken.0,
        recurrence: taken.1,
    };
    let other = Reading {
        time: other,
        due,
        recurrence,
    };
    Some(if chosen == am {
        HourChoice {
            typed,
            morning: taken,
            evening: other,
            taken: HalfOfDay::Morning,
        }
    } else {
        HourChoice {
            typed,
            morning: other,
            evening: taken,
            taken: HalfOfDay::Evening,
        }
    })
}

fn too_far() -> DueError {
    DueError::TooFar { max_year: MAX_YEAR }
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

/// Whether a repeat's first day `date` is next year's of a date that passed this year in the
/// last two months ("every day at 8 starting march 1" said on 27 March): the repeat starts now,
/// not in a year ("yanvardan boshlab" said in March is next January).
fn passed_this_year(date: NaiveDate, now: DateTime<Utc>, tz: Tz) -> bool {
    const LATELY_DAYS: i64 = 60;
    let today = to_local(tz, now).date();
    date.year() > today.year()
        && date
            .with_year(today.year())
            .is_some_and(|this_years| (0..=LATELY_DAYS).contains(&(today - this_years).num_days()))
}

/// The instant a repeat's first occurrence is sought after: now, or just before the local
/// midnight that opens the day it starts on ("every day at 8 starting monday"), when later.
fn sought_from(start: Option<NaiveDate>, now: DateTime<Utc>, tz: Tz) -> DateTime<Utc> {
    start.map_or(now, |date| {
        let opens = resolve_local(tz, date.and_time(NaiveTime::MIN)) - TimeDelta::seconds(1);
        opens.max(now)
    })
}

/// The recurrence `spec` says: its schedule ([`schedule`]) from its first day `start` if it
/// has one, counted from when it was done if it says so, ending as its "until" or count says.
fn recurrence(
    spec: &Spec,
    repeat: Repeat,
    said: Said,
    now: DateTime<Utc>,
    start: Option<NaiveDate>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<Recurrence, DueError> {
    let mut rule = schedule(repeat, said, spec.period, now, start, tz, notes)?;
    if repeat.from_done {
        rule = rule.from_done().map_err(rule_error)?;
    }
    if let Some(day) = spec.until {
        // "с понедельника до пятницы": the Friday after the first day.
        let until = last_day(day, &rule, sought_from(start, now, tz), tz, notes)?;
        rule = rule.ending(End::Until(until)).map_err(rule_error)?;
    }
    if let Some(count) = spec.count {
        rule = rule.ending(End::Count(count)).map_err(rule_error)?;
    }
    if let Some(span) = spec.lasting {
        let first = rule
            .first_occurrence(sought_from(start, now, tz), tz)
            .ok_or_else(too_far)?;
        let until = last_day_of(to_local(tz, first.at).date(), span).ok_or_else(too_far)?;
        rule = rule.ending(End::Until(until)).map_err(rule_error)?;
    }
    Ok(rule)
}

/// The last date of a repeat that lasts `span` from its first occurrence on `first`: "for 10
/// days" from the 28th ends on 6 April, the tenth day.
fn last_day_of(first: NaiveDate, span: Span) -> Option<NaiveDate> {
    first
        .checked_add_months(Months::new(u32::try_from(span.months).ok()?))?
        .checked_add_days(Days::new(span.days))?
        .pred_opt()
}

/// The local date a repeat runs "until" or "starting" `day`: that day itself, resolved as a
/// deadline on it would be (the coming Friday, the next 1 March, this month's end, the coming
/// day for "until tomorrow" after midnight, noted).
fn named_date(
    day: DayRef,
    now: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<NaiveDate, DueError> {
    let last_second = NaiveTime::from_hms_opt(23, 59, 59).unwrap_or(NaiveTime::MIN);
    let end = day_at(day, Moment::same_day(last_second), now, tz, notes)?;
    Ok(to_local(tz, end).date())
}

/// The local date a repeat `rule` runs until, said as `day` and sought from `from`: the day
/// itself ([`named_date`]), or next week's weekday when today's, a day the repeat runs on, would
/// end it before it starts ("every day at 9 pills until friday" said on a Friday after 9 ends
/// next Friday; "every monday until friday" said on a Friday stays refused).
fn last_day(
    day: DayRef,
    rule: &Recurrence,
    from: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<NaiveDate, DueError> {
    let until = named_date(day, from, tz, notes)?;
    let local_date = |at: DateTime<Utc>| to_local(tz, at).date();
    let first = rule
        .first_occurrence(from, tz)
        .map(|first| local_date(first.at));
    let runs_on_until = rule
        .first_occurrence(resolve_local(tz, until.and_time(NaiveTime::MIN)), tz)
        .is_some_and(|on| local_date(on.at) == until);
    let this_weekday = matches!(day, DayRef::Weekday { next: false, .. });
    if this_weekday && runs_on_until && first.is_some_and(|f| f > until) {
        return until.checked_add_days(Days::new(7)).ok_or_else(too_far);
    }
    Ok(until)
}

/// This morning's reading of an hour from 6 to 11 said without am/pm from which a repeat of
/// hours or minutes runs (noon for 12), when it passed less than 12 hours ago ("каждые 3 часа с
/// 8" said at 10:00 runs from 08:00, next at 11:00, not from 20:00; "с 12" at 16:45 from noon),
/// noted as the hour's reading. An hour from 1 to 5 is the afternoon's as usual ("every 2 hours
/// from 3 to 9").
fn morning_passed_lately(
    said: Said,
    now: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Option<DateTime<Utc>> {
    let Said::Either { typed, am, pm } = said else {
        return None;
    };
    let daytime = match typed.hour() {
        12 => pm,
        1..=5 => return None,
        _ => am,
    };
    let this_morning = resolve_local(tz, to_local(tz, now).date().and_time(daytime));
    let lately = this_morning <= now && now - this_morning < TimeDelta::hours(12);
    lately.then(|| {
        notes.push(Assumption::HourWithoutAmPm {
            typed,
            chosen: daytime,
        });
        this_morning
    })
}

/// The start of an interval of `step` at the time of day `at` was said (the next such time):
/// today's, when that passed less than 12 hours ago and the step is 12 hours at most, so that
/// every 2 hours from 08:00 said at 14:30 runs on today's lattice (16:00 next) and every 8 hours
/// from 19:00 said at 20:00 is next at 03:00; said at 21:00, every 2 hours from 08:00 starts
/// tomorrow at 08:00, and so does every 36 hours from 09:00.
fn interval_start(at: DateTime<Utc>, step: TimeDelta, now: DateTime<Utc>, tz: Tz) -> DateTime<Utc> {
    let today = to_local(tz, now).date();
    let local = to_local(tz, at);
    let todays = resolve_local(tz, today.and_time(local.time()));
    let lately = now - todays < TimeDelta::hours(12);
    if local.date() > today && todays <= now && step <= TimeDelta::hours(12) && lately {
        todays
    } else {
        at
    }
}

/// The schedule of a recurrence; "every week"/"every month"/"every year" repeat on today's
/// weekday/day of month/date. An interval of those counts from today, of days and named days
/// from the first occurrence (on or after `start`, its first day, when said); one of minutes or
/// hours starts an interval from now, or at the time said (on `start`).
fn schedule(
    repeat: Repeat,
    said: Said,
    period: Option<Period>,
    now: DateTime<Utc>,
    start: Option<NaiveDate>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<Recurrence, DueError> {
    // "every week", "every month", "every year" fall on today's weekday, day or date, or on the
    // first day's when one is said ("every week from tomorrow", "every month starting july 1").
    let first_day = start.unwrap_or_else(|| to_local(tz, now).date());
    let mut elapsed = |unit: i64| -> Result<DateTime<Utc>, DueError> {
        if let Some(date) = start {
            let time = said.on_a_day(period, notes).time;
            return Ok(resolve_local(tz, date.and_time(time)));
        }
        Ok(match said {
            Said::Nothing => i64::from(repeat.every)
                .checked_mul(unit)
                .and_then(TimeDelta::try_seconds)
                .and_then(|d| now.checked_add_signed(d))
                .ok_or_else(too_far)?,
            _ => {
                let step = i64::from(repeat.every)
                    .checked_mul(unit)
                    .and_then(TimeDelta::try_seconds)
                    .ok_or_else(too_far)?;
                let at = morning_passed_lately(said, now, tz, notes)
                    .unwrap_or_else(|| without_day(said, period, now, tz, notes));
                interval_start(at, step, now, tz)
            }
        })
    };
    let frequency = match repeat.kind {
        RepeatRef::Secondly => {
            return Err(DueError::RepeatTooOften {
                every_secs: u64::from(repeat.every),
            });
        }
        RepeatRef::Minutely => {
            if repeat.every < MIN_MINUTES {
                return Err(DueError::RepeatTooOften {
                    every_secs: u64::from(repeat.every) * 60,
                });
            }
            return Recurrence::minutely(repeat.every, elapsed(60)?).map_err(rule_error);
        }
        RepeatRef::Hourly => {
            return Recurrence::hourly(repeat.every, elapsed(3600)?).map_err(rule_error);
        }
        RepeatRef::Daily => Frequency::Daily,
        RepeatRef::Weekdays => Frequency::Weekdays,
        RepeatRef::Weekly(days) => Frequency::Weekly(days),
        RepeatRef::WeeklyToday => Frequency::Weekly(WeekdaySet::single(first_day.weekday())),
        RepeatRef::MonthlyOnDay(day) => Frequency::MonthlyOnDay(day),
        RepeatRef::MonthlyToday => Frequency::MonthlyOnDay(first_day.day()),
        RepeatRef::MonthlyLastDay => Frequency::MonthlyOnLastDay,
        RepeatRef::MonthlyOnWeekday { week, day } => Frequency::MonthlyOnWeekday { week, day },
        RepeatRef::Yearly { day, month } => Frequency::Yearly { month, day },
        RepeatRef::YearlyToday => Frequency::Yearly {
            month: first_day.month(),
            day: first_day.day(),
        },
    };
    // In a repeat, midnight and the small hours stay on the repeat's own days.
    let time = said.on_a_day(period, notes).time;
    let every_period = Recurrence::new(frequency, time).map_err(rule_error)?;
    if repeat.every == 1 {
        return Ok(every_period);
    }
    // "every 3 months", "every 2 weeks" count from today ("every 3 months" said on 1 June after
    // its time is next on 1 September, not 1 July); days and named days count from their next
    // occurrence ("every 2 days" said after 09:00 is tomorrow, "every 2 weeks on tuesday").
    let from_today = matches!(
        repeat.kind,
        RepeatRef::WeeklyToday | RepeatRef::MonthlyToday | RepeatRef::YearlyToday
    );
    let first = if from_today {
        first_day
    } else {
        to_local(tz, every_period.next_after(sought_from(start, now, tz), tz)).date()
    };
    Recurrence::every(frequency, time, repeat.every, first).map_err(rule_error)
}

fn rule_error(error: RecurrenceError) -> DueError {
    match error {
        RecurrenceError::DayOfMonthOutOfRange { day } => DueError::InvalidDayOfMonth { day },
        RecurrenceError::InvalidYearlyDate { month, day } => DueError::InvalidDate {
            day,
            month,
            year: None,
        },
        RecurrenceError::IntervalOutOfRange { .. } | RecurrenceError::CountOutOfRange { .. } => {
            too_far()
        }
        RecurrenceError::TooOften { minutes } => DueError::RepeatTooOften {
            every_secs: u64::from(minutes) * 60,
        },
        RecurrenceError::NoWeekdays
        | RecurrenceError::HourlyNeedsAnchor
        | RecurrenceError::FixedDaysFromDone => DueError::NoTime,
    }
}

/// "in …": elapsed units are added to `now` exactly; calendar units move the
/// local date and keep the wall time (or take the time said).
fn relative(
    span: Span,
    moment: Option<Moment>,
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
        let moment = moment.unwrap_or(Moment::same_day(local.time()));
        resolve_local(tz, moment.local(date))
    };
    i64::try_from(span.seconds)
        .ok()
        .and_then(TimeDelta::try_seconds)
        .and_then(|elapsed| base.checked_add_signed(elapsed))
        .ok_or_else(too_far)
}

/// A time without a day: the next time that time of day comes. An hour that may be either
/// side of noon is whichever reading comes first ("at 3" at 12:48 is 15:00 today, at 16:00
/// it is 03:00 tomorrow); midnight is the coming one; a part of the day alone ("вечером") is
/// its time today, or tomorrow once that has passed.
fn without_day(
    said: Said,
    period: Option<Period>,
    now: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> DateTime<Utc> {
    let today = to_local(tz, now).date();
    let tomorrow = today.succ_opt().unwrap_or(today);
    let next = |times: &[NaiveTime]| {
        [today, tomorrow]
            .iter()
            .flat_map(|day| times.iter().map(|t| resolve_local(tz, day.and_time(*t))))
            .filter(|at| *at > now)
            .min()
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    };
    match said {
        Said::Nothing => {
            let chosen = period.map_or(super::DEFAULT_TIME, period_default);
            // "вечером позвонить маме" at 20:00: the evening (or night) is still on, so the
            // next whole hour tonight, as "сегодня вечером" would be, not tomorrow evening.
            let still_on = period
                .filter(|p| matches!(p, Period::Evening | Period::Night))
                .and_then(|p| next_hour_today(chosen, Some(p), now, tz));
            let chosen = still_on.unwrap_or(chosen);
            notes.push(Assumption::TimeNotSaid { chosen });
            next(&[chosen])
        }
        Said::Exact(time) => next(&[time]),
        Said::Either { typed, am, pm } => {
            let due = next(&[am, pm]);
            let chosen = to_local(tz, due).time();
            let chosen = if chosen == am || chosen == pm {
                chosen
            } else {
                // A wall time in a DST gap moved; note the reading that was meant.
                [am, pm]
                    .into_iter()
                    .find(|t| resolve_local(tz, to_local(tz, due).date().and_time(*t)) == due)
                    .unwrap_or(chosen)
            };
            notes.push(Assumption::HourWithoutAmPm { typed, chosen });
            due
        }
        Said::Midnight => resolve_local(tz, tomorrow.and_time(NaiveTime::MIN)),
    }
}

/// A one-off on a named day. A weekday said on that day means today if the time is ahead,
/// else next week; "next" weekdays are in next week; an explicitly past day is an error.
/// "today" with an hour that may be either side of noon takes the reading still ahead. A
/// weekday said beside a date that is not that date's is noted.
fn on_day(
    day: DayRef,
    said: Said,
    spec: &Spec,
    now: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<DateTime<Utc>, DueError> {
    let period = spec.period;
    let today = to_local(tz, now).date();
    if let (DayRef::Today, Said::Either { typed, am, pm }) = (day, said) {
        let at = |t: NaiveTime| resolve_local(tz, today.and_time(t));
        let chosen = if at(am) > now { am } else { pm };
        notes.push(Assumption::HourWithoutAmPm { typed, chosen });
        return if at(chosen) > now {
            Ok(at(chosen))
        } else {
            Err(DueError::InPast {
                local: today.and_time(chosen),
            })
        };
    }
    let mut moment = said.on_a_day(period, notes);
    // "today call mom" at 10:00, "сегодня вечером" at 20:00, "end of the month" on its last day
    // at 13:40: the part of the day's time has passed, so the next whole hour today, noted as
    // the time taken.
    let names_today = day == DayRef::Today
        || (day == DayRef::EndOfMonth && last_day_of_month(today) == today)
        || (day == DayRef::MonthLastWorkingDay && last_working_day_of_month(today) == today)
        || (day == DayRef::QuarterEnd && last_day_of_quarter(today) == today)
        || day
            == DayRef::Holiday {
                day: today.day(),
                month: today.month(),
            };
    if names_today
        && said == Said::Nothing
        && let Some(next_hour) = next_hour_today(moment.time, period, now, tz)
    {
        moment.time = next_hour;
        for note in notes.iter_mut() {
            if let Assumption::TimeNotSaid { chosen } = note {
                *chosen = next_hour;
            }
        }
    }
    // "tonight at 2", "сегодня в 2 ночи" said after midnight and before NIGHT_ENDS: this night,
    // while its time is ahead.
    let local_now = to_local(tz, now);
    if day == DayRef::Today && moment.next_day && local_now.time() < NIGHT_ENDS {
        let this_night = resolve_local(tz, today.and_time(moment.time));
        if this_night > now {
            notes.push(Assumption::TonightAfterMidnight { date: today });
            return Ok(this_night);
        }
    }
    // "в ночь с пятницы на субботу в 3", "в пятницу в 2 ночи" said in that night, after midnight:
    // this night, while its time is ahead (not next week's).
    let yesterday = today.pred_opt().unwrap_or(today);
    let names_yesterday = day
        == DayRef::Weekday {
            day: yesterday.weekday(),
            next: false,
        };
    if names_yesterday && moment.next_day && local_now.time() < NIGHT_ENDS {
        let this_night = resolve_local(tz, today.and_time(moment.time));
        if this_night > now {
            notes.push(Assumption::NightAfterDay { date: today });
            return Ok(this_night);
        }
    }
    // "завтра в 2:30 ночи" said in the evening: the coming night, on tomorrow's date, as people
    // mean it then (said in the daytime, the night after tomorrow; "завтра ночью в 2" and
    // "tomorrow night at 2" name the night after tomorrow at any time).
    let coming_night = day == DayRef::Tomorrow
        && moment.next_day
        && spec.period_word == Some(PeriodWord::OfHour)
        && local_now.time() >= AFTERNOON_ENDS;
    if coming_night {
        moment.next_day = false;
    }
    let due = day_at(day, moment, now, tz, notes)?;
    let date = to_local(tz, due).date();
    if coming_night {
        notes.push(Assumption::ComingNight { date });
    }
    if moment.next_day {
        notes.push(Assumption::NightAfterDay { date });
    }
    // The weekday is the named day's, not the night after it ("в среду 1 апреля в 2 ночи").
    let named = if moment.next_day {
        date.pred_opt().unwrap_or(date)
    } else {
        date
    };
    if let Some(said) = spec.weekday.filter(|w| *w != named.weekday()) {
        notes.push(Assumption::WeekdayOfDate { said, date: named });
    }
    Ok(due)
}

/// When the afternoon ends and the evening begins: the next whole hour "this afternoon" may
/// take is before it, and from it "завтра в 2 ночи" is the coming night.
const AFTERNOON_ENDS: NaiveTime = match NaiveTime::from_hms_opt(18, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// When the morning ends: the next whole hour "this morning" may take is before it.
const MORNING_ENDS: NaiveTime = match NaiveTime::from_hms_opt(12, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// The next whole hour of today when `time` today has passed, if today, or the part of the day
/// said, has one left (the morning ends at 12:00, the afternoon at 18:00).
fn next_hour_today(
    time: NaiveTime,
    period: Option<Period>,
    now: DateTime<Utc>,
    tz: Tz,
) -> Option<NaiveTime> {
    let local = to_local(tz, now);
    if resolve_local(tz, local.date().and_time(time)) > now {
        return None;
    }
    let ends = match period {
        Some(Period::Morning) => MORNING_ENDS.hour(),
        Some(Period::Afternoon | Period::Lunch) => AFTERNOON_ENDS.hour(),
        _ => 24,
    };
    let hour = local.time().hour() + 1;
    (hour < ends)
        .then(|| NaiveTime::from_hms_opt(hour, 0, 0))
        .flatten()
}

/// The instant of `moment` on the named `day`.
fn day_at(
    day: DayRef,
    moment: Moment,
    now: DateTime<Utc>,
    tz: Tz,
    notes: &mut Vec<Assumption>,
) -> Result<DateTime<Utc>, DueError> {
    let today = to_local(tz, now).date();
    let at = |date: NaiveDate| resolve_local(tz, moment.local(date));
    let plus = |days: u64| today.checked_add_days(Days::new(days)).ok_or_else(too_far);
    // The day `in_month` picks in this month, or in next month once its time has passed.
    let this_month_or_next = |in_month: fn(NaiveDate) -> NaiveDate| {
        let this_month = in_month(today);
        if at(this_month) > now {
            return Ok(at(this_month));
        }
        let next_month = last_day_of_month(today).succ_opt().map(in_month);
        next_month.map(at).ok_or_else(too_far)
    };
    let not_past = |date: NaiveDate| {
        let due = at(date);
        if due > now {
            Ok(due)
        } else {
            Err(DueError::InPast {
                local: moment.local(date),
            })
        }
    };
    match day {
        DayRef::Yesterday => Err(DueError::InPast {
            local: moment.local(today.pred_opt().unwrap_or(today)),
        }),
        DayRef::Today => not_past(today),
        DayRef::Tomorrow => after_today(1, now, tz, &at, notes),
        DayRef::DayAfterTomorrow => after_today(2, now, tz, &at, notes),
        DayRef::Weekday { day, next: false } => coming_weekday(day, today, &at, now).map(at),
        DayRef::Weekday { day, next: true } => {
            let date = plus(next_monday_in(today))?
                .checked_add_days(Days::new(u64::from(day.num_days_from_monday())))
                .ok_or_else(too_far)?;
            if coming_weekday(day, today, &at, now).ok() != Some(date) {
                notes.push(Assumption::NextWeekday { date });
            }
            Ok(at(date))
        }
        DayRef::NextWeek => {
            let date = plus(next_monday_in(today))?;
            notes.push(Assumption::NextWeekMonday { date });
            Ok(at(date))
        }
        DayRef::MonthLastWorkingDay => this_month_or_next(last_working_day_of_month),
        DayRef::EndOfMonth => this_month_or_next(last_day_of_month),
        DayRef::NextWeekEnd => {
            let date = plus(next_monday_in(today) + 4)?;
            notes.push(Assumption::WeekEndFriday { date });
            Ok(at(date))
        }
        DayRef::NextMonth | DayRef::MonthStart => {
            let date = next_month_first(today)?;
            notes.push(Assumption::NextMonthFirst { date });
            Ok(at(date))
        }
        DayRef::NextMonthDay(day) => {
            let first = next_month_first(today)?;
            let date = first.with_day(day).ok_or(DueError::InvalidDate {
                day,
                month: first.month(),
                year: None,
            })?;
            Ok(at(date))
        }
        DayRef::NextMonthEnd => Ok(at(last_day_of_month(next_month_first(today)?))),
        DayRef::Holiday { day, month } => (today.year()..=today.year() + 1)
            .filter_map(|year| NaiveDate::from_ymd_opt(year, month, day))
            .map(at)
            .find(|due| *due > now)
            .ok_or_else(too_far),
        DayRef::WeekdayInWeeks { weeks, day } => {
            // The weekday nearest to the day so many weeks on ("через неделю в понедельник" on a
            // Sunday is the Monday 8 days on, not tomorrow).
            let weeks_on = plus(u64::from(weeks) * 7)?;
            let ahead =
                (7 + day.num_days_from_monday() - weeks_on.weekday().num_days_from_monday()) % 7;
            let date = if ahead > 3 {
                weeks_on.checked_sub_days(Days::new(u64::from(7 - ahead)))
            } else {
                weeks_on.checked_add_days(Days::new(u64::from(ahead)))
            };
            not_past(date.ok_or_else(too_far)?)
        }
        DayRef::QuarterEnd => {
            let this_quarter = last_day_of_quarter(today);
            if at(this_quarter) > now {
                return Ok(at(this_quarter));
            }
            this_quarter
                .succ_opt()
                .map(last_day_of_quarter)
                .map(at)
                .ok_or_else(too_far)
        }
        DayRef::BeforeMonth(month) => {
            let before = if month == 1 { 12 } else { month - 1 };
            day_at(DayRef::MonthEnd(before), moment, now, tz, notes)
        }
        DayRef::MonthEnd(month) => (today.year()..=today.year() + 1)
            .filter_map(|year| NaiveDate::from_ymd_opt(year, month, 1))
            .map(|first| at(last_day_of_month(first)))
            .find(|due| *due > now)
            .ok_or_else(too_far),
        DayRef::Weekend { next: false } => {
            let saturday = coming_weekday(Weekday::Sat, today, &at, now)?;
            // On the weekend itself: today while its time is ahead, else its Sunday.
            let sunday_first = today.weekday() == Weekday::Sun && at(today) > now;
            let saturday_past = today.weekday() == Weekday::Sat && at(today) <= now;
            Ok(if sunday_first {
                at(today)
            } else if saturday_past {
                at(today.succ_opt().ok_or_else(too_far)?)
            } else {
                at(saturday)
            })
        }
        DayRef::Weekend { next: true } => Ok(at(plus(next_monday_in(today) + 5)?)),
        DayRef::NthWeekday { week, day } => nth_weekday(week, day, &at, today, now),
        DayRef::MonthDay(day) => month_day(day, moment, now, tz),
        DayRef::Date { day, month, year } => date(day, month, year, moment, now, tz),
    }
}

/// "tomorrow" (`days` 1) or "the day after tomorrow" (2) at `at`. Said after midnight and before
/// [`NIGHT_ENDS`], by someone who has not slept yet, "tomorrow" is the coming day, today's date
/// ("tomorrow at 9" at 00:30 on Saturday is Saturday 09:00) and "the day after tomorrow" the day
/// after it; noted as [`Assumption::TomorrowAfterMidnight`]. Otherwise, or when that moment has
/// already passed ("tomorrow at 00:15" at 00:30), they count from today's date.
fn after_today(
    days: u64,
    now: DateTime<Utc>,
    tz: Tz,
    at: &impl Fn(NaiveDate) -> DateTime<Utc>,
    notes: &mut Vec<Assumption>,
) -> Result<DateTime<Utc>, DueError> {
    let local = to_local(tz, now);
    let today = local.date();
    let date = |days: u64| today.checked_add_days(Days::new(days)).ok_or_else(too_far);
    if local.time() < NIGHT_ENDS {
        let coming = date(days - 1)?;
        if at(coming) > now {
            notes.push(Assumption::TomorrowAfterMidnight {
                date: coming,
                day_after: days == 2,
            });
            return Ok(at(coming));
        }
    }
    date(days).map(at)
}

/// The next `week`'s `day` of a month whose time is ahead: this month's, or the next one's.
fn nth_weekday(
    week: WeekOfMonth,
    day: Weekday,
    at: &impl Fn(NaiveDate) -> DateTime<Utc>,
    today: NaiveDate,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, DueError> {
    let in_week = |date: &NaiveDate| match u32::try_from(week.ordinal()) {
        Ok(n) => (date.day() - 1) / 7 + 1 == n,
        Err(_) => date.day() + 7 > last_day_of_month(*date).day(),
    };
    today
        .iter_days()
        .take(70)
        .filter(|date| date.weekday() == day && in_week(date))
        .map(at)
        .find(|due| *due > now)
        .ok_or_else(too_far)
}

/// Days from `today` to next week's Monday (weeks start on Monday).
fn next_monday_in(today: NaiveDate) -> u64 {
    u64::from(7 - today.weekday().num_days_from_monday())
}

/// The coming `day`: today if it is that weekday and the time is still ahead, else within
/// the next seven days.
fn coming_weekday(
    day: Weekday,
    today: NaiveDate,
    at: &impl Fn(NaiveDate) -> DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<NaiveDate, DueError> {
    let ahead = u64::from(day.days_since(today.weekday()));
    let date = today
        .checked_add_days(Days::new(ahead))
        .ok_or_else(too_far)?;
    if ahead == 0 && at(date) <= now {
        date.checked_add_days(Days::new(7)).ok_or_else(too_far)
    } else {
        Ok(date)
    }
}

/// The 1st of the month after `today`'s.
fn next_month_first(today: NaiveDate) -> Result<NaiveDate, DueError> {
    today
        .with_day(1)
        .and_then(|first| first.checked_add_months(Months::new(1)))
        .ok_or_else(too_far)
}

fn last_day_of_month(date: NaiveDate) -> NaiveDate {
    (28..=31)
        .rev()
        .find_map(|d| date.with_day(d))
        .unwrap_or(date)
}

/// The last day from Monday to Friday of `date`'s month.
fn last_working_day_of_month(date: NaiveDate) -> NaiveDate {
    let mut day = last_day_of_month(date);
    while matches!(day.weekday(), Weekday::Sat | Weekday::Sun) {
        day = day.pred_opt().unwrap_or(day);
    }
    day
}

/// The last day of `date`'s quarter (31 March, 30 June, 30 September, 31 December).
fn last_day_of_quarter(date: NaiveDate) -> NaiveDate {
    let last_month = (date.month0() / 3 + 1) * 3;
    NaiveDate::from_ymd_opt(date.year(), last_month, 1).map_or(date, last_day_of_month)
}

/// "on the 15th": the next 15th (skipping months without it); today's date with a time
/// already past is in the past, as with a full date.
fn month_day(
    day: u32,
    moment: Moment,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, DueError> {
    if !(1..=31).contains(&day) {
        return Err(DueError::InvalidDayOfMonth { day });
    }
    let today = to_local(tz, now).date();
    let first = today.with_day(1).unwrap_or(today);
    for months in 0..=12 {
        let Some(date) = first
            .checked_add_months(Months::new(months))
            .and_then(|m| m.with_day(day))
        else {
            continue;
        };
        if date < today {
            continue;
        }
        let due = resolve_local(tz, moment.local(date));
        if due > now {
            return Ok(due);
        }
        return Err(DueError::InPast {
            local: moment.local(date),
        });
    }
    Err(DueError::InvalidDayOfMonth { day })
}

/// An explicit date. Without a year it is the next time that date comes
/// (this year or later; 29.02 waits for a leap year), except that today's
/// date with a time already past is in the past, not next year.
fn date(
    day: u32,
    month: u32,
    year: Option<u64>,
    moment: Moment,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<DateTime<Utc>, DueError> {
    let invalid = |year: Option<i32>| DueError::InvalidDate { day, month, year };
    let in_past = |date: NaiveDate| DueError::InPast {
        local: moment.local(date),
    };
    // 2000 is a leap year: a date that fails there fails in every year.
    if NaiveDate::from_ymd_opt(2000, month, day).is_none() {
        return Err(invalid(year.and_then(|y| i32::try_from(y).ok())));
    }
    let at = |date: NaiveDate| resolve_local(tz, moment.local(date));
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

    fn t(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).expect("valid")
    }

    #[test]
    fn words_of_the_morning_or_evening_read_an_hour() {
        let six = Said::Either {
            typed: t(6, 0),
            am: t(6, 0),
            pm: t(18, 0),
        };
        let mut notes = Vec::new();
        assert_eq!(
            cued(six, Some(Period::Morning), &mut notes),
            Said::Exact(t(6, 0))
        );
        assert_eq!(
            cued(six, Some(Period::Evening), &mut notes),
            Said::Exact(t(18, 0))
        );
        assert_eq!(cued(six, None, &mut notes), six);
        assert_eq!(
            notes,
            [
                Assumption::HourWithoutAmPm {
                    typed: t(6, 0),
                    chosen: t(6, 0)
                },
                Assumption::HourWithoutAmPm {
                    typed: t(6, 0),
                    chosen: t(18, 0)
                }
            ]
        );
        let twelve = Said::Either {
            typed: t(12, 0),
            am: t(0, 0),
            pm: t(12, 0),
        };
        assert_eq!(cued(twelve, Some(Period::Morning), &mut notes), twelve);
    }

    #[test]
    fn six_on_a_named_day_offers_both_readings() {
        let tz = chrono_tz::Asia::Tashkent;
        let now = resolve_local(
            tz,
            NaiveDate::from_ymd_opt(2026, 3, 27)
                .expect("valid")
                .and_time(t(12, 16)),
        );
        let mut spec = Spec {
            day: Some(DayRef::Tomorrow),
            clock: Some(super::super::grammar::Clock::at(6, 0)),
            ..Spec::default()
        };
        let resolved = resolve(&spec, None, now, tz).expect("resolves");
        let choice = resolved.choice.expect("a choice");
        assert_eq!(choice.taken, HalfOfDay::Evening);
        assert_eq!(to_local(tz, choice.morning.due).time(), t(6, 0));
        assert_eq!(choice.evening.due, resolved.due);
        spec.clock = Some(super::super::grammar::Clock::at(9, 0));
        assert_eq!(
            resolve(&spec, None, now, tz).expect("resolves").choice,
            None
        );
        spec.clock = Some(super::super::grammar::Clock::at(6, 0));
        assert_eq!(
            resolve(&spec, Some(Period::Morning), now, tz)
                .expect("resolves")
                .choice,
            None
        );
        spec.day = Some(DayRef::Today);
        assert_eq!(
            resolve(&spec, None, now, tz).expect("resolves").choice,
            None
        );
    }

    #[test]
    fn next_week_starts_on_monday() {
        let friday = NaiveDate::from_ymd_opt(2026, 3, 27).expect("valid");
        let sunday = NaiveDate::from_ymd_opt(2026, 3, 29).expect("valid");
        let monday = NaiveDate::from_ymd_opt(2026, 3, 30).expect("valid");
        assert_eq!(next_monday_in(friday), 3);
        assert_eq!(next_monday_in(sunday), 1);
        assert_eq!(next_monday_in(monday), 7);
        assert_eq!(
            last_day_of_month(friday),
            NaiveDate::from_ymd_opt(2026, 3, 31).expect("valid")
        );
    }
}
