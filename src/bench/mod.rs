//! Benchmark commands (`remindbot bench …`). Each run prints one `key=value` line that a script can
//! parse; with `--runs N` a last `summary` line gives the medians. Every run gets a fresh database.

pub mod claim;
pub mod delivery;
pub mod egress;
pub mod explain;
pub mod herd;
pub mod intake;
pub mod list;
pub mod queue;
pub mod scale;
pub mod soak;
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
    /// How the claim, the drain and retention cost grow with the backlog: 10k to 10M pending jobs,
    /// and millions of finished ones waiting for retention.
    Scale(scale::ScaleArgs),
    /// A steady rate of jobs enqueued and completed for minutes with retention on: the table's
    /// size, its dead tuples and the process's memory, printed every minute.
    Soak(soak::SoakArgs),
    /// Reminder delivery against the simulator: reminders/s within Telegram's limits (with and
    /// without latency), lateness at a steady rate, and the headroom with limits off.
    Delivery(delivery::DeliveryBenchArgs),
    /// The way in: webhook updates/s to the committed inbox and handled end to end.
    Intake(intake::IntakeBenchArgs),
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
pub async fn run(command: BenchCommand, db: &DatabaseArgs) -> anyhow::Result<()> {
    match command {
        BenchCommand::Claim(args) => claim::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Queue(args) => queue::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Scale(args) => scale::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Soak(args) => soak::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Delivery(args) => delivery::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Intake(args) => intake::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Egress(args) => egress::run(&args, &db.resolve_url().await?).await,
        BenchCommand::Herd(args) => herd::run(&args, &db.resolve_url().await?).await,
        BenchCommand::List(args) => list::run(&args, &db.resolve_url().await?).await,
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

/// The `q` quantile of `values` by nearest rank (0.99: the value 99 % of them are at or under);
/// 0 for none.
pub fn percentile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((values.len() as f64 * q).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::{median, percentile};

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn percentile_is_the_nearest_rank() {
        let mut values: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        assert_eq!(percentile(&mut values, 0.5), 50.0);
        assert_eq!(percentile(&mut values, 0.99), 99.0);
        assert_eq!(percentile(&mut values, 1.0), 100.0);
        assert_eq!(percentile(&mut [7.0], 0.99), 7.0);
        assert_eq!(percentile(&mut [], 0.5), 0.0);
    }
}
