//! Which language, and which script, a message is written in, from the words the parser knows
//! and a few common ones: so that a chat can answer Uzbek written in Cyrillic in Cyrillic from
//! the first message, typed on any keyboard ("хар жума соат 16:00 да хисобот" has none of ў қ ғ
//! ҳ but is Uzbek).

use crate::domain::fold::{fold, is_invisible};
use crate::domain::lang::Lang;
use crate::domain::script::{is_cyrillic, uz_cyrillic_to_latin};

use super::lexer::tokenize;
use super::vocab::{keyboard_uz_meanings, meanings_in};

/// Letters only Uzbek Cyrillic has.
const UZ_ONLY_LETTERS: &str = "ўқғҳЎҚҒҲ";

/// Letters only Russian has (of the two Cyrillic alphabets).
const RU_ONLY_LETTERS: &str = "ыщ";

/// The language `input` is written in, by its words: [`Lang::UzCyrl`] for Uzbek in Cyrillic
/// (a letter only Uzbek has, or more Uzbek words than Russian ones, read as typed or as typed
/// on a Russian keyboard), [`Lang::Ru`] for other Cyrillic, [`Lang::Uz`] for Latin with more
/// Uzbek words than English ones, [`Lang::En`] for other Latin text. `None` when it has no
/// word (digits, emoji). The script with more words wins.
pub fn written_in(input: &str) -> Option<Lang> {
    if input.chars().any(|c| UZ_ONLY_LETTERS.contains(c)) {
        return Some(Lang::UzCyrl);
    }
    let mut tally = Tally::default();
    for token in tokenize(input) {
        let Some(folded) = token.word() else {
            continue;
        };
        let original: String = input
            .get(token.start..token.end)
            .unwrap_or("")
            .chars()
            .filter(|c| !is_invisible(*c))
            .flat_map(char::to_lowercase)
            .collect();
        if original.chars().any(is_cyrillic) {
            tally.cyrillic_word(folded, &original);
        } else {
            tally.latin_word(folded);
        }
    }
    tally.verdict()
}

/// Words counted for each language.
#[derive(Default)]
struct Tally {
    russian: usize,
    uzbek_cyrillic: usize,
    english: usize,
    uzbek_latin: usize,
    cyrillic: usize,
    latin: usize,
}

impl Tally {
    fn cyrillic_word(&mut self, folded: &str, lower: &str) {
        self.cyrillic += 1;
        let latin = fold(&uz_cyrillic_to_latin(lower));
        let russian = lower.chars().any(|c| RU_ONLY_LETTERS.contains(c))
            || RU_MARKERS.contains(&folded)
            || !meanings_in(folded, Lang::Ru).is_empty();
        let uzbek = UZ_MARKERS.contains(&latin.as_str())
            || !meanings_in(&latin, Lang::Uz).is_empty()
            || !keyboard_uz_meanings(&latin).is_empty();
        match (russian, uzbek) {
            (true, false) => self.russian += 1,
            (false, true) => self.uzbek_cyrillic += 1,
            _ => {}
        }
    }

    fn latin_word(&mut self, folded: &str) {
        self.latin += 1;
        let english = EN_MARKERS.contains(&folded) || !meanings_in(folded, Lang::En).is_empty();
        let uzbek = folded.contains("o'")
            || folded.contains("g'")
            || UZ_MARKERS.contains(&folded)
            || !meanings_in(folded, Lang::Uz).is_empty();
        match (english, uzbek) {
            (true, false) => self.english += 1,
            (false, true) => self.uzbek_latin += 1,
            _ => {}
        }
    }

    fn verdict(&self) -> Option<Lang> {
        let cyrillic = (self.cyrillic > 0).then_some(if self.uzbek_cyrillic > self.russian {
            Lang::UzCyrl
        } else {
            Lang::Ru
        });
        let latin = (self.latin > 0).then_some(if self.uzbek_latin > self.english {
            Lang::Uz
        } else {
            Lang::En
        });
        match (cyrillic, latin) {
            (Some(c), Some(l)) => Some(if self.cyrillic >= self.latin { c } else { l }),
            (c, l) => c.or(l),
        }
    }
}

/// Common English words that are no time words.
const EN_MARKERS: &[&str] = &[
    "the", "to", "and", "a", "of", "for", "with", "my", "call", "buy", "pay", "send", "meeting",
    "remind", "me", "at", "on", "in",
];

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_uzbek_cyrillic_from_russian() {
        for uzbek in [
            "эртага соат 9 да нон олиш",
            "ҳар душанба йиғилиш",
            "бугун кечқурун кино",
            "икки соатдан кейин ухлаш",
            "шанба куни 19:30 да Малика билан кечки овқат",
            "жума куни соат 15:00 да намоз",
            "хар жума соат 16:00 да хисобот",
            "5 дакикадан кейин чойнак",
        ] {
            assert_eq!(written_in(uzbek), Some(Lang::UzCyrl), "{uzbek}");
        }
        for russian in [
            "завтра в 9 купить хлеб",
            "через 2 часа позвонить маме",
            "каждый день в 8 зарядка",
            "да, завтра в 9 позвонить",
            "куда положить ключи",
        ] {
            assert_eq!(written_in(russian), Some(Lang::Ru), "{russian}");
        }
        assert_eq!(written_in("ertaga soat 9 da"), Some(Lang::Uz));
        assert_eq!(written_in("tomorrow 9:00 gym"), Some(Lang::En));
        assert_eq!(written_in(""), None);
        assert_eq!(written_in("🎉 12:00"), None);
        assert_eq!(written_in("call Малика at 5"), Some(Lang::En));
    }
}
