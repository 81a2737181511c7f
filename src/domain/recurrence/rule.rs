//! The stored text form of a [`Recurrence`]: an RFC 5545 RRULE subset.
//!
//! `FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0`,
//! `FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=…`, `FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=…`.
//! A monthly day of 29–31 is written as `BYMONTHDAY=28,29,30,31;BYSETPOS=-1`
//! ("the latest of these days that exists"), which is exactly our
//! last-day-of-short-months rule, so a standard RRULE engine agrees with
//! [`Recurrence::next_after`]. The zone is not part of the rule: it is the
//! user's, stored beside it, and must be passed to `next_after`.

use chrono::{NaiveTime, Timelike, Weekday, WeekdaySet};

use super::{Frequency, Recurrence, RecurrenceError, WORKING_DAYS};

/// Why a stored rule string cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A `KEY=VALUE` part is malformed, repeated, unknown or out of range.
    #[error("bad rule part: {0}")]
    BadPart(String),
    /// A required key (`FREQ`, `BYHOUR`, `BYMINUTE`, or the day list its
    /// frequency needs) is missing.
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

/// The parts a rule string may have, each at most once.
#[derive(Default)]
struct Parts<'a> {
    freq: Option<&'a str>,
    by_day: Option<&'a str>,
    by_month_day: Option<&'a str>,
    by_set_pos: Option<&'a str>,
    by_hour: Option<&'a str>,
    by_minute: Option<&'a str>,
    by_second: Option<&'a str>,
}

impl Recurrence {
    /// The rule in its stored text form (see the module docs); reading it
    /// back with [`Recurrence::parse_rule_string`] gives an equal value.
    pub fn to_rule_string(&self) -> String {
        let days = match self.frequency {
            Frequency::Daily => "FREQ=DAILY".to_owned(),
            Frequency::Weekdays => format!("FREQ=WEEKLY;BYDAY={}", day_codes(WORKING_DAYS)),
            Frequency::Weekly(days) => format!("FREQ=WEEKLY;BYDAY={}", day_codes(days)),
            Frequency::MonthlyOnDay(day) if day <= 28 => format!("FREQ=MONTHLY;BYMONTHDAY={day}"),
            Frequency::MonthlyOnDay(day) => {
                let list: Vec<String> = (28..=day).map(|d| d.to_string()).collect();
                format!("FREQ=MONTHLY;BYMONTHDAY={};BYSETPOS=-1", list.join(","))
            }
        };
        format!(
            "{days};BYHOUR={};BYMINUTE={};BYSECOND={}",
            self.time.hour(),
            self.time.minute(),
            self.time.second()
        )
    }

    /// Reads a rule written by [`Recurrence::to_rule_string`] (keys in any
    /// order and case, an optional `RRULE:` prefix). Rejects every RRULE
    /// feature the bot does not use (`INTERVAL`, `COUNT`, `UNTIL`, …) rather
    /// than silently ignoring it.
    pub fn parse_rule_string(s: &str) -> Result<Recurrence, RuleError> {
        let upper = s.trim().to_ascii_uppercase();
        let body = upper.strip_prefix("RRULE:").unwrap_or(&upper);
        let parts = split_parts(body)?;
        let time = NaiveTime::from_hms_opt(
            number(parts.by_hour.ok_or(RuleError::Missing("BYHOUR"))?, "BYHOUR")?,
            number(
                parts.by_minute.ok_or(RuleError::Missing("BYMINUTE"))?,
                "BYMINUTE",
            )?,
            parts.by_second.map_or(Ok(0), |s| number(s, "BYSECOND"))?,
        )
        .ok_or_else(|| RuleError::BadPart("time of day".to_owned()))?;
        let frequency = match parts.freq.ok_or(RuleError::Missing("FREQ"))? {
            "DAILY" => {
                reject_extra(&[parts.by_day, parts.by_month_day, parts.by_set_pos])?;
                Frequency::Daily
            }
            "WEEKLY" => {
                reject_extra(&[parts.by_month_day, parts.by_set_pos])?;
                Frequency::Weekly(weekdays(parts.by_day.ok_or(RuleError::Missing("BYDAY"))?)?)
            }
            "MONTHLY" => {
                reject_extra(&[parts.by_day])?;
                let days = parts.by_month_day.ok_or(RuleError::Missing("BYMONTHDAY"))?;
                Frequency::MonthlyOnDay(month_day(days, parts.by_set_pos)?)
            }
            other => return Err(RuleError::BadPart(format!("FREQ={other}"))),
        };
        Ok(Recurrence::new(frequency, time)?)
    }
}

fn split_parts(body: &str) -> Result<Parts<'_>, RuleError> {
    let mut parts = Parts::default();
    for part in body.split(';').filter(|p| !p.is_empty()) {
        let bad = || RuleError::BadPart(part.to_owned());
        let (key, value) = part.split_once('=').ok_or_else(bad)?;
        let slot = match key {
            "FREQ" => &mut parts.freq,
            "BYDAY" => &mut parts.by_day,
            "BYMONTHDAY" => &mut parts.by_month_day,
            "BYSETPOS" => &mut parts.by_set_pos,
            "BYHOUR" => &mut parts.by_hour,
            "BYMINUTE" => &mut parts.by_minute,
            "BYSECOND" => &mut parts.by_second,
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

/// The day of month from `BYMONTHDAY` (and `BYSETPOS`): a single day up to
/// 28, `-1` for the last day, or the list `28,…,n` with `BYSETPOS=-1`.
fn month_day(list: &str, set_pos: Option<&str>) -> Result<u32, RuleError> {
    let bad = || RuleError::BadPart(format!("BYMONTHDAY={list}"));
    match set_pos {
        None if list == "-1" => Ok(31),
        None => {
            number(list, "BYMONTHDAY").and_then(|day| if day <= 28 { Ok(day) } else { Err(bad()) })
        }
        Some("-1") => {
            let days: Vec<u32> = list
                .split(',')
                .map(|d| d.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?;
            let last = days.last().copied().ok_or_else(bad)?;
            let expected: Vec<u32> = (28..=last).collect();
            if (29..=31).contains(&last) && days == expected {
                Ok(last)
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
        ];
        for (frequency, text) in cases {
            let r = Recurrence::new(frequency, nine()).expect("valid");
            assert_eq!(r.to_rule_string(), text);
            assert_eq!(Recurrence::parse_rule_string(text), Ok(r));
        }
    }

    #[test]
    fn reads_variants_and_rejects_unsupported_rules() {
        let last =
            Recurrence::parse_rule_string("rrule:byminute=5;freq=monthly;bymonthday=-1;byhour=7");
        assert_eq!(last.map(|r| r.frequency()), Ok(Frequency::MonthlyOnDay(31)));
        for bad in [
            "",
            "FREQ=DAILY",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;INTERVAL=2",
            "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYHOUR=10",
            "FREQ=DAILY;BYHOUR=24;BYMINUTE=0",
            "FREQ=WEEKLY;BYHOUR=9;BYMINUTE=0",
            "FREQ=WEEKLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0",
            "FREQ=MONTHLY;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0",
            "FREQ=MONTHLY;BYMONTHDAY=29,30;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0",
            "FREQ=YEARLY;BYHOUR=9;BYMINUTE=0",
            "FREQ=DAILY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
        ] {
            assert!(Recurrence::parse_rule_string(bad).is_err(), "{bad}");
        }
    }
}
