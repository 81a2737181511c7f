//! Reading jobs without claiming them: one job or a few by id, the failed ones for admin views,
//! counts, the last while's outcomes, and a producer's cancel-by-filter. This is how programs
//! that embed the queue look at its tables: only this crate knows their layout.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgExecutor;

use super::{JobId, QueueError, secs};

/// The state of a job: `pending` until claimed, `running` under a lease, then `done`, `failed` or
/// `cancelled` (a retry, throttle, snooze or the reaper puts a running job back to `pending`; an
/// admin's retry a failed one). Stored as lowercase text; a value that is not one of these fails
/// to decode rather than turning into a default.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, sqlx::Type,
)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for its due time or for a worker.
    Pending,
    /// Claimed by a worker, under a lease.
    Running,
    /// Finished successfully.
    Done,
    /// Given up on (out of attempts, or a permanent error); kept for admins.
    Failed,
    /// Its reason to run went away.
    Cancelled,
}

impl JobState {
    /// Every state, in the order the columns' text sorts (`cancelled` first).
    pub const ALL: [JobState; 5] = [
        JobState::Cancelled,
        JobState::Done,
        JobState::Failed,
        JobState::Pending,
        JobState::Running,
    ];

    /// The state as the `state` column stores it.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Pending => "pending",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for JobState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so that width and alignment (`{state:<10}`) apply.
        f.pad(self.as_str())
    }
}

/// A job as it stands: what an admin page shows and what tests check.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JobInfo {
    /// The job.
    pub id: JobId,
    /// Its queue.
    pub queue: String,
    /// Where it is in its life.
    pub state: JobState,
    /// Tries counted against `max_attempts` so far (snoozes and throttles give theirs back).
    pub attempts: i32,
    /// The attempt budget.
    pub max_attempts: i32,
    /// Claims so far (the fence of every result; never decreases).
    pub claims: i32,
    /// How often flood control turned the job away (not counted as attempts).
    pub throttles: i32,
    /// When it is (or was) due.
    pub run_at: DateTime<Utc>,
    /// Why the last attempt did not succeed, if one did not.
    pub last_error: Option<String>,
    /// The class of that error ([`crate::JobError::class`]).
    pub error_class: Option<String>,
    /// Its data.
    pub payload: Value,
    /// When it was enqueued.
    pub created_at: DateTime<Utc>,
    /// When it reached `done`, `failed` or `cancelled`.
    pub finished_at: Option<DateTime<Utc>>,
    /// Its dedupe key, if it has one.
    pub dedupe_key: Option<String>,
    /// Its serial key, if it has one: it runs after the older jobs of its queue with this key.
    pub serial_key: Option<String>,
    /// Its priority (lower runs first).
    pub priority: i16,
}

/// The job `id`, or `None` when there is no such job (never enqueued, or purged by retention).
#[tracing::instrument(skip_all, fields(job = id.0))]
pub async fn inspect<'e>(
    executor: impl PgExecutor<'e>,
    id: JobId,
) -> Result<Option<JobInfo>, QueueError> {
    Ok(sqlx::query_as!(
        JobInfo,
        r#"select id, queue, state as "state: JobState", attempts, max_attempts, claims, throttles, run_at,
                  last_error, error_class, payload, created_at, finished_at, dedupe_key,
                  serial_key, priority
           from jobs where id = $1"#,
        id.0,
    )
    .fetch_optional(executor)
    .await?)
}

/// Those of the jobs `ids` that exist, ordered by id (one statement, by the primary key): a
/// program that keeps job ids in its own rows looks them up in one round trip.
#[tracing::instrument(skip_all, fields(jobs = ids.len()))]
pub async fn inspect_many<'e>(
    executor: impl PgExecutor<'e>,
    ids: &[JobId],
) -> Result<Vec<JobInfo>, QueueError> {
    Ok(sqlx::query_as!(
        JobInfo,
        r#"select id, queue, state as "state: JobState", attempts, max_attempts, claims, throttles, run_at,
                  last_error, error_class, payload, created_at, finished_at, dedupe_key,
                  serial_key, priority
           from jobs where id = any($1) order by id"#,
        &ids.iter().map(|id| id.0).collect::<Vec<_>>(),
    )
    .fetch_all(executor)
    .await?)
}

/// The jobs of `queue` (only those in `state`, when given), oldest first, at most `limit`: for
/// tools and tests that need every job of a small queue, including those no row of theirs points
/// at any more. It reads the whole queue; dashboards use [`count`] or
/// [`super::maintenance::depth`].
#[tracing::instrument(skip_all, fields(queue, state = ?state))]
pub async fn list<'e>(
    executor: impl PgExecutor<'e>,
    queue: &str,
    state: Option<JobState>,
    limit: i64,
) -> Result<Vec<JobInfo>, QueueError> {
    Ok(sqlx::query_as!(
        JobInfo,
        r#"select id, queue, state as "state: JobState", attempts, max_attempts, claims, throttles, run_at,
                  last_error, error_class, payload, created_at, finished_at, dedupe_key,
                  serial_key, priority
           from jobs
           where queue = $1 and ($2::text is null or state = $2)
           order by id limit $3"#,
        queue,
        state.map(JobState::as_str),
        limit.max(0),
    )
    .fetch_all(executor)
    .await?)
}

/// How many jobs of `queue` are in `state` (an exact count; on a large table prefer
/// [`super::maintenance::depth`]).
#[tracing::instrument(skip_all, fields(queue, state = %state))]
pub async fn count<'e>(
    executor: impl PgExecutor<'e>,
    queue: &str,
    state: JobState,
) -> Result<i64, QueueError> {
    Ok(sqlx::query_scalar!(
        r#"select count(*) as "count!" from jobs where queue = $1 and state = $2"#,
        queue,
        state.as_str(),
    )
    .fetch_one(executor)
    .await?)
}

/// Which failed jobs [`failed_jobs`] lists. The default lists the newest one of any queue.
#[derive(Clone, Debug, Default)]
pub struct FailedQuery {
    /// Only jobs of this queue.
    pub queue: Option<String>,
    /// Only those whose last error contains this text (case-insensitive).
    pub reason: Option<String>,
    /// Only those whose last error has this class ([`crate::JobError::class`]).
    pub class: Option<String>,
    /// Only those that failed at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only those that failed before this time.
    pub until: Option<DateTime<Utc>>,
    /// At most this many (at least one is asked for).
    pub limit: i64,
    /// Skip this many (for paging).
    pub offset: i64,
}

/// Failed jobs matching `query`, newest failure first (then newest job first), for admin views.
/// Served by the `jobs_failed` index in that order, so a page costs its rows however many jobs
/// the table holds.
#[tracing::instrument(skip_all)]
pub async fn failed_jobs<'e>(
    executor: impl PgExecutor<'e>,
    query: &FailedQuery,
) -> Result<Vec<JobInfo>, QueueError> {
    Ok(sqlx::query_as!(
        JobInfo,
        r#"select id, queue, state as "state: JobState", attempts, max_attempts, claims, throttles, run_at,
                  last_error, error_class, payload, created_at, finished_at, dedupe_key,
                  serial_key, priority
           from jobs
           where state = 'failed'
             and ($1::text is null or queue = $1)
             and ($2::text is null or strpos(lower(last_error), lower($2)) > 0)
             and ($3::text is null or error_class = $3)
             and ($4::timestamptz is null or finished_at >= $4)
             and ($5::timestamptz is null or finished_at < $5)
           order by finished_at desc nulls last, id desc
           limit $6 offset $7"#,
        query.queue.as_deref(),
        query.reason.as_deref(),
        query.class.as_deref(),
        query.since,
        query.until,
        query.limit.max(1),
        query.offset.max(0),
    )
    .fetch_all(executor)
    .await?)
}

/// How many jobs are failed, of `queue` or of all queues (served by the `jobs_failed` index).
#[tracing::instrument(skip_all, fields(queue))]
pub async fn count_failed<'e>(
    executor: impl PgExecutor<'e>,
    queue: Option<&str>,
) -> Result<i64, QueueError> {
    Ok(sqlx::query_scalar!(
        r#"select count(*) as "count!" from jobs
           where state = 'failed' and ($1::text is null or queue = $1)"#,
        queue,
    )
    .fetch_one(executor)
    .await?)
}

/// Cancels those of the jobs `ids` that are still pending, in the caller's transaction if it
/// passes one, and returns their ids in order: a producer whose reason for some jobs went away (a
/// cancel-by-filter of its own rows). Running jobs are left to their workers. Like
/// [`super::maintenance::cancel_job`] it does not run the queue's give-up hook (see [`super::hook`]):
/// the producer knows what it wants next.
#[tracing::instrument(skip_all, fields(jobs = ids.len()))]
pub async fn cancel_pending<'e>(
    executor: impl PgExecutor<'e>,
    ids: &[JobId],
) -> Result<Vec<JobId>, QueueError> {
    Ok(sqlx::query_scalar!(
        r#"with cancelled as (
               update jobs set state = 'cancelled', locked_until = null, finished_at = now(),
                   updated_at = now()
               where id = any($1) and state = 'pending'
               returning id)
           select id as "id!" from cancelled order by id"#,
        &ids.iter().map(|id| id.0).collect::<Vec<_>>(),
    )
    .fetch_all(executor)
    .await?
    .into_iter()
    .map(JobId)
    .collect())
}

/// What became of the attempts of the last while, all queues together (see [`recent_outcomes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RecentOutcomes {
    /// Jobs that failed for good.
    pub failed: i64,
    /// Attempts that failed and were retried later.
    pub retried: i64,
    /// Runs that flood control turned away (not attempts).
    pub throttled: i64,
}

/// The [`RecentOutcomes`] of the last `within`, by the database clock. Each count is served by an
/// index (`jobs_failed`, `job_attempts_finished`).
#[tracing::instrument(skip_all)]
pub async fn recent_outcomes<'e>(
    executor: impl PgExecutor<'e>,
    within: Duration,
) -> Result<RecentOutcomes, QueueError> {
    Ok(sqlx::query_as!(
        RecentOutcomes,
        r#"select
               (select count(*) from jobs
                where state = 'failed' and finished_at > now() - make_interval(secs => $1))
                   as "failed!",
               (select count(*) from job_attempts
                where outcome = 'retry' and finished_at > now() - make_interval(secs => $1))
                   as "retried!",
               (select count(*) from job_attempts
                where outcome = 'throttled' and finished_at > now() - make_interval(secs => $1))
                   as "throttled!""#,
        secs(within),
    )
    .fetch_one(executor)
    .await?)
}
