//! A worker's presence: while a process lives, a connection of its own holds a session advisory
//! lock registered under the process's worker id in `queue_workers`. A process that dies (a
//! crash, SIGKILL, a lost machine) drops that connection and the lock with it, and the next
//! reaper pass ([`crate::reaper::reap_expired`]) returns the jobs it held at once, instead of
//! after their leases, so a chat whose message the dead process was sending is not held up.
//!
//! A process that stops gracefully unregisters first: its jobs are then reaped by their leases
//! only, never taken from a worker that is still finishing them. A presence whose connection
//! breaks while the process lives (a network cut) registers again; meanwhile its jobs may be
//! reaped and run elsewhere, which the fenced results of [`crate::Queue`] make safe to record.

use std::time::Duration;

use sqlx::{Connection, PgConnection, PgPool};
use tokio_util::sync::CancellationToken;

use super::QueueError;

/// How often the presence checks that its connection still holds the lock.
const CHECK_EVERY: Duration = Duration::from_secs(10);

/// A registered worker holding its lock; see the module documentation.
pub struct Presence {
    pool: PgPool,
    worker_id: String,
    conn: PgConnection,
}

impl std::fmt::Debug for Presence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Presence")
            .field("worker_id", &self.worker_id)
            .finish_non_exhaustive()
    }
}

impl Presence {
    /// Registers a worker whose id starts with `name` and is unique (the host, the process and a
    /// random suffix follow), and takes its lock. Give the id to the runners of this process
    /// ([`crate::RunnerConfig::worker_id`]) and keep the presence alive as long as they run
    /// ([`Presence::hold`]).
    #[tracing::instrument(skip(pool))]
    pub async fn register(pool: &PgPool, name: &str) -> Result<Self, QueueError> {
        let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
        let worker_id = format!(
            "{name}-{}-{}-{:08x}",
            host.trim(),
            std::process::id(),
            rand::random::<u32>()
        );
        let conn = lock(pool, &worker_id).await?;
        Ok(Self {
            pool: pool.clone(),
            worker_id,
            conn,
        })
    }

    /// The id the runners of this process write to the jobs they claim.
    pub fn worker_id(&self) -> &str {
        &self.worker_id
    }

    /// Holds the lock until `shutdown`, then unregisters; registers again when the connection
    /// breaks. Dropping the future (the process dying) leaves the lock to go with the connection.
    pub async fn hold(mut self, shutdown: CancellationToken) {
        loop {
            tokio::select! {
                () = shutdown.cancelled() => break,
                () = tokio::time::sleep(CHECK_EVERY) => {}
            }
            if let Err(error) = sqlx::query!("select 1 as one")
                .fetch_one(&mut self.conn)
                .await
            {
                tracing::warn!(%error, worker = %self.worker_id, "the presence connection broke; registering again");
                match lock(&self.pool, &self.worker_id).await {
                    Ok(conn) => self.conn = conn,
                    Err(error) => tracing::warn!(%error, "registering the presence failed"),
                }
            }
        }
        let worker_id = self.worker_id.clone();
        if let Err(error) = self.unregister().await {
            tracing::warn!(%error, worker = %worker_id, "unregistering the presence failed");
        }
    }

    async fn unregister(mut self) -> Result<(), QueueError> {
        sqlx::query!(
            "delete from queue_workers where worker_id = $1",
            self.worker_id
        )
        .execute(&mut self.conn)
        .await?;
        self.conn.close().await?;
        Ok(())
    }
}

/// A new connection holding the lock of `worker_id`'s (new) registration. The lock is taken
/// before the registration commits, so a registration anyone can see is locked until its
/// connection closes.
async fn lock(pool: &PgPool, worker_id: &str) -> Result<PgConnection, QueueError> {
    let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
    let mut tx = conn.begin().await?;
    let key = sqlx::query_scalar!(
        "insert into queue_workers (worker_id) values ($1)
         on conflict (worker_id) do update set lock_key = default, started_at = now()
         returning lock_key",
        worker_id
    )
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query!("select pg_advisory_lock($1)", key)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(conn)
}
