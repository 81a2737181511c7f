//! The languages the bot speaks.

use std::fmt;

use crate::domain::fold::fold;

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
}

impl Lang {
    /// All supported languages, in the order the bot lists them.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ru, Lang::Uz];

    /// Parses a language a user typed (e.g. for `/lang`): a code (`en`,
    /// `ru-RU`) or the language's own name (`English`, `Русский`, `O'zbek`).
    /// Returns `None` when it names none of the supported languages.
    pub fn parse(input: &str) -> Option<Lang> {
        match fold(input.trim()).as_str() {
            "english" | "eng" | "английский" | "inglizcha" | "ingliz" => Some(Lang::En),
            "russian" | "русский" | "рус" | "ruscha" | "rus" => Some(Lang::Ru),
            "uzbek" | "o'zbek" | "o'zbekcha" | "узбекский" | "ўзбек" | "ўзбекча" => {
                Some(Lang::Uz)
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

    /// The language whose two-letter code (as [`Lang::as_str`] writes it) is `code`, exactly.
    pub fn from_stored(code: &str) -> Option<Lang> {
        Self::ALL.into_iter().find(|lang| lang.as_str() == code)
    }

    /// The two-letter code, as stored in the database and used for locale files.
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
            Lang::Uz => "uz",
        }
    }

    fn primary_subtag(lowercase_tag: &str) -> Option<Lang> {
        match lowercase_tag.split(['-', '_']).next() {
            Some("en") => Some(Lang::En),
            Some("ru") => Some(Lang::Ru),
            Some("uz") => Some(Lang::Uz),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    fn as_str_round_trips() {
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.as_str()), Some(lang));
        }
    }
}
