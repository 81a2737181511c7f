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

/// Returns the failed job `job_id` to the queue, recording `actor`.
#[tracing::instrument(skip_all, fields(job = job_id, actor))]
pub async fn retry(pool: &PgPool, actor: &str, job_id: JobId) -> Result<ActionResult, AdminError> {
    let mut tx = pool.begin().await?;
    match maintenance::retry_failed(&mut tx, job_id).await {
        Ok(()) => {}
        Err(QueueError::NotFound(id)) => return Ok(ActionResult::NotFound(id)),
        Err(e) => return Err(e.into()),
    }
    record(&mut tx, actor, "retry", Some(job_id), None).await?;
    tx.commit().await?;
    Ok(ActionResult::Retried(vec![job_id]))
}

/// Returns every failed job of `queue` to the queue, recording `actor`.
#[tracing::instrument(skip_all, fields(queue, actor))]
pub async fn retry_all(
    pool: &PgPool,
    actor: &str,
    queue: &str,
) -> Result<ActionResult, AdminError> {
    let mut tx = pool.begin().await?;
    let ids = maintenance::retry_all_failed(&mut tx, queue).await?;
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
