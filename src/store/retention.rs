//! Retention: what the bot no longer needs is deleted after a retention period, so that tables
//! stop growing with every task ever written. Finished tasks (done or deleted) go with their
//! reminders; old sent reminders of tasks still open go too (the task keeps its schedule), and so
//! do lapsed questions, failed reminder jobs no admin acted on, the admin log, handled updates
//! (after a shorter period of their own) and the pacing rows of quiet chats.

use std::time::Duration;

use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use super::StoreError;
use super::conversation::ANSWER_WITHIN;
use pgqueue::maintenance;

/// Rows are deleted this many per statement, so no pass holds long locks.
const BATCH: i64 = 5000;

/// What one retention pass deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    /// Finished tasks (their reminders went with them).
    pub tasks: u64,
    /// Sent reminders of tasks still open.
    pub reminders: u64,
    /// Questions left unanswered past their time.
    pub conversations: u64,
    /// Failed jobs no admin acted on.
    pub failed_jobs: u64,
    /// Admin log entries.
    pub admin_actions: u64,
    /// Handled updates (the inbox).
    pub updates: u64,
    /// Pacing rows of chats quiet for a day, and 429s past their window.
    pub pacing: u64,
    /// Days of paid-broadcast spending older than what is kept (`remindbot check` reads today's).
    pub paid_broadcast_days: u64,
}

/// How long what is kept is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Finished tasks, sent reminders, failed jobs, the admin log.
    pub data: Duration,
    /// Handled updates.
    pub updates: Duration,
}

impl Purged {
    /// Whether the pass deleted anything.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Deletes what is older than `keep`, and questions lapsed for [`ANSWER_WITHIN`].
#[tracing::instrument(skip_all)]
pub async fn purge(pool: &PgPool, keep: Keep) -> Result<Purged, StoreError> {
    let keep_secs = keep.data.as_secs_f64();
    let keep_updates_secs = keep.updates.as_secs_f64();
    let lapse_secs = ANSWER_WITHIN.as_secs_f64();
    Ok(Purged {
        tasks: in_batches(|| async {
            sqlx::query!(
                "delete from tasks where id = any(array(
                     select id from tasks
                     where state in ('done', 'deleted')
                       and updated_at < now() - make_interval(secs => $1)
                     limit $2))",
                keep_secs,
                BATCH,
            )
            .execute(pool)
            .await
        })
        .await?,
        reminders: in_batches(|| async {
            sqlx::query!(
                "delete from reminders where id = any(array(
                     select id from reminders
                     where sent and sent_at < now() - make_interval(secs => $1)
                     limit $2))",
                keep_secs,
                BATCH,
            )
            .execute(pool)
            .await
        })
        .await?,
        conversations: in_batches(|| async {
            sqlx::query!(
                "delete from conversations where ctid = any(array(
                     select ctid from conversations
                     where created_at < now() - make_interval(secs => $1)
                     limit $2))",
                lapse_secs,
                BATCH,
            )
            .execute(pool)
            .await
        })
        .await?,
        failed_jobs: maintenance::purge_failed(pool, keep.data).await?,
        admin_actions: in_batches(|| async {
            sqlx::query!(
                "delete from admin_actions where id = any(array(
                     select id from admin_actions
                     where at < now() - make_interval(secs => $1)
                     limit $2))",
                keep_secs,
                BATCH,
            )
            .execute(pool)
            .await
        })
        .await?,
        updates: in_batches(|| async {
            sqlx::query!(
                "delete from updates where id = any(array(
                     select id from updates
                     where handled_at < now() - make_interval(secs => $1)
                     limit $2))",
                keep_updates_secs,
                BATCH,
            )
            .execute(pool)
            .await
        })
        .await?,
        pacing: sqlx::query!(
            "delete from chat_sends
             where next_at < now() - interval '1 day'
               and (paused_until is null or paused_until < now())"
        )
        .execute(pool)
        .await?
        .rows_affected()
            + sqlx::query!("delete from send_throttles where at < now() - interval '1 minute'")
                .execute(pool)
                .await?
                .rows_affected(),
        paid_broadcast_days: sqlx::query!(
            "delete from paid_broadcast_days
             where day < ((now() - make_interval(secs => $1)) at time zone 'UTC')::date",
            keep_secs,
        )
        .execute(pool)
        .await?
        .rows_affected(),
    })
}

/// Runs a batched delete of at most [`BATCH`] rows until a batch comes back short; returns the
/// rows deleted.
async fn in_batches<F, Fut>(mut batch: F) -> Result<u64, StoreError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<sqlx::postgres::PgQueryResult, sqlx::Error>>,
{
    let mut deleted = 0;
    loop {
        let rows = batch().await?.rows_affected();
        deleted += rows;
        if rows < BATCH as u64 {
            return Ok(deleted);
        }
    }
}

/// Runs [`purge`] every `interval` until `shutdown`.
pub async fn run(pool: PgPool, keep: Keep, interval: Duration, shutdown: CancellationToken) {
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(interval) => {}
        }
        match purge(&pool, keep).await {
            Ok(purged) if purged.is_empty() => {}
            Ok(purged) => tracing::info!(?purged, "purged old data"),
            Err(error) => tracing::warn!(%error, "retention pass failed"),
        }
    }
}
