//! PostgreSQL for development: a private cluster that the project starts itself from the installed
//! server binaries ([`LocalCluster`], so a fresh machine needs no set-up), and fresh, migrated
//! scratch databases on any server ([`ScratchDatabase`], one per test or benchmark run).
//!
//! Dev tooling only: the product uses it for `remindbot sandbox`, the benchmarks and the tests,
//! and leaves it out of a production build.

pub mod local_cluster;
pub mod scratch;

pub use local_cluster::{ClusterError, LocalCluster};
pub use scratch::ScratchDatabase;

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
