//! Durations: relative times ("in 2 hours", "через полчаса",
//! "2 soatdan keyin") and lead times ("30 min before", "за 30 минут",
//! "30 daqiqa oldin").

use super::super::keys::{Key, Unit};
use super::number::{Case, is_count_at, number_word};
use super::{Context, Cursor, Item, RelativeGuess, Span, unit_key};

/// "in AMOUNT", "через AMOUNT", "AMOUNT later", "AMOUNT from now", "AMOUNT keyin", and "after
/// AMOUNT" as people write it in English learnt from Russian or Uzbek ("after 2 hours").
pub(super) fn relative(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    if let Some(span) = c.attempt(same_time_later) {
        return Some(Item::Relative(span));
    }
    // "через день": a day later, or every other day, as Russian says both.
    let in_a_day = c.word_at(c.pos()) == Some("через") && c.word_at(c.pos() + 1) == Some("день");
    let after = c.has_at(c.pos(), Key::After);
    // "dad turns 50 in 15": after a number, "in 15" counts years, or anything but minutes.
    let after_a_number = c.pos() > 0 && c.is_number_at(c.pos() - 1);
    if c.eat(Key::In) || c.eat(Key::After) {
        if let Some(span) = c.attempt(minutes_from_a_range) {
            return Some(Item::Relative(span));
        }
        if let Some(span) = c.attempt(amount) {
            // "через неделю в это же время".
            if span.is_calendar_only() {
                let _said_too = same_time(c);
            }
            return Some(if in_a_day {
                Item::RelativeGuessed(span, RelativeGuess::InADay)
            } else {
                Item::Relative(span)
            });
        }
        // "after 20" may be 20:00: only "in" and "через" guess minutes.
        if after || after_a_number || !c.guesses_minutes() {
            return None;
        }
        let span = c.attempt(minutes_unsaid)?;
        return Some(Item::RelativeGuessed(span, RelativeGuess::MinutesUnsaid));
    }
    // "bir ikki kundan keyin", "1-2 kundan keyin": the second count of a range, which the bot
    // cannot pick from.
    let after_count = |back: usize| c.pos() >= back && is_count_at(c, c.pos() - back);
    if after_count(1) || (after_count(2) && c.has_punct_at(c.pos() - 1, '-')) {
        return None;
    }
    let after_until = c.pos() > 0 && c.has_at(c.pos() - 1, Key::Until);
    let span = amount(c)?;
    // "15 daq dan keyin": the ablative typed apart from its unit.
    let _ = c.eat_word("dan") || c.eat_word("дан");
    // "3 weeks from today" counts from now as "from now" does, unless a day is named elsewhere
    // ("notice period is 4 weeks from today, tell HR friday") or it ends a repeat ("every day
    // at 9 pills until 3 weeks from today").
    let later = c.eat(Key::Later)
        || c.eat_all(&[Key::From, Key::Now])
        || (!after_until && !c.message_names_a_day() && c.eat_all(&[Key::From, Key::Today]));
    later.then_some(Item::Relative(span))
}

/// "in 5-10 min", "через 10-15 минут": minutes said as a range, from its start (a range of
/// hours or days asks when, see the `label` module).
fn minutes_from_a_range(c: &mut Cursor<'_>) -> Option<Span> {
    let (start, _) = c
        .eat_number()
        .filter(|(start, digits)| *digits <= 2 && *start > 0)?;
    c.eat_adjacent_punct('-').then_some(())?;
    c.eat_adjacent_number().filter(|(end, _)| *end > start)?;
    (c.eat_pick(unit_key)? == Unit::Minute).then_some(())?;
    Span::of(start * 10, Unit::Minute)
}

/// "same time tomorrow", "this time next week", "завтра в это же время", "ertaga shu vaqtda":
/// a day, a week or a month from now, at the time it is now.
fn same_time_later(c: &mut Cursor<'_>) -> Option<Span> {
    // "take both pills at the same time tomorrow": both at once, no time.
    if c.pos() > 0 && c.has_at(c.pos() - 1, Key::The) {
        return None;
    }
    let later = |c: &mut Cursor<'_>| {
        if c.eat(Key::Tomorrow) {
            Span::of(10, Unit::Day)
        } else if c.eat_all(&[Key::Next, Key::WeekNoun]) {
            Span::of(10, Unit::Week)
        } else if c.eat_all(&[Key::Next, Key::MonthNoun]) {
            Span::of(10, Unit::Month)
        } else {
            None
        }
    };
    if same_time(c) {
        return later(c);
    }
    let span = later(c)?;
    same_time(c).then_some(span)
}

/// "same time", "в это же время", "shu vaqtda": the time it is now, which a span of days keeps
/// anyway ("take both pills at the same time" is no time).
fn same_time(c: &mut Cursor<'_>) -> bool {
    [
        &["same", "time"][..],
        &["this", "time"],
        &["в", "это", "же", "время"],
        &["в", "то", "же", "время"],
        &["shu", "vaqtda"],
        &["xuddi", "shu", "vaqtda"],
    ]
    .iter()
    .any(|words| c.eat_all_words(words))
}

/// The minutes of "in 20", "через 15" at the end of a sentence: a round number of minutes (5,
/// 10, … 55, as people count them) with its unit left unsaid ("size in 42" is no time).
fn minutes_unsaid(c: &mut Cursor<'_>) -> Option<Span> {
    let (n, digits) = c.eat_number()?;
    let ends = c.ends_phrase() || c.at_message_end();
    ((5..60).contains(&n) && n.is_multiple_of(5) && digits <= 2 && ends).then_some(())?;
    Span::of(n * 10, Unit::Minute)
}

/// `[remind [me]] AMOUNT before|earlier|in advance`, `[напомни] за AMOUNT
/// [до]`, `[напомни] накануне`, `AMOUNT oldin [eslat]`. Months are not a lead time.
pub(super) fn lead(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let asked = remind(c);
    // "напомни накануне", "…, накануне напомни", "…, накануне": the day before ("накануне
    // вечером позвонить", "…, она звонила накануне" say no day before what).
    let after = |key: Key| c.pos() > 0 && c.has_at(c.pos() - 1, key);
    let asked_before = asked || after(Key::Remind) || after(Key::Me);
    let after_comma = c.pos() > 0 && c.has_punct_at(c.pos() - 1, ',');
    if c.attempt(|c| {
        let before = c.eat_word("накануне");
        let closes = after_comma && c.at_message_end();
        (before && (asked_before || remind(c) || closes)).then_some(())
    })
    .is_some()
    {
        return Span::of(10, Unit::Day).map(Item::Lead);
    }
    // "remind me the day before".
    c.eat(Key::The);
    let span = if c.eat(Key::LeadFor) {
        let span = amount(c)?;
        c.eat(Key::Until);
        span
    } else {
        let span = amount(c)?;
        if !(c.eat(Key::Before) || c.eat_all(&[Key::In, Key::Advance])) {
            return None;
        }
        span
    };
    if !asked {
        remind(c);
    }
    (span.months == 0).then_some(Item::Lead(span))
}

/// A duration standing alone ("30 min", "2 hrs", "2 часа", "1 kun"): the same grammar as the
/// durations inside a task phrase, for settings that take a length of time.
pub(super) fn standalone(c: &mut Cursor<'_>) -> Option<Span> {
    amount(c)
}

/// "remind me", "напомни мне", "eslatib qo'y".
fn remind(c: &mut Cursor<'_>) -> bool {
    let asked = c.eat(Key::Remind);
    if asked {
        c.eat(Key::Me);
    }
    asked
}

/// One or more duration parts: "1 hour 30 minutes", "2h30m", "час и 10 минут".
fn amount(c: &mut Cursor<'_>) -> Option<Span> {
    let mut total = part(c)?;
    while let Some(more) = c.attempt(|c| {
        let _ = c.eat(Key::And) || c.eat_punct(',');
        part(c)
    }) {
        total = total.plus(more);
    }
    if let Some(minutes) = c.attempt(minutes_after_hours) {
        total = total.plus(minutes);
    }
    Some(total)
}

/// The minutes people say after hours without their unit: "через час двадцать выключить", "через
/// 2 часа 15", "in an hour 20" (5 to 55, as people count minutes), before a Russian verb, a
/// comma or the message's end. Not a number that counts something ("через час 5 страниц", "in 2
/// hours 10 push ups"), a date ("через 2 часа 25 декабря") or opens a time ("через час 20:15").
fn minutes_after_hours(c: &mut Cursor<'_>) -> Option<Span> {
    let after_hours = c.pos() > 0 && c.has_at(c.pos() - 1, Key::Unit(Unit::Hour));
    if !after_hours {
        return None;
    }
    let minutes = match c.attempt(|c| number_word(c).filter(|(_, case)| *case == Case::Plain)) {
        Some((n, _)) => u64::from(n),
        None => c.eat_number().filter(|(_, digits)| *digits <= 2)?.0,
    };
    let ends = c.at_message_end() || c.has_punct_at(c.pos(), ',');
    let before_a_verb = super::clock::before_infinitive(c);
    ((5..60).contains(&minutes) && minutes.is_multiple_of(5) && (ends || before_a_verb))
        .then_some(())?;
    Span::of(minutes * 10, Unit::Minute)
}

/// "10 minutes", "an hour", "1.5 hours", "half an hour", "полчаса", "пол часа",
/// "полтора часа", "bir yarim soat", "an hour and a half", "два с половиной часа", or a unit
/// alone meaning one ("через час").
fn part(c: &mut Cursor<'_>) -> Option<Span> {
    // "in a fortnight": two weeks.
    if c.attempt(|c| {
        c.eat(Key::Article);
        c.eat_word("fortnight").then_some(())
    })
    .is_some()
    {
        return Span::of(20, Unit::Week);
    }
    if c.eat(Key::HalfHour) {
        return Span::of(5, Unit::Hour);
    }
    if c.eat(Key::OneAndHalf) {
        return Span::of(15, unit(c)?);
    }
    if c.eat(Key::Half) || c.eat_word("пол") {
        c.eat(Key::Article);
        return Span::of(5, unit(c)?);
    }
    // "a few days", "bir necha kundan keyin": some number of units, none the bot can keep ("kun"
    // alone would be one).
    let few = c.pos() > 0 && c.has_at(c.pos() - 1, Key::Few);
    let counted = c.attempt(count);
    // "2-3 дня", "2 or 3 days", "bir ikki kun": a range of counts, none of which the bot can
    // pick; it asks when, as for "a few days".
    if counted.is_some() && c.attempt(|c| another_count(c, true)).is_some() {
        return None;
    }
    let tenths = match counted {
        Some(tenths) if c.eat(Key::Half) || c.attempt(and_a_half).is_some() => {
            tenths.saturating_add(5)
        }
        Some(tenths) => tenths,
        None if few => return None,
        None => 10,
    };
    let unit = unit(c)?;
    let half = c.attempt(and_a_half).map_or(0, |()| 5);
    // "a day or two", "день-два": a range too.
    if c.attempt(|c| another_count(c, false)).is_some() {
        return None;
    }
    Span::of(tenths.saturating_add(half), unit)
}

/// The second count of a range: "-3", "or 3", "или два", "yoki uch", or with `bare` a number
/// right after the first ("bir ikki kun").
fn another_count(c: &mut Cursor<'_>, bare: bool) -> Option<()> {
    let joined = c.eat_adjacent_punct('-')
        || ["or", "или", "yoki", "ёки"]
            .iter()
            .any(|word| c.eat_word(word));
    if !(joined || bare) {
        return None;
    }
    let word = c.attempt(|c| number_word(c).filter(|(_, case)| *case == Case::Plain));
    (word.is_some() || c.eat_number().is_some()).then_some(())
}

/// "and a half" ("an hour and a half", "a hour and half"), "с половиной" ("два с половиной часа", "два часа с
/// половиной"): half a unit more.
fn and_a_half(c: &mut Cursor<'_>) -> Option<()> {
    let english = c.eat(Key::And) && {
        c.eat(Key::Article);
        c.eat(Key::Half)
    };
    (english || c.eat_all_words(&["с", "половиной"])).then_some(())
}

/// The count of a number too large to hold in tenths: still a whole number.
const SATURATED_TENTHS: u64 = u64::MAX / 10 * 10;

/// A count in tenths: `2`, `1.5`, `2,5`, `two`, `an`.
fn count(c: &mut Cursor<'_>) -> Option<u64> {
    if let Some(n) =
        c.attempt(|c| number_word(c).and_then(|(n, case)| (case == Case::Plain).then_some(n)))
    {
        return Some(u64::from(n) * 10);
    }
    if c.eat(Key::Article) {
        return Some(10);
    }
    let (whole, _) = c.eat_number()?;
    let tenth = c
        .attempt(|c| {
            if !(c.eat_adjacent_punct('.') || c.eat_adjacent_punct(',')) {
                return None;
            }
            c.eat_adjacent_number().filter(|(_, digits)| *digits == 1)
        })
        .map_or(0, |(tenth, _)| tenth);
    Some(
        whole
            .checked_mul(10)
            .map_or(SATURATED_TENTHS, |w| w.saturating_add(tenth)),
    )
}

/// A unit, in any case (`soat`, `soatdan`).
fn unit(c: &mut Cursor<'_>) -> Option<Unit> {
    c.eat_pick(unit_key)
}
