//! The question the bot is waiting for a user to answer in a chat, kept in PostgreSQL
//! (`conversations`) so that a restart loses nothing. Each user has at most one open question per
//! chat; a new question replaces the old one, and a question left unanswered for
//! [`ANSWER_WITHIN`] lapses (a message that late is a new task, not an answer). A question asked
//! with buttons keeps them only while it is open: the egress writes down its message once sent
//! ([`shown`]), and closing or replacing the question takes them off.

use chrono::{DateTime, Utc};
use pgqueue::Queue;
use sqlx::{PgConnection, PgExecutor};

use super::StoreError;
use super::outbox::{self, AskedQuestion, MessageOp, OutgoingMessage};
use super::types::Corrupt;
use crate::domain::ids::{ChatId, TaskId, UserId};

/// How long an open question waits for its answer.
pub const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_secs(3600);

/// What the bot asked and is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// When to remind of a task not created yet (its text was given without a time).
    NewTaskTime {
        /// The task's text.
        text: String,
    },
    /// A new time (or text and time) for a task.
    EditTask {
        /// The task.
        task_id: TaskId,
    },
    /// When to remind of a task again.
    SnoozeTime {
        /// The task.
        task_id: TaskId,
    },
    /// The chat's time zone, and the task message that was waiting for it, if any.
    TimeZone {
        /// A task message sent before the zone was known.
        text: Option<String>,
    },
    /// When to remind of a forwarded message: the task made then quotes it.
    QuoteTime {
        /// What the message says (its text, caption or a placeholder), at most
        /// [`super::quotes::MAX_QUOTE_CHARS`] characters.
        quote: String,
        /// The forwarded message in the chat, which the reminder replies to.
        message_id: i64,
    },
    /// A time said alone just before a forward (Telegram sends a forward's comment as a message
    /// of its own, first): the forwards that follow it closely become tasks at that time. Not a
    /// question: nothing was asked, and any other message goes its own way.
    TimeForForward {
        /// The time as the user wrote it.
        phrase: String,
        /// When they wrote it (Telegram's date of the message).
        said_at: DateTime<Utc>,
    },
}

/// A `conversations` row as stored.
pub(crate) struct Row {
    pub(crate) chat_id: ChatId,
    pub(crate) user_id: UserId,
    pub(crate) kind: String,
    pub(crate) task_id: Option<TaskId>,
    pub(crate) text: Option<String>,
    pub(crate) quote: Option<String>,
    pub(crate) message_id: Option<i64>,
    pub(crate) said_at: Option<DateTime<Utc>>,
}

/// A [`Pending`] as its row's columns (the key apart).
#[derive(Default)]
struct Columns<'a> {
    kind: &'static str,
    task_id: Option<TaskId>,
    text: Option<&'a str>,
    quote: Option<&'a str>,
    message_id: Option<i64>,
    said_at: Option<DateTime<Utc>>,
}

impl TryFrom<Row> for Pending {
    type Error = Corrupt;

    fn try_from(row: Row) -> Result<Self, Corrupt> {
        let key = format!("chat {} user {}", row.chat_id, row.user_id);
        let corrupt = |column, value: &str| Corrupt {
            table: "conversations",
            row: key.clone(),
            column,
            value: value.to_owned(),
        };
        match (row.kind.as_str(), row.task_id, row.text) {
            ("new_task_time", _, Some(text)) => Ok(Self::NewTaskTime { text }),
            ("edit_task", Some(task_id), _) => Ok(Self::EditTask { task_id }),
            ("snooze_time", Some(task_id), _) => Ok(Self::SnoozeTime { task_id }),
            ("time_zone", _, text) => Ok(Self::TimeZone { text }),
            ("quote_time", ..) => match (row.quote, row.message_id) {
                (Some(quote), Some(message_id)) => Ok(Self::QuoteTime { quote, message_id }),
                (None, _) => Err(corrupt("quote", "null")),
                (Some(_), None) => Err(corrupt("message_id", "null")),
            },
            ("time_for_forward", _, text) => match (text, row.said_at) {
                (Some(phrase), Some(said_at)) => Ok(Self::TimeForForward { phrase, said_at }),
                (None, _) => Err(corrupt("text", "null")),
                (Some(_), None) => Err(corrupt("said_at", "null")),
            },
            ("new_task_time", ..) => Err(corrupt("text", "null")),
            ("edit_task" | "snooze_time", ..) => Err(corrupt("task_id", "null")),
            (other, ..) => Err(corrupt("kind", other)),
        }
    }
}

impl Pending {
    fn to_row(&self) -> Columns<'_> {
        match self {
            Self::NewTaskTime { text } => Columns {
                kind: "new_task_time",
                text: Some(text),
                ..Columns::default()
            },
            Self::EditTask { task_id } => Columns {
                kind: "edit_task",
                task_id: Some(*task_id),
                ..Columns::default()
            },
            Self::SnoozeTime { task_id } => Columns {
                kind: "snooze_time",
                task_id: Some(*task_id),
                ..Columns::default()
            },
            Self::TimeZone { text } => Columns {
                kind: "time_zone",
                text: text.as_deref(),
                ..Columns::default()
            },
            Self::QuoteTime { quote, message_id } => Columns {
                kind: "quote_time",
                quote: Some(quote),
                message_id: Some(*message_id),
                ..Columns::default()
            },
            Self::TimeForForward { phrase, said_at } => Columns {
                kind: "time_for_forward",
                text: Some(phrase),
                said_at: Some(*said_at),
                ..Columns::default()
            },
        }
    }

    /// Whether the bot waits for an answer to it: every kind but [`Pending::TimeForForward`],
    /// which nobody was asked.
    pub fn is_question(&self) -> bool {
        !matches!(self, Self::TimeForForward { .. })
    }
}

/// Records the question `pending` for `user_id` in `chat_id`, replacing any earlier one (whose
/// message loses its buttons, through the outbox in the caller's transaction). Returns this
/// asking of it, for the message that asks it to carry ([`AskedQuestion`]).
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0, user_id = user_id.0))]
pub async fn ask(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    user_id: UserId,
    pending: &Pending,
) -> Result<AskedQuestion, StoreError> {
    let replaced = sqlx::query_scalar!(
        "select question_message_id from conversations
         where chat_id = $1 and user_id = $2
         for update",
        chat_id.0,
        user_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?
    .flatten();
    let row = pending.to_row();
    let question_id = sqlx::query_scalar!(
        "insert into conversations
             (chat_id, user_id, kind, task_id, text, quote, message_id, said_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (chat_id, user_id) do update
             set kind = excluded.kind, task_id = excluded.task_id, text = excluded.text,
                 quote = excluded.quote, message_id = excluded.message_id,
                 said_at = excluded.said_at, created_at = now(),
                 question_id = excluded.question_id, question_message_id = null
         returning question_id",
        chat_id.0,
        user_id.0,
        row.kind,
        row.task_id.map(|id| id.0),
        row.text,
        row.quote,
        row.message_id,
        row.said_at,
    )
    .fetch_one(&mut *conn)
    .await?;
    if let Some(message_id) = replaced {
        take_buttons_off(conn, queue, chat_id, message_id).await?;
    }
    Ok(AskedQuestion {
        user_id,
        question_id,
    })
}

/// The open question of `user_id` in `chat_id`, if any and not lapsed.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0, user_id = user_id.0))]
pub async fn pending<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    user_id: UserId,
) -> Result<Option<Pending>, StoreError> {
    let row = sqlx::query_as!(
        Row,
        r#"select chat_id as "chat_id: ChatId", user_id as "user_id: UserId", kind,
                task_id as "task_id: TaskId", text, quote, message_id, said_at
         from conversations
         where chat_id = $1 and user_id = $2
           and created_at > now() - make_interval(secs => $3)"#,
        chat_id.0,
        user_id.0,
        ANSWER_WITHIN.as_secs_f64(),
    )
    .fetch_optional(executor)
    .await?;
    Ok(row.map(Pending::try_from).transpose()?)
}

/// Closes the open question of `user_id` in `chat_id` (answered or abandoned): its message loses
/// its buttons, through the outbox in the caller's transaction.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0, user_id = user_id.0))]
pub async fn close(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    user_id: UserId,
) -> Result<(), StoreError> {
    let asked_in = sqlx::query_scalar!(
        "delete from conversations where chat_id = $1 and user_id = $2
         returning question_message_id",
        chat_id.0,
        user_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?
    .flatten();
    if let Some(message_id) = asked_in {
        take_buttons_off(conn, queue, chat_id, message_id).await?;
    }
    Ok(())
}

/// Records that `asked` went out in `chat_id` as message `message_id` (the egress, once it is
/// sent): answering or replacing the question takes its buttons off from now on. A question
/// closed or replaced before its message went out has served already: the message loses its
/// buttons at once. Through `conn`, the egress's transaction.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0, message_id))]
pub async fn shown(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    asked: AskedQuestion,
    message_id: i64,
) -> Result<(), StoreError> {
    let open = sqlx::query!(
        "update conversations set question_message_id = $4
         where chat_id = $1 and user_id = $2 and question_id = $3",
        chat_id.0,
        asked.user_id.0,
        asked.question_id,
        message_id,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if open == 0 {
        take_buttons_off(conn, queue, chat_id, message_id).await?;
    }
    Ok(())
}

/// Puts the edit that takes the buttons off message `message_id` in the outbox.
async fn take_buttons_off(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    message_id: i64,
) -> Result<(), StoreError> {
    let Ok(message_id) = i32::try_from(message_id) else {
        return Ok(());
    };
    let edit = OutgoingMessage {
        chat_id,
        op: MessageOp::Edit {
            message_id,
            text: None,
            keyboard: None,
        },
    };
    outbox::enqueue(conn, queue, &edit).await
}
