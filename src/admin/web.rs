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

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use askama::Template;
use axum::Router;
use axum::extract::{ConnectInfo, Form, FromRequestParts, Path, Query, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, LOCATION, REFERRER_POLICY, RETRY_AFTER,
    SET_COOKIE, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;
use sqlx::PgPool;

use super::actions::{self, ActionResult};
use super::client::TrustedProxies;
use super::failed::{self, FailedFilter};
use super::lang::PageLang;
use super::session::throttle::SlowdownPolicy;
use super::session::{Access, AdminToken, COOKIE_NAME, Guard, Refused, SESSION_LIFETIME};
use super::stats;
use crate::i18n::{Arg, Tr};
use crate::store::types::{Corrupt, ErrorClass};
use pgqueue::{JobState, Queue, maintenance};

/// Failed reminders shown per page.
const PAGE_SIZE: i64 = 50;
/// The page's own stylesheet (the Content-Security-Policy allows no inline style).
const STYLESHEET: &str = include_str!("../../templates/admin/style.css");
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

#[derive(Clone)]
struct AdminState {
    reminders: Queue,
    guard: Guard,
    cookie_secure: bool,
    trusted_proxies: TrustedProxies,
}

impl AdminState {
    fn pool(&self) -> &PgPool {
        self.reminders.pool()
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

impl<S: Send + Sync> FromRequestParts<S> for PageLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self::of(&parts.headers, parts.uri.query()))
    }
}

/// `response` with the cookie that remembers a language chosen with `lang`'s link.
fn remembering(mut response: Response, lang: PageLang, secure: bool) -> Response {
    if let Some(cookie) = lang.cookie(secure) {
        response.headers_mut().append(SET_COOKIE, cookie);
    }
    response
}

/// The caller's access; rejected with the sign-in page (401) or, for a slowed wrong token, after
/// its delay with 429.
struct Authenticated(Access);

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

/// What can go wrong while serving a page.
#[derive(Debug, thiserror::Error)]
enum PageError {
    #[error(transparent)]
    Admin(#[from] super::AdminError),
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

#[derive(Template)]
#[template(path = "admin/login.html")]
struct LoginPage {
    tr: Tr,
    message: Option<String>,
}

#[derive(Template)]
#[template(path = "admin/overview.html")]
struct OverviewPage {
    tr: Tr,
    csrf: String,
    failed_title: String,
    notice: Option<String>,
    states: Vec<(JobState, i64)>,
    oldest_due: String,
    sent_last_hour: i64,
    failed_last_hour: i64,
    retried_last_hour: i64,
    too_many_last_hour: i64,
    lateness_p50: String,
    lateness_p99: String,
    reason: String,
    /// Every kind of failure, and whether the list is filtered by it.
    classes: Vec<(ErrorClass, bool)>,
    since: String,
    until: String,
    failed: Vec<FailedRow>,
}

struct FailedRow {
    job_id: i64,
    task: String,
    chat: String,
    due: String,
    attempts: i32,
    class: Option<ErrorClass>,
    reason: String,
    failed_at: String,
}

#[derive(Template)]
#[template(path = "admin/job.html")]
struct JobPage {
    tr: Tr,
    title: String,
    state: JobState,
    summary: String,
    throttled: Option<String>,
    last_error: Option<String>,
    history: Vec<AttemptRow>,
}

struct AttemptRow {
    attempt: i32,
    worker: String,
    started: String,
    finished: String,
    outcome: &'static str,
    error: String,
}

#[derive(Deserialize)]
struct OverviewQuery {
    reason: Option<String>,
    class: Option<String>,
    since: Option<String>,
    until: Option<String>,
    page: Option<i64>,
    done: Option<String>,
    count: Option<String>,
    job: Option<String>,
}

/// What the overview says after an action: one of a fixed set, carried in the query string
/// (`done=retried&count=3`, `done=cancelled&job=12`, `done=refused&job=12`) and rendered from
/// fixed strings, so a link cannot make the page say anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notice {
    Retried(usize),
    Cancelled(i64),
    NotInState(i64),
}

impl Notice {
    fn of(result: &ActionResult) -> Self {
        match result {
            ActionResult::Retried(ids) => Self::Retried(ids.len()),
            ActionResult::Cancelled(id) => Self::Cancelled(*id),
            ActionResult::NotFound(id) => Self::NotInState(*id),
        }
    }

    /// The query string that carries it.
    fn query(self) -> String {
        match self {
            Self::Retried(count) => format!("done=retried&count={count}"),
            Self::Cancelled(job) => format!("done=cancelled&job={job}"),
            Self::NotInState(job) => format!("done=refused&job={job}"),
        }
    }

    /// The notice a query names; `None` for anything else.
    fn parse(done: Option<&str>, count: Option<&str>, job: Option<&str>) -> Option<Self> {
        let job = || job?.parse().ok();
        match done? {
            "retried" => count?.parse().ok().map(Self::Retried),
            "cancelled" => job().map(Self::Cancelled),
            "refused" => job().map(Self::NotInState),
            _ => None,
        }
    }

    fn text(self, tr: Tr) -> String {
        match self {
            Self::Retried(count) => tr.t_with(
                "admin-web-notice-retried",
                &[("count", Arg::Number(count as i64))],
            ),
            Self::Cancelled(job) => {
                tr.t_with("admin-web-notice-cancelled", &[("job", Arg::Number(job))])
            }
            Self::NotInState(job) => {
                tr.t_with("admin-web-notice-refused", &[("job", Arg::Number(job))])
            }
        }
    }
}

#[derive(Deserialize)]
struct LoginForm {
    token: String,
}

#[derive(Deserialize)]
struct CsrfForm {
    csrf: Option<String>,
}

fn login_page(
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
async fn answer_refused(
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
fn refusal(refused: Refused, lang: PageLang) -> Result<Response, PageError> {
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
fn whole_seconds(wait: Duration) -> u64 {
    u64::try_from(wait.as_millis().div_ceil(1000))
        .unwrap_or(u64::MAX)
        .max(1)
}

/// The session cookie: `id` for a new session, empty and expired to end one.
fn session_cookie(id: &str, max_age: Duration, secure: bool) -> Option<HeaderValue> {
    let secure = if secure { "; Secure" } else { "" };
    let max_age = max_age.as_secs();
    HeaderValue::from_str(&format!(
        "{COOKIE_NAME}={id}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .ok()
}

fn see_other(location: &str) -> Response {
    (StatusCode::SEE_OTHER, [(LOCATION, location.to_owned())]).into_response()
}

async fn login_form(
    State(state): State<AdminState>,
    lang: PageLang,
) -> Result<Response, PageError> {
    let response = login_page(StatusCode::OK, None, lang)?;
    Ok(remembering(response, lang, state.cookie_secure))
}

async fn stylesheet() -> impl IntoResponse {
    ([(CONTENT_TYPE, "text/css; charset=utf-8")], STYLESHEET)
}

async fn login(
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

async fn logout(
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

async fn overview(
    State(state): State<AdminState>,
    Authenticated(access): Authenticated,
    lang: PageLang,
    Query(query): Query<OverviewQuery>,
) -> Result<Response, PageError> {
    let tr = Tr::new(lang.lang);
    let notice = Notice::parse(
        query.done.as_deref(),
        query.count.as_deref(),
        query.job.as_deref(),
    );
    let class = match query.class.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(class) => match ErrorClass::parse(class) {
            Some(class) => Some(class),
            None => return Ok((StatusCode::BAD_REQUEST, "no such kind of failure").into_response()),
        },
    };
    let stats = stats::read(state.pool()).await?;
    let filter = FailedFilter {
        reason: query.reason.clone().filter(|r| !r.trim().is_empty()),
        class,
        since: query.since.as_deref().and_then(start_of_day),
        until: query
            .until
            .as_deref()
            .and_then(start_of_day)
            .map(|day| day + chrono::Duration::days(1)),
        limit: PAGE_SIZE,
        offset: query.page.unwrap_or(0).max(0) * PAGE_SIZE,
    };
    let failed = failed::list(state.pool(), &filter).await?;
    let failed_total = failed::count(state.pool()).await?;
    let html = OverviewPage {
        tr,
        csrf: access.csrf().to_owned(),
        failed_title: tr.t_with(
            "admin-web-failed-title",
            &[("total", Arg::Number(failed_total))],
        ),
        notice: notice.map(|notice| notice.text(tr)),
        states: stats.states,
        oldest_due: stats.oldest_due.map_or_else(
            || tr.t("admin-web-none"),
            |o| {
                tr.t_with(
                    "admin-web-oldest-job",
                    &[
                        ("job", Arg::Number(o.job_id)),
                        ("when", Arg::Text(&when(o.run_at))),
                        ("secs", Arg::Text(&format!("{:.0}", o.waiting_secs))),
                    ],
                )
            },
        ),
        sent_last_hour: stats.sent_last_hour,
        failed_last_hour: stats.failed_last_hour,
        retried_last_hour: stats.retried_last_hour,
        too_many_last_hour: stats.too_many_requests_last_hour,
        lateness_p50: seconds(stats.lateness_p50_secs),
        lateness_p99: seconds(stats.lateness_p99_secs),
        reason: query.reason.unwrap_or_default(),
        classes: ErrorClass::ALL
            .iter()
            .map(|kind| (*kind, class == Some(*kind)))
            .collect(),
        since: query.since.unwrap_or_default(),
        until: query.until.unwrap_or_default(),
        failed: failed
            .into_iter()
            .map(|f| FailedRow {
                job_id: f.job_id,
                task: f
                    .task_id
                    .map(|id| format!("#{id} {}", f.task_text.unwrap_or_default()))
                    .or_else(|| f.user_sent.map(|sent| format!("{}: {sent}", f.queue)))
                    .unwrap_or_else(|| f.queue.clone()),
                chat: f.chat_id.map(|c| c.to_string()).unwrap_or_default(),
                due: f.due_at.map(when).unwrap_or_default(),
                attempts: f.attempts,
                class: f.class,
                reason: f.last_error.unwrap_or_default(),
                failed_at: f.failed_at.map(when).unwrap_or_default(),
            })
            .collect(),
    }
    .render()?;
    Ok(remembering(
        Html(html).into_response(),
        lang,
        state.cookie_secure,
    ))
}

async fn job_page(
    State(state): State<AdminState>,
    Authenticated(_): Authenticated,
    lang: PageLang,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let tr = Tr::new(lang.lang);
    let Some(job) = pgqueue::inspect(state.pool(), id).await? else {
        return Ok((StatusCode::NOT_FOUND, "no such job").into_response());
    };
    let history = maintenance::attempts(state.pool(), id)
        .await?
        .into_iter()
        .map(|a| {
            Ok(AttemptRow {
                attempt: a.attempt,
                worker: a.worker.unwrap_or_default(),
                started: a.started_at.map(when).unwrap_or_default(),
                finished: when(a.finished_at),
                outcome: a.outcome.as_str(),
                error: match (
                    a.error,
                    failed::error_class("job_attempts", id, a.error_class.as_deref())?,
                ) {
                    (Some(error), Some(class)) => format!("[{class}] {error}"),
                    (error, _) => error.unwrap_or_default(),
                },
            })
        })
        .collect::<Result<Vec<_>, Corrupt>>()
        .map_err(|corrupt| super::AdminError::Store(corrupt.into()))?;
    let html = JobPage {
        tr,
        title: tr.t_with("admin-web-job", &[("job", Arg::Number(id))]),
        state: job.state,
        summary: tr.t_with(
            "admin-web-job-summary",
            &[
                ("attempts", Arg::Number(i64::from(job.attempts))),
                ("max", Arg::Number(i64::from(job.max_attempts))),
                ("when", Arg::Text(&when(job.run_at))),
            ],
        ),
        throttled: (job.throttles > 0).then(|| {
            tr.t_with(
                "admin-web-job-throttled",
                &[("count", Arg::Number(i64::from(job.throttles)))],
            )
        }),
        last_error: job.last_error,
        history,
    }
    .render()?;
    Ok(remembering(
        Html(html).into_response(),
        lang,
        state.cookie_secure,
    ))
}

async fn retry(
    State(state): State<AdminState>,
    Authenticated(access): Authenticated,
    Path(id): Path<i64>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    act(&state, access, form, |queue, actor| async move {
        actions::retry(&queue, &actor, id).await
    })
    .await
}

async fn cancel(
    State(state): State<AdminState>,
    Authenticated(access): Authenticated,
    Path(id): Path<i64>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    act(&state, access, form, |queue, actor| async move {
        actions::cancel(&queue, &actor, id).await
    })
    .await
}

/// Checks the CSRF token, runs the action, and returns to the overview with a notice.
async fn act<F, Fut>(
    state: &AdminState,
    access: Access,
    form: CsrfForm,
    action: F,
) -> Result<Response, PageError>
where
    F: FnOnce(Queue, String) -> Fut,
    Fut: std::future::Future<Output = Result<ActionResult, super::AdminError>>,
{
    if !access.allows_post(form.csrf.as_deref()) {
        return Ok(forbidden());
    }
    let actor = match access {
        Access::Session { .. } => "web:session",
        Access::Bearer => "web:bearer",
    };
    let result = action(state.reminders.clone(), actor.to_owned()).await?;
    Ok(see_other(&format!(
        "/admin?{}",
        Notice::of(&result).query()
    )))
}

fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        "refused: the form's CSRF token is missing or wrong; reload the page",
    )
        .into_response()
}

fn start_of_day(date: &str) -> Option<DateTime<Utc>> {
    NaiveDate::parse_from_str(date, "%Y-%m-%d")
        .ok()?
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
}

fn when(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}

fn seconds(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |s| format!("{s:.3} s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_survives_its_query_string_and_nothing_else_is_one() {
        for notice in [
            Notice::Retried(3),
            Notice::Cancelled(12),
            Notice::NotInState(7),
        ] {
            let query: std::collections::HashMap<String, String> =
                form_urlencoded::parse(notice.query().as_bytes())
                    .into_owned()
                    .collect();
            let field = |name: &str| query.get(name).map(String::as_str);
            assert_eq!(
                Notice::parse(field("done"), field("count"), field("job")),
                Some(notice)
            );
        }
        assert_eq!(Notice::parse(Some("Hacked by Eve"), None, None), None);
        assert_eq!(Notice::parse(Some("retried"), Some("lots"), None), None);
        assert_eq!(Notice::parse(Some("cancelled"), Some("1"), None), None);
        assert_eq!(Notice::parse(None, Some("1"), Some("1")), None);
        let en = Tr::new(crate::domain::lang::Lang::En);
        assert_eq!(
            Notice::Retried(3).text(en),
            "Returned 3 job(s) to the queue."
        );
        let uz = Tr::new(crate::domain::lang::Lang::Uz);
        assert_eq!(Notice::Cancelled(12).text(uz), "12-ish bekor qilindi.");
    }

    #[test]
    fn retry_after_is_in_whole_seconds_rounded_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_millis(1000)), 1);
        assert_eq!(whole_seconds(Duration::from_millis(1001)), 2);
        assert_eq!(whole_seconds(Duration::ZERO), 1);
    }
}
