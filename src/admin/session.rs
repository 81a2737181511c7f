//! Access to the admin page: the admin token (at least [`MIN_TOKEN_CHARS`] characters), compared
//! in constant time, presented either as a bearer header (scripts) or once through a login form
//! that sets a session cookie (browsers). Every token check goes through the [`throttle`]: the
//! right token always passes; the answers to wrong ones are held back for a growing while per
//! client address and while all addresses fail too often (at most a few at once: [`holds`]), and
//! each one is logged with the address, never the token. Sessions live in memory, end after an
//! idle time and at the latest a fixed time after login, and carry a CSRF token that every form
//! POST must echo.

pub mod holds;
pub mod throttle;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use axum::http::header::{AUTHORIZATION, COOKIE};
use secrecy::{ExposeSecret, SecretString};

use self::holds::{Hold, Holds};
use self::throttle::{Attempt, Failure, SlowdownPolicy, Throttle};

/// The session cookie's name.
pub const COOKIE_NAME: &str = "remindbot_admin";
/// The fewest characters an admin token may have.
pub const MIN_TOKEN_CHARS: usize = 32;
/// How long a session lasts without being used.
pub const SESSION_IDLE: Duration = Duration::from_secs(8 * 3600);
/// How long a session lasts at most after its login, however busy.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 3600);

/// The admin token: a secret of at least [`MIN_TOKEN_CHARS`] characters, so that guessing it is
/// hopeless. Its `Debug` hides it.
#[derive(Clone)]
pub struct AdminToken(SecretString);

/// A token too short to be an admin token.
#[derive(Debug, thiserror::Error)]
#[error(
    "the admin token is too short: it needs at least {MIN_TOKEN_CHARS} characters; \
     make one with `openssl rand -hex 32`"
)]
pub struct WeakToken;

impl AdminToken {
    /// `token` as the admin token, if it is long enough.
    pub fn new(token: SecretString) -> Result<Self, WeakToken> {
        if token.expose_secret().chars().count() < MIN_TOKEN_CHARS {
            return Err(WeakToken);
        }
        Ok(Self(token))
    }

    /// How many characters the token has (for `remindbot check`; the token itself stays hidden).
    pub fn len(&self) -> usize {
        self.0.expose_secret().chars().count()
    }

    /// Always false: a token has at least [`MIN_TOKEN_CHARS`] characters.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// How many different characters the token uses: few means it was typed, not generated.
    pub fn distinct_characters(&self) -> usize {
        self.0
            .expose_secret()
            .chars()
            .collect::<std::collections::HashSet<_>>()
            .len()
    }

    /// Whether `candidate` is the token (constant time).
    fn matches(&self, candidate: &str) -> bool {
        constant_time_eq(candidate.as_bytes(), self.0.expose_secret().as_bytes())
    }
}

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AdminToken(<hidden>)")
    }
}

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

/// Why a request is not let in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// No token and no live session: sign in.
    SignIn,
    /// A wrong token.
    WrongToken,
    /// A wrong token, from an address (or at a time) with too many: its answer is held back
    /// this long (see [`Guard::hold`]).
    Slowed(Duration),
}

/// How a token was presented (for the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    Form,
    Bearer,
}

impl Via {
    fn as_str(self) -> &'static str {
        match self {
            Self::Form => "form",
            Self::Bearer => "bearer",
        }
    }
}

/// The admin token, the throttle on checking it, and the open sessions.
#[derive(Clone)]
pub struct Guard {
    token: AdminToken,
    throttle: Arc<Throttle>,
    holds: Holds,
    open: Arc<Mutex<HashMap<String, OpenSession>>>,
}

struct OpenSession {
    csrf: String,
    opened: Instant,
    last_used: Instant,
}

impl OpenSession {
    fn alive(&self, now: Instant) -> bool {
        now.duration_since(self.last_used) < SESSION_IDLE
            && now.duration_since(self.opened) < SESSION_LIFETIME
    }
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Guard { token: <hidden>, .. }")
    }
}

impl Guard {
    /// Access guarded by `token`, wrong tokens slowed down by `policy`.
    pub fn new(token: AdminToken, policy: SlowdownPolicy) -> Self {
        Self {
            token,
            throttle: Arc::new(Throttle::new(policy)),
            holds: Holds::default(),
            open: Arc::default(),
        }
    }

    /// The right to hold back the answer to `client`'s slowed wrong token while it waits; `None`
    /// when as many answers are held as may be (then it is answered at once).
    pub fn hold(&self, client: IpAddr) -> Option<Hold> {
        self.holds.try_hold(client)
    }

    /// Signs `client` in with the token it typed, at `now`: the new session's id (the cookie
    /// value), or why not.
    pub fn sign_in(
        &self,
        client: IpAddr,
        presented: &str,
        now: Instant,
    ) -> Result<String, Refused> {
        self.check(client, presented, Via::Form, now)?;
        Ok(self.open(now))
    }

    /// Ends the session named by the request's cookie.
    pub fn sign_out(&self, headers: &HeaderMap) {
        if let Some(id) = cookie(headers, COOKIE_NAME) {
            self.open.lock().expect("sessions poisoned").remove(&id);
        }
    }

    /// Who the request from `client` comes from at `now`: a bearer token (checked and throttled
    /// like a sign-in) or else a live session cookie.
    pub fn access(
        &self,
        headers: &HeaderMap,
        client: IpAddr,
        now: Instant,
    ) -> Result<Access, Refused> {
        if let Some(bearer) = bearer(headers) {
            self.check(client, bearer, Via::Bearer, now)?;
            return Ok(Access::Bearer);
        }
        let id = cookie(headers, COOKIE_NAME).ok_or(Refused::SignIn)?;
        self.session(&id, now).ok_or(Refused::SignIn)
    }

    /// Checks `presented` (first, whatever came before) through the throttle and logs a wrong
    /// one (without it).
    fn check(
        &self,
        client: IpAddr,
        presented: &str,
        via: Via,
        now: Instant,
    ) -> Result<(), Refused> {
        match self
            .throttle
            .attempt(client, now, || self.token.matches(presented))
        {
            Attempt::Passed => Ok(()),
            Attempt::Failed(failure) => {
                log_failure(client, via, failure);
                if failure.delay.is_zero() {
                    Err(Refused::WrongToken)
                } else {
                    Err(Refused::Slowed(failure.delay))
                }
            }
        }
    }

    /// Opens a session at `now`; returns its id.
    fn open(&self, now: Instant) -> String {
        let id = random_hex();
        let session = OpenSession {
            csrf: random_hex(),
            opened: now,
            last_used: now,
        };
        let mut open = self.open.lock().expect("sessions poisoned");
        open.retain(|_, s| s.alive(now));
        open.insert(id.clone(), session);
        id
    }

    /// The live session `id` at `now`, marked used.
    fn session(&self, id: &str, now: Instant) -> Option<Access> {
        let mut open = self.open.lock().expect("sessions poisoned");
        let session = open.get_mut(id)?;
        if !session.alive(now) {
            open.remove(id);
            return None;
        }
        session.last_used = now;
        Some(Access::Session {
            csrf: session.csrf.clone(),
        })
    }
}

/// One warning per wrong token: the address, how it came, and what it cost; never the token.
fn log_failure(client: IpAddr, via: Via, failure: Failure) {
    tracing::warn!(
        %client,
        via = via.as_str(),
        failures = failure.failures,
        failures_last_minute = failure.global_failures,
        delay_secs = failure.delay.as_secs_f64(),
        "wrong admin token"
    );
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

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
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
    use std::net::Ipv4Addr;

    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";
    const CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

    fn guard() -> Guard {
        let token = AdminToken::new(SecretString::from(TOKEN)).unwrap();
        Guard::new(token, SlowdownPolicy::default())
    }

    fn with_cookie(id: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            format!("other=1; {COOKIE_NAME}={id}").parse().unwrap(),
        );
        headers
    }

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
    fn a_token_under_32_characters_is_refused_with_how_to_make_one() {
        let error = AdminToken::new(SecretString::from(&TOKEN[1..])).unwrap_err();
        assert!(
            error.to_string().contains("openssl rand -hex 32"),
            "{error}"
        );
        assert!(AdminToken::new(SecretString::from("é".repeat(32))).is_ok());
        let token = AdminToken::new(SecretString::from(TOKEN)).unwrap();
        assert!(!format!("{token:?} {:?}", guard()).contains(TOKEN));
    }

    #[test]
    fn sessions_carry_a_csrf_token_that_posts_must_echo() {
        let guard = guard();
        let now = Instant::now();
        assert_eq!(
            guard.sign_in(CLIENT, "guess", now),
            Err(Refused::WrongToken)
        );
        let headers = with_cookie(&guard.sign_in(CLIENT, TOKEN, now).unwrap());
        let access = guard.access(&headers, CLIENT, now).unwrap();
        assert!(access.allows_post(Some(access.csrf())));
        assert!(!access.allows_post(Some("forged")));
        assert!(!access.allows_post(None));
        guard.sign_out(&headers);
        assert_eq!(guard.access(&headers, CLIENT, now), Err(Refused::SignIn));
    }

    #[test]
    fn a_session_ends_when_idle_and_at_the_latest_its_lifetime_after_login() {
        let guard = guard();
        let login = Instant::now();
        let busy = with_cookie(&guard.sign_in(CLIENT, TOKEN, login).unwrap());
        let idle = with_cookie(&guard.sign_in(CLIENT, TOKEN, login).unwrap());
        let mut now = login;
        while now + Duration::from_secs(3600) < login + SESSION_LIFETIME {
            now += Duration::from_secs(3600);
            assert!(guard.access(&busy, CLIENT, now).is_ok(), "used every hour");
        }
        assert_eq!(
            guard.access(&idle, CLIENT, login + SESSION_IDLE),
            Err(Refused::SignIn)
        );
        assert_eq!(
            guard.access(&busy, CLIENT, login + SESSION_LIFETIME),
            Err(Refused::SignIn),
            "the lifetime ends even a busy session"
        );
    }

    #[test]
    fn wrong_bearer_tokens_count_like_wrong_logins_and_the_right_token_always_passes() {
        let guard = guard();
        let now = Instant::now();
        let mut wrong = HeaderMap::new();
        wrong.insert(AUTHORIZATION, "Bearer guess".parse().unwrap());
        let free = SlowdownPolicy::default().free_failures;
        for _ in 0..free {
            assert_eq!(guard.access(&wrong, CLIENT, now), Err(Refused::WrongToken));
        }
        assert_eq!(
            guard.sign_in(CLIENT, "guess", now),
            Err(Refused::Slowed(Duration::from_secs(1)))
        );
        assert!(guard.sign_in(CLIENT, TOKEN, now).is_ok(), "at once");
        assert_eq!(guard.access(&wrong, CLIENT, now), Err(Refused::WrongToken));
    }
}
