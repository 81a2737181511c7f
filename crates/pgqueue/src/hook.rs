//! The give-up hook: work a producer needs done in the same transaction as any move of one of its
//! jobs out of `running` without success (`failed` or `cancelled`), whoever makes the move: a
//! handler's outcome, the runner when the attempts run out or a handler panicked, or the reaper
//! when a dead worker's lease expired for the last time. A job that stands for one step of a
//! series (the next reminder of a recurring task) uses it to keep the series going whatever became
//! of this step.
//!
//! Cancellations a producer makes itself ([`super::maintenance::cancel_job`],
//! [`super::cancel_pending`]) do not run it: the producer is in its own transaction and knows what
//! it wants next.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;
use sqlx::PgConnection;

use super::{JobError, JobId, Queue};

/// How a job left `running` without success.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GaveUp {
    /// It is `failed`, with this error.
    Failed(JobError),
    /// It is `cancelled`.
    Cancelled,
}

/// A job that left `running` without success, as the hook sees it.
#[derive(Clone, Debug)]
pub struct GivenUpJob {
    /// The job.
    pub id: JobId,
    /// Its queue.
    pub queue: String,
    /// Its data.
    pub payload: Value,
    /// What became of it.
    pub outcome: GaveUp,
}

/// The error a hook reports; the transition it belongs to rolls back with it.
pub type HookError = Box<dyn std::error::Error + Send + Sync>;

/// The future a hook returns.
pub type HookFuture<'a> = Pin<Box<dyn Future<Output = Result<(), HookError>> + Send + 'a>>;

/// Runs inside the transaction that records a job's failure or cancellation (see the module docs).
pub trait GiveUpHook: Send + Sync + 'static {
    /// Called with the job's queue (to enqueue follow-up jobs), the transaction's connection and
    /// the job. An error rolls the transition back: the job stays `running` until its lease
    /// expires and the reaper tries again.
    fn gave_up<'a>(
        &'a self,
        queue: &'a Queue,
        conn: &'a mut PgConnection,
        job: &'a GivenUpJob,
    ) -> HookFuture<'a>;
}
