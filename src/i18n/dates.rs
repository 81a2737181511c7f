//! Dates, times and durations as the people of each language write them: the one place that
//! turns a moment or a length of time into words for a user (task cards, the list, snoozes,
//! reminders, error messages). The words and their order come from `locales/*/dates.ftl`; only
//! the clock (`09:00`, 24-hour in every language) and the numbers are written here.
//!
//! Nothing here reads the clock: callers pass "now" (what "today" and "tomorrow" are relative
//! to), so tests decide what day it is.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, TimeDelta, Utc, Weekday};
use chrono_tz::Tz;

use super::{Arg, Tr};
use crate::domain::lead::Lead;
use crate::domain::timezone::to_local;

/// Moments in one language and one zone, relative to one "now": "today at 12:37",
/// "Tue 1 Dec, 12:37", "Fri 1 Jan 2027, 09:00".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dates {
    tr: Tr,
    zone: Tz,
    today: NaiveDate,
}

impl Dates {
    /// Moments shown in `tr`'s language and in `zone`, as seen at `now`.
    pub fn new(tr: Tr, zone: Tz, now: DateTime<Utc>) -> Self {
        Self {
            tr,
            zone,
            today: to_local(zone, now).date(),
        }
    }

    /// `t` as a person of the language says when something happens: "today", "tomorrow" or
    /// "yesterday" (a late reminder, a time that has passed) with the time, else the weekday and
    /// the date, with the year only when it is not the current one.
    pub fn moment(&self, t: DateTime<Utc>) -> String {
        self.local_moment(to_local(self.zone, t))
    }

    /// A wall-clock time of the zone as [`Dates::moment`] says it (for a time the user typed that
    /// has no instant, such as one that has passed).
    pub fn local_moment(&self, local: NaiveDateTime) -> String {
        let key = match (local.date() - self.today).num_days() {
            0 => "date-today",
            1 => "date-tomorrow",
            -1 => "date-yesterday",
            _ => return self.local_date_time(local),
        };
        self.tr.t_with(key, &[("time", Arg::Text(&clock(local)))])
    }

    /// `t` as [`Dates::moment`] says it, with the weekday and date also when it is tomorrow or
    /// yesterday, for confirmations where the user checks the day: "today at 12:37", "tomorrow,
    /// Wed 2 Dec, 09:00", "Fri 4 Dec, 18:00".
    pub fn moment_with_weekday(&self, t: DateTime<Utc>) -> String {
        let local = to_local(self.zone, t);
        let key = match (local.date() - self.today).num_days() {
            0 => return self.local_moment(local),
            1 => "date-tomorrow-dated",
            -1 => "date-yesterday-dated",
            _ => return self.local_date_time(local),
        };
        self.tr
            .t_with(key, &[("date", Arg::Text(&self.local_date_time(local)))])
    }

    /// `t` with its weekday and date even when it is today (the local time shown after choosing a
    /// zone, where the date is what the user checks); the year only when it is not the current one.
    pub fn date_time(&self, t: DateTime<Utc>) -> String {
        self.local_date_time(to_local(self.zone, t))
    }

    /// The local day of `t` with its weekday, without the time ("Wed 2 Dec"), the year only when
    /// it is not the current one.
    pub fn day(&self, t: DateTime<Utc>) -> String {
        let date = to_local(self.zone, t).date();
        self.dated(date, ["date-day", "date-day-other-year"], None)
    }

    /// A weekday's short name ("Wed", "ср", "Chor"), as in the dates.
    pub fn weekday(&self, weekday: Weekday) -> String {
        self.tr.t_with(
            "date-weekday",
            &[("code", Arg::Text(weekday_code(weekday)))],
        )
    }

    fn local_date_time(&self, local: NaiveDateTime) -> String {
        self.dated(
            local.date(),
            ["date-this-year", "date-other-year"],
            Some(&clock(local)),
        )
    }

    /// `date` in words with its weekday and month, by the first of `keys` in the current year
    /// and the second in another, with `time` when given.
    fn dated(&self, date: NaiveDate, keys: [&str; 2], time: Option<&str>) -> String {
        let weekday = self.tr.t_with(
            "date-weekday",
            &[("code", Arg::Text(weekday_code(date.weekday())))],
        );
        let month = self
            .tr
            .t_with("date-month", &[("code", Arg::Text(month_code(date)))]);
        let key = if date.year() == self.today.year() {
            keys[0]
        } else {
            keys[1]
        };
        let mut args = vec![
            ("weekday", Arg::Text(&weekday)),
            ("day", Arg::Number(i64::from(date.day()))),
            ("month", Arg::Text(&month)),
            ("year", Arg::Number(i64::from(date.year()))),
        ];
        if let Some(time) = time {
            args.push(("time", Arg::Text(time)));
        }
        self.tr.t_with(key, &args)
    }
}

/// The time of day, 24-hour with two-digit hours, as all three languages write it: `09:00`.
fn clock(local: NaiveDateTime) -> String {
    local.format("%H:%M").to_string()
}

/// The selector of a weekday in `date-weekday`.
fn weekday_code(weekday: Weekday) -> &'static str {
    match weekday {
        Weekday::Mon => "mon",
        Weekday::Tue => "tue",
        Weekday::Wed => "wed",
        Weekday::Thu => "thu",
        Weekday::Fri => "fri",
        Weekday::Sat => "sat",
        Weekday::Sun => "sun",
    }
}

/// The selector of `date`'s month in `date-month`.
fn month_code(date: NaiveDate) -> &'static str {
    const CODES: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    CODES[date.month0() as usize]
}

/// A length of time in words, to the minute and at least one minute: "2 hours 5 minutes",
/// "1 day 3 hours" (days and hours once it is a day or more), "7 minutes"; for how late a
/// reminder is and for lead times.
pub fn duration(tr: Tr, d: TimeDelta) -> String {
    let minutes = d.num_minutes().max(1);
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let parts = if days > 0 {
        [("duration-days", days), ("duration-hours", hours)]
    } else {
        [("duration-hours", hours), ("duration-minutes", mins)]
    };
    parts
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(key, n)| tr.t_with(key, &[("n", Arg::Number(n))]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A lead time in words: "at the deadline" or "30 minutes before the deadline".
pub fn lead(tr: Tr, lead: Lead) -> String {
    if lead.is_zero() {
        return tr.t("lead-at-deadline");
    }
    tr.t_with(
        "lead-before",
        &[("duration", Arg::Text(&duration(tr, lead.duration())))],
    )
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::domain::lang::Lang;

    const BERLIN: Tz = chrono_tz::Europe::Berlin;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }

    fn en(zone: Tz, now: DateTime<Utc>) -> Dates {
        Dates::new(Tr::new(Lang::En), zone, now)
    }

    #[test]
    fn days_are_counted_on_the_local_calendar_not_in_24_hours() {
        // 23:59 in Berlin: a minute later is tomorrow; 47 hours later is two days off.
        let now = utc(2026, 12, 1, 22, 59);
        let dates = en(BERLIN, now);
        assert_eq!(dates.moment(now), "today at 23:59");
        assert_eq!(dates.moment(utc(2026, 12, 1, 23, 1)), "tomorrow at 00:01");
        assert_eq!(dates.moment(now + TimeDelta::hours(47)), "Thu 3 Dec, 22:59");
        // 00:01 in Berlin: 23:58 the same day is still today, a minute before midnight yesterday.
        let dates = en(BERLIN, utc(2026, 12, 1, 23, 1));
        assert_eq!(dates.moment(utc(2026, 12, 2, 22, 58)), "today at 23:58");
        assert_eq!(dates.moment(utc(2026, 12, 1, 22, 59)), "yesterday at 23:59");
    }

    #[test]
    fn the_zone_decides_which_day_it_is() {
        // 20:30 UTC on 1 December is 01:30 on the 2nd in Tashkent, 21:30 on the 1st in Berlin.
        let now = utc(2026, 12, 1, 12, 0);
        let t = utc(2026, 12, 1, 20, 30);
        assert_eq!(en(BERLIN, now).moment(t), "today at 21:30");
        assert_eq!(
            en(chrono_tz::Asia::Tashkent, now).moment(t),
            "tomorrow at 01:30"
        );
    }

    #[test]
    fn across_the_spring_dst_change_tomorrow_is_still_tomorrow() {
        // Saturday 28 March 2026 12:00 CET; Sunday 09:00 CEST is 20 hours later, not 21.
        let dates = en(BERLIN, utc(2026, 3, 28, 11, 0));
        assert_eq!(dates.moment(utc(2026, 3, 29, 7, 0)), "tomorrow at 09:00");
        // The first minute after the gap reads 03:00, never 02:00.
        assert_eq!(dates.moment(utc(2026, 3, 29, 1, 0)), "tomorrow at 03:00");
        assert_eq!(dates.moment(utc(2026, 3, 29, 0, 59)), "tomorrow at 01:59");
    }

    #[test]
    fn the_year_is_shown_only_when_it_is_not_the_current_one() {
        let dates = en(BERLIN, utc(2026, 12, 31, 12, 0));
        assert_eq!(dates.moment(utc(2027, 1, 1, 8, 0)), "tomorrow at 09:00");
        assert_eq!(dates.moment(utc(2027, 1, 2, 8, 0)), "Sat 2 Jan 2027, 09:00");
        assert_eq!(dates.moment(utc(2026, 1, 2, 8, 0)), "Fri 2 Jan, 09:00");
        let dates = en(BERLIN, utc(2026, 1, 2, 12, 0));
        assert_eq!(
            dates.moment(utc(2025, 12, 31, 8, 0)),
            "Wed 31 Dec 2025, 09:00"
        );
    }

    #[test]
    fn a_typed_local_time_and_the_date_even_for_today() {
        let now = utc(2026, 12, 1, 11, 37);
        let dates = en(BERLIN, now);
        let nine = NaiveDate::from_ymd_opt(2026, 12, 1)
            .unwrap()
            .and_hms_opt(9, 0, 0)
            .unwrap();
        assert_eq!(dates.local_moment(nine), "today at 09:00");
        assert_eq!(dates.date_time(now), "Tue 1 Dec, 12:37");
    }

    #[test]
    fn confirmations_name_the_weekday_of_every_day_but_today() {
        let dates = en(BERLIN, utc(2026, 12, 1, 11, 37));
        assert_eq!(
            dates.moment_with_weekday(utc(2026, 12, 1, 17, 0)),
            "today at 18:00"
        );
        assert_eq!(
            dates.moment_with_weekday(utc(2026, 12, 2, 8, 0)),
            "tomorrow, Wed 2 Dec, 09:00"
        );
        assert_eq!(
            dates.moment_with_weekday(utc(2026, 11, 30, 8, 0)),
            "yesterday, Mon 30 Nov, 09:00"
        );
        assert_eq!(
            dates.moment_with_weekday(utc(2026, 12, 4, 17, 0)),
            "Fri 4 Dec, 18:00"
        );
    }

    #[test]
    fn every_language_names_every_weekday_and_month_of_its_own() {
        let weekdays = [
            Weekday::Mon,
            Weekday::Tue,
            Weekday::Wed,
            Weekday::Thu,
            Weekday::Fri,
            Weekday::Sat,
            Weekday::Sun,
        ]
        .map(weekday_code);
        let months: Vec<&str> = (1..=12)
            .map(|month| month_code(NaiveDate::from_ymd_opt(2026, month, 1).unwrap()))
            .collect();
        let names = |lang: Lang, key: &str, codes: &[&str]| -> Vec<String> {
            let tr = Tr::new(lang);
            codes
                .iter()
                .map(|code| tr.t_with(key, &[("code", Arg::Text(code))]))
                .collect()
        };
        for (key, codes) in [("date-weekday", &weekdays[..]), ("date-month", &months[..])] {
            let english = names(Lang::En, key, codes);
            for lang in Lang::ALL {
                let own = names(lang, key, codes);
                let distinct: std::collections::HashSet<&String> = own.iter().collect();
                assert_eq!(distinct.len(), codes.len(), "{lang:?}: {own:?}");
                assert!(
                    own.iter()
                        .all(|name| !name.is_empty() && !name.contains(['\u{2068}', '{'])),
                    "{lang:?}: {own:?}"
                );
                if lang != Lang::En {
                    assert!(
                        own.iter().zip(&english).all(|(a, b)| a != b),
                        "{lang:?} falls back to English: {own:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn russian_plurals_of_durations() {
        let tr = Tr::new(Lang::Ru);
        assert_eq!(duration(tr, TimeDelta::minutes(21)), "21 минуту");
        assert_eq!(duration(tr, TimeDelta::minutes(63)), "1 час 3 минуты");
        assert_eq!(duration(tr, TimeDelta::hours(29)), "1 день 5 часов");
    }

    #[test]
    fn durations_are_at_least_a_minute_and_drop_empty_parts() {
        let tr = Tr::new(Lang::En);
        assert_eq!(duration(tr, TimeDelta::seconds(20)), "1 minute");
        assert_eq!(duration(tr, TimeDelta::minutes(120)), "2 hours");
        assert_eq!(duration(tr, TimeDelta::minutes(1441)), "1 day");
        assert_eq!(lead(tr, Lead::ZERO), "at the deadline");
        assert_eq!(
            lead(tr, Lead::from_secs(5400).unwrap()),
            "1 hour 30 minutes before the deadline"
        );
    }
}
