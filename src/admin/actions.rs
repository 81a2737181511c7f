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

/// Returns the failed job `job_id` to the queue, recording `actor`. The chat of a reminder job is
/// reachable again and its paused tasks resume: an admin retries once the cause is gone (the
/// user unblocked the bot).
#[tracing::instrument(skip_all, fields(job = job_id.0, actor))]
pub async fn retry(queue: &Queue, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = queue.pool().begin().await?;
    match maintenance::retry_failed(&mut tx, job_id).await {
        Ok(()) => {}
        Err(QueueError::NotFound(id)) => return Ok(ActionResult::NotFound(id)),
        Err(e) => return Err(e.into()),
    }
    resume_chats(&mut tx, queue, &[job_id]).await?;
    record(&mut tx, actor, "retry", Some(job_id), None).await?;
    tx.commit().await?;
    Ok(ActionResult::Retried(vec![job_id]))
}

/// Returns every failed job of the queue to it, recording `actor` (their chats resume, as by
/// [`retry`]).
#[tracing::instrument(skip_all, fields(actor))]
pub async fn retry_all(queue: &Queue, actor: &str) -> Result<ActionResult, AdminError> {
    let mut tx = queue.pool().begin().await?;
    let ids = maintenance::retry_all_failed(&mut tx, queue.name()).await?;
    resume_chats(&mut tx, queue, &ids).await?;
    record(
        &mut tx,
        actor,
        "retry all",
        None,
        Some(&format!("{} jobs of queue {}", ids.len(), queue.name())),
    )
    .await?;
    tx.commit().await?;
    Ok(ActionResult::Retried(ids))
}

/// Cancels the job `job_id` (failed, pending or running), recording `actor`. A recurring task
/// whose current occurrence it was moves on to its next one.
#[tracing::instrument(skip_all, fields(job = job_id.0, actor))]
pub async fn cancel(queue: &Queue, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = queue.pool().begin().await?;
    if !maintenance::cancel_job(&mut *tx, job_id).await? {
        return Ok(ActionResult::NotFound(job_id));
    }
    for reminder_id in reminders_of(&mut tx, &[job_id]).await? {
        tasks::continue_series(&mut tx, queue, reminder_id).await?;
    }
    record(&mut tx, actor, "cancel", Some(job_id), None).await?;
    tx.commit().await?;
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
