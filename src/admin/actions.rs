//! Admin actions on jobs, each recorded with who did it.

use sqlx::PgPool;

use super::AdminError;
use crate::queue::{JobId, QueueError, maintenance};

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
/// marked reachable again: an admin retries once the cause is gone (the user unblocked the bot),
/// and a chat still marked unreachable would fail the job without trying.
#[tracing::instrument(skip_all, fields(job = job_id, actor))]
pub async fn retry(pool: &PgPool, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = pool.begin().await?;
    match maintenance::retry_failed(&mut tx, job_id).await {
        Ok(()) => {}
        Err(QueueError::NotFound(id)) => return Ok(ActionResult::NotFound(id)),
        Err(e) => return Err(e.into()),
    }
    mark_chats_reachable(&mut tx, &[job_id]).await?;
    record(&mut tx, actor, "retry", Some(job_id), None).await?;
    tx.commit().await?;
    Ok(ActionResult::Retried(vec![job_id]))
}

/// Returns every failed job of `queue` to the queue, recording `actor` (their chats are marked
/// reachable again, as by [`retry`]).
#[tracing::instrument(skip_all, fields(queue, actor))]
pub async fn retry_all(
    pool: &PgPool,
    actor: &str,
    queue: &str,
) -> Result<ActionResult, AdminError> {
    let mut tx = pool.begin().await?;
    let ids = maintenance::retry_all_failed(&mut tx, queue).await?;
    mark_chats_reachable(&mut tx, &ids).await?;
    record(
        &mut tx,
        actor,
        "retry all",
        None,
        Some(&format!("{} jobs of queue {queue}", ids.len())),
    )
    .await?;
    tx.commit().await?;
    Ok(ActionResult::Retried(ids))
}

/// Cancels the job `job_id` (failed, pending or running), recording `actor`.
#[tracing::instrument(skip_all, fields(job = job_id, actor))]
pub async fn cancel(pool: &PgPool, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = pool.begin().await?;
    if !maintenance::cancel_job(&mut *tx, job_id).await? {
        return Ok(ActionResult::NotFound(job_id));
    }
    record(&mut tx, actor, "cancel", Some(job_id), None).await?;
    tx.commit().await?;
    Ok(ActionResult::Cancelled(job_id))
}

/// Marks the chats of the reminder jobs `job_ids` reachable again.
async fn mark_chats_reachable(
    conn: &mut sqlx::PgConnection,
    job_ids: &[JobId],
) -> Result<(), AdminError> {
    sqlx::query(
        "update chats set reachable = true, unreachable_reason = null, updated_at = now()
         where not reachable and chat_id in (
             select t.chat_id from reminders r join tasks t on t.id = r.task_id
             where r.job_id = any($1))",
    )
    .bind(job_ids)
    .execute(conn)
    .await?;
    Ok(())
}

async fn record(
    conn: &mut sqlx::PgConnection,
    actor: &str,
    action: &str,
    job_id: Option<JobId>,
    detail: Option<&str>,
) -> Result<(), AdminError> {
    sqlx::query(
        "insert into admin_actions (actor, action, job_id, detail) values ($1, $2, $3, $4)",
    )
    .bind(actor)
    .bind(action)
    .bind(job_id)
    .bind(detail)
    .execute(conn)
    .await?;
    Ok(())
}
