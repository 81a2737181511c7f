//! Where tests and benchmarks find PostgreSQL when told nothing else: `DATABASE_URL`, or else the
//! private cluster that `REMINDBOT_PGDATA` and `REMINDBOT_PG_PORT` describe.

use std::path::{Path, PathBuf};

use crate::{ClusterError, LocalCluster};

/// The private cluster's port when `REMINDBOT_PG_PORT` is unset.
pub const DEFAULT_PORT: u16 = 55432;

impl LocalCluster {
    /// The cluster in `REMINDBOT_PGDATA` (else `default_dir`) on `REMINDBOT_PG_PORT` (else
    /// [`DEFAULT_PORT`]); nothing is started yet.
    pub fn from_env(default_dir: &Path) -> Self {
        let dir =
            non_empty("REMINDBOT_PGDATA").map_or_else(|| default_dir.to_owned(), PathBuf::from);
        let port = non_empty("REMINDBOT_PG_PORT")
            .and_then(|port| port.parse().ok())
            .unwrap_or(DEFAULT_PORT);
        Self::new(&dir, port)
    }
}

/// The URL of the server to use: `DATABASE_URL` when it is set and not blank, else the private
/// cluster of [`LocalCluster::from_env`], started (and initialised on first use) if needed.
pub async fn server_url_from_env(default_dir: &Path) -> Result<String, ClusterError> {
    match non_empty("DATABASE_URL") {
        Some(url) => Ok(url),
        None => LocalCluster::from_env(default_dir).ensure_running().await,
    }
}

/// An environment variable that is set and not blank, trimmed.
fn non_empty(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}
