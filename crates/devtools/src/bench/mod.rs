//! The app's benchmarks (`remindbot-dev bench …`). Each run prints one `key=value` line that a
//! script can parse; with `--runs N` a last `summary` line gives the medians. Every run gets a
//! fresh database. The queue's own benchmarks (claim, queue, scale, soak) are beside the queue:
//! `cargo bench -p pgqueue --bench queue`.

pub mod delivery;
pub mod egress;
pub mod explain;
pub mod herd;
pub mod intake;
pub mod list;
mod plots;
mod repeat;

use clap::Subcommand;

use crate::database::DevDatabaseArgs;

/// The app's benchmarks.
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Reminder delivery against the simulator: reminders/s within Telegram's limits (with and
    /// without latency), lateness at a steady rate, and the headroom with limits off.
    Delivery(delivery::DeliveryBenchArgs),
    /// The way in: webhook updates/s to the committed inbox and handled end to end.
    Intake(intake::IntakeBenchArgs),
    /// The load of `bench intake --load-process`, in the process that bench starts.
    #[command(hide = true)]
    IntakeLoad(intake::LoadArgs),
    /// The way out: messages/s and the busiest second with 1, 2 and 3 replicas at Telegram's
    /// limits; answers' latency under a backlog of reminders.
    Egress(egress::EgressBenchArgs),
    /// The 09:00 herd: a reminder for every one of `--users` users at the same instant, at a
    /// budget scaled with the simulator's limit: the drain against the physical limit, the order,
    /// starvation, lateness and its "late by" notes.
    Herd(herd::HerdArgs),
    /// The bot on a large database: the `/list` look-ups and `/list` end to end for a user with
    /// hundreds of tasks among a million, and the resident memory of `remindbot run`.
    List(list::ListBenchArgs),
    /// The Bot API simulator's own speed: sendMessage requests per second with limits off.
    Sim(tgsim::bench::SimBenchArgs),
    /// The per-task, admin and metrics look-ups on large tables: their plans and times.
    Explain(explain::ExplainArgs),
}

/// Runs a benchmark against the database `db` points at.
pub async fn run(command: BenchCommand, db: &DevDatabaseArgs) -> anyhow::Result<()> {
    match command {
        BenchCommand::Delivery(args) => delivery::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Intake(args) => intake::run(&args, &db.resolve_url().await?).await,
        BenchCommand::IntakeLoad(args) => intake::run_in_child(&args).await,
        BenchCommand::Egress(args) => egress::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Herd(args) => herd::run(&args, &db.resolve_url().await?).await,
        BenchCommand::List(args) => list::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Sim(args) => tgsim::bench::run(args).await,
        BenchCommand::Explain(args) => explain::run(&args, &db.resolve_url().await?).await,
    }
}
