//! Handling the updates in the inbox: the [`JobHandler`] of the updates queue. One job per update;
//! the jobs of one chat share a serial key, so a chat's updates are handled one at a time, in the
//! order they arrived, while different chats are handled in parallel (by every replica).
//!
//! An update is handled in one transaction (a savepoint of a batch's, [`batch`]): what the
//! handlers change (a task and its reminder job, a question, a setting), the messages they send
//! (written to the outbox), the update's "handled" mark and the job's completion commit together,
//! or none of it does and the job is tried again. A crash mid-way therefore never creates a second
//! task, and an update whose handler keeps failing ends `failed`, for admins, with an apology to
//! the user.
//!
//! Telegram is never called while that transaction is open: a handler that needs a group
//! member's rights not remembered stops, its attempt is rolled back, they are looked up
//! ([`super::group_admins`]), and the update is handled again; a failed look-up is answered at
//! once as "not allowed: could not be checked", so the group's later updates are not held.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use serde::Deserialize as _;
use sqlx::PgConnection;
use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{Update, UpdateKind};

use super::BotError;
use super::handlers::{Shared, tapper_lang};
use super::metrics;
use super::render::{self, Reply};
use crate::domain::ids::ChatId;
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::inbox::{self, Stored, UpdateJob};
use crate::store::outbox::{self, MessageOp, OutgoingMessage};
use crate::store::types::ErrorClass;
use crate::store::{StoreError, chats};
use pgqueue::{ClaimedJob, GiveUpHook, GivenUpJob, JobHandler, Outcome, Queue, hook::HookFuture};

mod batch;

use batch::{Attempt, Attempted, Batches, Failure, TapAnswer};

/// How long one update may take to handle before its attempt counts as failed.
pub const HANDLING_TIMEOUT: Duration = Duration::from_secs(30);

/// Handles update jobs; one per process, shared by the runner's workers. Each job's update is
/// handled in one of the batches ([`batch`]).
pub struct UpdateWorker {
    shared: Arc<Shared>,
    queue: Queue,
    batches: Batches,
}

impl std::fmt::Debug for UpdateWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpdateWorker")
            .field("queue", &self.queue.name())
            .finish_non_exhaustive()
    }
}

impl UpdateWorker {
    /// A worker handling the jobs of `queue` (the updates queue) with the handlers of `schema`,
    /// in up to `transactions` transactions at once of up to `batch` updates each.
    pub(crate) fn new(
        shared: Arc<Shared>,
        queue: Queue,
        schema: UpdateHandler<BotError>,
        transactions: usize,
        batch: usize,
    ) -> Self {
        let batches = Batches::start(shared.clone(), queue.clone(), schema, transactions, batch);
        Self {
            shared,
            queue,
            batches,
        }
    }

    /// Handles the update of `job` and says what became of the job.
    #[tracing::instrument(skip_all, fields(job = job.id.0, attempt = job.attempt))]
    async fn run(&self, job: ClaimedJob) -> Outcome {
        let UpdateJob { inbox_id } = match job.args::<UpdateJob>() {
            Ok(update) => update,
            Err(error) => {
                return fail(
                    ErrorClass::BadPayload,
                    format!("not an update job: {error}"),
                );
            }
        };
        match self.handle(&job, inbox_id).await {
            Ok(Attempted::Recorded {
                tap_answer,
                received_at,
            }) => {
                metrics::update_handled((Utc::now() - received_at).to_std().unwrap_or_default());
                self.answer_tap(tap_answer).await;
                Outcome::Recorded
            }
            // Waiting for what may follow in the chat is no attempt.
            Ok(Attempted::Deferred(delay)) => Outcome::Snooze(delay),
            Ok(Attempted::HandledBefore) => Outcome::Done,
            // Retention removed it (its job outlived it): nothing is left to handle.
            Ok(Attempted::Gone) => Outcome::Cancel,
            Err(Failure::Unreadable(reason)) => {
                metrics::update_failed();
                fail(ErrorClass::Unreadable, reason)
            }
            Err(Failure::TimedOut) => retry(
                ErrorClass::Timeout,
                format!("not handled within {HANDLING_TIMEOUT:?}"),
            ),
            Err(Failure::Handler(error)) => {
                tracing::warn!(%error, "handling an update failed");
                if job.is_last_attempt() {
                    metrics::update_failed();
                }
                retry(ErrorClass::Handler, error.to_string())
            }
            Err(Failure::Batch(error)) => {
                if job.is_last_attempt() {
                    metrics::update_failed();
                }
                retry(ErrorClass::Handler, error.to_string())
            }
        }
    }

    /// Handles the update in inbox row `inbox_id` in a batch; when a handler needs a group
    /// member's rights that Telegram has not told recently, the attempt is rolled back, Telegram
    /// is asked with no transaction open, and the update is handled again (in a later batch) with
    /// the answer. A look-up that fails is answered as "not allowed: could not be checked" at
    /// once, nothing changed.
    async fn handle(&self, job: &ClaimedJob, inbox_id: i64) -> Result<Attempted, Failure> {
        let attempt = |looked_up| Attempt {
            job: job.clone(),
            inbox_id,
            looked_up,
        };
        let member = match self.batches.handle(attempt(None)).await {
            Err(Failure::Handler(BotError::NeedsLookUp(member))) => member,
            handled => return handled,
        };
        let shared = &self.shared;
        match shared.admins.look_up(&shared.bot, member).await {
            Ok(admin) => self.batches.handle(attempt(Some((member, admin)))).await,
            Err(error) => {
                tracing::info!(%error, "refused: a group member's rights could not be checked");
                self.refuse_unchecked(job, inbox_id).await
            }
        }
    }

    /// Answers an update whose sender's rights in a group could not be looked up: "not allowed,
    /// could not be checked, nothing changed" (a tap's answer in the tapper's language, else a
    /// message in the chat's), with the update's mark and the job's completion.
    async fn refuse_unchecked(
        &self,
        job: &ClaimedJob,
        inbox_id: i64,
    ) -> Result<Attempted, Failure> {
        let mut tx = self.queue.pool().begin().await.map_err(handler)?;
        // Read again here: the batch that needed the look-up has let its copy go.
        let Some(stored) = inbox::load(&mut *tx, inbox_id).await.map_err(handler)? else {
            return Ok(Attempted::Gone);
        };
        let update = parse(&stored).map_err(Failure::Unreadable)?;
        self.refuse_in(tx, job, &stored, &update)
            .await
            .map_err(Failure::Handler)
    }

    /// [`Self::refuse_unchecked`] in `tx`, which has read `stored`.
    async fn refuse_in(
        &self,
        mut tx: sqlx::Transaction<'static, sqlx::Postgres>,
        job: &ClaimedJob,
        stored: &Stored,
        update: &Update,
    ) -> Result<Attempted, BotError> {
        let mut tap_answer = None;
        match &update.kind {
            UpdateKind::CallbackQuery(query) => {
                let lang = tapper_lang(&mut tx, &query.from).await?;
                let text = render::shorten(&Tr::new(lang).t("permission-unchecked"), 200);
                tap_answer = Some((query.id.clone(), Some(text)));
            }
            _ => {
                if let (Some(chat), Some(user)) = (update.chat(), update.from()) {
                    let fallback = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
                    let lang = chats::find(&mut *tx, ChatId(chat.id.0))
                        .await?
                        .map_or(fallback, |chat| chat.lang);
                    let text = render::notice(None, &[Tr::new(lang).t("permission-unchecked")])?;
                    let message = OutgoingMessage {
                        chat_id: ChatId(chat.id.0),
                        op: MessageOp::Send {
                            text,
                            keyboard: None,
                            force_reply: false,
                            asks: None,
                        },
                    };
                    outbox::enqueue(&mut tx, &self.shared.deps.queue, &message).await?;
                }
            }
        }
        inbox::mark_handled(&mut tx, stored.id).await?;
        self.queue
            .complete(&mut *tx, job)
            .await
            .map_err(StoreError::from)?;
        tx.commit().await?;
        Ok(Attempted::Recorded {
            tap_answer,
            received_at: stored.received_at,
        })
    }

    /// Answers a button tap (after its update committed), with its toast if any.
    async fn answer_tap(&self, tap_answer: Option<TapAnswer>) {
        let Some((query_id, text)) = tap_answer else {
            return;
        };
        let answer = self.shared.bot.answer_callback_query(query_id);
        let answered = match text {
            Some(text) => answer.text(text).await,
            None => answer.await,
        };
        if let Err(error) = answered {
            // The tap's spinner stops by itself; what it did is committed.
            tracing::warn!(error = %BotError::from(error), "answering a tap failed");
        }
    }
}

impl JobHandler for UpdateWorker {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        self.run(job).await
    }
}

/// The stored update as teloxide reads it, or why it cannot be one.
fn parse(stored: &Stored) -> Result<Update, String> {
    let Some(raw) = &stored.raw else {
        let body = stored.body.as_deref().unwrap_or_default();
        return Err(format!(
            "not an update: {}",
            render::shorten(&body.escape_debug().to_string(), 200)
        ));
    };
    Update::deserialize(raw).map_err(|error| format!("not an update teloxide reads: {error}"))
}

/// A handler's error as an attempt's failure.
fn handler(error: impl Into<BotError>) -> Failure {
    Failure::Handler(error.into())
}

fn fail(class: ErrorClass, message: String) -> Outcome {
    Outcome::Fail {
        error: class.error(message),
    }
}

fn retry(class: ErrorClass, message: String) -> Outcome {
    Outcome::Retry {
        error: class.error(message),
        floor: None,
    }
}

/// The give-up hook of the updates queue: when an update could not be handled, its chat is told
/// (in its language) that something went wrong on our side, through the outbox, in the
/// transaction that gives the job up. An update without a chat, or no update at all, is only
/// there for admins.
#[derive(Clone, Debug)]
pub struct Apologize {
    /// The outbox.
    pub outbox: Queue,
}

impl GiveUpHook for Apologize {
    fn gave_up<'a>(
        &'a self,
        _queue: &'a Queue,
        conn: &'a mut PgConnection,
        job: &'a GivenUpJob,
    ) -> HookFuture<'a> {
        Box::pin(async move {
            let Ok(UpdateJob { inbox_id }) = job.args::<UpdateJob>() else {
                return Ok(());
            };
            let Some(stored) = inbox::load(&mut *conn, inbox_id).await? else {
                return Ok(());
            };
            let Ok(update) = parse(&stored) else {
                return Ok(());
            };
            let Some(chat) = update.chat() else {
                return Ok(());
            };
            let fallback = update
                .from()
                .and_then(|user| user.language_code.as_deref())
                .map_or(Lang::En, Lang::from_code);
            let lang = chats::find(&mut *conn, ChatId(chat.id.0))
                .await?
                .map_or(fallback, |chat| chat.lang);
            let Ok(text) = render::notice(None, &[Tr::new(lang).t("err-internal")]) else {
                return Ok(());
            };
            let reply = Reply::text(text);
            let message = OutgoingMessage {
                chat_id: ChatId(chat.id.0),
                op: MessageOp::Send {
                    text: reply.text,
                    keyboard: None,
                    force_reply: false,
                    asks: None,
                },
            };
            outbox::enqueue(conn, &self.outbox, &message).await?;
            Ok(())
        })
    }
}
