//! A durable job queue in PostgreSQL. It knows nothing about what its jobs do: a job is a queue name, a JSON
//! payload and a due time, optionally a serial key and a priority.
//!
//! - [`Queue::enqueue`] writes a job inside the caller's transaction: the job commits or rolls back
//!   with the caller's data, and the NOTIFY that wakes workers is delivered only at commit.
//! - [`Queue::claim`] takes up to n due jobs in one `UPDATE … FOR UPDATE SKIP LOCKED` statement,
//!   counts the attempt and sets a lease; no transaction stays open while a job runs.
//! - Every transition out of `running` ([`Queue::complete`], [`Queue::retry`], [`Queue::fail`], …)
//!   is fenced on the claim counter and checks the row count, so a worker whose lease was taken
//!   over cannot overwrite the new owner's result ([`QueueError::LeaseLost`]).
//! - An opt-in transactional mode ([`ClaimMode::Transactional`], [`held`]) holds a job by the row
//!   lock of an open transaction while it runs and writes its outcome in one update in it: one row
//!   version and one commit per job.
//! - [`reaper::reap_expired`] returns jobs whose lease expired and whose worker is gone: one
//!   without a [`presence`] at once, a registered one once it has been missing (or past the
//!   lease) for [`reaper::GRACE`]; a handler calls [`Queue::recheck`] right before an act that
//!   must not happen twice (a message sent), which confirms the claim and extends its lease, so
//!   no other worker can run the job while it acts. [`Runner`] runs handlers
//!   concurrently, woken by NOTIFY, by the earliest due time and by a slow poll.
//! - A queue may carry a [`GiveUpHook`]: it runs in the transaction of every move of one of its
//!   jobs from `running` to `failed` or `cancelled`, so a producer can keep a series of jobs going
//!   whatever became of one of them.
//! - Flood control ([`Queue::throttle`]) puts a job back without using up an attempt, but counts
//!   it (`throttles`) and keeps the error.
//! - **Per-key serial execution.** A job may carry a serial key ([`NewJob::serial_key`]): jobs of
//!   one queue that share a key run one at a time, oldest (by id, the enqueue order) first, while
//!   different keys and keyless jobs run in parallel. A keyed pending job is claimable only when
//!   no job of its queue and key is `running` and no older one is `pending`, whatever that one's
//!   due time: a job being retried or snoozed holds back the ones after it (head-of-line
//!   blocking per key, which keeps the order), and one that is done, failed or cancelled
//!   releases them. A claim therefore returns at most one job per key; the checks read the
//!   statement's snapshot, so concurrent claimers never run two jobs of a key at once (see
//!   [`Queue::claim`]), and a unique index on the running job of each key backs that up. The
//!   statement that finishes a keyed job wakes the queue when a job of its key is pending.
//! - **Priorities.** A job has a priority ([`NewJob::priority`], lower first, 0 by default): a
//!   claim takes due jobs by (priority, due time, id), so urgent work overtakes a backlog. One
//!   index, `(queue, priority, run_at, id)` over pending jobs, serves the claim and the reads of
//!   the next due time and the depth, a priority at a time.
//! - **One kind per queue.** A [`JobKind`] names its queue: [`NewJob::of`] a kind goes only to
//!   that queue ([`QueueError::OtherQueue`] elsewhere) and [`ClaimedJob::args`] reads only that
//!   queue's jobs. A queue with several sorts of work has one kind, an enum told apart by a tag;
//!   see the [`JobKind`] module docs for the contract and for payloads written before a tag.
//! - The queue owns its tables: programs that embed it read jobs through [`inspect()`],
//!   [`inspect_many`], [`failed_jobs`], [`count`], [`recent_outcomes`] and
//!   [`maintenance::depth`], and cancel their own pending jobs with [`cancel_pending`], never by
//!   SQL of their own.
//!
//! All times come from the database clock (`now()`).

pub mod backoff;
mod claim;
mod completer;
mod enqueue;
mod error;
mod fence;
pub mod held;
pub mod hook;
mod inspect;
mod kind;
mod limit;
pub mod maintenance;
mod outcome;
pub mod presence;
pub mod reaper;
pub mod runner;
#[cfg(feature = "synthetic")]
pub mod synthetic;
pub mod wakeup;

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgPool;
use sqlx::migrate::Migrator;

pub use backoff::Backoff;
pub use error::JobError;
pub use fence::RetryOutcome;
pub use held::{Claim, HeldJob};
pub use hook::{GaveUp, GiveUpHook, GivenUpJob, HookError};
pub use inspect::{
    FailedQuery, JobInfo, JobState, RecentOutcomes, cancel_pending, count, count_failed,
    failed_jobs, inspect, inspect_many, list, recent_outcomes,
};
pub use kind::{JobKind, PayloadError, Untagged};
pub use limit::ConcurrencyLimit;
pub use runner::{ClaimMode, JobHandler, Outcome, Runner, RunnerConfig};
pub use wakeup::Wakeups;

/// The NOTIFY channel on which enqueues announce themselves; the payload is the queue's name.
pub const NOTIFY_CHANNEL: &str = "pgqueue_jobs";

/// The queue's own migrations (its tables, indexes and the attempt-history trigger), recorded in
/// their own bookkeeping table, `pgqueue_migrations`, so that they never mix with the migrations
/// of the program that embeds the queue. Run them before the program's own.
pub static MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| {
    let mut migrator = sqlx::migrate!("./migrations");
    migrator.dangerous_set_table_name("pgqueue_migrations");
    migrator
});

/// A job's id (`pgqueue_jobs.id`), its own type so that it cannot be passed for another id.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    sqlx::Type,
)]
#[sqlx(transparent)]
#[serde(transparent)]
pub struct JobId(pub i64);

impl From<i64> for JobId {
    fn from(id: i64) -> Self {
        Self(id)
    }
}

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// What can go wrong in the queue.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The job is no longer ours: its lease expired and it was reaped, re-claimed or cancelled.
    #[error("job {id} (claim {claim}) lost its lease; its result was not recorded")]
    LeaseLost {
        /// The job.
        id: JobId,
        /// The claim this worker held.
        claim: i32,
    },
    /// Right before an act that must not happen twice, the claim could not be confirmed
    /// ([`Queue::recheck`]): the job was taken back, or its worker is marked missing (its
    /// presence connection broke). Do not act on it.
    #[error("job {id} (claim {claim}) is no longer confirmed as this worker's; not acted on")]
    NotConfirmed {
        /// The job.
        id: JobId,
        /// The claim this worker held.
        claim: i32,
    },
    /// The job does not exist or is not in a state that allows the operation.
    #[error("job {0} not found in a state that allows this")]
    NotFound(JobId),
    /// The database failed.
    #[error("queue database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// A job of a kind was offered to another queue than its kind's ([`JobKind::QUEUE`]); nothing
    /// was written.
    #[error("a job of a kind of queue {kind_queue:?} cannot go to queue {queue:?}")]
    OtherQueue {
        /// The queue that refused it.
        queue: String,
        /// Its kind's queue.
        kind_queue: &'static str,
    },
    /// The queue's give-up hook failed; the transition was not recorded.
    #[error("the give-up hook of job {id} failed: {source}")]
    Hook {
        /// The job.
        id: JobId,
        /// What the hook said.
        source: HookError,
    },
}

/// A job to enqueue.
#[derive(Clone, Debug)]
pub struct NewJob {
    /// The job's data, handed to the handler.
    pub payload: Value,
    /// When it is due; `None` means now (the database's now).
    pub run_at: Option<DateTime<Utc>>,
    /// Unique among the queue's pending and running jobs: a second enqueue of it is a no-op.
    pub dedupe_key: Option<String>,
    /// Attempts before the job is `failed`; `None` takes the queue's default.
    pub max_attempts: Option<i32>,
    /// Jobs of the queue that share this key run one at a time, oldest (by id) first; `None`
    /// runs in parallel with everything (see the crate docs, "Per-key serial execution").
    pub serial_key: Option<String>,
    /// Lower runs first among the jobs that are due (0 by default).
    pub priority: i16,
    /// The queue of the job's kind, for a job made by [`NewJob::of`]: no other queue takes it.
    kind_queue: Option<&'static str>,
}

impl NewJob {
    /// A job due now with this payload.
    pub fn new(payload: Value) -> Self {
        Self {
            payload,
            run_at: None,
            dedupe_key: None,
            max_attempts: None,
            serial_key: None,
            priority: 0,
            kind_queue: None,
        }
    }

    /// The queue of the job's kind (see [`NewJob::of`]); `None` for a job made from a bare
    /// payload ([`NewJob::new`]), which any queue takes.
    pub fn kind_queue(&self) -> Option<&'static str> {
        self.kind_queue
    }

    /// The same job, due at `run_at`.
    pub fn run_at(mut self, run_at: DateTime<Utc>) -> Self {
        self.run_at = Some(run_at);
        self
    }

    /// The same job, with a dedupe key.
    pub fn dedupe_key(mut self, key: impl Into<String>) -> Self {
        self.dedupe_key = Some(key.into());
        self
    }

    /// The same job, with its own attempt budget.
    pub fn max_attempts(mut self, max_attempts: i32) -> Self {
        self.max_attempts = Some(max_attempts);
        self
    }

    /// The same job, run after every older job of the queue with the same key has finished and
    /// never alongside one: for work that must happen in order per subject (the messages of one
    /// chat, the events of one account).
    pub fn serial_key(mut self, key: impl Into<String>) -> Self {
        self.serial_key = Some(key.into());
        self
    }

    /// The same job, claimed before due jobs of a higher `priority` number and after those of a
    /// lower one (0 by default; negative numbers go before it): so that urgent work (an answer
    /// someone waits for) overtakes a backlog of routine work.
    pub fn priority(mut self, priority: i16) -> Self {
        self.priority = priority;
        self
    }
}

/// A job this worker has claimed: its lease runs until `locked_until`.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ClaimedJob {
    /// The job.
    pub id: JobId,
    /// Its queue.
    pub queue: String,
    /// Its data.
    pub payload: Value,
    /// The attempt this claim is (1 for the first try), counted against `max_attempts`.
    pub attempt: i32,
    /// The attempt budget.
    pub max_attempts: i32,
    /// The job's claim counter as of this claim: the fence of every transition.
    pub claim: i32,
    /// How often flood control turned the job away so far (not counted as attempts).
    pub throttles: i32,
    /// Its serial key: no other job of the queue with this key runs until this one's result is
    /// recorded.
    pub serial_key: Option<String>,
    /// Its priority (lower runs first).
    pub priority: i16,
    /// When the job was due (before this claim).
    pub run_at: DateTime<Utc>,
    /// The end of the lease.
    pub locked_until: DateTime<Utc>,
}

impl ClaimedJob {
    /// Whether this is the job's last permitted attempt.
    pub fn is_last_attempt(&self) -> bool {
        self.attempt >= self.max_attempts
    }
}

/// Settings of one queue.
#[derive(Clone, Debug)]
pub struct QueueConfig {
    /// The queue's name (the `queue` column).
    pub name: String,
    /// How long a claim is leased before the reaper may return the job.
    pub lease: Duration,
    /// Retry delays.
    pub backoff: Backoff,
    /// Attempts before a job is `failed`, unless the job says otherwise.
    pub max_attempts: i32,
    /// What a success does to the job's row: kept as `done` (the default) or deleted.
    pub done_jobs: DoneJobs,
}

/// What becomes of the row of a job that succeeded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DoneJobs {
    /// Kept as `done` (for [`inspect`], the state counts and the metrics) until
    /// [`maintenance::purge_finished`] deletes it after the retention period.
    #[default]
    Kept,
    /// Deleted by the success itself, as graphile-worker does: the success writes no new row
    /// version and no index entries for a row nobody will read. Opt-in, for a queue whose finished
    /// jobs nobody inspects. In both modes ([`HeldJob::finish`]; [`Queue::complete`],
    /// [`Queue::complete_many`] and [`Queue::complete_and_claim`] under a lease). A job with an
    /// error on record is still kept as `done`, so that its attempt history ends with the success,
    /// and so is a keyed job, whose update to `done` wakes its key's next job. A foreign key of the
    /// program's own to `jobs` would refuse the delete (or, with `on delete cascade`, lose its
    /// rows): a queue whose jobs are referenced keeps them. The SQL function `complete_job` (a
    /// program's own statement) always keeps the row.
    Deleted,
}

impl QueueConfig {
    /// A queue named `name` with a 60 s lease, the default backoff and 5 attempts.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            lease: Duration::from_secs(60),
            backoff: Backoff::default(),
            max_attempts: 5,
            done_jobs: DoneJobs::Kept,
        }
    }
}

/// A handle on one queue: cheap to clone, shared by producers and workers.
#[derive(Clone)]
pub struct Queue {
    pool: PgPool,
    config: QueueConfig,
    give_up_hook: Option<Arc<dyn GiveUpHook>>,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue")
            .field("config", &self.config)
            .field("give_up_hook", &self.give_up_hook.is_some())
            .finish_non_exhaustive()
    }
}

impl Queue {
    /// A handle on the queue described by `config`, using `pool` for claims and results.
    pub fn new(pool: PgPool, config: QueueConfig) -> Self {
        Self {
            pool,
            config,
            give_up_hook: None,
        }
    }

    /// The same queue, running `hook` whenever one of its jobs leaves `running` for `failed` or
    /// `cancelled` (see [`hook`]).
    pub fn with_give_up_hook(mut self, hook: Arc<dyn GiveUpHook>) -> Self {
        self.give_up_hook = Some(hook);
        self
    }

    /// The queue's name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The queue's settings.
    pub fn config(&self) -> &QueueConfig {
        &self.config
    }

    /// The pool the queue claims and records results with.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

/// Seconds as the `float8` that `make_interval(secs => …)` takes.
fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}
