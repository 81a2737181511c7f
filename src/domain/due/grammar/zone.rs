//! A time zone said with a time: "в 19:00 по мск", "10:00 по московскому времени", "3pm UTC",
//! "soat 10 da Moskva vaqti bilan". The time is that zone's, whatever the chat's zone is.

use chrono_tz::Tz;

use super::super::keys::Key;
use super::{Context, Cursor, Item};

/// `[по] ABBREV`, `по CITY [времени]`, `CITY time`, `CITY vaqti [bilan]`: a city alone is a
/// place ("flight to Moscow"), not a zone.
pub(super) fn zone(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    let by = c.eat(Key::Po);
    if let Some(zone) = c.eat_pick(abbreviation) {
        return Some(Item::Zone(zone));
    }
    let zone = c.eat_pick(city)?;
    let said = if by {
        c.eat_word("времени");
        true
    } else if c.eat_word("time") {
        true
    } else if c.eat_word("vaqti") || c.eat_word("вақти") {
        let _ = c.eat_word("bilan") || c.eat_word("билан");
        true
    } else {
        false
    };
    said.then_some(Item::Zone(zone))
}

fn abbreviation(key: Key) -> Option<Tz> {
    match key {
        Key::ZoneAbbrev(zone) => Some(zone),
        _ => None,
    }
}

fn city(key: Key) -> Option<Tz> {
    match key {
        Key::ZoneCity(zone) => Some(zone),
        _ => None,
    }
}
