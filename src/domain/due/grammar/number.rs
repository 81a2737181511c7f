//! Numbers written as words: "five", "twenty-five", "двадцать пять", "o'n besh", and the Uzbek
//! case forms of an hour ("beshda", "o'n birda", "beshdan", "oltiga").

use super::super::keys::Key;
use super::Cursor;

/// How an Uzbek number word ends, which says what it does in a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Case {
    /// No ending: a count.
    Plain,
    /// `-da`: at this hour.
    At,
    /// `-dan`: past this hour.
    From,
    /// `-ga`: before this hour.
    To,
}

/// A number in words, with the case of its last word: "five", "twenty-five", "двадцать пять",
/// "o'n besh", "o'n birda".
pub(super) fn number_word(c: &mut Cursor<'_>) -> Option<(u32, Case)> {
    let (first, case) = c.eat_pick(cased)?;
    let tens = first == 10 || ((20..=90).contains(&first) && first % 10 == 0);
    if case != Case::Plain || !tens {
        return Some((first, case));
    }
    // Tens and units: "twenty five", "twenty-five", "двадцать пять", "o'n besh" (in Uzbek,
    // ten and a unit is a compound too; in English and Russian "ten five" is no number).
    let compound =
        first != 10 || matches!(c.word_at(c.pos().saturating_sub(1)), Some("o'n" | "ўн"));
    if !compound {
        return Some((first, case));
    }
    let unit = c.attempt(|c| {
        c.eat_adjacent_punct('-');
        c.eat_pick(cased).filter(|(n, _)| (1..=9).contains(n))
    });
    Some(unit.map_or((first, case), |(n, case)| (first + n, case)))
}

/// A whole count in digits or words: `3`, `three`, `три`, `uch`; at most `max`.
pub(super) fn count(c: &mut Cursor<'_>, max: u32) -> Option<u32> {
    let n = match c.eat_number() {
        Some((n, _)) => u32::try_from(n).ok()?,
        None => {
            let (n, case) = number_word(c)?;
            (case == Case::Plain).then_some(n)?
        }
    };
    (n <= max).then_some(n)
}

/// Whether token `pos` is a count in digits or words.
pub(super) fn is_count_at(c: &Cursor<'_>, pos: usize) -> bool {
    c.is_number_at(pos) || c.is_at(pos, cased)
}

fn cased(key: Key) -> Option<(u32, Case)> {
    match key {
        Key::Count(n) => Some((n, Case::Plain)),
        Key::CountAt(n) => Some((n, Case::At)),
        Key::CountFrom(n) => Some((n, Case::From)),
        Key::CountTo(n) => Some((n, Case::To)),
        _ => None,
    }
}
