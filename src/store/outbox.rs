//! The outbox: the one way out. Every message the bot sends or edits is a job of the outbox
//! queue, written in the same transaction as the change that causes it and sent by the egress
//! workers under one budget. Its one job kind, [`OutboxJob`], is told apart by a `kind` tag:
//! replies and edits ([`OutgoingMessage`], first, in order per chat), reminders
//! ([`ReminderJob`], messages that fall due later) and morning agendas
//! ([`agenda::AgendaJob`]). The queue carries the hook that keeps a recurring task's series (and
//! an agenda's) going whatever became of one occurrence's job.

use std::sync::Arc;

use sqlx::{PgConnection, PgPool};

pub use super::jobs::{
    AskedQuestion, ExportFormat, ExportJob, LEGACY_REMINDER_QUEUE, MAX_DOCUMENT_BYTES, MessageOp,
    OUTBOX_QUEUE, OutboxJob, OutgoingMessage, REMINDER_PRIORITY, REPLY_PRIORITY, ReminderJob,
    ReplyKeyboard,
};
use super::{StoreError, agenda, budget, occurrences};
use pgqueue::{GiveUpHook, GivenUpJob, NewJob, Queue, QueueConfig, hook::HookFuture};

/// Puts `message` in the outbox through `conn` (the caller's transaction): it is sent once that
/// commits, after the chat's earlier messages, before reminders. An edit becomes its message's
/// newest, superseding an older one still waiting.
#[tracing::instrument(skip_all, fields(chat_id = message.chat_id.0))]
pub async fn enqueue(
    conn: &mut PgConnection,
    queue: &Queue,
    message: &OutgoingMessage,
) -> Result<(), StoreError> {
    let job_id = queue.enqueue(&mut *conn, message_job(message)).await?;
    if let (MessageOp::Edit { message_id, .. }, Some(job_id)) = (&message.op, job_id) {
        budget::newest_edit(conn, message.chat_id, *message_id, job_id).await?;
    }
    Ok(())
}

/// Puts `messages` in the outbox through `conn` (the caller's transaction) in one statement, as
/// [`enqueue`] puts each: in their order, so one chat's messages keep theirs. A batch of updates
/// writes its answers this way, one statement for the batch instead of one per message.
#[tracing::instrument(skip_all, fields(messages = messages.len()))]
pub async fn enqueue_many(
    conn: &mut PgConnection,
    queue: &Queue,
    messages: &[OutgoingMessage],
) -> Result<(), StoreError> {
    let jobs: Vec<NewJob> = messages.iter().map(message_job).collect();
    // No job has a dedupe key: every one is written, and the ids come back in their order.
    let job_ids = queue.enqueue_many(&mut *conn, &jobs).await?;
    for (message, job_id) in messages.iter().zip(job_ids) {
        if let MessageOp::Edit { message_id, .. } = &message.op {
            budget::newest_edit(conn, message.chat_id, *message_id, job_id).await?;
        }
    }
    Ok(())
}

/// The outbox job of `message`: in its chat's line, before reminders.
fn message_job(message: &OutgoingMessage) -> NewJob {
    NewJob::of(&OutboxJob::Message(message.clone()))
        .serial_key(OutgoingMessage::serial_key(message.chat_id))
        .priority(REPLY_PRIORITY)
}

/// Puts the file `export` in the outbox through `conn` (the caller's transaction): built from the
/// chat's tasks when it is sent, after the chat's earlier messages, before reminders.
pub async fn enqueue_export(
    conn: &mut PgConnection,
    queue: &Queue,
    export: ExportJob,
) -> Result<(), StoreError> {
    let job = NewJob::of(&OutboxJob::Export(export))
        .serial_key(OutgoingMessage::serial_key(export.chat_id))
        .priority(REPLY_PRIORITY);
    queue.enqueue(&mut *conn, job).await?;
    Ok(())
}

/// Writes the `kind` tag into the outbox jobs that a release before it stored without one
/// (pending, running and failed ones); returns how many. Idempotent; run at start-up.
pub async fn tag_untagged_jobs(pool: &PgPool) -> Result<u64, StoreError> {
    Ok(pgqueue::maintenance::tag_untagged::<OutboxJob>(pool).await?)
}

/// The outbox queue with `config` (its name is forced to [`OUTBOX_QUEUE`]) and the hook that
/// keeps series going. Every handle on the outbox must come from here.
pub fn outbox_queue(pool: PgPool, config: QueueConfig) -> Queue {
    let config = QueueConfig {
        name: OUTBOX_QUEUE.to_owned(),
        ..config
    };
    Queue::new(pool, config).with_give_up_hook(Arc::new(KeepSeries))
}

/// The give-up hook of the outbox: the next occurrence of the job's task (see
/// [`occurrences::continue_series`]), or the next day's agenda (see [`agenda::continue_series`]), is
/// scheduled in the transaction that gives the job up.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeepSeries;

impl GiveUpHook for KeepSeries {
    fn gave_up<'a>(
        &'a self,
        queue: &'a Queue,
        conn: &'a mut PgConnection,
        job: &'a GivenUpJob,
    ) -> HookFuture<'a> {
        Box::pin(async move {
            match job.args::<OutboxJob>() {
                Ok(OutboxJob::Reminder(reminder)) => {
                    occurrences::continue_series(conn, queue, reminder.reminder_id).await?;
                }
                Ok(OutboxJob::Agenda(agenda)) => {
                    agenda::continue_series(conn, queue, job.id, agenda).await?;
                }
                Ok(OutboxJob::Message(_) | OutboxJob::Export(_)) => {}
                // Failed as `bad_payload`: there is no series to keep, and refusing the failure
                // would only leave the job running until its lease expires.
                Err(error) => {
                    tracing::warn!(job = job.id.0, %error, "a given-up outbox job does not read");
                }
            }
            Ok(())
        })
    }
}
