//! The outbox: the one way out. Every message the bot sends or edits is a job of the outbox
//! queue, written in the same transaction as the change that causes it and sent by the egress
//! workers under one budget: replies and edits ([`OutgoingMessage`], first, in order per chat)
//! and reminders ([`ReminderJob`], messages that fall due later). The queue carries the hook that
//! keeps a recurring task's series going whatever became of one occurrence's job.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use teloxide::types::InlineKeyboardMarkup;

use super::{StoreError, agenda, budget, tasks};
use pgqueue::{GiveUpHook, GivenUpJob, JobKind, NewJob, Queue, QueueConfig, hook::HookFuture};

/// The queue of everything the bot sends.
pub const OUTBOX_QUEUE: &str = "outbox";
/// The priority of answers to people (lower goes first): someone is waiting for them.
pub const REPLY_PRIORITY: i16 = 0;
/// The priority of reminders.
pub const REMINDER_PRIORITY: i16 = 1;
/// The queue reminder jobs were in before the outbox (existing databases move them).
pub const LEGACY_REMINDER_QUEUE: &str = "reminders";

/// A message to send or edit in a chat (a reply, a list page, a card losing its buttons).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutgoingMessage {
    /// Where.
    pub chat_id: i64,
    /// What to do there.
    #[serde(flatten)]
    pub op: MessageOp,
}

/// What an outgoing message does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum MessageOp {
    /// Send a new message (Telegram HTML).
    Send {
        /// The text.
        text: String,
        /// Its buttons.
        keyboard: Option<InlineKeyboardMarkup>,
        /// Ask for a reply (a question in a group, where a bot in privacy mode sees only replies).
        force_reply: bool,
    },
    /// Send a new message (Telegram HTML) with a reply keyboard in place of the user's own, or
    /// taking such a keyboard away.
    SendWithReplyKeyboard {
        /// The text.
        text: String,
        /// The keyboard shown, or its removal.
        reply_keyboard: ReplyKeyboard,
    },
    /// Send a file (sendDocument) with an optional caption (Telegram HTML).
    SendDocument {
        /// The file name the user sees; its extension tells the type (`.ics`, `.csv`).
        file_name: String,
        /// The file's content (text, UTF-8), at most [`MAX_DOCUMENT_BYTES`].
        content: String,
        /// The caption, at most 1024 characters.
        caption: Option<String>,
    },
    /// Change a message the bot sent: its text (and buttons), or only its buttons.
    Edit {
        /// The message.
        message_id: i32,
        /// The new text; `None` changes only the buttons.
        text: Option<String>,
        /// The new buttons; `None` removes them.
        keyboard: Option<InlineKeyboardMarkup>,
    },
}

/// The largest file the outbox carries: it travels in the job's payload, so an export is
/// capped well below this (see [`crate::export`]).
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// A keyboard that replaces the user's own while it is shown (Telegram's `ReplyKeyboardMarkup`),
/// or its removal (`ReplyKeyboardRemove`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplyKeyboard {
    /// One button that shares the user's location (private chats only), shown once.
    RequestLocation {
        /// The button's label.
        label: String,
    },
    /// Takes a shown reply keyboard away.
    Remove,
}

impl JobKind for OutgoingMessage {
    const QUEUE: &'static str = OUTBOX_QUEUE;
}

impl OutgoingMessage {
    /// The serial key of the chat's messages: they leave one at a time, in the order enqueued.
    pub fn serial_key(chat_id: i64) -> String {
        format!("chat:{chat_id}")
    }
}

/// Puts `message` in the outbox through `conn` (the caller's transaction): it is sent once that
/// commits, after the chat's earlier messages, before reminders. An edit becomes its message's
/// newest, superseding an older one still waiting.
#[tracing::instrument(skip_all, fields(chat_id = message.chat_id))]
pub async fn enqueue(
    conn: &mut PgConnection,
    queue: &Queue,
    message: &OutgoingMessage,
) -> Result<(), StoreError> {
    let job = NewJob::of(message)
        .serial_key(OutgoingMessage::serial_key(message.chat_id))
        .priority(REPLY_PRIORITY);
    let job_id = queue.enqueue(&mut *conn, job).await?;
    if let (MessageOp::Edit { message_id, .. }, Some(job_id)) = (&message.op, job_id) {
        budget::newest_edit(conn, message.chat_id, *message_id, job_id).await?;
    }
    Ok(())
}

/// What a reminder job carries: the reminder occurrence it delivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReminderJob {
    /// The `reminders` row.
    pub reminder_id: i64,
}

impl JobKind for ReminderJob {
    const QUEUE: &'static str = OUTBOX_QUEUE;
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
/// [`tasks::continue_series`]), or the next day's agenda (see [`agenda::continue_series`]), is
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
            if let Ok(reminder) = job.args::<ReminderJob>() {
                tasks::continue_series(conn, queue, reminder.reminder_id).await?;
            } else if let Ok(agenda) = job.args::<agenda::AgendaJob>() {
                agenda::continue_series(conn, queue, job.id, agenda).await?;
            }
            Ok(())
        })
    }
}
