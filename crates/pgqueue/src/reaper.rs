//! The reaper: jobs whose lease expired (their worker died or hung) go back to `pending`, or to
//! `failed` when their attempts are used up.

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

/// Returns up to `limit` jobs of any queue whose lease expired, and wakes the workers of their
/// queues. Safe when several processes run it at once: rows are taken with SKIP LOCKED and
/// re-checked by the UPDATE, so a job that its worker completed in the meantime is left alone.
/// A job moved to `failed` runs the give-up hook of its queue, when `queues` holds a handle on
/// that queue, in the same transaction.
#[tracing::instrument(skip_all)]
pub async fn reap_expired(
    pool: &PgPool,
    queues: &[Queue],
    limit: i64,
) -> Result<Reaped, QueueError> {
    let mut tx = pool.begin().await?;
    let reaped = sqlx::query_as!(
        ReapedRow,
        r#"with reaped as (
           update jobs j
           set state = case when j.attempts >= j.max_attempts then 'failed' else 'pending' end,
               last_error = 'lease expired: the worker stopped answering (attempt '
                            || j.attempts || ' of ' || j.max_attempts || ')',
               error_class = $3,
               finished_at = case when j.attempts >= j.max_attempts then now() end,
               locked_until = null, locked_by = null, run_at = now(), updated_at = now()
           where j.id = any(array(
                   select id from jobs
                   where state = 'running' and locked_until < now()
                   order by locked_until
                   limit $1
                   for update skip locked))
             and j.state = 'running' and j.locked_until < now()
           returning j.id, j.state, j.queue, j.payload, j.last_error),
           woken as (
               select pg_notify($2, queue) from (select distinct queue from reaped
                                                 where state = 'pending') q)
           select id as "id!", state = 'failed' as "failed!", queue as "queue!",
                  payload as "payload!", last_error
           from reaped, (select count(*) from woken) w"#,
        limit,
        super::NOTIFY_CHANNEL,
        JobError::LEASE_EXPIRED,
    )
    .fetch_all(&mut *tx)
    .await?;
    for row in reaped.iter().filter(|row| row.failed) {
        if let Some(queue) = queues.iter().find(|q| q.name() == row.queue) {
            let message = row.last_error.clone().unwrap_or_default();
            let error = JobError::new(JobError::LEASE_EXPIRED, message);
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
