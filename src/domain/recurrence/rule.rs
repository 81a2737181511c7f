//! The stored text form of a [`Recurrence`]: an RFC 5545 RRULE subset.
//!
//! `FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0`,
//! `FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=…`, `FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=…`,
//! `FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=…` (the last day), `FREQ=MONTHLY;BYDAY=1MO;BYHOUR=…` (the
//! first Monday; `-1FR` the last Friday), `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14;BYHOUR=…`.
//! A monthly day of 29–31 is written as `BYMONTHDAY=28,29,30,31;BYSETPOS=-1`
//! ("the latest of these days that exists"), which is exactly our
//! last-day-of-short-months rule, and 29 February every year as
//! `BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1`, so a standard RRULE engine agrees with
//! [`Recurrence::next_after`]. The zone is not part of the rule: it is the
//! user's, stored beside it, and must be passed to `next_after`.
//!
//! An interval above 1 is `INTERVAL=n`, and its anchor is our one addition to RRULE syntax, a
//! `DTSTART` part inside the rule: a local date (`DTSTART=20260330`, the start of the anchor's
//! period) for day-based rules, an instant in UTC for minute and hour rules
//! (`FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T101500Z`, `FREQ=MINUTELY;INTERVAL=30;DTSTART=…`,
//! which have no `BYHOUR`: they have no time of day). iCalendar keeps DTSTART on a line of its
//! own; [`Recurrence::to_rfc5545_rrule`] gives the rule without it, for a calendar event whose
//! own DTSTART is an occurrence.
//!
//! An end is `UNTIL=20260301`, the last local date with an occurrence (in the stored form a
//! date: the zone is beside the rule; [`Recurrence::to_rfc5545_rrule`] writes the last second of
//! that day in UTC, as RFC 5545 asks of a DTSTART with a TZID), or `COUNT=10`. A rule counted from
//! completion carries `X-FROM=DONE`, our second addition, which no calendar knows.
//!
//! Rules without an end or `X-FROM` are written exactly as before these existed, and rules with
//! interval 1 exactly as before intervals existed, so every rule string written earlier still
//! reads back to the same schedule.

use chrono::{DateTime, Days, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike, Utc};
use chrono::{Weekday, WeekdaySet};
use chrono_tz::Tz;

use super::{Anchor, End, Frequency, Recurrence, RecurrenceError, WORKING_DAYS, WeekOfMonth};
use crate::domain::timezone::resolve_local;

/// Why a stored rule string cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A `KEY=VALUE` part is malformed, repeated, unknown or out of range.
    #[error("bad rule part: {0}")]
    BadPart(String),
    /// A required key (`FREQ`, `BYHOUR`, `BYMINUTE`, the day list its
    /// frequency needs, or the `DTSTART` of an interval) is missing.
    #[error("rule lacks {0}")]
    Missing(&'static str),
    /// The parts are well-formed but describe no [`Recurrence`].
    #[error(transparent)]
    Invalid(#[from] RecurrenceError),
}

const DAY_CODES: [(Weekday, &str); 7] = [
    (Weekday::Mon, "MO"),
    (Weekday::Tue, "TU"),
    (Weekday::Wed, "WE"),
    (Weekday::Thu, "TH"),
    (Weekday::Fri, "FR"),
    (Weekday::Sat, "SA"),
    (Weekday::Sun, "SU"),
];

const DATE_FORMAT: &str = "%Y%m%d";
const INSTANT_FORMAT: &str = "%Y%m%dT%H%M%SZ";

/// The value of `X-FROM` for a rule counted from completion.
const FROM_DONE: &str = "DONE";

/// The parts a rule string may have, each at most once.
#[derive(Default)]
struct Parts<'a> {
    freq: Option<&'a str>,
    interval: Option<&'a str>,
    by_month: Option<&'a str>,
    by_day: Option<&'a str>,
    by_month_day: Option<&'a str>,
    by_set_pos: Option<&'a str>,
    by_hour: Option<&'a str>,
    by_minute: Option<&'a str>,
    by_second: Option<&'a str>,
    until: Option<&'a str>,
    count: Option<&'a str>,
    from: Option<&'a str>,
    dtstart: Option<&'a str>,
}

impl Recurrence {
    /// The rule in its stored text form (see the module docs); reading it
    /// back with [`Recurrence::parse_rule_string`] gives an equal value.
    pub fn to_rule_string(&self) -> String {
        let until = |date: NaiveDate| date.format(DATE_FORMAT).to_string();
        let mut rule = self.rule_body(until);
        if self.from_done {
            rule.push_str(&format!(";X-FROM={FROM_DONE}"));
        }
        match self.anchor {
            Some(Anchor::Date(date)) => format!("{rule};DTSTART={}", date.format(DATE_FORMAT)),
            Some(Anchor::Instant(at)) => format!("{rule};DTSTART={}", at.format(INSTANT_FORMAT)),
            None => rule,
        }
    }

    /// The rule as a standard RFC 5545 RRULE value for a calendar event in `zone` whose DTSTART
    /// is one of the occurrences: without the anchor (a minute or hour rule then counts from
    /// the event, and an interval's phase is the event's), an end date as the last second of
    /// that local day in UTC. `None` for a rule counted from completion, which no RRULE can say
    /// (a calendar gets the one occurrence that is known). A `COUNT` counts from the event's
    /// DTSTART: for an event at a later occurrence than the first, give
    /// [`Recurrence::remaining_from`] instead.
    pub fn to_rfc5545_rrule(&self, zone: Tz) -> Option<String> {
        if self.from_done {
            return None;
        }
        let until = |date: NaiveDate| {
            let next_midnight = date
                .checked_add_days(Days::new(1))
                .map(|d| resolve_local(zone, d.and_time(NaiveTime::MIN)));
            let last_second = next_midnight
                .and_then(|at| at.checked_sub_signed(TimeDelta::seconds(1)))
                .unwrap_or(DateTime::<Utc>::MAX_UTC);
            last_second.format(INSTANT_FORMAT).to_string()
        };
        Some(self.rule_body(until))
    }

    /// The same series for what is left of it from occurrence `index` on: a count reduced by
    /// the occurrences before it (at least 1), anything else as it is. For writing a counted
    /// series from its current occurrence, as a calendar export does.
    pub fn remaining_from(&self, index: u32) -> Recurrence {
        match self.end {
            Some(End::Count(count)) => Recurrence {
                end: Some(End::Count(
                    count.saturating_sub(index.saturating_sub(1)).max(1),
                )),
                ..*self
            },
            _ => *self,
        }
    }

    /// `FREQ` to the end part, with the end date written by `until`.
    fn rule_body(&self, until: impl Fn(NaiveDate) -> String) -> String {
        let interval = match self.interval {
            1 => String::new(),
            n => format!(";INTERVAL={n}"),
        };
        let end = match self.end {
            None => String::new(),
            Some(End::Until(date)) => format!(";UNTIL={}", until(date)),
            Some(End::Count(count)) => format!(";COUNT={count}"),
        };
        let days = match self.frequency {
            Frequency::Minutely => return format!("FREQ=MINUTELY{interval}{end}"),
            Frequency::Hourly => return format!("FREQ=HOURLY{interval}{end}"),
            Frequency::Daily => format!("FREQ=DAILY{interval}"),
            Frequency::Weekdays => {
                format!("FREQ=WEEKLY{interval};BYDAY={}", day_codes(WORKING_DAYS))
            }
            Frequency::Weekly(days) => format!("FREQ=WEEKLY{interval};BYDAY={}", day_codes(days)),
            Frequency::MonthlyOnDay(day) => {
                format!("FREQ=MONTHLY{interval};{}", month_days(day))
            }
            Frequency::MonthlyOnLastDay => format!("FREQ=MONTHLY{interval};BYMONTHDAY=-1"),
            Frequency::MonthlyOnWeekday { week, day } => format!(
                "FREQ=MONTHLY{interval};BYDAY={}{}",
                week.ordinal(),
                day_code(day)
            ),
            Frequency::Yearly { month, day } => {
                format!("FREQ=YEARLY{interval};BYMONTH={month};{}", month_days(day))
            }
        };
        format!(
            "{days};BYHOUR={};BYMINUTE={};BYSECOND={}{end}",
            self.time.hour(),
            self.time.minute(),
            self.time.second()
        )
    }

    /// Reads a rule written by [`Recurrence::to_rule_string`] (keys in any
    /// order and case, an optional `RRULE:` prefix). Rejects every RRULE
    /// feature the bot does not use (`BYWEEKNO`, an `UNTIL` with a time, …) rather than silently
    /// ignoring it.
    pub fn parse_rule_string(s: &str) -> Result<Recurrence, RuleError> {
        let upper = s.trim().to_ascii_uppercase();
        let body = upper.strip_prefix("RRULE:").unwrap_or(&upper);
        let parts = split_parts(body)?;
        let rule = schedule(&parts)?;
        let rule = match end(&parts)? {
            Some(end) => rule.ending(end)?,
            None => rule,
        };
        match parts.from {
            None => Ok(rule),
            Some(FROM_DONE) => Ok(rule.from_done()?),
            Some(other) => Err(RuleError::BadPart(format!("X-FROM={other}"))),
        }
    }
}

/// The schedule the parts describe, without its end.
fn schedule(parts: &Parts<'_>) -> Result<Recurrence, RuleError> {
    let interval = parts.interval.map_or(Ok(1), |n| number(n, "INTERVAL"))?;
    let freq = parts.freq.ok_or(RuleError::Missing("FREQ"))?;
    if matches!(freq, "HOURLY" | "MINUTELY") {
        reject_extra(&[
            parts.by_month,
            parts.by_day,
            parts.by_month_day,
            parts.by_set_pos,
            parts.by_hour,
            parts.by_minute,
            parts.by_second,
        ])?;
        let start = parts.dtstart.ok_or(RuleError::Missing("DTSTART"))?;
        let anchor = NaiveDateTime::parse_from_str(start, INSTANT_FORMAT)
            .map_err(|_| RuleError::BadPart(format!("DTSTART={start}")))?
            .and_utc();
        return Ok(match freq {
            "HOURLY" => Recurrence::hourly(interval, anchor)?,
            _ => Recurrence::minutely(interval, anchor)?,
        });
    }
    let time = NaiveTime::from_hms_opt(
        number(parts.by_hour.ok_or(RuleError::Missing("BYHOUR"))?, "BYHOUR")?,
        number(
            parts.by_minute.ok_or(RuleError::Missing("BYMINUTE"))?,
            "BYMINUTE",
        )?,
        parts.by_second.map_or(Ok(0), |s| number(s, "BYSECOND"))?,
    )
    .ok_or_else(|| RuleError::BadPart("time of day".to_owned()))?;
    let frequency = frequency(freq, parts)?;
    let anchor = match parts.dtstart {
        Some(start) => NaiveDate::parse_from_str(start, DATE_FORMAT)
            .map_err(|_| RuleError::BadPart(format!("DTSTART={start}")))?,
        None if interval == 1 => return Ok(Recurrence::new(frequency, time)?),
        None => return Err(RuleError::Missing("DTSTART")),
    };
    Ok(Recurrence::every(frequency, time, interval, anchor)?)
}

/// The end the parts say: `UNTIL` (a date) or `COUNT`, never both.
fn end(parts: &Parts<'_>) -> Result<Option<End>, RuleError> {
    match (parts.until, parts.count) {
        (None, None) => Ok(None),
        (Some(date), None) => NaiveDate::parse_from_str(date, DATE_FORMAT)
            .map(|date| Some(End::Until(date)))
            .map_err(|_| RuleError::BadPart(format!("UNTIL={date}"))),
        (None, Some(count)) => number(count, "COUNT").map(|count| Some(End::Count(count))),
        (Some(_), Some(count)) => Err(RuleError::BadPart(format!("COUNT={count}"))),
    }
}

/// The day-based frequency that `freq` and its `BY…` parts describe.
fn frequency(freq: &str, parts: &Parts<'_>) -> Result<Frequency, RuleError> {
    Ok(match freq {
        "DAILY" => {
            reject_extra(&[
                parts.by_month,
                parts.by_day,
                parts.by_month_day,
                parts.by_set_pos,
            ])?;
            Frequency::Daily
        }
        "WEEKLY" => {
            reject_extra(&[parts.by_month, parts.by_month_day, parts.by_set_pos])?;
            Frequency::Weekly(weekdays(parts.by_day.ok_or(RuleError::Missing("BYDAY"))?)?)
        }
        "MONTHLY" => {
            reject_extra(&[parts.by_month])?;
            if let Some(by_day) = parts.by_day {
                reject_extra(&[parts.by_month_day, parts.by_set_pos])?;
                let (week, day) = weekday_of_month(by_day)?;
                return Ok(Frequency::MonthlyOnWeekday { week, day });
            }
            let days = parts.by_month_day.ok_or(RuleError::Missing("BYMONTHDAY"))?;
            match month_day(days, parts.by_set_pos)? {
                MonthDay::Last => Frequency::MonthlyOnLastDay,
                MonthDay::Day(day) => Frequency::MonthlyOnDay(day),
            }
        }
        "YEARLY" => {
            reject_extra(&[parts.by_day])?;
            let month = number(
                parts.by_month.ok_or(RuleError::Missing("BYMONTH"))?,
                "BYMONTH",
            )?;
            let days = parts.by_month_day.ok_or(RuleError::Missing("BYMONTHDAY"))?;
            match month_day(days, parts.by_set_pos)? {
                MonthDay::Day(day) => Frequency::Yearly { month, day },
                MonthDay::Last => return Err(RuleError::BadPart(format!("BYMONTHDAY={days}"))),
            }
        }
        other => return Err(RuleError::BadPart(format!("FREQ={other}"))),
    })
}

fn split_parts(body: &str) -> Result<Parts<'_>, RuleError> {
    let mut parts = Parts::default();
    for part in body.split(';').filter(|p| !p.is_empty()) {
        let bad = || RuleError::BadPart(part.to_owned());
        let (key, value) = part.split_once('=').ok_or_else(bad)?;
        let slot = match key {
            "FREQ" => &mut parts.freq,
            "INTERVAL" => &mut parts.interval,
            "BYMONTH" => &mut parts.by_month,
            "BYDAY" => &mut parts.by_day,
            "BYMONTHDAY" => &mut parts.by_month_day,
            "BYSETPOS" => &mut parts.by_set_pos,
            "BYHOUR" => &mut parts.by_hour,
            "BYMINUTE" => &mut parts.by_minute,
            "BYSECOND" => &mut parts.by_second,
            "UNTIL" => &mut parts.until,
            "COUNT" => &mut parts.count,
            "X-FROM" => &mut parts.from,
            "DTSTART" => &mut parts.dtstart,
            _ => return Err(bad()),
        };
        if slot.replace(value).is_some() {
            return Err(bad());
        }
    }
    Ok(parts)
}

fn reject_extra(parts: &[Option<&str>]) -> Result<(), RuleError> {
    match parts.iter().flatten().next() {
        Some(extra) => Err(RuleError::BadPart((*extra).to_owned())),
        None => Ok(()),
    }
}

fn number(value: &str, key: &str) -> Result<u32, RuleError> {
    value
        .parse()
        .map_err(|_| RuleError::BadPart(format!("{key}={value}")))
}

fn day_code(day: Weekday) -> &'static str {
    DAY_CODES
        .iter()
        .find(|(d, _)| *d == day)
        .map_or("MO", |(_, code)| *code)
}

fn day_codes(days: WeekdaySet) -> String {
    DAY_CODES
        .iter()
        .filter(|(day, _)| days.contains(*day))
        .map(|(_, code)| *code)
        .collect::<Vec<_>>()
        .join(",")
}

fn weekdays(list: &str) -> Result<WeekdaySet, RuleError> {
    list.split(',')
        .map(|code| {
            DAY_CODES
                .iter()
                .find(|(_, c)| *c == code)
                .map(|(day, _)| *day)
                .ok_or_else(|| RuleError::BadPart(format!("BYDAY={list}")))
        })
        .collect()
}

/// `BYDAY=1MO`, `BYDAY=-1FR`: one weekday with the ordinal of its week in the month.
fn weekday_of_month(by_day: &str) -> Result<(WeekOfMonth, Weekday), RuleError> {
    let bad = || RuleError::BadPart(format!("BYDAY={by_day}"));
    let split = by_day.len().checked_sub(2).ok_or_else(bad)?;
    let (ordinal, code) = (by_day.get(..split).ok_or_else(bad)?, by_day.get(split..));
    let week = ordinal
        .trim_start_matches('+')
        .parse::<i8>()
        .ok()
        .and_then(WeekOfMonth::from_ordinal)
        .ok_or_else(bad)?;
    let day = DAY_CODES
        .iter()
        .find(|(_, c)| Some(*c) == code)
        .map(|(day, _)| *day)
        .ok_or_else(bad)?;
    Ok((week, day))
}

/// `BYMONTHDAY` for a day that may not exist in every month (or year): up to 28 the day
/// itself, else the days from 28 to it with `BYSETPOS=-1`, "the latest of these that exists".
fn month_days(day: u32) -> String {
    if day <= 28 {
        return format!("BYMONTHDAY={day}");
    }
    let list: Vec<String> = (28..=day).map(|d| d.to_string()).collect();
    format!("BYMONTHDAY={};BYSETPOS=-1", list.join(","))
}

/// A day of the month as `BYMONTHDAY` (and `BYSETPOS`) say it.
enum MonthDay {
    /// `-1`: the last day.
    Last,
    /// A day, clamped to the month's length.
    Day(u32),
}

/// The day of month from `BYMONTHDAY` (and `BYSETPOS`): a single day up to
/// 28, `-1` for the last day, or the list `28,…,n` with `BYSETPOS=-1`.
fn month_day(list: &str, set_pos: Option<&str>) -> Result<MonthDay, RuleError> {
    let bad = || RuleError::BadPart(format!("BYMONTHDAY={list}"));
    match set_pos {
        None if list == "-1" => Ok(MonthDay::Last),
        None => number(list, "BYMONTHDAY").and_then(|day| {
            if day <= 28 {
                Ok(MonthDay::Day(day))
            } else {
                Err(bad())
            }
        }),
        Some("-1") => {
            let days: Vec<u32> = list
                .split(',')
                .map(|d| d.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?;
            let last = days.last().copied().ok_or_else(bad)?;
            let expected: Vec<u32> = (28..=last).collect();
            if (29..=31).contains(&last) && days == expected {
                Ok(MonthDay::Day(last))
            } else {
                Err(bad())
            }
        }
        Some(other) => Err(RuleError::BadPart(format!("BYSETPOS={other}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine() -> NaiveTime {
        NaiveTime::from_hms_opt(9, 0, 0).expect("valid time")
    }

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("valid date")
    }

    fn instant(s: &str) -> DateTime<Utc> {
        NaiveDateTime::parse_from_str(s, INSTANT_FORMAT)
            .expect("valid instant")
            .and_utc()
    }

    #[test]
    fn writes_rfc_5545_rules() {
        let cases = [
            (
                Frequency::Daily,
                "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::Weekdays,
                "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::Weekly(WeekdaySet::from_array([Weekday::Sun, Weekday::Wed])),
                "FREQ=WEEKLY;BYDAY=WE,SU;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::MonthlyOnDay(1),
                "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::MonthlyOnDay(30),
                "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::MonthlyOnLastDay,
                "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::Yearly { month: 2, day: 14 },
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                Frequency::Yearly { month: 2, day: 29 },
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
        ];
        for (frequency, text) in cases {
            let r = Recurrence::new(frequency, nine()).expect("valid");
            assert_eq!(r.to_rule_string(), text);
            assert_eq!(Recurrence::parse_rule_string(text), Ok(r));
        }
    }

    #[test]
    fn writes_intervals_with_their_anchor() {
        let days = Recurrence::every(Frequency::Daily, nine(), 2, date("2026-03-27"));
        let weeks = Recurrence::every(
            Frequency::Weekly(WeekdaySet::from_array([Weekday::Tue, Weekday::Thu])),
            nine(),
            2,
            date("2026-03-27"),
        );
        let hours = Recurrence::hourly(3, instant("20260327T101523Z"));
        let cases = [
            (
                days,
                "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260327",
                "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                weeks,
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260323",
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            ),
            (
                hours,
                "FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T101523Z",
                "FREQ=HOURLY;INTERVAL=3",
            ),
        ];
        for (rule, text, rrule) in cases {
            let rule = rule.expect("valid");
            assert_eq!(rule.to_rule_string(), text);
            assert_eq!(
                rule.to_rfc5545_rrule(chrono_tz::UTC).as_deref(),
                Some(rrule)
            );
            assert_eq!(Recurrence::parse_rule_string(text), Ok(rule));
        }
    }

    /// Every form of rule string written before ends, "after done", weekdays of the month and
    /// minute rules existed reads back to the schedule it was written for, and is written again
    /// character for character.
    #[test]
    fn rules_stored_before_read_back_the_same() {
        let monday = WeekdaySet::single(Weekday::Mon);
        let old = [
            (
                "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::Daily, nine()),
            ),
            (
                "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::Weekdays, nine()),
            ),
            (
                "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::Weekly(monday), nine()),
            ),
            (
                "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::MonthlyOnDay(15), nine()),
            ),
            (
                "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::MonthlyOnDay(31), nine()),
            ),
            (
                "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::MonthlyOnLastDay, nine()),
            ),
            (
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Recurrence::new(Frequency::Yearly { month: 2, day: 29 }, nine()),
            ),
            (
                "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328",
                Recurrence::every(Frequency::Daily, nine(), 2, date("2026-03-28")),
            ),
            (
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330",
                Recurrence::every(Frequency::Weekly(monday), nine(), 2, date("2026-04-01")),
            ),
            (
                "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260401",
                Recurrence::every(Frequency::MonthlyOnDay(15), nine(), 3, date("2026-04-15")),
            ),
            (
                "FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T120000Z",
                Recurrence::hourly(3, instant("20260327T120000Z")),
            ),
            (
                "FREQ=HOURLY;DTSTART=20260327T100000Z",
                Recurrence::hourly(1, instant("20260327T100000Z")),
            ),
        ];
        for (text, rule) in old {
            let rule = rule.expect("valid");
            let read = Recurrence::parse_rule_string(text).expect(text);
            assert_eq!(read, rule, "{text}");
            assert_eq!(read.to_rule_string(), text);
            assert_eq!(
                (read.end(), read.counts_from_done()),
                (None, false),
                "{text}"
            );
        }
    }

    #[test]
    fn writes_ends_weekdays_of_the_month_minutes_and_after_done() {
        let last_friday = Frequency::MonthlyOnWeekday {
            week: WeekOfMonth::Last,
            day: Weekday::Fri,
        };
        let first_monday = Frequency::MonthlyOnWeekday {
            week: WeekOfMonth::First,
            day: Weekday::Mon,
        };
        let until = End::Until(date("2026-03-01"));
        let cases = [
            (
                Recurrence::new(first_monday, nine()),
                "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                Some("FREQ=MONTHLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
            ),
            (
                Recurrence::new(last_friday, nine()).and_then(|r| r.ending(End::Count(10))),
                "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10",
                Some("FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10"),
            ),
            (
                Recurrence::every(
                    Frequency::Weekly(WeekdaySet::single(Weekday::Fri)),
                    nine(),
                    2,
                    date("2026-03-27"),
                )
                .and_then(|r| r.ending(until)),
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260301;DTSTART=20260323",
                Some(
                    "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260301T225959Z",
                ),
            ),
            (
                Recurrence::minutely(30, instant("20260327T101523Z")),
                "FREQ=MINUTELY;INTERVAL=30;DTSTART=20260327T101523Z",
                Some("FREQ=MINUTELY;INTERVAL=30"),
            ),
            (
                Recurrence::every(Frequency::Daily, nine(), 3, date("2026-03-28"))
                    .and_then(Recurrence::from_done),
                "FREQ=DAILY;INTERVAL=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0;X-FROM=DONE;DTSTART=20260328",
                None,
            ),
        ];
        for (rule, text, rrule) in cases {
            let rule = rule.expect("valid");
            assert_eq!(rule.to_rule_string(), text);
            assert_eq!(Recurrence::parse_rule_string(text), Ok(rule), "{text}");
            assert_eq!(
                rule.to_rfc5545_rrule(chrono_tz::Europe::Berlin).as_deref(),
                rrule
            );
        }
        assert_eq!(
            Recurrence::minutely(120, instant("20260327T101523Z")),
            Recurrence::hourly(2, instant("20260327T101523Z"))
        );
        assert_eq!(
            Recurrence::minutely(4, instant("20260327T101523Z")),
            Err(RecurrenceError::TooOften { minutes: 4 })
        );
        let counted = Recurrence::new(Frequency::Daily, nine())
            .and_then(|r| r.ending(End::Count(10)))
            .expect("valid");
        assert_eq!(counted.remaining_from(4).end(), Some(End::Count(7)));
        assert_eq!(counted.remaining_from(40).end(), Some(End::Count(1)));
    }

    #[test]
    fn reads_variants_and_rejects_unsupported_rules() {
        let last =
            Recurrence::parse_rule_string("rrule:byminute=5;freq=monthly;bymonthday=-1;byhour=7");
        assert_eq!(last.map(|r| r.frequency()), Ok(Frequency::MonthlyOnLastDay));
        let one = Recurrence::parse_rule_string("FREQ=DAILY;INTERVAL=1;BYHOUR=9;BYMINUTE=0");
        assert_eq!(
            one,
            Recurrence::new(Frequency::Daily, nine()).map_err(RuleError::from)
        );
        for bad in [
            "",
            "FREQ=DAILY",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;INTERVAL=2",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;INTERVAL=0;DTSTART=20260101",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;INTERVAL=2;DTSTART=2026-01-01",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=0",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=2;UNTIL=20260301",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260301T000000Z",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;X-FROM=SCHEDULE",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;X-FROM=DONE",
            "FREQ=MONTHLY;BYDAY=5MO;BYHOUR=9;BYMINUTE=0",
            "FREQ=MONTHLY;BYDAY=1MO,2TU;BYHOUR=9;BYMINUTE=0",
            "FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
            "FREQ=MINUTELY;INTERVAL=2;DTSTART=20260327T101523Z",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYHOUR=10",
            "FREQ=DAILY;BYHOUR=24;BYMINUTE=0",
            "FREQ=WEEKLY;BYHOUR=9;BYMINUTE=0",
            "FREQ=WEEKLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0",
            "FREQ=MONTHLY;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0",
            "FREQ=MONTHLY;BYMONTHDAY=29,30;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0",
            "FREQ=YEARLY;BYHOUR=9;BYMINUTE=0",
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0",
            "FREQ=YEARLY;BYMONTH=13;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
            "FREQ=HOURLY;INTERVAL=2",
            "FREQ=HOURLY;BYHOUR=9;DTSTART=20260327T101523Z",
            "FREQ=MINUTELY;BYHOUR=9;BYMINUTE=0",
            "FREQ=DAILY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
        ] {
            assert!(Recurrence::parse_rule_string(bad).is_err(), "{bad}");
        }
    }
}
