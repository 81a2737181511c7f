//! PostgreSQL access: where the server is, connection pools and migrations.
//!
//! The server is `DATABASE_URL` (or `--database-url`), which every command that touches the
//! database requires. The private cluster that the sandbox, the benchmarks and the tests start by
//! themselves is dev tooling (the `devdb` crate) and no part of this binary.

use std::time::Duration;

use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgConnection, PgPool, Row};

/// Where the database is.
#[derive(Clone, Debug, clap::Args)]
pub struct DatabaseArgs {
    /// PostgreSQL URL, e.g. postgres://remindbot@127.0.0.1:5432/remindbot (required).
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
}

impl DatabaseArgs {
    /// The URL to connect to; an error saying to set `DATABASE_URL` when it is unset or blank.
    pub fn url(&self) -> Result<&str, DbError> {
        self.database_url
            .as_deref()
            .map(str::trim)
            .filter(|url| !url.is_empty())
            .ok_or(DbError::NoDatabaseUrl)
    }
}

/// What can go wrong while reaching the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Neither `DATABASE_URL` nor `--database-url` says where the database is.
    #[error(
        "DATABASE_URL is not set: set it (or --database-url) to your PostgreSQL's URL, e.g. \
         postgres://remindbot@127.0.0.1:5432/remindbot"
    )]
    NoDatabaseUrl,
    /// The server refused a connection or a statement.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Moving the jobs of a renamed queue failed.
    #[error(transparent)]
    Queue(#[from] pgqueue::QueueError),
    /// The URL leads to a pooler that hands one server session to several clients.
    #[error(
        "DATABASE_URL leads to a pooler in transaction or statement pooling mode (such as \
         PgBouncer's pool_mode = transaction): two connections got the same server session. \
         remindbot needs a session per connection (its prepared statements, the polling lease, \
         presence, LISTEN). Point DATABASE_URL at PostgreSQL itself or at a pool in session mode \
         (pool_mode = session); see the PgBouncer section of docs/operations.md"
    )]
    TransactionPooling,
}

/// Opens a pool of at most `max_connections` to `url`.
#[tracing::instrument(skip_all, fields(max_connections))]
pub async fn connect(url: &str, max_connections: u32) -> Result<PgPool, DbError> {
    if sessions_shared(url).await? {
        return Err(DbError::TransactionPooling);
    }
    Ok(PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .connect(url)
        .await?)
}

/// Whether two connections to `url`, open at once, are served by one server session: never so
/// with PostgreSQL itself or a pool in session mode, so it is a pooler in transaction (or
/// statement) mode, which hands the session back between transactions (PgBouncer hands the one
/// just released to the next client). Asked without prepared statements, which such a pooler
/// breaks.
pub async fn sessions_shared(url: &str) -> Result<bool, sqlx::Error> {
    let mut first = PgConnection::connect(url).await?;
    let mut second = PgConnection::connect(url).await?;
    let mut pids = Vec::with_capacity(2);
    for conn in [&mut first, &mut second] {
        let row = sqlx::raw_sql("select pg_backend_pid()")
            .fetch_one(&mut *conn)
            .await?;
        pids.push(row.try_get::<i32, _>(0)?);
    }
    first.close().await?;
    second.close().await?;
    Ok(pids[0] == pids[1])
}

/// Applies the migrations in their defined order: the queue's own ([`pgqueue::MIGRATOR`], in
/// `pgqueue_migrations`), then the bot's ([`crate::MIGRATOR`], in `remindbot_migrations`).
/// Idempotent, and safe when several processes start at once (each takes an advisory lock).
#[tracing::instrument(skip_all)]
pub async fn migrate(pool: &PgPool) -> Result<(), DbError> {
    for migrator in migrators() {
        migrator.run(pool).await?;
    }
    // Reminder jobs of a version before the outbox wait in the queue of their time.
    let mut conn = pool.acquire().await?;
    pgqueue::maintenance::rename_queue(
        &mut conn,
        crate::store::outbox::LEGACY_REMINDER_QUEUE,
        crate::store::OUTBOX_QUEUE,
    )
    .await?;
    Ok(())
}

/// The migrators [`migrate`] runs, in order.
pub fn migrators() -> [&'static sqlx::migrate::Migrator; 2] {
    [&pgqueue::MIGRATOR, &crate::MIGRATOR]
}
