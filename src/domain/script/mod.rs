//! Uzbek in its two scripts, both ways, in one place: from Cyrillic to Latin Uzbek (the 1995
//! alphabet, the one the bot writes), here, and the bot's own Latin text into Cyrillic
//! ([`cyrillic`]).
//!
//! The parser reads each Cyrillic word both as Russian and, through
//! [`uz_cyrillic_to_latin`], as Uzbek, so "эртага соат 9 да" parses like "ertaga soat 9 da"
//! while Russian keeps parsing as Russian; which language and script a message is written in is
//! the parser's to say (`crate::domain::due::written_in`), from the words it knows. The other
//! way, the bot's own Uzbek text into Cyrillic, is [`cyrillic`]'s.
//!
//! Apostrophes: Latin output uses the ASCII `'` (`o'`, `g'`, and the tutuq belgisi for `ъ`),
//! as the parser's word lists do; Latin input may use any of the apostrophes people type
//! (see [`crate::domain::fold::is_apostrophe`]).

pub mod cyrillic;

/// Uzbek Cyrillic text in the Latin alphabet: `Эртага соат 9 да` → `Ertaga soat 9 da`,
/// `ўн беш` → `o'n besh`, `қўнғироқ` → `qo'ng'iroq`. Characters that are not Cyrillic
/// letters are kept as they are, so digits, punctuation and Latin text pass through.
///
/// Context rules of the standard: `е` is `ye` at the start of a word and after a vowel or a
/// sign (`етти` → `yetti`), else `e`; `ц` is `ts` after a vowel, else `s`; `ь` is dropped;
/// `ъ` is the apostrophe. Capitals stay capitals (`Ш` → `Sh`, or `SH` inside a word in capitals).
pub fn uz_cyrillic_to_latin(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        let previous = i
            .checked_sub(1)
            .and_then(|p| chars.get(p))
            .map(|p| p.to_lowercase().next().unwrap_or(*p));
        let after_vowel = previous.is_some_and(|p| CYRILLIC_VOWELS.contains(p));
        let word_start = previous.is_none_or(|p| !p.is_alphabetic());
        let latin: &str = match lower {
            'е' if word_start || after_vowel || matches!(previous, Some('ъ' | 'ь')) => "ye",
            'ц' if after_vowel => "ts",
            other => match CYRILLIC_TO_LATIN.iter().find(|(k, _)| *k == other) {
                Some((_, latin)) => latin,
                None => {
                    out.push(c);
                    continue;
                }
            },
        };
        if c == lower {
            out.push_str(latin);
        } else {
            let next_upper = chars.get(i + 1).is_some_and(|n| n.is_uppercase());
            let prev_upper = i
                .checked_sub(1)
                .and_then(|p| chars.get(p))
                .is_some_and(|p| p.is_uppercase());
            out.push_str(&capitalized(latin, next_upper || prev_upper));
        }
    }
    out
}

/// Whether `c` is a Cyrillic letter (the Cyrillic block, which holds the Russian and the
/// Uzbek letters).
pub fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{04FF}')
}

const CYRILLIC_VOWELS: &str = "аеёиоуэюяўы";

const CYRILLIC_TO_LATIN: &[(char, &str)] = &[
    ('а', "a"),
    ('б', "b"),
    ('в', "v"),
    ('г', "g"),
    ('д', "d"),
    ('е', "e"),
    ('ё', "yo"),
    ('ж', "j"),
    ('з', "z"),
    ('и', "i"),
    ('й', "y"),
    ('к', "k"),
    ('л', "l"),
    ('м', "m"),
    ('н', "n"),
    ('о', "o"),
    ('п', "p"),
    ('р', "r"),
    ('с', "s"),
    ('т', "t"),
    ('у', "u"),
    ('ф', "f"),
    ('х', "x"),
    ('ц', "s"),
    ('ч', "ch"),
    ('ш', "sh"),
    ('щ', "sh"),
    ('ъ', "'"),
    ('ы', "i"),
    ('ь', ""),
    ('э', "e"),
    ('ю', "yu"),
    ('я', "ya"),
    ('ў', "o'"),
    ('қ', "q"),
    ('ғ', "g'"),
    ('ҳ', "h"),
];

/// `latin` with a capital first letter, or all capitals.
fn capitalized(latin: &str, all: bool) -> String {
    if all {
        return latin.to_uppercase();
    }
    let mut chars = latin.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyrillic_to_latin_follows_the_standard() {
        let cases = [
            ("эртага соат 9 да", "ertaga soat 9 da"),
            ("ўн беш дақиқадан кейин", "o'n besh daqiqadan keyin"),
            ("қўнғироқ", "qo'ng'iroq"),
            ("етти", "yetti"),
            ("шеър", "she'r"),
            ("маъно", "ma'no"),
            ("цирк", "sirk"),
            ("милиция", "militsiya"),
            ("Ўзбекистон", "O'zbekiston"),
            ("ШАНБА", "SHANBA"),
            ("Шанба", "Shanba"),
            ("ҳар куни", "har kuni"),
            ("йўл", "yo'l"),
            ("5-декабрда", "5-dekabrda"),
            ("call мом", "call mom"),
        ];
        for (cyrillic, latin) in cases {
            assert_eq!(uz_cyrillic_to_latin(cyrillic), latin, "{cyrillic}");
        }
    }

    #[test]
    fn round_trips_ordinary_words() {
        for word in [
            "ertaga",
            "bugun",
            "dushanba",
            "seshanba",
            "payshanba",
            "juma",
            "yakshanba",
            "o'n",
            "to'rt",
            "to'qqiz",
            "yigirma",
            "qirq",
            "eslatib",
            "qo'y",
            "kechqurun",
            "yarim",
            "soatdan",
            "keyingi",
            "hafta",
            "oyning",
            "oxirgi",
            "g'alaba",
        ] {
            assert_eq!(
                uz_cyrillic_to_latin(&cyrillic::to_cyrillic(word)),
                word,
                "{word}"
            );
        }
    }
}
