//! PostgreSQL access: where the server comes from, connection pools and migrations.
//!
//! `DATABASE_URL` wins when it is set. Without it the project starts a private cluster of its own
//! from the installed PostgreSQL binaries ([`local_cluster`]), so a fresh machine needs no set-up.

pub mod local_cluster;
pub mod scratch;

use std::path::PathBuf;
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

pub use local_cluster::{ClusterError, LocalCluster};
pub use scratch::ScratchDatabase;

/// Where the database is: an explicit URL, or a private cluster in a data folder.
#[derive(Clone, Debug, clap::Args)]
pub struct DatabaseArgs {
    /// PostgreSQL URL. When unset, a private cluster is started in `--pgdata`.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Data folder of the private cluster (used only when DATABASE_URL is unset).
    #[arg(long, env = "REMINDBOT_PGDATA", default_value = ".pgdata")]
    pub pgdata: PathBuf,
    /// Port of the private cluster on 127.0.0.1.
    #[arg(long, env = "REMINDBOT_PG_PORT", default_value_t = 55432)]
    pub pg_port: u16,
}

impl DatabaseArgs {
    /// The same settings as the command line would give, read from the environment alone.
    pub fn from_env() -> Self {
        let non_empty = |name| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Self {
            database_url: non_empty("DATABASE_URL"),
            pgdata: non_empty("REMINDBOT_PGDATA")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(".pgdata")),
            pg_port: non_empty("REMINDBOT_PG_PORT")
                .and_then(|p| p.parse().ok())
                .unwrap_or(55432),
        }
    }

    /// The URL to connect to: `DATABASE_URL`, or the private cluster's, starting it if needed.
    pub async fn resolve_url(&self) -> Result<String, DbError> {
        match self.database_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => Ok(url.to_owned()),
            _ => Ok(LocalCluster::new(&self.pgdata, self.pg_port)
                .ensure_running()
                .await?),
        }
    }
}

/// What can go wrong while reaching the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The private cluster could not be started.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The server refused a connection or a statement.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
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

/// Applies the embedded migrations (idempotent; safe when several processes start at once).
#[tracing::instrument(skip_all)]
pub async fn migrate(pool: &PgPool) -> Result<(), DbError> {
    crate::MIGRATOR.run(pool).await?;
    Ok(())
}

/// A small stable hash (FNV-1a), for names derived from paths and migration checksums.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
