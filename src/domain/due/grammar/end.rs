//! The start of a repeat: "starting monday", "from tomorrow", "с понедельника", "начиная с 1
//! января", "dushanbadan boshlab" (with no repeat, the same words are the day); its end: "until
//! March 1", "till friday", "until the end of the month", "до 1 марта", "до пятницы", "до конца
//! месяца", "1-martgacha", "jumagacha", "1-mart gacha", "oy oxirigacha" (with no repeat, the same
//! words are a deadline), "until september", "до мая", "yanvargacha" (the month before's last
//! day, a repeat's only); and its count: "10 times", "10 раз", "10 marta", "5 times in total",
//! "всего 5 раз", "jami 5 marta"; and its length: "for 10 days", "в течение 2 недель", "10 kun
//! davomida".

use crate::domain::recurrence::MAX_COUNT;

use super::super::keys::{Key, Unit};
use super::amount::standalone;
use super::calendar::{self, date_without_year, month_named, weekday_key, year_end};
use super::number::count as whole;
use super::{Context, Cursor, DayRef, Item};

/// `until|до DAY`, or `DAY-gacha` / `DAY gacha`: the last day; after a repeat also `по|to|through
/// DAY` ("каждый день в 9 таблетки по пятницу": through Friday, "daily at 8am from june 1 to june
/// 10"; "с понедельника по пятницу" alone is a stretch of days).
pub(super) fn until(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    if context.has_day
        && let Some(day) = c.attempt(|c| {
            let joined =
                c.eat(Key::Po) || c.eat_word("to") || c.eat_word("through") || c.eat_word("thru");
            joined.then_some(())?;
            let day = last_day(c)?;
            matches!(day, DayRef::Weekday { .. } | DayRef::Date { .. }).then_some(day)
        })
    {
        return Some(Item::Until(day));
    }
    if c.eat(Key::Until) {
        c.eat(Key::The);
        return c
            .attempt(last_day)
            .or_else(|| c.attempt(before_month))
            .map(Item::Until);
    }
    if let Some(day) = c.attempt(|c| {
        let day = before_month(c)?;
        let suffixed = c.pos() > 0 && c.has_at(c.pos() - 1, Key::UntilSuffix);
        suffixed.then_some(day)
    }) {
        return Some(Item::Until(day));
    }
    let day = last_day(c)?;
    let suffixed = c.pos() > 0 && c.has_at(c.pos() - 1, Key::UntilSuffix);
    (suffixed || c.eat(Key::Until)).then_some(Item::Until(day))
}

/// `starting|beginning|from [on|from] DAY`, `[начиная] с|со DAY`, `DAY-dan boshlab`: the first
/// day. A day must follow ("from 3 people", "с Петей", "dushanbadan keyin" are none).
pub(super) fn starting(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    // "bugundan/ertadan boshlab": from today, from tomorrow ("ertadan keyin" is the day after).
    if let Some(day) = c.attempt(|c| {
        let day = if c.eat_word("bugundan") || c.eat_word("бугундан") {
            DayRef::Today
        } else if c.eat_word("ertadan") || c.eat_word("эртадан") {
            DayRef::Tomorrow
        } else {
            return None;
        };
        (c.eat_word("boshlab") || c.eat_word("бошлаб")).then_some(day)
    }) {
        return Some(Item::Start(day));
    }
    if let Some(day) = c.attempt(|c| {
        let day = first_day(c)?;
        let suffixed = c.pos() > 0 && c.has_at(c.pos() - 1, Key::FromSuffix);
        (suffixed && (c.eat_word("boshlab") || c.eat_word("бошлаб"))).then_some(day)
    }) {
        return Some(Item::Start(day));
    }
    let led = c.eat_word("starting")
        || c.eat_word("beginning")
        || c.eat(Key::From)
        || c.eat_all_words(&["начиная", "с"])
        || c.eat_all_words(&["начиная", "со"])
        || c.eat_word("с")
        || c.eat_word("со");
    if !led {
        return None;
    }
    let _ = c.eat(Key::On) || c.eat(Key::From);
    let day = first_day(c)?;
    // "с завтрашнего дня".
    let _ = c.eat(Key::DayNoun) || c.eat(Key::Unit(Unit::Day));
    Some(Item::Start(day))
}

/// A day a repeat may start on: "next week", a date, a day word ("tomorrow"), a weekday or a
/// month (its 1st).
fn first_day(c: &mut Cursor<'_>) -> Option<DayRef> {
    let rules: [super::Rule; 4] = [
        calendar::span_day,
        calendar::date,
        calendar::day_word,
        calendar::weekday,
    ];
    rules
        .iter()
        .find_map(|rule| {
            c.attempt(|c| match rule(c, Context::default()) {
                Some(Item::Day(day)) => Some(day),
                _ => None,
            })
        })
        .or_else(|| {
            // "с мая", "from may", "yanvardan boshlab": the month's 1st.
            c.attempt(|c| {
                let month = c.eat_pick(month_alone)?;
                (!c.peek_number()).then_some(DayRef::Date {
                    day: 1,
                    month,
                    year: None,
                })
            })
        })
}

/// `N times`, `N раз`, `N marta`, from 1 to [`MAX_COUNT`], with "total" before or after it
/// ("всего 5 раз", "for a total of 5 times", "5 times in all", "5 раз в общей сложности", "jami
/// 5 marta", "hammasi bo'lib 5 marta").
pub(super) fn count(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let total_before = c.eat_all_words(&["for", "a", "total", "of"])
        || c.eat_all_words(&["a", "total", "of"])
        || c.eat_all_words(&["in", "total"])
        || c.eat_all_words(&["hammasi", "bo'lib"])
        || ["total", "всего", "итого", "jami", "жами"]
            .iter()
            .any(|word| c.eat_word(word));
    let n = whole(c, MAX_COUNT).filter(|n| *n > 0)?;
    c.eat(Key::Times).then_some(())?;
    if !total_before {
        let _ = c.eat_all_words(&["in", "total"])
            || c.eat_all_words(&["in", "all"])
            || c.eat_all_words(&["в", "общей", "сложности"])
            || ["total", "overall", "всего", "jami", "жами"]
                .iter()
                .any(|word| c.eat_word(word));
    }
    Some(Item::Count(n))
}

/// `for|в течение|на протяжении AMOUNT`, `AMOUNT [подряд]`, `AMOUNT davomida`: how long a
/// repeat lasts, in days, weeks or months ("every day at 9 pills for 10 days").
pub(super) fn lasting(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let led = c.eat_word("for")
        || c.eat_all_words(&["в", "течение"])
        || c.eat_all_words(&["на", "протяжении"]);
    // Without a word before it, a number must count ("14 дней"): "day" of "day after tomorrow"
    // and "hafta" of "hafta oxirida" are no lengths.
    if !led && !c.peek_number() {
        return None;
    }
    let span = standalone(c)?;
    let _ = c.eat_word("подряд") || c.eat_word("davomida") || c.eat_word("давомида");
    (span.seconds == 0 && span.is_calendar_only()).then_some(Item::Lasting(span))
}

/// A date ("March 1", "1 марта", "1-mart"), a weekday ("friday", "пятницы", "jumagacha") or the
/// end of a month or of the year ("the end of the month", "конца месяца", "конца апреля", "oy
/// oxirigacha", "до конца года").
fn last_day(c: &mut Cursor<'_>) -> Option<DayRef> {
    if let Some((day, month)) = c.attempt(date_without_year) {
        return Some(DayRef::Date {
            day,
            month,
            year: None,
        });
    }
    if let Some(day) = c.eat_pick(weekday_key) {
        c.eat(Key::DayNoun);
        return Some(DayRef::Weekday { day, next: false });
    }
    c.attempt(|c| {
        let end = c.eat(Key::End);
        c.eat(Key::Of);
        let _ = c.eat(Key::The) || c.eat(Key::This);
        let last = month_named(c).or_else(|| c.eat_pick(year_end))?;
        (end || c.eat(Key::End)).then_some(last)
    })
}

/// A month's name alone ("until january", "до мая", "yanvargacha"): the last day before it. Not
/// with a day or a year after it ("до мая следующего года" is left as it is).
fn before_month(c: &mut Cursor<'_>) -> Option<DayRef> {
    let month = c.eat_pick(month_alone)?;
    let year_follows = c.peek_number()
        || c.is_at(c.pos(), |k| {
            matches!(k, Key::Next | Key::Unit(Unit::Year)).then_some(())
        })
        || matches!(
            c.word_at(c.pos()),
            Some("следующего" | "будущего" | "kelasi")
        );
    (!year_follows).then_some(DayRef::BeforeMonth(month))
}

/// A month's number, from its name.
fn month_alone(key: Key) -> Option<u32> {
    match key {
        Key::Month(m) => Some(m),
        _ => None,
    }
}
