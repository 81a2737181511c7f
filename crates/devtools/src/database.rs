//! Where the dev tools' database is: `DATABASE_URL` when it is set, else the private cluster
//! ([`devdb::LocalCluster`]) that they start by themselves, so that a fresh machine needs no
//! set-up. (The product itself requires `DATABASE_URL`.)

use std::path::PathBuf;

use devdb::{ClusterError, LocalCluster, ScratchDatabase};

/// Where the database is: an explicit URL, or a private cluster in a data folder.
#[derive(Clone, Debug, clap::Args)]
pub struct DevDatabaseArgs {
    /// PostgreSQL URL. When unset, the private cluster in `--pgdata` (started if needed).
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Data folder of the private cluster (used only when DATABASE_URL is unset).
    #[arg(long, env = "REMINDBOT_PGDATA", default_value = ".pgdata")]
    pub pgdata: PathBuf,
    /// Port of the private cluster on 127.0.0.1.
    #[arg(long, env = "REMINDBOT_PG_PORT", default_value_t = devdb::DEFAULT_PORT)]
    pub pg_port: u16,
}

impl DevDatabaseArgs {
    /// `DATABASE_URL` (or `--database-url`) when it is set and not blank.
    pub fn explicit_url(&self) -> Option<&str> {
        self.database_url
            .as_deref()
            .map(str::trim)
            .filter(|url| !url.is_empty())
    }

    /// The private cluster these settings describe.
    pub fn cluster(&self) -> LocalCluster {
        LocalCluster::new(&self.pgdata, self.pg_port)
    }

    /// The URL to connect to: `DATABASE_URL`, or the private cluster's, starting it if needed.
    pub async fn resolve_url(&self) -> Result<String, ClusterError> {
        match self.explicit_url() {
            Some(url) => Ok(url.to_owned()),
            None => self.cluster().ensure_running().await,
        }
    }
}

/// A fresh database on the server at `server_url`, migrated as `remindbot migrate` does; dropped
/// with the handle (one per benchmark run).
pub async fn scratch(server_url: &str) -> Result<ScratchDatabase, devdb::DevDbError> {
    ScratchDatabase::create(server_url, &remindbot::db::migrators()).await
}
