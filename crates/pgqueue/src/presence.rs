//! A worker's presence: while a process lives, a connection of its own holds a session advisory
//! lock registered under the process's worker id in `queue_workers`. The reaper
//! ([`crate::reaper::reap_expired`]) tells a present worker (its lock is held) from a missing one
//! (its lock is free: the process died, or its connection broke in a database blip).
//!
//! A missing worker is not taken for dead at once: the reaper notes when it first found it
//! missing and takes its jobs only when it is still missing [`crate::reaper::GRACE`] later, and
//! their leases have expired. The presence checks its connection every second; when the
//! connection broke it takes its lock again on a new one, under the same registration if the
//! reaper has not removed it yet (then nothing was taken from the process, and it records what it
//! did while the database was away), else under a new one.
//!
//! A process that stops gracefully unregisters first: its jobs are then reaped by their leases
//! only, never taken from a worker that is still finishing them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::{Connection, PgConnection, PgPool};
use tokio_util::sync::CancellationToken;

use super::QueueError;

/// How often the presence checks that its connection still holds the lock, and how often it
/// tries to take it again once the connection broke.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// How long a check or a registration may take before the connection counts as broken.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// A registered worker holding its lock; see the module documentation.
pub struct Presence {
    pool: PgPool,
    worker_id: String,
    /// The connection holding the lock; `None` once it broke (it is closed at once, so that a
    /// session the server still keeps ends as soon as the server hears of it).
    conn: Option<PgConnection>,
    present: PresenceStatus,
}

/// Whether a process's presence holds its lock, as its last check found: cleared the moment a
/// check finds the connection broken, set again once the lock is taken again. A runner given it
/// ([`crate::RunnerConfig::presence`]) claims nothing meanwhile. Cheap to clone.
#[derive(Clone, Debug)]
pub struct PresenceStatus(Arc<AtomicBool>);

impl PresenceStatus {
    /// Whether the presence holds its lock.
    pub fn is_present(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    fn set(&self, present: bool) {
        self.0.store(present, Ordering::SeqCst);
    }
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
            conn: Some(conn),
            present: PresenceStatus(Arc::new(AtomicBool::new(true))),
        })
    }

    /// The id the runners of this process write to the jobs they claim.
    pub fn worker_id(&self) -> &str {
        &self.worker_id
    }

    /// Whether the presence holds its lock, for the runners of this process.
    pub fn status(&self) -> PresenceStatus {
        self.present.clone()
    }

    /// Holds the lock until `shutdown`, then unregisters; registers again when the connection
    /// breaks. Dropping the future (the process dying) leaves the lock to go with the connection.
    pub async fn hold(mut self, shutdown: CancellationToken) {
        let mut broken = false;
        loop {
            tokio::select! {
                () = shutdown.cancelled() => break,
                () = tokio::time::sleep(CHECK_EVERY) => {}
            }
            if let Some(conn) = self.conn.as_mut() {
                let check = sqlx::query!("select 1 as one").fetch_one(conn);
                match tokio::time::timeout(CHECK_TIMEOUT, check).await {
                    Ok(Ok(_)) => continue,
                    Ok(Err(error)) if !broken => {
                        tracing::warn!(%error, worker = %self.worker_id, "the presence connection broke; registering again");
                    }
                    Err(_) if !broken => {
                        tracing::warn!(worker = %self.worker_id, "the presence connection stopped answering; registering again");
                    }
                    _ => {}
                }
            }
            broken = true;
            self.present.set(false);
            self.conn = None;
            if let Ok(Ok(conn)) =
                tokio::time::timeout(CHECK_TIMEOUT, lock(&self.pool, &self.worker_id)).await
            {
                tracing::info!(worker = %self.worker_id, "the presence is registered again");
                self.conn = Some(conn);
                self.present.set(true);
                broken = false;
            }
        }
        let worker_id = self.worker_id.clone();
        if let Err(error) = self.unregister().await {
            tracing::warn!(%error, worker = %worker_id, "unregistering the presence failed");
        }
    }

    async fn unregister(mut self) -> Result<(), QueueError> {
        let delete = sqlx::query!(
            "delete from queue_workers where worker_id = $1",
            self.worker_id
        );
        match self.conn.take() {
            Some(mut conn) => {
                delete.execute(&mut conn).await?;
                conn.close().await?;
            }
            None => {
                delete.execute(&self.pool).await?;
            }
        }
        Ok(())
    }
}

/// Takes the lock `key` of this process's own registration back, in `tx`. The session that held
/// it is this process's old presence connection: gone for us, but a server that never heard it
/// close (a network cut) keeps it, and its lock, until TCP tells it, hours later. So an idle
/// session holding it is ended (same role, so no privilege is needed; a reaper pass testing the
/// lock holds it inside a transaction, never idle, and is waited for), and the wait for the lock
/// is bounded on the server too (a client that gives up leaves no backend waiting forever).
async fn take_back(tx: &mut PgConnection, key: i64) -> Result<(), QueueError> {
    let taken = sqlx::query_scalar!(r#"select pg_try_advisory_lock($1) as "taken!""#, key)
        .fetch_one(&mut *tx)
        .await?;
    if taken {
        return Ok(());
    }
    sqlx::query!(
        "select pg_terminate_backend(pid) from pg_locks
         where locktype = 'advisory' and granted and pid <> pg_backend_pid()
           and classid = ($1::bigint >> 32)::oid and objid = ($1::bigint & 4294967295)::oid
           and objsubid = 1
           and database = (select oid from pg_database where datname = current_database())
           and pid in (select pid from pg_stat_activity where state = 'idle')",
        key
    )
    .fetch_all(&mut *tx)
    .await?;
    sqlx::query!("set local lock_timeout = '3s'")
        .execute(&mut *tx)
        .await?;
    sqlx::query!("select pg_advisory_lock($1)", key)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// A new connection holding the lock of `worker_id`'s registration: the registration it had, if
/// the reaper has not removed it (which clears its `missing_since`), else a new one. The lock is
/// taken before the registration commits, so a registration anyone can see is locked until its
/// connection closes; and it is taken before the registration's row is touched, in the order the
/// reaper takes them, so the two never deadlock.
async fn lock(pool: &PgPool, worker_id: &str) -> Result<PgConnection, QueueError> {
    let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
    let mut tx = conn.begin().await?;
    let held = sqlx::query_scalar!(
        "select lock_key from queue_workers where worker_id = $1",
        worker_id
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(key) = held {
        take_back(&mut tx, key).await?;
        let kept = sqlx::query!(
            "update queue_workers set missing_since = null, started_at = now()
             where worker_id = $1 and lock_key = $2",
            worker_id,
            key
        )
        .execute(&mut *tx)
        .await?;
        if kept.rows_affected() == 1 {
            tx.commit().await?;
            return Ok(conn);
        }
        sqlx::query_scalar!("select pg_advisory_unlock($1)", key)
            .fetch_one(&mut *tx)
            .await?;
    }
    let key = sqlx::query_scalar!(
        "insert into queue_workers (worker_id) values ($1)
         on conflict (worker_id) do update
             set lock_key = default, started_at = now(), missing_since = null
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
