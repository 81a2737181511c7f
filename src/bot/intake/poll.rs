//! Long polling by one replica at a time. The replica that holds the polling lease (a PostgreSQL
//! advisory lock, held by a connection of its own) calls getUpdates; the others try for the lease
//! every [`LEASE_RETRY`] and take over within that time of the holder dying (its connection closes
//! and the lock with it). Telegram therefore never sees two pollers, and never answers 409.
//!
//! Updates are written to the inbox and committed before the next getUpdates confirms them with
//! its offset: a crash at any point loses nothing, and what was fetched twice is stored once. A
//! new holder starts without an offset, so it fetches whatever its predecessor had not confirmed.

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use sqlx::{Connection, PgConnection, PgPool};
use teloxide::Bot;
use teloxide::prelude::Requester;
use tokio_util::sync::CancellationToken;

use super::ALLOWED_UPDATES;
use crate::bot::BotError;
use crate::bot::metrics::{self, Via};
use crate::store::StoreError;
use crate::store::inbox::{self, Incoming};
use pgqueue::Queue;

/// How often a replica without the lease tries for it.
pub const LEASE_RETRY: Duration = Duration::from_secs(1);
/// The long-poll timeout of getUpdates, in seconds.
const POLL_TIMEOUT_SECS: u32 = 10;
/// The most a failing getUpdates (or a database that cannot store) is retried apart.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// The namespace of the lock's key (the bot's id follows): "RB" in the high bytes.
const LOCK_NAMESPACE: i64 = 0x5242 << 48;

/// The poller of one replica.
pub struct Poller {
    bot: Bot,
    pool: PgPool,
    queue: Queue,
    lock_key: i64,
}

impl std::fmt::Debug for Poller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Poller")
            .field("lock_key", &self.lock_key)
            .finish_non_exhaustive()
    }
}

/// getUpdates' answer, as the Bot API spells it.
#[derive(Debug, Deserialize)]
struct Answer {
    ok: bool,
    #[serde(default)]
    result: Vec<Value>,
    error_code: Option<u16>,
    description: Option<String>,
    parameters: Option<Parameters>,
}

#[derive(Debug, Deserialize)]
struct Parameters {
    retry_after: Option<u64>,
}

/// Why a getUpdates failed.
#[derive(Debug, thiserror::Error)]
enum PollError {
    /// The request did not get an answer (shown without its URL, which holds the token).
    #[error("getUpdates failed: {0}")]
    Network(String),
    /// Telegram answered with an error.
    #[error("getUpdates answered {code}: {description}")]
    Api {
        code: u16,
        description: String,
        retry_after: Option<u64>,
    },
}

impl Poller {
    /// A poller for `bot` (whose id keys the lease) writing to the inbox of `queue`.
    pub fn new(bot: Bot, bot_id: u64, pool: PgPool, queue: Queue) -> Self {
        Self {
            bot,
            pool,
            queue,
            lock_key: LOCK_NAMESPACE | (bot_id as i64 & 0xFFFF_FFFF_FFFF),
        }
    }

    /// Takes the lease when it can and polls while it holds it, until `shutdown`.
    pub async fn run(&self, shutdown: CancellationToken) {
        metrics::polling_lease(false);
        loop {
            let Some(mut lease) = self.lease(&shutdown).await else {
                return;
            };
            tracing::info!("this replica holds the polling lease");
            metrics::polling_lease(true);
            if let Err(error) = self.bot.delete_webhook().await {
                tracing::warn!(error = %BotError::from(error), "removing a webhook failed");
            }
            self.poll(&mut lease, &shutdown).await;
            metrics::polling_lease(false);
            if shutdown.is_cancelled() {
                return;
            }
            tracing::warn!("the polling lease was lost; waiting to take it again");
        }
    }

    /// Waits for the lease: a connection of its own holding the advisory lock.
    async fn lease(&self, shutdown: &CancellationToken) -> Option<PgConnection> {
        loop {
            match self.try_lease().await {
                Ok(Some(conn)) => return Some(conn),
                Ok(None) => {}
                Err(error) => tracing::warn!(%error, "trying for the polling lease failed"),
            }
            tokio::select! {
                () = shutdown.cancelled() => return None,
                () = tokio::time::sleep(LEASE_RETRY) => {}
            }
        }
    }

    async fn try_lease(&self) -> Result<Option<PgConnection>, sqlx::Error> {
        let mut conn = PgConnection::connect_with(&self.pool.connect_options()).await?;
        let locked = sqlx::query_scalar!(
            r#"select pg_try_advisory_lock($1) as "locked!""#,
            self.lock_key
        )
        .fetch_one(&mut conn)
        .await?;
        Ok(locked.then_some(conn))
    }

    /// Polls while `lease` holds the lock (checked before every getUpdates).
    async fn poll(&self, lease: &mut PgConnection, shutdown: &CancellationToken) {
        let mut offset: Option<i64> = None;
        let mut backoff = Duration::from_secs(1);
        loop {
            if let Err(error) = still_held(lease).await {
                tracing::warn!(%error, "the lease's connection failed");
                return;
            }
            let fetched = tokio::select! {
                () = shutdown.cancelled() => return,
                fetched = self.get_updates(offset) => fetched,
            };
            let updates = match fetched {
                Ok(updates) => updates,
                Err(error) => {
                    let pause = match &error {
                        PollError::Api {
                            retry_after: Some(seconds),
                            ..
                        } => Duration::from_secs(*seconds),
                        _ => backoff,
                    };
                    tracing::warn!(%error, ?pause, "polling Telegram failed");
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    if !pause_or_stop(pause, shutdown).await {
                        return;
                    }
                    continue;
                }
            };
            backoff = Duration::from_secs(1);
            if updates.is_empty() {
                continue;
            }
            let next = updates
                .iter()
                .filter_map(|update| update.update_id)
                .max()
                .map(|id| id + 1);
            if !self.store(&updates, shutdown).await {
                return;
            }
            offset = next.or(offset);
        }
    }

    /// Writes `updates` to the inbox, retrying while the database fails (the offset waits, so
    /// Telegram keeps them); false on shutdown.
    async fn store(&self, updates: &[Incoming], shutdown: &CancellationToken) -> bool {
        let mut pause = Duration::from_millis(200);
        loop {
            match self.receive(updates).await {
                Ok(new) => {
                    metrics::updates_received(Via::Polling, new);
                    return true;
                }
                Err(error) => {
                    tracing::warn!(%error, ?pause, "storing updates failed; retrying");
                    if !pause_or_stop(pause, shutdown).await {
                        return false;
                    }
                    pause = (pause * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    /// Writes a page of updates to the inbox in one statement; how many were new.
    async fn receive(&self, updates: &[Incoming]) -> Result<usize, StoreError> {
        let mut conn = self.pool.acquire().await?;
        inbox::receive(&mut conn, &self.queue, updates).await
    }

    /// One getUpdates, its results as raw JSON.
    #[tracing::instrument(skip_all, fields(offset))]
    async fn get_updates(&self, offset: Option<i64>) -> Result<Vec<Incoming>, PollError> {
        let url = self
            .bot
            .api_url()
            // "./": a token ("123:abc") would otherwise read as a URL scheme.
            .join(&format!("./bot{}/getUpdates", self.bot.token()))
            .map_err(|error| PollError::Network(error.to_string()))?;
        let body = serde_json::json!({
            "offset": offset,
            "timeout": POLL_TIMEOUT_SECS,
            "allowed_updates": ALLOWED_UPDATES,
        });
        let response = self
            .bot
            .client()
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .timeout(Duration::from_secs(u64::from(POLL_TIMEOUT_SECS) + 10))
            .send()
            .await
            .map_err(|error| PollError::Network(error.without_url().to_string()))?;
        let bytes = response
            .bytes()
            .await
            .map_err(|error| PollError::Network(error.without_url().to_string()))?;
        let answer: Answer = serde_json::from_slice(&bytes).map_err(|error| {
            PollError::Network(format!("getUpdates answered something unreadable: {error}"))
        })?;
        if !answer.ok {
            return Err(PollError::Api {
                code: answer.error_code.unwrap_or(0),
                description: answer.description.unwrap_or_default(),
                retry_after: answer.parameters.and_then(|p| p.retry_after),
            });
        }
        Ok(answer.result.into_iter().map(Incoming::from_json).collect())
    }
}

/// Checks that the lease's connection is alive (and so holds the lock).
async fn still_held(lease: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query_scalar!(r#"select 1 as "one!""#)
        .fetch_one(lease)
        .await
        .map(|_| ())
}

/// Sleeps `pause`; false when `shutdown` fired first.
async fn pause_or_stop(pause: Duration, shutdown: &CancellationToken) -> bool {
    tokio::select! {
        () = shutdown.cancelled() => false,
        () = tokio::time::sleep(pause) => true,
    }
}
