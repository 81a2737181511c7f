//! The question the bot is waiting for a user to answer in a chat, kept in PostgreSQL
//! (`conversations`) so that a restart loses nothing. Each user has at most one open question per
//! chat; a new question replaces the old one, and a question left unanswered for
//! [`ANSWER_WITHIN`] lapses (a message that late is a new task, not an answer).

use sqlx::PgExecutor;

use super::StoreError;
use super::types::Corrupt;

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
        task_id: i64,
    },
    /// When to remind of a task again.
    SnoozeTime {
        /// The task.
        task_id: i64,
    },
    /// The chat's time zone, and the task message that was waiting for it, if any.
    TimeZone {
        /// A task message sent before the zone was known.
        text: Option<String>,
    },
}

/// A `conversations` row as stored.
struct Row {
    chat_id: i64,
    user_id: i64,
    kind: String,
    task_id: Option<i64>,
    text: Option<String>,
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
            ("new_task_time", ..) => Err(corrupt("text", "null")),
            ("edit_task" | "snooze_time", ..) => Err(corrupt("task_id", "null")),
            (other, ..) => Err(corrupt("kind", other)),
        }
    }
}

impl Pending {
    fn to_row(&self) -> (&'static str, Option<i64>, Option<&str>) {
        match self {
            Self::NewTaskTime { text } => ("new_task_time", None, Some(text)),
            Self::EditTask { task_id } => ("edit_task", Some(*task_id), None),
            Self::SnoozeTime { task_id } => ("snooze_time", Some(*task_id), None),
            Self::TimeZone { text } => ("time_zone", None, text.as_deref()),
        }
    }
}

/// Records the question `pending` for `user_id` in `chat_id`, replacing any earlier one.
#[tracing::instrument(skip_all, fields(chat_id = chat_id, user_id = user_id))]
pub async fn ask<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    user_id: i64,
    pending: &Pending,
) -> Result<(), StoreError> {
    let (kind, task_id, text) = pending.to_row();
    sqlx::query!(
        "insert into conversations (chat_id, user_id, kind, task_id, text)
         values ($1, $2, $3, $4, $5)
         on conflict (chat_id, user_id) do update
             set kind = excluded.kind, task_id = excluded.task_id, text = excluded.text,
                 created_at = now()",
        chat_id,
        user_id,
        kind,
        task_id,
        text,
    )
    .execute(executor)
    .await?;
    Ok(())
}

/// The open question of `user_id` in `chat_id`, if any and not lapsed.
#[tracing::instrument(skip_all, fields(chat_id = chat_id, user_id = user_id))]
pub async fn pending<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    user_id: i64,
) -> Result<Option<Pending>, StoreError> {
    let row = sqlx::query_as!(
        Row,
        "select chat_id, user_id, kind, task_id, text from conversations
         where chat_id = $1 and user_id = $2
           and created_at > now() - make_interval(secs => $3)",
        chat_id,
        user_id,
        ANSWER_WITHIN.as_secs_f64(),
    )
    .fetch_optional(executor)
    .await?;
    Ok(row.map(Pending::try_from).transpose()?)
}

/// Closes the open question of `user_id` in `chat_id` (answered or abandoned).
#[tracing::instrument(skip_all, fields(chat_id = chat_id, user_id = user_id))]
pub async fn close<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    user_id: i64,
) -> Result<(), StoreError> {
    sqlx::query!(
        "delete from conversations where chat_id = $1 and user_id = $2",
        chat_id,
        user_id,
    )
    .execute(executor)
    .await?;
    Ok(())
}
