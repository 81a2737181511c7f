//! The update workers' batches: the updates whose jobs are running wait here to be handled, and
//! each of `UPDATE_WORKERS` transactions takes up to `UPDATE_BATCH` of them at once. Each update is
//! handled in a savepoint of its own: one that fails, is deferred or needs a look-up is rolled back
//! to it, and only its own effects go; the others' effects, the answers they queue, their
//! "handled" marks and their jobs' completions commit together, with one commit.
//!
//! What is the same for every update of a batch costs one statement per batch, not one per
//! update: the batch's inbox rows are read in one statement, and once every update has run, the
//! recorded ones' answers are written to the outbox in one (in the order the updates ran, so a
//! chat's answers keep theirs), the updates are marked handled in one and their jobs completed in
//! one (fenced on each job's claim). Should a job's lease turn out lost there, the whole
//! transaction is rolled back, the lost job is told so, and the batch's other recorded updates are
//! handled again at once in a new transaction: nothing of a job whose lease is lost is ever
//! committed.
//!
//! A batch never holds two updates of one chat: a chat's jobs share a serial key, and a job is not
//! claimed while another of its key runs, so a chat's next update is claimed only once the batch
//! that handled the previous one has committed (or its job was put back).

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use teloxide::dispatching::UpdateHandler;
use teloxide::types::{CallbackQueryId, Update};
use tokio::sync::{Mutex, mpsc, oneshot};

use super::HANDLING_TIMEOUT;
use crate::bot::BotError;
use crate::bot::group_admins::GroupMember;
use crate::bot::handlers::{Ctx, Effects, InboxPlace, Shared, SharedTx};
use crate::store::StoreError;
use crate::store::inbox::{self, Stored};
use crate::store::outbox::{self, OutgoingMessage};
use pgqueue::{ClaimedJob, JobId, Queue, QueueError};

/// The answer to a button tap: its id and the toast text.
pub(super) type TapAnswer = (CallbackQueryId, Option<String>);

/// One update to handle in a batch.
pub(super) struct Attempt {
    /// Its job, completed in the batch.
    pub job: ClaimedJob,
    /// Its inbox row, read and marked handled in the batch.
    pub inbox_id: i64,
    /// The answer of a look-up made for it after an earlier attempt needed one.
    pub looked_up: Option<(GroupMember, bool)>,
}

/// What became of an update a batch handled.
#[derive(Debug)]
pub(super) enum Attempted {
    /// Its effects, its mark and its job's completion are committed.
    Recorded {
        /// The tap to answer, if any.
        tap_answer: Option<TapAnswer>,
        /// When the update arrived.
        received_at: DateTime<Utc>,
    },
    /// Nothing of it was kept: it is handled again after this delay.
    Deferred(Duration),
    /// Its inbox row was marked handled before: nothing is left to do.
    HandledBefore,
    /// Its inbox row is gone (retention removed it; its job outlived it): nothing is left to do.
    Gone,
}

/// Why an update a batch handled was not recorded; nothing of it was kept.
#[derive(Debug)]
pub(super) enum Failure {
    /// Its handlers failed (or need a look-up).
    Handler(BotError),
    /// Its handlers took longer than [`HANDLING_TIMEOUT`].
    TimedOut,
    /// The batch's transaction failed (its begin, a statement of its own or the commit).
    Batch(Arc<BotError>),
    /// What is stored is no update teloxide reads (why); it never will be.
    Unreadable(String),
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
    /// Handles `batch` in one transaction; again, without the jobs whose leases were lost, when
    /// that transaction had to be rolled back for them.
    async fn run_batch(&self, batch: Vec<Waiting>) {
        let mut batch = batch;
        while let Some(again) = self.try_batch(batch).await {
            batch = again;
        }
    }

    /// Handles `batch` in one transaction, each update in a savepoint; tells each what became of
    /// it once the transaction has committed (or failed). Returns the recorded updates to handle
    /// again when the transaction was rolled back because another job's lease was lost.
    #[tracing::instrument(skip_all, fields(updates = batch.len()))]
    async fn try_batch(&self, batch: Vec<Waiting>) -> Option<Vec<Waiting>> {
        // A job task that stopped waiting (its lease lost) has nothing left to handle.
        let batch: Vec<Waiting> = batch
            .into_iter()
            .filter(|waiting| !waiting.result.is_closed())
            .collect();
        if batch.is_empty() {
            return None;
        }
        let mut tx = match self.queue.pool().begin().await {
            Ok(tx) => tx,
            Err(error) => return fail_batch(not_run(batch), error),
        };
        let ids: Vec<i64> = batch
            .iter()
            .map(|waiting| waiting.attempt.inbox_id)
            .collect();
        let stored: HashMap<i64, Stored> = match inbox::load_many(&mut *tx, &ids).await {
            Ok(rows) => rows.into_iter().map(|row| (row.id, row)).collect(),
            Err(error) => return fail_batch(not_run(batch), error),
        };
        // An update with nothing to handle is told at once: nothing of it is in the transaction.
        let mut to_handle = Vec::with_capacity(batch.len());
        for waiting in batch {
            match ready(stored.get(&waiting.attempt.inbox_id)) {
                Ok((place, update)) => to_handle.push((waiting, place, update)),
                Err(told) => {
                    let _ = waiting.result.send(told);
                }
            }
        }
        if to_handle.is_empty() {
            // Dropped: rolled back, having written nothing.
            return None;
        }
        let db: SharedTx = Arc::new(Mutex::new(tx));
        // An update alone needs no savepoint: the transaction is its own.
        let alone = to_handle.len() == 1;
        let mut savepoint = "savepoint update";
        let mut results: Vec<Told> = Vec::with_capacity(to_handle.len());
        // The recorded updates' answers, in the order they were handled: written once every
        // update has run, with their marks.
        let mut outgoing = Vec::new();
        let mut pending = to_handle.into_iter();
        while let Some((waiting, place, update)) = pending.next() {
            if !alone {
                let set = sqlx::raw_sql(savepoint)
                    .execute(&mut **db.lock().await)
                    .await;
                if let Err(error) = set {
                    results.push((waiting, None));
                    results.extend(pending.map(|(waiting, ..)| (waiting, None)));
                    return fail_batch(results, error);
                }
                savepoint = NEXT_SAVEPOINT;
            }
            let handled = tokio::time::timeout(
                HANDLING_TIMEOUT,
                self.attempt(&db, &waiting.attempt, place, update, &mut outgoing),
            )
            .await
            .unwrap_or(Err(Failure::TimedOut));
            if alone && !is_recorded(&handled) {
                // Rolled back now, not when the connection is next used: a look-up may come next.
                let rolled_back = match Arc::into_inner(db) {
                    Some(db) => db.into_inner().rollback().await,
                    None => Ok(()),
                };
                if let Err(error) = rolled_back {
                    tracing::warn!(%error, "rolling back an update failed");
                }
                let _ = waiting.result.send(handled);
                return None;
            }
            if !is_recorded(&handled) {
                let undone = sqlx::raw_sql("rollback to savepoint update")
                    .execute(&mut **db.lock().await)
                    .await;
                if let Err(error) = undone {
                    results.push((waiting, Some(handled)));
                    results.extend(pending.map(|(waiting, ..)| (waiting, None)));
                    return fail_batch(results, error);
                }
            }
            results.push((waiting, Some(handled)));
        }
        let Some(db) = Arc::into_inner(db) else {
            return fail_batch(results, BotError::ContextShared);
        };
        let mut tx = db.into_inner();
        let (ids, claims): (Vec<i64>, Vec<(JobId, i32)>) = results
            .iter()
            .filter(|(_, handled)| handled.as_ref().is_some_and(is_recorded))
            .map(|(waiting, _)| {
                let job = &waiting.attempt.job;
                (waiting.attempt.inbox_id, (job.id, job.claim))
            })
            .unzip();
        if !ids.is_empty() {
            let recorded = async {
                if !outgoing.is_empty() {
                    outbox::enqueue_many(&mut tx, &self.shared.deps.queue, &outgoing).await?;
                }
                inbox::mark_many_handled(&mut tx, &ids).await?;
                let lost = self
                    .queue
                    .complete_many_in(&mut *tx, &claims)
                    .await
                    .map_err(StoreError::from)?;
                Ok::<_, BotError>(lost)
            };
            match recorded.await {
                Err(error) => return fail_batch(results, error),
                Ok(lost) if !lost.is_empty() => {
                    if let Err(error) = tx.rollback().await {
                        tracing::warn!(%error, "rolling back a batch failed");
                    }
                    return again_without(results, &lost);
                }
                Ok(_) => {}
            }
        }
        if let Err(error) = tx.commit().await {
            return fail_batch(results, error);
        }
        for (waiting, handled) in results {
            if let Some(handled) = handled {
                // A job task that stopped waiting (its lease lost) has nobody to tell.
                let _ = waiting.result.send(handled);
            }
        }
        None
    }

    /// Runs the handlers on `update` in `db` (in its savepoint); when they are done, its outbox
    /// messages join `outgoing`. A handler that fails, defers the update or needs a look-up has
    /// the caller roll the savepoint back, and none of its messages joins; the messages, the
    /// update's mark and its job's completion are written for the whole batch once every update
    /// has run.
    async fn attempt(
        &self,
        db: &SharedTx,
        attempt: &Attempt,
        place: InboxPlace,
        update: Update,
        outgoing: &mut Vec<OutgoingMessage>,
    ) -> Result<Attempted, Failure> {
        let mut ctx = Ctx::in_shared(self.shared.clone(), db.clone()).in_inbox(place);
        if let Some((member, admin)) = attempt.looked_up {
            ctx = ctx.with_looked_up(member, admin);
        }
        let ctx = Arc::new(ctx);
        let dispatched = self
            .schema
            .dispatch(teloxide::dptree::deps![update, ctx.clone()])
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
            outgoing: messages,
            tap_answer,
            defer,
        } = ctx.into_effects();
        if let Some(error) = failed {
            return Err(Failure::Handler(error));
        }
        if let Some(delay) = defer {
            return Ok(Attempted::Deferred(delay));
        }
        outgoing.extend(messages);
        Ok(Attempted::Recorded {
            tap_answer,
            received_at: place.received_at,
        })
    }
}

/// An attempt, and its result once its handlers ran (`None` before).
type Told = (Waiting, Option<Result<Attempted, Failure>>);

/// The attempts of a batch none of which has run.
fn not_run(batch: Vec<Waiting>) -> Vec<Told> {
    batch.into_iter().map(|waiting| (waiting, None)).collect()
}

/// Whether an attempt's effects are to be kept.
fn is_recorded(handled: &Result<Attempted, Failure>) -> bool {
    matches!(handled, Ok(Attempted::Recorded { .. }))
}

/// The stored update to handle and where it is in the inbox, or, when there is nothing to handle,
/// what its attempt is told.
fn ready(stored: Option<&Stored>) -> Result<(InboxPlace, Update), Result<Attempted, Failure>> {
    let Some(stored) = stored else {
        return Err(Ok(Attempted::Gone));
    };
    if stored.handled {
        return Err(Ok(Attempted::HandledBefore));
    }
    let update = super::parse(stored).map_err(|reason| Err(Failure::Unreadable(reason)))?;
    let place = InboxPlace {
        id: stored.id,
        received_at: stored.received_at,
    };
    Ok((place, update))
}

/// After a batch was rolled back because the leases of `lost` were lost: their attempts are told
/// so, those that failed or were deferred by themselves are told their own result (nothing of them
/// was kept either way), and the other recorded ones are returned, to be handled again in a new
/// transaction. Should none of the batch's jobs be among `lost` (it cannot be told which to leave
/// out), every attempt is told the batch failed instead, and none is handled again here.
fn again_without(results: Vec<Told>, lost: &[(JobId, i32)]) -> Option<Vec<Waiting>> {
    let is_lost = |waiting: &Waiting| {
        let job = &waiting.attempt.job;
        lost.contains(&(job.id, job.claim))
    };
    if !results.iter().any(|(waiting, _)| is_lost(waiting)) {
        let (id, claim) = lost[0];
        return fail_batch(
            results,
            StoreError::from(QueueError::LeaseLost { id, claim }),
        );
    }
    let mut again = Vec::new();
    for (waiting, handled) in results {
        match handled {
            Some(Ok(Attempted::Recorded { .. })) | None if is_lost(&waiting) => {
                let job = &waiting.attempt.job;
                let error = StoreError::from(QueueError::LeaseLost {
                    id: job.id,
                    claim: job.claim,
                });
                let _ = waiting
                    .result
                    .send(Err(Failure::Batch(Arc::new(error.into()))));
            }
            Some(Ok(Attempted::Recorded { .. })) | None => again.push(waiting),
            Some(own) => {
                let _ = waiting.result.send(own);
            }
        }
    }
    (!again.is_empty()).then_some(again)
}

/// Tells every attempt of a batch that failed that nothing of it was kept: an attempt that failed
/// or was deferred by itself is told so, the others (recorded, or not handled yet) the batch's
/// error. Nothing is to be handled again.
fn fail_batch(results: Vec<Told>, error: impl Into<BotError>) -> Option<Vec<Waiting>> {
    let error = Arc::new(error.into());
    tracing::warn!(%error, updates = results.len(), "a batch of updates failed");
    for (waiting, handled) in results {
        let told = match handled {
            Some(Ok(Attempted::Recorded { .. })) | None => Err(Failure::Batch(error.clone())),
            Some(own) => own,
        };
        // A job task that stopped waiting has nobody to tell.
        let _ = waiting.result.send(told);
    }
    None
}
