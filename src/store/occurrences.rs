//! A task's reminder occurrences (`reminders` rows), each with the outbox job that delivers it:
//! scheduling one, where a recurring task's series stands (its current occurrence: the task's
//! deadline and the occurrence's number, kept in `tasks.occurrence`), moving it on to its next,
//! and continuing a series whatever became of one occurrence's job. Which occurrence comes next
//! (and whether the series has ended) is the domain's word ([`Recurrence::next_occurrence`],
//! [`Recurrence::after_done`]); this module only keeps it.

use chrono::{DateTime, Utc};
use pgqueue::Queue;
use sqlx::PgConnection;

use super::StoreError;
#[cfg(doc)]
use super::jobs::OutboxJob;
use super::jobs::REMINDER_PRIORITY;
use super::task_model::{Task, TaskRow, read_task};
use super::types::{ReminderKind, TaskState, read};
use crate::domain::ids::TaskId;
use crate::domain::recurrence::Occurrence;
#[cfg(doc)]
use crate::domain::recurrence::Recurrence;

/// Adds the reminder of the occurrence due at `due_at` (firing `lead` earlier) and enqueues its job.
/// Idempotent: an occurrence that exists already is left alone, and a paused repeat gets none.
/// Returns the new reminder's id.
#[tracing::instrument(skip_all, fields(task = %task.id))]
pub async fn schedule_occurrence(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    due_at: DateTime<Utc>,
) -> Result<Option<i64>, StoreError> {
    Ok(
        insert_occurrence(conn, queue, task, due_at, FireAt::WithLead)
            .await?
            .map(|(id, _)| id),
    )
}

/// Like [`schedule_occurrence`], for the occurrence a user's own change (a new task, an edit, an
/// Undo) puts on the calendar: when `lead` before a deadline still ahead has already passed (a
/// 30-minute lead on "in 10 minutes"), the reminder fires at the deadline, so that the user's own
/// lead never makes a reminder late (lateness counts from the time it was meant to fire). A
/// deadline already past keeps its lead (its reminder is late, and says so); later occurrences of
/// a series keep their whole lead.
#[tracing::instrument(skip_all, fields(task = %task.id))]
pub async fn schedule_after_change(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    due_at: DateTime<Utc>,
) -> Result<Option<i64>, StoreError> {
    Ok(scheduled_after_change(conn, queue, task, due_at)
        .await?
        .map(|(id, _)| id))
}

/// [`schedule_after_change`], returning the new reminder's id and when it fires.
pub(crate) async fn scheduled_after_change(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    due_at: DateTime<Utc>,
) -> Result<Option<(i64, DateTime<Utc>)>, StoreError> {
    insert_occurrence(
        conn,
        queue,
        task,
        due_at,
        FireAt::NeverAfterAnUpcomingDeadline,
    )
    .await
}

/// When an occurrence's reminder fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FireAt {
    /// The task's lead before the deadline.
    WithLead,
    /// The same, but at the deadline when that time has passed and the deadline has not (see
    /// [`schedule_after_change`]).
    NeverAfterAnUpcomingDeadline,
}

/// Adds the reminder of the occurrence due at `due_at`, firing as `fire` says, with its job in the
/// same statement; returns its id and when it fires. `None` when the occurrence exists already or
/// the task is paused.
async fn insert_occurrence(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    due_at: DateTime<Utc>,
    fire: FireAt,
) -> Result<Option<(i64, DateTime<Utc>)>, StoreError> {
    let ahead = due_at - task.lead.duration();
    let delivery = Delivery::of(queue);
    let scheduled = sqlx::query!(
        r#"with stored as (
               insert into reminders (task_id, due_at, fire_at, job_id)
               select $1, $2, case when $9 and $3 < now() and $2 >= now() then $2 else $3 end,
                      reserve_job_id()
               where not exists (select 1 from tasks where id = $1 and on_hold)
               on conflict (task_id, due_at) where kind = 'occurrence' do nothing
               returning id, fire_at, job_id)
           select id as "id!", fire_at as "fire_at!"
           from stored,
                enqueue_reserved_job($4, job_id, jsonb_build_object('kind', $5::text, 'reminder_id', id),
                                     fire_at, $6, $7 || id, $8)"#,
        task.id.0,
        due_at,
        ahead,
        delivery.queue,
        delivery.kind,
        delivery.priority,
        delivery.key_prefix,
        delivery.max_attempts,
        fire == FireAt::NeverAfterAnUpcomingDeadline,
    )
    .fetch_optional(conn)
    .await?;
    Ok(scheduled.map(|scheduled| (scheduled.id, scheduled.fire_at)))
}

/// When the task's next reminder not sent yet fires (a snooze when it comes first); `None` when
/// none is waiting (a one-off task whose reminder went out, or whose time has passed).
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn next_reminder(
    conn: &mut PgConnection,
    task_id: TaskId,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    Ok(sqlx::query_scalar!(
        "select min(fire_at) from reminders where task_id = $1 and not sent",
        task_id.0,
    )
    .fetch_one(conn)
    .await?)
}

/// Moves an open recurring task from the deadline `task` holds to the next occurrence of its
/// series and schedules it. Returns the new reminder's id; `None` for a one-off task, when the
/// series has ended (the task stays at its last occurrence, as a one-off task whose reminder went
/// out), or when the task is no longer open or was already moved (a re-run job holding a stale
/// copy skips no occurrence).
#[tracing::instrument(skip_all, fields(task = %task.id))]
pub async fn schedule_next_occurrence(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
) -> Result<Option<i64>, StoreError> {
    let Some(recurrence) = &task.recurrence else {
        return Ok(None);
    };
    let current = current(conn, task).await?;
    match recurrence.next_occurrence(current, task.due_at, task.zone) {
        Some(next) => move_to(conn, queue, task, next).await,
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
             where r.id = $1 and r.kind = $3 and r.due_at >= t.due_at
               and t.state = $2 and t.rule is not null
             for update of t",
            reminder_id,
            TaskState::Open.as_str(),
            ReminderKind::Occurrence.as_str(),
        )
        .fetch_optional(&mut *conn)
        .await?,
    )?;
    match current {
        Some(current) => schedule_next_occurrence(conn, queue, &current).await,
        None => Ok(None),
    }
}

/// Adds a reminder of kind `snooze` (a snooze's, a nag's) for the occurrence of task `task_id`
/// due at `due_at`, firing at `fire_at`, with its delivery job, in one statement; its id.
pub(crate) async fn add_extra_reminder(
    conn: &mut PgConnection,
    queue: &Queue,
    task_id: TaskId,
    due_at: DateTime<Utc>,
    fire_at: DateTime<Utc>,
) -> Result<i64, StoreError> {
    let delivery = Delivery::of(queue);
    Ok(sqlx::query_scalar!(
        r#"with stored as (
               insert into reminders (task_id, due_at, fire_at, kind, job_id)
               values ($1, $2, $3, $4, reserve_job_id())
               returning id, fire_at, job_id)
           select id as "id!"
           from stored,
                enqueue_reserved_job($5, job_id, jsonb_build_object('kind', $6::text, 'reminder_id', id),
                                     fire_at, $7, $8 || id, $9)"#,
        task_id.0,
        due_at,
        fire_at,
        ReminderKind::Snooze.as_str(),
        delivery.queue,
        delivery.kind,
        delivery.priority,
        delivery.key_prefix,
        delivery.max_attempts,
    )
    .fetch_one(conn)
    .await?)
}

/// How a reminder's delivery job is written inside the statement that writes the reminder (the
/// queue's `enqueue_reserved_job`, one round trip where the insert, the enqueue and the link were
/// three): the outbox's queue, the job's sort (its payload is [`OutboxJob::Reminder`] as serde
/// writes it, `{"kind": "reminder", "reminder_id": …}`), its priority, its dedupe key
/// (`reminder:<id>`, which only this reminder's job can hold) and its attempts.
struct Delivery<'q> {
    /// The outbox's queue name.
    queue: &'q str,
    /// The payload's `kind` tag of a reminder.
    kind: &'static str,
    /// [`REMINDER_PRIORITY`].
    priority: i16,
    /// The dedupe key before the reminder's id.
    key_prefix: &'static str,
    /// The queue's attempts.
    max_attempts: i32,
}

impl<'q> Delivery<'q> {
    /// The `kind` tag of [`OutboxJob::Reminder`]'s payload.
    const KIND: &'static str = "reminder";

    /// The delivery job of a reminder in `queue` (the outbox).
    fn of(queue: &'q Queue) -> Self {
        Self {
            queue: queue.name(),
            kind: Self::KIND,
            priority: REMINDER_PRIORITY,
            key_prefix: "reminder:",
            max_attempts: queue.config().max_attempts,
        }
    }
}

/// The current occurrence of `task`: its deadline and its number in the series (1 for a task
/// that does not recur).
pub(crate) async fn current(
    conn: &mut PgConnection,
    task: &Task,
) -> Result<Occurrence, StoreError> {
    let index = sqlx::query_scalar!("select occurrence from tasks where id = $1", task.id.0)
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
         where id = $1 and due_at = $4 and state = $5",
        task.id.0,
        next.at,
        index,
        task.due_at,
        TaskState::Open.as_str(),
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
    schedule_occurrence(conn, queue, &moved, next.at).await
}

/// Sets the number of the task's current occurrence (a change of schedule starts a new series;
/// an Undo puts back where the old one stood).
pub(crate) async fn set_index(
    conn: &mut PgConnection,
    task_id: TaskId,
    index: u32,
) -> Result<(), StoreError> {
    sqlx::query!(
        "update tasks set occurrence = $2 where id = $1",
        task_id.0,
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

#[cfg(test)]
mod tests {
    use super::super::jobs::{OutboxJob, ReminderJob};
    use super::*;

    /// The statements build a reminder job's payload in SQL from [`Delivery`]: it must be what
    /// serde writes for [`OutboxJob::Reminder`], or the outbox could not read it.
    #[test]
    fn a_reminders_payload_built_in_sql_is_what_serde_writes() {
        let serde = serde_json::to_value(OutboxJob::Reminder(ReminderJob { reminder_id: 7 }))
            .expect("serializes");
        assert_eq!(
            serde,
            serde_json::json!({"kind": Delivery::KIND, "reminder_id": 7}),
            "the payload's shape changed: change the statements that build it"
        );
    }
}
