//! The transactional (lock-held) claim, an opt-in mode ([`crate::runner::ClaimMode::Transactional`]):
//! a worker takes a due job's row lock with `FOR UPDATE SKIP LOCKED` in a transaction of its own, runs
//! the job while it holds the lock, and writes the outcome (done, a retry with backoff, failed, the
//! attempt, the history) in one update in that transaction, then commits. A job costs one row version
//! and one commit, as the seed's loop, where the lease mode writes two (the claim, the result).
//!
//! - **The lease** is the live transaction. A worker whose process dies has its transaction rolled
//!   back by PostgreSQL when its connection closes, and the job is claimable again at once. A worker
//!   that hangs (or is cut off) loses it after the queue's lease: the claim sets
//!   `idle_in_transaction_session_timeout` to the lease for its transaction, so the server ends the
//!   session and frees the lock.
//! - **The fence**: a worker whose session was ended cannot commit its result; [`HeldJob::finish`]
//!   then fails and nothing of it is recorded. While the lock is held no other worker can claim or
//!   change the row: every claim skips it, an admin's change waits for it.
//! - **Attempts**: an outcome counts its attempt, backs off and keeps the history as in the lease
//!   mode. An attempt whose transaction never commits (the process died, the session was ended) is
//!   not counted, but its lock leaves a mark on the row, and the next claim of the job takes it
//!   under a lease, which counts it (see [`Queue::claim_held`] and the crate README).
//! - **Serial keys and priorities**: only keyless jobs are held. A keyed job that comes first is
//!   claimed under a lease as every claim does ([`Claim::Leased`]): a held job stays `pending`, and
//!   keys are kept one at a time by the `running` rows. The order is the general claim's.
//!
//! While held, a job reads as `pending` with its previous attempt count (its outcome writes the
//! claim's), and an admin action on it waits until the worker commits.

use std::time::Duration;

use sqlx::{Acquire, PgConnection, Postgres, Transaction};

use super::hook::GaveUp;
use super::outcome::Outcome;
use super::{ClaimedJob, DoneJobs, JobError, JobId, Queue, QueueError, secs};

/// What a transactional claim took.
#[derive(Debug)]
pub enum Claim<'c> {
    /// A keyless job, held by the row lock of an open transaction until [`HeldJob::finish`].
    Held(HeldJob<'c>),
    /// A keyed job, claimed under a lease (committed) as [`Queue::claim`] claims: record its result
    /// with the fenced transitions ([`Queue::complete`], [`Queue::retry`], …).
    Leased(ClaimedJob),
}

/// A job whose row lock this worker holds in an open transaction: the job is this worker's while the
/// transaction lives, and its outcome is written by [`HeldJob::finish`] in the same transaction.
/// Dropping it rolls the transaction back: the job is claimable again at once, its attempt not
/// counted.
pub struct HeldJob<'c> {
    job: ClaimedJob,
    tx: Transaction<'c, Postgres>,
    worker: String,
}

impl std::fmt::Debug for HeldJob<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeldJob")
            .field("job", &self.job)
            .field("worker", &self.worker)
            .finish_non_exhaustive()
    }
}

/// The one update a held job's outcome writes.
struct Written {
    state: &'static str,
    counted: i32,
    throttled: i32,
    due_in: Option<Duration>,
    error: Option<JobError>,
    gave_up: Option<GaveUp>,
}

/// The [`ClaimedJob`] of a claim's record (the fast path's statement or `claim_held_job`, whose
/// records differ in type but share these columns).
macro_rules! claimed_job_of {
    ($row:ident) => {
        ClaimedJob {
            id: JobId($row.id),
            queue: $row.queue,
            payload: $row.payload,
            attempt: $row.attempt,
            max_attempts: $row.max_attempts,
            claim: $row.claim,
            throttles: $row.throttles,
            serial_key: $row.serial_key,
            priority: $row.priority,
            run_at: $row.run_at,
            locked_until: $row.locked_until,
        }
    };
}

impl Queue {
    /// Claims the queue's first due job for `worker` on `conn` (see the [module docs](self)): a
    /// keyless job is returned held, in a transaction left open on `conn`; a keyed job is claimed under
    /// a lease and committed. So is a keyless job whose row still carries the lock of a holder whose
    /// transaction ended without its outcome (its process died, its session was ended, it rolled
    /// back): the lock left that transaction's id in the row's `xmax`, read before this claim locks
    /// it. Under the lease its attempt is counted, so a job that kills every process that runs it is
    /// failed after at most twice its attempts. `None` when no job is due (or every due one is held or
    /// waits for its key).
    #[tracing::instrument(skip_all, fields(queue = %self.config.name))]
    pub async fn claim_held<'c>(
        &self,
        conn: &'c mut PgConnection,
        worker: &str,
    ) -> Result<Option<Claim<'c>>, QueueError> {
        let mut tx = conn.begin().await?;
        // The common case in one statement of the client's, without the function's plpgsql: the
        // queue's pending jobs share one priority (the highest equals the lowest) and none has a
        // serial key, three index probes. It takes the first due job of that priority in
        // (run_at, id) order, the job the general claim takes, and holds it.
        let timeout = (self.config.lease.as_millis().max(1)).to_string();
        let fast = sqlx::query!(
            r#"select c.id, c.queue, c.payload, c.attempts + 1 as "attempt!", c.max_attempts,
                      c.claims + 1 as "claim!", c.throttles, c.serial_key, c.priority, c.run_at,
                      now() + make_interval(secs => $2) as "locked_until!",
                      set_config('idle_in_transaction_session_timeout', $3, true) as "timeout!",
                      c.xmax <> '0'::xid and c.xmax <> c.xmin as "marked!"
               from jobs c
               where c.queue = $1 and c.state = 'pending' and c.run_at <= now()
                 and c.priority = (select max(t.priority) from jobs t
                                   where t.queue = $1 and t.state = 'pending')
                 and c.priority = (select min(l.priority) from jobs l
                                   where l.queue = $1 and l.state = 'pending')
                 and not exists (select from jobs k
                                 where k.queue = $1 and k.serial_key is not null
                                   and k.state = 'pending')
               order by c.run_at, c.id
               limit 1
               for update of c skip locked"#,
            self.config.name,
            secs(self.config.lease),
            timeout,
        )
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = fast.as_ref().filter(|row| row.marked) {
            let job = self.lease_locked(&mut tx, row.id, worker).await?;
            tx.commit().await?;
            return Ok(Some(Claim::Leased(job)));
        }
        if let Some(row) = fast {
            let job = claimed_job_of!(row);
            return Ok(Some(Claim::Held(HeldJob {
                job,
                tx,
                worker: worker.to_owned(),
            })));
        }
        let row = sqlx::query!(
            r#"select held as "held!", id as "id!", queue as "queue!", payload as "payload!",
                      attempt as "attempt!", max_attempts as "max_attempts!", claim as "claim!",
                      throttles as "throttles!", serial_key, priority as "priority!",
                      run_at as "run_at!", locked_until as "locked_until!"
               from claim_held_job($1, $2, $3)"#,
            self.config.name,
            secs(self.config.lease),
            worker,
        )
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            tx.commit().await?;
            return Ok(None);
        };
        let job = claimed_job_of!(row);
        if row.held {
            Ok(Some(Claim::Held(HeldJob {
                job,
                tx,
                worker: worker.to_owned(),
            })))
        } else {
            tx.commit().await?;
            Ok(Some(Claim::Leased(job)))
        }
    }
}

impl Queue {
    /// Claims under a lease, as [`Queue::claim`] does, the pending job `id` whose row lock `tx`
    /// holds: a job whose previous holder never wrote its outcome (see [`Queue::claim_held`]).
    async fn lease_locked(
        &self,
        tx: &mut PgConnection,
        id: i64,
        worker: &str,
    ) -> Result<ClaimedJob, QueueError> {
        Ok(sqlx::query_as!(
            ClaimedJob,
            r#"update jobs
               set state = 'running', attempts = attempts + 1, claims = claims + 1,
                   locked_until = now() + make_interval(secs => $2), locked_by = $3,
                   claimed_at = now(), updated_at = now()
               where id = $1 and state = 'pending'
               returning id as "id!", queue as "queue!", payload as "payload!",
                         attempts as "attempt!", max_attempts as "max_attempts!",
                         claims as "claim!", throttles as "throttles!", serial_key,
                         priority as "priority!", run_at as "run_at!",
                         locked_until as "locked_until!""#,
            id,
            secs(self.config.lease),
            worker,
        )
        .fetch_one(tx)
        .await?)
    }
}

impl HeldJob<'_> {
    /// The job, as the handler sees it: `attempt` and `claim` are those its outcome will write.
    pub fn job(&self) -> &ClaimedJob {
        &self.job
    }

    /// Writes the job's `outcome` in one update and commits, running the queue's give-up hook in the
    /// same transaction when the job is failed or cancelled: done (or deleted, in a queue whose done
    /// jobs are, [`DoneJobs::Deleted`]); a retry after the queue's backoff
    /// (failed when out of attempts); failed; cancelled; a snooze or a throttle (the attempt not
    /// counted). `Recorded` is recorded as done: a handler of a held job cannot have recorded its
    /// result itself, since the row is locked. Returns the delay after which the job is due again,
    /// if it is. An error means nothing was recorded: the session was ended (the lease ran out, see
    /// the [module docs](self)), the database failed, or the hook failed; the job is then claimable
    /// again, its attempt not counted.
    #[tracing::instrument(skip_all, fields(job = self.job.id.0, claim = self.job.claim))]
    pub async fn finish(
        self,
        queue: &Queue,
        outcome: Outcome,
    ) -> Result<Option<Duration>, QueueError> {
        let HeldJob {
            job,
            mut tx,
            worker,
        } = self;
        // Keyed jobs are never held (they run under a lease); were one held, its deletion would
        // not wake its key's next job, so it is kept.
        let deleted = matches!(outcome, Outcome::Done | Outcome::Recorded)
            && queue.config.done_jobs == DoneJobs::Deleted
            && job.serial_key.is_none()
            && delete_done(&mut tx, &job).await?;
        if deleted {
            tx.commit().await?;
            return Ok(None);
        }
        let written = written(queue, &job, outcome);
        let result = sqlx::query!(
            "update jobs set state = $3, attempts = attempts + $4, claims = claims + 1,
                 throttles = throttles + $5,
                 run_at = case when $6::float8 is null then run_at
                               else clock_timestamp() + make_interval(secs => $6) end,
                 last_error = coalesce($7, last_error),
                 error_class = case when $7::text is null then error_class else $8 end,
                 locked_by = $9, claimed_at = now(),
                 finished_at = case when $3 = 'pending' then null else clock_timestamp() end,
                 updated_at = clock_timestamp()
             where id = $1 and state = 'pending' and claims = $2",
            job.id.0,
            job.claim - 1,
            written.state,
            written.counted,
            written.throttled,
            written.due_in.map(secs),
            written.error.as_ref().map(|e| e.message.as_str()),
            written.error.as_ref().map(|e| e.class.as_ref()),
            worker,
        )
        .execute(&mut *tx)
        .await?;
        if result.rows_affected() != 1 {
            return Err(QueueError::LeaseLost {
                id: job.id,
                claim: job.claim,
            });
        }
        if let Some(gave_up) = written.gave_up {
            queue
                .run_give_up_hook(&mut tx, job.id, &job.payload, gave_up)
                .await?;
        }
        tx.commit().await?;
        Ok(written.due_in)
    }
}

/// Deletes the held `job`, a success of a queue whose done jobs are deleted
/// ([`DoneJobs::Deleted`]), unless it has an error on record (its history then ends with the
/// success, written by the update). Whether it was deleted.
async fn delete_done(tx: &mut PgConnection, job: &ClaimedJob) -> Result<bool, QueueError> {
    let result = sqlx::query!(
        "delete from jobs
         where id = $1 and state = 'pending' and claims = $2 and last_error is null",
        job.id.0,
        job.claim - 1,
    )
    .execute(tx)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// What `outcome` writes to a held job.
fn written(queue: &Queue, job: &ClaimedJob, outcome: Outcome) -> Written {
    let finished = |state, error: Option<JobError>, gave_up| Written {
        state,
        counted: 1,
        throttled: 0,
        due_in: None,
        error,
        gave_up,
    };
    match outcome {
        Outcome::Done | Outcome::Recorded => finished("done", None, None),
        Outcome::Retry { error, floor } if !job.is_last_attempt() => Written {
            state: "pending",
            counted: 1,
            throttled: 0,
            due_in: Some(queue.config.backoff.delay(job.attempt, floor)),
            error: Some(error),
            gave_up: None,
        },
        Outcome::Retry { error, .. } | Outcome::Fail { error } => {
            finished("failed", Some(error.clone()), Some(GaveUp::Failed(error)))
        }
        Outcome::Cancel => finished("cancelled", None, Some(GaveUp::Cancelled)),
        Outcome::Snooze(delay) => Written {
            state: "pending",
            counted: 0,
            throttled: 0,
            due_in: Some(delay),
            error: None,
            gave_up: None,
        },
        Outcome::Throttle { error, delay } => Written {
            state: "pending",
            counted: 0,
            throttled: 1,
            due_in: Some(delay),
            error: Some(error),
            gave_up: None,
        },
    }
}
