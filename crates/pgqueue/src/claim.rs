//! Claiming due jobs, and finding when the next one falls due.
//!
//! The pending jobs of a queue are indexed by `(queue, priority, run_at, id)` (`jobs_pending_claim`).
//! A queue has few priorities, so the reads that want the earliest due jobs walk them: the SQL
//! function `jobs_pending_priorities` finds each priority that has pending jobs with one index
//! probe (a loose index scan), and each priority's due jobs are read off its own range of the
//! index in `run_at` order, stopping at the first job not due yet. A single-priority queue costs
//! one extra probe; no read walks the jobs that are due later.

use std::time::Duration;

use super::{ClaimedJob, Queue, QueueError, secs};

impl Queue {
    /// Claims up to `limit` due jobs for `worker` in one statement: counts the attempt and sets the
    /// lease. Rows other workers hold are skipped, not waited for. The candidates are gathered by
    /// `= any(array(…))`, an InitPlan that runs exactly once: the planner can neither re-run the
    /// LIMITed subquery and over-claim (as a bare `in (select … limit n)` may) nor turn the update
    /// into a hash join over the whole table.
    ///
    /// Due jobs are taken by priority, then due time, then id. A job with a serial key is taken only
    /// when no job of its queue and key is running and no older one (smaller id) is pending, so a
    /// claim returns at most one job per key, each key's oldest. Both checks read the statement's
    /// snapshot, not the row locks: a claimer that skips an older job of the key because another
    /// claimer holds it (SKIP LOCKED) still sees it pending and leaves the newer ones alone, and in
    /// every committed state a key's older job is pending or running until it is done, failed or
    /// cancelled. The unique index `jobs_serial_running` backs this up: if a claim races with an
    /// admin's retry of a failed job of the key (a finished job that comes back), the database
    /// refuses the second running job and that claim fails instead.
    ///
    /// The statement is the SQL function `claim_jobs` (in the queue's migrations), so that its plan
    /// is made once per connection rather than at every claim (see the function's comment).
    /// Returns the jobs in claim order: priority, due time, id.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name, limit))]
    pub async fn claim(&self, worker: &str, limit: i64) -> Result<Vec<ClaimedJob>, QueueError> {
        let mut jobs = sqlx::query_as!(
            ClaimedJob,
            r#"select id as "id!", queue as "queue!", payload as "payload!",
                      attempt as "attempt!", max_attempts as "max_attempts!", claim as "claim!",
                      throttles as "throttles!", serial_key, priority as "priority!",
                      run_at as "run_at!", locked_until as "locked_until!"
               from claim_jobs($1, $2, $3, $4)"#,
            self.config.name,
            limit,
            secs(self.config.lease),
            worker,
        )
        .fetch_all(&self.pool)
        .await?;
        jobs.sort_by_key(|j| (j.priority, j.run_at, j.id));
        Ok(jobs)
    }

    /// How long until the queue's earliest pending job is due, by the database clock: zero when one
    /// is due now, `None` when nothing is pending. A keyed job waiting for the job ahead of it
    /// counts as due: the runner then looks again after its cooldown, and the statement that
    /// finishes a keyed job wakes the queue when a job of its key is pending (a NOTIFY from the
    /// `jobs_after_transition` trigger).
    #[tracing::instrument(skip_all, fields(queue = %self.config.name))]
    pub async fn next_due_in(&self) -> Result<Option<Duration>, QueueError> {
        let seconds = sqlx::query_scalar!(
            "select extract(epoch from min(first.run_at) - now())::float8
             from jobs_pending_priorities($1) p
             cross join lateral (
                 select run_at from jobs
                 where queue = $1 and state = 'pending' and priority = p.priority
                 order by run_at limit 1) first",
            self.config.name,
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(seconds.map(|s| Duration::from_secs_f64(s.max(0.0))))
    }
}
