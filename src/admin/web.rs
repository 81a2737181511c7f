//! The admin page at `/admin`, server-rendered and usable without JavaScript: an overview of the
//! queue and the last hour, the failed reminders with filters and Retry / Cancel buttons (POST
//! forms with a CSRF token), and each job's attempt history. Off (404) when no `ADMIN_TOKEN` is set.

use askama::Template;
use axum::Router;
use axum::extract::{Form, Path, Query, State};
use axum::http::header::{CACHE_CONTROL, LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;
use sqlx::PgPool;

use super::actions::{self, ActionResult};
use super::failed::{self, FailedFilter};
use super::session::{Access, COOKIE_NAME, Sessions};
use super::stats;
use crate::queue::maintenance;

/// Failed reminders shown per page.
const PAGE_SIZE: i64 = 50;

#[derive(Clone)]
struct AdminState {
    pool: PgPool,
    sessions: Sessions,
}

/// The admin routes; an empty router when `token` is unset or empty (the page is off).
pub fn router(pool: PgPool, token: Option<&str>) -> Router {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Router::new();
    };
    let state = AdminState {
        pool,
        sessions: Sessions::new(token),
    };
    Router::new()
        .route("/admin", get(overview))
        .route("/admin/login", get(login_form).post(login))
        .route("/admin/logout", post(logout))
        .route("/admin/jobs/{id}", get(job_page))
        .route("/admin/jobs/{id}/retry", post(retry))
        .route("/admin/jobs/{id}/cancel", post(cancel))
        .with_state(state)
}

/// What can go wrong while serving a page.
#[derive(Debug, thiserror::Error)]
enum PageError {
    #[error(transparent)]
    Admin(#[from] super::AdminError),
    #[error(transparent)]
    Queue(#[from] crate::queue::QueueError),
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
    message: Option<&'static str>,
}

#[derive(Template)]
#[template(path = "admin/overview.html")]
struct OverviewPage {
    csrf: String,
    notice: Option<String>,
    states: Vec<(String, i64)>,
    oldest_due: String,
    sent_last_hour: i64,
    failed_last_hour: i64,
    retried_last_hour: i64,
    too_many_last_hour: i64,
    lateness_p50: String,
    lateness_p99: String,
    failed_total: i64,
    reason: String,
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
    reason: String,
    failed_at: String,
}

#[derive(Template)]
#[template(path = "admin/job.html")]
struct JobPage {
    job_id: i64,
    state: String,
    attempts: i32,
    max_attempts: i32,
    run_at: String,
    last_error: Option<String>,
    history: Vec<AttemptRow>,
}

#[derive(sqlx::FromRow)]
struct JobSummary {
    state: String,
    attempts: i32,
    max_attempts: i32,
    run_at: DateTime<Utc>,
    last_error: Option<String>,
}

struct AttemptRow {
    attempt: i32,
    worker: String,
    started: String,
    finished: String,
    outcome: String,
    error: String,
}

#[derive(Deserialize)]
struct OverviewQuery {
    reason: Option<String>,
    since: Option<String>,
    until: Option<String>,
    page: Option<i64>,
    done: Option<String>,
}

#[derive(Deserialize)]
struct LoginForm {
    token: String,
}

#[derive(Deserialize)]
struct CsrfForm {
    csrf: Option<String>,
}

fn page(html: String) -> Response {
    let mut response = Html(html).into_response();
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn login_page(status: StatusCode, message: Option<&'static str>) -> Result<Response, PageError> {
    let html = LoginPage { message }.render()?;
    Ok((status, page(html)).into_response())
}

fn see_other(location: &str) -> Response {
    (StatusCode::SEE_OTHER, [(LOCATION, location.to_owned())]).into_response()
}

async fn login_form() -> Result<Response, PageError> {
    login_page(StatusCode::OK, None)
}

async fn login(
    State(state): State<AdminState>,
    Form(form): Form<LoginForm>,
) -> Result<Response, PageError> {
    if !state.sessions.token_matches(&form.token) {
        return login_page(StatusCode::UNAUTHORIZED, Some("Wrong token."));
    }
    let session = state.sessions.open();
    let mut response = see_other("/admin");
    let cookie = format!("{COOKIE_NAME}={session}; Path=/admin; HttpOnly; SameSite=Strict");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    Ok(response)
}

async fn logout(
    State(state): State<AdminState>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    match state.sessions.access(&headers) {
        Some(access) if access.allows_post(form.csrf.as_deref()) => {
            state.sessions.close(&headers);
            Ok(see_other("/admin/login"))
        }
        Some(_) => Ok(forbidden()),
        None => login_page(StatusCode::UNAUTHORIZED, None),
    }
}

async fn overview(
    State(state): State<AdminState>,
    headers: HeaderMap,
    Query(query): Query<OverviewQuery>,
) -> Result<Response, PageError> {
    let Some(access) = state.sessions.access(&headers) else {
        return login_page(StatusCode::UNAUTHORIZED, None);
    };
    let stats = stats::read(&state.pool).await?;
    let filter = FailedFilter {
        reason: query.reason.clone().filter(|r| !r.trim().is_empty()),
        since: query.since.as_deref().and_then(start_of_day),
        until: query
            .until
            .as_deref()
            .and_then(start_of_day)
            .map(|day| day + chrono::Duration::days(1)),
        limit: PAGE_SIZE,
        offset: query.page.unwrap_or(0).max(0) * PAGE_SIZE,
    };
    let failed = failed::list(&state.pool, &filter).await?;
    let html = OverviewPage {
        csrf: access.csrf().to_owned(),
        notice: query.done,
        states: stats.states,
        oldest_due: stats.oldest_due.map_or_else(
            || "none".to_owned(),
            |o| {
                format!(
                    "job {} due {} ({:.0} s ago)",
                    o.job_id,
                    when(o.run_at),
                    o.waiting_secs
                )
            },
        ),
        sent_last_hour: stats.sent_last_hour,
        failed_last_hour: stats.failed_last_hour,
        retried_last_hour: stats.retried_last_hour,
        too_many_last_hour: stats.too_many_requests_last_hour,
        lateness_p50: seconds(stats.lateness_p50_secs),
        lateness_p99: seconds(stats.lateness_p99_secs),
        failed_total: failed::count(&state.pool).await?,
        reason: query.reason.unwrap_or_default(),
        since: query.since.unwrap_or_default(),
        until: query.until.unwrap_or_default(),
        failed: failed
            .into_iter()
            .map(|f| FailedRow {
                job_id: f.job_id,
                task: f
                    .task_id
                    .map(|id| format!("#{id} {}", f.task_text.unwrap_or_default()))
                    .unwrap_or_else(|| f.queue.clone()),
                chat: f.chat_id.map(|c| c.to_string()).unwrap_or_default(),
                due: f.due_at.map(when).unwrap_or_default(),
                attempts: f.attempts,
                reason: f.last_error.unwrap_or_default(),
                failed_at: f.failed_at.map(when).unwrap_or_default(),
            })
            .collect(),
    }
    .render()?;
    Ok(page(html))
}

async fn job_page(
    State(state): State<AdminState>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    if state.sessions.access(&headers).is_none() {
        return login_page(StatusCode::UNAUTHORIZED, None);
    }
    let job: Option<JobSummary> = sqlx::query_as(
        "select state, attempts, max_attempts, run_at, last_error from jobs where id = $1",
    )
    .bind(id)
    .fetch_optional(&state.pool)
    .await
    .map_err(super::AdminError::from)?;
    let Some(job) = job else {
        return Ok((StatusCode::NOT_FOUND, "no such job").into_response());
    };
    let history = maintenance::attempts(&state.pool, id)
        .await?
        .into_iter()
        .map(|a| AttemptRow {
            attempt: a.attempt,
            worker: a.worker.unwrap_or_default(),
            started: a.started_at.map(when).unwrap_or_default(),
            finished: when(a.finished_at),
            outcome: a.outcome,
            error: a.error.unwrap_or_default(),
        })
        .collect();
    let html = JobPage {
        job_id: id,
        state: job.state,
        attempts: job.attempts,
        max_attempts: job.max_attempts,
        run_at: when(job.run_at),
        last_error: job.last_error,
        history,
    }
    .render()?;
    Ok(page(html))
}

async fn retry(
    State(state): State<AdminState>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    act(&state, &headers, form, |pool, actor| async move {
        actions::retry(&pool, &actor, id).await
    })
    .await
}

async fn cancel(
    State(state): State<AdminState>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    act(&state, &headers, form, |pool, actor| async move {
        actions::cancel(&pool, &actor, id).await
    })
    .await
}

/// Checks access and the CSRF token, runs the action, and returns to the overview with a notice.
async fn act<F, Fut>(
    state: &AdminState,
    headers: &HeaderMap,
    form: CsrfForm,
    action: F,
) -> Result<Response, PageError>
where
    F: FnOnce(PgPool, String) -> Fut,
    Fut: std::future::Future<Output = Result<ActionResult, super::AdminError>>,
{
    let Some(access) = state.sessions.access(headers) else {
        return login_page(StatusCode::UNAUTHORIZED, None);
    };
    if !access.allows_post(form.csrf.as_deref()) {
        return Ok(forbidden());
    }
    let actor = match access {
        Access::Session { .. } => "web:session",
        Access::Bearer => "web:bearer",
    };
    let notice = match action(state.pool.clone(), actor.to_owned()).await? {
        ActionResult::Retried(ids) => format!("Returned {} job(s) to the queue.", ids.len()),
        ActionResult::Cancelled(id) => format!("Cancelled job {id}."),
        ActionResult::NotFound(id) => format!("Job {id} is not in a state that allows this."),
    };
    let query = url_encode(&notice);
    Ok(see_other(&format!("/admin?done={query}")))
}

fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        "refused: the form's CSRF token is missing or wrong; reload the page",
    )
        .into_response()
}

fn url_encode(notice: &str) -> String {
    form_urlencoded::byte_serialize(notice.as_bytes()).collect()
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
