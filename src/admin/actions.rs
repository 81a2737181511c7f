//! Admin actions on jobs, each recorded with who did it. They act on the reminder queue and take
//! its handle, so that what a job stands for follows in the same transaction: a retried
//! reminder's chat counts as reachable again and its paused tasks resume; a cancelled reminder's
//! recurring task moves on to its next occurrence.

use sqlx::PgConnection;

use super::AdminError;
use crate::domain::ids::ChatId;
use crate::store::{agenda, reachability, tasks};
use pgqueue::{JobId, Queue, QueueError, maintenance};

/// What an action did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ActionResult {
    /// The jobs went back to the queue.
    Retried(Vec<JobId>),
    /// The job was cancelled.
    Cancelled(JobId),
    /// No job in a state that allows the action.
    NotFound(JobId),
}

/// Returns the failed job `job_id` to the queue, recording `actor`, in a transaction of its own
/// (the admin page and the CLI); see [`retry_in`].
pub async fn retry(queue: &Queue, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = queue.pool().begin().await?;
    let result = retry_in(&mut tx, queue, actor, job_id).await?;
    tx.commit().await?;
    Ok(result)
}

/// Returns the failed job `job_id` to the queue, recording `actor`, in the caller's transaction
/// `conn`. The chat of a reminder job is reachable again and its paused tasks resume: an admin
/// retries once the cause is gone (the user unblocked the bot).
///
/// The bot runs it in the update's own transaction: a transaction of its own would wait for the
/// rows the update's batch holds (the same user's unblock, handled a moment earlier in that
/// batch, locks their chat) while the batch waits for it to end.
#[tracing::instrument(skip_all, fields(job = job_id.0, actor))]
pub async fn retry_in(
    conn: &mut PgConnection,
    queue: &Queue,
    actor: &str,
    job_id: JobId,
) -> Result<ActionResult, AdminError> {
    match maintenance::retry_failed(conn, job_id).await {
        Ok(()) => {}
        Err(QueueError::NotFound(id)) => return Ok(ActionResult::NotFound(id)),
        Err(e) => return Err(e.into()),
    }
    resume_chats(conn, queue, &[job_id]).await?;
    record(conn, actor, "retry", Some(job_id), None).await?;
    Ok(ActionResult::Retried(vec![job_id]))
}

/// Returns every failed job of the queue to it, recording `actor`, in a transaction of its own;
/// see [`retry_all_in`].
pub async fn retry_all(queue: &Queue, actor: &str) -> Result<ActionResult, AdminError> {
    let mut tx = queue.pool().begin().await?;
    let result = retry_all_in(&mut tx, queue, actor).await?;
    tx.commit().await?;
    Ok(result)
}

/// Returns every failed job of the queue to it, recording `actor`, in the caller's transaction
/// `conn` (their chats resume, as by [`retry_in`]).
#[tracing::instrument(skip_all, fields(actor))]
pub async fn retry_all_in(
    conn: &mut PgConnection,
    queue: &Queue,
    actor: &str,
) -> Result<ActionResult, AdminError> {
    let ids = maintenance::retry_all_failed(conn, queue.name()).await?;
    resume_chats(conn, queue, &ids).await?;
    record(
        conn,
        actor,
        "retry all",
        None,
        Some(&format!("{} jobs of queue {}", ids.len(), queue.name())),
    )
    .await?;
    Ok(ActionResult::Retried(ids))
}

/// Cancels the job `job_id`, recording `actor`, in a transaction of its own; see [`cancel_in`].
pub async fn cancel(queue: &Queue, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = queue.pool().begin().await?;
    let result = cancel_in(&mut tx, queue, actor, job_id).await?;
    tx.commit().await?;
    Ok(result)
}

/// Cancels the job `job_id` (failed, pending or running), recording `actor`, in the caller's
/// transaction `conn`. A recurring task whose current occurrence it was moves on to its next one.
#[tracing::instrument(skip_all, fields(job = job_id.0, actor))]
pub async fn cancel_in(
    conn: &mut PgConnection,
    queue: &Queue,
    actor: &str,
    job_id: JobId,
) -> Result<ActionResult, AdminError> {
    if !maintenance::cancel_job(&mut *conn, job_id).await? {
        return Ok(ActionResult::NotFound(job_id));
    }
    for reminder_id in reminders_of(conn, &[job_id]).await? {
        tasks::continue_series(conn, queue, reminder_id).await?;
    }
    record(conn, actor, "cancel", Some(job_id), None).await?;
    Ok(ActionResult::Cancelled(job_id))
}

/// The reminders the jobs `job_ids` deliver.
async fn reminders_of(conn: &mut PgConnection, job_ids: &[JobId]) -> Result<Vec<i64>, AdminError> {
    Ok(sqlx::query_scalar!(
        "select id from reminders where job_id = any($1)",
        &job_ids.iter().map(|id| id.0).collect::<Vec<_>>()
    )
    .fetch_all(conn)
    .await?)
}

/// Marks the chats of the reminder and agenda jobs `job_ids` reachable again and resumes their
/// paused tasks and agendas.
async fn resume_chats(
    conn: &mut PgConnection,
    queue: &Queue,
    job_ids: &[JobId],
) -> Result<(), AdminError> {
    let chats = sqlx::query_scalar!(
        r#"select distinct t.chat_id as "chat_id: ChatId" from reminders r join tasks t on t.id = r.task_id
         where r.job_id = any($1)"#,
        &job_ids.iter().map(|id| id.0).collect::<Vec<_>>(),
    )
    .fetch_all(&mut *conn)
    .await?;
    let agenda_chats = agenda::chats_of_jobs(conn, job_ids).await?;
    for chat_id in chats.into_iter().chain(agenda_chats) {
        reachability::resume(conn, queue, chat_id).await?;
    }
    Ok(())
}

/// Records that `actor` did `action` (to job `job_id`).
async fn record(
    conn: &mut PgConnection,
    actor: &str,
    action: &str,
    job_id: Option<JobId>,
    detail: Option<&str>,
) -> Result<(), AdminError> {
    sqlx::query!(
        "insert into admin_actions (actor, action, job_id, detail) values ($1, $2, $3, $4)",
        actor,
        action,
        job_id.map(|id| id.0),
        detail,
    )
    .execute(conn)
    .await?;
    Ok(())
}
