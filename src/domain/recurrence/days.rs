//! The calendar side of day-based rules: which local dates a rule fires on, with its interval
//! counted in days, Monday-based weeks, months or years from its anchor.

use chrono::{Datelike, Days, NaiveDate, Weekday, WeekdaySet};

use super::{Frequency, Recurrence, WORKING_DAYS, WeekOfMonth};

/// The start of the period of `frequency` that holds `date`: the date itself for daily rules,
/// its week's Monday for weekly ones, the 1st of its month for monthly ones, 1 January for
/// yearly ones.
pub(super) fn period_start(frequency: Frequency, date: NaiveDate) -> NaiveDate {
    match frequency {
        Frequency::Minutely | Frequency::Hourly | Frequency::Daily => Some(date),
        Frequency::Weekdays | Frequency::Weekly(_) => monday_of(date),
        Frequency::MonthlyOnDay(_)
        | Frequency::MonthlyOnLastDay
        | Frequency::MonthlyOnWeekday { .. } => date.with_day(1),
        Frequency::Yearly { .. } => date.with_ordinal(1),
    }
    .unwrap_or(date)
}

/// The first day on or after `from` that `rule` fires on; `None` only past the end of
/// chrono's calendar.
pub(super) fn first_on_or_after(rule: &Recurrence, from: NaiveDate) -> Option<NaiveDate> {
    let interval = i64::from(rule.interval);
    let anchor = rule.anchor_date().unwrap_or(from);
    match rule.frequency {
        Frequency::Minutely | Frequency::Hourly => None,
        Frequency::Daily => {
            let behind = (from - anchor).num_days().rem_euclid(interval);
            add_days(from, (interval - behind) % interval)
        }
        Frequency::Weekdays => weekly(from, WORKING_DAYS, anchor, interval),
        Frequency::Weekly(days) => weekly(from, days, anchor, interval),
        Frequency::MonthlyOnDay(day) => monthly(from, anchor, interval, |y, m| {
            clamped_day_in_month(y, m, day)
        }),
        Frequency::MonthlyOnLastDay => monthly(from, anchor, interval, last_day_of_month),
        Frequency::MonthlyOnWeekday { week, day } => monthly(from, anchor, interval, |y, m| {
            weekday_of_month(y, m, week, day)
        }),
        Frequency::Yearly { month, day } => yearly(from, anchor, interval, month, day),
    }
}

fn add_days(date: NaiveDate, days: i64) -> Option<NaiveDate> {
    date.checked_add_days(Days::new(u64::try_from(days).ok()?))
}

fn monday_of(date: NaiveDate) -> Option<NaiveDate> {
    date.checked_sub_days(Days::new(u64::from(date.weekday().num_days_from_monday())))
}

/// On `days` of every `interval`-th week counted from `anchor`'s week.
fn weekly(
    from: NaiveDate,
    days: WeekdaySet,
    anchor: NaiveDate,
    interval: i64,
) -> Option<NaiveDate> {
    let week = monday_of(from)?;
    let behind = ((week - monday_of(anchor)?).num_days() / 7).rem_euclid(interval);
    if behind == 0
        && let Some(day) = first_weekday_in(from, days).filter(|d| monday_of(*d) == Some(week))
    {
        return Some(day);
    }
    let next_week = add_days(week, 7 * (interval - behind))?;
    first_weekday_in(next_week, days)
}

/// The day `day_in(year, month)` of every `interval`-th month counted from `anchor`'s month.
fn monthly(
    from: NaiveDate,
    anchor: NaiveDate,
    interval: i64,
    day_in: impl Fn(i32, u32) -> Option<NaiveDate>,
) -> Option<NaiveDate> {
    let index = |d: NaiveDate| i64::from(d.year()) * 12 + i64::from(d.month0());
    let behind = (index(from) - index(anchor)).rem_euclid(interval);
    let month_at = |i: i64| {
        let year = i32::try_from(i.div_euclid(12)).ok()?;
        let month = u32::try_from(i.rem_euclid(12)).ok()? + 1;
        day_in(year, month)
    };
    let mut candidate = index(from) - behind;
    loop {
        if let Some(day) = month_at(candidate).filter(|d| *d >= from) {
            return Some(day);
        }
        if candidate > index(from) {
            return None;
        }
        candidate += interval;
    }
}

/// `month`/`day` (29 February on the 28th in other years) of every `interval`-th year
/// counted from `anchor`'s year.
fn yearly(
    from: NaiveDate,
    anchor: NaiveDate,
    interval: i64,
    month: u32,
    day: u32,
) -> Option<NaiveDate> {
    let behind = i64::from(from.year() - anchor.year()).rem_euclid(interval);
    let mut year = i64::from(from.year()) - behind;
    loop {
        let y = i32::try_from(year).ok()?;
        if let Some(date) = clamped_day_in_month(y, month, day).filter(|d| *d >= from) {
            return Some(date);
        }
        if year > i64::from(from.year()) {
            return None;
        }
        year += interval;
    }
}

/// The first day on or after `from` whose weekday is in `days`.
fn first_weekday_in(from: NaiveDate, days: WeekdaySet) -> Option<NaiveDate> {
    from.iter_days()
        .take(7)
        .find(|d| days.contains(d.weekday()))
}

/// The `week`'s `day` of the given month: the first to fourth such weekday, or the last.
fn weekday_of_month(year: i32, month: u32, week: WeekOfMonth, day: Weekday) -> Option<NaiveDate> {
    match u8::try_from(week.ordinal()) {
        Ok(n) => NaiveDate::from_weekday_of_month_opt(year, month, day, n),
        Err(_) => {
            let last = last_day_of_month(year, month)?;
            let back = (7 + last.weekday().num_days_from_monday() - day.num_days_from_monday()) % 7;
            last.checked_sub_days(Days::new(u64::from(back)))
        }
    }
}

/// `day` of the given month, or the month's last day if it is shorter.
fn clamped_day_in_month(year: i32, month: u32, day: u32) -> Option<NaiveDate> {
    let last = last_day_of_month(year, month)?;
    NaiveDate::from_ymd_opt(year, month, day.min(last.day()))
}

/// The last day of the given month.
fn last_day_of_month(year: i32, month: u32) -> Option<NaiveDate> {
    (28..=31)
        .rev()
        .find_map(|d| NaiveDate::from_ymd_opt(year, month, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("valid date")
    }

    #[test]
    fn periods_start_on_monday_the_first_and_new_year() {
        let d = date("2026-03-27");
        assert_eq!(period_start(Frequency::Weekdays, d).weekday(), Weekday::Mon);
        assert_eq!(period_start(Frequency::Weekdays, d), date("2026-03-23"));
        assert_eq!(
            period_start(Frequency::MonthlyOnLastDay, d),
            date("2026-03-01")
        );
        assert_eq!(
            period_start(Frequency::Yearly { month: 2, day: 14 }, d),
            date("2026-01-01")
        );
        assert_eq!(period_start(Frequency::Daily, d), d);
    }

    #[test]
    fn weekdays_of_the_month_fit_short_months() {
        let first_monday = weekday_of_month(2026, 6, WeekOfMonth::First, Weekday::Mon);
        assert_eq!(first_monday, Some(date("2026-06-01")));
        let last_friday = weekday_of_month(2026, 2, WeekOfMonth::Last, Weekday::Fri);
        assert_eq!(last_friday, Some(date("2026-02-27")));
        let last_sunday = weekday_of_month(2026, 5, WeekOfMonth::Last, Weekday::Sun);
        assert_eq!(last_sunday, Some(date("2026-05-31")));
        let fourth_saturday = weekday_of_month(2027, 2, WeekOfMonth::Fourth, Weekday::Sat);
        assert_eq!(fourth_saturday, Some(date("2027-02-27")));
    }

    #[test]
    fn the_last_day_of_february_depends_on_the_year() {
        assert_eq!(last_day_of_month(2028, 2), Some(date("2028-02-29")));
        assert_eq!(clamped_day_in_month(2027, 2, 31), Some(date("2027-02-28")));
    }
}
