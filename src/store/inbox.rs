//! The inbox: every update from Telegram is written here, with the queue job that will handle it,
//! and committed before Telegram is told it arrived (the next getUpdates offset confirms it, or
//! the webhook request is answered). An update received twice is stored once. The jobs of one
//! chat's updates share a serial key, so they are handled one at a time, oldest first.

use chrono::{DateTime, Utc};
use pgqueue::{JobKind, Queue, QueueConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::types::Json;
use sqlx::{PgConnection, PgExecutor, PgPool};

use super::StoreError;
use crate::domain::ids::ChatId;

/// The queue whose jobs handle updates.
pub const UPDATE_QUEUE: &str = "updates";

/// The kind of an update that could not be read or stored as it arrived.
pub const UNREADABLE: &str = "unreadable";

/// What an update's job carries: the inbox row it handles. The inbox writes it in SQL, as
/// `{"inbox_id": …}`, in the statement that stores the updates (`receive_together`): a field
/// renamed or added here must be written there too (the intake tests, which handle the jobs it
/// writes, fail otherwise).
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
}

/// Writes `updates` to the inbox with their jobs and returns how many were new (an `update_id`
/// stored before, or twice in `updates`, is stored once). When this returns, they are committed:
/// only then may Telegram be told they arrived. They go in one statement whatever their number
/// (the rows with their jobs, committed on its own), so a page of getUpdates or a group of webhook
/// requests costs one round trip and one commit; when PostgreSQL refuses a value of one (a data
/// exception, such as U+0000 in jsonb), each is stored on its own and the refused ones as
/// [`Incoming::unstorable`], so no update can keep the others (or itself) out. Within one call,
/// the jobs of one chat are queued in the order of `updates`.
#[tracing::instrument(skip_all, fields(updates = updates.len()))]
pub async fn receive(
    conn: &mut PgConnection,
    queue: &Queue,
    updates: &[Incoming],
) -> Result<usize, StoreError> {
    match receive_together(conn, queue, updates).await {
        Err(error) if error.is_refused_value() => {
            tracing::warn!(%error, "an update cannot be stored as it is; storing one at a time");
        }
        stored => return stored,
    }
    let mut new = 0;
    for update in updates {
        new += match receive_together(conn, queue, std::slice::from_ref(update)).await {
            Err(error) if error.is_refused_value() => {
                tracing::warn!(%error, update_id = update.update_id, "update stored as unreadable");
                receive_together(conn, queue, &[update.unstorable()]).await?
            }
            stored => stored?,
        };
    }
    Ok(new)
}

/// Writes `updates` with their jobs in one statement; how many were new.
///
/// A row and its job point at each other (the row's `job_id`, the job's [`UpdateJob`]), so the
/// row's insert reserves its job's id from the queue (`reserve_job_id()`) and the queue's
/// `enqueue_reserved_jobs` writes the jobs of the rows inserted under those ids: the rows and
/// their jobs commit together or not at all, in one round trip with no explicit transaction, and
/// the queue's table is written by the queue's own function. The ids are reserved in the order of
/// `updates`, so one chat's jobs run in that order; an `update_id` stored before is skipped with
/// its reserved id left unused.
async fn receive_together(
    conn: &mut PgConnection,
    queue: &Queue,
    updates: &[Incoming],
) -> Result<usize, StoreError> {
    let mut seen = std::collections::HashSet::new();
    let updates: Vec<&Incoming> = updates
        .iter()
        .filter(|update| update.update_id.is_none_or(|id| seen.insert(id)))
        .collect();
    if updates.is_empty() {
        return Ok(0);
    }
    let update_ids: Vec<Option<i64>> = updates.iter().map(|u| u.update_id).collect();
    let chat_ids: Vec<Option<i64>> = updates.iter().map(|u| u.chat_id.map(|id| id.0)).collect();
    let kinds: Vec<&str> = updates.iter().map(|u| u.kind.as_str()).collect();
    // The updates travel as one JSON array (PostgreSQL parses it once); JSON null stands for
    // none, which no update is.
    let raws = Json(updates.iter().map(|u| &u.raw).collect::<Vec<_>>());
    let bodies: Vec<Option<&str>> = updates.iter().map(|u| u.body.as_deref()).collect();
    // `rows from` yields the arrays' rows in order and the insert takes them as they come, so the
    // job ids are reserved in the order given. A job's payload is `UpdateJob` as serde writes it,
    // its serial key `chat:<id>` (an update without a chat: `update:<inbox id>`).
    let new = sqlx::query_scalar!(
        r#"with stored as (
               insert into updates (update_id, chat_id, kind, raw, body, job_id)
               select update_id, chat_id, kind, nullif(raw, 'null'::jsonb), body,
                      reserve_job_id()
               from rows from (unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::text[]),
                               jsonb_array_elements($4), unnest($5::text[]))
                   as u(update_id, chat_id, kind, raw, body)
               on conflict (update_id) do nothing
               returning id, chat_id, job_id)
           select enqueue_reserved_jobs(
                      $6,
                      array_agg(job_id order by job_id),
                      jsonb_agg(jsonb_build_object('inbox_id', id) order by job_id),
                      array_agg(coalesce('chat:' || chat_id, 'update:' || id) order by job_id),
                      $7) as "new!"
           from stored"#,
        &update_ids as &[Option<i64>],
        &chat_ids as &[Option<i64>],
        &kinds as &[&str],
        raws as _,
        &bodies as &[Option<&str>],
        queue.name(),
        queue.config().max_attempts,
    )
    .fetch_one(conn)
    .await?;
    Ok(usize::try_from(new).unwrap_or_default())
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

/// Reads the inbox rows `ids` in one statement (those that are gone are left out), in no
/// particular order.
#[tracing::instrument(skip_all, fields(rows = ids.len()))]
pub async fn load_many<'e>(
    executor: impl PgExecutor<'e>,
    ids: &[i64],
) -> Result<Vec<Stored>, StoreError> {
    Ok(sqlx::query_as!(
        Stored,
        r#"select id, raw, body, received_at, handled_at is not null as "handled!"
           from updates where id = any($1)"#,
        ids,
    )
    .fetch_all(executor)
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

/// Marks the inbox rows `ids` handled in one statement, in the transaction that holds their
/// updates' effects.
#[tracing::instrument(skip_all, fields(rows = ids.len()))]
pub async fn mark_many_handled(conn: &mut PgConnection, ids: &[i64]) -> Result<(), StoreError> {
    sqlx::query!(
        "update updates set handled_at = now() where id = any($1)",
        ids
    )
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
