//! The inbox: every update from Telegram is written here, with the queue job that will handle it,
//! and committed before Telegram is told it arrived (the next getUpdates offset confirms it, or
//! the webhook request is answered). An update received twice is stored once. The jobs of one
//! chat's updates share a serial key, so they are handled one at a time, oldest first.

use chrono::{DateTime, Utc};
use pgqueue::{JobKind, NewJob, Queue, QueueConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::StoreError;
use crate::domain::ids::ChatId;

/// The queue whose jobs handle updates.
pub const UPDATE_QUEUE: &str = "updates";

/// The kind of an update that could not be read or stored as it arrived.
pub const UNREADABLE: &str = "unreadable";

/// What an update's job carries: the inbox row it handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateJob {
    /// The `updates` row.
    pub inbox_id: i64,
}

impl JobKind for UpdateJob {
    const QUEUE: &'static str = UPDATE_QUEUE;
}

/// The update queue with `config` (its name forced to [`UPDATE_QUEUE`]).
pub fn update_queue(pool: PgPool, config: QueueConfig) -> Queue {
    Queue::new(
        pool,
        QueueConfig {
            name: UPDATE_QUEUE.to_owned(),
            ..config
        },
    )
}

/// An update as it arrived, ready to store.
#[derive(Clone, Debug, PartialEq)]
pub struct Incoming {
    /// Telegram's id of it; `None` for a body that is no update.
    pub update_id: Option<i64>,
    /// The chat it comes from, if any.
    pub chat_id: Option<ChatId>,
    /// `message`, `callback_query`, … (its field name), or `unreadable`.
    pub kind: String,
    /// The update as Telegram sent it.
    pub raw: Option<Value>,
    /// What arrived, when it was no update.
    pub body: Option<String>,
}

impl Incoming {
    /// An update as JSON (a webhook's body, or one of getUpdates' results): its id, chat and kind
    /// read from it, the rest kept as sent.
    /// JSON without a numeric `update_id` is kept as an unreadable body.
    pub fn from_json(raw: Value) -> Self {
        let Some(update_id) = raw.get("update_id").and_then(Value::as_i64) else {
            return Self::unreadable(raw.to_string());
        };
        // From a reference, as the handler reads it: teloxide's types borrow strings, which
        // an owned `Value` cannot lend (`from_value` fails on every message).
        let parsed = teloxide::types::Update::deserialize(&raw).ok();
        let kind = raw
            .as_object()
            .and_then(|fields| fields.keys().find(|key| *key != "update_id").cloned())
            .unwrap_or_else(|| "empty".to_owned());
        Self {
            update_id: Some(update_id),
            chat_id: parsed
                .as_ref()
                .and_then(|u| u.chat())
                .map(|chat| ChatId(chat.id.0)),
            kind,
            raw: Some(raw),
            body: None,
        }
    }

    /// A body that is no update (not JSON, or JSON without an `update_id`).
    pub fn unreadable(body: String) -> Self {
        Self {
            update_id: None,
            chat_id: None,
            kind: UNREADABLE.to_owned(),
            raw: None,
            body: Some(body),
        }
    }

    /// What is kept of it when PostgreSQL refuses to store it as it is (jsonb holds no U+0000,
    /// text no NUL byte): its id and chat, and what arrived as text with every NUL escaped as
    /// `\u0000`, filed as unreadable for admins to see.
    pub fn unstorable(&self) -> Self {
        let sent = match (&self.raw, &self.body) {
            // serde_json writes U+0000 as the escape `\u0000`.
            (Some(raw), _) => raw.to_string(),
            (None, body) => body.as_deref().unwrap_or_default().replace('\0', "\\u0000"),
        };
        Self {
            update_id: self.update_id,
            chat_id: self.chat_id,
            kind: UNREADABLE.to_owned(),
            raw: None,
            body: Some(sent),
        }
    }

    /// The serial key of its job: updates of one chat are handled in order.
    fn serial_key(&self, inbox_id: i64) -> String {
        match self.chat_id {
            Some(chat_id) => format!("chat:{chat_id}"),
            None => format!("update:{inbox_id}"),
        }
    }
}

/// Writes `updates` to the inbox with their jobs and returns how many were new (an `update_id`
/// stored before is skipped). When this returns, they are committed: only then may Telegram be
/// told they arrived. They go in one transaction; when PostgreSQL refuses a value of one (a data
/// exception, such as U+0000 in jsonb), each is stored on its own and the refused ones as
/// [`Incoming::unstorable`], so no update can keep the others (or itself) out.
#[tracing::instrument(skip_all, fields(updates = updates.len()))]
pub async fn receive(
    pool: &PgPool,
    queue: &Queue,
    updates: &[Incoming],
) -> Result<usize, StoreError> {
    match receive_together(pool, queue, updates).await {
        Err(error) if error.is_refused_value() => {
            tracing::warn!(%error, "an update cannot be stored as it is; storing one at a time");
        }
        stored => return stored,
    }
    let mut new = 0;
    for update in updates {
        new += match receive_together(pool, queue, std::slice::from_ref(update)).await {
            Err(error) if error.is_refused_value() => {
                tracing::warn!(%error, update_id = update.update_id, "update stored as unreadable");
                receive_together(pool, queue, &[update.unstorable()]).await?
            }
            stored => stored?,
        };
    }
    Ok(new)
}

/// Writes `updates` with their jobs in one transaction; how many were new.
async fn receive_together(
    pool: &PgPool,
    queue: &Queue,
    updates: &[Incoming],
) -> Result<usize, StoreError> {
    let mut tx = pool.begin().await?;
    let mut new = 0;
    for update in updates {
        if store(&mut tx, queue, update).await? {
            new += 1;
        }
    }
    tx.commit().await?;
    Ok(new)
}

/// Stores one update and its job; false when its `update_id` was stored before.
async fn store(
    conn: &mut PgConnection,
    queue: &Queue,
    update: &Incoming,
) -> Result<bool, StoreError> {
    let inbox_id = sqlx::query_scalar!(
        "insert into updates (update_id, chat_id, kind, raw, body) values ($1, $2, $3, $4, $5)
         on conflict (update_id) do nothing
         returning id",
        update.update_id,
        update.chat_id.map(|id| id.0),
        update.kind,
        update.raw,
        update.body,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(inbox_id) = inbox_id else {
        return Ok(false);
    };
    let job = NewJob::of(&UpdateJob { inbox_id }).serial_key(update.serial_key(inbox_id));
    let job_id = queue.enqueue(&mut *conn, job).await?;
    sqlx::query!(
        "update updates set job_id = $2 where id = $1",
        inbox_id,
        job_id.map(|id| id.0),
    )
    .execute(conn)
    .await?;
    Ok(true)
}

/// An update as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The inbox row.
    pub id: i64,
    /// The update as Telegram sent it, `None` for a body that is no update.
    pub raw: Option<Value>,
    /// What arrived, when it was no update.
    pub body: Option<String>,
    /// When it arrived.
    pub received_at: DateTime<Utc>,
    /// Whether it was handled already.
    pub handled: bool,
}

impl Stored {
    /// How long ago it arrived (zero if the clocks disagree).
    pub fn age(&self) -> std::time::Duration {
        (Utc::now() - self.received_at).to_std().unwrap_or_default()
    }
}

/// Reads inbox row `id`.
#[tracing::instrument(skip_all, fields(inbox_id = id))]
pub async fn load<'e>(
    executor: impl PgExecutor<'e>,
    id: i64,
) -> Result<Option<Stored>, StoreError> {
    Ok(sqlx::query_as!(
        Stored,
        r#"select id, raw, body, received_at, handled_at is not null as "handled!"
           from updates where id = $1"#,
        id,
    )
    .fetch_optional(executor)
    .await?)
}

/// The update of chat `chat_id` stored right after inbox row `after`, as Telegram sent it (`None`
/// when none has arrived yet, or it was no readable update). The chat's updates are handled in
/// this order, so while row `after` is being handled, this one is still waiting.
#[tracing::instrument(skip_all, fields(chat_id, after))]
pub async fn next_in_chat<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    after: i64,
) -> Result<Option<Value>, StoreError> {
    Ok(sqlx::query_scalar!(
        "select raw from updates where chat_id = $1 and id > $2 order by id limit 1",
        chat_id.0,
        after,
    )
    .fetch_optional(executor)
    .await?
    .flatten())
}

/// Marks inbox row `id` handled, in the transaction that holds the update's effects.
pub async fn mark_handled(conn: &mut PgConnection, id: i64) -> Result<(), StoreError> {
    sqlx::query!("update updates set handled_at = now() where id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

/// What an admin sees of the updates whose jobs are `job_ids`: the job, and what the user sent
/// (a message's text, a button's data, or the unreadable body).
#[tracing::instrument(skip_all, fields(jobs = job_ids.len()))]
pub async fn sent_by_users<'e>(
    executor: impl PgExecutor<'e>,
    job_ids: &[i64],
) -> Result<Vec<(i64, Option<i64>, String)>, StoreError> {
    let rows = sqlx::query!(
        r#"select job_id as "job_id!", chat_id,
                  coalesce(raw #>> '{message,text}', raw #>> '{callback_query,data}',
                           body, kind) as "sent!"
           from updates where job_id = any($1)"#,
        job_ids,
    )
    .fetch_all(executor)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.job_id, row.chat_id, row.sent))
        .collect())
}
