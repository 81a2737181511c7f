//! The default benchmark: the real queue end to end. A fresh database per run and mode; `--jobs`
//! jobs enqueued in one batch (timed), an untimed ANALYZE so the planner sees the backlog, then a
//! [`Runner`] in the chosen claim mode drains them (timed until the last job is `done` in the
//! database).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::work;

use pgqueue::{
    ClaimMode, ClaimedJob, DoneJobs, JobHandler, JobState, NewJob, Outcome, Queue, QueueConfig,
    Runner, RunnerConfig, Wakeups,
};

/// Options of the default benchmark, the real queue end to end.
#[derive(Debug, clap::Args)]
pub struct QueueBenchArgs {
    /// Jobs to enqueue and drain.
    #[arg(long, default_value_t = 2000)]
    pub jobs: usize,
    /// Handlers running at once.
    #[arg(long, default_value_t = 8)]
    pub workers: usize,
    /// Milliseconds of simulated work per job (fractions allowed; 0 = none).
    #[arg(long, default_value_t = 2.0)]
    pub work_ms: f64,
    /// Jobs per claim and per completion statement. 1 = no batching: `--workers` runners each claim
    /// one job per statement and record its result with another, like a plain worker loop.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    /// Runs, each on a fresh database.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Also measure, in each run and on fresh databases of their own, the two baselines: the
    /// seed's one-transaction loop on the seed's table and index (`claim --strategy skip-locked`
    /// with the same jobs, workers and work) and a plain `INSERT … jsonb_array_elements` of the
    /// same rows into the queue's table.
    #[arg(long)]
    pub side_by_side: bool,
    /// How the runners claim: `lease` (the default mode), `lease-deleting` (the same, on a queue
    /// whose done jobs are deleted by their success, `DoneJobs::Deleted`), `transactional` (the
    /// opt-in lock-held mode: each of `--workers` slots holds a job's row lock while it runs, one
    /// update and one commit per job; `--batch` is not used), `transactional-deleting`, `both`
    /// (lease, then transactional) or `all` (the four), one after the other in each run.
    #[arg(long, value_enum, default_value_t = ModeArg::Lease)]
    pub mode: ModeArg,
}

/// The claim modes a run measures.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ModeArg {
    /// The lease mode.
    Lease,
    /// The lease mode on a queue whose done jobs are deleted.
    LeaseDeleting,
    /// The transactional (lock-held) mode.
    Transactional,
    /// The transactional mode on a queue whose done jobs are deleted.
    TransactionalDeleting,
    /// The lease mode, then the transactional mode, in each run.
    Both,
    /// The lease mode, deleting done jobs or not, then the transactional mode, deleting or not.
    All,
}

/// One way of running the queue that a run measures: a claim mode and what a success does.
#[derive(Clone, Copy, Debug)]
struct Variant {
    mode: ClaimMode,
    done_jobs: DoneJobs,
}

impl Variant {
    const LEASE: Self = Self {
        mode: ClaimMode::Lease,
        done_jobs: DoneJobs::Kept,
    };
    const LEASE_DELETING: Self = Self {
        mode: ClaimMode::Lease,
        done_jobs: DoneJobs::Deleted,
    };
    const TRANSACTIONAL: Self = Self {
        mode: ClaimMode::Transactional,
        done_jobs: DoneJobs::Kept,
    };
    const TRANSACTIONAL_DELETING: Self = Self {
        mode: ClaimMode::Transactional,
        done_jobs: DoneJobs::Deleted,
    };

    /// The name printed in the bench's lines.
    fn name(self) -> &'static str {
        match (self.mode, self.done_jobs) {
            (ClaimMode::Lease, DoneJobs::Kept) => "lease",
            (ClaimMode::Lease, DoneJobs::Deleted) => "lease_deleting",
            (ClaimMode::Transactional, DoneJobs::Kept) => "transactional",
            (ClaimMode::Transactional, DoneJobs::Deleted) => "transactional_deleting",
        }
    }
}

impl ModeArg {
    fn variants(self) -> Vec<Variant> {
        match self {
            Self::Lease => vec![Variant::LEASE],
            Self::LeaseDeleting => vec![Variant::LEASE_DELETING],
            Self::Transactional => vec![Variant::TRANSACTIONAL],
            Self::TransactionalDeleting => vec![Variant::TRANSACTIONAL_DELETING],
            Self::Both => vec![Variant::LEASE, Variant::TRANSACTIONAL],
            Self::All => vec![
                Variant::LEASE,
                Variant::LEASE_DELETING,
                Variant::TRANSACTIONAL,
                Variant::TRANSACTIONAL_DELETING,
            ],
        }
    }
}

/// The baselines of one run, measured beside it.
struct Baselines {
    seed_loop_jobs_per_s: f64,
    seed_loop_wal_bytes_per_job: f64,
    raw_insert_jobs_per_s: f64,
}

/// What one run measured.
struct QueueRun {
    enqueue_ms: f64,
    drain_ms: f64,
    executions: u64,
    duplicates: u64,
    lost: u64,
    work_mean_ms: f64,
    /// Bytes of WAL the server wrote during the drain, per job.
    drain_wal_bytes_per_job: f64,
}

/// Counts executions per job and simulates the work.
struct BenchHandler {
    executions: Vec<AtomicU32>,
    distinct: AtomicUsize,
    total: AtomicU64,
    work: Duration,
    work_nanos: AtomicU64,
    all_ran: Notify,
}

impl JobHandler for BenchHandler {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        work::simulate(self.work, &self.work_nanos).await;
        let n = job.payload["n"].as_u64().unwrap_or(0) as usize;
        self.total.fetch_add(1, Ordering::Relaxed);
        if let Some(count) = self.executions.get(n)
            && count.fetch_add(1, Ordering::Relaxed) == 0
            && self.distinct.fetch_add(1, Ordering::Relaxed) + 1 == self.executions.len()
        {
            self.all_ran.notify_one();
        }
        Outcome::Done
    }
}

/// Runs the benchmark `args.runs` times and prints a line per run and mode, then the medians.
pub async fn run(args: &QueueBenchArgs, server_url: &str) -> anyhow::Result<()> {
    let modes = args.mode.variants();
    let mut enqueue_rates = Vec::new();
    let mut drain_rates: Vec<Vec<f64>> = vec![Vec::new(); modes.len()];
    let mut drain_wal: Vec<Vec<f64>> = vec![Vec::new(); modes.len()];
    let (mut seed_rates, mut raw_rates, mut seed_wal) = (Vec::new(), Vec::new(), Vec::new());
    let work_ms = args.work_ms.max(0.0);
    for _ in 0..args.runs {
        let mut run_drain_rates = Vec::new();
        for (m, mode) in modes.iter().enumerate() {
            let r = run_once(args, *mode, server_url).await?;
            let enqueue_rate = args.jobs as f64 / (r.enqueue_ms / 1000.0);
            let drain_rate = args.jobs as f64 / (r.drain_ms / 1000.0);
            let ceiling = if r.work_mean_ms > 0.0 {
                format!("{:.0}", args.workers as f64 * 1000.0 / r.work_mean_ms)
            } else {
                "none".to_owned()
            };
            println!(
                "bench=queue mode={} jobs={} workers={} batch={} work_ms={} work_mean_ms={:.3} \
                 ceiling_jobs_per_s={} enqueue_ms={:.0} enqueue_jobs_per_s={:.0} drain_ms={:.0} \
                 drain_jobs_per_s={:.0} drain_wal_bytes_per_job={:.0} executions={} duplicates={} \
                 lost={}",
                mode.name(),
                args.jobs,
                args.workers,
                args.batch,
                work_ms,
                r.work_mean_ms,
                ceiling,
                r.enqueue_ms,
                enqueue_rate,
                r.drain_ms,
                drain_rate,
                r.drain_wal_bytes_per_job,
                r.executions,
                r.duplicates,
                r.lost,
            );
            // The enqueue is the same in every mode: the first mode's is compared.
            if m == 0 {
                enqueue_rates.push(enqueue_rate);
            }
            drain_rates[m].push(drain_rate);
            drain_wal[m].push(r.drain_wal_bytes_per_job);
            run_drain_rates.push(drain_rate);
        }
        if args.side_by_side {
            let baselines = measure_baselines(args, server_url).await?;
            let ratios: Vec<String> = modes
                .iter()
                .zip(&run_drain_rates)
                .map(|(mode, rate)| {
                    format!(
                        "drain_to_seed_loop_{}={:.2}",
                        mode.name(),
                        rate / baselines.seed_loop_jobs_per_s
                    )
                })
                .collect();
            let enqueue_rate = enqueue_rates.last().copied().unwrap_or_default();
            println!(
                "bench=queue-baselines jobs={} workers={} work_ms={} seed_loop_jobs_per_s={:.0} \
                 {} seed_loop_wal_bytes_per_job={:.0} raw_insert_jobs_per_s={:.0} \
                 enqueue_to_raw_insert={:.2}",
                args.jobs,
                args.workers,
                work_ms,
                baselines.seed_loop_jobs_per_s,
                ratios.join(" "),
                baselines.seed_loop_wal_bytes_per_job,
                baselines.raw_insert_jobs_per_s,
                enqueue_rate / baselines.raw_insert_jobs_per_s,
            );
            seed_rates.push(baselines.seed_loop_jobs_per_s);
            seed_wal.push(baselines.seed_loop_wal_bytes_per_job);
            raw_rates.push(baselines.raw_insert_jobs_per_s);
        }
    }
    if args.runs > 1 {
        let enqueue = devdb::stats::median(&mut enqueue_rates);
        let seed = args
            .side_by_side
            .then(|| devdb::stats::median(&mut seed_rates));
        for (m, mode) in modes.iter().enumerate() {
            let drain = devdb::stats::median(&mut drain_rates[m]);
            let to_seed = seed.map_or_else(String::new, |seed| {
                format!(" median_drain_to_seed_loop={:.2}", drain / seed)
            });
            println!(
                "summary bench=queue mode={} jobs={} workers={} batch={} work_ms={} runs={} \
                 median_enqueue_jobs_per_s={:.0} median_drain_jobs_per_s={:.0} \
                 median_drain_wal_bytes_per_job={:.0}{}",
                mode.name(),
                args.jobs,
                args.workers,
                args.batch,
                work_ms,
                args.runs,
                enqueue,
                drain,
                devdb::stats::median(&mut drain_wal[m]),
                to_seed,
            );
        }
        if let Some(seed) = seed {
            let raw = devdb::stats::median(&mut raw_rates);
            println!(
                "summary bench=queue-baselines jobs={} workers={} batch={} work_ms={} runs={} \
                 median_seed_loop_jobs_per_s={:.0} median_seed_loop_wal_bytes_per_job={:.0} \
                 median_raw_insert_jobs_per_s={:.0} median_enqueue_to_raw_insert={:.2}",
                args.jobs,
                args.workers,
                args.batch,
                work_ms,
                args.runs,
                seed,
                devdb::stats::median(&mut seed_wal),
                raw,
                enqueue / raw,
            );
        }
    }
    Ok(())
}

/// Runs the seed's loop and the plain INSERT over the same number of jobs, each on a fresh
/// database.
async fn measure_baselines(args: &QueueBenchArgs, server_url: &str) -> anyhow::Result<Baselines> {
    let seed = crate::claim::run_once(
        &crate::claim::ClaimArgs {
            strategy: crate::claim::Strategy::SkipLocked,
            jobs: args.jobs,
            workers: args.workers,
            work_ms: args.work_ms.max(0.0),
            runs: 1,
        },
        server_url,
    )
    .await?;

    let database = crate::scratch(server_url).await?;
    let pool = database.pool(2).await?;
    let payloads = serde_json::Value::Array((0..args.jobs).map(|n| json!({ "n": n })).collect());
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    let written = pgqueue::synthetic::raw_insert(&mut *tx, "bench", &payloads).await?;
    tx.commit().await?;
    let raw_ms = started.elapsed().as_secs_f64() * 1000.0;
    anyhow::ensure!(
        written as usize == args.jobs,
        "the plain INSERT wrote {written} rows"
    );
    pool.close().await;
    Ok(Baselines {
        seed_loop_jobs_per_s: args.jobs as f64 / (seed.millis / 1000.0),
        seed_loop_wal_bytes_per_job: seed.wal_bytes_per_job,
        raw_insert_jobs_per_s: args.jobs as f64 / (raw_ms / 1000.0),
    })
}

async fn run_once(
    args: &QueueBenchArgs,
    variant: Variant,
    server_url: &str,
) -> anyhow::Result<QueueRun> {
    let mode = variant.mode;
    let database = crate::scratch(server_url).await?;
    // Each worker may hold one connection to claim and one to record a result.
    let pool = database.pool(2 * args.workers as u32 + 2).await?;
    let queue = Queue::new(
        pool.clone(),
        QueueConfig {
            done_jobs: variant.done_jobs,
            ..QueueConfig::new("bench")
        },
    );

    let jobs: Vec<NewJob> = (0..args.jobs)
        .map(|n| NewJob::new(json!({ "n": n })))
        .collect();
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    queue.enqueue_many(&mut tx, &jobs).await?;
    tx.commit().await?;
    let enqueue_ms = started.elapsed().as_secs_f64() * 1000.0;
    pgqueue::maintenance::analyze(&pool).await?;

    let handler = Arc::new(BenchHandler {
        executions: (0..args.jobs).map(|_| AtomicU32::new(0)).collect(),
        distinct: AtomicUsize::new(0),
        total: AtomicU64::new(0),
        work: Duration::from_secs_f64(args.work_ms.max(0.0) / 1000.0),
        work_nanos: AtomicU64::new(0),
        all_ran: Notify::new(),
    });
    let shutdown = CancellationToken::new();
    let wakeups = Wakeups::listen(pool.clone(), shutdown.clone());
    // Batched: one runner with `workers` handlers sharing batch claims. Unbatched: independent
    // single-job workers, each with its own claim loop. Transactional: one runner of `workers`
    // slots, each on a connection of its own.
    let (runners, concurrency) = if args.batch > 1 || mode == ClaimMode::Transactional {
        (1, args.workers)
    } else {
        (args.workers, 1)
    };
    // Open the workers' connections before the clock starts, as the seed's loop does: a drain of
    // 2,000 jobs would otherwise time the connecting too.
    let mut warm = Vec::with_capacity(args.workers + 2);
    for _ in 0..args.workers + 2 {
        warm.push(pool.acquire().await?);
    }
    drop(warm);
    let wal_before = pgqueue::synthetic::wal_position(&pool).await?;
    let started = Instant::now();
    let mut draining = tokio::task::JoinSet::new();
    for worker in 0..runners {
        let runner = Runner::new(
            queue.clone(),
            handler.clone(),
            RunnerConfig {
                concurrency,
                batch: args.batch,
                worker_id: format!("bench-{worker}"),
                mode,
                ..RunnerConfig::default()
            },
            wakeups.clone(),
        );
        let shutdown = shutdown.clone();
        draining.spawn(async move { runner.run(shutdown).await });
    }
    if args.jobs > 0 {
        handler.all_ran.notified().await;
    }
    // Graceful shutdown flushes the batched completions: the drain ends when all are recorded.
    shutdown.cancel();
    while let Some(joined) = draining.join_next().await {
        joined?;
    }
    let drain_ms = started.elapsed().as_secs_f64() * 1000.0;
    let wal_after = pgqueue::synthetic::wal_position(&pool).await?;

    // Every job is done, or deleted by its success.
    let mut unfinished = 0;
    for state in [
        JobState::Pending,
        JobState::Running,
        JobState::Failed,
        JobState::Cancelled,
    ] {
        unfinished += pgqueue::count(&pool, queue.name(), state).await?;
    }
    let done = pgqueue::count(&pool, queue.name(), JobState::Done).await?;
    let kept = match variant.done_jobs {
        DoneJobs::Kept => args.jobs as i64,
        DoneJobs::Deleted => 0,
    };
    anyhow::ensure!(
        unfinished == 0 && done == kept,
        "{unfinished} of {} jobs are unfinished and {done} done in the database",
        args.jobs
    );
    pool.close().await;
    let executions = handler.total.load(Ordering::Relaxed);
    let ran = handler.distinct.load(Ordering::Relaxed) as u64;
    Ok(QueueRun {
        enqueue_ms,
        drain_ms,
        executions,
        duplicates: executions - ran,
        lost: args.jobs as u64 - ran,
        work_mean_ms: work::mean_ms(handler.work_nanos.load(Ordering::Relaxed), executions),
        drain_wal_bytes_per_job: (wal_after - wal_before) as f64 / args.jobs.max(1) as f64,
    })
}
