//! The reaper: jobs whose worker is gone go back to `pending`, or to `failed` when their attempts
//! are used up. A job is taken only when its lease has expired, so a worker that re-checks its
//! claim right before an act that must not happen twice ([`crate::Queue::recheck`], which
//! extends the lease) is never robbed while it acts. Its worker decides how soon after that:
//!
//! - a worker without a registration (no [`crate::presence`], or one that stopped gracefully):
//!   at once;
//! - a registered worker whose lock is free (its process died, or its connection broke in a
//!   database blip): once it has been missing for [`GRACE`], counted from the first pass that
//!   found it so (`worker_lost`); its registration goes once none of its jobs is left running. A
//!   live process takes its lock again within a second or two of the database coming back, and
//!   keeps its jobs;
//! - a present worker (its lock held): [`GRACE`] after the lease expired or after it took its
//!   lock again, whichever is later, so that a process back from a blip records what it did while
//!   the database was away before anyone else may run the job again.

use std::time::Duration;

use serde_json::Value;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use super::hook::GaveUp;
use super::{JobError, JobId, Queue, QueueError, secs};

/// How long a registered worker may be missing, or a present one may hold a job past its lease,
/// before the reaper takes its jobs (see the module docs).
pub const GRACE: Duration = Duration::from_secs(10);

/// The advisory lock a reaper pass holds ("PQREAPER"; the presence locks are "PQ" and a sequence).
const PASS_LOCK: i64 = 0x5051_5245_4150_4552;

/// What one reaper pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reaped {
    /// Jobs returned to `pending`.
    pub returned: u64,
    /// Jobs moved to `failed` (no attempts left).
    pub failed: u64,
}

/// Returns up to `limit` jobs of any queue whose worker is gone ([`reap`] with [`GRACE`]).
pub async fn reap_expired(
    pool: &PgPool,
    queues: &[Queue],
    limit: i64,
) -> Result<Reaped, QueueError> {
    reap(pool, queues, limit, GRACE).await
}

/// Returns up to `limit` jobs of any queue whose worker is gone, by the rules of the module docs
/// with `grace` for [`GRACE`], and wakes the workers of their queues. Safe when several
/// processes run it at once: one pass runs at a time (another returns at once, having done
/// nothing), and rows are taken with SKIP LOCKED and re-checked by the UPDATE, so a job that its
/// worker completed or re-checked in the meantime is left alone. A job moved to
/// `failed` runs the give-up hook of its queue, when `queues` holds a handle on that queue, in
/// the same transaction.
#[tracing::instrument(skip_all)]
pub async fn reap(
    pool: &PgPool,
    queues: &[Queue],
    limit: i64,
    grace: Duration,
) -> Result<Reaped, QueueError> {
    let mut tx = pool.begin().await?;
    // One pass at a time: a pass holds the locks of the missing workers it examines, and another
    // pass would take such a worker for present.
    let alone = sqlx::query_scalar!(
        r#"select pg_try_advisory_xact_lock($1) as "alone!""#,
        PASS_LOCK
    )
    .fetch_one(&mut *tx)
    .await?;
    if !alone {
        return Ok(Reaped::default());
    }
    // A registered worker whose lock this transaction can take is missing: noted the first time.
    // The locks are held until commit, so none of them is taken again during this pass.
    let missing = sqlx::query_scalar!(
        r#"with missing as (
               select worker_id, missing_since from queue_workers
               where pg_try_advisory_xact_lock(lock_key)),
           noted as (
               update queue_workers w set missing_since = now()
               from missing m
               where w.worker_id = m.worker_id and m.missing_since is null)
           select worker_id as "worker_id!" from missing"#,
    )
    .fetch_all(&mut *tx)
    .await?;
    let reaped = sqlx::query_as!(
        ReapedRow,
        r#"with reaped as (
           update jobs j
           set state = case when j.attempts >= j.max_attempts then 'failed' else 'pending' end,
               last_error = case when j.locked_by = any($5)
                                 then 'worker lost: its process stopped or lost the database'
                                 else 'lease expired: the worker stopped answering' end
                            || ' (attempt ' || j.attempts || ' of ' || j.max_attempts || ')',
               error_class = case when j.locked_by = any($5) then $4 else $3 end,
               finished_at = case when j.attempts >= j.max_attempts then now() end,
               locked_until = null, locked_by = null, run_at = now(), updated_at = now()
           where j.id = any(array(
                   select id from jobs
                   where state = 'running' and locked_until < now()
                     and not exists (
                         select 1 from queue_workers w
                         where w.worker_id = jobs.locked_by
                           and case when w.missing_since is null
                                    then greatest(jobs.locked_until, w.started_at)
                                    else w.missing_since end
                               > now() - make_interval(secs => $6))
                   order by locked_until
                   limit $1
                   for update skip locked))
             and j.state = 'running' and j.locked_until < now()
           returning j.id, j.state, j.queue, j.payload, j.last_error, j.error_class),
           woken as (
               select pg_notify($2, queue) from (select distinct queue from reaped
                                                 where state = 'pending') q)
           select id as "id!", state = 'failed' as "failed!", queue as "queue!",
                  payload as "payload!", last_error, error_class
           from reaped, (select count(*) from woken) w"#,
        limit,
        super::NOTIFY_CHANNEL,
        JobError::LEASE_EXPIRED,
        JobError::WORKER_LOST,
        &missing,
        secs(grace),
    )
    .fetch_all(&mut *tx)
    .await?;
    // A worker missing for the grace is gone once none of its jobs is left running.
    sqlx::query!(
        "delete from queue_workers w
         where w.worker_id = any($1)
           and w.missing_since < now() - make_interval(secs => $2)
           and not exists (select 1 from jobs where state = 'running' and locked_by = w.worker_id)",
        &missing,
        secs(grace),
    )
    .execute(&mut *tx)
    .await?;
    for row in reaped.iter().filter(|row| row.failed) {
        if let Some(queue) = queues.iter().find(|q| q.name() == row.queue) {
            let message = row.last_error.clone().unwrap_or_default();
            let class = if row.error_class.as_deref() == Some(JobError::WORKER_LOST) {
                JobError::WORKER_LOST
            } else {
                JobError::LEASE_EXPIRED
            };
            let error = JobError::new(class, message);
            queue
                .run_give_up_hook(&mut tx, row.id, &row.payload, GaveUp::Failed(error))
                .await?;
        }
    }
    tx.commit().await?;
    let failed = reaped.iter().filter(|row| row.failed).count() as u64;
    let reaped = Reaped {
        returned: reaped.len() as u64 - failed,
        failed,
    };
    if reaped != Reaped::default() {
        tracing::warn!(
            returned = reaped.returned,
            failed = reaped.failed,
            "reaped expired leases"
        );
    }
    Ok(reaped)
}

/// One job the reaper took back.
struct ReapedRow {
    id: JobId,
    failed: bool,
    queue: String,
    payload: Value,
    last_error: Option<String>,
    error_class: Option<String>,
}

/// Runs [`reap_expired`] every `interval` (with jitter, so processes do not reap in step) until
/// `shutdown`, with the give-up hooks of `queues`.
pub async fn run(
    pool: PgPool,
    queues: Vec<Queue>,
    interval: Duration,
    shutdown: CancellationToken,
) {
    loop {
        let jitter = interval.mul_f64(rand::random_range(0.0..0.25));
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(interval + jitter) => {}
        }
        const BATCH: i64 = 1000;
        loop {
            match reap_expired(&pool, &queues, BATCH).await {
                Ok(r) if r.returned + r.failed == BATCH as u64 => continue,
                Ok(_) => break,
                Err(error) => {
                    tracing::warn!(%error, "reaper pass failed");
                    break;
                }
            }
        }
    }
}
