//! The transitions out of `running`. Each is fenced on the claimed attempt
//! (`where id = $1 and state = 'running' and claims = $2`) and checks the row count: a worker
//! whose lease expired and whose job was reaped, re-claimed or cancelled gets
//! [`QueueError::LeaseLost`] and changes nothing.

use std::time::Duration;

use serde_json::Value;
use sqlx::{Acquire, PgConnection, PgExecutor, Postgres};

use super::hook::{GaveUp, GivenUpJob};
use super::{ClaimedJob, DoneJobs, JobError, JobId, Queue, QueueError, secs};

/// What a retry did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryOutcome {
    /// The job is pending again, due after this delay.
    Scheduled(Duration),
    /// The attempts are used up: the job is `failed` with the error.
    Failed,
}

impl Queue {
    /// Marks the job `done` (or deletes it, in a queue whose done jobs are deleted, unless it has
    /// a serial key or an error on record: [`DoneJobs::Deleted`]). Pass `&mut *tx` to record it in
    /// the same transaction as the job's own effects.
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn complete<'e>(
        &self,
        executor: impl PgExecutor<'e>,
        job: &ClaimedJob,
    ) -> Result<(), QueueError> {
        if self.config.done_jobs == DoneJobs::Deleted && job.serial_key.is_none() {
            // One statement: the delete and the update take disjoint rows (an error on record or
            // not), so at most one of them writes the job.
            let recorded = sqlx::query_scalar!(
                r#"with deleted as (
                       delete from jobs
                       where id = $1 and state = 'running' and claims = $2 and last_error is null
                       returning 1),
                   updated as (
                       update jobs set state = 'done', locked_until = null, finished_at = now(),
                           updated_at = now()
                       where id = $1 and state = 'running' and claims = $2
                         and last_error is not null
                       returning 1)
                   select (select count(*) from deleted) + (select count(*) from updated)
                       as "recorded!""#,
                job.id.0,
                job.claim,
            )
            .fetch_one(executor)
            .await?;
            return fenced(recorded as u64, job);
        }
        let result = sqlx::query!(
            "update jobs set state = 'done', locked_until = null, finished_at = now(),
                 updated_at = now()
             where id = $1 and state = 'running' and claims = $2",
            job.id.0,
            job.claim,
        )
        .execute(executor)
        .await?;
        fenced(result.rows_affected(), job)
    }

    /// Marks many claimed jobs `done` in one statement; returns the `(id, claim)` pairs whose lease
    /// was lost (not recorded). Each row's fence is looked up by position in the arrays rather than
    /// by joining the unnested pairs: a join lets the planner, misled by the queue's ever-changing
    /// statistics, pick a hash join over the whole table or a quadratic nested loop.
    #[tracing::instrument(skip_all, fields(jobs = claims.len()))]
    pub async fn complete_many(
        &self,
        claims: &[(JobId, i32)],
    ) -> Result<Vec<(JobId, i32)>, QueueError> {
        self.complete_many_in(&self.pool, claims).await
    }

    /// [`Queue::complete_many`] through `executor`: pass `&mut *tx` to record the jobs in the same
    /// transaction as their effects (one statement for all of them). The caller decides what a
    /// lost lease (returned, not recorded) means for the effects already written.
    #[tracing::instrument(skip_all, fields(jobs = claims.len()))]
    pub async fn complete_many_in<'e>(
        &self,
        executor: impl PgExecutor<'e>,
        claims: &[(JobId, i32)],
    ) -> Result<Vec<(JobId, i32)>, QueueError> {
        // A job can appear once per statement: of two claims of one job only the newer can hold.
        let mut newest: std::collections::HashMap<JobId, i32> = std::collections::HashMap::new();
        for &(id, claim) in claims {
            let entry = newest.entry(id).or_insert(claim);
            *entry = (*entry).max(claim);
        }
        let (ids, fences): (Vec<i64>, Vec<i32>) = newest.iter().map(|(id, c)| (id.0, *c)).unzip();
        let done = if self.config.done_jobs == DoneJobs::Deleted {
            // The delete and the update take disjoint rows (keyless without an error on record, or
            // not), so each job is written once.
            sqlx::query_scalar!(
                r#"with deleted as (
                       delete from jobs j
                       where j.id = any($1) and j.state = 'running'
                         and j.claims = ($2::int[])[array_position($1, j.id)]
                         and j.serial_key is null and j.last_error is null
                       returning j.id),
                   updated as (
                       update jobs j set state = 'done', locked_until = null, finished_at = now(),
                           updated_at = now()
                       where j.id = any($1) and j.state = 'running'
                         and j.claims = ($2::int[])[array_position($1, j.id)]
                         and (j.serial_key is not null or j.last_error is not null)
                       returning j.id)
                   select id as "id!" from deleted union all select id from updated"#,
                &ids,
                &fences,
            )
            .fetch_all(executor)
            .await?
        } else {
            sqlx::query_scalar!(
                "update jobs j set state = 'done', locked_until = null, finished_at = now(),
                     updated_at = now()
                 where j.id = any($1) and j.state = 'running'
                   and j.claims = ($2::int[])[array_position($1, j.id)]
                 returning j.id",
                &ids,
                &fences,
            )
            .fetch_all(executor)
            .await?
        };
        if done.len() == claims.len() {
            return Ok(Vec::new());
        }
        let done: std::collections::HashSet<JobId> = done.into_iter().map(JobId).collect();
        Ok(claims
            .iter()
            .filter(|(id, claim)| !done.contains(id) || newest[id] != *claim)
            .copied()
            .collect())
    }

    /// Records a failed attempt: back to `pending` after the queue's backoff (at least `floor`, such
    /// as Telegram's `retry_after`), or `failed` with `error` when the attempts are used up.
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn retry(
        &self,
        job: &ClaimedJob,
        error: impl Into<JobError>,
        floor: Option<Duration>,
    ) -> Result<RetryOutcome, QueueError> {
        let error = error.into();
        if job.is_last_attempt() {
            self.fail(&self.pool, job, error).await?;
            return Ok(RetryOutcome::Failed);
        }
        let delay = self.config.backoff.delay(job.attempt, floor);
        let result = sqlx::query!(
            "update jobs set state = 'pending', locked_until = null, locked_by = null,
                 run_at = now() + make_interval(secs => $3),
                 last_error = $4, error_class = $5, updated_at = now()
             where id = $1 and state = 'running' and claims = $2",
            job.id.0,
            job.claim,
            secs(delay),
            error.message,
            error.class.as_ref(),
        )
        .execute(&self.pool)
        .await?;
        fenced(result.rows_affected(), job)?;
        Ok(RetryOutcome::Scheduled(delay))
    }

    /// Puts the job back to `pending` after `delay` without counting the attempt (a snooze: the job
    /// could not run yet, such as a chat that is not ready for another message).
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn reschedule(&self, job: &ClaimedJob, delay: Duration) -> Result<(), QueueError> {
        let result = sqlx::query!(
            "update jobs set state = 'pending', locked_until = null, locked_by = null,
                 run_at = now() + make_interval(secs => $3), attempts = attempts - 1,
                 updated_at = now()
             where id = $1 and state = 'running' and claims = $2",
            job.id.0,
            job.claim,
            secs(delay),
        )
        .execute(&self.pool)
        .await?;
        fenced(result.rows_affected(), job)
    }

    /// Puts the job back to `pending` after `delay` because flood control turned it away (a 429):
    /// the attempt is given back, as for a snooze, but the refusal is counted in `throttles` and
    /// `error` is kept as the last error and in the attempt history.
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn throttle(
        &self,
        job: &ClaimedJob,
        delay: Duration,
        error: impl Into<JobError>,
    ) -> Result<(), QueueError> {
        let error = error.into();
        let result = sqlx::query!(
            "update jobs set state = 'pending', locked_until = null, locked_by = null,
                 run_at = now() + make_interval(secs => $3),
                 attempts = attempts - 1, throttles = throttles + 1, last_error = $4,
                 error_class = $5, updated_at = now()
             where id = $1 and state = 'running' and claims = $2",
            job.id.0,
            job.claim,
            secs(delay),
            error.message,
            error.class.as_ref(),
        )
        .execute(&self.pool)
        .await?;
        fenced(result.rows_affected(), job)
    }

    /// Returns a claimed job that has not run to the queue at once, without counting the attempt
    /// (graceful shutdown).
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn release(&self, job: &ClaimedJob) -> Result<(), QueueError> {
        self.release_many(std::slice::from_ref(job))
            .await
            .and_then(|lost| match lost.first() {
                Some(_) => Err(lease_lost(job)),
                None => Ok(()),
            })
    }

    /// Returns claimed jobs that have not run to the queue at once in one statement, without
    /// counting their attempts, and wakes workers; returns those whose lease was already lost.
    #[tracing::instrument(skip_all, fields(jobs = jobs.len()))]
    pub async fn release_many(&self, jobs: &[ClaimedJob]) -> Result<Vec<JobId>, QueueError> {
        let ids: Vec<i64> = jobs.iter().map(|j| j.id.0).collect();
        let fences: Vec<i32> = jobs.iter().map(|j| j.claim).collect();
        let released = sqlx::query_scalar!(
            r#"with released as (
                   update jobs j set state = 'pending', locked_until = null, locked_by = null,
                       run_at = now(), attempts = j.attempts - 1, updated_at = now()
                   where j.id = any($1) and j.state = 'running'
                     and j.claims = ($2::int[])[array_position($1, j.id)]
                   returning j.id, j.queue)
               select id as "id!" from released, lateral (select pg_notify($3, released.queue)) n"#,
            &ids,
            &fences,
            super::NOTIFY_CHANNEL,
        )
        .fetch_all(&self.pool)
        .await?;
        let released: std::collections::HashSet<i64> = released.into_iter().collect();
        Ok(ids
            .into_iter()
            .filter(|id| !released.contains(id))
            .map(JobId)
            .collect())
    }

    /// Marks the job `failed` with `error`, for admins to see, and runs the queue's give-up hook,
    /// in one transaction: a pool starts its own; pass `&mut tx` to record it with the job's own
    /// effects (a savepoint inside the caller's transaction).
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn fail<'c>(
        &self,
        conn: impl Acquire<'c, Database = Postgres>,
        job: &ClaimedJob,
        error: impl Into<JobError>,
    ) -> Result<(), QueueError> {
        let error = error.into();
        let mut tx = conn.begin().await?;
        let result = sqlx::query!(
            "update jobs set state = 'failed', locked_until = null, last_error = $3,
                 error_class = $4, finished_at = now(), updated_at = now()
             where id = $1 and state = 'running' and claims = $2",
            job.id.0,
            job.claim,
            error.message,
            error.class.as_ref(),
        )
        .execute(&mut *tx)
        .await?;
        fenced(result.rows_affected(), job)?;
        self.run_give_up_hook(&mut tx, job.id, &job.payload, GaveUp::Failed(error))
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Marks the job `cancelled` (its reason to run is gone) and runs the queue's give-up hook,
    /// in one transaction (as for [`Queue::fail`]).
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn cancel<'c>(
        &self,
        conn: impl Acquire<'c, Database = Postgres>,
        job: &ClaimedJob,
    ) -> Result<(), QueueError> {
        let mut tx = conn.begin().await?;
        let result = sqlx::query!(
            "update jobs set state = 'cancelled', locked_until = null, finished_at = now(),
                 updated_at = now()
             where id = $1 and state = 'running' and claims = $2",
            job.id.0,
            job.claim,
        )
        .execute(&mut *tx)
        .await?;
        fenced(result.rows_affected(), job)?;
        self.run_give_up_hook(&mut tx, job.id, &job.payload, GaveUp::Cancelled)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Runs the give-up hook, if the queue has one, for job `id`.
    pub(crate) async fn run_give_up_hook(
        &self,
        conn: &mut PgConnection,
        id: JobId,
        payload: &Value,
        outcome: GaveUp,
    ) -> Result<(), QueueError> {
        let Some(hook) = &self.give_up_hook else {
            return Ok(());
        };
        let job = GivenUpJob {
            id,
            queue: self.name().to_owned(),
            payload: payload.clone(),
            outcome,
        };
        hook.gave_up(self, conn, &job)
            .await
            .map_err(|source| QueueError::Hook { id, source })
    }

    /// Extends the lease of a long-running job by the queue's lease from now; returns the job with
    /// its new deadline.
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn extend_lease(&self, job: &ClaimedJob) -> Result<ClaimedJob, QueueError> {
        let until = sqlx::query_scalar!(
            "update jobs set locked_until = now() + make_interval(secs => $3), updated_at = now()
             where id = $1 and state = 'running' and claims = $2
             returning locked_until",
            job.id.0,
            job.claim,
            secs(self.config.lease),
        )
        .fetch_optional(&self.pool)
        .await?
        .flatten();
        match until {
            Some(locked_until) => Ok(ClaimedJob {
                locked_until,
                ..job.clone()
            }),
            None => Err(lease_lost(job)),
        }
    }
}

impl Queue {
    /// Confirms, right before an act that must not happen twice (a message sent), that the job is
    /// still this claim's and that its worker is not marked missing (see [`crate::reaper`]), and
    /// extends its lease by the queue's lease from now: the reaper takes no job before its lease
    /// expires, so no other worker can run the job again while this one acts, if the act takes
    /// less than the lease. [`QueueError::NotConfirmed`] says not to act. The statement is the SQL
    /// function `confirm_job` (queue migration 0014), which a program may also call inside a
    /// statement of its own, e.g. the booking of the act, to confirm in the same round trip.
    #[tracing::instrument(skip_all, fields(job = job.id.0, claim = job.claim))]
    pub async fn recheck(&self, job: &ClaimedJob) -> Result<ClaimedJob, QueueError> {
        let until = sqlx::query_scalar!(
            "select confirm_job($1, $2, $3) as until",
            job.id.0,
            job.claim,
            secs(self.config.lease),
        )
        .fetch_one(&self.pool)
        .await?;
        match until {
            Some(locked_until) => Ok(ClaimedJob {
                locked_until,
                ..job.clone()
            }),
            None => Err(QueueError::NotConfirmed {
                id: job.id,
                claim: job.claim,
            }),
        }
    }
}

fn fenced(rows: u64, job: &ClaimedJob) -> Result<(), QueueError> {
    if rows == 1 {
        Ok(())
    } else {
        Err(lease_lost(job))
    }
}

fn lease_lost(job: &ClaimedJob) -> QueueError {
    QueueError::LeaseLost {
        id: job.id,
        claim: job.claim,
    }
}
