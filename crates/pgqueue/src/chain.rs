//! The single-job path: a worker that takes one job at a time records a success and claims its
//! next job in one statement and one commit.
//!
//! A job without a serial key is finished by one `UPDATE` that changes two rows, the finished
//! job (to `done`, fenced on its claim) and the next due job (to `running`, under a lease): one
//! statement of the client's, planned once per connection, so the table's constraints, its
//! trigger's condition and its indexes are set up once per job instead of twice, and no function
//! call wraps it. Its claim reads the statement's snapshot, in which the finished job still runs;
//! a keyless job holds back no other job, so nothing it releases is missed. A job with a serial
//! key is finished by the SQL function `complete_and_claim_job`, whose claim is a statement of
//! its own after the completion: it sees the key released, so the key's next job can be the one
//! it takes.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgExecutor;

use super::{ClaimedJob, JobId, Queue, QueueError, secs};

/// What the single-job statement returns: whether the finished job's result was recorded, and
/// the next job's columns, all null when none was due.
struct ChainRow {
    completed: bool,
    id: Option<i64>,
    queue: Option<String>,
    payload: Option<Value>,
    attempt: Option<i32>,
    max_attempts: Option<i32>,
    claim: Option<i32>,
    throttles: Option<i32>,
    serial_key: Option<String>,
    priority: Option<i16>,
    run_at: Option<DateTime<Utc>>,
    locked_until: Option<DateTime<Utc>>,
}

impl ChainRow {
    /// The next job, when one was claimed.
    fn next(self) -> Option<ClaimedJob> {
        Some(ClaimedJob {
            id: JobId(self.id?),
            queue: self.queue?,
            payload: self.payload?,
            attempt: self.attempt?,
            max_attempts: self.max_attempts?,
            claim: self.claim?,
            throttles: self.throttles?,
            serial_key: self.serial_key,
            priority: self.priority?,
            run_at: self.run_at?,
            locked_until: self.locked_until?,
        })
    }
}

impl Queue {
    /// Marks `done` the job this worker ran and claims the next due job of the queue for
    /// `worker`, in one statement and one commit: a worker that takes one job at a time pays one
    /// round trip per job instead of two, and the work stays outside any transaction. The
    /// completion is fenced as [`Queue::complete`] is; the claim is [`Queue::claim`]'s (priority,
    /// due time, id; the serial-key rules; the lease) for one job. When `done` has a serial key
    /// the claim follows the completion (the SQL function `complete_and_claim_job`), so the next
    /// job of its key may be the one taken; a keyless job is finished by one `UPDATE` of both
    /// rows (see the module docs).
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
        let idle = match self.pool.try_acquire() {
            Some(mut conn) => self.chain_statement(&mut *conn, done, worker).await.ok(),
            None => None,
        };
        let row = match idle {
            Some(row) => row,
            None => self.chain_statement(&self.pool, done, worker).await?,
        };
        Ok((row.completed, row.next()))
    }

    /// Runs the statement that finishes `done` and claims the next job, on `executor`.
    async fn chain_statement<'e>(
        &self,
        executor: impl PgExecutor<'e>,
        done: &ClaimedJob,
        worker: &str,
    ) -> Result<ChainRow, sqlx::Error> {
        let lease = secs(self.config.lease);
        if done.serial_key.is_some() {
            return sqlx::query_as!(
                ChainRow,
                r#"select completed as "completed!", id, queue, payload, attempt, max_attempts,
                          claim, throttles, serial_key, priority, run_at, locked_until
                   from complete_and_claim_job($1, $2, $3, $4, $5)"#,
                done.id.0,
                done.claim,
                self.config.name,
                lease,
                worker,
            )
            .fetch_one(executor)
            .await;
        }
        // `next` is the claim's search (`claim_jobs` with one job); `changed` updates both rows,
        // each by what it is: the finished job only if its claim still holds (the fence), the
        // next one as a claim does (the attempt, the claim counter, the lease).
        sqlx::query_as!(
            ChainRow,
            r#"with next as (
                   select due.id
                   from jobs_pending_priorities($3) p
                   cross join lateral (
                       select c.id from jobs c
                       where c.queue = $3 and c.state = 'pending' and c.priority = p.priority
                         and c.run_at <= now()
                         and (c.serial_key is null
                              or not exists (select from jobs r
                                             where r.queue = c.queue
                                               and r.serial_key = c.serial_key
                                               and r.state = 'running' and r.id <> c.id)
                                 and not exists (select from jobs o
                                                 where o.queue = c.queue
                                                   and o.serial_key = c.serial_key
                                                   and o.state = 'pending' and o.id < c.id))
                       order by c.run_at, c.id
                       limit 1
                       for update of c skip locked) due
                   limit 1),
               changed as (
                   update jobs j
                   set state = case when j.id = $1 then 'done' else 'running' end,
                       attempts = case when j.id = $1 then j.attempts else j.attempts + 1 end,
                       claims = case when j.id = $1 then j.claims else j.claims + 1 end,
                       locked_until = case when j.id <> $1
                                           then now() + make_interval(secs => $4) end,
                       locked_by = case when j.id = $1 then j.locked_by else $5 end,
                       claimed_at = case when j.id = $1 then j.claimed_at else now() end,
                       finished_at = case when j.id = $1 then now() else j.finished_at end,
                       updated_at = now()
                   where j.id = any(array[$1, (select id from next)])
                     and (j.id <> $1 or j.state = 'running' and j.claims = $2)
                   returning j.id = $1 as finished, j.id, j.queue, j.payload, j.attempts,
                             j.max_attempts, j.claims, j.throttles, j.serial_key, j.priority,
                             j.run_at, j.locked_until)
               select exists (select from changed where finished) as "completed!",
                      n.id as "id?", n.queue as "queue?", n.payload as "payload?",
                      n.attempts as "attempt?", n.max_attempts as "max_attempts?",
                      n.claims as "claim?", n.throttles as "throttles?", n.serial_key,
                      n.priority as "priority?", n.run_at as "run_at?",
                      n.locked_until as "locked_until?"
               from (select) one left join changed n on not n.finished"#,
            done.id.0,
            done.claim,
            self.config.name,
            lease,
            worker,
        )
        .fetch_one(executor)
        .await
    }
}
