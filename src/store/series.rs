//! Where a recurring task's series stands: its current occurrence (the task's deadline and the
//! occurrence's number, kept in `tasks.occurrence`), and moving it on to another one. Which
//! occurrence comes next (and whether the series has ended) is the domain's word
//! ([`Recurrence::next_occurrence`], [`Recurrence::after_done`]); this module only keeps it.

use chrono::{DateTime, Utc};
use pgqueue::Queue;
use sqlx::PgConnection;

use super::StoreError;
use super::tasks::{self, Task};
use super::types::read;
use crate::domain::recurrence::Occurrence;

/// The current occurrence of `task`: its deadline and its number in the series (1 for a task
/// that does not recur).
pub(crate) async fn current(
    conn: &mut PgConnection,
    task: &Task,
) -> Result<Occurrence, StoreError> {
    let index = sqlx::query_scalar!("select occurrence from tasks where id = $1", task.id)
        .fetch_one(conn)
        .await?;
    let index = read("tasks", task.id, "occurrence", &index.to_string(), |_| {
        u32::try_from(index).ok().filter(|index| *index >= 1)
    })?;
    Ok(Occurrence {
        at: task.due_at,
        index,
    })
}

/// Moves the open task from the deadline `task` holds to occurrence `next` and schedules its
/// reminder. Returns the new reminder's id; `None` when the task is no longer open or has moved
/// already (a stale copy skips no occurrence).
pub(crate) async fn move_to(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    next: Occurrence,
) -> Result<Option<i64>, StoreError> {
    let index = i32::try_from(next.index).unwrap_or(i32::MAX);
    let moved = sqlx::query!(
        "update tasks set due_at = $2, occurrence = $3, updated_at = now()
         where id = $1 and due_at = $4 and state = 'open'",
        task.id,
        next.at,
        index,
        task.due_at,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if moved == 0 {
        return Ok(None);
    }
    let moved = Task {
        due_at: next.at,
        ..task.clone()
    };
    tasks::schedule_occurrence(conn, queue, &moved, next.at).await
}

/// Sets the number of the task's current occurrence (a change of schedule starts a new series;
/// an Undo puts back where the old one stood).
pub(crate) async fn set_index(
    conn: &mut PgConnection,
    task_id: i64,
    index: u32,
) -> Result<(), StoreError> {
    sqlx::query!(
        "update tasks set occurrence = $2 where id = $1",
        task_id,
        i32::try_from(index).unwrap_or(i32::MAX),
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The database's clock, as the transaction sees it.
pub(crate) async fn db_now(conn: &mut PgConnection) -> Result<DateTime<Utc>, StoreError> {
    Ok(sqlx::query_scalar!(r#"select now() as "now!""#)
        .fetch_one(conn)
        .await?)
}

/// What pausing or resuming a repeat found.
#[derive(Clone, Debug, PartialEq)]
pub enum Hold {
    /// Done: the task as it is now (resumed: at its next occurrence).
    Changed(Task),
    /// The task does not repeat: nothing to pause.
    NotRepeating(Task),
    /// The repeat was already as asked (paused, or not paused).
    Already(Task),
    /// Resumed, but its series ended while it was paused: nothing more is scheduled.
    Ended(Task),
}

/// Pauses the repeat of an open recurring task of `chat_id`: its reminders not sent yet (snoozes
/// and nags too) are cancelled, and nothing is scheduled until [`resume`]. `None` when the chat
/// has no such open task.
#[tracing::instrument(skip_all, fields(chat_id, task_id))]
pub async fn pause(
    conn: &mut PgConnection,
    chat_id: i64,
    task_id: i64,
) -> Result<Option<Hold>, StoreError> {
    let Some(open) = tasks::lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    if !open.recurs() {
        return Ok(Some(Hold::NotRepeating(open)));
    }
    let paused = sqlx::query!(
        "update tasks set on_hold = true, updated_at = now() where id = $1 and not on_hold",
        open.id,
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
    chat_id: i64,
    task_id: i64,
) -> Result<Option<Hold>, StoreError> {
    let Some(open) = tasks::lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    let Some(recurrence) = open.recurrence else {
        return Ok(Some(Hold::NotRepeating(open)));
    };
    let resumed = sqlx::query!(
        "update tasks set on_hold = false, updated_at = now() where id = $1 and on_hold",
        open.id,
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
        return Ok(Some(Hold::Ended(open)));
    };
    if next == current {
        tasks::schedule_occurrence(conn, queue, &open, next.at).await?;
    } else {
        move_to(conn, queue, &open, next).await?;
    }
    let task = tasks::find(conn, chat_id, task_id).await?;
    Ok(task.map(Hold::Changed))
}
