//! The languages the bot speaks.

use crate::domain::fold::fold;
use crate::domain::stored::text_column;

/// A language the bot speaks and understands.
///
/// The parser accepts all of them in any message; a user's `Lang` only picks
/// the reply language and breaks ties between readings of ambiguous input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, also the fallback for every other Telegram language code.
    En,
    /// Russian.
    Ru,
    /// Uzbek (Latin script).
    Uz,
    /// Uzbek in the Cyrillic script: the same language as [`Lang::Uz`] (the parser reads it as
    /// Uzbek), answered in Cyrillic. Stored as `uz-Cyrl`; not in [`Lang::ALL`], which lists the
    /// languages, but in [`Lang::CHOICES`], which lists what `/lang` offers.
    UzCyrl,
}

impl Lang {
    /// All supported languages, in the order the bot lists them.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ru, Lang::Uz];

    /// What a chat may choose with `/lang`: the languages, and Uzbek in either script.
    pub const CHOICES: [Lang; 4] = [Lang::En, Lang::Ru, Lang::Uz, Lang::UzCyrl];

    /// Parses a language a user typed (e.g. for `/lang`): a code (`en`,
    /// `ru-RU`) or the language's own name (`English`, `Русский`, `O'zbek`).
    /// Returns `None` when it names none of the supported languages.
    pub fn parse(input: &str) -> Option<Lang> {
        match fold(input.trim()).as_str() {
            "english" | "eng" | "английский" | "inglizcha" | "ingliz" => Some(Lang::En),
            "russian" | "русский" | "рус" | "ruscha" | "rus" => Some(Lang::Ru),
            "uzbek" | "o'zbek" | "o'zbekcha" | "узбекский" | "lotin" | "lotincha" => {
                Some(Lang::Uz)
            }
            "ўзбек" | "ўзбекча" | "узбек" | "узбекча" | "uz-cyrl" | "uz_cyrl" | "kirill"
            | "kirillcha" | "кирилл" | "кириллча" | "кириллица" => {
                Some(Lang::UzCyrl)
            }
            code => Self::primary_subtag(code),
        }
    }

    /// Maps a Telegram `language_code` (an IETF tag such as `ru-RU` or `uz`)
    /// to a supported language; anything unknown or missing becomes English,
    /// as the bot must always answer in something.
    pub fn from_code(code: &str) -> Lang {
        Self::primary_subtag(&code.trim().to_ascii_lowercase()).unwrap_or(Lang::En)
    }

    /// The language without its script: Uzbek in either script is [`Lang::Uz`] (for the parser's
    /// words, the locale files and Telegram's two-letter language codes).
    pub fn base(self) -> Lang {
        match self {
            Lang::UzCyrl => Lang::Uz,
            other => other,
        }
    }

    fn primary_subtag(lowercase_tag: &str) -> Option<Lang> {
        if lowercase_tag.starts_with("uz-cyrl") || lowercase_tag.starts_with("uz_cyrl") {
            return Some(Lang::UzCyrl);
        }
        match lowercase_tag.split(['-', '_']).next() {
            Some("en") => Some(Lang::En),
            Some("ru") => Some(Lang::Ru),
            Some("uz") => Some(Lang::Uz),
            _ => None,
        }
    }
}

// The code as stored in the database: the two-letter language code, and `uz-Cyrl` (a BCP 47 tag
// with its script) for Uzbek in Cyrillic.
text_column!(Lang { En => "en", Ru => "ru", Uz => "uz", UzCyrl => "uz-Cyrl" });

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telegram_codes_map_to_primary_language() {
        assert_eq!(Lang::from_code("ru-RU"), Lang::Ru);
        assert_eq!(Lang::from_code("uz"), Lang::Uz);
        assert_eq!(Lang::from_code("EN-gb"), Lang::En);
        assert_eq!(Lang::from_code("de"), Lang::En);
        assert_eq!(Lang::from_code(""), Lang::En);
    }

    #[test]
    fn parse_accepts_codes_and_names() {
        assert_eq!(Lang::parse("ru"), Some(Lang::Ru));
        assert_eq!(Lang::parse(" Русский "), Some(Lang::Ru));
        assert_eq!(Lang::parse("Oʻzbek"), Some(Lang::Uz));
        assert_eq!(Lang::parse("English"), Some(Lang::En));
        assert_eq!(Lang::parse("klingon"), None);
    }

    #[test]
    fn every_stored_language_is_a_choice() {
        assert_eq!(Lang::STORED, Lang::CHOICES.as_slice());
    }

    #[test]
    fn as_str_round_trips() {
        for lang in Lang::CHOICES {
            assert_eq!(Lang::parse(lang.as_str()), Some(lang));
            assert_eq!(Lang::from_stored(lang.as_str()), Some(lang));
        }
    }

    #[test]
    fn uzbek_in_cyrillic_is_chosen_by_its_own_name_and_reads_as_uzbek() {
        assert_eq!(Lang::parse("Ўзбекча"), Some(Lang::UzCyrl));
        assert_eq!(Lang::parse("uz-Cyrl"), Some(Lang::UzCyrl));
        assert_eq!(Lang::parse("O'zbekcha"), Some(Lang::Uz));
        assert_eq!(Lang::UzCyrl.base(), Lang::Uz);
        assert_eq!(Lang::from_code("uz-Cyrl-UZ"), Lang::UzCyrl);
        assert_eq!(Lang::from_stored("uz-cyrl"), None);
    }
}
