//! `soak`: the queue under a steady load for a long time, retention on. Jobs are enqueued at
//! `--rate` per second (due at once, in a transaction every 100 ms), a [`Runner`] completes them,
//! and retention deletes the finished ones older than `--keep-secs` every
//! `--retention-secs`, as `remindbot run` does with its own settings. Every `--report-secs` it
//! prints the jobs table's size, its indexes, its live and dead tuples, the autovacuum runs so far
//! and the process's resident memory; at the end, the range of each after the warm-up (the first
//! retention window), which stays flat when nothing grows without bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio_util::sync::CancellationToken;

use pgqueue::{
    ClaimedJob, JobHandler, NewJob, Outcome, Queue, QueueConfig, Runner, RunnerConfig, Wakeups,
    maintenance, synthetic,
};

/// Options of `soak`.
#[derive(Debug, clap::Args)]
pub struct SoakArgs {
    /// How long to run.
    #[arg(long, default_value_t = 30.0)]
    pub minutes: f64,
    /// Jobs enqueued (and completed) per second.
    #[arg(long, default_value_t = 1_000)]
    pub rate: u64,
    /// Retention keeps finished jobs this long.
    #[arg(long, default_value_t = 120)]
    pub keep_secs: u64,
    /// Retention runs this often.
    #[arg(long, default_value_t = 30)]
    pub retention_secs: u64,
    /// A report line this often.
    #[arg(long, default_value_t = 60)]
    pub report_secs: u64,
    /// Handlers running at once.
    #[arg(long, default_value_t = 8)]
    pub workers: usize,
    /// Jobs per claim and per completion statement.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
}

/// Counts the jobs it ran.
struct CountingHandler {
    ran: AtomicU64,
}

impl JobHandler for CountingHandler {
    async fn handle(&self, _job: ClaimedJob) -> Outcome {
        self.ran.fetch_add(1, Ordering::Relaxed);
        Outcome::Done
    }
}

/// One report line's measurements.
#[derive(Clone, Copy)]
struct Sample {
    heap_mb: f64,
    index_mb: f64,
    dead: i64,
    rss_mb: f64,
}

/// Runs the soak and prints a line per report interval, then the summary.
pub async fn run(args: &SoakArgs, server_url: &str) -> anyhow::Result<()> {
    let database = crate::scratch(server_url).await?;
    let pool = database.pool(2 * args.workers as u32 + 4).await?;
    let queue = Queue::new(pool.clone(), QueueConfig::new("soak"));
    let shutdown = CancellationToken::new();
    let wakeups = Wakeups::listen(pool.clone(), shutdown.clone());
    let handler = Arc::new(CountingHandler {
        ran: AtomicU64::new(0),
    });
    let runner = Runner::new(
        queue.clone(),
        handler.clone(),
        RunnerConfig {
            concurrency: args.workers,
            batch: args.batch,
            worker_id: "soak".to_owned(),
            ..RunnerConfig::default()
        },
        wakeups,
    );
    let mut tasks = tokio::task::JoinSet::new();
    let stop = shutdown.clone();
    tasks.spawn(async move {
        runner.run(stop).await;
        Ok(())
    });
    let (retention_pool, stop) = (pool.clone(), shutdown.clone());
    let (keep, every) = (
        Duration::from_secs(args.keep_secs),
        Duration::from_secs(args.retention_secs),
    );
    tasks.spawn(async move {
        maintenance::run_retention(retention_pool, keep, every, stop).await;
        Ok(())
    });
    let enqueued = Arc::new(AtomicU64::new(0));
    let (producer_queue, counter, stop, rate) =
        (queue.clone(), enqueued.clone(), shutdown.clone(), args.rate);
    tasks.spawn(async move { produce(producer_queue, rate, counter, stop).await });

    let started = Instant::now();
    let total = Duration::from_secs_f64(args.minutes * 60.0);
    let report_every = Duration::from_secs(args.report_secs.max(1));
    let warm_up = Duration::from_secs(args.keep_secs + args.retention_secs);
    let mut after_warm_up: Vec<Sample> = Vec::new();
    let mut last = (Duration::ZERO, 0u64);
    let mut ticker =
        tokio::time::interval_at(tokio::time::Instant::now() + report_every, report_every);
    while started.elapsed() < total {
        ticker.tick().await;
        let elapsed = started.elapsed();
        let ran = handler.ran.load(Ordering::Relaxed);
        let size = synthetic::jobs_table_size(&pool).await?;
        let sample = Sample {
            heap_mb: size.heap_bytes as f64 / 1e6,
            index_mb: size.index_bytes as f64 / 1e6,
            dead: size.dead_tuples,
            rss_mb: resident_mb(),
        };
        let rate = (ran - last.1) as f64 / (elapsed - last.0).as_secs_f64();
        last = (elapsed, ran);
        println!(
            "bench=soak minute={:.1} enqueued={} completed={} backlog={} completed_per_s={:.0} \
             heap_mb={:.1} index_mb={:.1} live_tuples={} dead_tuples={} autovacuums={} rss_mb={:.1}",
            elapsed.as_secs_f64() / 60.0,
            enqueued.load(Ordering::Relaxed),
            ran,
            enqueued.load(Ordering::Relaxed).saturating_sub(ran),
            rate,
            sample.heap_mb,
            sample.index_mb,
            size.live_tuples,
            sample.dead,
            size.autovacuums,
            sample.rss_mb,
        );
        if elapsed >= warm_up {
            after_warm_up.push(sample);
        }
    }
    shutdown.cancel();
    while let Some(joined) = tasks.join_next().await {
        joined??;
    }
    let range = |f: fn(&Sample) -> f64| {
        let values = after_warm_up.iter().map(f);
        let min = values.clone().fold(f64::INFINITY, f64::min);
        let max = values.fold(f64::NEG_INFINITY, f64::max);
        format!("{min:.1}..{max:.1}")
    };
    println!(
        "summary bench=soak minutes={} rate={} keep_secs={} samples_after_warm_up={} \
         heap_mb={} index_mb={} dead_tuples={} rss_mb={} completed={} enqueued={}",
        args.minutes,
        args.rate,
        args.keep_secs,
        after_warm_up.len(),
        range(|s| s.heap_mb),
        range(|s| s.index_mb),
        range(|s| s.dead as f64),
        range(|s| s.rss_mb),
        handler.ran.load(Ordering::Relaxed),
        enqueued.load(Ordering::Relaxed),
    );
    pool.close().await;
    Ok(())
}

/// Enqueues `rate` jobs per second in a transaction every 100 ms, catching up after a slow
/// commit, until `shutdown`.
async fn produce(
    queue: Queue,
    rate: u64,
    enqueued: Arc<AtomicU64>,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut ticker = tokio::time::interval(Duration::from_millis(100));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return Ok(()),
            _ = ticker.tick() => {}
        }
        let due = (started.elapsed().as_secs_f64() * rate as f64) as u64;
        let done = enqueued.load(Ordering::Relaxed);
        if due <= done {
            continue;
        }
        let jobs: Vec<NewJob> = (done..due)
            .map(|n| NewJob::new(json!({ "n": n })))
            .collect();
        let mut tx = queue.pool().begin().await?;
        queue.enqueue_many(&mut tx, &jobs).await?;
        tx.commit().await?;
        enqueued.store(due, Ordering::Relaxed);
    }
}

/// The process's resident memory (VmRSS), in megabytes; 0 where /proc cannot tell.
fn resident_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<f64>()
                        .ok()
                })
        })
        .map_or(0.0, |kb| kb / 1000.0)
}
