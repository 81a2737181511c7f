//! Mini App launch data (`initData`) signed exactly as Telegram signs it, so that tests and the
//! sandbox can open a bot's Mini App as a simulated user. Telegram's recipe
//! (<https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app>): the
//! fields as a URL query string; `hash` is the hex HMAC-SHA256 of the data-check-string (every
//! other field as `key=value`, sorted by key, joined with `\n`) under the secret key
//! HMAC-SHA256(key = "WebAppData", message = bot token).

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::types::User;

/// `WebAppUser`: the user a Mini App was opened by, as the `user` field of `initData` carries it
/// (Telegram's field order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebAppUser {
    /// The user's id.
    pub id: i64,
    /// First name.
    pub first_name: String,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Username, without `@`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// IETF language tag of the user's Telegram client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language_code: Option<String>,
    /// The user allowed the bot to message them (true once they started it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allows_write_to_pm: Option<bool>,
}

impl From<&User> for WebAppUser {
    fn from(user: &User) -> Self {
        Self {
            id: user.id,
            first_name: user.first_name.clone(),
            last_name: user.last_name.clone(),
            username: user.username.clone(),
            language_code: user.language_code.clone(),
            allows_write_to_pm: Some(true),
        }
    }
}

/// What Telegram hands a Mini App opened from a bot's menu or keyboard button, before signing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitData {
    /// The session's id (for answerWebAppQuery).
    pub query_id: String,
    /// Who opened the Mini App.
    pub user: WebAppUser,
    /// Unix time the Mini App was opened.
    pub auth_date: i64,
}

impl InitData {
    /// The fields as `(key, value)` pairs in the order Telegram sends them, without `hash`.
    pub fn fields(&self) -> Vec<(String, String)> {
        let user = serde_json::to_string(&self.user).unwrap_or_default();
        vec![
            ("query_id".to_owned(), self.query_id.clone()),
            ("user".to_owned(), user),
            ("auth_date".to_owned(), self.auth_date.to_string()),
        ]
    }

    /// The `initData` string (`Telegram.WebApp.initData`) signed with `bot_token`.
    pub fn sign(&self, bot_token: &str) -> String {
        let fields = self.fields();
        let hash = hash_hex(bot_token, &data_check_string(&fields));
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (key, value) in &fields {
            query.append_pair(key, value);
        }
        query.append_pair("hash", &hash);
        query.finish()
    }
}

/// The data-check-string of decoded fields: every field but `hash` as `key=value`, sorted by
/// key, joined with line feeds.
pub fn data_check_string(fields: &[(String, String)]) -> String {
    let mut pairs: Vec<String> = fields
        .iter()
        .filter(|(key, _)| key != "hash")
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    pairs.sort();
    pairs.join("\n")
}

/// The hex `hash` of a data-check-string: HMAC-SHA256 under HMAC-SHA256("WebAppData", token).
pub fn hash_hex(bot_token: &str, data_check_string: &str) -> String {
    let secret = hmac_sha256(b"WebAppData", bot_token.as_bytes());
    hmac_sha256(&secret, data_check_string.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    // HMAC takes keys of any length.
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC accepts any key length");
    mac.update(message);
    mac.finalize().into_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A vector computed apart from this code, with Python's standard library:
    /// ```text
    /// import hmac, hashlib
    /// s = hmac.new(b"WebAppData", b"123456:TEST", hashlib.sha256).digest()
    /// hmac.new(s, b"auth_date=1700000000\nquery_id=AAHdF6IQAAAAAN0XohDhrOrc\n"
    ///     b'user={"id":279058397,"first_name":"Vlad"}', hashlib.sha256).hexdigest()
    /// ```
    #[test]
    fn hash_matches_an_independent_computation() {
        let fields = vec![
            ("query_id".to_owned(), "AAHdF6IQAAAAAN0XohDhrOrc".to_owned()),
            (
                "user".to_owned(),
                r#"{"id":279058397,"first_name":"Vlad"}"#.to_owned(),
            ),
            ("auth_date".to_owned(), "1700000000".to_owned()),
        ];
        assert_eq!(
            hash_hex("123456:TEST", &data_check_string(&fields)),
            PYTHON_HASH
        );
    }

    const PYTHON_HASH: &str = "e3f1c0a3cdd7fae7c63f8eed5264a58c5df142a0234300670c81ca932185d323";

    #[test]
    fn signed_init_data_decodes_to_its_fields_and_hash() {
        let data = InitData {
            query_id: "AAH1".to_owned(),
            user: WebAppUser {
                id: 42,
                first_name: "Ann Lee & co".to_owned(),
                last_name: None,
                username: None,
                language_code: Some("ru".to_owned()),
                allows_write_to_pm: Some(true),
            },
            auth_date: 1_700_000_000,
        };
        let signed = data.sign("1:T");
        let decoded: Vec<(String, String)> = form_urlencoded::parse(signed.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let hash = decoded.iter().find(|(k, _)| k == "hash").unwrap().1.clone();
        assert_eq!(hash, hash_hex("1:T", &data_check_string(&decoded)));
        assert_ne!(hash, hash_hex("1:U", &data_check_string(&decoded)));
        let user = &decoded.iter().find(|(k, _)| k == "user").unwrap().1;
        assert_eq!(serde_json::from_str::<WebAppUser>(user).unwrap(), data.user);
    }
}
