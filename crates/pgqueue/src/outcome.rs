//! What a handler decides about a job ([`Outcome`]) and the handler itself ([`JobHandler`]), shared by
//! the runner's two claim modes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use super::{ClaimedJob, JobError};

/// What a handler decided about its job.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It succeeded: mark the job `done`.
    Done,
    /// It failed for now: retry after the backoff (at least `floor`), or fail when out of attempts.
    Retry {
        /// Why, kept as the job's last error and class.
        error: JobError,
        /// The shortest acceptable delay (such as Telegram's `retry_after`).
        floor: Option<Duration>,
    },
    /// It failed for good: mark the job `failed` with `error`.
    Fail {
        /// Why, kept for admins.
        error: JobError,
    },
    /// Its reason to run is gone: mark it `cancelled`.
    Cancel,
    /// It could not run yet: try again after this delay without counting the attempt.
    Snooze(Duration),
    /// Flood control turned it away (such as Telegram's 429): try again after `delay` without
    /// counting the attempt, but count the refusal and keep `error` (see [`Queue::throttle`]).
    Throttle {
        /// Why, kept as the job's last error and class.
        error: JobError,
        /// When to try again.
        delay: Duration,
    },
    /// The handler already recorded the job's result itself, in its own transaction.
    Recorded,
}

/// The work done for each job of a queue.
pub trait JobHandler: Send + Sync + 'static {
    /// Runs `job` and says what became of it. Runs in a task of its own and, in the lease mode,
    /// outside any database transaction: the job's lease is extended while it runs, and the task is
    /// aborted if the lease is lost anyway. In the transactional mode
    /// ([`crate::runner::ClaimMode::Transactional`]) the job's row stays locked by the worker's open
    /// transaction while it runs: it must not record its own result, and it is given up at nine tenths
    /// of the lease.
    fn handle(&self, job: ClaimedJob) -> impl Future<Output = Outcome> + Send;
}

/// A shared handler handles jobs as the handler it shares (one handler state for several runners).
impl<H: JobHandler> JobHandler for Arc<H> {
    fn handle(&self, job: ClaimedJob) -> impl Future<Output = Outcome> + Send {
        H::handle(self, job)
    }
}
