//! Telegram's Mini App launch data (`initData`), validated exactly as the Bot API documents
//! (<https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app>): the
//! data-check-string is every field but `hash` as `key=value`, sorted by key and joined with
//! `\n`; its HMAC-SHA256 under the secret key HMAC-SHA256(key = "WebAppData", message = bot
//! token) must equal `hash` (compared in constant time); `auth_date` must be recent. The user
//! the app acts for is the one Telegram signed, never an id the page sends.

use std::time::Duration;

use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use sha2::Sha256;

use crate::domain::ids::UserId;

/// How far in the future an `auth_date` may lie (the clocks of Telegram and this host differ a
/// little); anything later is refused.
pub const CLOCK_SKEW: Duration = Duration::from_secs(30);

/// Why launch data was refused. Every case answers 401; the reason goes to the log only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitDataError {
    /// No launch data was sent.
    #[error("no initData")]
    Missing,
    /// Not a query string of unique fields with a hex `hash`, `auth_date` and `user`.
    #[error("malformed initData: {0}")]
    Malformed(&'static str),
    /// The signature does not match: forged, altered, or signed for another bot.
    #[error("initData signature does not match")]
    BadSignature,
    /// Signed longer ago than allowed.
    #[error("initData is older than allowed")]
    Expired,
    /// Signed in the future.
    #[error("initData is dated in the future")]
    FromTheFuture,
}

/// The user Telegram signed, with what the page may use of their profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedUser {
    /// Their Telegram id (their private chat's id too).
    pub id: UserId,
    /// The language of their Telegram client, if sent.
    pub language_code: Option<String>,
    /// When Telegram signed the data.
    pub auth_date: DateTime<Utc>,
}

/// The fields of `WebAppUser` the bot reads.
#[derive(Deserialize)]
struct WebAppUser {
    id: i64,
    #[serde(default)]
    language_code: Option<String>,
}

/// Checks `init_data` (the query string `Telegram.WebApp.initData`) against `bot_token`: signed
/// by Telegram for this bot, dated within `max_age` before `now` and not after it.
pub fn validate(
    init_data: &str,
    bot_token: &str,
    now: DateTime<Utc>,
    max_age: Duration,
) -> Result<SignedUser, InitDataError> {
    if init_data.trim().is_empty() {
        return Err(InitDataError::Missing);
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    for (key, value) in form_urlencoded::parse(init_data.as_bytes()) {
        if fields.iter().any(|(k, _)| *k == key) {
            return Err(InitDataError::Malformed("a field appears twice"));
        }
        fields.push((key.into_owned(), value.into_owned()));
    }
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let hash = field("hash")
        .and_then(decode_hex)
        .ok_or(InitDataError::Malformed("no hex hash"))?;
    let mut pairs: Vec<String> = fields
        .iter()
        .filter(|(k, _)| k != "hash")
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    pairs.sort_unstable();
    let data_check_string = pairs.join("\n");
    let secret = mac(b"WebAppData")
        .chain_update(bot_token.as_bytes())
        .finalize()
        .into_bytes();
    mac(&secret)
        .chain_update(data_check_string.as_bytes())
        .verify_slice(&hash)
        .map_err(|_| InitDataError::BadSignature)?;
    let auth_date = field("auth_date")
        .and_then(|d| d.parse::<i64>().ok())
        .and_then(|d| DateTime::from_timestamp(d, 0))
        .ok_or(InitDataError::Malformed("no auth_date"))?;
    let age = now.signed_duration_since(auth_date);
    if age > chrono::Duration::from_std(max_age).unwrap_or(chrono::Duration::MAX) {
        return Err(InitDataError::Expired);
    }
    if -age > chrono::Duration::from_std(CLOCK_SKEW).unwrap_or(chrono::Duration::zero()) {
        return Err(InitDataError::FromTheFuture);
    }
    let user: WebAppUser = field("user")
        .and_then(|u| serde_json::from_str(u).ok())
        .ok_or(InitDataError::Malformed("no user"))?;
    Ok(SignedUser {
        id: UserId(user.id),
        language_code: user.language_code,
        auth_date,
    })
}

/// The scheme of the `Authorization` header that carries launch data: `Authorization: tma
/// <initData>` (a header, not a cookie, so that no other site can make a browser send it).
pub const AUTH_SCHEME: &str = "tma";

/// The launch data of an `Authorization: tma <initData>` header value, validated as
/// [`validate`] does; another scheme or no header is [`InitDataError::Missing`].
pub fn from_authorization(
    header: Option<&str>,
    bot_token: &str,
    now: DateTime<Utc>,
    max_age: Duration,
) -> Result<SignedUser, InitDataError> {
    let init_data = header
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(AUTH_SCHEME))
        .map(|(_, data)| data.trim())
        .ok_or(InitDataError::Missing)?;
    validate(init_data, bot_token, now, max_age)
}

/// An HMAC-SHA256 keyed with `key`.
fn mac(key: &[u8]) -> Hmac<Sha256> {
    <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes keys of any length")
}

/// 32 bytes from 64 hex digits (either case).
fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 {
        return None;
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| {
            let digit = |b: u8| char::from(b).to_digit(16);
            u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "123456:TEST";
    const MAX_AGE: Duration = Duration::from_secs(3600);

    /// Signed apart from this code, with Python's standard library:
    /// ```text
    /// import hmac, hashlib, urllib.parse
    /// user = '{"id":279058397,"first_name":"Vlad","language_code":"ru"}'
    /// f = {"query_id": "AAHdF6IQAAAAAN0XohDhrOrc", "user": user, "auth_date": "1700000000"}
    /// dcs = "\n".join(f"{k}={v}" for k, v in sorted(f.items()))
    /// s = hmac.new(b"WebAppData", b"123456:TEST", hashlib.sha256).digest()
    /// urllib.parse.urlencode(f | {"hash": hmac.new(s, dcs.encode(), hashlib.sha256).hexdigest()})
    /// ```
    const SIGNED: &str = "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vlad%22%2C%22language_code%22%3A%22ru%22%7D&auth_date=1700000000&hash=b766ffc9871896a664d0d30e6673f1dabd3b07eb75b0fcd7948d495736d065c5";

    fn at(unix: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(unix, 0).unwrap()
    }

    #[test]
    fn data_signed_by_telegram_yields_its_user() {
        let user = validate(SIGNED, TOKEN, at(1_700_000_060), MAX_AGE).unwrap();
        assert_eq!(user.id, UserId(279_058_397));
        assert_eq!(user.language_code.as_deref(), Some("ru"));
        assert_eq!(user.auth_date, at(1_700_000_000));
    }

    #[test]
    fn data_the_simulator_signs_is_accepted() {
        let data = tgsim::InitData {
            query_id: "AAH1".to_owned(),
            user: tgsim::WebAppUser {
                id: 42,
                first_name: "Ann & Bob = \"friends\"".to_owned(),
                last_name: None,
                username: Some("ann".to_owned()),
                language_code: Some("uz".to_owned()),
                allows_write_to_pm: Some(true),
            },
            auth_date: 1_700_000_000,
        };
        let user = validate(&data.sign(TOKEN), TOKEN, at(1_700_000_001), MAX_AGE).unwrap();
        assert_eq!(
            (user.id, user.language_code.as_deref()),
            (UserId(42), Some("uz"))
        );
    }

    #[test]
    fn data_for_another_bot_or_altered_is_refused() {
        let now = at(1_700_000_060);
        assert_eq!(
            validate(SIGNED, "123456:OTHER", now, MAX_AGE),
            Err(InitDataError::BadSignature)
        );
        let other_user = SIGNED.replace("279058397", "279058398");
        assert_eq!(
            validate(&other_user, TOKEN, now, MAX_AGE),
            Err(InitDataError::BadSignature)
        );
        let later = SIGNED.replace("auth_date=1700000000", "auth_date=1700000600");
        assert_eq!(
            validate(&later, TOKEN, now, MAX_AGE),
            Err(InitDataError::BadSignature)
        );
        let extra = format!("{SIGNED}&chat_type=private");
        assert_eq!(
            validate(&extra, TOKEN, now, MAX_AGE),
            Err(InitDataError::BadSignature)
        );
    }

    #[test]
    fn old_and_future_data_is_refused() {
        assert_eq!(
            validate(SIGNED, TOKEN, at(1_700_000_000 + 3601), MAX_AGE).unwrap_err(),
            InitDataError::Expired
        );
        assert!(validate(SIGNED, TOKEN, at(1_700_000_000 + 3600), MAX_AGE).is_ok());
        assert_eq!(
            validate(SIGNED, TOKEN, at(1_700_000_000 - 31), MAX_AGE).unwrap_err(),
            InitDataError::FromTheFuture
        );
    }

    #[test]
    fn the_authorization_header_carries_it_under_the_tma_scheme() {
        let now = at(1_700_000_060);
        let header = format!("tma {SIGNED}");
        let user = from_authorization(Some(&header), TOKEN, now, MAX_AGE).unwrap();
        assert_eq!(user.id, UserId(279_058_397));
        let bearer = format!("Bearer {SIGNED}");
        assert_eq!(
            from_authorization(Some(&bearer), TOKEN, now, MAX_AGE),
            Err(InitDataError::Missing)
        );
        assert_eq!(
            from_authorization(None, TOKEN, now, MAX_AGE),
            Err(InitDataError::Missing)
        );
    }

    #[test]
    fn missing_or_malformed_data_is_refused() {
        let now = at(1_700_000_060);
        assert_eq!(
            validate("", TOKEN, now, MAX_AGE),
            Err(InitDataError::Missing)
        );
        let without_hash = SIGNED.split("&hash=").next().unwrap();
        assert!(matches!(
            validate(without_hash, TOKEN, now, MAX_AGE),
            Err(InitDataError::Malformed(_))
        ));
        let doubled = format!("{SIGNED}&hash=00");
        assert!(matches!(
            validate(&doubled, TOKEN, now, MAX_AGE),
            Err(InitDataError::Malformed(_))
        ));
        let short_hash = format!("{without_hash}&hash=abcd");
        assert!(matches!(
            validate(&short_hash, TOKEN, now, MAX_AGE),
            Err(InitDataError::Malformed(_))
        ));
    }
}
