//! The runner: claims due jobs of one queue and runs a handler on each, `concurrency` at a time
//! (or fewer, as its [`ConcurrencyLimit`] says while it runs).
//!
//! Its loop `select!`s over shutdown, the queue's NOTIFY signal, a finished job and a timer set to
//! the earliest due job (capped by the poll interval, the safety net). Jobs are claimed in batches
//! into a small local buffer so handlers never wait for a claim round trip, and successes are
//! marked `done` in batches. An unbatched runner (batch 1) has no buffer: a job task that succeeds
//! records it and claims the next job in one statement and runs that one too, so a plain worker
//! loop costs one round trip and one commit per job. A job's lease is extended every half lease
//! from its claim, and once more before it leaves the buffer if it waited there; a job whose lease
//! was lost is dropped without recording anything. A batch may hold jobs of several serial keys,
//! never two of one (the claim sees to it), and a buffered keyed job holds its key as a running one
//! does. A handler runs in a task of its own: a panic becomes a retry. On shutdown the runner stops
//! claiming, returns buffered jobs to the queue, lets running handlers finish until the deadline,
//! then aborts and returns the rest: nothing is left `running`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use sqlx::Postgres;
use sqlx::pool::PoolConnection;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::AbortOnDropHandle;

use super::ConcurrencyLimit;
use super::completer::Completer;
use super::held::{Claim, HeldJob};
pub use super::outcome::{JobHandler, Outcome};
use super::presence::PresenceStatus;
use super::{ClaimedJob, JobError, JobId, Queue, QueueError, RetryOutcome, Wakeups};

/// Settings of a runner.
#[derive(Clone, Debug)]
pub struct RunnerConfig {
    /// Handlers running at once: the most, when a `limit` is given.
    pub concurrency: usize,
    /// The handlers allowed at once now, changed by the program while the runner runs (never more
    /// than `concurrency`); `None`: always `concurrency`.
    pub limit: Option<ConcurrencyLimit>,
    /// Jobs taken per claim and marked done per statement; 1 claims and completes one at a time.
    pub batch: usize,
    /// The longest the runner sleeps without looking at the queue (the safety net for lost
    /// NOTIFYs).
    pub poll_interval: Duration,
    /// How long running handlers may take to finish after shutdown before they are aborted.
    pub shutdown_deadline: Duration,
    /// Written to `locked_by` of claimed jobs.
    pub worker_id: String,
    /// The presence of the process that `worker_id` names, if it has one: nothing is claimed
    /// while it has lost its lock (see [`crate::presence`]).
    pub presence: Option<PresenceStatus>,
    /// How jobs are claimed and held while they run: under a lease (the default) or by the row lock
    /// of an open transaction ([`ClaimMode::Transactional`], opt-in).
    pub mode: ClaimMode,
}

/// How a runner claims jobs and holds them while they run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClaimMode {
    /// A claim sets `running` and a lease, extended while the job runs; the result is a second
    /// update (two row versions and, batched or chained, shared commits). Nothing is held open.
    #[default]
    Lease,
    /// Each of the `concurrency` slots holds a connection of its own and takes one job at a time by
    /// its row lock, in a transaction that stays open while the handler runs and writes the outcome
    /// in one update ([`crate::held`]): one row version and one commit per job. `batch` is not used.
    /// A handler must finish within the queue's lease: the runner gives it up at nine tenths of the
    /// lease (a retry of class [`JobError::LEASE_EXPIRED`]), and PostgreSQL ends the session at the
    /// lease if the runner cannot. Keyed jobs are run under a lease, as in [`ClaimMode::Lease`].
    Transactional,
}

impl Default for RunnerConfig {
    /// 8 handlers (no changing limit), batches of 32, a 1 s poll, a 10 s shutdown deadline, leases.
    fn default() -> Self {
        Self {
            concurrency: 8,
            limit: None,
            batch: 32,
            poll_interval: Duration::from_secs(1),
            shutdown_deadline: Duration::from_secs(10),
            worker_id: format!("pid-{}", std::process::id()),
            presence: None,
            mode: ClaimMode::Lease,
        }
    }
}

/// Runs a handler over one queue.
pub struct Runner<H> {
    queue: Queue,
    handler: Arc<H>,
    config: RunnerConfig,
    wakeups: Wakeups,
}

/// The first wait when due jobs exist that other workers hold; it doubles while that lasts.
const COOLDOWN: Duration = Duration::from_millis(20);

/// A claimed job and when (locally) it was claimed: its lease runs from then.
#[derive(Clone, Debug)]
struct Claimed {
    job: ClaimedJob,
    at: Instant,
}

/// Jobs whose handlers run, by `(id, claim)`, so that shutdown can return them if it must abort.
type InFlight = Arc<Mutex<HashMap<(JobId, i32), ClaimedJob>>>;

/// What a job task reports when it ends.
struct Finished {
    /// The job is pending again, due after this delay.
    due_again_in: Option<Duration>,
}

/// Everything a job task needs besides its job.
struct JobContext<H> {
    queue: Queue,
    handler: Arc<H>,
    in_flight: InFlight,
    completions: Option<mpsc::UnboundedSender<(JobId, i32)>>,
    chain: Option<Chain>,
    finished: mpsc::UnboundedSender<Finished>,
}

/// How an unbatched runner's job task goes on to the next job: it records a success and claims
/// the next due job in one statement ([`Queue::complete_and_claim`]) and runs that one on the
/// same slot, until none is due or the runner shuts down.
#[derive(Clone)]
struct Chain {
    worker: String,
    shutdown: CancellationToken,
    presence: Option<PresenceStatus>,
}

impl<H> Clone for JobContext<H> {
    fn clone(&self) -> Self {
        Self {
            queue: self.queue.clone(),
            handler: self.handler.clone(),
            in_flight: self.in_flight.clone(),
            completions: self.completions.clone(),
            chain: self.chain.clone(),
            finished: self.finished.clone(),
        }
    }
}

impl<H: JobHandler> Runner<H> {
    /// A runner of `handler` over `queue`, woken by `wakeups`.
    pub fn new(queue: Queue, handler: H, config: RunnerConfig, wakeups: Wakeups) -> Self {
        Self {
            queue,
            handler: Arc::new(handler),
            config,
            wakeups,
        }
    }

    /// Runs until `shutdown` is cancelled, then shuts down gracefully (see the module docs).
    #[tracing::instrument(skip_all, fields(queue = %self.queue.name(), worker = %self.config.worker_id))]
    pub async fn run(&self, shutdown: CancellationToken) {
        if self.config.mode == ClaimMode::Transactional {
            self.run_held(shutdown).await;
            return;
        }
        let concurrency = self.config.concurrency.max(1);
        let batch = self.config.batch.max(1);
        let prefetch = if batch > 1 { batch } else { 0 };
        let wake = self.wakeups.subscribe(self.queue.name());
        let slots = Arc::new(Semaphore::new(concurrency));
        let completer = (batch > 1).then(|| Completer::start(self.queue.clone(), batch));
        let (finished_tx, mut finished_rx) = mpsc::unbounded_channel::<Finished>();
        let chain = completer.is_none().then(|| Chain {
            worker: self.config.worker_id.clone(),
            shutdown: shutdown.clone(),
            presence: self.config.presence.clone(),
        });
        let context = self.context(completer.as_ref(), chain, finished_tx);
        let mut tasks = JoinSet::new();
        let mut buffer: VecDeque<Claimed> = VecDeque::new();
        let mut drained = false;
        let mut wake_at: Option<Instant> = None;
        let mut cooldown = COOLDOWN;

        while !shutdown.is_cancelled() {
            let allowed = self.allowed(concurrency);
            self.dispatch(&mut buffer, &slots, allowed, &mut tasks, &context)
                .await;
            while let Some(joined) = tasks.try_join_next() {
                log_join_error(joined);
            }

            let busy = concurrency - slots.available_permits();
            let room = (allowed + prefetch).saturating_sub(busy + buffer.len());
            if !drained && !self.present() {
                drained = true;
                wake_at = Some(Instant::now() + self.config.poll_interval);
            }
            if !drained && room > 0 && buffer.len() <= prefetch / 2 {
                let want = room.min(batch);
                match self.queue.claim(&self.config.worker_id, want as i64).await {
                    Ok(jobs) => {
                        drained = jobs.len() < want;
                        if !jobs.is_empty() {
                            cooldown = COOLDOWN;
                            let at = Instant::now();
                            buffer.extend(jobs.into_iter().map(|job| Claimed { job, at }));
                            continue;
                        }
                    }
                    Err(error) => {
                        tracing::warn!(%error, "claiming jobs failed; retrying");
                        drained = true;
                        wake_at = Some(Instant::now() + self.config.poll_interval);
                    }
                }
            }

            if drained && wake_at.is_none() {
                let wait = self.time_to_next_due(cooldown).await;
                if wait <= cooldown {
                    cooldown = (cooldown * 2).min(self.config.poll_interval);
                }
                wake_at = Some(Instant::now() + wait);
            }
            let sleep_until = wake_at.unwrap_or_else(|| Instant::now() + self.config.poll_interval);
            tokio::select! {
                _ = shutdown.cancelled() => {}
                _ = wake.notified() => {
                    drained = false;
                    wake_at = None;
                }
                Some(finished) = finished_rx.recv() => {
                    if let (Some(delay), Some(at)) = (finished.due_again_in, wake_at.as_mut()) {
                        *at = (*at).min(Instant::now() + delay);
                    }
                }
                // A raised limit: start buffered jobs and claim more now.
                () = limit_changed(self.config.limit.as_ref()) => drained = false,
                _ = tokio::time::sleep_until(sleep_until) => {
                    drained = false;
                    wake_at = None;
                }
            }
        }

        self.shut_down(buffer, tasks, context, completer).await;
    }

    /// The handlers allowed at once now: the limit's value, within 1..=`concurrency`.
    fn allowed(&self, concurrency: usize) -> usize {
        self.config
            .limit
            .as_ref()
            .map_or(concurrency, |limit| limit.get().clamp(1, concurrency))
    }

    /// Whether this process's presence holds its lock (always, without a presence).
    fn present(&self) -> bool {
        self.config
            .presence
            .as_ref()
            .is_none_or(PresenceStatus::is_present)
    }

    /// Runs the jobs that are due, and those that fall due meanwhile, until a claim finds none or
    /// only jobs it already ran (a job that snoozes runs once), then returns how many ran. For
    /// tests and tools: no listener, no timers, results flushed before it returns; the first
    /// result that could not be recorded is returned as the error. It claims in rounds, each
    /// round's results recorded before the next claim, so the jobs of a serial key run one per
    /// round, in order.
    #[tracing::instrument(skip_all, fields(queue = %self.queue.name()))]
    pub async fn run_once(&self) -> Result<usize, QueueError> {
        let concurrency = self.config.concurrency.max(1);
        let slots = Arc::new(Semaphore::new(concurrency));
        let mut seen = HashSet::new();
        let mut first_error = None;
        loop {
            let limit = self.config.batch.max(concurrency) as i64;
            let jobs = self.queue.claim(&self.config.worker_id, limit).await?;
            let (fresh, repeats): (Vec<_>, Vec<_>) =
                jobs.into_iter().partition(|job| seen.insert(job.id));
            if !repeats.is_empty() {
                self.queue.release_many(&repeats).await?;
            }
            if fresh.is_empty() {
                break;
            }
            if let Err(error) = self.run_round(fresh, &slots).await {
                first_error.get_or_insert(error);
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(seen.len()),
        }
    }

    /// Runs one round of [`Runner::run_once`]: `jobs` on the free slots, then waits until every
    /// result is recorded (batched completions flushed), so that the next claim sees them and a
    /// job that waited for one of them (the next of its serial key) is claimable.
    async fn run_round(
        &self,
        jobs: Vec<ClaimedJob>,
        slots: &Arc<Semaphore>,
    ) -> Result<(), QueueError> {
        let batch = self.config.batch.max(1);
        let completer = (batch > 1).then(|| Completer::start(self.queue.clone(), batch));
        let (finished_tx, _finished_rx) = mpsc::unbounded_channel();
        let context = self.context(completer.as_ref(), None, finished_tx);
        let mut tasks = JoinSet::new();
        for job in jobs {
            let permit = slots
                .clone()
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            let claimed = Claimed {
                job,
                at: Instant::now(),
            };
            tasks.spawn(run_job(context.clone(), claimed, permit));
        }
        let mut first_error = None;
        while let Some(joined) = tasks.join_next().await {
            if let Ok(Err(error)) = joined {
                first_error.get_or_insert(error);
            }
        }
        drop(context);
        let flushed = match completer {
            Some(completer) => completer.finish(None).await,
            None => Ok(()),
        };
        match first_error {
            Some(error) => Err(error),
            None => flushed,
        }
    }

    fn context(
        &self,
        completer: Option<&Completer>,
        chain: Option<Chain>,
        finished: mpsc::UnboundedSender<Finished>,
    ) -> JobContext<H> {
        JobContext {
            queue: self.queue.clone(),
            handler: self.handler.clone(),
            in_flight: InFlight::default(),
            completions: completer.map(Completer::sender),
            chain,
            finished,
        }
    }

    /// Starts buffered jobs on free slots while fewer than `allowed` run. A job that waited in the
    /// buffer for a third of its lease has the lease extended first; one whose lease is already
    /// lost is dropped.
    async fn dispatch(
        &self,
        buffer: &mut VecDeque<Claimed>,
        slots: &Arc<Semaphore>,
        allowed: usize,
        tasks: &mut JoinSet<Result<(), QueueError>>,
        context: &JobContext<H>,
    ) {
        let stale_after = self.queue.config().lease / 3;
        let concurrency = self.config.concurrency.max(1);
        while !buffer.is_empty() {
            if concurrency - slots.available_permits() >= allowed {
                return;
            }
            let Ok(permit) = slots.clone().try_acquire_owned() else {
                return;
            };
            let Some(mut claimed) = buffer.pop_front() else {
                return;
            };
            if claimed.at.elapsed() >= stale_after {
                match self.queue.extend_lease(&claimed.job).await {
                    Ok(job) => {
                        claimed = Claimed {
                            job,
                            at: Instant::now(),
                        }
                    }
                    Err(error) => {
                        tracing::warn!(job = claimed.job.id.0, %error, "a buffered job lost its lease; dropped");
                        continue;
                    }
                }
            }
            tasks.spawn(run_job(context.clone(), claimed, permit));
        }
    }

    /// How long to sleep before looking at the queue again (see [`time_to_next_due`]).
    async fn time_to_next_due(&self, cooldown: Duration) -> Duration {
        time_to_next_due(&self.queue, self.config.poll_interval, cooldown).await
    }

    /// Runs the transactional mode ([`ClaimMode::Transactional`]): one slot per handler, each on a
    /// connection of its own, until `shutdown`; then each slot lets its job finish until the deadline.
    async fn run_held(&self, shutdown: CancellationToken) {
        let mut slots = JoinSet::new();
        for slot in 0..self.config.concurrency.max(1) {
            let held = HeldSlot {
                slot,
                queue: self.queue.clone(),
                handler: self.handler.clone(),
                config: self.config.clone(),
                wake: self.wakeups.subscribe(self.queue.name()),
                shutdown: shutdown.clone(),
            };
            slots.spawn(held.run());
        }
        while let Some(joined) = slots.join_next().await {
            if let Err(error) = joined
                && error.is_panic()
            {
                tracing::error!(%error, "a transactional slot panicked");
            }
        }
    }

    async fn shut_down(
        &self,
        buffer: VecDeque<Claimed>,
        mut tasks: JoinSet<Result<(), QueueError>>,
        context: JobContext<H>,
        completer: Option<Completer>,
    ) {
        let deadline = Instant::now() + self.config.shutdown_deadline;
        let buffered: Vec<ClaimedJob> = buffer.into_iter().map(|c| c.job).collect();
        release_all(&self.queue, &buffered).await;
        loop {
            tokio::select! {
                next = tasks.join_next() => match next {
                    Some(joined) => log_join_error(joined),
                    None => break,
                },
                _ = tokio::time::sleep_until(deadline) => {
                    tracing::warn!(jobs = tasks.len(), "shutdown deadline passed; aborting running jobs");
                    tasks.shutdown().await;
                    break;
                }
            }
        }
        let unfinished: Vec<ClaimedJob> = context
            .in_flight
            .lock()
            .expect("in-flight map poisoned")
            .drain()
            .map(|(_, job)| job)
            .collect();
        release_all(&self.queue, &unfinished).await;
        drop(context);
        if let Some(completer) = completer
            && let Err(error) = completer.finish(Some(deadline)).await
        {
            tracing::warn!(%error, "some completions were not recorded; the reaper will return them");
        }
    }
}

/// How long to sleep before looking at `queue` again: until its earliest due job, at most `poll`,
/// and at least `cooldown` when due jobs exist that others hold.
async fn time_to_next_due(queue: &Queue, poll: Duration, cooldown: Duration) -> Duration {
    match queue.next_due_in().await {
        Ok(Some(due)) => due.clamp(cooldown.min(poll), poll),
        Ok(None) => poll,
        Err(error) => {
            tracing::warn!(%error, "reading the next due time failed");
            poll
        }
    }
}

/// One slot of a transactional runner: a connection of its own, one job at a time.
struct HeldSlot<H> {
    slot: usize,
    queue: Queue,
    handler: Arc<H>,
    config: RunnerConfig,
    wake: Arc<Notify>,
    shutdown: CancellationToken,
}

impl<H: JobHandler> HeldSlot<H> {
    /// Claims and runs jobs until shutdown. The slot sits idle while the runner's limit is below its
    /// number or its process is not present. A connection that failed is closed and replaced.
    #[tracing::instrument(skip_all, fields(queue = %self.queue.name(), slot = self.slot))]
    async fn run(self) {
        let poll = self.config.poll_interval;
        let mut conn: Option<PoolConnection<Postgres>> = None;
        let mut cooldown = COOLDOWN;
        while !self.shutdown.is_cancelled() {
            let allowed = self
                .config
                .limit
                .as_ref()
                .map_or(usize::MAX, ConcurrencyLimit::get);
            let present = self
                .config
                .presence
                .as_ref()
                .is_none_or(PresenceStatus::is_present);
            if self.slot >= allowed.max(1) || !present {
                self.idle(poll).await;
                continue;
            }
            let connection = match conn.as_mut() {
                Some(connection) => connection,
                None => match self.queue.pool().acquire().await {
                    Ok(connection) => conn.insert(connection),
                    Err(error) => {
                        tracing::warn!(%error, "no connection for a transactional slot; retrying");
                        self.idle(poll).await;
                        continue;
                    }
                },
            };
            let healthy = match self
                .queue
                .claim_held(connection, &self.config.worker_id)
                .await
            {
                Ok(Some(Claim::Held(held))) => {
                    cooldown = COOLDOWN;
                    self.run_held(held).await
                }
                Ok(Some(Claim::Leased(job))) => {
                    cooldown = COOLDOWN;
                    self.run_leased(job).await;
                    true
                }
                Ok(None) => {
                    let wait = time_to_next_due(&self.queue, poll, cooldown).await;
                    if wait <= cooldown {
                        cooldown = (cooldown * 2).min(poll);
                    }
                    self.idle(wait).await;
                    true
                }
                Err(error) => {
                    tracing::warn!(%error, "a transactional claim failed; retrying");
                    self.idle(poll).await;
                    false
                }
            };
            if !healthy && let Some(mut broken) = conn.take() {
                broken.close_on_drop();
            }
        }
    }

    /// Waits up to `wait`, less when the queue is woken or the runner shuts down.
    async fn idle(&self, wait: Duration) {
        tokio::select! {
            () = self.shutdown.cancelled() => {}
            () = self.wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
        }
    }

    /// Runs a held job's handler (on the slot's task, a panic caught as a retry) and writes its
    /// outcome.
    /// The handler is given up at nine tenths of the lease (a retry, class `lease_expired`), before
    /// the server would end the session; after shutdown it may run until the shutdown deadline, then
    /// the transaction is rolled back (the job pending again, its attempt not counted). Returns
    /// whether the connection is still usable.
    async fn run_held(&self, held: HeldJob<'_>) -> bool {
        let job = held.job().clone();
        let budget = self.queue.config().lease.mul_f64(0.9);
        let work = CatchUnwind(Box::pin(self.handler.handle(job.clone())));
        let outcome = tokio::select! {
            caught = work => match caught {
                Ok(outcome) => outcome,
                Err(message) => {
                    tracing::error!(job = job.id.0, %message, "a job handler panicked");
                    Outcome::Retry {
                        error: JobError::new(JobError::PANIC, format!("the handler panicked: {message}")),
                        floor: None,
                    }
                }
            },
            () = tokio::time::sleep(budget) => {
                tracing::warn!(job = job.id.0, "a held job ran past its lease; given up");
                Outcome::Retry {
                    error: JobError::new(JobError::LEASE_EXPIRED, "the handler ran past the lease"),
                    floor: None,
                }
            },
            () = after_deadline(&self.shutdown, self.config.shutdown_deadline) => {
                tracing::warn!(job = job.id.0, "shutdown deadline passed; the held job goes back");
                drop(held);
                return false;
            },
        };
        match held.finish(&self.queue, outcome).await {
            Ok(_) => true,
            Err(error) => {
                tracing::warn!(job = job.id.0, %error, "a held job's result was not recorded");
                false
            }
        }
    }

    /// Runs a keyed job claimed under a lease, as a lease-mode runner does; after shutdown it may
    /// run until the shutdown deadline, then it is returned to the queue.
    async fn run_leased(&self, job: ClaimedJob) {
        let claimed = Claimed {
            job: job.clone(),
            at: Instant::now(),
        };
        tokio::select! {
            outcome = run_with_heartbeat(&self.queue, &self.handler, claimed) => {
                if let Some(outcome) = outcome {
                    let _ = record(&self.queue, &job, outcome, None).await;
                }
            }
            () = after_deadline(&self.shutdown, self.config.shutdown_deadline) => {
                release_all(&self.queue, std::slice::from_ref(&job)).await;
            }
        }
    }
}

/// A handler's future with its panics caught: `Err` with the panic's message. A transactional slot
/// runs its handler on its own task, so that a job costs no task of its own and no wake-up across
/// threads.
struct CatchUnwind<'a>(Pin<Box<dyn Future<Output = Outcome> + Send + 'a>>);

impl Future for CatchUnwind<'_> {
    type Output = Result<Outcome, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let work = self.0.as_mut();
        match std::panic::catch_unwind(AssertUnwindSafe(|| work.poll(cx))) {
            Ok(Poll::Ready(outcome)) => Poll::Ready(Ok(outcome)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload_message(payload.as_ref()))),
        }
    }
}

/// Resolves `deadline` after `shutdown` is cancelled.
async fn after_deadline(shutdown: &CancellationToken, deadline: Duration) {
    shutdown.cancelled().await;
    tokio::time::sleep(deadline).await;
}

/// Resolves when `limit` is raised; never without one.
async fn limit_changed(limit: Option<&ConcurrencyLimit>) {
    match limit {
        Some(limit) => limit.changed().await,
        None => std::future::pending().await,
    }
}

/// Runs one job: the handler (with heartbeats), then records its outcome; in a chaining runner a
/// success also claims the next job, which runs on the same slot. A job stays in the in-flight map
/// until its outcome is recorded, so an aborted task's job can be returned. Returns the first
/// result that could not be recorded.
async fn run_job<H: JobHandler>(
    context: JobContext<H>,
    mut claimed: Claimed,
    permit: OwnedSemaphorePermit,
) -> Result<(), QueueError> {
    let mut first_error = None;
    loop {
        let job = claimed.job.clone();
        let key = (job.id, job.claim);
        context
            .in_flight
            .lock()
            .expect("in-flight map poisoned")
            .insert(key, job.clone());
        let outcome = run_with_heartbeat(&context.queue, &context.handler, claimed).await;
        let chain = context
            .chain
            .as_ref()
            .filter(|chain| !chain.shutdown.is_cancelled())
            .filter(|chain| {
                chain
                    .presence
                    .as_ref()
                    .is_none_or(PresenceStatus::is_present)
            });
        let (recorded, next) = match (outcome, chain) {
            (Some(Outcome::Done), Some(chain)) => {
                complete_and_claim(&context.queue, &job, chain).await
            }
            (Some(outcome), _) => (
                record(&context.queue, &job, outcome, context.completions.as_ref()).await,
                None,
            ),
            (None, _) => (Ok(None), None),
        };
        context
            .in_flight
            .lock()
            .expect("in-flight map poisoned")
            .remove(&key);
        let due_again_in = match recorded {
            Ok(due_again_in) => due_again_in,
            Err(error) => {
                first_error.get_or_insert(error);
                None
            }
        };
        // The loop may be gone (run_once); nobody needs the report then.
        let _ = context.finished.send(Finished { due_again_in });
        match next {
            Some(job) => {
                claimed = Claimed {
                    job,
                    at: Instant::now(),
                }
            }
            None => break,
        }
    }
    drop(permit);
    first_error.map_or(Ok(()), Err)
}

/// Records a success and claims the next job in one statement; the lease lost on the finished job
/// is reported as [`QueueError::LeaseLost`] and does not stop the chain.
async fn complete_and_claim(
    queue: &Queue,
    job: &ClaimedJob,
    chain: &Chain,
) -> (Result<Option<Duration>, QueueError>, Option<ClaimedJob>) {
    match queue.complete_and_claim(job, &chain.worker).await {
        Ok((true, next)) => (Ok(None), next),
        Ok((false, next)) => {
            tracing::warn!(
                job = job.id.0,
                claim = job.claim,
                "lease lost before completion; not recorded"
            );
            (
                Err(QueueError::LeaseLost {
                    id: job.id,
                    claim: job.claim,
                }),
                next,
            )
        }
        Err(error) => {
            tracing::warn!(job = job.id.0, %error, "recording a job's result failed");
            (Err(error), None)
        }
    }
}

/// Runs the handler in a task of its own, extending the job's lease every half lease from its
/// claim. Returns `None` when the lease was lost (the handler is aborted; the job is no longer
/// ours), and a retry when the handler panicked.
async fn run_with_heartbeat<H: JobHandler>(
    queue: &Queue,
    handler: &Arc<H>,
    claimed: Claimed,
) -> Option<Outcome> {
    let beat = queue.config().lease / 2;
    let mut next_beat = claimed.at + beat;
    let mut holder = claimed.job.clone();
    let handler = handler.clone();
    let job = claimed.job;
    let mut work = AbortOnDropHandle::new(tokio::spawn(async move { handler.handle(job).await }));
    loop {
        tokio::select! {
            joined = &mut work => {
                return Some(match joined {
                    Ok(outcome) => outcome,
                    Err(error) => {
                        let message = panic_message(error);
                        tracing::error!(job = holder.id.0, %message, "a job handler panicked");
                        Outcome::Retry {
                            error: JobError::new(JobError::PANIC, format!("the handler panicked: {message}")),
                            floor: None,
                        }
                    }
                });
            }
            _ = tokio::time::sleep_until(next_beat) => match queue.extend_lease(&holder).await {
                Ok(extended) => {
                    holder = extended;
                    next_beat = Instant::now() + beat;
                }
                Err(QueueError::LeaseLost { .. }) => {
                    tracing::warn!(job = holder.id.0, "the job's lease was lost while it ran; abandoned");
                    return None;
                }
                Err(error) => {
                    tracing::warn!(job = holder.id.0, %error, "extending a lease failed; trying again");
                    next_beat = Instant::now() + beat / 4;
                }
            },
        }
    }
}

fn panic_message(error: tokio::task::JoinError) -> String {
    if !error.is_panic() {
        return error.to_string();
    }
    payload_message(error.into_panic().as_ref())
}

/// The text a panic was raised with.
fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Records `outcome`; returns the delay after which the job is due again, if it is.
async fn record(
    queue: &Queue,
    job: &ClaimedJob,
    outcome: Outcome,
    completions: Option<&mpsc::UnboundedSender<(JobId, i32)>>,
) -> Result<Option<Duration>, QueueError> {
    let result = match outcome {
        Outcome::Done => match completions {
            Some(sender) if sender.send((job.id, job.claim)).is_ok() => Ok(None),
            _ => queue.complete(queue.pool(), job).await.map(|()| None),
        },
        Outcome::Retry { error, floor } => {
            queue
                .retry(job, error, floor)
                .await
                .map(|outcome| match outcome {
                    RetryOutcome::Scheduled(delay) => Some(delay),
                    RetryOutcome::Failed => None,
                })
        }
        Outcome::Fail { error } => queue.fail(queue.pool(), job, error).await.map(|()| None),
        Outcome::Cancel => queue.cancel(queue.pool(), job).await.map(|()| None),
        Outcome::Snooze(delay) => queue.reschedule(job, delay).await.map(|()| Some(delay)),
        Outcome::Throttle { error, delay } => queue
            .throttle(job, delay, error)
            .await
            .map(|()| Some(delay)),
        Outcome::Recorded => Ok(None),
    };
    if let Err(error) = &result {
        tracing::warn!(job = job.id.0, %error, "recording a job's result failed");
    }
    result
}

async fn release_all(queue: &Queue, jobs: &[ClaimedJob]) {
    if jobs.is_empty() {
        return;
    }
    if let Err(error) = queue.release_many(jobs).await {
        tracing::warn!(jobs = jobs.len(), %error, "returning jobs to the queue failed; their leases will expire");
    }
}

fn log_join_error(joined: Result<Result<(), QueueError>, tokio::task::JoinError>) {
    if let Err(error) = joined
        && error.is_panic()
    {
        tracing::error!(%error, "a job task panicked");
    }
}
