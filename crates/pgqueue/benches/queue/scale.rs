//! `scale`: how the queue's cost grows with its size. For each backlog size, on a fresh
//! database: the backlog written by the database (most jobs due over the coming month, as
//! reminders are, a share due now), a `VACUUM ANALYZE` (the steady state autovacuum keeps) and a
//! `CHECKPOINT` (as for a backlog written long before it falls due: each page's first change
//! writes a full-page image to the WAL), then single-job claims timed one by one (each completed
//! before the next), the rest of the due jobs drained by a [`Runner`] (with, per drained job, the
//! table's block reads from outside PostgreSQL's shared buffers, the cache misses that a table
//! larger than the cache costs, and the WAL records, full-page images and bytes the server wrote),
//! and one retention pass timed. A last scenario adds millions of `done` jobs that retention has
//! not reached yet to the smallest backlog.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use pgqueue::{
    ClaimedJob, JobHandler, Outcome, Queue, QueueConfig, Runner, RunnerConfig, Wakeups,
    maintenance, synthetic,
};

/// Options of `scale`.
#[derive(Debug, clap::Args)]
pub struct ScaleArgs {
    /// Backlog sizes (pending jobs), comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [10_000, 100_000, 1_000_000, 10_000_000])]
    pub sizes: Vec<i64>,
    /// The share of each backlog due now; the rest falls due over the next 30 days.
    #[arg(long, default_value_t = 0.01)]
    pub due_share: f64,
    /// Due jobs at least, whatever the share, so that a small backlog's drain lasts long enough
    /// to time.
    #[arg(long, default_value_t = 5_000)]
    pub min_due: i64,
    /// `done` jobs waiting for retention in the last scenario (beside the smallest backlog);
    /// 0 skips it.
    #[arg(long, default_value_t = 10_000_000)]
    pub done: i64,
    /// Single-job claims timed per scenario.
    #[arg(long, default_value_t = 1_000)]
    pub claims: usize,
    /// Handlers of the drain.
    #[arg(long, default_value_t = 8)]
    pub workers: usize,
    /// Jobs per claim and per completion statement in the drain.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    /// A folder to write the curves to, as SVG: `scale-claim-p99.svg` and `scale-drain.svg`, by
    /// backlog (the scenario with `done` jobs is left out of the curves).
    #[arg(long)]
    pub plots: Option<std::path::PathBuf>,
}

/// What a scenario measured that the curves show.
struct Measured {
    pending: i64,
    done: i64,
    claim_p50_ms: f64,
    claim_p99_ms: f64,
    drain_jobs_per_s: f64,
}

/// Counts the jobs it ran and wakes the benchmark when `target` have.
struct CountingHandler {
    ran: AtomicU64,
    target: u64,
    all_ran: Notify,
}

impl JobHandler for CountingHandler {
    async fn handle(&self, _job: ClaimedJob) -> Outcome {
        if self.ran.fetch_add(1, Ordering::Relaxed) + 1 == self.target {
            self.all_ran.notify_one();
        }
        Outcome::Done
    }
}

/// One backlog to measure.
struct Scenario {
    pending: i64,
    due: i64,
    done: i64,
}

/// Runs every scenario and prints a line for each.
pub async fn run(args: &ScaleArgs, server_url: &str) -> anyhow::Result<()> {
    let due = |pending: i64| {
        (((pending as f64) * args.due_share).round() as i64)
            .max(args.min_due)
            .min(pending)
    };
    let mut scenarios: Vec<Scenario> = args
        .sizes
        .iter()
        .map(|&pending| Scenario {
            pending,
            due: due(pending),
            done: 0,
        })
        .collect();
    if args.done > 0
        && let Some(&smallest) = args.sizes.iter().min()
    {
        scenarios.push(Scenario {
            pending: smallest,
            due: due(smallest),
            done: args.done,
        });
    }
    let mut measured = Vec::with_capacity(scenarios.len());
    for scenario in &scenarios {
        measured.push(run_scenario(args, scenario, server_url).await?);
    }
    if let Some(folder) = &args.plots {
        plot(folder, &measured)?;
    }
    Ok(())
}

/// Writes the claim p99 and the drain rate by backlog (log scale) to `folder`.
fn plot(folder: &std::path::Path, measured: &[Measured]) -> anyhow::Result<()> {
    use benchplot::{Axis, Chart, Corner, Series};
    let curve = |y: fn(&Measured) -> f64| -> Vec<(f64, f64)> {
        measured
            .iter()
            .filter(|m| m.done == 0)
            .map(|m| (m.pending as f64, y(m)))
            .collect()
    };
    Chart {
        title: "Single-job claim latency by backlog",
        x: Axis::log("pending jobs"),
        y: Axis::linear("ms"),
        series: vec![
            Series::new("claim p50", curve(|m| m.claim_p50_ms)),
            Series::new("claim p99", curve(|m| m.claim_p99_ms)),
        ],
        legend: Corner::UpperLeft,
    }
    .write(&folder.join("scale-claim-p99.svg"))?;
    Chart {
        title: "Drain rate by backlog",
        x: Axis::log("pending jobs"),
        y: Axis::linear("jobs/s"),
        series: vec![Series::new("drain", curve(|m| m.drain_jobs_per_s))],
        legend: Corner::LowerLeft,
    }
    .write(&folder.join("scale-drain.svg"))?;
    Ok(())
}

async fn run_scenario(
    args: &ScaleArgs,
    scenario: &Scenario,
    server_url: &str,
) -> anyhow::Result<Measured> {
    let database = crate::scratch(server_url).await?;
    let pool = database.pool(2 * args.workers as u32 + 2).await?;
    let queue = Queue::new(pool.clone(), QueueConfig::new("scale"));

    let started = Instant::now();
    if scenario.done > 0 {
        synthetic::fill_finished(
            &pool,
            queue.name(),
            scenario.done,
            Duration::from_secs(3600),
        )
        .await?;
    }
    synthetic::fill_backlog(
        &pool,
        queue.name(),
        scenario.pending,
        scenario.due,
        Duration::from_secs(30 * 86_400),
    )
    .await?;
    let fill_ms = millis(started);
    let started = Instant::now();
    synthetic::vacuum_analyze(&pool).await?;
    let vacuum_ms = millis(started);
    synthetic::checkpoint(&pool).await?;

    let claims = args.claims.min(scenario.due as usize);
    let mut latencies = Vec::with_capacity(claims);
    for _ in 0..claims {
        let started = Instant::now();
        let jobs = queue.claim("scale-probe", 1).await?;
        latencies.push(millis(started));
        let job = jobs
            .first()
            .ok_or_else(|| anyhow::anyhow!("a claim found no due job"))?;
        queue.complete(&pool, job).await?;
    }
    let (claim_p50, claim_p99) = (
        devdb::stats::percentile(&mut latencies, 0.5),
        devdb::stats::percentile(&mut latencies, 0.99),
    );

    let to_drain = (scenario.due as usize - claims) as u64;
    let (io_before, wal_before) = settled_io(&pool).await?;
    let drain_rate = drain(args, &queue, &pool, to_drain).await?;
    let (io_after, wal_after) = settled_io(&pool).await?;
    let per_job = |count: i64| count as f64 / to_drain.max(1) as f64;

    let started = Instant::now();
    maintenance::purge_finished(&pool, Duration::from_secs(86_400)).await?;
    let retention_ms = millis(started);
    let size = synthetic::jobs_table_size(&pool).await?;
    println!(
        "bench=scale pending={} done={} due={} fill_ms={:.0} vacuum_ms={:.0} claims={} \
         claim_p50_ms={:.3} claim_p99_ms={:.3} drained={} drain_jobs_per_s={:.0} \
         heap_reads_per_job={:.2} index_reads_per_job={:.2} wal_records_per_job={:.1} \
         wal_fpi_per_job={:.2} wal_kb_per_job={:.1} retention_pass_ms={:.1} heap_mb={:.0} \
         index_mb={:.0}",
        scenario.pending,
        scenario.done,
        scenario.due,
        fill_ms,
        vacuum_ms,
        claims,
        claim_p50,
        claim_p99,
        to_drain,
        drain_rate,
        per_job(io_after.heap_read - io_before.heap_read),
        per_job(io_after.index_read - io_before.index_read),
        per_job(wal_after.records - wal_before.records),
        per_job(wal_after.full_page_images - wal_before.full_page_images),
        per_job(wal_after.bytes - wal_before.bytes) / 1024.0,
        retention_ms,
        size.heap_bytes as f64 / 1e6,
        size.index_bytes as f64 / 1e6,
    );
    pool.close().await;
    Ok(Measured {
        pending: scenario.pending,
        done: scenario.done,
        claim_p50_ms: claim_p50,
        claim_p99_ms: claim_p99,
        drain_jobs_per_s: drain_rate,
    })
}

/// Drains `count` due jobs with a runner; returns jobs per second.
async fn drain(
    args: &ScaleArgs,
    queue: &Queue,
    pool: &sqlx::PgPool,
    count: u64,
) -> anyhow::Result<f64> {
    if count == 0 {
        return Ok(0.0);
    }
    let handler = Arc::new(CountingHandler {
        ran: AtomicU64::new(0),
        target: count,
        all_ran: Notify::new(),
    });
    let shutdown = CancellationToken::new();
    let wakeups = Wakeups::listen(pool.clone(), shutdown.clone());
    let runner = Runner::new(
        queue.clone(),
        handler.clone(),
        RunnerConfig {
            concurrency: args.workers,
            batch: args.batch,
            worker_id: "scale".to_owned(),
            ..RunnerConfig::default()
        },
        wakeups,
    );
    let started = Instant::now();
    let stop = shutdown.clone();
    let draining = tokio::spawn(async move { runner.run(stop).await });
    handler.all_ran.notified().await;
    // Graceful shutdown flushes the batched completions: the drain ends when all are recorded.
    shutdown.cancel();
    draining.await?;
    Ok(count as f64 / started.elapsed().as_secs_f64())
}

/// The jobs table's block reads and the server's WAL once every backend has reported its own
/// (they do at most once a second).
async fn settled_io(
    pool: &sqlx::PgPool,
) -> anyhow::Result<(synthetic::TableIo, synthetic::WalUsage)> {
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    Ok((
        synthetic::jobs_table_io(pool).await?,
        synthetic::wal_usage(pool).await?,
    ))
}

fn millis(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}
