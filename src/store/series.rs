//! Pausing and resuming a recurring task's repeat: nothing fires while it is paused, and it
//! comes back at its next occurrence after now.

use pgqueue::Queue;
use sqlx::PgConnection;

use super::StoreError;
use super::occurrences::{current, db_now, move_to};
use super::tasks::{self, Task};
use crate::domain::ids::{ChatId, TaskId};

/// What pausing or resuming a repeat found.
#[derive(Clone, Debug, PartialEq)]
pub enum Hold {
    /// Done: the task as it is now (resumed: at its next occurrence).
    Changed(Task),
    /// The task does not repeat: nothing to pause.
    NotRepeating(Task),
    /// The repeat was already as asked (paused, or not paused).
    Already(Task),
    /// Resumed, but its series ended while it was paused: nothing more is scheduled, and the
    /// task is done.
    Ended(Task),
}

/// Whether the repeat of task `task_id` is paused (false for a task that is gone).
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn on_hold(conn: &mut PgConnection, task_id: TaskId) -> Result<bool, StoreError> {
    let held = sqlx::query_scalar!("select on_hold from tasks where id = $1", task_id.0)
        .fetch_optional(conn)
        .await?;
    Ok(held.unwrap_or(false))
}

/// Pauses the repeat of an open recurring task of `chat_id`: its reminders not sent yet (snoozes
/// and nags too) are cancelled, and nothing is scheduled until [`resume`]. `None` when the chat
/// has no such open task.
#[tracing::instrument(skip_all, fields(chat_id, task_id))]
pub async fn pause(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<Hold>, StoreError> {
    let Some(open) = tasks::lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    if !open.recurs() {
        return Ok(Some(Hold::NotRepeating(open)));
    }
    let paused = sqlx::query!(
        "update tasks set on_hold = true, updated_at = now() where id = $1 and not on_hold",
        open.id.0,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if paused == 0 {
        return Ok(Some(Hold::Already(open)));
    }
    super::nags::stop_round(conn, open.id).await?;
    tasks::cancel_unsent(conn, open.id).await?;
    Ok(Some(Hold::Changed(open)))
}

/// Resumes a paused repeat of `chat_id` at the first occurrence after now (the ones it missed
/// are not sent, though a counted series counts them). `None` when the chat has no such open
/// task.
#[tracing::instrument(skip_all, fields(chat_id, task_id))]
pub async fn resume(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<Hold>, StoreError> {
    let Some(open) = tasks::lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    let Some(recurrence) = open.recurrence else {
        return Ok(Some(Hold::NotRepeating(open)));
    };
    let resumed = sqlx::query!(
        "update tasks set on_hold = false, updated_at = now() where id = $1 and on_hold",
        open.id.0,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if resumed == 0 {
        return Ok(Some(Hold::Already(open)));
    }
    let current = current(conn, &open).await?;
    let now = db_now(conn).await?;
    let after = now + open.lead.duration();
    let next = if current.at > after {
        Some(current)
    } else {
        recurrence.next_occurrence(current, after, open.zone)
    };
    let Some(next) = next else {
        // Nothing more will come: the task is done, as when Done ends a series, so that it
        // leaves the list and the open-task limit.
        let closed = tasks::close(conn, open.id).await?;
        return Ok(Some(Hold::Ended(closed.unwrap_or(open))));
    };
    if next == current {
        tasks::schedule_occurrence(conn, queue, &open, next.at).await?;
    } else {
        move_to(conn, queue, &open, next).await?;
    }
    let task = tasks::find(conn, chat_id, task_id).await?;
    Ok(task.map(Hold::Changed))
}
