//! Tasks: creating, finding, listing, finishing, deleting, changing and restoring them; each
//! change that moves a reminder schedules it ([`super::occurrences`]) in the same transaction.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use pgqueue::JobId;
use pgqueue::Queue;
use sqlx::PgConnection;

use super::StoreError;
use super::occurrences;
pub use super::occurrences::{
    continue_series, next_reminder, schedule_after_change, schedule_next_occurrence,
    schedule_occurrence,
};
pub(crate) use super::task_model::TaskRow;
pub use super::task_model::{MAX_TEXT_CHARS, NewTask, Task, TaskText, TaskTextError, TaskVersion};
use super::task_model::{read_task, task_row_of};
use super::types::{ReminderKind, TaskState, read};
use crate::domain::ids::{ChatId, TaskId};
use crate::domain::lead::Lead;
use crate::domain::recurrence::{Occurrence, Recurrence};

/// Creates a task and its first reminder with its job, through `conn` (pass `&mut *tx`: the task
/// and its job commit or roll back together).
#[tracing::instrument(skip_all, fields(chat_id = %new.chat_id))]
pub async fn create(
    conn: &mut PgConnection,
    queue: &Queue,
    new: &NewTask,
) -> Result<Task, StoreError> {
    let task = insert(conn, new, None)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    schedule_after_change(conn, queue, &task, task.due_at).await?;
    Ok(task)
}

/// Creates a task as [`create`] does while its owner has fewer than `max_open` open tasks
/// (counted in the same statement; `None`, nothing written, when they have that many). Returns
/// it and when its first reminder fires (`None` when none was scheduled), which is its
/// [`next_reminder`] until something else reminds of it.
#[tracing::instrument(skip_all, fields(chat_id = %new.chat_id))]
pub async fn create_within(
    conn: &mut PgConnection,
    queue: &Queue,
    new: &NewTask,
    max_open: i64,
) -> Result<Option<CreatedTask>, StoreError> {
    let Some(task) = insert(conn, new, Some(max_open)).await? else {
        return Ok(None);
    };
    let first = occurrences::scheduled_after_change(conn, queue, &task, task.due_at).await?;
    Ok(Some(CreatedTask {
        task,
        first_reminder: first.map(|(_, fire_at)| fire_at),
    }))
}

/// Writes the task `new` (without its reminders) while its owner has fewer than `max_open` open
/// tasks, if a limit is given (counted in the same statement); `None` when they have that many.
async fn insert(
    conn: &mut PgConnection,
    new: &NewTask,
    max_open: Option<i64>,
) -> Result<Option<Task>, StoreError> {
    let row = sqlx::query_as!(
        TaskRow,
        "insert into tasks (chat_id, owner_id, text, due_at, lead_secs, rule, tz)
         select $1, $2, $3, $4, $5, $6, $7
         where $8::bigint is null
            or (select count(*) from tasks where owner_id = $2 and state = 'open') < $8
         returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
        new.chat_id.0,
        new.owner_id.0,
        new.text.as_str(),
        new.due_at,
        new.lead.secs(),
        new.recurrence.as_ref().map(Recurrence::to_rule_string),
        new.tz.name(),
        max_open,
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(Task::try_from).transpose()?)
}

/// A task [`create_within`] wrote, with when its first reminder fires: the caller shows it as the
/// task's next reminder without reading it back.
#[derive(Clone, Debug, PartialEq)]
pub struct CreatedTask {
    /// The new task.
    pub task: Task,
    /// When its first reminder fires; `None` when none was scheduled.
    pub first_reminder: Option<DateTime<Utc>>,
}

/// Reads a task of `chat_id`; another chat's task is not found.
#[tracing::instrument(skip_all, fields(chat_id, task_id))]
pub async fn find(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<Task>, StoreError> {
    read_task(
        sqlx::query_as!(
            TaskRow,
            "select id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state
             from tasks where id = $1 and chat_id = $2 and state <> $3",
            task_id.0,
            chat_id.0,
            TaskState::Deleted.as_str(),
        )
        .fetch_optional(conn)
        .await?,
    )
}

/// An open task as a list shows it: the task and when its next reminder fires.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedTask {
    /// The task.
    pub task: Task,
    /// Its next reminder not sent yet (a snooze when it comes first), if any.
    pub next_reminder: Option<DateTime<Utc>>,
    /// Whether its repeat is paused (nothing fires until it is resumed).
    pub on_hold: bool,
}

/// A chat's open tasks, soonest first, each with its next reminder: `limit` of them after
/// skipping `offset`.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn list_open(
    conn: &mut PgConnection,
    chat_id: ChatId,
    limit: i64,
    offset: i64,
) -> Result<Vec<ListedTask>, StoreError> {
    let rows = sqlx::query!(
        "select t.id, t.chat_id, t.owner_id, t.text, t.due_at, t.lead_secs, t.rule, t.tz, t.state,
                (select min(r.fire_at) from reminders r where r.task_id = t.id and not r.sent)
                    as next_reminder,
                t.on_hold
         from tasks t where t.chat_id = $1 and t.state = 'open'
         order by t.due_at, t.id limit $2 offset $3",
        chat_id.0,
        limit,
        offset,
    )
    .fetch_all(conn)
    .await?;
    rows.into_iter()
        .map(|row| {
            let task = Task::try_from(task_row_of!(row))?;
            Ok(ListedTask {
                task,
                next_reminder: row.next_reminder,
                on_hold: row.on_hold,
            })
        })
        .collect()
}

/// How many open tasks a chat has.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn count_open(conn: &mut PgConnection, chat_id: ChatId) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar!(
        r#"select count(*) as "count!" from tasks where chat_id = $1 and state = 'open'"#,
        chat_id.0,
    )
    .fetch_one(conn)
    .await?)
}

/// Reads an open task of `chat_id` and locks it for the rest of the transaction.
pub(crate) async fn lock_open(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<Task>, StoreError> {
    read_task(
        sqlx::query_as!(
            TaskRow,
            "select id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state
             from tasks where id = $1 and chat_id = $2 and state = $3
             for update",
            task_id.0,
            chat_id.0,
            TaskState::Open.as_str(),
        )
        .fetch_optional(conn)
        .await?,
    )
}

/// Cancels the jobs of the task's reminders not sent yet and removes those reminders (a reminder
/// being sent right now loses its lease and records nothing).
pub(crate) async fn cancel_unsent(
    conn: &mut PgConnection,
    task_id: TaskId,
) -> Result<(), StoreError> {
    let job_ids: Vec<i64> = sqlx::query_scalar!(
        "delete from reminders where task_id = $1 and not sent returning job_id",
        task_id.0,
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .flatten()
    .collect();
    for job_id in job_ids {
        pgqueue::maintenance::cancel_job(&mut *conn, JobId(job_id)).await?;
    }
    Ok(())
}

/// Marks the task done. A one-off task closes and its pending reminders are cancelled; a recurring
/// task closes only the current occurrence: its pending reminders are cancelled and the next
/// occurrence after now is scheduled ([`Recurrence::after_done`]: for a rule counted from
/// completion, a whole interval after now). A series that has ended with it closes as a one-off
/// task does (still holding its rule, which is how its caller tells). Returns the task as it is
/// now; `None` when `chat_id` has no such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn finish(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<Task>, StoreError> {
    let Some(open) = lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    cancel_unsent(conn, open.id).await?;
    if let Some(recurrence) = &open.recurrence {
        let current = occurrences::current(conn, &open).await?;
        let now = occurrences::db_now(conn).await?;
        if let Some(next) = recurrence.after_done(current, now, open.zone) {
            occurrences::move_to(conn, queue, &open, next).await?;
            return find(conn, chat_id, task_id).await;
        }
    }
    close(conn, open.id).await
}

/// Closes a task as done.
pub(crate) async fn close(
    conn: &mut PgConnection,
    task_id: TaskId,
) -> Result<Option<Task>, StoreError> {
    read_task(
        sqlx::query_as!(
            TaskRow,
            "update tasks set state = $2, updated_at = now() where id = $1
             returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
            task_id.0,
            TaskState::Done.as_str(),
        )
        .fetch_optional(conn)
        .await?,
    )
}

/// Marks done the task whose reminder message `message_id` (in `chat_id`) was answered with Done.
/// For a recurring task that occurrence is already past and the next one is scheduled (delivery
/// moved the task on when it sent the reminder), so a schedule stays as it is; a rule counted
/// from completion ("3 days after done") has its next occurrence planned again from now (or
/// ends, see [`finish`]). Anything else is [`finish`]. Returns the task as it is now; `None`
/// when `chat_id` has no such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn finish_from_reminder(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
    message_id: i64,
) -> Result<Option<Task>, StoreError> {
    let Some(open) = lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    let announced_sent_occurrence = sqlx::query_scalar!(
        r#"select exists (select 1 from reminders
                          where task_id = $1 and message_id = $2 and sent and due_at < $3)
               as "announced!""#,
        open.id.0,
        message_id,
        open.due_at,
    )
    .fetch_one(&mut *conn)
    .await?;
    match &open.recurrence {
        Some(recurrence) if announced_sent_occurrence => {
            super::nags::stop_round(conn, open.id).await?;
            if !recurrence.counts_from_done() {
                return Ok(Some(open));
            }
            // The occurrence the reminder announced is the one before the task's current one,
            // which delivery planned on the schedule: plan it again from now.
            let current = occurrences::current(conn, &open).await?;
            let announced = Occurrence {
                index: current.index.saturating_sub(1).max(1),
                ..current
            };
            let now = occurrences::db_now(conn).await?;
            cancel_unsent(conn, open.id).await?;
            match recurrence.after_done(announced, now, open.zone) {
                Some(next) => {
                    occurrences::move_to(conn, queue, &open, next).await?;
                    find(conn, chat_id, task_id).await
                }
                None => close(conn, open.id).await,
            }
        }
        _ => finish(conn, queue, chat_id, task_id).await,
    }
}

/// Deletes the task and cancels its pending reminders. Returns the deleted task; `None` when
/// `chat_id` has no such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn delete(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<Task>, StoreError> {
    let Some(open) = lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    cancel_unsent(conn, open.id).await?;
    sqlx::query!(
        "update tasks set state = $2, updated_at = now() where id = $1",
        open.id.0,
        TaskState::Deleted.as_str(),
    )
    .execute(conn)
    .await?;
    Ok(Some(open))
}

/// A task's new text and schedule.
#[derive(Clone, Debug)]
pub struct TaskChange {
    /// The new text; `None` keeps the old one.
    pub text: Option<TaskText>,
    /// The new (first) deadline.
    pub due_at: DateTime<Utc>,
    /// The new lead time.
    pub lead: Lead,
    /// The new recurrence; `None` makes the task one-off.
    pub recurrence: Option<Recurrence>,
}

/// Changes a task's text and schedule: its pending reminders (snoozes included) are cancelled and
/// the new first occurrence is scheduled. Returns the changed task; `None` when `chat_id` has no
/// such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn reschedule(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
    change: &TaskChange,
) -> Result<Option<Task>, StoreError> {
    let Some(open) = lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    cancel_unsent(conn, open.id).await?;
    let row = sqlx::query_as!(
        TaskRow,
        "update tasks set text = coalesce($2, text), due_at = $3, lead_secs = $4, rule = $5,
             updated_at = now()
         where id = $1 returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
        open.id.0,
        change.text.as_ref().map(TaskText::as_str),
        change.due_at,
        change.lead.secs(),
        change.recurrence.as_ref().map(Recurrence::to_rule_string),
    )
    .fetch_one(&mut *conn)
    .await?;
    let changed = Task::try_from(row)?;
    if !same_series(open.recurrence.as_ref(), changed.recurrence.as_ref()) {
        occurrences::set_index(conn, changed.id, 1).await?;
    }
    schedule_after_change(conn, queue, &changed, changed.due_at).await?;
    Ok(Some(changed))
}

/// Whether a change of schedule from `old` to `new` goes on with the same series (a new time of
/// day, a new start of minutes or hours): the same days, interval and end, so that a counted
/// series keeps its count. Anything else starts a new series.
fn same_series(old: Option<&Recurrence>, new: Option<&Recurrence>) -> bool {
    match (old, new) {
        (Some(old), Some(new)) => {
            (
                old.frequency(),
                old.interval(),
                old.end(),
                old.counts_from_done(),
            ) == (
                new.frequency(),
                new.interval(),
                new.end(),
                new.counts_from_done(),
            )
        }
        _ => false,
    }
}

/// Gives an open task of `chat_id` a new text and nothing else: its deadline, rule, lead and
/// reminders (snoozes included) stay as they are. Returns the changed task; `None` when
/// `chat_id` has no such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn rename(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
    text: &TaskText,
) -> Result<Option<Task>, StoreError> {
    read_task(
        sqlx::query_as!(
            TaskRow,
            "update tasks set text = $3, updated_at = now()
             where id = $1 and chat_id = $2 and state = $4
             returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
            task_id.0,
            chat_id.0,
            text.as_str(),
            TaskState::Open.as_str(),
        )
        .fetch_optional(conn)
        .await?,
    )
}

/// Whether task `task_id` of `chat_id` is open and unchanged since it was created (what the Undo
/// buttons of older cards, which name the task and nothing else, may still take back).
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn unchanged_since_created(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<bool, StoreError> {
    Ok(sqlx::query_scalar!(
        r#"select exists (select 1 from tasks
                          where id = $1 and chat_id = $2 and state = $3
                            and updated_at = created_at) as "unchanged!""#,
        task_id.0,
        chat_id.0,
        TaskState::Open.as_str(),
    )
    .fetch_one(conn)
    .await?)
}

/// Puts a task of `chat_id` (open, done or deleted) back to `version`, open: its reminders not
/// sent yet are cancelled and the version's occurrence is scheduled as after any change of the
/// user's ([`schedule_after_change`]). A recurring task whose occurrence has passed by `now` moves
/// on to its next one; a one-off task whose time has passed stays open without a reminder (the
/// caller says so). Returns the task as it is now; `None` when `chat_id` has no such task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn restore(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
    version: &TaskVersion,
    now: DateTime<Utc>,
) -> Result<Option<Task>, StoreError> {
    let stored = sqlx::query!(
        "select tz, occurrence from tasks where id = $1 and chat_id = $2 for update",
        task_id.0,
        chat_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(stored) = stored else {
        return Ok(None);
    };
    let zone: Tz = read("tasks", task_id, "tz", &stored.tz, |tz| tz.parse().ok())?;
    cancel_unsent(conn, task_id).await?;
    let kept = Occurrence {
        at: version.due_at,
        index: version
            .occurrence
            .unwrap_or_else(|| u32::try_from(stored.occurrence).unwrap_or(1))
            .max(1),
    };
    // A passed occurrence of a series moves on to the next one after now (none when it ended).
    let occurrence = match &version.recurrence {
        Some(rule) if version.due_at <= now => {
            rule.next_occurrence(kept, now, zone).unwrap_or(kept)
        }
        _ => kept,
    };
    occurrences::set_index(conn, task_id, occurrence.index).await?;
    let due_at = occurrence.at;
    let row = sqlx::query_as!(
        TaskRow,
        "update tasks set text = $2, due_at = $3, lead_secs = $4, rule = $5, state = $6,
             updated_at = now()
         where id = $1 returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
        task_id.0,
        version.text,
        due_at,
        version.lead.secs(),
        version.recurrence.as_ref().map(Recurrence::to_rule_string),
        TaskState::Open.as_str(),
    )
    .fetch_one(&mut *conn)
    .await?;
    let restored = Task::try_from(row)?;
    if restored.due_at > now {
        schedule_after_change(conn, queue, &restored, restored.due_at).await?;
    }
    Ok(Some(restored))
}

/// Snoozes a task: an extra reminder (kind `snooze`) fires at `fire_at` with its own job. The
/// task's deadline, rule and scheduled occurrences stay as they are; an earlier snooze not yet
/// sent is replaced. Returns the task; `None` when `chat_id` has no such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn snooze(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
    fire_at: DateTime<Utc>,
) -> Result<Option<Task>, StoreError> {
    let Some(open) = lock_open(conn, chat_id, task_id).await? else {
        return Ok(None);
    };
    let old_jobs = sqlx::query_scalar!(
        "delete from reminders where task_id = $1 and kind = $2 and not sent
         returning job_id",
        open.id.0,
        ReminderKind::Snooze.as_str(),
    )
    .fetch_all(&mut *conn)
    .await?;
    for job_id in old_jobs.into_iter().flatten() {
        pgqueue::maintenance::cancel_job(&mut *conn, JobId(job_id)).await?;
    }
    super::occurrences::add_extra_reminder(conn, queue, open.id, open.due_at, fire_at).await?;
    Ok(Some(open))
}
