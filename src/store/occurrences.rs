//! A task's reminder occurrences (`reminders` rows), each with the outbox job that delivers it:
//! scheduling one, moving a recurring task on to its next, and continuing a series whatever
//! became of one occurrence's job.

use chrono::{DateTime, Utc};
use pgqueue::{NewJob, Queue};
use sqlx::PgConnection;

use super::StoreError;
use super::jobs::{OutboxJob, REMINDER_PRIORITY, ReminderJob};
use super::task_model::{Task, TaskRow, read_task};

/// Adds the reminder of the occurrence due at `due_at` (firing `lead` earlier) and enqueues its job.
/// Idempotent: an occurrence that exists already is left alone. Returns the new reminder's id.
#[tracing::instrument(skip_all, fields(task = task.id))]
pub async fn schedule_occurrence(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    due_at: DateTime<Utc>,
) -> Result<Option<i64>, StoreError> {
    let fire_at = due_at - task.lead.duration();
    let reminder_id = sqlx::query_scalar!(
        "insert into reminders (task_id, due_at, fire_at) values ($1, $2, $3)
         on conflict (task_id, due_at) where kind = 'occurrence' do nothing
         returning id",
        task.id,
        due_at,
        fire_at,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(reminder_id) = reminder_id else {
        return Ok(None);
    };
    attach_job(conn, queue, reminder_id, fire_at).await?;
    Ok(Some(reminder_id))
}

/// Like [`schedule_occurrence`], for the occurrence a user's own change (a new task, an edit, an
/// Undo) puts on the calendar: when `lead` before a deadline still ahead has already passed (a
/// 30-minute lead on "in 10 minutes"), the reminder fires at the deadline, so that the user's own
/// lead never makes a reminder late (lateness counts from the time it was meant to fire). A
/// deadline already past keeps its lead (its reminder is late, and says so); later occurrences of
/// a series keep their whole lead.
#[tracing::instrument(skip_all, fields(task = task.id))]
pub async fn schedule_after_change(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    due_at: DateTime<Utc>,
) -> Result<Option<i64>, StoreError> {
    let ahead = due_at - task.lead.duration();
    let scheduled = sqlx::query!(
        "insert into reminders (task_id, due_at, fire_at)
         values ($1, $2, case when $3 < now() and $2 >= now() then $2 else $3 end)
         on conflict (task_id, due_at) where kind = 'occurrence' do nothing
         returning id, fire_at",
        task.id,
        due_at,
        ahead,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(scheduled) = scheduled else {
        return Ok(None);
    };
    attach_job(conn, queue, scheduled.id, scheduled.fire_at).await?;
    Ok(Some(scheduled.id))
}

/// When the task's next reminder not sent yet fires (a snooze when it comes first); `None` when
/// none is waiting (a one-off task whose reminder went out, or whose time has passed).
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn next_reminder(
    conn: &mut PgConnection,
    task_id: i64,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    Ok(sqlx::query_scalar!(
        "select min(fire_at) from reminders where task_id = $1 and not sent",
        task_id,
    )
    .fetch_one(conn)
    .await?)
}

/// Moves an open recurring task from the deadline `task` holds to the next occurrence and
/// schedules it. Returns the new reminder's id; `None` for a one-off task, or when the task is no
/// longer open or was already moved (a re-run job holding a stale copy skips no occurrence).
#[tracing::instrument(skip_all, fields(task = task.id))]
pub async fn schedule_next_occurrence(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
) -> Result<Option<i64>, StoreError> {
    let Some(recurrence) = &task.recurrence else {
        return Ok(None);
    };
    let next = recurrence.next_after(task.due_at, task.zone);
    let moved = read_task(
        sqlx::query_as!(
            TaskRow,
            "update tasks set due_at = $2, updated_at = now()
             where id = $1 and due_at = $3 and state = 'open'
             returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
            task.id,
            next,
            task.due_at,
        )
        .fetch_optional(&mut *conn)
        .await?,
    )?;
    match moved {
        Some(moved) => schedule_occurrence(conn, queue, &moved, next).await,
        None => Ok(None),
    }
}

/// The occurrence of reminder `reminder_id` is over, whatever became of it (sent, failed,
/// cancelled): a recurring task whose current occurrence it was moves on to its next one, in the
/// caller's transaction. Returns the new reminder's id; `None` when there is nothing to continue
/// (a one-off task, a snooze, a task no longer open, or an occurrence the task has moved past).
#[tracing::instrument(skip_all, fields(reminder_id))]
pub async fn continue_series(
    conn: &mut PgConnection,
    queue: &Queue,
    reminder_id: i64,
) -> Result<Option<i64>, StoreError> {
    let current = read_task(
        sqlx::query_as!(
            TaskRow,
            "select t.id, t.chat_id, t.owner_id, t.text, t.due_at, t.lead_secs, t.rule, t.tz,
                    t.state
             from reminders r join tasks t on t.id = r.task_id
             where r.id = $1 and r.kind = 'occurrence' and r.due_at >= t.due_at
               and t.state = 'open' and t.rule is not null
             for update of t",
            reminder_id,
        )
        .fetch_optional(&mut *conn)
        .await?,
    )?;
    match current {
        Some(current) => schedule_next_occurrence(conn, queue, &current).await,
        None => Ok(None),
    }
}

/// Enqueues the job that delivers reminder `reminder_id` at `fire_at` and links it.
pub(crate) async fn attach_job(
    conn: &mut PgConnection,
    queue: &Queue,
    reminder_id: i64,
    fire_at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let job = NewJob::of(&OutboxJob::Reminder(ReminderJob { reminder_id }))
        .run_at(fire_at)
        .priority(REMINDER_PRIORITY)
        .dedupe_key(format!("reminder:{reminder_id}"));
    let job_id = queue.enqueue(&mut *conn, job).await?;
    sqlx::query!(
        "update reminders set job_id = $2 where id = $1",
        reminder_id,
        job_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}
