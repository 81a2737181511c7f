//! Recurrences: "every day", "weekdays", "every monday and friday", "every
//! month on the 1st"; "каждый день", "по будням", "каждое 1 число";
//! "har kuni", "ish kunlari", "har oyning 1-kuni".

use chrono::{Weekday, WeekdaySet};

use super::super::vocab::Key;
use super::calendar::weekday_key;
use super::{Context, Cursor, Item, RepeatRef, period_key};

const WEEKEND: WeekdaySet = WeekdaySet::from_array([Weekday::Sat, Weekday::Sun]);

/// Any recurrence form.
pub(super) fn repeat(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    c.attempt(every)
        .or_else(|| c.attempt(adverb))
        .or_else(|| c.attempt(plural_days))
        .or_else(|| c.attempt(day_of_every_month))
}

/// "every|каждый|har …".
fn every(c: &mut Cursor<'_>) -> Option<Item> {
    if !c.eat(Key::Every) {
        return None;
    }
    let repeat = |r| Some(Item::Repeat(r, None));
    if c.eat(Key::DayNoun) {
        return repeat(RepeatRef::Daily);
    }
    if let Some(period) = c.eat_pick(period_key) {
        return Some(Item::Repeat(RepeatRef::Daily, Some(period)));
    }
    if c.eat(Key::Working) {
        c.eat(Key::DayNoun);
        return repeat(RepeatRef::Weekdays);
    }
    if c.eat(Key::WorkingDays) {
        return repeat(RepeatRef::Weekdays);
    }
    if c.eat(Key::Weekend) {
        return repeat(RepeatRef::Weekly(WEEKEND));
    }
    if c.eat(Key::WeekNoun) {
        c.eat(Key::On);
        return repeat(weekday_list(c).map_or(RepeatRef::WeeklyToday, RepeatRef::Weekly));
    }
    if c.eat(Key::MonthNoun) {
        c.eat(Key::On);
        c.eat(Key::The);
        let day = c.attempt(|c| month_day(c, false));
        return repeat(day.map_or(RepeatRef::MonthlyToday, RepeatRef::MonthlyOnDay));
    }
    if let Some(days) = weekday_list(c) {
        c.eat(Key::DayNoun);
        return repeat(RepeatRef::Weekly(days));
    }
    month_day(c, true).and_then(|day| repeat(RepeatRef::MonthlyOnDay(day)))
}

/// `daily`, `ежедневно`, `weekly [on monday]`, `monthly [on the 1st]`.
fn adverb(c: &mut Cursor<'_>) -> Option<Item> {
    let repeat = if c.eat(Key::Daily) {
        RepeatRef::Daily
    } else if c.eat(Key::Weekly) {
        c.eat(Key::On);
        weekday_list(c).map_or(RepeatRef::WeeklyToday, RepeatRef::Weekly)
    } else if c.eat(Key::Monthly) {
        c.eat(Key::On);
        c.eat(Key::The);
        c.attempt(|c| month_day(c, false))
            .map_or(RepeatRef::MonthlyToday, RepeatRef::MonthlyOnDay)
    } else {
        return None;
    };
    Some(Item::Repeat(repeat, None))
}

/// `[on|по|в] weekdays|будням|будни`, `по рабочим дням`, `ish kunlari`,
/// "по выходным", "on mondays", "по понедельникам и средам".
fn plural_days(c: &mut Cursor<'_>) -> Option<Item> {
    let _ = c.eat(Key::Po) || c.eat(Key::On) || c.eat(Key::At);
    let repeat = if c.eat(Key::WorkingDays) || c.eat_all(&[Key::Working, Key::DayNoun]) {
        RepeatRef::Weekdays
    } else if c.eat(Key::Weekend) {
        c.eat(Key::DayNoun);
        RepeatRef::Weekly(WEEKEND)
    } else {
        RepeatRef::Weekly(list(c, |k| match k {
            Key::WeekdayPlural(day) => Some(day),
            _ => None,
        })?)
    };
    Some(Item::Repeat(repeat, None))
}

/// `[on] [the] 1st of every month`, `1 числа каждого месяца`.
fn day_of_every_month(c: &mut Cursor<'_>) -> Option<Item> {
    c.eat(Key::On);
    c.eat(Key::The);
    let day = month_day(c, false)?;
    c.eat(Key::Of);
    c.eat_all(&[Key::Every, Key::MonthNoun])
        .then_some(Item::Repeat(RepeatRef::MonthlyOnDay(day), None))
}

/// "monday", "monday and friday", "mon, wed, fri", "понедельник и среду".
fn weekday_list(c: &mut Cursor<'_>) -> Option<WeekdaySet> {
    list(c, |k| {
        weekday_key(k).or(match k {
            Key::WeekdayPlural(day) => Some(day),
            _ => None,
        })
    })
}

/// One or more weekdays joined by commas, "and" or a repeated "every".
fn list(c: &mut Cursor<'_>, pick: impl Fn(Key) -> Option<Weekday> + Copy) -> Option<WeekdaySet> {
    let mut days = WeekdaySet::single(c.eat_pick(pick)?);
    while let Some(day) = c.attempt(|c| {
        let _ = c.eat_punct(',') || c.eat(Key::And);
        c.eat(Key::Every);
        c.eat_pick(pick)
    }) {
        days.insert(day);
    }
    Some(days)
}

/// A day of the month: "1", "1st", "1-го числа", "1 число", "1-kuni",
/// "1-sanasi". With `strong`, an ordinal suffix or a date noun is required,
/// so that "every 2 hours" or "every 2 days" is not read as "every 2nd".
fn month_day(c: &mut Cursor<'_>, strong: bool) -> Option<u32> {
    let (day, _) = c.eat_number().filter(|(_, digits)| *digits <= 2)?;
    c.eat_adjacent_punct('-');
    let suffix = c.eat(Key::OrdinalSuffix);
    let date_noun = c.eat(Key::DateNoun);
    if strong && !(suffix || date_noun) {
        return None;
    }
    if !date_noun {
        c.eat(Key::DayNoun);
    }
    u32::try_from(day).ok()
}
