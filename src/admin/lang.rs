//! The admin page's language (English, Russian or Uzbek): what the admin's browser asks for
//! (`Accept-Language`), unless they chose one with the page's language links (`?lang=ru` on any
//! admin URL), which a cookie then remembers for a year.

use axum::http::header::{ACCEPT_LANGUAGE, COOKIE};
use axum::http::{HeaderMap, HeaderValue};

use crate::domain::lang::Lang;

/// The cookie that remembers a chosen language.
pub const LANG_COOKIE: &str = "remindbot_admin_lang";

/// The language of one admin request, and whether the request chose it (then the response sets
/// [`LANG_COOKIE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLang {
    /// The language to show the page in.
    pub lang: Lang,
    /// Whether `?lang=` chose it just now.
    pub chosen: bool,
}

impl PageLang {
    /// The language of a request with `headers` and the query string `query`: `?lang=` first,
    /// then the cookie, then `Accept-Language`, then English.
    pub fn of(headers: &HeaderMap, query: Option<&str>) -> Self {
        if let Some(lang) = query.and_then(from_query) {
            return Self { lang, chosen: true };
        }
        let lang = from_cookie(headers)
            .or_else(|| from_accept_language(headers))
            .unwrap_or(Lang::En);
        Self {
            lang,
            chosen: false,
        }
    }

    /// The `Set-Cookie` value that remembers a chosen language, if one was chosen.
    pub fn cookie(self, secure: bool) -> Option<HeaderValue> {
        if !self.chosen {
            return None;
        }
        let secure = if secure { "; Secure" } else { "" };
        HeaderValue::from_str(&format!(
            "{LANG_COOKIE}={}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=31536000{secure}",
            self.lang.as_str()
        ))
        .ok()
    }
}

/// `lang=xx` in a query string, for a language the page speaks.
fn from_query(query: &str) -> Option<Lang> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("lang="))
        .and_then(known)
}

fn from_cookie(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(LANG_COOKIE)?.strip_prefix('='))
        .and_then(known)
}

/// The language the browser prefers most among those the page speaks (by `q`, ties in order).
fn from_accept_language(headers: &HeaderMap) -> Option<Lang> {
    let value = headers.get(ACCEPT_LANGUAGE)?.to_str().ok()?;
    let mut best: Option<(Lang, f32)> = None;
    for range in value.split(',') {
        let mut parts = range.split(';');
        let tag = parts.next().unwrap_or_default().trim();
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        let primary = tag.split('-').next().unwrap_or_default();
        if let Some(lang) = known(primary)
            && q > 0.0
            && best.is_none_or(|(_, best_q)| q > best_q)
        {
            best = Some((lang, q));
        }
    }
    best.map(|(lang, _)| lang)
}

/// A language code the page speaks.
fn known(code: &str) -> Option<Lang> {
    Lang::ALL
        .into_iter()
        .find(|lang| lang.as_str().eq_ignore_ascii_case(code.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn the_link_wins_then_the_cookie_then_the_browser() {
        let browser = headers(&[("accept-language", "de-DE,ru;q=0.8,en;q=0.5")]);
        assert_eq!(PageLang::of(&browser, None).lang, Lang::Ru);
        let remembered = headers(&[
            ("accept-language", "ru"),
            ("cookie", "remindbot_admin=abc; remindbot_admin_lang=uz"),
        ]);
        assert_eq!(PageLang::of(&remembered, None).lang, Lang::Uz);
        let chosen = PageLang::of(&remembered, Some("page=2&lang=en"));
        assert_eq!(
            chosen,
            PageLang {
                lang: Lang::En,
                chosen: true
            }
        );
        assert!(chosen.cookie(false).is_some());
        assert_eq!(PageLang::of(&remembered, None).cookie(false), None);
    }

    #[test]
    fn anything_else_is_english() {
        assert_eq!(PageLang::of(&HeaderMap::new(), None).lang, Lang::En);
        let odd = headers(&[("accept-language", "fr, de;q=0.9, uz;q=0")]);
        assert_eq!(PageLang::of(&odd, Some("lang=xx")).lang, Lang::En);
        assert!(!PageLang::of(&odd, Some("lang=<b>")).chosen);
    }
}
