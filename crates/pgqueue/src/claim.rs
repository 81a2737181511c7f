//! Claiming due jobs, and finding when the next one falls due.

use std::time::Duration;

use super::{ClaimedJob, Queue, QueueError, secs};

impl Queue {
    /// Claims up to `limit` due jobs for `worker` in one statement: counts the attempt and sets the
    /// lease. Rows other workers hold are skipped, not waited for. The candidates are gathered by
    /// `= any(array(…))`, an InitPlan that runs exactly once: the planner can neither re-run the
    /// LIMITed subquery and over-claim (as a bare `in (select … limit n)` may) nor turn the update
    /// into a hash join over the whole table.
    /// Returns the jobs oldest-due first.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name, limit))]
    pub async fn claim(&self, worker: &str, limit: i64) -> Result<Vec<ClaimedJob>, QueueError> {
        let mut jobs = sqlx::query_as!(
            ClaimedJob,
            r#"update jobs j
               set state = 'running', attempts = j.attempts + 1, claims = j.claims + 1,
                   locked_until = now() + make_interval(secs => $3), locked_by = $4,
                   claimed_at = now(), updated_at = now()
               where j.id = any(array(
                   select id from jobs
                   where queue = $1 and state = 'pending' and run_at <= now()
                   order by run_at, id
                   limit $2
                   for update skip locked))
               returning j.id, j.queue, j.payload, j.attempts as attempt, j.max_attempts,
                         j.claims as claim, j.throttles, j.run_at,
                         j.locked_until as "locked_until!""#,
            self.config.name,
            limit,
            secs(self.config.lease),
            worker,
        )
        .fetch_all(&self.pool)
        .await?;
        jobs.sort_by_key(|j| (j.run_at, j.id));
        Ok(jobs)
    }

    /// How long until the queue's earliest pending job is due, by the database clock: zero when one
    /// is due now, `None` when nothing is pending.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name))]
    pub async fn next_due_in(&self) -> Result<Option<Duration>, QueueError> {
        let seconds = sqlx::query_scalar!(
            "select extract(epoch from min(run_at) - now())::float8
             from jobs where queue = $1 and state = 'pending'",
            self.config.name,
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(seconds.map(|s| Duration::from_secs_f64(s.max(0.0))))
    }
}
