//! PostgreSQL for development: a private cluster that the project starts itself from the installed
//! server binaries ([`LocalCluster`], so a fresh machine needs no set-up), found through the
//! environment as every test and benchmark does ([`server_url_from_env`]), fresh, migrated
//! scratch databases on any server ([`ScratchDatabase`], one per test or benchmark run), and the
//! medians and percentiles the benchmarks on them report ([`stats`]), and PgBouncer in front of a
//! server ([`Pooler`]) for the tests of the bot behind a connection pooler.
//!
//! Dev tooling only: the sandbox, the benchmarks and the tests use it; the product does not
//! depend on it.

pub mod local_cluster;
pub mod pooler;
pub mod scratch;
pub mod server;
pub mod stats;

pub use local_cluster::{ClusterError, LocalCluster};
pub use pooler::{PoolMode, Pooler, PoolerError};
pub use scratch::ScratchDatabase;
pub use server::{DEFAULT_PORT, server_url_from_env};

/// What can go wrong while preparing a database.
#[derive(Debug, thiserror::Error)]
pub enum DevDbError {
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

/// A small stable hash (FNV-1a), for names derived from paths and migration checksums.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
