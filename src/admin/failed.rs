//! The failed jobs, with the reminder, task and chat they belong to.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgExecutor;

use super::AdminError;

/// A job that could not be done, and what it was for.
#[derive(Clone, Debug, Serialize, sqlx::FromRow)]
pub struct FailedJob {
    /// The job (the id admins retry or cancel).
    pub job_id: i64,
    /// Its queue.
    pub queue: String,
    /// The task of a reminder job.
    pub task_id: Option<i64>,
    /// The task's text.
    pub task_text: Option<String>,
    /// The chat the reminder was for.
    pub chat_id: Option<i64>,
    /// When the reminder was due to fire.
    pub due_at: Option<DateTime<Utc>>,
    /// Attempts made.
    pub attempts: i32,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// When it was given up.
    pub failed_at: Option<DateTime<Utc>>,
}

/// Which failed jobs to list.
#[derive(Clone, Debug, Default)]
pub struct FailedFilter {
    /// Only those whose last error contains this text (case-insensitive).
    pub reason: Option<String>,
    /// Only those that failed at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only those that failed before this time.
    pub until: Option<DateTime<Utc>>,
    /// At most this many (newest first).
    pub limit: i64,
    /// Skip this many (for paging).
    pub offset: i64,
}

/// Failed jobs matching `filter`, newest first.
#[tracing::instrument(skip_all)]
pub async fn list<'e>(
    executor: impl PgExecutor<'e>,
    filter: &FailedFilter,
) -> Result<Vec<FailedJob>, AdminError> {
    Ok(sqlx::query_as(
        "select j.id as job_id, j.queue, t.id as task_id, t.text as task_text, t.chat_id,
                r.fire_at as due_at, j.attempts, j.last_error, j.finished_at as failed_at
         from jobs j
         left join reminders r on r.job_id = j.id
         left join tasks t on t.id = r.task_id
         where j.state = 'failed'
           and ($1::text is null or j.last_error ilike '%' || $1 || '%')
           and ($2::timestamptz is null or j.finished_at >= $2)
           and ($3::timestamptz is null or j.finished_at < $3)
         order by j.finished_at desc nulls last, j.id desc
         limit $4 offset $5",
    )
    .bind(filter.reason.as_deref())
    .bind(filter.since)
    .bind(filter.until)
    .bind(filter.limit.max(1))
    .bind(filter.offset.max(0))
    .fetch_all(executor)
    .await?)
}

/// How many jobs are failed.
pub async fn count<'e>(executor: impl PgExecutor<'e>) -> Result<i64, AdminError> {
    Ok(
        sqlx::query_scalar("select count(*) from jobs where state = 'failed'")
            .fetch_one(executor)
            .await?,
    )
}
