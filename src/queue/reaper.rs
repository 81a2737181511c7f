//! The reaper: jobs whose lease expired (their worker died or hung) go back to `pending`, or to
//! `failed` when their attempts are used up.

use std::time::Duration;

use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use super::QueueError;

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
#[tracing::instrument(skip_all)]
pub async fn reap_expired(pool: &PgPool, limit: i64) -> Result<Reaped, QueueError> {
    let reaped: Vec<(String, String)> = sqlx::query_as(
        "with reaped as (
         update jobs j
         set state = case when j.attempts >= j.max_attempts then 'failed' else 'pending' end,
             last_error = 'lease expired: the worker stopped answering (attempt '
                          || j.attempts || ' of ' || j.max_attempts || ')',
             finished_at = case when j.attempts >= j.max_attempts then now() end,
             locked_until = null, locked_by = null, run_at = now(), updated_at = now()
         where j.id = any(array(
                 select id from jobs
                 where state = 'running' and locked_until < now()
                 order by locked_until
                 limit $1
                 for update skip locked))
           and j.state = 'running' and j.locked_until < now()
         returning j.state, j.queue),
         woken as (
             select pg_notify($2, queue) from (select distinct queue from reaped
                                               where state = 'pending') q)
         select state, queue from reaped, (select count(*) from woken) w",
    )
    .bind(limit)
    .bind(super::NOTIFY_CHANNEL)
    .fetch_all(pool)
    .await?;
    let failed = reaped.iter().filter(|(state, _)| state == "failed").count() as u64;
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

/// Runs [`reap_expired`] every `interval` (with jitter, so processes do not reap in step) until
/// `shutdown`.
pub async fn run(pool: PgPool, interval: Duration, shutdown: CancellationToken) {
    loop {
        let jitter = interval.mul_f64(rand::random_range(0.0..0.25));
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(interval + jitter) => {}
        }
        const BATCH: i64 = 1000;
        loop {
            match reap_expired(&pool, BATCH).await {
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
