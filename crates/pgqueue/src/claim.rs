//! Claiming due jobs, and finding when the next one falls due.
//!
//! The pending jobs of a queue are indexed by `(queue, priority, run_at, id)` (`jobs_pending_claim`).
//! A queue has few priorities, so the reads that want the earliest due jobs walk them: the SQL
//! function `jobs_pending_priorities` finds each priority that has pending jobs with one index
//! probe (a loose index scan), and each priority's due jobs are read off its own range of the
//! index in `run_at` order, stopping at the first job not due yet. A single-priority queue costs
//! one extra probe; no read walks the jobs that are due later.

use std::time::Duration;

use super::{ClaimedJob, DoneJobs, JobId, Queue, QueueError, secs};

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

    /// Marks `done` the job this worker ran and claims the next due job of the queue for
    /// `worker`, in one statement and one commit (the SQL function `complete_and_claim_job`): a
    /// worker that takes one job at a time pays one round trip per job instead of two, and the
    /// work stays outside any transaction. The completion is fenced as [`Queue::complete`] is; the
    /// claim follows it, so the next job of `done`'s serial key may be the one taken.
    ///
    /// It runs on an idle connection of the pool taken as it is (`PgPool::try_acquire`), without
    /// the liveness ping the pool's `acquire` sends first by default: that ping is a round trip
    /// of its own, and a worker loop on its own connection does not pay it. When no connection is
    /// idle, or the statement fails on the one taken (a connection the server closed), it runs
    /// once more through the pool's `acquire`, ping included. A repeat is harmless: the
    /// completion is fenced, and the claim is a transaction of its own.
    ///
    /// Returns whether the completion was recorded (`false`: the lease was lost and nothing was
    /// changed, as [`QueueError::LeaseLost`] means elsewhere) and the next job, if one is due.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name, job = done.id.0, claim = done.claim))]
    pub async fn complete_and_claim(
        &self,
        done: &ClaimedJob,
        worker: &str,
    ) -> Result<(bool, Option<ClaimedJob>), QueueError> {
        let statement = || {
            sqlx::query!(
                r#"select completed as "completed!", id, queue, payload, attempt, max_attempts,
                          claim, throttles, serial_key, priority, run_at, locked_until
                   from complete_and_claim_job($1, $2, $3, $4, $5, $6)"#,
                done.id.0,
                done.claim,
                self.config.name,
                secs(self.config.lease),
                worker,
                self.config.done_jobs == DoneJobs::Deleted,
            )
        };
        let idle = match self.pool.try_acquire() {
            Some(mut conn) => statement().fetch_one(&mut *conn).await.ok(),
            None => None,
        };
        let row = match idle {
            Some(row) => row,
            None => statement().fetch_one(&self.pool).await?,
        };
        // The function's columns are all null when no job was due, none of them null otherwise.
        let next = match (
            row.id,
            row.queue,
            row.payload,
            row.attempt,
            row.max_attempts,
            row.claim,
            row.throttles,
            row.priority,
            row.run_at,
            row.locked_until,
        ) {
            (
                Some(id),
                Some(queue),
                Some(payload),
                Some(attempt),
                Some(max_attempts),
                Some(claim),
                Some(throttles),
                Some(priority),
                Some(run_at),
                Some(locked_until),
            ) => Some(ClaimedJob {
                id: JobId(id),
                queue,
                payload,
                attempt,
                max_attempts,
                claim,
                throttles,
                serial_key: row.serial_key,
                priority,
                run_at,
                locked_until,
            }),
            _ => None,
        };
        Ok((row.completed, next))
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
