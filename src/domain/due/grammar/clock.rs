//! Times of day ("9", "9:30", "9am", "21.00", "в 9 часов", "soat 9 da",
//! "noon") and parts of the day ("in the evening", "вечером", "kechqurun").

use super::super::vocab::{Key, Unit};
use super::{Clock, Context, Cursor, Item, period_key};

/// `[at|в|soat|@] H[:MM|.MM] [o'clock|часов [MM минут]] [am|pm|a.m.] [da]`,
/// or noon/midnight.
///
/// A bare number is taken as an hour only with some cue: a marker before
/// it, minutes, an hour word, am/pm, a part of the day right after it, or
/// a day or part of the day just before it ("завтра 9", "kechqurun 9").
pub(super) fn time(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    let marked = c.eat(Key::At) || c.eat_punct('@');
    if c.eat(Key::Noon) {
        return Some(clock(12, 0, None));
    }
    if c.eat(Key::Midnight) {
        return Some(clock(0, 0, None));
    }
    let (hour, _) = c.eat_number().filter(|(_, digits)| *digits <= 2)?;
    let mut minute = c.attempt(|c| {
        if !(c.eat_adjacent_punct(':') || c.eat_adjacent_punct('.')) {
            return None;
        }
        c.eat_adjacent_number()
            .filter(|(_, digits)| *digits == 2)
            .map(|(m, _)| m)
    });
    let hour_word = minute.is_none() && c.eat(Key::HourWord);
    if hour_word {
        minute = c.attempt(|c| {
            let (m, _) = c.eat_number().filter(|(_, digits)| *digits <= 2)?;
            c.eat(Key::Unit(Unit::Minute)).then_some(m)
        });
    }
    let meridiem = meridiem(c);
    let located = c.eat(Key::Da);
    let cued = marked
        || minute.is_some()
        || hour_word
        || meridiem.is_some()
        || located
        || context.bare_hour
        || c.peek_pick(period_key);
    cued.then(|| clock(hour, minute.unwrap_or(0), meridiem))
}

/// `am`/`pm`, or `a.m.`/`p.m.` written with dots.
fn meridiem(c: &mut Cursor<'_>) -> Option<bool> {
    if let Some(pm) = c.eat_pick(|k| match k {
        Key::Meridiem(pm) => Some(pm),
        _ => None,
    }) {
        return Some(pm);
    }
    c.attempt(|c| {
        let pm = if c.eat_word("a") {
            false
        } else if c.eat_word("p") {
            true
        } else {
            return None;
        };
        if !(c.eat_adjacent_punct('.') && c.eat_adjacent_word("m")) {
            return None;
        }
        c.eat_adjacent_punct('.');
        Some(pm)
    })
}

/// `[in the|at|this] PERIOD`, plus the `keyin` of Uzbek `tushdan keyin`.
pub(super) fn period(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let _ = c.eat_all(&[Key::In, Key::The]) || c.eat(Key::At) || c.eat(Key::This);
    let period = c.eat_pick(period_key)?;
    c.eat(Key::Later);
    Some(Item::Period(period))
}

fn clock(hour: u64, minute: u64, meridiem: Option<bool>) -> Item {
    let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Item::Time(Clock {
        hour: small(hour),
        minute: small(minute),
        meridiem,
    })
}
