//! Work on jobs outside a claim: retention, and the changes producers and admins make to a job
//! (cancel, move, retry a failed one), plus the queue's depth for dashboards and a job's attempt
//! history. Reading jobs ([`crate::inspect()`], [`crate::failed_jobs`], [`crate::count`], …) is
//! at the crate's root.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{Acquire, PgConnection, PgExecutor, PgPool, Postgres};
use tokio_util::sync::CancellationToken;

use super::{JobId, JobKind, JobState, NOTIFY_CHANNEL, QueueError, secs};

/// Deletes `done` and `cancelled` jobs that finished more than `older_than` ago, in batches;
/// `failed` jobs stay for admins. Returns how many were deleted.
#[tracing::instrument(skip_all)]
pub async fn purge_finished(pool: &PgPool, older_than: Duration) -> Result<u64, QueueError> {
    let mut deleted = 0;
    loop {
        let result = sqlx::query!(
            "delete from jobs where id = any(array(
                 select id from jobs
                 where state in ('done', 'cancelled')
                   and finished_at < now() - make_interval(secs => $1)
                 limit 5000))",
            secs(older_than),
        )
        .execute(pool)
        .await?;
        deleted += result.rows_affected();
        if result.rows_affected() < 5000 {
            return Ok(deleted);
        }
    }
}

/// Runs [`purge_finished`] every `interval` until `shutdown`.
pub async fn run_retention(
    pool: PgPool,
    keep_finished: Duration,
    interval: Duration,
    shutdown: CancellationToken,
) {
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(interval) => {}
        }
        match purge_finished(&pool, keep_finished).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, "purged finished jobs"),
            Err(error) => tracing::warn!(%error, "retention pass failed"),
        }
    }
}

/// Cancels a job that has not finished successfully: pending, running or failed (its reason to
/// run is gone, or an admin gave up on it). A worker running it then finds its lease lost and
/// records nothing. Returns whether a job was cancelled.
#[tracing::instrument(skip_all, fields(job = id.0))]
pub async fn cancel_job<'e>(executor: impl PgExecutor<'e>, id: JobId) -> Result<bool, QueueError> {
    let result = sqlx::query!(
        "update jobs set state = 'cancelled', locked_until = null, finished_at = now(),
             updated_at = now()
         where id = $1 and state in ('pending', 'running', 'failed')",
        id.0,
    )
    .execute(executor)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Moves a pending job to a new due time (inside the caller's transaction) and wakes workers at
/// commit. Returns whether the job was pending.
#[tracing::instrument(skip_all, fields(job = id.0))]
pub async fn reschedule_job(
    conn: &mut PgConnection,
    id: JobId,
    run_at: DateTime<Utc>,
) -> Result<bool, QueueError> {
    let moved = sqlx::query_scalar!(
        "update jobs set run_at = $2, updated_at = now()
         where id = $1 and state = 'pending'
         returning queue",
        id.0,
        run_at,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(queue) = moved else {
        return Ok(false);
    };
    notify(conn, &queue).await?;
    Ok(true)
}

/// Returns a `failed` job to the queue with a fresh attempt budget, due now, and wakes workers at
/// commit. A job whose dedupe key a live job holds meanwhile stays failed ([`QueueError::NotFound`]).
#[tracing::instrument(skip_all, fields(job = id.0))]
pub async fn retry_failed(conn: &mut PgConnection, id: JobId) -> Result<(), QueueError> {
    let revived = revive_failed(conn, Some(id), None).await?;
    if revived.is_empty() {
        return Err(QueueError::NotFound(id));
    }
    Ok(())
}

/// Returns every `failed` job of `queue` to the queue (see [`retry_failed`]; those whose dedupe
/// key a live job holds are skipped); returns their ids.
#[tracing::instrument(skip_all, fields(queue))]
pub async fn retry_all_failed(
    conn: &mut PgConnection,
    queue: &str,
) -> Result<Vec<JobId>, QueueError> {
    revive_failed(conn, None, Some(queue)).await
}

/// Moves the failed jobs matching `id` and `queue` (`None` matches any) back to `pending` with a
/// fresh attempt budget, skipping those whose dedupe key a live job holds, and wakes their queues.
async fn revive_failed(
    conn: &mut PgConnection,
    id: Option<JobId>,
    queue: Option<&str>,
) -> Result<Vec<JobId>, QueueError> {
    let revived = sqlx::query!(
        "update jobs j set state = 'pending', attempts = 0, run_at = now(), finished_at = null,
             updated_at = now()
         where j.state = 'failed'
           and ($1::bigint is null or j.id = $1)
           and ($2::text is null or j.queue = $2)
           and not exists (
               select 1 from jobs live
               where live.queue = j.queue and live.dedupe_key = j.dedupe_key
                 and live.state in ('pending', 'running'))
         returning j.id, j.queue",
        id.map(|id| id.0),
        queue,
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut queues: Vec<&str> = revived.iter().map(|row| row.queue.as_str()).collect();
    queues.sort_unstable();
    queues.dedup();
    for queue in queues {
        notify(conn, queue).await?;
    }
    Ok(revived.into_iter().map(|row| JobId(row.id)).collect())
}

/// Purges `failed` jobs that failed more than `older_than` ago and that no admin acted on, in
/// batches. Returns how many were deleted.
#[tracing::instrument(skip_all)]
pub async fn purge_failed(pool: &PgPool, older_than: Duration) -> Result<u64, QueueError> {
    let mut deleted = 0;
    loop {
        let result = sqlx::query!(
            "delete from jobs where id = any(array(
                 select id from jobs
                 where state = 'failed' and finished_at < now() - make_interval(secs => $1)
                 order by finished_at
                 limit 5000))",
            secs(older_than),
        )
        .execute(pool)
        .await?;
        deleted += result.rows_affected();
        if result.rows_affected() < 5000 {
            return Ok(deleted);
        }
    }
}

/// The size of the queue at a glance, cheap enough to read every few seconds on a table of
/// millions of rows: no statement here scans the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Depth {
    /// Jobs per state, all queues together, one entry per state in [`JobState::ALL`] order: the
    /// planner's estimate (from the statistics autovacuum keeps), or an exact count while the
    /// table is small.
    pub states: Vec<(JobState, i64)>,
    /// Whether `states` is an estimate.
    pub estimated: bool,
    /// Pending jobs of the queue that are due now, counted exactly up to [`DUE_COUNT_CAP`]
    /// (keyed jobs that wait for an older job of their key included: they wait too).
    pub due_now: i64,
    /// How long the queue's oldest due job has waited, in seconds.
    pub oldest_due_secs: Option<f64>,
    /// The queue's oldest due job, the one that has waited `oldest_due_secs`.
    pub oldest_due: Option<DueJob>,
}

/// A pending job that is due and still waits for a worker.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DueJob {
    /// The job.
    pub id: JobId,
    /// When it fell due.
    pub run_at: DateTime<Utc>,
}

/// Due jobs are counted up to this many; a larger backlog shows as this number.
pub const DUE_COUNT_CAP: i64 = 10_000;
/// Below this many rows (by the table's statistics) the states are counted exactly.
const EXACT_BELOW: f64 = 20_000.0;

/// Reads the [`Depth`] of `queue` on one connection: a pool's (`&PgPool`), or the caller's.
#[tracing::instrument(skip_all, fields(queue))]
pub async fn depth<'c>(
    conn: impl Acquire<'c, Database = Postgres>,
    queue: &str,
) -> Result<Depth, QueueError> {
    let mut conn = conn.acquire().await?;
    let rows =
        sqlx::query_scalar!("select reltuples::float8 from pg_class where oid = 'jobs'::regclass")
            .fetch_one(&mut *conn)
            .await?
            .unwrap_or(-1.0);
    let estimated = rows >= EXACT_BELOW;
    let states = if estimated {
        estimated_state_counts(&mut conn, rows).await?
    } else {
        state_counts(&mut *conn).await?
    };
    // Off the claim index, a priority at a time (see `due_by_priority`): the due jobs of each,
    // and the oldest of their oldest.
    let levels = due_by_priority(&mut *conn, queue).await?;
    let due_now = levels.iter().map(|level| level.due_now).sum::<i64>();
    let oldest = levels
        .iter()
        .filter_map(|level| level.oldest_due.clone().zip(level.oldest_due_secs))
        .min_by_key(|(job, _)| (job.run_at, job.id));
    Ok(Depth {
        states,
        estimated,
        due_now: due_now.min(DUE_COUNT_CAP),
        oldest_due_secs: oldest.as_ref().map(|(_, secs)| *secs),
        oldest_due: oldest.map(|(job, _)| job),
    })
}

/// One priority's share of a queue's due jobs (see [`due_by_priority`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DueAtPriority {
    /// The priority (lower is claimed first).
    pub priority: i16,
    /// Its pending jobs that are due now, counted up to [`DUE_COUNT_CAP`].
    pub due_now: i64,
    /// How long its oldest due job has waited, in seconds.
    pub oldest_due_secs: Option<f64>,
    /// Its oldest due job.
    pub oldest_due: Option<DueJob>,
}

/// The due jobs of `queue` per priority that has pending jobs, lowest (first claimed) first: how
/// long answers wait next to how long reminders wait. Off the claim index, like [`depth`].
#[tracing::instrument(skip_all, fields(queue))]
pub async fn due_by_priority<'e>(
    executor: impl PgExecutor<'e>,
    queue: &str,
) -> Result<Vec<DueAtPriority>, QueueError> {
    let levels = sqlx::query!(
        r#"select p.priority as "priority!", counted.n as "due_now!",
                  first.id as "oldest_id?", first.run_at as "oldest_run_at?",
                  extract(epoch from now() - first.run_at)::float8 as oldest_due_secs
           from jobs_pending_priorities($1) p
           cross join lateral (
               select count(*) as n from (
                   select from jobs
                   where queue = $1 and state = 'pending' and priority = p.priority
                     and run_at <= now()
                   limit $2) d) counted
           left join lateral (
               select id, run_at from jobs
               where queue = $1 and state = 'pending' and priority = p.priority
                 and run_at <= now()
               order by run_at, id limit 1) first on true
           order by p.priority"#,
        queue,
        DUE_COUNT_CAP,
    )
    .fetch_all(executor)
    .await?;
    Ok(levels
        .into_iter()
        .map(|level| DueAtPriority {
            priority: level.priority,
            due_now: level.due_now,
            oldest_due_secs: level.oldest_due_secs,
            oldest_due: level
                .oldest_id
                .zip(level.oldest_run_at)
                .map(|(id, run_at)| DueJob {
                    id: JobId(id),
                    run_at,
                }),
        })
        .collect())
}

/// Moves every job of queue `from` to queue `to` (a queue renamed by a new version of its
/// program), in the caller's transaction; returns how many moved. Idempotent: once `from` is
/// empty it changes nothing.
#[tracing::instrument(skip(conn))]
pub async fn rename_queue(
    conn: &mut PgConnection,
    from: &str,
    to: &str,
) -> Result<u64, QueueError> {
    Ok(
        sqlx::query!("update jobs set queue = $2 where queue = $1", from, to)
            .execute(conn)
            .await?
            .rows_affected(),
    )
}

/// Moves the pending jobs of queue `from` to queue `to`; returns how many moved. While replicas
/// roll from a version that used `from` to one that uses `to`, the old replicas still enqueue into
/// `from`: the new ones adopt those jobs with this every little while (it reads only the index
/// of pending jobs, so it costs nothing once the old replicas are gone).
#[tracing::instrument(skip(pool))]
pub async fn adopt_pending(pool: &PgPool, from: &str, to: &str) -> Result<u64, QueueError> {
    let moved = sqlx::query!(
        "update jobs set queue = $2, updated_at = now() where queue = $1 and state = 'pending'",
        from,
        to
    )
    .execute(pool)
    .await?
    .rows_affected();
    if moved > 0 {
        sqlx::query!("select pg_notify($1, $2)", NOTIFY_CHANNEL, to)
            .execute(pool)
            .await?;
    }
    Ok(moved)
}

/// Writes the tag into the stored payloads of kind `J` that an earlier version wrote without it
/// ([`JobKind::UNTAGGED`]): every pending, running or failed job of `J`'s queue whose payload is an
/// object without the tag field and with exactly one of the sorts' fields gets that sort's tag
/// (done and cancelled jobs are history, and stay as they were). Returns how many changed.
/// Idempotent: a tagged payload is never changed again. Run it when a version that reads the
/// tag starts (it reads every unfinished job of the queue); the jobs an older replica writes
/// afterwards, while replicas roll, are read as tagged by [`crate::ClaimedJob::args`] until the
/// next start writes them too.
#[tracing::instrument(skip_all, fields(queue = J::QUEUE))]
pub async fn tag_untagged<'e, J: JobKind>(
    executor: impl PgExecutor<'e>,
) -> Result<u64, QueueError> {
    let untagged = J::UNTAGGED;
    if untagged.sorts.is_empty() {
        return Ok(0);
    }
    let (fields, sorts): (Vec<&str>, Vec<&str>) = untagged.sorts.iter().copied().unzip();
    let tagged = sqlx::query!(
        r#"update jobs j set payload = j.payload || jsonb_build_object($2::text, s.sort),
                             updated_at = now()
           from unnest($3::text[], $4::text[]) as s(field, sort)
           where j.queue = $1 and j.state in ('pending', 'running', 'failed')
             and jsonb_typeof(j.payload) = 'object' and not j.payload ? $2
             and j.payload ? s.field
             and (select count(*) from unnest($3::text[]) f(field) where j.payload ? f.field) = 1"#,
        J::QUEUE,
        untagged.tag,
        &fields as &[&str],
        &sorts as &[&str],
    )
    .execute(executor)
    .await?
    .rows_affected();
    Ok(tagged)
}

/// Jobs per state by the planner's statistics of the `state` column and the table's row count.
async fn estimated_state_counts(
    conn: &mut PgConnection,
    rows: f64,
) -> Result<Vec<(JobState, i64)>, QueueError> {
    let frequencies = sqlx::query!(
        r#"select v.state as "state!", v.freq::float8 as "freq!"
           from pg_stats s,
                unnest(s.most_common_vals::text::text[], s.most_common_freqs) as v(state, freq)
           where s.schemaname = current_schema() and s.tablename = 'jobs'
             and s.attname = 'state'"#
    )
    .fetch_all(conn)
    .await?;
    Ok(JobState::ALL
        .iter()
        .map(|state| {
            let freq = frequencies
                .iter()
                .find(|row| row.state == state.as_str())
                .map_or(0.0, |row| row.freq);
            (*state, (freq * rows).round() as i64)
        })
        .collect())
}

/// The number of jobs in each state, all queues together, one pair per state in
/// [`JobState::ALL`] order (an exact count: a scan of the whole table; dashboards use [`depth`]).
#[tracing::instrument(skip_all)]
pub async fn state_counts<'e>(
    executor: impl PgExecutor<'e>,
) -> Result<Vec<(JobState, i64)>, QueueError> {
    let counts = sqlx::query!(
        r#"select s.state as "state!: JobState", count(j.id) as "count!"
           from unnest(array['pending', 'running', 'done', 'failed', 'cancelled']) as s(state)
           left join jobs j on j.state = s.state
           group by s.state order by s.state"#
    )
    .fetch_all(executor)
    .await?;
    Ok(counts
        .into_iter()
        .map(|row| (row.state, row.count))
        .collect())
}

/// Refreshes the planner's statistics of the queue's tables at once, as autovacuum would in a
/// while: after a bulk enqueue (a benchmark's), so that the claims that follow are planned on
/// the table as it now is.
#[tracing::instrument(skip_all)]
pub async fn analyze<'e>(executor: impl PgExecutor<'e>) -> Result<(), QueueError> {
    sqlx::query!("analyze jobs, job_attempts")
        .execute(executor)
        .await?;
    Ok(())
}

async fn notify(conn: &mut PgConnection, queue: &str) -> Result<(), QueueError> {
    sqlx::query!("select pg_notify($1, $2)", NOTIFY_CHANNEL, queue)
        .execute(conn)
        .await?;
    Ok(())
}

/// What an attempt came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum AttemptOutcome {
    /// It failed and the job was retried later.
    Retry,
    /// Flood control turned it away (not counted as an attempt).
    Throttled,
    /// It failed for good.
    Failed,
    /// It succeeded (after earlier failures).
    Done,
    /// The job was cancelled.
    Cancelled,
}

impl AttemptOutcome {
    /// The outcome as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Retry => "retry",
            Self::Throttled => "throttled",
            Self::Failed => "failed",
            Self::Done => "done",
            Self::Cancelled => "cancelled",
        }
    }
}

/// One finished attempt of a job that failed at least once.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Attempt {
    /// Which attempt (1 for the first try).
    pub attempt: i32,
    /// The worker that ran it.
    pub worker: Option<String>,
    /// When it was claimed.
    pub started_at: Option<DateTime<Utc>>,
    /// When its result was recorded.
    pub finished_at: DateTime<Utc>,
    /// What it came to.
    pub outcome: AttemptOutcome,
    /// The error, for retries and failures.
    pub error: Option<String>,
    /// The class of that error.
    pub error_class: Option<String>,
}

/// The recorded attempts of a job, oldest first (the newest 20 are kept).
#[tracing::instrument(skip_all, fields(job = id.0))]
pub async fn attempts<'e>(
    executor: impl PgExecutor<'e>,
    id: JobId,
) -> Result<Vec<Attempt>, QueueError> {
    Ok(sqlx::query_as!(
        Attempt,
        r#"select attempt, worker, started_at, finished_at,
                  outcome as "outcome: AttemptOutcome", error, error_class
           from job_attempts where job_id = $1 order by id"#,
        id.0,
    )
    .fetch_all(executor)
    .await?)
}
