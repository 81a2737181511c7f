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
    let zone = c.attempt(two_word_city).or_else(|| c.eat_pick(city))?;
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

/// A city whose name is two words: "New York time", "Los Angeles time".
fn two_word_city(c: &mut Cursor<'_>) -> Option<Tz> {
    [
        (["new", "york"], Tz::America__New_York),
        (["los", "angeles"], Tz::America__Los_Angeles),
        (["san", "francisco"], Tz::America__Los_Angeles),
    ]
    .into_iter()
    .find_map(|(words, zone)| c.eat_all_words(&words).then_some(zone))
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
