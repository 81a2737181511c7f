//! Shared test set-up: a fresh, migrated database per test on real PostgreSQL.
//!
//! The server is `DATABASE_URL` when set, otherwise the project's private cluster in `.pgdata`
//! (started on first use). Each test gets its own database, dropped when the test ends.

use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use remindbot::db::{DatabaseArgs, ScratchDatabase};
use sqlx::PgPool;
use tokio::sync::OnceCell;

static TRACING: LazyLock<()> = LazyLock::new(|| {
    if std::env::var_os("TEST_LOG").is_some() {
        remindbot::telemetry::init(remindbot::telemetry::LogFormat::Pretty);
    }
});

static SERVER_URL: OnceCell<String> = OnceCell::const_new();

/// The URL of the PostgreSQL server the tests use, starting the private cluster if needed.
pub async fn server_url() -> String {
    LazyLock::force(&TRACING);
    SERVER_URL
        .get_or_init(|| async {
            let mut args = DatabaseArgs::from_env();
            if std::env::var_os("REMINDBOT_PGDATA").is_none() {
                args.pgdata = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".pgdata");
            }
            args.resolve_url()
                .await
                .expect("a PostgreSQL server for the tests")
        })
        .await
        .clone()
}

/// A fresh, migrated database and a pool on it.
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
        let database = ScratchDatabase::create(&server_url().await)
            .await
            .expect("a scratch database");
        let pool = database
            .pool(max_connections)
            .await
            .expect("a pool on the scratch database");
        Self { pool, database }
    }

    /// The database's URL, for a child process.
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
