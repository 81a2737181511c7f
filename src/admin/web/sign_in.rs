//! Signing in and out of the admin page: the sign-in form, the token check (slowed per client
//! and globally when wrong), the session cookie, and the extractor every other page signs in with.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use askama::Template;
use axum::extract::{ConnectInfo, Form, FromRequestParts, State};
use axum::http::header::{RETRY_AFTER, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use super::common::{AdminState, CsrfForm, PageError, forbidden, remembering, see_other};
use crate::admin::lang::PageLang;
use crate::admin::session::{Access, COOKIE_NAME, Refused, SESSION_LIFETIME};
use crate::i18n::{Arg, Tr};

/// The caller's access; rejected with the sign-in page (401) or, for a slowed wrong token, after
/// its delay with 429.
pub(super) struct Authenticated(pub(super) Access);

impl FromRequestParts<AdminState> for Authenticated {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AdminState,
    ) -> Result<Self, Self::Rejection> {
        let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let client = state.trusted_proxies.client(peer.ip(), &parts.headers);
        let lang = PageLang::of(&parts.headers, parts.uri.query());
        match state.guard.access(&parts.headers, client, Instant::now()) {
            Ok(access) => Ok(Self(access)),
            Err(refused) => {
                let response = answer_refused(state, client, refused, lang)
                    .await
                    .into_response();
                Err(remembering(response, lang, state.cookie_secure))
            }
        }
    }
}

#[derive(Template)]
#[template(path = "admin/login.html")]
pub(super) struct LoginPage {
    tr: Tr,
    message: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct LoginForm {
    token: String,
}

pub(super) fn login_page(
    status: StatusCode,
    message: Option<String>,
    lang: PageLang,
) -> Result<Response, PageError> {
    let html = LoginPage {
        tr: Tr::new(lang.lang),
        message,
    }
    .render()?;
    Ok((status, Html(html)).into_response())
}

/// The answer to a refused request from `client` ([`refusal`]); a slowed wrong token's only after
/// its delay, unless as many answers are held back as may be.
pub(super) async fn answer_refused(
    state: &AdminState,
    client: IpAddr,
    refused: Refused,
    lang: PageLang,
) -> Result<Response, PageError> {
    if let Refused::Slowed(wait) = refused
        && let Some(_held) = state.guard.hold(client)
    {
        tokio::time::sleep(wait).await;
    }
    refusal(refused, lang)
}

/// The answer to a refused request: the sign-in page, with 401 or, for a slowed wrong token, 429
/// and `Retry-After` (the delay each further wrong token waits at least).
pub(super) fn refusal(refused: Refused, lang: PageLang) -> Result<Response, PageError> {
    let tr = Tr::new(lang.lang);
    match refused {
        Refused::SignIn => login_page(StatusCode::UNAUTHORIZED, None, lang),
        Refused::WrongToken => login_page(
            StatusCode::UNAUTHORIZED,
            Some(tr.t("admin-web-wrong-token")),
            lang,
        ),
        Refused::Slowed(wait) => {
            let secs = whole_seconds(wait);
            let message = tr.t_with(
                "admin-web-slowed",
                &[("secs", Arg::Number(i64::try_from(secs).unwrap_or(i64::MAX)))],
            );
            let mut response = login_page(StatusCode::TOO_MANY_REQUESTS, Some(message), lang)?;
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
            Ok(response)
        }
    }
}

/// `wait` rounded up to whole seconds, at least 1 (what `Retry-After` carries).
pub(super) fn whole_seconds(wait: Duration) -> u64 {
    u64::try_from(wait.as_millis().div_ceil(1000))
        .unwrap_or(u64::MAX)
        .max(1)
}

/// The session cookie: `id` for a new session, empty and expired to end one.
pub(super) fn session_cookie(id: &str, max_age: Duration, secure: bool) -> Option<HeaderValue> {
    let secure = if secure { "; Secure" } else { "" };
    let max_age = max_age.as_secs();
    HeaderValue::from_str(&format!(
        "{COOKIE_NAME}={id}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .ok()
}

pub(super) async fn login_form(
    State(state): State<AdminState>,
    lang: PageLang,
) -> Result<Response, PageError> {
    let response = login_page(StatusCode::OK, None, lang)?;
    Ok(remembering(response, lang, state.cookie_secure))
}

pub(super) async fn login(
    State(state): State<AdminState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    lang: PageLang,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, PageError> {
    let client = state.trusted_proxies.client(peer.ip(), &headers);
    let session = match state.guard.sign_in(client, &form.token, Instant::now()) {
        Ok(session) => session,
        Err(refused) => return answer_refused(&state, client, refused, lang).await,
    };
    let mut response = see_other("/admin");
    if let Some(cookie) = session_cookie(&session, SESSION_LIFETIME, state.cookie_secure) {
        response.headers_mut().insert(SET_COOKIE, cookie);
    }
    Ok(response)
}

pub(super) async fn logout(
    State(state): State<AdminState>,
    Authenticated(access): Authenticated,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    if !access.allows_post(form.csrf.as_deref()) {
        return Ok(forbidden());
    }
    state.guard.sign_out(&headers);
    let mut response = see_other("/admin/login");
    if let Some(cookie) = session_cookie("", Duration::ZERO, state.cookie_secure) {
        response.headers_mut().insert(SET_COOKIE, cookie);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_in_whole_seconds_rounded_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_millis(1000)), 1);
        assert_eq!(whole_seconds(Duration::from_millis(1001)), 2);
        assert_eq!(whole_seconds(Duration::ZERO), 1);
    }
}
