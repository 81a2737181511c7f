//! The queue's benchmarks (`harness = false`): `cargo bench -p pgqueue --bench queue -- [OPTIONS]`
//! measures the real queue end to end, `-- claim|scale|soak|enqueue [OPTIONS]` the others. Each run prints
//! one `key=value` line that a script can parse; with `--runs N` a last `summary` line gives the
//! medians. Every run gets a fresh database with the queue's tables alone, on `DATABASE_URL`'s
//! server or else the workspace's private cluster (`.pgdata`, `REMINDBOT_PGDATA`,
//! `REMINDBOT_PG_PORT`), started if needed.

mod claim;
mod enqueue;
mod queue;
mod scale;
mod soak;
mod work;

use std::path::Path;

use clap::{Parser, Subcommand};
use devdb::ScratchDatabase;

/// The queue's benchmarks. Without a subcommand, the real queue end to end: a batch enqueue, then a
/// drain by the runner (lease, work outside the transaction, fenced completion).
#[derive(Debug, Parser)]
#[command(
    name = "cargo bench -p pgqueue --bench queue --",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// The options of the default benchmark, the real queue end to end.
    #[command(flatten)]
    queue: queue::QueueBenchArgs,
    /// Another benchmark.
    #[command(subcommand)]
    bench: Option<Bench>,
}

/// The benchmarks besides the default one.
#[derive(Debug, Subcommand)]
enum Bench {
    /// The seed's experiment: claim strategies compared with the work inside the claiming
    /// transaction, each worker on its own connection.
    Claim(claim::ClaimArgs),
    /// How the claim, the drain and retention cost grow with the backlog: 10k to 10M pending jobs,
    /// and millions of finished ones waiting for retention.
    Scale(scale::ScaleArgs),
    /// A steady rate of jobs enqueued and completed for minutes with retention on: the table's
    /// size, its dead tuples and the process's memory, printed every minute.
    Soak(soak::SoakArgs),
    /// The bulk enqueue against a plain INSERT of the same rows, timed in alternating pairs on
    /// fresh databases.
    Enqueue(enqueue::EnqueueArgs),
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // `cargo bench` adds `--bench` to a benchmark's own arguments; it means nothing here.
    let cli = Cli::parse_from(std::env::args_os().filter(|arg| arg != "--bench"));
    let server_url = devdb::server_url_from_env(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../.pgdata"
    )))
    .await?;
    match cli.bench {
        None => queue::run(&cli.queue, &server_url).await,
        Some(Bench::Claim(args)) => claim::run(&args, &server_url).await,
        Some(Bench::Scale(args)) => scale::run(&args, &server_url).await,
        Some(Bench::Soak(args)) => soak::run(&args, &server_url).await,
        Some(Bench::Enqueue(args)) => enqueue::run(&args, &server_url).await,
    }
}

/// A fresh database on the server at `server_url` with the queue's tables alone; dropped with
/// the handle.
async fn scratch(server_url: &str) -> Result<ScratchDatabase, devdb::DevDbError> {
    ScratchDatabase::create(server_url, &[&pgqueue::MIGRATOR]).await
}
