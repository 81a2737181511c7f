//! The admin page's views: the overview (the queue, the last hour, the failed reminders with
//! filters and the notice after an action) and one job's attempt history, and the stylesheet.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{Html, IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};
use pgqueue::JobId;
use serde::Deserialize;

use super::common::{AdminState, PageError, remembering, when};
use super::sign_in::Authenticated;
use crate::admin::AdminError;
use crate::admin::actions::ActionResult;
use crate::admin::failed::{self, FailedFilter};
use crate::admin::lang::PageLang;
use crate::admin::stats;
use crate::i18n::{Arg, Tr};
use crate::store::types::{Corrupt, ErrorClass};
use pgqueue::{JobState, maintenance};

/// Failed reminders shown per page.
pub(super) const PAGE_SIZE: i64 = 50;
/// The page's own stylesheet (the Content-Security-Policy allows no inline style).
pub(super) const STYLESHEET: &str = include_str!("../../../templates/admin/style.css");

#[derive(Template)]
#[template(path = "admin/overview.html")]
pub(super) struct OverviewPage {
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

pub(super) struct FailedRow {
    job_id: JobId,
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
pub(super) struct JobPage {
    tr: Tr,
    title: String,
    state: JobState,
    summary: String,
    throttled: Option<String>,
    last_error: Option<String>,
    history: Vec<AttemptRow>,
}

pub(super) struct AttemptRow {
    attempt: i32,
    worker: String,
    started: String,
    finished: String,
    outcome: &'static str,
    error: String,
}

#[derive(Deserialize)]
pub(super) struct OverviewQuery {
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
pub(super) enum Notice {
    Retried(usize),
    Cancelled(i64),
    NotInState(i64),
}

impl Notice {
    pub(super) fn of(result: &ActionResult) -> Self {
        match result {
            ActionResult::Retried(ids) => Self::Retried(ids.len()),
            ActionResult::Cancelled(id) => Self::Cancelled(id.0),
            ActionResult::NotFound(id) => Self::NotInState(id.0),
        }
    }

    /// The query string that carries it.
    pub(super) fn query(self) -> String {
        match self {
            Self::Retried(count) => format!("done=retried&count={count}"),
            Self::Cancelled(job) => format!("done=cancelled&job={job}"),
            Self::NotInState(job) => format!("done=refused&job={job}"),
        }
    }

    /// The notice a query names; `None` for anything else.
    pub(super) fn parse(
        done: Option<&str>,
        count: Option<&str>,
        job: Option<&str>,
    ) -> Option<Self> {
        let job = || job?.parse().ok();
        match done? {
            "retried" => count?.parse().ok().map(Self::Retried),
            "cancelled" => job().map(Self::Cancelled),
            "refused" => job().map(Self::NotInState),
            _ => None,
        }
    }

    pub(super) fn text(self, tr: Tr) -> String {
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

pub(super) async fn stylesheet() -> impl IntoResponse {
    ([(CONTENT_TYPE, "text/css; charset=utf-8")], STYLESHEET)
}

pub(super) async fn overview(
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
        Some(class) => match ErrorClass::from_stored(class) {
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
                        ("job", Arg::Number(o.job_id.0)),
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
        classes: ErrorClass::STORED
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

pub(super) async fn job_page(
    State(state): State<AdminState>,
    Authenticated(_): Authenticated,
    lang: PageLang,
    Path(id): Path<JobId>,
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
        .map_err(|corrupt| AdminError::Store(corrupt.into()))?;
    let html = JobPage {
        tr,
        title: tr.t_with("admin-web-job", &[("job", Arg::Number(id.0))]),
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

pub(super) fn start_of_day(date: &str) -> Option<DateTime<Utc>> {
    NaiveDate::parse_from_str(date, "%Y-%m-%d")
        .ok()?
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
}

pub(super) fn seconds(value: Option<f64>) -> String {
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
}
