//! Benchmark commands (`remindbot bench …`). Each run prints one `key=value` line that a script can
//! parse; with `--runs N` a last `summary` line gives the medians. Every run gets a fresh database.

pub mod claim;
pub mod delivery;
pub mod egress;
pub mod explain;
pub mod intake;
pub mod queue;
pub mod work;

use clap::Subcommand;

use crate::db::DatabaseArgs;

/// The benchmarks.
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// The seed's experiment: claim strategies compared with the work inside the claiming
    /// transaction, each worker on its own connection.
    Claim(claim::ClaimArgs),
    /// The real queue: batch enqueue, then a drain by the runner (lease, work outside the
    /// transaction, fenced completion).
    Queue(queue::QueueBenchArgs),
    /// Reminder delivery against the simulator: reminders/s within Telegram's limits (with and
    /// without latency), lateness at a steady rate, and the headroom with limits off.
    Delivery(delivery::DeliveryBenchArgs),
    /// The way in: webhook updates/s to the committed inbox and handled end to end.
    Intake(intake::IntakeBenchArgs),
    /// The way out: messages/s and the busiest second with 1, 2 and 3 replicas at Telegram's
    /// limits; answers' latency under a backlog of reminders.
    Egress(egress::EgressBenchArgs),
    /// The Bot API simulator's own speed: sendMessage requests per second with limits off.
    Sim(tgsim::bench::SimBenchArgs),
    /// The per-task, admin and metrics look-ups on large tables: their plans and times.
    Explain(explain::ExplainArgs),
}

/// Runs a benchmark against the database `db` points at.
pub async fn run(command: BenchCommand, db: &DatabaseArgs) -> anyhow::Result<()> {
    match command {
        BenchCommand::Claim(args) => claim::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Queue(args) => queue::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Delivery(args) => delivery::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Intake(args) => intake::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Egress(args) => egress::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Sim(args) => tgsim::bench::run(args).await,
        BenchCommand::Explain(args) => explain::run(&args, &db.resolve_url().await?).await,
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
