//! Shared test set-up: a fresh database per test, migrated with the queue's migrations alone, on
//! real PostgreSQL.
//!
//! The server is `DATABASE_URL` when set, otherwise the workspace's private cluster in `.pgdata`
//! (or `REMINDBOT_PGDATA`) on `REMINDBOT_PG_PORT` (55432), started on first use, as the product's
//! tests do. Each test gets its own database, dropped when the test ends.

use std::path::Path;
use std::time::{Duration, Instant};

use devdb::ScratchDatabase;
use sqlx::PgPool;
use tokio::sync::OnceCell;

static SERVER_URL: OnceCell<String> = OnceCell::const_new();

/// The URL of the PostgreSQL server the tests use, starting the private cluster if needed.
pub async fn server_url() -> String {
    SERVER_URL
        .get_or_init(|| async {
            let workspace_pgdata = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.pgdata"));
            devdb::server_url_from_env(workspace_pgdata)
                .await
                .expect("a PostgreSQL server for the tests")
        })
        .await
        .clone()
}

/// A fresh database with the queue's tables and a pool on it.
pub struct TestDb {
    /// A pool on the database.
    pub pool: PgPool,
    /// Dropping it drops the database.
    database: ScratchDatabase,
}

impl TestDb {
    /// A new database with a pool of 10 connections.
    pub async fn new() -> Self {
        Self::with_connections(10).await
    }

    /// A new database with a pool of `max_connections`.
    pub async fn with_connections(max_connections: u32) -> Self {
        let database = ScratchDatabase::create(&server_url().await, &[&pgqueue::MIGRATOR])
            .await
            .expect("a scratch database");
        let pool = database
            .pool(max_connections)
            .await
            .expect("a pool on the scratch database");
        Self { pool, database }
    }

    /// The database's URL, for a pool of a test's own.
    pub fn url(&self) -> &str {
        self.database.url()
    }
}

/// Waits until `condition` holds, checking every 10 ms; panics with `what` after `timeout`.
pub async fn eventually<F, Fut>(timeout: Duration, what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !condition().await {
        assert!(started.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
