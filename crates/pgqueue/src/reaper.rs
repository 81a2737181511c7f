//! The reaper: jobs whose worker is gone go back to `pending`, or to `failed` when their attempts
//! are used up. A worker is gone when its lease expired (it died or hung), or at once when it had
//! announced its presence ([`crate::presence`]) and its process died.

use std::time::Duration;

use serde_json::Value;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use super::hook::GaveUp;
use super::{JobError, JobId, Queue, QueueError};

/// What one reaper pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reaped {
    /// Jobs returned to `pending`.
    pub returned: u64,
    /// Jobs moved to `failed` (no attempts left).
    pub failed: u64,
}

/// Returns up to `limit` jobs of any queue whose worker is gone, and wakes the workers of their
/// queues: jobs whose lease expired (their worker died or hung), and at once the jobs of a worker
/// whose [`crate::presence::Presence`] lock is free (its process died). Safe when several
/// processes run it at once: rows are taken with SKIP LOCKED and re-checked by the UPDATE, so a
/// job that its worker completed in the meantime is left alone. A job moved to `failed` runs the
/// give-up hook of its queue, when `queues` holds a handle on that queue, in the same transaction.
#[tracing::instrument(skip_all)]
pub async fn reap_expired(
    pool: &PgPool,
    queues: &[Queue],
    limit: i64,
) -> Result<Reaped, QueueError> {
    let mut tx = pool.begin().await?;
    // A registered worker whose lock this transaction can take is gone: its registration goes,
    // and the lock is released at commit.
    let reaped = sqlx::query_as!(
        ReapedRow,
        r#"with gone as (
               delete from queue_workers w
               where pg_try_advisory_xact_lock(w.lock_key)
               returning w.worker_id),
           reaped as (
           update jobs j
           set state = case when j.attempts >= j.max_attempts then 'failed' else 'pending' end,
               last_error = case when j.locked_until < now()
                                 then 'lease expired: the worker stopped answering'
                                 else 'worker lost: its process stopped' end
                            || ' (attempt ' || j.attempts || ' of ' || j.max_attempts || ')',
               error_class = case when j.locked_until < now() then $3 else $4 end,
               finished_at = case when j.attempts >= j.max_attempts then now() end,
               locked_until = null, locked_by = null, run_at = now(), updated_at = now()
           where j.id = any(array(
                   select id from jobs
                   where state = 'running'
                     and (locked_until < now() or locked_by in (select worker_id from gone))
                   order by locked_until
                   limit $1
                   for update skip locked))
             and j.state = 'running'
             and (j.locked_until < now() or j.locked_by in (select worker_id from gone))
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
    )
    .fetch_all(&mut *tx)
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
