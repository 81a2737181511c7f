//! Recurrences: "every day", "weekdays", "every monday and friday", "mon wed fri", "every month on
//! the 1st", "every 2 weeks on tuesday", "every other friday", "the first monday of every month",
//! "every day except weekends", "every 30 minutes", "every 3 hours", "every year on 14 Feb", "every
//! month on the last day", "3 days after done", "every! 3 days", "every 2nd day"; "каждый день",
//! "по будням", "пн ср пт", "каждое 1 число", "каждые 2 дня", "раз в неделю", "каждую вторую
//! пятницу", "в первый понедельник каждого месяца", "каждый день кроме выходных", "каждые 15
//! минут", "каждый последний день месяца", "ежегодно 14 февраля", "через 3 дня после выполнения";
//! "har kuni", "ish kunlari", "du cho ju", "har oyning 1-kuni", "har oyning birinchi dushanbasi",
//! "seshanba va payshanba kunlari", "har 30 daqiqada", "har 3 soatda", "dam olish kunlaridan
//! tashqari har kuni", "har oy oxirgi kuni", "har yili 14-fevralda", "kun ora", "bajarilgandan 3
//! kun keyin".

use chrono::{Weekday, WeekdaySet};

use crate::domain::recurrence::{MAX_INTERVAL, WORKING_DAYS, WeekOfMonth};

use super::super::keys::{Key, Period, Unit};
use super::amount::standalone as amount;
use super::calendar::{
    date_without_year, listed_weekday, short_weekday, week_of_month, weekday_key,
};
use super::clock;
use super::number::count;
use super::ordinal::day_ordinal;
use super::{Context, Cursor, Item, Repeat, RepeatRef, Span, period_key, unit_key};

const WEEKEND: WeekdaySet = WeekdaySet::from_array([Weekday::Sat, Weekday::Sun]);

/// Any recurrence form, with the days it leaves out ("except weekends").
pub(super) fn repeat(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    if let Some(item) = c.attempt(except_first) {
        return Some(item);
    }
    let item = c
        .attempt(|c| weekday_span(c, context))
        .or_else(|| c.attempt(after_done))
        .or_else(|| c.attempt(every))
        .or_else(|| c.attempt(adverb))
        .or_else(|| c.attempt(once_per))
        .or_else(|| c.attempt(|c| plural_days(c, context)))
        .or_else(|| c.attempt(last_day_of_every_month))
        .or_else(|| c.attempt(nth_weekday_of_every_month))
        .or_else(|| c.attempt(day_of_every_month))
        .or_else(|| c.attempt(several_days))
        .or_else(|| c.attempt(unit_other))?;
    Some(c.attempt(|c| except_after(c, item)).unwrap_or(item))
}

fn each(kind: RepeatRef) -> Option<Item> {
    Some(Item::Repeat(Repeat::each(kind), None))
}

/// "every|каждый|har …"; "every! …" counts from when it was done (Todoist's `every!`).
fn every(c: &mut Cursor<'_>) -> Option<Item> {
    if !c.eat(Key::Every) {
        return None;
    }
    if c.eat_adjacent_punct('!') {
        let span = amount(c)?;
        return from_done(span);
    }
    if let Some(item) = c.attempt(nth_weekday) {
        return Some(item);
    }
    if let Some(item) = c
        .attempt(nth_unit)
        .or_else(|| c.attempt(periodic_with_decimal))
        .or_else(|| c.attempt(periodic_with_count))
    {
        return Some(c.attempt(|c| done_after(c, item)).unwrap_or(item));
    }
    if c.eat(Key::DayNoun) {
        return each(RepeatRef::Daily);
    }
    // Uzbek "kecha" is yesterday, and night after "har" ("har kecha", every night).
    let night = (c.eat_word("kecha") || c.eat_word("кеча")).then_some(Period::Night);
    if let Some(period) = night.or_else(|| c.eat_pick(period_key)) {
        return Some(Item::Repeat(Repeat::each(RepeatRef::Daily), Some(period)));
    }
    if c.eat(Key::Working) {
        c.eat(Key::DayNoun);
        return each(RepeatRef::Weekdays);
    }
    if c.eat(Key::WorkingDays) {
        return each(RepeatRef::Weekdays);
    }
    if weekend(c) {
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
    // "har dush": after "every" one Uzbek short form is its day too, but not the start of a
    // hyphenated word ("har ju-jitsu mashg'ulotidan keyin").
    let single_listed = |c: &mut Cursor<'_>| {
        weekday_run(c, listed_weekday).filter(|_| !c.has_punct_at(c.pos(), '-'))
    };
    if let Some(days) = weekday_list(c).or_else(|| c.attempt(single_listed)) {
        let _ = c.eat(Key::DayNoun) || c.eat(Key::DaysPlural);
        return each(RepeatRef::Weekly(days));
    }
    if let Some((day, month)) = c.attempt(date_without_year) {
        return each(RepeatRef::Yearly { day, month });
    }
    let day = month_day(c, true)?;
    c.attempt(of_the_month);
    each(RepeatRef::MonthlyOnDay(day))
}

/// Which of the weekdays a phrase means: "other" (every other), or an ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nth {
    /// "other", "ora": every second one.
    Other,
    /// "first", "second", "third", "fourth", "last" (and "1st"…"4th").
    Week(WeekOfMonth),
}

/// After "every": `other|second|third|fourth WEEKDAY` is every 2, 3 or 4 weeks ("every other
/// friday", "каждую вторую пятницу", "har ikkinchi juma"); `first|last WEEKDAY`, and any
/// ordinal followed by "of the month" ("каждый второй вторник месяца"), is that weekday of
/// every month.
fn nth_weekday(c: &mut Cursor<'_>) -> Option<Item> {
    let nth = nth(c)?;
    let day = c.eat_pick(weekday_key)?;
    c.eat(Key::DayNoun);
    let of_month = c.attempt(of_the_month).is_some();
    let weeks = match nth {
        Nth::Other => 2,
        Nth::Week(WeekOfMonth::Second) if !of_month => 2,
        Nth::Week(WeekOfMonth::Third) if !of_month => 3,
        Nth::Week(WeekOfMonth::Fourth) if !of_month => 4,
        Nth::Week(week) => return each(RepeatRef::MonthlyOnWeekday { week, day }),
    };
    Some(Item::Repeat(
        Repeat::every(RepeatRef::Weekly(WeekdaySet::single(day)), weeks),
        None,
    ))
}

/// After "every": an ordinal from the second on and a unit of days or longer, "every 2nd day",
/// "every second week on monday", "каждый второй день", "каждую третью неделю", "har ikkinchi
/// kuni": every 2 days, every 3 weeks on Monday. Without it "2nd day" would be read as a day of
/// the month and "second" as a unit of time. A day or week "of the month" after it ("every 2nd
/// day of the month") is left to the day of the month.
fn nth_unit(c: &mut Cursor<'_>) -> Option<Item> {
    let every = c
        .eat_pick(|k| match k {
            Key::Ordinal(n) => Some(u32::from(n)),
            _ => None,
        })
        .or_else(|| {
            c.attempt(|c| {
                let (n, digits) = c.eat_number()?;
                c.eat_adjacent_punct('-');
                (digits <= 2 && c.eat(Key::OrdinalSuffix))
                    .then(|| u32::try_from(n).ok())
                    .flatten()
            })
        })
        .filter(|n| (2..=MAX_INTERVAL).contains(n))?;
    let unit = c.eat_pick(|k| match k {
        Key::DayNoun => Some(Unit::Day),
        Key::WeekNoun => Some(Unit::Week),
        Key::MonthNoun => Some(Unit::Month),
        Key::YearNoun => Some(Unit::Year),
        _ => unit_key(k).filter(|u| matches!(u, Unit::Day | Unit::Week | Unit::Month | Unit::Year)),
    })?;
    if c.attempt(of_the_month).is_some() {
        return None;
    }
    periodic(c, unit, every)
}

/// `other`, or which of the month's weekdays ([`week_of_month`]).
fn nth(c: &mut Cursor<'_>) -> Option<Nth> {
    if c.eat(Key::Other) {
        return Some(Nth::Other);
    }
    week_of_month(c).map(Nth::Week)
}

/// `of the month`, `of every month`, `of each month`, `месяца`, `каждого месяца`.
fn of_the_month(c: &mut Cursor<'_>) -> Option<()> {
    c.eat(Key::Of);
    let _ = c.eat(Key::The) || c.eat(Key::Every) || c.eat(Key::This);
    c.eat(Key::MonthNoun).then_some(())
}

/// `[on|в] [the] ORD WEEKDAY of every month`, `в первый понедельник каждого месяца`.
fn nth_weekday_of_every_month(c: &mut Cursor<'_>) -> Option<Item> {
    let _ = c.eat(Key::On) || c.eat(Key::At);
    c.eat(Key::The);
    let Nth::Week(week) = nth(c)? else {
        return None;
    };
    let day = c.eat_pick(weekday_key)?;
    c.eat(Key::Of);
    c.eat_all(&[Key::Every, Key::MonthNoun])
        .then_some(())
        .and_then(|()| each(RepeatRef::MonthlyOnWeekday { week, day }))
}

/// "2 days", "other week", "3 hours", "30 minutes", "hour", "year on 14 Feb" after "every"; "2
/// kunda", "3 soatda", "30 daqiqada" after "har".
fn periodic_with_count(c: &mut Cursor<'_>) -> Option<Item> {
    let every = if c.eat(Key::Other) {
        2
    } else {
        c.attempt(|c| count(c, MAX_INTERVAL)).unwrap_or(1)
    };
    let unit = c.eat_pick(unit_key)?;
    periodic(c, unit, every)
}

/// "every 1.5 hours", "каждые 1,5 часа", "har 1.5 soatda": hours with one decimal, every so many
/// minutes (90), not a yearly repeat on 1 May.
fn periodic_with_decimal(c: &mut Cursor<'_>) -> Option<Item> {
    let (whole, _) = c.eat_number().filter(|(_, digits)| *digits <= 2)?;
    (c.eat_adjacent_punct('.') || c.eat_adjacent_punct(',')).then_some(())?;
    let (tenth, _) = c.eat_adjacent_number().filter(|(_, digits)| *digits == 1)?;
    (c.eat_pick(unit_key)? == Unit::Hour).then_some(())?;
    let minutes = u32::try_from((whole * 10 + tenth) * 6).ok()?;
    (minutes > 0 && minutes <= MAX_INTERVAL)
        .then(|| Item::Repeat(Repeat::every(RepeatRef::Minutely, minutes), None))
}

/// A repeat every `every` `unit`s, with the days that may follow its unit.
fn periodic(c: &mut Cursor<'_>, unit: Unit, every: u32) -> Option<Item> {
    if every == 0 {
        return None;
    }
    let kind = match unit {
        Unit::Second => RepeatRef::Secondly,
        Unit::Minute => RepeatRef::Minutely,
        Unit::Hour => RepeatRef::Hourly,
        Unit::Day => RepeatRef::Daily,
        Unit::Week => week_rest(c),
        Unit::Month => month_rest(c).unwrap_or(RepeatRef::MonthlyToday),
        Unit::Year => year_rest(c).unwrap_or(RepeatRef::YearlyToday),
    };
    Some(Item::Repeat(Repeat::every(kind, every), None))
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
/// день", "oxirgi kuni", "oxirida", "on the first monday", "в последнюю пятницу", "birinchi
/// dushanbasi".
fn month_rest(c: &mut Cursor<'_>) -> Option<RepeatRef> {
    c.attempt(|c| {
        // After "at", "в" or "soat" a bare number is the hour ("every month at 10:00",
        // "каждый месяц в 10"): a day needs its ending or noun there ("в 10-й день").
        let at = !c.eat(Key::On) && c.eat(Key::At);
        c.eat(Key::The);
        if c.eat(Key::End) || c.eat_all(&[Key::Last, Key::DayNoun]) {
            return Some(RepeatRef::MonthlyLastDay);
        }
        if let Some(nth) = c.attempt(|c| {
            let Nth::Week(week) = nth(c)? else {
                return None;
            };
            let day = c.eat_pick(weekday_key)?;
            Some(RepeatRef::MonthlyOnWeekday { week, day })
        }) {
            return Some(nth);
        }
        let day = month_day(c, at)?;
        // "every month 10:00": a clock's face, not a day.
        let face = c.has_punct_at(c.pos(), ':') || c.has_punct_at(c.pos(), '.');
        (!face || !c.is_number_at(c.pos() + 1)).then_some(RepeatRef::MonthlyOnDay(day))
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
    Some(Item::Repeat(Repeat::every(kind, every), None))
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

/// "3 days after done", "через 3 дня после выполнения", "bajarilgandan 3 kun keyin": a repeat
/// counted from when it was done.
fn after_done(c: &mut Cursor<'_>) -> Option<Item> {
    if c.eat(Key::AfterDone) {
        let span = amount(c)?;
        c.eat(Key::Later);
        return from_done(span);
    }
    c.eat(Key::In);
    let span = amount(c)?;
    (c.eat(Key::AfterPrep) && c.eat(Key::Done))
        .then_some(())
        .and_then(|()| from_done(span))
}

/// The "after done" after a repeat of a length of time: "every 3 days after done", "every 2
/// weeks after done" (14 days), "каждые 3 дня после выполнения". Not after a repeat on fixed
/// days ("every monday").
fn done_after(c: &mut Cursor<'_>, item: Item) -> Option<Item> {
    let Item::Repeat(repeat, period) = item else {
        return None;
    };
    let (kind, every) = match repeat.kind {
        RepeatRef::WeeklyToday => (RepeatRef::Daily, repeat.every.checked_mul(7)?),
        RepeatRef::Minutely
        | RepeatRef::Hourly
        | RepeatRef::Daily
        | RepeatRef::MonthlyToday
        | RepeatRef::YearlyToday => (repeat.kind, repeat.every),
        _ => return None,
    };
    (c.eat(Key::AfterPrep) && c.eat(Key::Done)).then_some(())?;
    Some(Item::Repeat(
        Repeat {
            kind,
            every,
            from_done: true,
        },
        period,
    ))
}

/// A repeat every `span`, counted from when it was done: minutes and hours of elapsed time,
/// days and weeks as days, months, years.
fn from_done(span: Span) -> Option<Item> {
    let whole = |n: u64| {
        u32::try_from(n)
            .ok()
            .filter(|n| (1..=MAX_INTERVAL).contains(n))
    };
    let (kind, every) = match span {
        Span {
            seconds,
            days: 0,
            months: 0,
        } if seconds.is_multiple_of(3600) => (RepeatRef::Hourly, whole(seconds / 3600)?),
        Span {
            seconds,
            days: 0,
            months: 0,
        } if seconds.is_multiple_of(60) => (RepeatRef::Minutely, whole(seconds / 60)?),
        Span {
            seconds: 0,
            days,
            months: 0,
        } => (RepeatRef::Daily, whole(days)?),
        Span {
            seconds: 0,
            days: 0,
            months,
        } if months.is_multiple_of(12) => (RepeatRef::YearlyToday, whole(months / 12)?),
        Span {
            seconds: 0,
            days: 0,
            months,
        } => (RepeatRef::MonthlyToday, whole(months)?),
        _ => return None,
    };
    Some(Item::Repeat(
        Repeat {
            kind,
            every,
            from_done: true,
        },
        None,
    ))
}

/// `[on|по|в] weekdays|будням|будни`, `по рабочим дням`, `ish kunlari`, "on weekends", "по
/// выходным", "dam olish kunlari", "on mondays", "по понедельникам и средам", "seshanba va
/// payshanba kunlari", "по сб". ("в выходные", "на выходных" are one weekend: a day.)
fn plural_days(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    let po = c.eat(Key::Po);
    // "по сб в 11", "по пн и ср в 8": short weekdays after "по" before a time are every week on
    // them, unless a repeat is read before ("каждый день в 9 по пт" ends on Friday); "по пт не
    // работаем" is text.
    if po
        && !context.has_day
        && let Some(days) = c.attempt(|c| list(c, short_weekday).filter(|_| time_follows(c)))
    {
        return each(RepeatRef::Weekly(days));
    }
    let _ = po || c.eat(Key::On) || c.eat(Key::At);
    let kind = if c.eat(Key::WorkingDays) || c.eat_all(&[Key::Working, Key::DayNoun]) {
        RepeatRef::Weekdays
    } else if c.eat(Key::WeekendsPlural)
        || (po && c.eat(Key::Weekend))
        || c.eat_all(&[Key::Rest, Key::RestTaking, Key::DaysPlural])
    {
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

/// Several weekdays without "every" ("mon wed fri", "пн, ср и пт", "du cho ju", "monday and
/// thursday"), or a range ("mon-fri", "пн-пт"): every week on those days.
fn several_days(c: &mut Cursor<'_>) -> Option<Item> {
    let _ = c.eat(Key::On) || c.eat(Key::At) || c.eat(Key::Po);
    let days = c
        .attempt(|c| {
            let first = c.eat_pick(listed_weekday)?;
            c.eat_adjacent_punct('-').then_some(())?;
            let last = c.eat_pick(listed_weekday)?;
            Some(range(first, last))
        })
        .or_else(|| weekday_run(c, listed_weekday))?;
    if days.len() < 2 {
        return None;
    }
    let _ = c.eat(Key::DayNoun) || c.eat(Key::DaysPlural);
    each(RepeatRef::Weekly(days))
}

/// A span of weekdays said as a repeat: "every day from monday to friday", "every monday
/// through thursday", "every week monday to friday", "mondays through fridays", "каждый день с
/// понедельника по пятницу [включительно]", "каждую неделю со вторника по субботу",
/// "dushanbadan jumagacha har kuni": every week on the days from the first to the last; also
/// after a repeat read before it (`context.has_day`: "every day at 7 from monday to friday");
/// also without a word of repeating when a time of day follows it ("standup monday to friday
/// at 9:45", "с понедельника по пятницу в 8:30 зарядка") and no word before it names a stretch
/// of days or a move ("book a hotel from friday to sunday at 3pm", "перенести йогу с
/// понедельника по среду в 17"). Otherwise it is a stretch of days ("отпуск с понедельника по
/// пятницу, завтра в 10 …"), and "until friday", "до пятницы" are an end.
fn weekday_span(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    let plural = |k| match k {
        Key::WeekdayPlural(day) => Some(day),
        _ => None,
    };
    let day = |k| listed_weekday(k).or(plural(k));
    let repeating = c.attempt(every_day).is_some() || c.eat(Key::Every);
    let start = c.pos();
    let from = c.eat(Key::From) || c.eat_word("с") || c.eat_word("со");
    let first_at = c.pos();
    let first = c.eat_pick(day)?;
    let last = if c.has_at(first_at, Key::FromSuffix) {
        let last = c.eat_pick(listed_weekday)?;
        c.has_at(c.pos() - 1, Key::UntilSuffix).then_some(last)?
    } else {
        let joined = c.eat_word("to")
            || c.eat_word("through")
            || c.eat_word("thru")
            || c.eat_word("till")
            || c.eat_word("til")
            || c.eat_punct('-')
            || (from && c.eat(Key::Po));
        joined.then(|| c.eat_pick(day)).flatten()?
    };
    let plurals = c.is_at(first_at, plural) && c.is_at(c.pos() - 1, plural);
    if first == last {
        return None;
    }
    let _ = c.eat(Key::DayNoun)
        || c.eat(Key::DaysPlural)
        || c.eat_word("включительно")
        || c.eat_word("inclusive");
    let repeated_after = !repeating && c.attempt(every_day).is_some();
    let scheduled = {
        let mut clause = (0..start).rev().take_while(|&i| {
            ![',', '.', ';', ':', '!', '?']
                .iter()
                .any(|&p| c.has_punct_at(i, p))
        });
        time_follows(c) && !clause.any(|i| c.word_at(i).is_some_and(names_a_stretch))
    };
    (repeating || repeated_after || plurals || context.has_day || scheduled)
        .then(|| each(RepeatRef::Weekly(range(first, last))))?
}

/// "every day", "each day", "daily", "every week", "weekly", "каждый день", "каждую неделю",
/// "ежедневно", "har kuni", "har hafta".
fn every_day(c: &mut Cursor<'_>) -> Option<()> {
    (c.eat(Key::Daily)
        || c.eat(Key::Weekly)
        || c.eat_all(&[Key::Every, Key::DayNoun])
        || c.eat_all(&[Key::Every, Key::WeekNoun]))
    .then_some(())
}

/// A word in the clause before a span of weekdays that makes it a stretch of days or a move,
/// not a schedule: "book a hotel from friday to sunday", "перенести йогу с понедельника по
/// среду", "ta'til". Words of a schedule as often ("leave work", "turn off", "shift", "book
/// club", "бронь") are not among them.
fn names_a_stretch(word: &str) -> bool {
    const STRETCH: &[&str] = &[
        "move",
        "moved",
        "moving",
        "reschedule",
        "rescheduled",
        "postpone",
        "trip",
        "vacation",
        "holiday",
        "hotel",
        "flight",
        "flights",
        "перенести",
        "перенеси",
        "перенос",
        "отпуск",
        "отгул",
        "командировка",
        "командировку",
        "забронировать",
        "ta'til",
        "safar",
        "таътил",
        "сафар",
    ];
    STRETCH.contains(&word)
}

/// The weekdays from `first` to `last`, around the end of the week if need be.
fn range(first: Weekday, last: Weekday) -> WeekdaySet {
    let mut days = WeekdaySet::single(first);
    let mut day = first;
    while day != last {
        day = day.succ();
        days.insert(day);
    }
    days
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

/// The days a daily or weekly repeat leaves out, after it: "except weekends", "except sunday",
/// ", кроме выходных", "кроме субботы и воскресенья", "dam olish kunlaridan tashqari",
/// "yakshanbadan tashqari".
fn except_after(c: &mut Cursor<'_>, item: Item) -> Option<Item> {
    c.eat_punct(',');
    let left_out = if c.eat(Key::Except) {
        days_left_out(c)?
    } else {
        let days = days_left_out(c)?;
        c.eat(Key::Except).then_some(days)?
    };
    without(item, left_out)
}

/// The Uzbek order, the days left out first: "dam olish kunlaridan tashqari har kuni".
fn except_first(c: &mut Cursor<'_>) -> Option<Item> {
    let left_out = days_left_out(c)?;
    c.eat(Key::Except).then_some(())?;
    c.eat_punct(',');
    let item = c
        .attempt(every)
        .or_else(|| c.attempt(adverb))
        .or_else(|| c.attempt(|c| plural_days(c, Context::default())))?;
    without(item, left_out)
}

/// The weekend ("weekends", "выходных", "dam olish kunlaridan") or weekdays ("sunday",
/// "субботы и воскресенья", "yakshanbadan").
fn days_left_out(c: &mut Cursor<'_>) -> Option<WeekdaySet> {
    c.eat(Key::The);
    if weekend(c) {
        return Some(WEEKEND);
    }
    let days = list(c, weekday_key)?;
    c.eat(Key::DayNoun);
    Some(days)
}

/// `weekend(s)`, `выходные`, `выходных`, `выходным`, `dam olish kunlari(dan)`.
fn weekend(c: &mut Cursor<'_>) -> bool {
    c.eat(Key::Weekend)
        || c.eat(Key::WeekendsPlural)
        || c.eat_all(&[Key::Rest, Key::RestTaking, Key::DaysPlural])
        || c.eat_all(&[Key::Rest, Key::RestTaking, Key::DayNoun])
}

/// `item`, a repeat on days, without the days `left_out`: every day but the weekend is
/// weekdays. `None` for a repeat with an interval or not on days, or when no day is left.
fn without(item: Item, left_out: WeekdaySet) -> Option<Item> {
    let Item::Repeat(repeat, period) = item else {
        return None;
    };
    if repeat.every != 1 || repeat.from_done {
        return None;
    }
    let days = match repeat.kind {
        RepeatRef::Daily => WeekdaySet::ALL,
        RepeatRef::Weekdays => WORKING_DAYS,
        RepeatRef::Weekly(days) => days,
        _ => return None,
    };
    let left = days.difference(left_out);
    (!left.is_empty()).then_some(Item::Repeat(Repeat::each(RepeatRef::Weekly(left)), period))
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
        let days = weekday_run(c, |k| listed_weekday(k).or(plural(k)))?;
        let named = c.is_at(first, |k| weekday_key(k).or(plural(k)));
        (named || days.len() > 1).then_some(days)
    })
}

/// Weekdays one after the other, with or without commas, slashes, "and" or a repeated "every"
/// between them. Uzbek short forms (`du`, `cho`, `ya`) go only with each other: after a day
/// named otherwise they are other words ("каждую пятницу я хожу": "я" is no Sunday), and the
/// other way round.
fn weekday_run(
    c: &mut Cursor<'_>,
    pick: impl Fn(Key) -> Option<Weekday> + Copy,
) -> Option<WeekdaySet> {
    let listed_only = |c: &Cursor<'_>| {
        c.is_at(c.pos(), listed_weekday) && !c.is_at(c.pos(), |k| pick_named(k, pick))
    };
    let short_forms = listed_only(c);
    let mut days = WeekdaySet::single(c.eat_pick(pick)?);
    while let Some(day) = c.attempt(|c| {
        let _ = c.eat_punct(',') || c.eat_punct('/') || c.eat_punct('&') || c.eat(Key::And);
        c.eat(Key::Every);
        (listed_only(c) == short_forms).then_some(())?;
        c.eat_pick(pick)
    }) {
        days.insert(day);
    }
    Some(days)
}

/// A weekday `pick` accepts that is not an Uzbek short form only.
fn pick_named(key: Key, pick: impl Fn(Key) -> Option<Weekday>) -> Option<Weekday> {
    match key {
        Key::WeekdayListed(_) => None,
        _ => pick(key),
    }
}

/// One or more weekdays joined by commas, "and" or a repeated "every".
fn list(c: &mut Cursor<'_>, pick: impl Fn(Key) -> Option<Weekday> + Copy) -> Option<WeekdaySet> {
    let mut days = WeekdaySet::single(c.eat_pick(pick)?);
    while let Some(day) = c.attempt(|c| {
        let _ = c.eat_punct(',') || c.eat_punct('&') || c.eat(Key::And);
        // "по вт и по чт", "every monday and every friday".
        let _ = c.eat(Key::Every) || c.eat(Key::Po);
        c.eat_pick(pick)
    }) {
        days.insert(day);
    }
    Some(days)
}

/// Whether a time of day comes next ("… в 11", "… at 9:45"); nothing is consumed.
fn time_follows(c: &Cursor<'_>) -> bool {
    let mut ahead = c.clone();
    let at_a_time = Context {
        has_day: true,
        ..Context::default()
    };
    clock::time(&mut ahead, at_a_time).is_some()
}

/// A day of the month in words before its noun: "второе число", "пятого числа".
fn ordinal_date(c: &mut Cursor<'_>) -> Option<u32> {
    let day = day_ordinal(c)?;
    c.eat(Key::DateNoun).then_some(day)
}

/// A day of the month: "1", "1st", "1-го числа", "1 число", "1-kuni",
/// "1-sanasi", "второе число". With `strong`, an ordinal suffix or a date noun is required,
/// so that "every 2 hours" or "every 2 days" is not read as "every 2nd".
fn month_day(c: &mut Cursor<'_>, strong: bool) -> Option<u32> {
    let Some((day, _)) = c.eat_number().filter(|(_, digits)| *digits <= 2) else {
        return ordinal_date(c);
    };
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
