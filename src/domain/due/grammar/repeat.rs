//! Recurrences: "every day", "weekdays", "every monday and friday", "every month on the 1st",
//! "every 2 weeks on tuesday", "every 3 hours", "every year on 14 Feb", "every month on the
//! last day"; "каждый день", "по будням", "каждое 1 число", "каждые 2 дня", "раз в неделю",
//! "каждый последний день месяца", "ежегодно 14 февраля"; "har kuni", "ish kunlari", "har oyning
//! 1-kuni", "seshanba va payshanba kunlari", "har 3 soatda", "har oy oxirgi kuni", "har yili
//! 14-fevralda", "kun ora".

use chrono::{Weekday, WeekdaySet};

use crate::domain::recurrence::MAX_INTERVAL;

use super::super::keys::{Key, Unit};
use super::calendar::{date_without_year, listed_weekday, weekday_key};
use super::number::count;
use super::{Context, Cursor, Item, Repeat, RepeatRef, period_key, unit_key};

const WEEKEND: WeekdaySet = WeekdaySet::from_array([Weekday::Sat, Weekday::Sun]);

/// Any recurrence form.
pub(super) fn repeat(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    c.attempt(every)
        .or_else(|| c.attempt(adverb))
        .or_else(|| c.attempt(once_per))
        .or_else(|| c.attempt(plural_days))
        .or_else(|| c.attempt(last_day_of_every_month))
        .or_else(|| c.attempt(day_of_every_month))
        .or_else(|| c.attempt(unit_other))
}

fn each(kind: RepeatRef) -> Option<Item> {
    Some(Item::Repeat(Repeat::each(kind), None))
}

/// "every|каждый|har …".
fn every(c: &mut Cursor<'_>) -> Option<Item> {
    if !c.eat(Key::Every) {
        return None;
    }
    if let Some(item) = c.attempt(periodic_with_count) {
        return Some(item);
    }
    if c.eat(Key::DayNoun) {
        return each(RepeatRef::Daily);
    }
    if let Some(period) = c.eat_pick(period_key) {
        return Some(Item::Repeat(Repeat::each(RepeatRef::Daily), Some(period)));
    }
    if c.eat(Key::Working) {
        c.eat(Key::DayNoun);
        return each(RepeatRef::Weekdays);
    }
    if c.eat(Key::WorkingDays) {
        return each(RepeatRef::Weekdays);
    }
    if c.eat(Key::Weekend) {
        return each(RepeatRef::Weekly(WEEKEND));
    }
    if c.eat(Key::WeekNoun) {
        return each(week_rest(c));
    }
    if c.eat(Key::MonthNoun) {
        return each(month_rest(c).unwrap_or(RepeatRef::MonthlyToday));
    }
    if c.eat(Key::YearNoun) {
        return each(year_rest(c).unwrap_or(RepeatRef::YearlyToday));
    }
    if c.eat_all(&[Key::Last, Key::DayNoun]) {
        c.eat(Key::Of);
        c.eat(Key::The);
        return c
            .eat(Key::MonthNoun)
            .then_some(())
            .and_then(|()| each(RepeatRef::MonthlyLastDay));
    }
    if let Some(days) = weekday_list(c) {
        let _ = c.eat(Key::DayNoun) || c.eat(Key::DaysPlural);
        return each(RepeatRef::Weekly(days));
    }
    if let Some((day, month)) = c.attempt(date_without_year) {
        return each(RepeatRef::Yearly { day, month });
    }
    month_day(c, true).and_then(|day| each(RepeatRef::MonthlyOnDay(day)))
}

/// "2 days", "other week", "3 hours", "hour", "year on 14 Feb" after "every"; "2 kunda",
/// "3 soatda" after "har".
fn periodic_with_count(c: &mut Cursor<'_>) -> Option<Item> {
    let every = if c.eat(Key::Other) {
        2
    } else {
        c.attempt(|c| count(c, MAX_INTERVAL)).unwrap_or(1)
    };
    let unit = c.eat_pick(unit_key)?;
    periodic(c, unit, every)
}

/// A repeat every `every` `unit`s, with the days that may follow its unit.
fn periodic(c: &mut Cursor<'_>, unit: Unit, every: u32) -> Option<Item> {
    if every == 0 {
        return None;
    }
    let kind = match unit {
        Unit::Second | Unit::Minute => return None,
        Unit::Hour => RepeatRef::Hourly,
        Unit::Day => RepeatRef::Daily,
        Unit::Week => week_rest(c),
        Unit::Month => month_rest(c).unwrap_or(RepeatRef::MonthlyToday),
        Unit::Year => year_rest(c).unwrap_or(RepeatRef::YearlyToday),
    };
    Some(Item::Repeat(Repeat { kind, every }, None))
}

/// The days after "every week": "on tuesday and thursday", "по вторникам", "dushanba kuni";
/// today's weekday if none.
fn week_rest(c: &mut Cursor<'_>) -> RepeatRef {
    c.attempt(|c| {
        let _ = c.eat(Key::On) || c.eat(Key::At) || c.eat(Key::Po);
        let days = weekday_list(c)?;
        let _ = c.eat(Key::DayNoun) || c.eat(Key::DaysPlural);
        Some(RepeatRef::Weekly(days))
    })
    .unwrap_or(RepeatRef::WeeklyToday)
}

/// The day after "every month": "on the 1st", "15 числа", "on the last day", "в последний
/// день", "oxirgi kuni", "oxirida".
fn month_rest(c: &mut Cursor<'_>) -> Option<RepeatRef> {
    c.attempt(|c| {
        let _ = c.eat(Key::On) || c.eat(Key::At);
        c.eat(Key::The);
        if c.eat(Key::End) || c.eat_all(&[Key::Last, Key::DayNoun]) {
            return Some(RepeatRef::MonthlyLastDay);
        }
        month_day(c, false).map(RepeatRef::MonthlyOnDay)
    })
}

/// The date after "every year": "on 14 Feb", "14 февраля", "14-fevralda".
fn year_rest(c: &mut Cursor<'_>) -> Option<RepeatRef> {
    c.attempt(|c| {
        c.eat(Key::On);
        let (day, month) = date_without_year(c)?;
        Some(RepeatRef::Yearly { day, month })
    })
}

/// `daily`, `ежедневно`, `weekly [on monday]`, `monthly [on the 1st]`, `yearly [on 14 Feb]`,
/// `hourly`, `fortnightly [on friday]`.
fn adverb(c: &mut Cursor<'_>) -> Option<Item> {
    let (kind, every) = if c.eat(Key::Daily) {
        (RepeatRef::Daily, 1)
    } else if c.eat(Key::Weekly) {
        (week_rest(c), 1)
    } else if c.eat(Key::Fortnightly) {
        (week_rest(c), 2)
    } else if c.eat(Key::Monthly) {
        (month_rest(c).unwrap_or(RepeatRef::MonthlyToday), 1)
    } else if c.eat(Key::Yearly) {
        (year_rest(c).unwrap_or(RepeatRef::YearlyToday), 1)
    } else if c.eat(Key::Hourly) {
        (RepeatRef::Hourly, 1)
    } else {
        return None;
    };
    Some(Item::Repeat(Repeat { kind, every }, None))
}

/// "раз в неделю", "раз в 2 недели", "once a week", "once every 3 days".
fn once_per(c: &mut Cursor<'_>) -> Option<Item> {
    c.eat(Key::Once).then_some(())?;
    let _ = c.eat(Key::At) || c.eat(Key::Article) || c.eat(Key::Every);
    periodic_with_count(c)
}

/// Uzbek "kun ora" (every other day), "hafta ora".
fn unit_other(c: &mut Cursor<'_>) -> Option<Item> {
    let unit = c.eat_pick(unit_key)?;
    c.eat(Key::Other).then_some(())?;
    periodic(c, unit, 2)
}

/// `[on|по|в] weekdays|будням|будни`, `по рабочим дням`, `ish kunlari`,
/// "по выходным", "on mondays", "по понедельникам и средам", "seshanba va payshanba kunlari".
fn plural_days(c: &mut Cursor<'_>) -> Option<Item> {
    let _ = c.eat(Key::Po) || c.eat(Key::On) || c.eat(Key::At);
    let kind = if c.eat(Key::WorkingDays) || c.eat_all(&[Key::Working, Key::DayNoun]) {
        RepeatRef::Weekdays
    } else if c.eat(Key::Weekend) {
        c.eat(Key::DayNoun);
        RepeatRef::Weekly(WEEKEND)
    } else if let Some(days) = c.attempt(|c| {
        let days = list(c, weekday_key)?;
        c.eat(Key::DaysPlural).then_some(days)
    }) {
        RepeatRef::Weekly(days)
    } else {
        RepeatRef::Weekly(list(c, |k| match k {
            Key::WeekdayPlural(day) => Some(day),
            _ => None,
        })?)
    };
    each(kind)
}

/// "on the last day of every month", "в последний день каждого месяца", "at the end of every
/// month", "в конце каждого месяца".
fn last_day_of_every_month(c: &mut Cursor<'_>) -> Option<Item> {
    let _ = c.eat(Key::On) || c.eat(Key::At);
    c.eat(Key::The);
    (c.eat(Key::End) || c.eat_all(&[Key::Last, Key::DayNoun])).then_some(())?;
    c.eat(Key::Of);
    c.eat_all(&[Key::Every, Key::MonthNoun])
        .then_some(())
        .and_then(|()| each(RepeatRef::MonthlyLastDay))
}

/// `[on] [the] 1st of every month`, `1 числа каждого месяца`.
fn day_of_every_month(c: &mut Cursor<'_>) -> Option<Item> {
    c.eat(Key::On);
    c.eat(Key::The);
    let day = month_day(c, false)?;
    c.eat(Key::Of);
    c.eat_all(&[Key::Every, Key::MonthNoun])
        .then_some(())
        .and_then(|()| each(RepeatRef::MonthlyOnDay(day)))
}

/// "monday", "monday and friday", "mon, wed, fri", "понедельник и среду", "du, cho, ju" (an
/// Uzbek short form only among several days: "pay" alone is no Thursday).
fn weekday_list(c: &mut Cursor<'_>) -> Option<WeekdaySet> {
    let plural = |k| match k {
        Key::WeekdayPlural(day) => Some(day),
        _ => None,
    };
    c.attempt(|c| {
        let first = c.pos();
        let days = list(c, |k| listed_weekday(k).or(plural(k)))?;
        let named = c.is_at(first, |k| weekday_key(k).or(plural(k)));
        (named || days.len() > 1).then_some(days)
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
