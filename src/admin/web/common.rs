//! What every admin page shares: the state of the routes, their errors, the page's language, and
//! the answers they all give (a redirect, a refused form).

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::PgPool;

use crate::admin::AdminError;
use crate::admin::client::TrustedProxies;
use crate::admin::lang::PageLang;
use crate::admin::session::Guard;
use pgqueue::Queue;

#[derive(Clone)]
pub(super) struct AdminState {
    pub(super) reminders: Queue,
    pub(super) guard: Guard,
    pub(super) cookie_secure: bool,
    pub(super) trusted_proxies: TrustedProxies,
}

impl AdminState {
    pub(super) fn pool(&self) -> &PgPool {
        self.reminders.pool()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for PageLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self::of(&parts.headers, parts.uri.query()))
    }
}

/// `response` with the cookie that remembers a language chosen with `lang`'s link.
pub(super) fn remembering(mut response: Response, lang: PageLang, secure: bool) -> Response {
    if let Some(cookie) = lang.cookie(secure) {
        response.headers_mut().append(SET_COOKIE, cookie);
    }
    response
}

/// What can go wrong while serving a page.
#[derive(Debug, thiserror::Error)]
pub(super) enum PageError {
    #[error(transparent)]
    Admin(#[from] AdminError),
    #[error(transparent)]
    Queue(#[from] pgqueue::QueueError),
    #[error("rendering failed: {0}")]
    Render(#[from] askama::Error),
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        tracing::error!(error = %self, "admin page failed");
        (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
    }
}

#[derive(Deserialize)]
pub(super) struct CsrfForm {
    pub(super) csrf: Option<String>,
}

pub(super) fn see_other(location: &str) -> Response {
    (StatusCode::SEE_OTHER, [(LOCATION, location.to_owned())]).into_response()
}

pub(super) fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        "refused: the form's CSRF token is missing or wrong; reload the page",
    )
        .into_response()
}

pub(super) fn when(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}
