//! Days: day words ("tomorrow", "послезавтра", "indinga", "tonight"), weekdays
//! ("next monday", "в пятницу", "keyingi dushanba"), dates ("31.12",
//! "2026-12-31", "5 декабря", "5-dekabr", "December 5th, 2026", "on the 15th", "15 числа",
//! "15-sanasida") and spans ("next week", "в конце месяца", "oy oxirida").

use chrono::{Datelike, NaiveDate, Weekday};

use crate::domain::recurrence::WeekOfMonth;

use super::super::keys::{Key, Period, Unit};
use super::ordinal::day_ordinal;
use super::{Context, Cursor, DayRef, Item};

/// "next week", "на следующей неделе", "keyingi hafta(da)"; "end of the month", "в конце
/// месяца", "on the last day of the month", "oy oxirida", "oyning oxirgi kuni"; "this weekend",
/// "на выходных", "shu dam olish kunlari", "hafta oxirida".
pub(super) fn span_day(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    // "every quarter end", "har chorak oxirida", "каждый квартал в конце квартала": a repeat the
    // bot does not make of it.
    let after_every = (c.pos().saturating_sub(3)..c.pos()).any(|i| c.has_at(i, Key::Every));
    let marked = c.eat(Key::On) || c.eat(Key::At);
    let the = c.eat(Key::The);
    let day = if let Some(next) = c.attempt(|c| weekend(c, marked || the)) {
        DayRef::Weekend { next }
    } else if c.eat_all(&[Key::Next, Key::WeekNoun]) {
        if c.eat(Key::End) {
            DayRef::NextWeekEnd
        } else if let Some(day) = c.eat_pick(short_weekday) {
            // "nxt wk tue": that day of next week.
            DayRef::Weekday { day, next: true }
        } else {
            DayRef::NextWeek
        }
    } else if c.eat_all(&[Key::Next, Key::MonthNoun]) {
        if c.eat(Key::End) {
            DayRef::NextMonthEnd
        } else {
            // "keyingi oy boshida": its start is its 1st.
            uzbek_start(c);
            DayRef::NextMonth
        }
    } else if let Some(day) = (!after_every && !c.message_names_a_day())
        .then(|| c.attempt(last_working_day))
        .flatten()
    {
        // "every last working day of the month" is a repeat the bot does not make of it, and a
        // day named elsewhere wins ("проверить в понедельник, зарплата в последний рабочий день").
        day
    } else if c.eat(Key::End) || c.eat_all(&[Key::Last, Key::DayNoun]) {
        c.eat(Key::Of);
        let _ = c.eat(Key::The) || c.eat(Key::This);
        if c.eat_all(&[Key::Next, Key::WeekNoun]) {
            DayRef::NextWeekEnd
        } else if !after_every && quarter(c) {
            DayRef::QuarterEnd
        } else if let Some(last) = marked.then(|| c.eat_pick(year_end)).flatten() {
            // "at the end of the year", "в конце года"; "end of the year party" is a party.
            last
        } else if let Some(last) = c.attempt(next_year_end) {
            last
        } else {
            month_named(c)?
        }
    } else if !after_every
        && c.attempt(|c| (quarter(c) && c.eat(Key::End)).then_some(()))
            .is_some()
    {
        // "chorak oxirida", "kvartal oxirida".
        DayRef::QuarterEnd
    } else if !after_every && c.attempt(month_start).is_some() {
        DayRef::MonthStart
    } else if let Some(month) = c.eat_pick(month_or_named) {
        // "mart oyining oxirida", "mart oyi oxirida".
        c.eat(Key::MonthNoun);
        (c.eat(Key::End) || c.eat_all(&[Key::Last, Key::DayNoun])).then_some(month)?
    } else {
        // "yil oxirida" (at the year's end), "keyingi yil oxirida"; "yil oxiri hisoboti" is a
        // report.
        c.attempt(|c| {
            let last = c.attempt(next_year_end).or_else(|| c.eat_pick(year_end))?;
            let locative = matches!(c.word_at(c.pos()), Some("oxirida" | "охирида"));
            (locative && c.eat(Key::End)).then_some(last)
        })?
    };
    c.eat(Key::Da);
    Some(Item::Day(day))
}

/// "next year" after "the end of": 31 December of next year ("в конце следующего года"), unless a
/// day is named elsewhere ("lease ends end of next year, call landlord friday").
fn next_year_end(c: &mut Cursor<'_>) -> Option<DayRef> {
    (!c.message_names_a_day()).then_some(())?;
    c.eat(Key::Next).then_some(())?;
    c.eat_pick(year_end)?;
    let year = c.today()?.year() + 1;
    Some(DayRef::Date {
        day: 31,
        month: 12,
        year: u64::try_from(year).ok(),
    })
}

/// "the last working day of the month", "в последний рабочий день месяца", "oyning oxirgi ish
/// kuni", "last business day of the month".
fn last_working_day(c: &mut Cursor<'_>) -> Option<DayRef> {
    let uzbek_month_first = c.eat(Key::MonthNoun);
    c.eat_all(&[Key::Last, Key::Working]).then_some(())?;
    (c.eat(Key::DayNoun) || c.eat(Key::Unit(Unit::Day))).then_some(())?;
    if !uzbek_month_first {
        c.eat(Key::Of);
        c.eat(Key::The);
        c.eat(Key::MonthNoun).then_some(())?;
    }
    Some(DayRef::MonthLastWorkingDay)
}

/// A quarter of the year: "quarter", "квартала", "chorak", "kvartal".
fn quarter(c: &mut Cursor<'_>) -> bool {
    [
        "quarter",
        "квартала",
        "квартал",
        "chorak",
        "chorakning",
        "kvartal",
        "kvartalning",
        "чорак",
        "чоракнинг",
    ]
    .iter()
    .any(|word| c.eat_word(word))
}

/// "the beginning of the month", "start of next month", "в начале месяца", "oy boshida": the
/// next month's 1st (this month's has passed, or is today).
fn month_start(c: &mut Cursor<'_>) -> Option<()> {
    if c.eat(Key::MonthNoun) {
        return uzbek_start(c).then_some(());
    }
    let english = c.eat_word("beginning") || c.eat_word("start");
    (english || c.eat_word("начале")).then_some(())?;
    // "start the month strong" is no day; "the start of this month" has passed.
    (c.eat(Key::Of) || !english).then_some(())?;
    let _ = c.eat(Key::The) || c.eat(Key::Next);
    c.eat(Key::MonthNoun).then_some(())
}

/// Uzbek "boshida", "boshi": the start of the month just said.
fn uzbek_start(c: &mut Cursor<'_>) -> bool {
    ["boshida", "boshi", "бошида", "боши"]
        .iter()
        .any(|word| c.eat_word(word))
}

/// One weekend, after a marker ("on the weekend", "на выходных", "в выходные") or with this or
/// next ("this weekend", "в эти выходные", "next weekend", "shu dam olish kunlari", "keyingi
/// dam olish kunlari"), or said as Uzbek says it of one ("dam olish kunida", "hafta oxirida");
/// whether it is next week's.
fn weekend(c: &mut Cursor<'_>, marked: bool) -> Option<bool> {
    let this = c.eat(Key::This);
    let next = !this && c.eat(Key::Next);
    let said = marked || this || next;
    if c.eat(Key::Weekend) || c.eat(Key::WeekendsPlural) {
        return said.then_some(next);
    }
    if c.eat_all(&[Key::Rest, Key::RestTaking]) {
        if c.eat(Key::DayNoun) {
            return Some(next);
        }
        return (said && c.eat(Key::DaysPlural)).then_some(next);
    }
    c.eat_all(&[Key::WeekNoun, Key::End]).then_some(next)
}

/// `[on|в] [the] ORD WEEKDAY of [the|this] month`, `[в] последнюю пятницу месяца`, `oyning
/// birinchi dushanbasi`: the next such day ("of every month" is a repeat).
pub(super) fn nth_weekday(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let _ = c.eat(Key::On) || c.eat(Key::At);
    c.eat(Key::The);
    let month_first = c.eat(Key::MonthNoun);
    let week = week_of_month(c)?;
    let day = c.eat_pick(weekday_key)?;
    if !month_first {
        c.eat(Key::Of);
        let _ = c.eat(Key::The) || c.eat(Key::This);
        c.eat(Key::MonthNoun).then_some(())?;
    }
    c.eat(Key::Da);
    Some(Item::Day(DayRef::NthWeekday { week, day }))
}

/// Which of a month's weekdays: `first`…`fourth`, `last`, `1st`…`4th`, `первый`, `последнюю`,
/// `birinchi`, `oxirgi`.
pub(super) fn week_of_month(c: &mut Cursor<'_>) -> Option<WeekOfMonth> {
    if c.eat(Key::Last) {
        return Some(WeekOfMonth::Last);
    }
    let n = c
        .eat_pick(|k| match k {
            Key::Ordinal(n) => Some(n),
            _ => None,
        })
        .or_else(|| {
            c.attempt(|c| {
                let (n, digits) = c.eat_number()?;
                c.eat_adjacent_punct('-');
                (digits == 1 && c.eat(Key::OrdinalSuffix))
                    .then(|| u8::try_from(n).ok())
                    .flatten()
            })
        })?;
    WeekOfMonth::from_ordinal(i8::try_from(n).ok()?)
}

/// `[on|на] today|tomorrow|…`, `[the] day after tomorrow`, `tonight`, `bu kecha`.
pub(super) fn day_word(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    c.eat(Key::On);
    // "2nite", "2night": chat spelling of "tonight", typed as one word ("a 2 night stay" counts).
    let two_nite = |c: &mut Cursor<'_>| {
        let two = c.eat_number() == Some((2, 1));
        (two && (c.eat_adjacent_word("nite") || c.eat_adjacent_word("night"))).then_some(())
    };
    // Uzbek "bu kecha", "shu kecha": tonight ("kecha" alone is yesterday).
    // Not before a past participle: "bu kecha kelgan xat" is the letter that came last night.
    let this_night = |c: &mut Cursor<'_>| {
        let this = c.eat(Key::This) || c.eat_word("bu") || c.eat_word("бу");
        let night = this && (c.eat_word("kecha") || c.eat_word("кеча"));
        let participle = c.word_at(c.pos()).is_some_and(is_participle);
        (night && !participle).then_some(())
    };
    if c.eat(Key::Tonight) || c.attempt(two_nite).is_some() || c.attempt(this_night).is_some() {
        return Some(Item::DayPeriod(DayRef::Today, Period::Tonight));
    }
    // Uzbek "kecha kelgan xat": the letter that came yesterday, no day of the task.
    if c.has_at(c.pos(), Key::Yesterday) && c.word_at(c.pos() + 1).is_some_and(is_participle) {
        return None;
    }
    // Uzbek "ertadan keyin": after tomorrow ("ertadan" alone is tomorrow, "from tomorrow").
    let after_tomorrow = |c: &mut Cursor<'_>| {
        let after = (c.eat_word("ertadan") || c.eat_word("эртадан"))
            && (c.eat_word("keyin") || c.eat_word("кейин"));
        after.then_some(DayRef::DayAfterTomorrow)
    };
    let day = c
        .attempt(after_tomorrow)
        .or_else(|| {
            c.eat_pick(|k| match k {
                Key::Yesterday => Some(DayRef::Yesterday),
                Key::Today => Some(DayRef::Today),
                Key::Tomorrow => Some(DayRef::Tomorrow),
                Key::DayAfterTomorrow => Some(DayRef::DayAfterTomorrow),
                _ => None,
            })
        })
        .or_else(|| {
            // "2moro", "2morrow": chat spelling, a number and a word to the lexer.
            c.attempt(|c| {
                let two = c.eat_number() == Some((2, 1));
                (two && (c.eat_word("moro") || c.eat_word("morrow"))).then_some(DayRef::Tomorrow)
            })
        })
        .or_else(|| {
            // "после завтра": the day after tomorrow typed as two words.
            c.eat_all_words(&["после", "завтра"])
                .then_some(DayRef::DayAfterTomorrow)
        })
        .or_else(|| {
            // "the day after tomorrow", and "after tomorrow" as English learnt from Russian or
            // Uzbek says it.
            c.eat(Key::The);
            c.eat(Key::DayNoun);
            c.eat_all(&[Key::After, Key::Tomorrow])
                .then_some(DayRef::DayAfterTomorrow)
        })?;
    c.eat(Key::Da);
    Some(Item::Day(day))
}

/// Whether an Uzbek word is a past participle, with or without endings ("kelgan", "olganimni",
/// "aytganimdek"): "kecha" before one says when something happened, not when to remind.
fn is_participle(word: &str) -> bool {
    word.contains("gan") || word.contains("ган")
}

/// "в ночь с пятницы на субботу": the night after the first day (its time of night, or an hour
/// of the night on the second day: "… в 2" is Saturday 02:00). Without "ночь" only before a time
/// of the night ("с пятницы на субботу в 2 ночи"): "перенести встречу с пятницы на субботу"
/// moves a meeting.
pub(super) fn night_between(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    c.eat(Key::At);
    let night_said = c.eat_word("ночь");
    c.eat_word("с").then_some(())?;
    let first = c.eat_pick(weekday_key)?;
    c.eat_word("на").then_some(())?;
    (c.eat_pick(weekday_key)? == first.succ()).then_some(())?;
    let night_follows = (c.pos()..c.pos() + 4)
        .any(|i| c.is_at(i, |k| (k == Key::Period(Period::Night)).then_some(())));
    (night_said || night_follows).then_some(())?;
    Some(Item::DayPeriod(
        DayRef::Weekday {
            day: first,
            next: false,
        },
        Period::Night,
    ))
}

/// `[on|в] [next|this] WEEKDAY [kuni]`. Short forms (`sat`, `ср`) count only with a prefix or
/// a time right after ("пн 10:00", "вт в 19", "tue at 5pm", "thu. 5pm") or, when they are no
/// other word, at the message's end ("… fri"), and Uzbek's (`du`,
/// `sha`) only before "soat" ("du soat 10 da"), since words like "sun" and "wed" are common in
/// task text ("the sun at 6" is no Sunday).
pub(super) fn weekday(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let start = c.pos();
    let marked = c.eat(Key::On) || c.eat(Key::At);
    let next = c.eat(Key::Next);
    let this = c.eat(Key::This);
    let prefixed = marked || next || this;
    let day = match c.eat_pick(full_weekday) {
        Some(day) => day,
        None => {
            let after_the = start
                .checked_sub(1)
                .is_some_and(|before| c.has_at(before, Key::The));
            // Right after a request ("remind me wed") or a time with am/pm or a clock's face
            // ("yoga 6-7pm wed", "at 7:30 sat"), any short weekday ending the message is a day.
            let after_request_or_time = start.checked_sub(1).is_some_and(|before| {
                c.has_at(before, Key::Me)
                    || c.has_at(before, Key::Remind)
                    || c.is_at(before, |k| matches!(k, Key::Meridiem(_)).then_some(()))
                    || c.ends_a_clock_face(before)
            });
            let day_at_the_end = after_request_or_time
                || c.word_at(c.pos()).is_some_and(|w| SHORT_ALONE.contains(&w));
            let short = c.eat_pick(short_weekday);
            let (day, timed) = match short {
                Some(day) => (
                    day,
                    time_follows(c) || (day_at_the_end && c.at_message_end()),
                ),
                None => (c.eat_pick(listed_only)?, soat_follows(c) || kuni_follows(c)),
            };
            if !(prefixed || (timed && !after_the)) {
                return None;
            }
            c.attempt(|c| (c.eat_adjacent_punct('.') && time_follows(c)).then_some(()));
            day
        }
    };
    c.eat(Key::DayNoun);
    c.eat(Key::Da);
    Some(Item::Day(DayRef::Weekday { day, next }))
}

/// Short weekdays that are no other word, a day alone when they end the message ("pay back tom
/// 50 euros fri", "отчёт пт"): "sun", "sat", "wed", "mon", "вт" (watts) and "ср" (a test,
/// "самостоятельная работа") are words too, and end it as a day only right after a request or
/// a time with am/pm ("remind me wed", "6-7pm wed").
const SHORT_ALONE: &[&str] = &[
    "tue", "tues", "thu", "thur", "thurs", "fri", "weds", "пн", "чт", "пт", "сб", "вс",
];

/// Whether a time comes next, right after a number or a time marker and a number ("10:00", "в
/// 19", "at 5pm"), perhaps after a dot ("thu. 5pm"); nothing is consumed.
fn time_follows(c: &Cursor<'_>) -> bool {
    let mut ahead = c.clone();
    ahead.eat_adjacent_punct('.');
    let _ = ahead.eat(Key::At) || ahead.eat(Key::By) || ahead.eat_punct('@');
    ahead.peek_number()
}

/// Whether Uzbek "soat" and a number come next ("du soat 10 da"); nothing is consumed.
fn soat_follows(c: &Cursor<'_>) -> bool {
    let mut ahead = c.clone();
    (ahead.eat_word("soat") || ahead.eat_word("соат")) && ahead.peek_number()
}

/// Whether Uzbek "kuni" (the day of) comes next ("keyingi hafta sesh kuni"); nothing is
/// consumed.
fn kuni_follows(c: &Cursor<'_>) -> bool {
    matches!(c.word_at(c.pos()), Some("kuni" | "куни"))
}

/// An Uzbek weekday's short form that is a weekday only in a list or before a time: `du`, `sha`.
fn listed_only(key: Key) -> Option<Weekday> {
    match key {
        Key::WeekdayListed(day) => Some(day),
        _ => None,
    }
}

/// A weekday meaning, full or short.
pub(super) fn weekday_key(key: Key) -> Option<Weekday> {
    full_weekday(key).or_else(|| short_weekday(key))
}

/// A weekday meaning in a list of several: full, short, or an Uzbek short form (`du`, `cho`).
pub(super) fn listed_weekday(key: Key) -> Option<Weekday> {
    weekday_key(key).or(match key {
        Key::WeekdayListed(day) => Some(day),
        _ => None,
    })
}

/// A weekday's full name: `monday`, `среду`, `juma`, `шанба`.
fn full_weekday(key: Key) -> Option<Weekday> {
    match key {
        Key::Weekday(day) => Some(day),
        _ => None,
    }
}

/// A weekday's short form: `mon`, `пн`.
pub(super) fn short_weekday(key: Key) -> Option<Weekday> {
    match key {
        Key::WeekdayShort(day) => Some(day),
        _ => None,
    }
}

/// `[on] [the] DATE` in numeric or month-name form.
pub(super) fn date(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    // "к 1 сентября", "by 5 april": the day by which, when its month is named ("к 1" alone is
    // an hour); Russian "к 01.04", "к 25.04" too, a deadline's date when its day is typed with
    // a zero or cannot be an hour ("к 9.10", "к 15.04", "к 8.05 на электричку" are hours, as
    // is "завтра к 10.11").
    let by_date = |c: &mut Cursor<'_>| {
        let dated_day = c
            .number_at(c.pos() + 1)
            .is_some_and(|(day, digits)| (digits == 2 && day < 10) || (24..=31).contains(&day));
        let russian_by = matches!(c.word_at(c.pos()), Some("к" | "ко")) && dated_day;
        (c.eat(Key::At) || c.eat(Key::By)).then_some(())?;
        c.attempt(day_month_name)
            .or_else(|| c.attempt(month_name_day))
            .or_else(|| {
                (russian_by && !context.has_day)
                    .then(|| c.attempt(|c| numeric_date(c, context)))
                    .flatten()
            })
    };
    if let Some(day) = c.attempt(by_date) {
        uzbek_day_word(c);
        return Some(Item::Day(day));
    }
    c.eat(Key::On);
    c.eat(Key::The);
    let day = c
        .attempt(|c| numeric_date(c, context))
        .or_else(|| c.attempt(day_month_name))
        .or_else(|| c.attempt(month_name_day))
        .or_else(|| c.attempt(day_of_month))?;
    uzbek_day_word(c);
    Some(Item::Day(day))
}

/// The day word Uzbek says after a date ("9-may kuni", "9-май куни", "15-iyun kunida") and its
/// locative "da".
fn uzbek_day_word(c: &mut Cursor<'_>) {
    if matches!(
        c.word_at(c.pos()),
        Some("kuni" | "kunida" | "куни" | "кунида")
    ) {
        c.eat(Key::DayNoun);
    }
    c.eat(Key::Da);
}

/// A day and month without a year, as typed: "14 Feb", "February 14th", "14 февраля",
/// "14-fevral", "14.02".
pub(super) fn date_without_year(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    let date = c
        .attempt(|c| numeric_date(c, Context::default()))
        .or_else(|| c.attempt(day_month_name))
        .or_else(|| c.attempt(month_name_day))?;
    uzbek_day_word(c);
    match date {
        DayRef::Date {
            day,
            month,
            year: None,
        } => Some((day, month)),
        _ => None,
    }
}

/// A day of the month alone: `15th`, `15 числа`, `15-го`, `15-sanasida`, `15-kuni`, `второго
/// числа`; the `of this month` after it may be said, or `of next month` (`30th of next month`,
/// `28 числа следующего месяца`).
fn day_of_month(c: &mut Cursor<'_>) -> Option<DayRef> {
    let Some((day, _)) = c.eat_number().filter(|(_, d)| *d <= 2) else {
        let day = day_ordinal(c)?;
        return c.eat(Key::DateNoun).then_some(DayRef::MonthDay(day));
    };
    let hyphen = c.eat_adjacent_punct('-');
    let marked =
        c.eat(Key::OrdinalSuffix) | c.eat(Key::DateNoun) || (hyphen && c.eat(Key::DayNoun));
    if !marked {
        return None;
    }
    // "on 3rd avenue", "the 2nd floor": a place, no day.
    if c.word_at(c.pos())
        .is_some_and(|word| PLACES.contains(&word))
    {
        return None;
    }
    let day = u32::try_from(day).ok()?;
    let next = c.attempt(|c| {
        c.eat(Key::Of);
        let _ = c.eat(Key::The) || c.eat(Key::This);
        let next = c.eat(Key::Next);
        c.eat(Key::MonthNoun).then_some(next)
    });
    Some(if next == Some(true) {
        DayRef::NextMonthDay(day)
    } else {
        DayRef::MonthDay(day)
    })
}

/// Nouns an ordinal numbers as a place, not a day of the month ("3rd avenue", "2nd floor").
const PLACES: &[&str] = &[
    "avenue", "ave", "street", "st", "road", "rd", "floor", "lane", "place", "grade", "row",
    "gate", "platform", "entrance",
];

/// `2026-12-31`, `31.12`, `31.12.2026`, `31.12.26`, `31/12`, `12/31/2026`,
/// `31-12-2026`.
///
/// `a.b` without a year is a time when it cannot be a date (`21.00`,
/// `9.30`), and a date when it cannot be a time (`31.12`); when it can be
/// both (`10.11`) it is a time if a day was already said, else a date.
/// Slashed dates are day/month unless a part above 12 says otherwise or the
/// user writes English, where month/day is the norm.
fn numeric_date(c: &mut Cursor<'_>, context: Context) -> Option<DayRef> {
    // "v2.1.3": the later parts of a dotted version are no date.
    if c.continues_a_dotted_number(c.pos()) {
        return None;
    }
    let (a, a_digits) = c.eat_number()?;
    if a_digits == 4 {
        return iso_date(c, a);
    }
    if a_digits > 2 {
        return None;
    }
    let sep = ['.', '/', '-']
        .into_iter()
        .find(|sep| c.eat_adjacent_punct(*sep))?;
    let (b, b_digits) = c.eat_adjacent_number().filter(|(_, d)| *d <= 2)?;
    let typed_year = c.attempt(|c| {
        if !c.eat_adjacent_punct(sep) {
            return None;
        }
        match c.eat_adjacent_number()? {
            (y, 2) => Some((2000 + y, 2)),
            (y, 4) => Some((y, 4)),
            _ => None,
        }
    });
    // "обновить 1С до 8.3.24": a dotted date with a two-digit year already gone is a version.
    let this_year = c
        .today()
        .map(|today| u64::try_from(today.year()).unwrap_or(0));
    if sep == '.'
        && typed_year
            .is_some_and(|(year, digits)| digits == 2 && this_year.is_some_and(|now| year < now))
    {
        return None;
    }
    let year = typed_year.map(|(year, _)| year);
    if year.is_some() {
        c.eat(Key::YearWord);
    }
    // The reading of a date without a year that falls on the weekday said beside it.
    let on_weekday =
        |day: u64, month: u64| year.is_none() && on_said_weekday(c, context, day, month);
    let (day, month) = match sep {
        '-' => {
            year?;
            (a, b)
        }
        '/' => match (a, b) {
            (a, _) if a > 12 => (a, b),
            (_, b) if b > 12 => (b, a),
            _ if on_weekday(a, b) => (a, b),
            _ if on_weekday(b, a) => (b, a),
            _ if c.month_first() => (b, a),
            _ => (a, b),
        },
        _ => {
            let could_be_time = b_digits == 2 && a <= 23 && b <= 59;
            let could_be_date = b_digits == 1 || (1..=12).contains(&b) || a > 23;
            let time_first = context.has_day && !on_weekday(a, b);
            if year.is_none() && could_be_time && (!could_be_date || time_first) {
                return None;
            }
            // "pay electric bill 84.50", "25.50": with a month past any, a price, no date;
            // "shipping 2.0": a version.
            if year.is_none() && (b > 12 || a == 0 || b == 0) {
                return None;
            }
            (a, b)
        }
    };
    Some(date_ref(day, month, year))
}

/// Whether day `day` of month `month`, next to come from the day the message is read, is the
/// weekday said before it ("пн 6.04", "mon 06/04").
fn on_said_weekday(c: &Cursor<'_>, context: Context, day: u64, month: u64) -> bool {
    let (Some(weekday), Some(today)) = (context.weekday, c.today()) else {
        return false;
    };
    let (Ok(day), Ok(month)) = (u32::try_from(day), u32::try_from(month)) else {
        return false;
    };
    [today.year(), today.year() + 1]
        .into_iter()
        .filter_map(|year| NaiveDate::from_ymd_opt(year, month, day))
        .find(|date| *date >= today)
        .is_some_and(|date| date.weekday() == weekday)
}

/// The rest of `YYYY-MM-DD` after the year.
fn iso_date(c: &mut Cursor<'_>, year: u64) -> Option<DayRef> {
    c.eat_adjacent_punct('-').then_some(())?;
    let (month, _) = c.eat_adjacent_number().filter(|(_, d)| *d <= 2)?;
    c.eat_adjacent_punct('-').then_some(())?;
    let (day, _) = c.eat_adjacent_number().filter(|(_, d)| *d <= 2)?;
    Some(date_ref(day, month, Some(year)))
}

/// `5 декабря [2026 [года]]`, `5-dekabr`, `5th of December`, `5 Dec`.
fn day_month_name(c: &mut Cursor<'_>) -> Option<DayRef> {
    let day = match c.eat_number().filter(|(_, d)| *d <= 2) {
        Some((day, _)) => day,
        None => u64::from(day_ordinal(c)?),
    };
    c.eat_adjacent_punct('-');
    c.eat(Key::OrdinalSuffix);
    c.eat(Key::Of);
    let month = c.eat_pick(month_key)?;
    let year = c.attempt(|c| {
        let (year, _) = c.eat_number().filter(|(_, d)| *d == 4)?;
        c.eat_adjacent_punct('-');
        c.eat(Key::YearWord);
        Some(year)
    });
    Some(date_ref(day, u64::from(month), year))
}

/// "December 5", "Dec 5th, 2026", "may the 1st".
fn month_name_day(c: &mut Cursor<'_>) -> Option<DayRef> {
    let month = c.eat_pick(month_key)?;
    c.eat(Key::The);
    // "iyun oyining 15-sanasida": the month, then its day.
    let of_month = c.eat(Key::MonthNoun);
    let day = match c.eat_number().filter(|(_, d)| *d <= 2) {
        Some((day, _)) => day,
        None => u64::from(day_ordinal(c)?),
    };
    if !c.eat(Key::OrdinalSuffix) && of_month {
        c.attempt(|c| (c.eat_adjacent_punct('-') && c.eat(Key::DateNoun)).then_some(()));
    }
    let year = c.attempt(|c| {
        c.eat_punct(',');
        c.eat_number().filter(|(_, d)| *d == 4).map(|(y, _)| y)
    });
    Some(date_ref(day, u64::from(month), year))
}

/// "month" (this one), "next month" or a month's name, after "the end of": which month's end.
pub(super) fn month_named(c: &mut Cursor<'_>) -> Option<DayRef> {
    if c.eat_all(&[Key::Next, Key::MonthNoun]) {
        return Some(DayRef::NextMonthEnd);
    }
    c.eat_pick(month_or_named)
}

/// The last day of the year a key names for its end ("the end of the year", "в конце года",
/// "yil oxirida", "до конца года"): 31 December.
pub(super) fn year_end(key: Key) -> Option<DayRef> {
    (key == Key::Unit(Unit::Year)).then_some(DayRef::Date {
        day: 31,
        month: 12,
        year: None,
    })
}

/// The month a key names for its end: "month" is this one, "April" is April.
fn month_or_named(key: Key) -> Option<DayRef> {
    match key {
        Key::MonthNoun => Some(DayRef::EndOfMonth),
        Key::Month(m) => Some(DayRef::MonthEnd(m)),
        _ => None,
    }
}

fn month_key(key: Key) -> Option<u32> {
    match key {
        Key::Month(m) => Some(m),
        _ => None,
    }
}

/// A date from parts that have at most two digits, so they fit a `u32`.
fn date_ref(day: u64, month: u64, year: Option<u64>) -> DayRef {
    let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    DayRef::Date {
        day: small(day),
        month: small(month),
        year,
    }
}
