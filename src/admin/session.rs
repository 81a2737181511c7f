//! Access to the admin page: the `ADMIN_TOKEN`, compared in constant time, presented either as a
//! bearer header (scripts) or once through a login form that sets a session cookie (browsers).
//! Sessions live in memory and carry a CSRF token that every form POST must echo.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use axum::http::header::{AUTHORIZATION, COOKIE};

/// The session cookie's name.
pub const COOKIE_NAME: &str = "remindbot_admin";
/// How long a session lasts without being used.
const SESSION_IDLE: Duration = Duration::from_secs(8 * 3600);

/// Who is asking, once authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// A browser session, with the CSRF token its forms must carry.
    Session {
        /// The session's CSRF token.
        csrf: String,
    },
    /// A script presenting the token as `Authorization: Bearer …` (no cookie, so no CSRF risk).
    Bearer,
}

/// The admin token and the open sessions.
#[derive(Clone)]
pub struct Sessions {
    token: Arc<str>,
    open: Arc<Mutex<HashMap<String, Session>>>,
}

struct Session {
    csrf: String,
    last_used: Instant,
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sessions { token: <hidden>, .. }")
    }
}

impl Sessions {
    /// Sessions guarded by `token`.
    pub fn new(token: &str) -> Self {
        Self {
            token: token.into(),
            open: Arc::default(),
        }
    }

    /// Whether `candidate` is the admin token (constant time).
    pub fn token_matches(&self, candidate: &str) -> bool {
        constant_time_eq(candidate.as_bytes(), self.token.as_bytes())
    }

    /// Opens a session after a correct login; returns its id (the cookie value).
    pub fn open(&self) -> String {
        let id = random_hex();
        let session = Session {
            csrf: random_hex(),
            last_used: Instant::now(),
        };
        let mut open = self.open.lock().expect("sessions poisoned");
        open.retain(|_, s| s.last_used.elapsed() < SESSION_IDLE);
        open.insert(id.clone(), session);
        id
    }

    /// Ends the session named by the request's cookie.
    pub fn close(&self, headers: &HeaderMap) {
        if let Some(id) = cookie(headers, COOKIE_NAME) {
            self.open.lock().expect("sessions poisoned").remove(&id);
        }
    }

    /// Who the request comes from, if anyone allowed.
    pub fn access(&self, headers: &HeaderMap) -> Option<Access> {
        if let Some(bearer) = headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
        {
            return self.token_matches(bearer.trim()).then_some(Access::Bearer);
        }
        let id = cookie(headers, COOKIE_NAME)?;
        let mut open = self.open.lock().expect("sessions poisoned");
        let session = open.get_mut(&id)?;
        if session.last_used.elapsed() >= SESSION_IDLE {
            open.remove(&id);
            return None;
        }
        session.last_used = Instant::now();
        Some(Access::Session {
            csrf: session.csrf.clone(),
        })
    }
}

impl Access {
    /// Whether a form POST may proceed: sessions must echo their CSRF token.
    pub fn allows_post(&self, presented_csrf: Option<&str>) -> bool {
        match self {
            Self::Bearer => true,
            Self::Session { csrf } => presented_csrf
                .is_some_and(|given| constant_time_eq(given.as_bytes(), csrf.as_bytes())),
        }
    }

    /// The CSRF token forms must carry (empty for bearer access).
    pub fn csrf(&self) -> &str {
        match self {
            Self::Session { csrf } => csrf,
            Self::Bearer => "",
        }
    }
}

/// Compares two byte strings in time that depends only on their lengths.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = u8::from(a.len() != b.len());
    for (i, x) in a.iter().enumerate() {
        diff |= x ^ b.get(i % b.len().max(1)).copied().unwrap_or(0);
    }
    diff == 0
}

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_owned())
}

fn random_hex() -> String {
    rand::random::<[u8; 32]>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_time_eq_compares_content_and_length() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"", b"x"));
        assert!(!constant_time_eq(b"x", b""));
        assert!(constant_time_eq(b"", b""));
    }

    #[test]
    fn sessions_carry_a_csrf_token_that_posts_must_echo() {
        let sessions = Sessions::new("t0ken");
        let id = sessions.open();
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            format!("other=1; {COOKIE_NAME}={id}").parse().unwrap(),
        );
        let access = sessions.access(&headers).unwrap();
        assert!(access.allows_post(Some(access.csrf())));
        assert!(!access.allows_post(Some("forged")));
        assert!(!access.allows_post(None));
        sessions.close(&headers);
        assert_eq!(sessions.access(&headers), None);
        assert!(!format!("{sessions:?}").contains("t0ken"));
    }
}
