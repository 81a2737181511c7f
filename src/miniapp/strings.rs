//! The page's strings: every message of `locales/<lang>/app.ftl`, in the user's language (Uzbek
//! in Cyrillic transliterated, as the chat's are).

use std::collections::BTreeMap;

use crate::i18n::Tr;

/// The English file, whose keys every language has (checked by the locale files' test).
const APP_FTL: &str = include_str!("../../locales/en/app.ftl");

/// The keys of `app.ftl` whose messages take no variable, in order: a message with a variable is
/// the server's to fill in (`Tr::t_with`), never the page's.
fn keys() -> impl Iterator<Item = &'static str> {
    APP_FTL.lines().filter_map(|line| {
        let (key, text) = line.split_once('=')?;
        if text.contains("{ $") || text.contains("{$") {
            return None;
        }
        let key = key.trim_end();
        let is_key = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        is_key.then_some(key)
    })
}

/// Every string of the page in `tr`'s language, by key (those without variables).
pub(crate) fn all(tr: Tr) -> BTreeMap<&'static str, String> {
    keys().map(|key| (key, tr.t(key))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lang::Lang;

    #[test]
    fn every_language_has_every_string_of_the_page() {
        let english = all(Tr::new(Lang::En));
        assert!(english.contains_key("app-section-today"), "{english:?}");
        assert!(
            !english.contains_key("app-err-when"),
            "a message with a variable is the server's to fill in"
        );
        for lang in Lang::CHOICES {
            let strings = all(Tr::new(lang));
            assert_eq!(strings.len(), english.len());
            for (key, text) in &strings {
                assert!(!text.is_empty() && text != key, "{lang:?} {key}");
            }
        }
        assert_ne!(
            all(Tr::new(Lang::Ru))["app-section-today"],
            english["app-section-today"]
        );
    }
}
