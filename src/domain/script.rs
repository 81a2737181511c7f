//! Uzbek in its two scripts: transliteration between Cyrillic and Latin Uzbek (the 1995
//! alphabet, the one the bot writes), and telling whether a message is Uzbek written in Cyrillic.
//!
//! The parser reads each Cyrillic word both as Russian and, through
//! [`uz_cyrillic_to_latin`], as Uzbek, so "эртага соат 9 да" parses like "ertaga soat 9 da"
//! while Russian keeps parsing as Russian; [`writes_uz_cyrillic`] says which script a message is
//! in. The other way, the bot's own Uzbek text into Cyrillic, is `crate::i18n::cyrillic`'s.
//!
//! Apostrophes: Latin output uses the ASCII `'` (`o'`, `g'`, and the tutuq belgisi for `ъ`),
//! as the parser's word lists do; Latin input may use any of the apostrophes people type
//! (see [`crate::domain::fold::is_apostrophe`]).

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

/// Whether `text` is Uzbek written in Cyrillic rather than Russian (or Latin): it has letters
/// only Uzbek uses (`ў`, `қ`, `ғ`, `ҳ`), or more common Uzbek words than Russian ones.
pub fn writes_uz_cyrillic(text: &str) -> bool {
    if text.chars().any(|c| UZ_ONLY_LETTERS.contains(c)) {
        return true;
    }
    let (mut uzbek, mut russian) = (0, 0);
    for word in text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().any(is_cyrillic))
    {
        let lower = word.to_lowercase();
        if lower.chars().any(|c| RU_ONLY_LETTERS.contains(c)) || RU_MARKERS.contains(&&*lower) {
            russian += 1;
        } else if UZ_MARKERS.contains(&&*uz_cyrillic_to_latin(&lower)) {
            uzbek += 1;
        }
    }
    uzbek > russian
}

/// Whether `c` is a Cyrillic letter (the Cyrillic block, which holds the Russian and the
/// Uzbek letters).
pub fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{04FF}')
}

const CYRILLIC_VOWELS: &str = "аеёиоуэюяўы";
const UZ_ONLY_LETTERS: &str = "ўқғҳЎҚҒҲ";
const RU_ONLY_LETTERS: &str = "ыщ";

/// Common Russian words, which Uzbek does not have.
const RU_MARKERS: &[&str] = &[
    "и",
    "в",
    "во",
    "на",
    "с",
    "со",
    "не",
    "что",
    "это",
    "к",
    "по",
    "за",
    "для",
    "от",
    "до",
    "у",
    "я",
    "мне",
    "завтра",
    "сегодня",
    "через",
    "напомни",
    "купить",
    "позвонить",
    "маме",
    "часа",
    "минут",
    "утра",
    "вечера",
    "каждый",
    "день",
];

/// Common Uzbek words (in Latin) that have no letter only Uzbek uses.
const UZ_MARKERS: &[&str] = &[
    "va",
    "bugun",
    "ertaga",
    "indinga",
    "kecha",
    "soat",
    "soatdan",
    "kun",
    "kuni",
    "kundan",
    "keyin",
    "uchun",
    "bilan",
    "kerak",
    "menga",
    "eslat",
    "eslatib",
    "eslating",
    "har",
    "hafta",
    "dushanba",
    "seshanba",
    "chorshanba",
    "payshanba",
    "juma",
    "shanba",
    "yakshanba",
    "bir",
    "ikki",
    "uch",
    "besh",
    "olti",
    "yetti",
    "sakkiz",
    "yigirma",
    "minut",
    "daqiqa",
    "kechqurun",
    "ertalab",
    "kechasi",
    "yil",
    "yili",
    "men",
    "sen",
    "biz",
    "siz",
    "shu",
    "salom",
    "non",
    "olish",
    "qilish",
    "borish",
    "uy",
    "ish",
    "dars",
    "kino",
    "da",
    "ga",
    "ni",
];

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
                uz_cyrillic_to_latin(&crate::i18n::cyrillic::to_cyrillic(word)),
                word,
                "{word}"
            );
        }
    }

    #[test]
    fn tells_uzbek_cyrillic_from_russian() {
        for uzbek in [
            "эртага соат 9 да нон олиш",
            "ҳар душанба йиғилиш",
            "бугун кечқурун кино",
            "икки соатдан кейин ухлаш",
        ] {
            assert!(writes_uz_cyrillic(uzbek), "{uzbek}");
        }
        for other in [
            "завтра в 9 купить хлеб",
            "через 2 часа позвонить маме",
            "каждый день в 8 зарядка",
            "ertaga soat 9 da",
            "tomorrow 9:00 gym",
            "",
        ] {
            assert!(!writes_uz_cyrillic(other), "{other}");
        }
    }
}
