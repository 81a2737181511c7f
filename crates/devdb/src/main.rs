//! The `devdb` binary: starts the private PostgreSQL cluster (initialising it on first use) and
//! prints its URL, for scripts that need a server before anything else builds (the offline query
//! data of `scripts/sqlx-prepare.sh`). The same cluster as `remindbot-dev db start`.

use std::path::Path;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), devdb::ClusterError> {
    let url = devdb::LocalCluster::from_env(Path::new(".pgdata"))
        .ensure_running()
        .await?;
    println!("{url}");
    Ok(())
}
