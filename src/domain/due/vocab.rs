//! Lookup of a word's meanings ([`Key`]s) in the English, Russian and Uzbek word lists, and
//! one-letter typos of key words.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::domain::lang::Lang;

use super::keys::Key;
use super::{en, ru, uz};

/// The meanings of a folded word, those of `hint`'s language first, so that
/// where languages disagree the user's language wins.
pub(super) fn meanings(word: &str, hint: Lang) -> Vec<Key> {
    let order = match hint {
        Lang::En => [Lang::En, Lang::Ru, Lang::Uz],
        Lang::Ru => [Lang::Ru, Lang::En, Lang::Uz],
        Lang::Uz | Lang::UzCyrl => [Lang::Uz, Lang::En, Lang::Ru],
    };
    let mut keys = Vec::new();
    for lang in order {
        keys.extend(meanings_in(word, lang));
    }
    keys
}

/// The meanings of a folded word in one language's word list (with its inflected forms).
pub(super) fn meanings_in(word: &str, lang: Lang) -> Vec<Key> {
    let table = match lang {
        Lang::En => en::WORDS,
        Lang::Ru => ru::WORDS,
        Lang::Uz | Lang::UzCyrl => uz::WORDS,
    };
    let mut keys: Vec<Key> = table
        .iter()
        .filter(|(w, _)| *w == word)
        .map(|(_, key)| *key)
        .collect();
    match lang {
        Lang::En => {}
        Lang::Ru => keys.extend(ru::inflected(word)),
        Lang::Uz | Lang::UzCyrl => keys.extend(uz::inflected(word)),
    }
    keys
}

/// The Uzbek meanings of a word typed in Cyrillic on a Russian keyboard, given as its Latin
/// transliteration (`latin`): such a keyboard has no ҳ қ ғ ў, so people type х к г у instead
/// ("хар жума" for "ҳар жума", "дакикадан" for "дақиқадан"), which read as `x k g u` where
/// the word has `h q g' o'`. The word's meanings when some Uzbek word (or inflected form) is
/// spelt like it up to these four letters; empty otherwise.
pub(super) fn keyboard_uz_meanings(latin: &str) -> Vec<Key> {
    static BY_KEYBOARD: OnceLock<HashMap<String, Vec<Key>>> = OnceLock::new();
    let table = BY_KEYBOARD.get_or_init(|| {
        let mut table: HashMap<String, Vec<Key>> = HashMap::new();
        for (form, key) in uz::forms() {
            table.entry(keyboard_fold(&form)).or_default().push(key);
        }
        table
    });
    table
        .get(&keyboard_fold(latin))
        .cloned()
        .unwrap_or_default()
}

/// `latin` with the letters a Russian keyboard cannot tell apart made one: `o'` and `u`, `g'`
/// and `g`, `q` and `k`, `h` and `x`.
fn keyboard_fold(latin: &str) -> String {
    latin
        .replace("o'", "u")
        .replace("g'", "g")
        .replace('q', "k")
        .replace('h', "x")
}

/// Key words that a one-letter typo of is still read as them ("tomorow", "завтро", "черех",
/// "ertga"): words of at least 5 letters that ordinary words are rarely one letter away from.
/// Left out on purpose: "sunday" (sundae), "march" (match), "morning" (mourning), "daily"
/// (dairy), "later" (water), "минут" (минус), "keyin" (kelin, kiyin).
const TYPO_TARGETS: &[&str] = &[
    "tomorrow",
    "yesterday",
    "tonight",
    "midnight",
    "minutes",
    "minute",
    "seconds",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "january",
    "february",
    "august",
    "september",
    "october",
    "november",
    "december",
    "evening",
    "afternoon",
    "weekend",
    "завтра",
    "сегодня",
    "послезавтра",
    "через",
    "спустя",
    "минуты",
    "минуту",
    "секунд",
    "понедельник",
    "вторник",
    "четверг",
    "пятницу",
    "пятница",
    "субботу",
    "суббота",
    "воскресенье",
    "каждый",
    "каждую",
    "каждое",
    "ежедневно",
    "вечером",
    "неделю",
    "января",
    "февраля",
    "апреля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
    "ertaga",
    "indinga",
    "dushanba",
    "seshanba",
    "chorshanba",
    "payshanba",
    "yakshanba",
    "soatdan",
    "daqiqa",
    "daqiqadan",
    "kechqurun",
    "ertalab",
    "kechasi",
    "hafta",
    "kundan",
];

/// Ordinary words one letter away from a [`TYPO_TARGETS`] word, which stay what they are.
const NOT_TYPOS: &[&str] = &[
    "завтрак",
    "череп",
    "черед",
    "четверо",
    "каждым",
    "каждой",
    "burun",
    "bundan",
    "undan",
    "minuet",
    "minuets",
];

/// The key word that `word` (folded, not itself in any word list) is a one-letter typo of, if
/// any: one letter added, dropped or replaced, or two letters side by side swapped
/// ("wendesday"), in a word of at least 5 letters.
pub(super) fn typo_of(word: &str) -> Option<&'static str> {
    let typed: Vec<char> = word.chars().collect();
    if typed.len() < 5 || !typed.iter().all(|c| c.is_alphabetic()) || NOT_TYPOS.contains(&word) {
        return None;
    }
    TYPO_TARGETS.iter().copied().find(|target| {
        let target: Vec<char> = target.chars().collect();
        one_edit_apart(&typed, &target) || swapped_neighbours(&typed, &target)
    })
}

/// Whether `a` becomes `b` by adding, dropping or replacing exactly one character.
fn one_edit_apart(a: &[char], b: &[char]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    match long.len() - short.len() {
        0 => a.iter().zip(b).filter(|(x, y)| x != y).count() == 1,
        1 => {
            let skip = short
                .iter()
                .zip(long)
                .position(|(x, y)| x != y)
                .unwrap_or(short.len());
            short[skip..] == long[skip + 1..]
        }
        _ => false,
    }
}

/// Whether `a` becomes `b` by swapping two letters side by side ("wendesday", "fridya").
fn swapped_neighbours(a: &[char], b: &[char]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    matches!(differ[..], [i, j] if j == i + 1 && a[i] == b[j] && a[j] == b[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::due::keys::Unit;
    use chrono::Weekday;

    #[test]
    fn words_have_all_their_meanings() {
        let keys = meanings("часа", Lang::Ru);
        assert!(keys.contains(&Key::Unit(Unit::Hour)));
        assert!(keys.contains(&Key::HourWord));
    }

    #[test]
    fn uzbek_case_endings_are_understood() {
        assert_eq!(
            meanings("dushanbaga", Lang::Uz),
            [Key::Weekday(Weekday::Mon)]
        );
        assert_eq!(meanings("dekabrda", Lang::En), [Key::Month(12)]);
    }

    #[test]
    fn one_letter_typos_of_key_words_only() {
        assert_eq!(typo_of("tomorow"), Some("tomorrow"));
        assert_eq!(typo_of("tommorrow"), Some("tomorrow"));
        assert_eq!(typo_of("завтро"), Some("завтра"));
        assert_eq!(typo_of("черех"), Some("через"));
        assert_eq!(typo_of("ertga"), Some("ertaga"));
        assert_eq!(typo_of("wendesday"), Some("wednesday"));
        for ordinary in [
            "sundae",
            "match",
            "mourning",
            "dairy",
            "water",
            "mouth",
            "минус",
            "завтрак",
            "череп",
            "черед",
            "четверо",
            "kelin",
            "kiyin",
            "burun",
            "today",
            "tmrw",
            "friends",
            "minuets",
        ] {
            assert_eq!(typo_of(ordinary), None, "{ordinary}");
        }
    }

    #[test]
    fn uzbek_from_a_russian_keyboard_is_read() {
        assert_eq!(keyboard_uz_meanings("xar"), [Key::Every]);
        assert_eq!(
            keyboard_uz_meanings("dakikadan"),
            [Key::UnitFrom(Unit::Minute)]
        );
        assert_eq!(keyboard_uz_meanings("kuni"), meanings_in("kuni", Lang::Uz));
        assert!(keyboard_uz_meanings("kupit").is_empty());
        assert!(keyboard_uz_meanings("xleb").is_empty());
    }

    #[test]
    fn hint_language_comes_first() {
        assert_eq!(meanings("may", Lang::Uz).first(), Some(&Key::Month(5)));
        assert!(meanings("xyzzy", Lang::En).is_empty());
    }
}
