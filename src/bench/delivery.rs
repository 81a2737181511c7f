//! `remindbot bench delivery`: the delivery pipeline (queue, rate limits, teloxide, recording)
//! against the in-process Bot API simulator, on a fresh database per run.
//!
//! Modes: `throughput` (N reminders due at once for N chats; reminders/s, 429 share), `steady`
//! (reminders falling due at a steady rate; lateness p50/p99 from due to sent).

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sqlx::PgPool;

use crate::domain::lang::Lang;
use crate::queue::Queue;
use crate::store::tasks::{self, NewTask, TaskText};
use crate::store::{StoreError, chats};

/// Creates (when new) the chats and one one-off task per `(chat_id, due_at)`, each with its
/// reminder job; negative ids are groups. Returns the task ids in order.
pub async fn seed(
    pool: &PgPool,
    queue: &Queue,
    reminders: &[(i64, DateTime<Utc>)],
) -> Result<Vec<i64>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut ids = Vec::with_capacity(reminders.len());
    for (n, (chat_id, due_at)) in reminders.iter().enumerate() {
        let kind = if *chat_id < 0 { "group" } else { "private" };
        chats::upsert(&mut *tx, *chat_id, kind, Lang::En).await?;
        let new = NewTask {
            chat_id: *chat_id,
            owner_id: chat_id.abs(),
            text: TaskText::parse(&format!("task {n}")).expect("a short text"),
            due_at: *due_at,
            lead: chrono::Duration::zero(),
            recurrence: None,
            tz: Tz::UTC,
        };
        ids.push(tasks::create(&mut tx, queue, &new).await?.id);
    }
    tx.commit().await?;
    Ok(ids)
}

/// Waits until `n` reminders are marked sent, checking every 20 ms; `false` after `timeout`.
pub async fn wait_for_sent(pool: &PgPool, n: i64, timeout: Duration) -> Result<bool, sqlx::Error> {
    let started = Instant::now();
    loop {
        let sent: i64 = sqlx::query_scalar("select count(*) from reminders where sent")
            .fetch_one(pool)
            .await?;
        if sent >= n {
            return Ok(true);
        }
        if started.elapsed() > timeout {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
