//! The delivery worker's reads and writes: what a reminder job needs to send, and the outcomes
//! recorded together with the job's own transition, in one transaction.

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use crate::store::{StoreError, reachability, tasks};
use pgqueue::{ClaimedJob, Queue, QueueError};

/// A reminder with its task and chat, as read just before sending.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DueReminder {
    /// The reminder occurrence.
    pub reminder_id: i64,
    /// `occurrence` or `snooze`.
    pub kind: String,
    /// The occurrence's deadline.
    pub due_at: DateTime<Utc>,
    /// When it was meant to go out.
    pub fire_at: DateTime<Utc>,
    /// Whether it went out already.
    pub sent: bool,
    /// Its task.
    pub task_id: i64,
    /// The task's text.
    pub text: String,
    /// The task's state (`open`, `paused`, `done`, `deleted`).
    pub task_state: String,
    /// The task's zone.
    pub task_tz: String,
    /// Whether the task recurs.
    pub recurring: bool,
    /// The task's current deadline.
    pub task_due_at: DateTime<Utc>,
    /// Where it goes.
    pub chat_id: i64,
    /// `private`, `group`, `supergroup` or `channel`.
    pub chat_kind: String,
    /// The chat's language.
    pub lang: String,
    /// The chat's zone, when chosen.
    pub chat_tz: Option<String>,
    /// Whether Telegram still delivers to the chat.
    pub reachable: bool,
    /// Why not, when not.
    pub unreachable_reason: Option<String>,
    /// How overdue it is now (database clock), in seconds.
    pub overdue_secs: f64,
}

impl DueReminder {
    /// Whether the chat is a group or supergroup (the per-group limit applies).
    pub fn is_group(&self) -> bool {
        matches!(self.chat_kind.as_str(), "group" | "supergroup") || self.chat_id < 0
    }
}

/// Reads reminder `reminder_id` with its task and chat; `None` when it is gone.
#[tracing::instrument(skip_all, fields(reminder_id))]
pub async fn load(pool: &PgPool, reminder_id: i64) -> Result<Option<DueReminder>, sqlx::Error> {
    sqlx::query_as(
        "select r.id as reminder_id, r.kind, r.due_at, r.fire_at, r.sent,
                t.id as task_id, t.text, t.state as task_state, t.tz as task_tz,
                t.rule is not null as recurring, t.due_at as task_due_at,
                c.chat_id, c.kind as chat_kind, c.lang, c.tz as chat_tz, c.reachable,
                c.unreachable_reason,
                extract(epoch from now() - r.fire_at)::float8 as overdue_secs
         from reminders r
         join tasks t on t.id = r.task_id
         join chats c on c.chat_id = t.chat_id
         where r.id = $1",
    )
    .bind(reminder_id)
    .fetch_optional(pool)
    .await
}

/// What recording a sent reminder did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recorded {
    /// The reminder is marked sent.
    Sent {
        /// From due to sent, by the database clock.
        lateness_secs: f64,
        /// False when the job's lease was lost meanwhile (the `sent` flag was still written).
        completed: bool,
    },
    /// The reminder row is gone: its task was changed or deleted while the message was on its
    /// way, which cancelled the job too. Nothing is left to record.
    Gone,
}

/// In one transaction: marks the reminder sent (with Telegram's message id when known), completes
/// the job (fenced), resumes the chat if it was marked unreachable (Telegram just delivered to
/// it) and schedules the next occurrence of a recurring task. A lost lease still commits the
/// `sent` flag, so that whoever holds the job now completes it without sending.
#[tracing::instrument(skip_all, fields(job = job.id, reminder_id = due.reminder_id))]
pub async fn sent(
    pool: &PgPool,
    queue: &Queue,
    job: &ClaimedJob,
    due: &DueReminder,
    message_id: Option<i64>,
) -> Result<Recorded, StoreError> {
    let mut tx = pool.begin().await?;
    let lateness_secs: Option<f64> = sqlx::query_scalar(
        "update reminders set sent = true, sent_at = now(), message_id = $2 where id = $1
         returning extract(epoch from sent_at - fire_at)::float8",
    )
    .bind(due.reminder_id)
    .bind(message_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(lateness_secs) = lateness_secs else {
        return Ok(Recorded::Gone);
    };
    let completed = match queue.complete(&mut *tx, job).await {
        Ok(()) => true,
        Err(QueueError::LeaseLost { .. }) => false,
        Err(error) => return Err(error.into()),
    };
    if !due.reachable {
        reachability::resume(&mut tx, queue, due.chat_id).await?;
    }
    tasks::continue_series(&mut tx, queue, due.reminder_id).await?;
    tx.commit().await?;
    Ok(Recorded::Sent {
        lateness_secs,
        completed,
    })
}

/// In one transaction: fails the job with `reason`, marks the chat unreachable and pauses its
/// recurring tasks.
#[tracing::instrument(skip_all, fields(job = job.id, chat_id))]
pub async fn unreachable(
    pool: &PgPool,
    queue: &Queue,
    job: &ClaimedJob,
    chat_id: i64,
    reason: &str,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    reachability::mark_unreachable(&mut tx, chat_id, reason, Some(job.id)).await?;
    queue.fail(&mut tx, job, reason).await?;
    tx.commit().await?;
    Ok(())
}

/// Moves a migrated group's tasks to the supergroup's id.
#[tracing::instrument(skip_all, fields(old_chat_id, new_chat_id))]
pub async fn migrated(pool: &PgPool, old_chat_id: i64, new_chat_id: i64) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    reachability::migrate_chat(&mut tx, old_chat_id, new_chat_id).await?;
    tx.commit().await?;
    Ok(())
}
