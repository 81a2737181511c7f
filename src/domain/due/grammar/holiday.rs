//! Holidays by name: "new year's eve", "christmas eve", "в новогоднюю ночь", "yangi yil
//! arafasida", "Navro'z kuni": their date, the next one to come.

use super::super::keys::{Key, Period};
use super::{Context, Cursor, DayRef, Item};

/// Each holiday's words, as folded (any one spelling), its day and month, and the part of the
/// day the words name. A word that is also an ordinary adjective or noun ("christmas tree",
/// "новогоднюю ёлку", "navro'z bayrami") counts only with the word for its day or night.
const HOLIDAYS: &[(&[&str], u32, u32, Option<Period>)] = &[
    (&["new", "year's", "eve"], 31, 12, None),
    (&["new", "years", "eve"], 31, 12, None),
    (&["new", "year", "eve"], 31, 12, None),
    (&["new", "year's", "day"], 1, 1, None),
    (&["new", "years", "day"], 1, 1, None),
    (&["christmas", "eve"], 24, 12, None),
    (&["xmas", "eve"], 24, 12, None),
    (&["christmas", "day"], 25, 12, None),
    (&["valentine's", "day"], 14, 2, None),
    (&["valentines", "day"], 14, 2, None),
    (&["новогоднюю", "ночь"], 31, 12, Some(Period::Night)),
    (&["новогодняя", "ночь"], 31, 12, Some(Period::Night)),
    (&["новогодний", "вечер"], 31, 12, Some(Period::Evening)),
    (&["новогодним", "вечером"], 31, 12, Some(Period::Evening)),
    (&["сочельник"], 24, 12, None),
    (&["yangi", "yil", "arafasida"], 31, 12, None),
    (&["yangi", "yil", "arafasi"], 31, 12, None),
    (&["янги", "йил", "арафасида"], 31, 12, None),
    (&["янги", "йил", "арафаси"], 31, 12, None),
    (&["navro'z", "kuni"], 21, 3, None),
    (&["navro'zda"], 21, 3, None),
    (&["navro'z", "bayramida"], 21, 3, None),
    (&["navruz", "kuni"], 21, 3, None),
    (&["наврўз", "куни"], 21, 3, None),
    (&["наврўзда"], 21, 3, None),
    (&["наврўз", "байрамида"], 21, 3, None),
    (&["навруз", "куни"], 21, 3, None),
];

/// `[on|в] [the] HOLIDAY [da]`: the holiday's next date (today's while the time is ahead), at
/// the part of the day its words name ("в новогоднюю ночь" is 31 December's night). Not after
/// "every" ("every christmas eve" is a repeat the bot does not make of it).
pub(super) fn holiday(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    if c.pos() > 0 && c.has_at(c.pos() - 1, Key::Every) {
        return None;
    }
    let _ = c.eat(Key::On) || c.eat(Key::At);
    c.eat(Key::The);
    let (day, month, period) = HOLIDAYS.iter().find_map(|(words, day, month, period)| {
        c.attempt(|c| {
            words
                .iter()
                .all(|word| c.eat_word(word))
                .then_some((*day, *month, *period))
        })
    })?;
    c.eat(Key::Da);
    let date = DayRef::Holiday { day, month };
    Some(match period {
        Some(period) => Item::DayPeriod(date, period),
        None => Item::Day(date),
    })
}
