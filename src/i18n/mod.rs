//! Translations: Fluent strings from `locales/{en,ru,uz}/*.ftl`, embedded at compile time.
//! Uzbek in Cyrillic is the Uzbek strings transliterated ([`crate::domain::script::cyrillic`]), the values put into
//! them left as they are.
//!
//! The strings are plain text; markup lives in the askama templates, which escape everything a
//! string returns (user text passed as an argument included). Fluent's Unicode isolation marks are
//! off: they would end up in Telegram messages. Dates, times and durations are put into words in
//! [`dates`], the one place for them.

pub mod dates;
#[cfg(test)]
mod locale_files;
pub mod repeats;

use std::borrow::Cow;
use std::collections::HashMap;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader, langid, static_loader};

use crate::domain::lang::Lang;

static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// Text arguments that only select a variant (`{ $code -> [mar] mart … }` in `dates.ftl`) and
/// never appear in the text: unlike values shown in a message, they do not keep the words they
/// select from being transliterated (`mar` selects `mart`, which is Cyrillic `март`).
const SELECTOR_ARGS: &[&str] = &["code"];

/// The translator of one language, handed to templates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tr {
    lang: Lang,
}

impl Tr {
    /// The translator for `lang`.
    pub fn new(lang: Lang) -> Self {
        Self { lang }
    }

    /// The language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The string `key`; a missing key falls back to English, then to the key itself.
    pub fn t(&self, key: &str) -> String {
        self.in_script(LOCALES.lookup(&language_id(self.lang), key), &[])
    }

    /// The string `key` with named arguments (numbers select plural forms). Text arguments
    /// appear as given, in every script.
    pub fn t_with(&self, key: &str, args: &[(&str, Arg<'_>)]) -> String {
        let fluent: HashMap<Cow<'static, str>, FluentValue<'_>> = args
            .iter()
            .map(|(name, value)| (Cow::Owned((*name).to_owned()), value.to_fluent()))
            .collect();
        let text = LOCALES.lookup_with_args(&language_id(self.lang), key, &fluent);
        let kept: Vec<&str> = args
            .iter()
            .filter(|(name, _)| !SELECTOR_ARGS.contains(name))
            .filter_map(|(_, value)| match value {
                Arg::Text(text) => Some(*text),
                Arg::Number(_) => None,
            })
            .collect();
        self.in_script(text, &kept)
    }

    /// `text` in the script of the language: Uzbek in Cyrillic is transliterated, keeping `kept`.
    fn in_script(&self, text: String, kept: &[&str]) -> String {
        match self.lang {
            Lang::UzCyrl => crate::domain::script::cyrillic::to_cyrillic_keeping(&text, kept),
            Lang::En | Lang::Ru | Lang::Uz => text,
        }
    }
}

fn language_id(lang: Lang) -> LanguageIdentifier {
    match lang.base() {
        Lang::En => langid!("en"),
        Lang::Ru => langid!("ru"),
        Lang::Uz | Lang::UzCyrl => langid!("uz"),
    }
}

/// An argument of a translated string.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// Text, inserted as is (templates escape it).
    Text(&'a str),
    /// A number, which also selects the plural form.
    Number(i64),
}

impl Arg<'_> {
    fn to_fluent(self) -> FluentValue<'static> {
        match self {
            Self::Text(text) => FluentValue::String(Cow::Owned(text.to_owned())),
            Self::Number(n) => FluentValue::from(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_the_reminder_strings_without_isolation_marks() {
        for lang in Lang::ALL {
            let tr = Tr::new(lang);
            let title = tr.t("reminder-title");
            assert!(!title.is_empty() && title != "reminder-title", "{lang:?}");
            let due = tr.t_with("reminder-due", &[("when", Arg::Text("31.12 09:00"))]);
            assert!(
                due.contains("31.12 09:00") && !due.contains('\u{2068}'),
                "{due}"
            );
        }
        assert_ne!(
            Tr::new(Lang::Ru).t("button-done"),
            Tr::new(Lang::En).t("button-done")
        );
    }

    #[test]
    fn uzbek_in_cyrillic_transliterates_the_words_but_not_the_values() {
        let tr = Tr::new(Lang::UzCyrl);
        let months: Vec<String> = ["mar", "apr", "may", "sep"]
            .iter()
            .map(|code| tr.t_with("date-month", &[("code", Arg::Text(code))]))
            .collect();
        assert_eq!(months, ["март", "апрел", "май", "сентябр"]);
        assert_eq!(
            tr.t_with("done-ok", &[("text", Arg::Text("non olish"))]),
            "Бажарилди: non olish"
        );
        assert_eq!(tr.t("reminder-title"), "Эслатма");
    }
}
