//! The runner: claims due jobs of one queue and runs a handler on each, `concurrency` at a time.
//!
//! Its loop `select!`s over shutdown, the queue's NOTIFY signal, a finished job and a timer set to
//! the earliest due job (capped by the poll interval, the safety net). Jobs are claimed in batches
//! into a small local buffer so handlers never wait for a claim round trip, and successes are marked
//! `done` in batches. Leases of long jobs are extended while they run. On shutdown it stops
//! claiming, returns buffered jobs to the queue, lets running handlers finish until the deadline,
//! then aborts and returns the rest: nothing is left `running`.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::completer::Completer;
use super::{ClaimedJob, JobId, Queue, QueueError, Wakeups};

/// What a handler decided about its job.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It succeeded: mark the job `done`.
    Done,
    /// It failed for now: retry after the backoff (at least `floor`), or fail when out of attempts.
    Retry {
        /// Why, kept as the job's last error.
        error: String,
        /// The shortest acceptable delay (such as Telegram's `retry_after`).
        floor: Option<Duration>,
    },
    /// It failed for good: mark the job `failed` with `error`.
    Fail {
        /// Why, kept for admins.
        error: String,
    },
    /// Its reason to run is gone: mark it `cancelled`.
    Cancel,
    /// It could not run yet: try again after this delay without counting the attempt.
    Snooze(Duration),
    /// The handler already recorded the job's result itself, in its own transaction.
    Recorded,
}

/// The work done for each job of a queue.
pub trait JobHandler: Send + Sync + 'static {
    /// Runs `job` and says what became of it. Runs outside any database transaction; the job's
    /// lease is extended while it runs.
    fn handle(&self, job: ClaimedJob) -> impl Future<Output = Outcome> + Send;
}

/// Settings of a runner.
#[derive(Clone, Debug)]
pub struct RunnerConfig {
    /// Handlers running at once.
    pub concurrency: usize,
    /// Jobs taken per claim and marked done per statement; 1 claims and completes one at a time.
    pub batch: usize,
    /// The longest the runner sleeps without looking at the queue (the safety net for lost
    /// NOTIFYs).
    pub poll_interval: Duration,
    /// How long running handlers may take to finish after shutdown before they are aborted.
    pub shutdown_deadline: Duration,
    /// Written to `locked_by` of claimed jobs.
    pub worker_id: String,
}

impl Default for RunnerConfig {
    /// 8 handlers, batches of 32, a 1 s poll, a 10 s shutdown deadline.
    fn default() -> Self {
        Self {
            concurrency: 8,
            batch: 32,
            poll_interval: Duration::from_secs(1),
            shutdown_deadline: Duration::from_secs(10),
            worker_id: format!("pid-{}", std::process::id()),
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

/// The shortest wait when due jobs exist that another worker holds.
const COOLDOWN: Duration = Duration::from_millis(20);

/// Jobs whose handlers are running, so that shutdown can return them if it must abort.
type InFlight = Arc<Mutex<HashMap<JobId, ClaimedJob>>>;

/// What a job task reports when its job is recorded.
struct Finished {
    /// The job is pending again, due after this delay.
    due_again_in: Option<Duration>,
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
        let concurrency = self.config.concurrency.max(1);
        let batch = self.config.batch.max(1);
        let prefetch = if batch > 1 { batch } else { 0 };
        let wake = self.wakeups.subscribe(self.queue.name());
        let slots = Arc::new(Semaphore::new(concurrency));
        let in_flight = InFlight::default();
        let completer = (batch > 1).then(|| Completer::start(self.queue.clone(), batch));
        let (finished_tx, mut finished_rx) = mpsc::unbounded_channel::<Finished>();
        let mut tasks = JoinSet::new();
        let mut buffer: VecDeque<ClaimedJob> = VecDeque::new();
        let mut drained = false;
        let mut wake_at: Option<Instant> = None;

        while !shutdown.is_cancelled() {
            while let Some(job) = buffer.front() {
                let Ok(permit) = slots.clone().try_acquire_owned() else {
                    break;
                };
                let job = job.clone();
                buffer.pop_front();
                self.spawn_job(
                    &mut tasks,
                    job,
                    permit,
                    &in_flight,
                    completer.as_ref(),
                    &finished_tx,
                );
            }
            while tasks.try_join_next().is_some() {}

            let busy = concurrency - slots.available_permits();
            let room = (concurrency + prefetch).saturating_sub(busy + buffer.len());
            if !drained && room > 0 && buffer.len() <= prefetch / 2 {
                let want = room.min(batch);
                match self.queue.claim(&self.config.worker_id, want as i64).await {
                    Ok(jobs) => {
                        drained = jobs.len() < want;
                        let claimed_any = !jobs.is_empty();
                        buffer.extend(jobs);
                        if claimed_any {
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
                wake_at = Some(Instant::now() + self.time_to_next_due().await);
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
                _ = tokio::time::sleep_until(sleep_until), if drained => {
                    drained = false;
                    wake_at = None;
                }
            }
        }

        self.shut_down(buffer, tasks, in_flight, completer).await;
    }

    /// Runs every job that is due now, and those that fall due meanwhile, then returns how many
    /// ran. For tests and tools: no listener, no timers, results flushed before it returns.
    #[tracing::instrument(skip_all, fields(queue = %self.queue.name()))]
    pub async fn run_once(&self) -> Result<usize, QueueError> {
        let concurrency = self.config.concurrency.max(1);
        let batch = self.config.batch.max(1);
        let slots = Arc::new(Semaphore::new(concurrency));
        let in_flight = InFlight::default();
        let completer = (batch > 1).then(|| Completer::start(self.queue.clone(), batch));
        let (finished_tx, _finished_rx) = mpsc::unbounded_channel();
        let mut tasks = JoinSet::new();
        let mut total = 0;
        loop {
            let jobs = self
                .queue
                .claim(&self.config.worker_id, batch.max(concurrency) as i64)
                .await?;
            if jobs.is_empty() {
                break;
            }
            total += jobs.len();
            for job in jobs {
                let permit = slots
                    .clone()
                    .acquire_owned()
                    .await
                    .expect("the semaphore is never closed");
                self.spawn_job(
                    &mut tasks,
                    job,
                    permit,
                    &in_flight,
                    completer.as_ref(),
                    &finished_tx,
                );
            }
            while tasks.join_next().await.is_some() {}
        }
        if let Some(completer) = completer {
            completer.finish().await;
        }
        Ok(total)
    }

    fn spawn_job(
        &self,
        tasks: &mut JoinSet<()>,
        job: ClaimedJob,
        permit: OwnedSemaphorePermit,
        in_flight: &InFlight,
        completer: Option<&Completer>,
        finished: &mpsc::UnboundedSender<Finished>,
    ) {
        in_flight
            .lock()
            .expect("in-flight map poisoned")
            .insert(job.id, job.clone());
        let queue = self.queue.clone();
        let handler = self.handler.clone();
        let in_flight = in_flight.clone();
        let completions = completer.map(Completer::sender);
        let finished = finished.clone();
        tasks.spawn(async move {
            let id = job.id;
            let outcome = run_with_heartbeat(&queue, handler.as_ref(), job.clone()).await;
            let due_again_in = record(&queue, &job, outcome, completions.as_ref()).await;
            in_flight
                .lock()
                .expect("in-flight map poisoned")
                .remove(&id);
            drop(permit);
            // The loop may be gone (run_once); nobody needs the report then.
            let _ = finished.send(Finished { due_again_in });
        });
    }

    /// How long to sleep before looking at the queue again: until its earliest due job, at least
    /// a short cooldown, at most the poll interval.
    async fn time_to_next_due(&self) -> Duration {
        let poll = self.config.poll_interval;
        match self.queue.next_due_in().await {
            Ok(Some(due)) => due.clamp(COOLDOWN, poll.max(COOLDOWN)),
            Ok(None) => poll,
            Err(error) => {
                tracing::warn!(%error, "reading the next due time failed");
                poll
            }
        }
    }

    async fn shut_down(
        &self,
        buffer: VecDeque<ClaimedJob>,
        mut tasks: JoinSet<()>,
        in_flight: InFlight,
        completer: Option<Completer>,
    ) {
        for job in buffer {
            release(&self.queue, &job).await;
        }
        let deadline = tokio::time::sleep(self.config.shutdown_deadline);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                next = tasks.join_next() => if next.is_none() { break },
                _ = &mut deadline => {
                    tracing::warn!(jobs = tasks.len(), "shutdown deadline passed; aborting running jobs");
                    tasks.shutdown().await;
                    break;
                }
            }
        }
        let unfinished: Vec<ClaimedJob> = in_flight
            .lock()
            .expect("in-flight map poisoned")
            .drain()
            .map(|(_, job)| job)
            .collect();
        for job in unfinished {
            release(&self.queue, &job).await;
        }
        if let Some(completer) = completer {
            completer.finish().await;
        }
    }
}

/// Runs the handler, extending the job's lease every half lease while it runs.
async fn run_with_heartbeat<H: JobHandler>(queue: &Queue, handler: &H, job: ClaimedJob) -> Outcome {
    let beat = queue.config().lease / 2;
    let mut lease_holder = job.clone();
    let work = handler.handle(job);
    tokio::pin!(work);
    loop {
        tokio::select! {
            outcome = &mut work => return outcome,
            _ = tokio::time::sleep(beat) => match queue.extend_lease(&lease_holder).await {
                Ok(extended) => lease_holder = extended,
                Err(error) => tracing::warn!(%error, "extending a lease failed"),
            },
        }
    }
}

/// Records `outcome`; returns the delay after which the job is due again, if it is.
async fn record(
    queue: &Queue,
    job: &ClaimedJob,
    outcome: Outcome,
    completions: Option<&mpsc::UnboundedSender<(JobId, i32)>>,
) -> Option<Duration> {
    let result = match outcome {
        Outcome::Done => match completions {
            Some(sender) if sender.send((job.id, job.claim)).is_ok() => Ok(None),
            _ => queue.complete(queue.pool(), job).await.map(|()| None),
        },
        Outcome::Retry { error, floor } => {
            queue
                .retry(job, &error, floor)
                .await
                .map(|outcome| match outcome {
                    super::RetryOutcome::Scheduled(delay) => Some(delay),
                    super::RetryOutcome::Failed => None,
                })
        }
        Outcome::Fail { error } => queue.fail(queue.pool(), job, &error).await.map(|()| None),
        Outcome::Cancel => queue.cancel(queue.pool(), job).await.map(|()| None),
        Outcome::Snooze(delay) => queue.reschedule(job, delay).await.map(|()| Some(delay)),
        Outcome::Recorded => Ok(None),
    };
    result.unwrap_or_else(|error| {
        tracing::warn!(job = job.id, %error, "recording a job's result failed");
        None
    })
}

async fn release(queue: &Queue, job: &ClaimedJob) {
    if let Err(error) = queue.release(job).await {
        tracing::warn!(job = job.id, %error, "returning a job to the queue failed; its lease will expire");
    }
}
