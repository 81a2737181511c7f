//! The `devdb` binary: starts the private PostgreSQL cluster (initialising it on first use) and
//! prints its URL, for scripts that need a server before anything else builds (the offline query
//! data of `scripts/sqlx-prepare.sh`). The same cluster as `remindbot db start`.

use std::path::PathBuf;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), devdb::ClusterError> {
    let non_empty = |name| {
        std::env::var(name)
            .ok()
            .filter(|v: &String| !v.trim().is_empty())
    };
    let dir = PathBuf::from(non_empty("REMINDBOT_PGDATA").unwrap_or_else(|| ".pgdata".to_owned()));
    let port = non_empty("REMINDBOT_PG_PORT")
        .and_then(|port| port.parse().ok())
        .unwrap_or(55432);
    println!(
        "{}",
        devdb::LocalCluster::new(&dir, port)
            .ensure_running()
            .await?
    );
    Ok(())
}
