//! Each chat's one live calendar-feed URL, kept as the hash of its secret
//! ([`crate::domain::feed_secret`]), and what a feed shows: the chat's open tasks with when each
//! last changed.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::StoreError;
use super::task_model::{Task, task_row_of};
use super::types::{TaskState, read};
use crate::domain::feed_secret::SecretHash;
use crate::domain::ids::ChatId;
use crate::domain::lang::Lang;

/// The chat a live feed URL belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feed {
    /// Whose tasks it shows.
    pub chat_id: ChatId,
    /// The chat's language (the calendar's name is in it).
    pub lang: Lang,
}

/// An open task as a feed shows it: the task, its revision and when it last changed (the
/// event's SEQUENCE and LAST-MODIFIED; the feed's ETag is made of the revisions).
#[derive(Clone, Debug, PartialEq)]
pub struct FeedTask {
    /// The task.
    pub task: Task,
    /// 0 when created, one more with every change of its row (kept by the database).
    pub revision: u32,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// Makes `hash` the chat's one live feed: an earlier one stops opening at once.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id))]
pub async fn replace(
    conn: &mut PgConnection,
    chat_id: ChatId,
    hash: &SecretHash,
) -> Result<(), StoreError> {
    sqlx::query!(
        "insert into calendar_feeds (chat_id, secret_hash) values ($1, $2)
         on conflict (chat_id) do update
             set secret_hash = excluded.secret_hash, created_at = now()",
        chat_id.0,
        &hash.0[..],
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// When the chat's live feed URL was made; `None` when it has none.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id))]
pub async fn made_at(
    conn: &mut PgConnection,
    chat_id: ChatId,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    Ok(sqlx::query_scalar!(
        "select created_at from calendar_feeds where chat_id = $1",
        chat_id.0,
    )
    .fetch_optional(conn)
    .await?)
}

/// The live feed whose secret hashes to `hash`; `None` for an unknown or replaced one.
#[tracing::instrument(skip_all)]
pub async fn find(
    executor: impl PgExecutor<'_>,
    hash: &SecretHash,
) -> Result<Option<Feed>, StoreError> {
    let row = sqlx::query!(
        "select f.chat_id, c.lang from calendar_feeds f join chats c using (chat_id)
         where f.secret_hash = $1",
        &hash.0[..],
    )
    .fetch_optional(executor)
    .await?;
    row.map(|row| {
        Ok(Feed {
            chat_id: ChatId(row.chat_id),
            lang: read("chats", row.chat_id, "lang", &row.lang, Lang::from_stored)?,
        })
    })
    .transpose()
}

/// The chat's open tasks (the soonest `limit`), with their revisions and when each last changed.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id))]
pub async fn open_tasks(
    executor: impl PgExecutor<'_>,
    chat_id: ChatId,
    limit: i64,
) -> Result<Vec<FeedTask>, StoreError> {
    let rows = sqlx::query!(
        "select id, chat_id, owner_id, text, due_at, lead_secs, rule, tz, state,
                revision, updated_at
         from tasks where chat_id = $1 and state = $2
         order by due_at, id limit $3",
        chat_id.0,
        TaskState::Open.as_str(),
        limit,
    )
    .fetch_all(executor)
    .await?;
    rows.into_iter()
        .map(|row| {
            let task = Task::try_from(task_row_of!(row))?;
            Ok(FeedTask {
                revision: read(
                    "tasks",
                    row.id,
                    "revision",
                    &row.revision.to_string(),
                    |_| u32::try_from(row.revision).ok(),
                )?,
                task,
                updated_at: row.updated_at,
            })
        })
        .collect()
}
