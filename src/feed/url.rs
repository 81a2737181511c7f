//! `PUBLIC_URL`: the bot's public base URL (the one a reverse proxy puts in front of the
//! side-car), from which a chat's feed URL is made. Its path is a prefix the side-car serves the
//! feed under, as the proxy passes it on (as the webhook's path is).

use std::fmt;
use std::str::FromStr;

use crate::domain::feed_secret::FeedSecret;

/// The bot's public base URL: `http(s)://host[:port][/prefix]`, without query or fragment.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicUrl {
    /// Scheme, host and port, without a trailing slash: `https://bot.example.org`.
    origin: String,
    /// The path prefix without a trailing slash: `""` or `/remindbot`.
    prefix: String,
}

/// Why a text is not a public URL.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PublicUrlError {
    /// Not a URL at all.
    #[error("PUBLIC_URL is not a URL: {0}")]
    Unreadable(String),
    /// Not http or https.
    #[error("PUBLIC_URL must be an https:// (or, for a local stand-in, http://) URL")]
    Scheme,
    /// A query, a fragment or a user.
    #[error(
        "PUBLIC_URL must be a base URL: scheme, host, optional port and path, without user, \
         query or fragment"
    )]
    NotABase,
}

impl FromStr for PublicUrl {
    type Err = PublicUrlError;

    fn from_str(text: &str) -> Result<Self, PublicUrlError> {
        let url = reqwest::Url::parse(text.trim())
            .map_err(|error| PublicUrlError::Unreadable(error.to_string()))?;
        if !matches!(url.scheme(), "https" | "http") {
            return Err(PublicUrlError::Scheme);
        }
        let host = url.host_str().ok_or(PublicUrlError::NotABase)?;
        if url.query().is_some()
            || url.fragment().is_some()
            || !url.username().is_empty()
            || url.password().is_some()
        {
            return Err(PublicUrlError::NotABase);
        }
        let origin = match url.port() {
            Some(port) => format!("{}://{host}:{port}", url.scheme()),
            None => format!("{}://{host}", url.scheme()),
        };
        Ok(Self {
            origin,
            prefix: url.path().trim_end_matches('/').to_owned(),
        })
    }
}

impl fmt::Debug for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicUrl({}{})", self.origin, self.prefix)
    }
}

/// A chat's feed URL both ways a calendar app takes it.
#[derive(Clone, PartialEq, Eq)]
pub struct FeedUrls {
    /// `https://…/calendar/<secret>.ics`: for Google Calendar's "From URL" and a browser.
    pub https: String,
    /// `webcal://…/calendar/<secret>.ics`: opens the subscription in Apple Calendar, Outlook and
    /// Thunderbird.
    pub webcal: String,
}

impl PublicUrl {
    /// The side-car's route of the feeds: `<prefix>/calendar/{file}`.
    pub fn feed_route(&self) -> String {
        format!("{}/calendar/{{file}}", self.prefix)
    }

    /// The path prefix the side-car serves under (`""` or `/remindbot`).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Whether the URL is https (Telegram opens Mini Apps only over https, outside its test
    /// environment).
    pub fn is_https(&self) -> bool {
        self.origin.starts_with("https://")
    }

    /// The Mini App's URL: `<PUBLIC_URL>/app/`.
    pub fn app_url(&self) -> String {
        format!("{}{}/app/", self.origin, self.prefix)
    }

    /// The feed URLs of `secret`.
    pub fn feed_urls(&self, secret: &FeedSecret) -> FeedUrls {
        let https = format!(
            "{}{}/calendar/{}.ics",
            self.origin,
            self.prefix,
            secret.expose()
        );
        let rest = https.split_once("://").map_or("", |(_, rest)| rest);
        FeedUrls {
            webcal: format!("webcal://{rest}"),
            https,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_urls_sit_under_the_public_url_and_its_path() {
        let secret = FeedSecret::generate();
        let hex = secret.expose();
        let base: PublicUrl = "https://bot.example.org/remindbot/".parse().unwrap();
        let urls = base.feed_urls(&secret);
        assert_eq!(
            urls.https,
            format!("https://bot.example.org/remindbot/calendar/{hex}.ics")
        );
        assert_eq!(
            urls.webcal,
            format!("webcal://bot.example.org/remindbot/calendar/{hex}.ics")
        );
        assert_eq!(base.feed_route(), "/remindbot/calendar/{file}");
        let bare: PublicUrl = "http://127.0.0.1:8080".parse().unwrap();
        assert_eq!(
            bare.feed_urls(&secret).https,
            format!("http://127.0.0.1:8080/calendar/{hex}.ics")
        );
        assert_eq!(bare.feed_route(), "/calendar/{file}");
    }

    #[test]
    fn only_a_base_url_is_a_public_url() {
        for (text, error) in [
            ("ftp://example.org", PublicUrlError::Scheme),
            ("https://example.org/?a=1", PublicUrlError::NotABase),
            ("https://example.org/#top", PublicUrlError::NotABase),
            ("https://user:pw@example.org/", PublicUrlError::NotABase),
        ] {
            assert_eq!(text.parse::<PublicUrl>(), Err(error), "{text}");
        }
        assert!(matches!(
            "not a url".parse::<PublicUrl>(),
            Err(PublicUrlError::Unreadable(_))
        ));
    }
}
