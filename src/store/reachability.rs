//! Chats Telegram will not deliver to: marking them unreachable (pausing their recurring tasks and
//! their morning agenda, and cancelling those tasks' pending reminders and the agenda's job),
//! resuming them by any way back (the user writes or
//! unblocks the bot, the bot is added back to a group, an admin retries, Telegram delivers to the
//! chat again), and moving a group that became a supergroup to its new id.

use sqlx::PgConnection;

use super::StoreError;
use super::task_model::{Task, TaskRow};
use super::types::{ChatKind, TaskState};
use super::{agenda, occurrences};
use crate::domain::ids::ChatId;
use pgqueue::{JobId, Queue};

/// Marks `chat_id` unreachable for `reason`, pauses its open recurring tasks and its agenda and
/// cancels their pending jobs, except `running_job` (the caller's own, which it records itself).
/// Returns how many tasks were paused. Run it in the caller's transaction.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn mark_unreachable(
    conn: &mut PgConnection,
    chat_id: ChatId,
    reason: &str,
    running_job: Option<JobId>,
) -> Result<u64, StoreError> {
    sqlx::query!(
        "update chats set reachable = false, unreachable_reason = $2, updated_at = now()
         where chat_id = $1",
        chat_id.0,
        reason,
    )
    .execute(&mut *conn)
    .await?;
    let paused = sqlx::query!(
        "update tasks set state = $2, updated_at = now()
         where chat_id = $1 and state = $3 and rule is not null",
        chat_id.0,
        TaskState::Paused.as_str(),
        TaskState::Open.as_str(),
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    let jobs = sqlx::query_scalar!(
        r#"select r.job_id as "job_id!" from reminders r join tasks t on t.id = r.task_id
           where t.chat_id = $1 and t.state = $3 and not r.sent and r.job_id is not null
             and r.job_id is distinct from $2"#,
        chat_id.0,
        running_job.map(|id| id.0),
        TaskState::Paused.as_str(),
    )
    .fetch_all(&mut *conn)
    .await?;
    pgqueue::cancel_pending(&mut *conn, &jobs.into_iter().map(JobId).collect::<Vec<_>>()).await?;
    agenda::pause(conn, chat_id, running_job).await?;
    Ok(paused)
}

/// The chat is back: marks `chat_id` reachable and resumes its paused tasks, each at its next
/// occurrence after its paused one that fires after now (the ones missed meanwhile are not sent),
/// and its paused agenda, at its next morning.
/// Run it in the caller's transaction, on every way back. Returns how many resumed.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn resume(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
) -> Result<usize, StoreError> {
    sqlx::query!(
        "update chats set reachable = true, unreachable_reason = null, updated_at = now()
         where chat_id = $1 and not reachable",
        chat_id.0,
    )
    .execute(&mut *conn)
    .await?;
    let paused = sqlx::query_as!(
        TaskRow,
        "update tasks set state = $2, updated_at = now()
         where chat_id = $1 and state = $3
         returning id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state",
        chat_id.0,
        TaskState::Open.as_str(),
        TaskState::Paused.as_str(),
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(Task::try_from)
    .collect::<Result<Vec<_>, _>>()?;
    let now = sqlx::query_scalar!(r#"select now() as "now!""#)
        .fetch_one(&mut *conn)
        .await?;
    for task in &paused {
        let Some(recurrence) = &task.recurrence else {
            continue;
        };
        // Strictly after the paused deadline (its reminder was cancelled) and firing after now;
        // a series that ended meanwhile stays at its last occurrence.
        let current = occurrences::current(conn, task).await?;
        let after = task.due_at.max(now + task.lead.duration());
        if let Some(next) = recurrence.next_occurrence(current, after, task.zone) {
            occurrences::move_to(conn, queue, task, next).await?;
        }
    }
    agenda::resume(conn, queue, chat_id).await?;
    Ok(paused.len())
}

/// A group became a supergroup: its tasks move to `new_chat_id` (a copy of the chat's settings
/// is created there if the bot has not met the supergroup yet), and the old id is unreachable.
#[tracing::instrument(skip_all, fields(old_chat_id, new_chat_id))]
pub async fn migrate_chat(
    conn: &mut PgConnection,
    old_chat_id: ChatId,
    new_chat_id: ChatId,
) -> Result<(), StoreError> {
    sqlx::query!(
        "insert into chats (chat_id, kind, lang, tz, default_lead_secs)
         select $2, $3, lang, tz, default_lead_secs from chats where chat_id = $1
         on conflict (chat_id) do nothing",
        old_chat_id.0,
        new_chat_id.0,
        ChatKind::Supergroup.as_str(),
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "update tasks set chat_id = $2, updated_at = now() where chat_id = $1",
        old_chat_id.0,
        new_chat_id.0,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "update chats set reachable = false, unreachable_reason = 'migrated to a supergroup',
             updated_at = now()
         where chat_id = $1",
        old_chat_id.0,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}
