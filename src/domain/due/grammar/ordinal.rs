//! A day of the month as an ordinal in words: "fifth", "twenty-first", "пятого", "двадцать
//! первое" ("5 April" said "April fifth", "пятого апреля").

use super::Cursor;

/// The ordinals from first to thirty-first in English and in Russian (genitive, "пятого
/// апреля", and nominative, "пятое апреля"), indexed from 1.
const ENGLISH: [&str; 20] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];
const RUSSIAN_STEMS: [&str; 20] = [
    "перв",
    "втор",
    "трет",
    "четверт",
    "пят",
    "шест",
    "седьм",
    "восьм",
    "девят",
    "десят",
    "одиннадцат",
    "двенадцат",
    "тринадцат",
    "четырнадцат",
    "пятнадцат",
    "шестнадцат",
    "семнадцат",
    "восемнадцат",
    "девятнадцат",
    "двадцат",
];

/// A day of the month 1–31 written as an ordinal in words: "fifth", "twenty-first", "twenty
/// first", "thirtieth", "пятого", "двадцать первого", "тридцатое".
pub(super) fn day_ordinal(c: &mut Cursor<'_>) -> Option<u32> {
    let tens = match c.word_at(c.pos()) {
        Some("twenty" | "двадцать") => 20,
        Some("thirty" | "тридцать") => 30,
        _ => 0,
    };
    let compound = (tens > 0)
        .then(|| {
            c.attempt(|c| {
                eat_any_word(c)?;
                c.eat_adjacent_punct('-');
                let unit = eat_ordinal(c).filter(|n| (1..=9).contains(n))?;
                Some(tens + unit).filter(|day| *day <= 31)
            })
        })
        .flatten();
    compound.or_else(|| c.attempt(eat_ordinal))
}

/// An ordinal word, 1–20 or 30.
fn eat_ordinal(c: &mut Cursor<'_>) -> Option<u32> {
    let day = ordinal_word(c.word_at(c.pos())?)?;
    eat_any_word(c)?;
    Some(day)
}

/// Consumes the word at the cursor, whatever it is.
fn eat_any_word(c: &mut Cursor<'_>) -> Option<()> {
    let word = c.word_at(c.pos())?.to_owned();
    c.eat_word(&word).then_some(())
}

/// The number an ordinal word stands for, 1–20 and 30.
fn ordinal_word(word: &str) -> Option<u32> {
    let at = |i: usize| u32::try_from(i + 1).ok();
    if word == "thirtieth" {
        return Some(30);
    }
    if let Some(i) = ENGLISH.iter().position(|w| *w == word) {
        return at(i);
    }
    let stem = ["ого", "ое", "ьего", "ье", "его"]
        .iter()
        .find_map(|ending| word.strip_suffix(ending))?;
    if stem == "тридцат" {
        return Some(30);
    }
    RUSSIAN_STEMS.iter().position(|s| *s == stem).and_then(at)
}
