//! PostgreSQL access: where the server comes from, connection pools and migrations.
//!
//! `DATABASE_URL` wins when it is set. Without it, a build with the `dev` feature (the default)
//! starts a private cluster of its own from the installed PostgreSQL binaries
//! ([`devdb::LocalCluster`]), so a fresh machine needs no set-up; a production build requires it.

use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

/// Where the database is: an explicit URL, or (dev builds) a private cluster in a data folder.
#[derive(Clone, Debug, clap::Args)]
pub struct DatabaseArgs {
    /// PostgreSQL URL. When unset, a dev build starts a private cluster in `--pgdata`.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Data folder of the private cluster (used only when DATABASE_URL is unset).
    #[cfg(feature = "dev")]
    #[arg(long, env = "REMINDBOT_PGDATA", default_value = ".pgdata")]
    pub pgdata: std::path::PathBuf,
    /// Port of the private cluster on 127.0.0.1.
    #[cfg(feature = "dev")]
    #[arg(long, env = "REMINDBOT_PG_PORT", default_value_t = 55432)]
    pub pg_port: u16,
}

impl DatabaseArgs {
    /// The same settings as the command line would give, read from the environment alone.
    pub fn from_env() -> Self {
        let non_empty = |name| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Self {
            database_url: non_empty("DATABASE_URL"),
            #[cfg(feature = "dev")]
            pgdata: non_empty("REMINDBOT_PGDATA")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|| std::path::PathBuf::from(".pgdata")),
            #[cfg(feature = "dev")]
            pg_port: non_empty("REMINDBOT_PG_PORT")
                .and_then(|p| p.parse().ok())
                .unwrap_or(55432),
        }
    }

    /// The URL to connect to: `DATABASE_URL`, or the private cluster's, starting it if needed.
    pub async fn resolve_url(&self) -> Result<String, DbError> {
        match self.database_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => Ok(url.to_owned()),
            _ => self.private_cluster_url().await,
        }
    }

    #[cfg(feature = "dev")]
    async fn private_cluster_url(&self) -> Result<String, DbError> {
        Ok(devdb::LocalCluster::new(&self.pgdata, self.pg_port)
            .ensure_running()
            .await?)
    }

    #[cfg(not(feature = "dev"))]
    async fn private_cluster_url(&self) -> Result<String, DbError> {
        Err(DbError::NoDatabaseUrl)
    }
}

/// What can go wrong while reaching the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The private cluster could not be started.
    #[cfg(feature = "dev")]
    #[error(transparent)]
    Cluster(#[from] devdb::ClusterError),
    /// A production build has no private cluster to fall back on.
    #[cfg(not(feature = "dev"))]
    #[error(
        "DATABASE_URL is not set. Set it to your PostgreSQL, e.g. \
         postgres://remindbot@127.0.0.1:5432/remindbot (the private cluster is dev tooling: \
         a build with the default features starts one)"
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
    /// A scratch database could not be made.
    #[cfg(feature = "dev")]
    #[error(transparent)]
    Scratch(#[from] devdb::DevDbError),
}

/// Opens a pool of at most `max_connections` to `url`.
#[tracing::instrument(skip_all, fields(max_connections))]
pub async fn connect(url: &str, max_connections: u32) -> Result<PgPool, DbError> {
    Ok(PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .connect(url)
        .await?)
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

/// A fresh database on the server at `server_url`, migrated as [`migrate`] does; dropped with
/// the handle (tests and benchmarks).
#[cfg(feature = "dev")]
pub async fn scratch(server_url: &str) -> Result<devdb::ScratchDatabase, DbError> {
    Ok(devdb::ScratchDatabase::create(server_url, &migrators()).await?)
}
