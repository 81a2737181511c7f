//! The admin page at `/admin`, server-rendered and usable without JavaScript: an overview of the
//! queue and the last hour, the failed reminders with filters and Retry / Cancel buttons (POST
//! forms with a CSRF token), and each job's attempt history. Off (404) when no admin token is set.
//! In English, Russian or Uzbek: the browser's language, or the one chosen with the page's
//! language links ([`super::lang`]).
//!
//! Every response carries `X-Frame-Options: DENY`, a restrictive Content-Security-Policy (the
//! page has no script and one stylesheet of its own), `Referrer-Policy: no-referrer`,
//! `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`. The right token always
//! signs in; the answers to wrong ones are slowed per client address and globally
//! ([`super::session::throttle`]): a slowed one comes after its delay, as 429 with `Retry-After`.
//! The client address is the peer's, or the one a trusted proxy names ([`super::client`]).

mod buttons;
mod common;
mod pages;
mod sign_in;

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::response::Response;
use axum::routing::{get, post};

use super::client::TrustedProxies;
use super::session::throttle::SlowdownPolicy;
use super::session::{AdminToken, Guard};
use buttons::{cancel, retry};
use common::AdminState;
use pages::{job_page, overview, stylesheet};
use pgqueue::Queue;
use sign_in::{login, login_form, logout};

/// Nothing but the page's own stylesheet and forms; never in a frame.
const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'none'; style-src 'self'; \
     form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// What the admin page needs besides the reminder queue.
#[derive(Clone, Debug)]
pub struct AdminWebSettings {
    /// The token admins sign in with (at least 32 characters).
    pub token: AdminToken,
    /// Whether the session cookie is marked `Secure` (sent over HTTPS only): on when the page is
    /// served over HTTPS, e.g. behind a proxy.
    pub cookie_secure: bool,
    /// How wrong tokens are slowed down.
    pub slowdown: SlowdownPolicy,
    /// The reverse proxies whose `X-Forwarded-For` / `X-Real-IP` name the client (none: the
    /// headers are ignored).
    pub trusted_proxies: TrustedProxies,
}

impl AdminWebSettings {
    /// Settings with `token`, a cookie without `Secure`, the default slowdowns and no trusted
    /// proxy.
    pub fn new(token: AdminToken) -> Self {
        Self {
            token,
            cookie_secure: false,
            slowdown: SlowdownPolicy::default(),
            trusted_proxies: TrustedProxies::default(),
        }
    }
}

/// The admin routes over the reminder queue `reminders`; an empty router without `settings`
/// (the page is off). Serve it with `into_make_service_with_connect_info::<SocketAddr>()`: wrong
/// tokens are counted per client address.
pub fn router(reminders: Queue, settings: Option<AdminWebSettings>) -> Router {
    let Some(settings) = settings else {
        return Router::new();
    };
    let state = AdminState {
        reminders,
        guard: Guard::new(settings.token, settings.slowdown),
        cookie_secure: settings.cookie_secure,
        trusted_proxies: settings.trusted_proxies,
    };
    Router::new()
        .route("/admin", get(overview))
        .route("/admin/style.css", get(stylesheet))
        .route("/admin/login", get(login_form).post(login))
        .route("/admin/logout", post(logout))
        .route("/admin/jobs/{id}", get(job_page))
        .route("/admin/jobs/{id}/retry", post(retry))
        .route("/admin/jobs/{id}/cancel", post(cancel))
        .with_state(state)
        .layer(axum::middleware::map_response(security_headers))
}

/// The headers every admin response carries.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (X_FRAME_OPTIONS, "DENY"),
        (CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE),
        (REFERRER_POLICY, "no-referrer"),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}
