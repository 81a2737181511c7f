//! Spans of time whose reminder is at their start: of hours ("from 10 to 12", "с 9 утра до 6
//! вечера", "yoga 6-7pm", "soat 9dan 18gacha", "shift tomorrow 7am to 3pm", "tomorrow 10-12")
//! and of days ("vacation june 1-10", "отпуск с 1 по 10 июня", "1-iyuldan 10-iyulgacha").

use crate::domain::script::is_cyrillic;

use super::super::keys::{Key, Period};
use super::calendar::date_without_year;
use super::clock::{closes_a_time, face_minutes, is_infinitive, meridiem, time};
use super::{Clock, Context, Cursor, DayRef, Item, period_key};

/// `from|с|со TIME to|till|до|- TIME`: a span of time ("tomorrow from 10 to 12", "завтра с 10
/// до 12", "с 10:00-12:00"), whose reminder is at its start. A span with a marked hour after it
/// is the task's (opening or working hours: "банк с 9 до 17, сходить в 10", "do'kon 10 dan 22
/// gacha ishlaydi, soat 20 da borish"), unless a day opens the span ("завтра с 10 до 12 экзамен
/// в 3").
pub(super) fn range(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    let cued = Context {
        bare_hour: true,
        ..context
    };
    if let Some(start) = c.attempt(|c| uzbek_range(c, cued)) {
        return Some(start);
    }
    if let Some(start) = c.attempt(dashed_hours) {
        return Some(start);
    }
    if let Some(start) = c.attempt(|c| open_span(c, context)) {
        return Some(start);
    }
    // "between 3 and 4", "между 3 и 4".
    if c.eat_word("between") || c.eat_word("между") {
        let start = time(c, cued)?;
        let joined = c.eat(Key::And) && time(c, cued).is_some();
        // "между 3 и 5 мая", "between 5 and 10 minutes": a span of days or of a duration.
        let of_unit = c.is_at(c.pos(), |k| {
            matches!(k, Key::Month(_) | Key::Unit(_) | Key::UnitFrom(_)).then_some(())
        });
        return (joined && !of_unit).then_some(start);
    }
    // "starting 8pm", "starting from 8pm", "начиная с 8 вечера": where a repeat or a span begins.
    let starting = c.eat_word("starting") || c.eat_word("начиная");
    if !(c.eat_word("from") || c.eat_word("с") || c.eat_word("со") || starting) {
        return None;
    }
    let opened = c.pos();
    let start = time(c, cued)?;
    let face = (opened..c.pos()).any(|i| c.has_punct_at(i, ':'))
        || matches!(
            start,
            Item::Time(Clock {
                meridiem: Some(_),
                ..
            })
        )
        || c.peek_pick(period_key);
    let start = with_half_of_day(c, start);
    // "каждые 4 часа с 8 утра до 20 мая": the end is a date, which ends the repeat, not the span.
    let to_a_date = {
        let mut ahead = c.clone();
        span_joint(&mut ahead)
            && ahead.eat_number().is_some()
            && ahead.is_at(ahead.pos(), |k| matches!(k, Key::Month(_)).then_some(()))
    };
    if to_a_date || !span_joint(c) {
        // "2 пары с 8:30", "every 8 hrs from 8pm": from a clock's H:MM or an hour with am/pm,
        // or an hour from 6 after a repeat of hours ("каждые 3 часа с 8"; a bare 1 to 5 there is
        // as often a count, "с 2 сторон"), with no end said ("с 01.09" is a date, "с 2 детьми"
        // and "from 3 people" count).
        let morning_or_noon = matches!(start, Item::Time(clock) if clock.hour >= 6);
        let repeat_starts = context.after_elapsed_repeat && morning_or_noon && starts_a_repeat(c);
        return (face || repeat_starts).then_some(start);
    }
    let end = time(c, cued)?;
    // The end's part of the day belongs to the range too ("до 6 вечера").
    with_half_of_day(c, end);
    (context.has_day || !marked_hour_after(c)).then_some(start)
}

/// Whether a marked hour comes later in the message, said as one: "в 20" or "soat 20 da" before
/// the end, punctuation, a word of the time or a verb ("сегодня в 20 сходить"), or as a clock's
/// face; not a room or a school ("в 3 кабинете", "в 3-й школе", "at 3 school").
fn marked_hour_after(c: &Cursor<'_>) -> bool {
    (c.pos()..c.len()).any(|p| {
        let hour = p + 1;
        let after = p + 2;
        let said_as_hour = after >= c.len()
            || (c.word_at(after).is_none() && !c.has_punct_at(after, '-'))
            || c.is_at(after, Some)
            || c.word_at(after).is_some_and(is_infinitive);
        c.has_at(p, Key::At) && c.is_number_at(hour) && said_as_hour
    })
}

/// The word or dash between a span's start and its end: "to", "till", "until", "до", "-".
fn span_joint(c: &mut Cursor<'_>) -> bool {
    c.eat_word("to")
        || c.eat_word("till")
        || c.eat_word("until")
        || c.eat_word("до")
        || c.eat_punct('-')
        || c.eat_punct('–')
        || c.eat_punct('—')
}

/// `TIME to|- TIME` without "from": "shift tomorrow 7am to 3pm", "night shift friday 10pm
/// to 6am", "at 5 - 6pm", "meeting 3 - 4 pm", and after a day, bare hours ("monday 8 to 5",
/// "tomorrow 10-12"). The start must be plainly a time (a clock's face, am/pm, a marker or a day
/// before it) or the end have am/pm an hour or two later, and a bare end must close the phrase
/// ("at 7pm - 10 guests" counts); am/pm said at the end only is the start's too ("at 5 - 6pm" is
/// 17:00).
fn open_span(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    let opened = c.pos();
    let marked = c.has_at(opened, Key::At);
    let cued = Context {
        bare_hour: true,
        ..context
    };
    let Item::Time(start) = time(c, cued)? else {
        return None;
    };
    let face = (opened..c.pos()).any(|i| c.has_punct_at(i, ':'));
    let plain = face || marked || start.meridiem.is_some() || context.bare_hour;
    let Item::Time(start) = with_half_of_day(c, Item::Time(start)) else {
        return None;
    };
    // "until" and "до" after an hour say when a repeat ends ("каждый день в 9 до 20.04",
    // "every monday at 10 until june 1"): only "to" and a dash join a span here.
    let joined = c.eat_word("to") || c.eat_punct('-') || c.eat_punct('–') || c.eat_punct('—');
    if !joined {
        return None;
    }
    let ended = c.pos();
    let end = time(c, cued)?;
    let Item::Time(end) = with_half_of_day(c, end) else {
        return None;
    };
    let end_face = (ended..c.pos()).any(|i| c.has_punct_at(i, ':'));
    let after = c.pos();
    // "at 10 to 4 year 6 classes": an end that counts what follows is no hour.
    let counts = c.is_at(after, |k| {
        matches!(k, Key::Unit(_) | Key::UnitFrom(_) | Key::Measure).then_some(())
    });
    let closes = closes_a_time(c) || (c.is_at(after, Some) && !counts);
    // "каждый день в 9 до 20 апреля", "8:10 until 18 december": the end is a day, not an hour.
    let dated = c.is_at(after, |k| {
        matches!(k, Key::Month(_) | Key::DateNoun | Key::OrdinalSuffix).then_some(())
    });
    if dated {
        return None;
    }
    // "meeting 3 - 4 pm thursday": am/pm at the end makes a span of an hour or two plain ("table
    // 4 - 8pm" is a table and an hour).
    let short = end.hour > start.hour && end.hour - start.hour <= 2;
    let cued_by_end = end.meridiem.is_some() && short;
    if !(plain || cued_by_end) || !(end_face || end.meridiem.is_some() || closes) {
        return None;
    }
    let meridiem = match (start.meridiem, end.meridiem) {
        (None, Some(end_pm)) if !face && start.hour <= 12 => {
            Some(starts_after_noon(start.hour, end.hour, end_pm))
        }
        (said, _) => said,
    };
    Some(Item::Time(Clock { meridiem, ..start }))
}

/// Whether a span of hours whose am/pm is said at its end only (`end_pm`) starts after noon:
/// "6-7pm" at 18:00, "11-1pm" and "11-12pm" at 11:00, "12-1pm" at noon; "11:30-7am" and "10-2am"
/// the evening before (23:30, 22:00).
fn starts_after_noon(start: u32, end: u32, end_pm: bool) -> bool {
    if end_pm {
        start == 12 || (start < end && end != 12)
    } else {
        start > end && start != 12
    }
}

/// Whether the bare hour just read after "с" or "from" is where a repeat of hours starts: no
/// Russian noun that "с" (with) joins to it follows ("каждые 3 часа с 8 капли", "every 2 hours
/// from 12 open the windows"; not "каждые 3 часа с 8 детьми проверка", "с 6 по 8 таблеток").
fn starts_a_repeat(c: &Cursor<'_>) -> bool {
    const WITH_ENDINGS: &[&str] = &["ами", "ями", "ми", "ой", "ей", "ом", "ем", "ью", "ым", "им"];
    let Some(word) = c.word_at(c.pos()) else {
        return true;
    };
    let joined_with = word.chars().any(is_cyrillic)
        && !c.is_at(c.pos(), Some)
        && WITH_ENDINGS.iter().any(|end| word.ends_with(end));
    word != "по" && !joined_with
}

/// `H[:MM]-H[:MM]pm`: "yoga 6-7pm", "6:30-7:30pm", a span of hours with am/pm said once, at
/// its end, for both.
fn dashed_hours(c: &mut Cursor<'_>) -> Option<Item> {
    let (hour, _) = c
        .eat_number()
        .filter(|(hour, digits)| *digits <= 2 && (1..=12).contains(hour))?;
    let minute = dashed_minutes(c)?;
    if !c.eat_adjacent_punct('-') {
        return None;
    }
    let (end, _) = c
        .eat_adjacent_number()
        .filter(|(end, digits)| *digits <= 2 && (1..=12).contains(end))?;
    dashed_minutes(c)?;
    let meridiem = meridiem(c)?;
    let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let start_pm = starts_after_noon(small(hour), small(end), meridiem);
    let start = Clock {
        meridiem: Some(start_pm),
        ..Clock::at(small(hour), minute)
    };
    Some(Item::Time(start))
}

/// The `:MM` of a dashed span's hour, if typed (0 when not); `None` when minutes are typed but
/// are no minutes.
fn dashed_minutes(c: &mut Cursor<'_>) -> Option<u32> {
    if !c.eat_adjacent_punct(':') {
        return Some(0);
    }
    let (minute, _) = c
        .eat_adjacent_number()
        .filter(|(minute, digits)| *digits == 2 && *minute < 60)?;
    u32::try_from(minute).ok()
}

/// A time of a range with the part of the day said after its hour ("с 9 утра до 6 вечера"):
/// the morning and the night make it am, the afternoon and the evening pm.
fn with_half_of_day(c: &mut Cursor<'_>, item: Item) -> Item {
    let Item::Time(clock) = item else {
        return item;
    };
    if clock.meridiem.is_some() || clock.exact || clock.hour > 12 {
        return item;
    }
    let Some(period) = c.eat_pick(period_key) else {
        return item;
    };
    let pm = matches!(
        period,
        Period::Afternoon | Period::Lunch | Period::Evening | Period::Tonight
    );
    Item::Time(Clock {
        meridiem: Some(pm),
        ..clock
    })
}

/// Uzbek `[soat] N dan M gacha` ("soat 9dan 18gacha navbatchilik"): a span from N to M, at N.
fn uzbek_range(c: &mut Cursor<'_>, cued: Context) -> Option<Item> {
    c.eat(Key::At);
    let (hour, digits) = c.eat_number().filter(|(_, digits)| *digits <= 2)?;
    let minute = c.attempt(face_minutes);
    (c.eat_word("dan") || c.eat_word("дан")).then_some(())?;
    time(c, cued)?;
    let until = c.pos() > 0 && c.has_at(c.pos() - 1, Key::UntilSuffix);
    let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    (until && (cued.has_day || !marked_hour_after(c))).then(|| {
        Item::Time(Clock {
            exact: (digits == 2 && hour < 10) || minute.is_some(),
            ..Clock::at(small(hour), small(minute.unwrap_or(0)))
        })
    })
}

/// A stretch of days, whose reminder is on its first day: `[from|с|со] D MONTH to|-|по|до D
/// MONTH` (or `DD.MM`), `[from|с|со] D to|-|по D MONTH` ("vacation from 19 to 26 december",
/// "отпуск с 1 по 10 июня", "с 01.06 по 10.06", "festival 3rd to 5th of july"), `between D
/// MONTH and D MONTH`, `MONTH D-D` ("vacation june 1-10") and Uzbek
/// `D-MONTHdan D-MONTHgacha` ("1-iyuldan 10-iyulgacha ta'til"). Not after a day or a repeat,
/// which a date after "по" or "до" ends ("каждый день в 9 по 10 июня").
pub(super) fn stretch_of_days(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    if context.has_day {
        return None;
    }
    if c.eat_word("between") {
        let (day, month) = c.attempt(|c| {
            let first = date_without_year(c)?;
            c.eat(Key::And).then_some(())?;
            let last = date_without_year(c)?;
            (first != last).then_some(first)
        })?;
        return Some(Item::Day(DayRef::Date {
            day,
            month,
            year: None,
        }));
    }
    let _ = c.eat(Key::From) || c.eat_word("с") || c.eat_word("со");
    let (day, month) = c
        .attempt(dates_apart)
        .or_else(|| c.attempt(days_of_a_month))
        .or_else(|| c.attempt(month_first_days))?;
    Some(Item::Day(DayRef::Date {
        day,
        month,
        year: None,
    }))
}

/// The word or dash between the first and the last day of a stretch.
fn stretch_joint(c: &mut Cursor<'_>) -> bool {
    span_joint(c) || c.eat(Key::Po) || c.eat_word("through") || c.eat_word("thru")
}

/// `D MONTH to D MONTH`, `DD.MM по DD.MM`, `D-MONTHdan D-MONTHgacha`: the first day and month.
fn dates_apart(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    let first = date_without_year(c)?;
    let from_suffix = c.has_at(c.pos() - 1, Key::FromSuffix);
    if !from_suffix && !stretch_joint(c) {
        return None;
    }
    let last = date_without_year(c)?;
    let until_suffix = c.has_at(c.pos() - 1, Key::UntilSuffix) || c.eat(Key::UntilSuffix);
    (from_suffix == until_suffix && first != last).then_some(first)
}

/// `D to|-|по D MONTH`: the first day, in the last day's month ("3rd to 5th of july").
fn days_of_a_month(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    c.eat(Key::The);
    let first = day_number(c)?;
    c.eat(Key::OrdinalSuffix);
    // "1-aprelda 3 ta daftar" is a date and a count.
    if !stretch_joint(c) || !c.peek_number() {
        return None;
    }
    let (last, month) = date_without_year(c)?;
    (first < last).then_some((first, month))
}

/// `MONTH D-D`: "june 1-10", "july 6 - 17".
fn month_first_days(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    let month = c.eat_pick(|k| match k {
        Key::Month(m) => Some(m),
        _ => None,
    })?;
    let first = day_number(c)?;
    if !stretch_joint(c) {
        return None;
    }
    let last = day_number(c)?;
    (first < last).then_some((first, month))
}

/// A day of the month written as a number (1 to 31).
fn day_number(c: &mut Cursor<'_>) -> Option<u32> {
    let (day, _) = c
        .eat_number()
        .filter(|(day, digits)| *digits <= 2 && (1..=31).contains(day))?;
    u32::try_from(day).ok()
}
