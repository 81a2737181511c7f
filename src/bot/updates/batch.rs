//! The update workers' batches: the updates whose jobs are running wait here to be handled, and
//! each of `UPDATE_WORKERS` transactions takes up to `UPDATE_BATCH` of them at once. Each update is
//! handled in a savepoint of its own: one that fails, is deferred or needs a look-up is rolled back
//! to it, and only its own effects go; the others' effects, the answers they queue, their
//! "handled" marks and their jobs' completions commit together, with one commit.
//!
//! A batch never holds two updates of one chat: a chat's jobs share a serial key, and a job is not
//! claimed while another of its key runs, so a chat's next update is claimed only once the batch
//! that handled the previous one has committed (or its job was put back).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use teloxide::dispatching::UpdateHandler;
use teloxide::types::{CallbackQueryId, Update};
use tokio::sync::{Mutex, mpsc, oneshot};

use super::HANDLING_TIMEOUT;
use crate::bot::BotError;
use crate::bot::group_admins::GroupMember;
use crate::bot::handlers::{Ctx, Effects, InboxPlace, Shared, SharedTx};
use crate::store::StoreError;
use crate::store::inbox;
use crate::store::outbox;
use pgqueue::{ClaimedJob, Queue};

/// The answer to a button tap: its id and the toast text.
pub(super) type TapAnswer = (CallbackQueryId, Option<String>);

/// One update to handle in a batch.
pub(super) struct Attempt {
    /// Its job, completed in the batch.
    pub job: ClaimedJob,
    /// Its inbox row, marked handled in the batch.
    pub place: InboxPlace,
    /// The update.
    pub update: Update,
    /// The answer of a look-up made for it after an earlier attempt needed one.
    pub looked_up: Option<(GroupMember, bool)>,
}

/// What became of an update a batch handled.
#[derive(Debug)]
pub(super) enum Attempted {
    /// Its effects, its mark and its job's completion are committed; the tap to answer, if any.
    Recorded(Option<TapAnswer>),
    /// Nothing of it was kept: it is handled again after this delay.
    Deferred(Duration),
}

/// Why an update a batch handled was not recorded; nothing of it was kept.
#[derive(Debug)]
pub(super) enum Failure {
    /// Its handlers failed (or need a look-up).
    Handler(BotError),
    /// Its handlers took longer than [`HANDLING_TIMEOUT`].
    TimedOut,
    /// The batch's transaction failed (its begin, a savepoint or the commit).
    Batch(Arc<BotError>),
}

/// An attempt and where its result goes.
struct Waiting {
    attempt: Attempt,
    result: oneshot::Sender<Result<Attempted, Failure>>,
}

/// The handle the update jobs are handled through; the batches' tasks stop when it is dropped.
#[derive(Debug)]
pub(super) struct Batches {
    sender: mpsc::Sender<Waiting>,
}

impl Batches {
    /// Starts `transactions` tasks, each handling up to `size` updates per transaction with the
    /// handlers of `schema`, in the queue `queue` (the updates queue).
    pub fn start(
        shared: Arc<Shared>,
        queue: Queue,
        schema: UpdateHandler<BotError>,
        transactions: usize,
        size: usize,
    ) -> Self {
        let size = size.clamp(1, MAX_BATCH);
        let (sender, receiver) = mpsc::channel(transactions.max(1) * size * 2);
        let receiver = Arc::new(Mutex::new(receiver));
        let handling = Arc::new(Handling {
            shared,
            queue,
            schema,
        });
        for _ in 0..transactions.max(1) {
            tokio::spawn(take_batches(handling.clone(), receiver.clone(), size));
        }
        Self { sender }
    }

    /// Handles `attempt` in the next batch; returns once that batch has committed or failed.
    pub async fn handle(&self, attempt: Attempt) -> Result<Attempted, Failure> {
        let (result, answer) = oneshot::channel();
        let stopped = || Failure::Handler(BotError::ContextShared);
        self.sender
            .send(Waiting { attempt, result })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

/// What the batches share: the handlers and the queue whose jobs they complete.
struct Handling {
    shared: Arc<Shared>,
    queue: Queue,
    schema: UpdateHandler<BotError>,
}

/// One batch task: takes whatever attempts wait (up to `size`), handles them in one transaction,
/// until the handle is gone.
async fn take_batches(
    handling: Arc<Handling>,
    receiver: Arc<Mutex<mpsc::Receiver<Waiting>>>,
    size: usize,
) {
    let mut batch = Vec::with_capacity(size);
    loop {
        let taken = receiver.lock().await.recv_many(&mut batch, size).await;
        if taken == 0 {
            return;
        }
        handling.run_batch(std::mem::take(&mut batch)).await;
    }
}

/// The most updates in one batch: each savepoint that writes is a subtransaction, and past 64 in
/// one transaction PostgreSQL's cache of them overflows, which slows every snapshot taken in the
/// cluster while it lasts.
const MAX_BATCH: usize = 64;

/// Sent before each update of a batch but the first: the previous one's savepoint (rolled back
/// to or not) is released, and the next one's set.
const NEXT_SAVEPOINT: &str = "release savepoint update; savepoint update";

impl Handling {
    /// Handles `batch` in one transaction, each update in a savepoint; tells each what became of
    /// it once the transaction has committed (or failed).
    #[tracing::instrument(skip_all, fields(updates = batch.len()))]
    async fn run_batch(&self, batch: Vec<Waiting>) {
        let mut results: Vec<Told> = Vec::with_capacity(batch.len());
        let tx = match self.queue.pool().begin().await {
            Ok(tx) => tx,
            Err(error) => {
                results.extend(batch.into_iter().map(|waiting| (waiting.result, None)));
                return fail_batch(results, error);
            }
        };
        let db: SharedTx = Arc::new(Mutex::new(tx));
        // An update alone needs no savepoint: the transaction is its own.
        let alone = batch.len() == 1;
        let mut savepoint = "savepoint update";
        let mut waiting = batch.into_iter();
        while let Some(Waiting { attempt, result }) = waiting.next() {
            if !alone {
                let set = sqlx::raw_sql(savepoint)
                    .execute(&mut **db.lock().await)
                    .await;
                if let Err(error) = set {
                    results.push((result, None));
                    results.extend(waiting.map(|waiting| (waiting.result, None)));
                    return fail_batch(results, error);
                }
                savepoint = NEXT_SAVEPOINT;
            }
            let handled = tokio::time::timeout(HANDLING_TIMEOUT, self.attempt(&db, &attempt))
                .await
                .unwrap_or(Err(Failure::TimedOut));
            if alone && !matches!(handled, Ok(Attempted::Recorded(_))) {
                // Rolled back now, not when the connection is next used: a look-up may come next.
                let rolled_back = match Arc::into_inner(db) {
                    Some(db) => db.into_inner().rollback().await,
                    None => Ok(()),
                };
                if let Err(error) = rolled_back {
                    tracing::warn!(%error, "rolling back an update failed");
                }
                let _ = result.send(handled);
                return;
            }
            if !matches!(handled, Ok(Attempted::Recorded(_))) {
                let undone = sqlx::raw_sql("rollback to savepoint update")
                    .execute(&mut **db.lock().await)
                    .await;
                if let Err(error) = undone {
                    results.push((result, Some(handled)));
                    results.extend(waiting.map(|waiting| (waiting.result, None)));
                    return fail_batch(results, error);
                }
            }
            results.push((result, Some(handled)));
        }
        let committed = match Arc::into_inner(db) {
            Some(db) => db.into_inner().commit().await.map_err(BotError::from),
            None => Err(BotError::ContextShared),
        };
        if let Err(error) = committed {
            return fail_batch(results, error);
        }
        for (sender, handled) in results {
            if let Some(handled) = handled {
                // A job task that stopped waiting (its lease lost) has nobody to tell.
                let _ = sender.send(handled);
            }
        }
    }

    /// Runs the handlers on `attempt` in `db` (in its savepoint), then writes its outbox
    /// messages, its mark and its job's completion there. A handler that fails, defers the
    /// update or needs a look-up has the caller roll the savepoint back.
    async fn attempt(&self, db: &SharedTx, attempt: &Attempt) -> Result<Attempted, Failure> {
        let mut ctx = Ctx::in_shared(self.shared.clone(), db.clone()).in_inbox(attempt.place);
        if let Some((member, admin)) = attempt.looked_up {
            ctx = ctx.with_looked_up(member, admin);
        }
        let ctx = Arc::new(ctx);
        let dispatched = self
            .schema
            .dispatch(teloxide::dptree::deps![attempt.update.clone(), ctx.clone()])
            .await;
        let failed = match dispatched {
            ControlFlow::Break(Err(error)) => Some(error),
            // An update no handler takes (a kind the bot does not know) comes back with its
            // dependencies, the context among them: let them go before taking the context back.
            unhandled_or_done => {
                drop(unhandled_or_done);
                None
            }
        };
        let ctx = Arc::into_inner(ctx).ok_or(Failure::Handler(BotError::ContextShared))?;
        let Effects {
            outgoing,
            tap_answer,
            defer,
        } = ctx.into_effects();
        if let Some(error) = failed {
            return Err(Failure::Handler(error));
        }
        if let Some(delay) = defer {
            return Ok(Attempted::Deferred(delay));
        }
        let mut tx = db.lock().await;
        let recorded = async {
            for message in &outgoing {
                outbox::enqueue(&mut tx, &self.shared.deps.queue, message).await?;
            }
            inbox::mark_handled(&mut tx, attempt.place.id).await?;
            self.queue
                .complete(&mut **tx, &attempt.job)
                .await
                .map_err(StoreError::from)?;
            Ok::<_, BotError>(())
        };
        recorded.await.map_err(Failure::Handler)?;
        Ok(Attempted::Recorded(tap_answer))
    }
}

/// Where an attempt's result goes, and the result once its handlers ran (`None` before).
type Told = (
    oneshot::Sender<Result<Attempted, Failure>>,
    Option<Result<Attempted, Failure>>,
);

/// Tells every attempt of a batch that failed that nothing of it was kept: an attempt that failed
/// or was deferred by itself is told so, the others (recorded, or not handled yet) the batch's
/// error.
fn fail_batch(results: Vec<Told>, error: impl Into<BotError>) {
    let error = Arc::new(error.into());
    tracing::warn!(%error, updates = results.len(), "a batch of updates failed");
    for (sender, handled) in results {
        let told = match handled {
            Some(Ok(Attempted::Recorded(_))) | None => Err(Failure::Batch(error.clone())),
            Some(own) => own,
        };
        // A job task that stopped waiting has nobody to tell.
        let _ = sender.send(told);
    }
}
