//! Group commit of the webhook's updates. Telegram opens up to `max_connections` requests at once,
//! one update each; committing each in a transaction of its own costs a commit (and a wait for
//! the WAL to reach the disk) per update, and a pooled connection per request in flight. Instead
//! every request hands its update to one committer, which writes whatever has arrived in a
//! single statement ([`inbox::receive`]: the rows and their jobs, one round trip and one commit)
//! on a connection of its own: while that commit is in flight the next requests queue up, and
//! they go together in the next one. A request is answered once the commit that holds its own
//! update has returned, so an update Telegram was told about is committed, as before. Within one
//! group, updates are written in `update_id` order (Telegram's order), so a chat's updates that
//! arrive together are handled in that order.
//!
//! The committer runs on a thread of its own (a single-threaded runtime) with a database
//! connection of its own, not among the update workers' tasks: on the shared runtime a request's
//! commit waited its turn behind the handling, which is most of what a webhook request took when
//! the machine was busy (docs/benchmarks.md, "The committer on a thread of its own"). The operating
//! system schedules the thread beside them instead.

use std::sync::Arc;
use std::time::Duration;

use pgqueue::Queue;
use sqlx::PgPool;
use sqlx::Postgres;
use sqlx::pool::PoolConnection;
use sqlx::postgres::PgPoolOptions;
use tokio::sync::{mpsc, oneshot};

use crate::bot::metrics::{self, Via};
use crate::store::StoreError;
use crate::store::inbox::{self, Incoming};

/// The most updates written in one statement; more wait for the next.
const MAX_GROUP: usize = 512;
/// Requests waiting for a commit, beyond which a request waits to queue.
const QUEUED: usize = 4096;

/// Why an update was not committed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CommitError {
    /// The database refused or failed the group's transaction (or no connection was had).
    #[error("storing the updates failed: {0}")]
    Store(Arc<StoreError>),
    /// The committer is gone (the process is stopping).
    #[error("the inbox's committer has stopped")]
    Stopped,
}

/// A request's update and where to tell it that it is committed.
struct Waiting {
    update: Incoming,
    committed: oneshot::Sender<Result<(), CommitError>>,
}

/// The handle requests commit through; cheap to clone. The committer stops when the last handle
/// is dropped.
#[derive(Clone, Debug)]
pub struct GroupCommit {
    sender: mpsc::Sender<Waiting>,
}

impl GroupCommit {
    /// Starts the committer writing to the inbox of `queue`, on a thread of its own and through a
    /// connection of its own to `pool`'s database (opened at the first update, reopened after a
    /// failure). The thread ends when the last handle is dropped. An error: no thread could be
    /// started.
    pub fn start(pool: &PgPool, queue: Queue) -> std::io::Result<Self> {
        let (sender, receiver) = mpsc::channel(QUEUED);
        let options = pool.connect_options().as_ref().clone();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        std::thread::Builder::new()
            .name("inbox-committer".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let pool = PgPoolOptions::new()
                        .max_connections(1)
                        .acquire_timeout(Duration::from_secs(10))
                        .connect_lazy_with(options);
                    commit_groups(pool.clone(), queue, receiver).await;
                    pool.close().await;
                });
            })?;
        Ok(Self { sender })
    }

    /// Commits `update` to the inbox with those that arrive meanwhile; returns once it is
    /// committed.
    pub async fn commit(&self, update: Incoming) -> Result<(), CommitError> {
        let (committed, answer) = oneshot::channel();
        self.sender
            .send(Waiting { update, committed })
            .await
            .map_err(|_| CommitError::Stopped)?;
        answer.await.map_err(|_| CommitError::Stopped)?
    }
}

/// The committer: takes every request waiting, commits their updates together, answers them;
/// until every handle is gone.
async fn commit_groups(pool: PgPool, queue: Queue, mut receiver: mpsc::Receiver<Waiting>) {
    let mut conn: Option<PoolConnection<Postgres>> = None;
    let mut group = Vec::with_capacity(MAX_GROUP);
    while receiver.recv_many(&mut group, MAX_GROUP).await > 0 {
        // A request whose client gave up (its timeout) still commits: Telegram sends it again
        // and finds it stored.
        group.sort_by_key(|waiting| waiting.update.update_id.unwrap_or(i64::MAX));
        let (updates, waiters): (Vec<Incoming>, Vec<_>) = group
            .drain(..)
            .map(|waiting| (waiting.update, waiting.committed))
            .unzip();
        let answer = match commit_group(&pool, &queue, &mut conn, &updates).await {
            Ok(new) => {
                metrics::updates_received(Via::Webhook, new);
                Ok(())
            }
            Err(error) => {
                tracing::warn!(%error, updates = updates.len(), "committing webhook updates failed");
                // Its state is unknown: the next group takes a fresh one.
                conn = None;
                Err(CommitError::Store(Arc::new(error)))
            }
        };
        for committed in waiters {
            // A request that stopped waiting has nobody to tell.
            let _ = committed.send(answer.clone());
        }
    }
}

/// Commits `updates` on the committer's connection (taking one from `pool` first if it has none);
/// how many were new.
#[tracing::instrument(skip_all, fields(updates = updates.len()))]
async fn commit_group(
    pool: &PgPool,
    queue: &Queue,
    conn: &mut Option<PoolConnection<Postgres>>,
    updates: &[Incoming],
) -> Result<usize, StoreError> {
    let conn = match conn {
        Some(conn) => conn,
        None => conn.insert(pool.acquire().await?),
    };
    inbox::receive(conn, queue, updates).await
}
