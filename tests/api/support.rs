//! Shared test set-up: a fresh, migrated database per test on real PostgreSQL.
//!
//! The server is `DATABASE_URL` when set, otherwise the project's private cluster in `.pgdata`
//! (started on first use). Each test gets its own database, dropped when the test ends.

use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use devdb::ScratchDatabase;
use remindbot::db::DatabaseArgs;
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
        let database = remindbot::db::scratch(&server_url().await)
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

/// Creates chat `chat_id` (if new) and a one-off task of it due a minute ago, with its reminder
/// job, in one transaction; returns the task's id.
pub async fn task_due_now(pool: &PgPool, queue: &pgqueue::Queue, chat_id: i64, text: &str) -> i64 {
    use remindbot::store::tasks::{self, NewTask, TaskText};
    remindbot::store::chats::upsert(pool, chat_id, "private", remindbot::domain::lang::Lang::En)
        .await
        .expect("the chat is stored");
    let task = NewTask {
        chat_id,
        owner_id: chat_id,
        text: TaskText::parse(text).expect("a valid task text"),
        due_at: chrono::Utc::now() - chrono::Duration::minutes(1),
        lead: chrono::Duration::zero(),
        recurrence: None,
        tz: chrono_tz::Tz::Asia__Tashkent,
    };
    let mut tx = pool.begin().await.expect("a transaction");
    let task = tasks::create(&mut tx, queue, &task)
        .await
        .expect("the task is created");
    tx.commit().await.expect("the task commits");
    task.id
}
