//! Answering `GET <prefix>/calendar/<secret>.ics`: 404 for anything but a live feed's secret (no
//! hint which), 429 past the URL's rate, 304 when the client's ETag is the feed's, else the
//! calendar.

use axum::extract::{Path, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH, REFERRER_POLICY, RETRY_AFTER,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use super::FeedLimits;
use crate::domain::feed_secret::FeedSecret;
use crate::export::MAX_EXPORT_TASKS;
use crate::export::ics::{self, Event, Revision};
use crate::i18n::Tr;
use crate::store::calendar_feeds::{self, Feed, FeedTask};

/// The feed route's state.
#[derive(Clone, Debug)]
pub(super) struct FeedState {
    pub(super) pool: PgPool,
    pub(super) limits: FeedLimits,
}

/// The feed of the secret in `file` (`<secret>.ics`). Its span names the route, never the path
/// that holds the secret.
#[tracing::instrument(skip_all, fields(route = "calendar feed", chat_id))]
pub(super) async fn feed(
    State(state): State<FeedState>,
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some(secret) = file.strip_suffix(".ics").and_then(FeedSecret::parse) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let hash = secret.hash();
    let feed = match calendar_feeds::find(&state.pool, &hash).await {
        Ok(Some(feed)) => feed,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::warn!(%error, "reading a calendar feed failed");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    };
    tracing::Span::current().record("chat_id", feed.chat_id.0);
    if let Err(wait) = state.limits.check(&hash) {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        tracing::debug!(seconds, "a calendar feed is read too often");
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(RETRY_AFTER, HeaderValue::from(seconds))],
        )
            .into_response();
    }
    let tasks = match calendar_feeds::open_tasks(&state.pool, feed.chat_id, MAX_EXPORT_TASKS).await
    {
        Ok(tasks) => tasks,
        Err(error) => {
            tracing::warn!(%error, "reading a calendar feed's tasks failed");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    };
    let etag = etag_of(&feed, &tasks);
    let mut response = if matches_etag(&headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = calendar_of(&feed, &tasks).into_response();
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/calendar; charset=utf-8"),
        );
        response
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(ETAG, value);
    }
    // Asked for again each time (the ETag makes that cheap), kept by no shared cache.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// The calendar of `feed` with `tasks`: named in the chat's language, each task's event stamped
/// with when it last changed and its `SEQUENCE` the task's revision.
fn calendar_of(feed: &Feed, tasks: &[FeedTask]) -> String {
    let events: Vec<Event<'_>> = tasks
        .iter()
        .map(|t| Event {
            task: &t.task,
            stamp: t.updated_at,
            revision: Some(Revision {
                sequence: t.revision,
                last_modified: t.updated_at,
            }),
        })
        .collect();
    ics::feed(&Tr::new(feed.lang).t("calendar-feed-name"), &events)
}

/// The ETag of `feed` with `tasks` (quoted): a hash of this build's version, the chat's language
/// and each task's id and revision, so it changes whenever the calendar would.
fn etag_of(feed: &Feed, tasks: &[FeedTask]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(env!("CARGO_PKG_VERSION"));
    hasher.update([0]);
    hasher.update(feed.lang.as_str());
    for t in tasks {
        hasher.update(t.task.id.0.to_be_bytes());
        hasher.update(t.revision.to_be_bytes());
    }
    let digest = hasher.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// Whether `If-None-Match` names `etag` (compared weakly, as RFC 9110 says for it) or is `*`.
fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}
