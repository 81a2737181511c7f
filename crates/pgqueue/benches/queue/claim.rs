//! `claim`: the experiment of the seed lesson (§2.2 and §7, its `t55-navbat.mjs`), on the seed's
//! own table and index: `t55_ish` (id, tur, payload, holat, urinish, keyingi_urinish, bajaruvchi)
//! with a partial index on the ids of pending jobs (`holat = 'kutmoqda'`), the one its
//! `ORDER BY id` reads. Each worker, on its own connection, runs the seed's loop word for word:
//! begin → `SELECT id … WHERE holat = 'kutmoqda' AND keyingi_urinish <= now() ORDER BY id LIMIT 1
//! FOR UPDATE SKIP LOCKED` → work → `UPDATE … SET holat = 'bajarildi', bajaruvchi = $2,
//! urinish = urinish + 1` → commit, the work inside the claiming transaction. Only the way the
//! job is taken differs between strategies: `FOR UPDATE SKIP LOCKED` (the seed's), plain
//! `FOR UPDATE`, or no lock at all. `bench queue --side-by-side` runs the first as its baseline.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sqlx::{AssertSqlSafe, Connection, PgConnection};

use crate::work;

/// How a worker takes a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// `FOR UPDATE SKIP LOCKED`: locked rows are passed over.
    SkipLocked,
    /// `FOR UPDATE`: workers queue up behind the first locked row.
    ForUpdate,
    /// A plain `SELECT`: two workers can take the same job.
    NoLock,
}

impl Strategy {
    fn name(self) -> &'static str {
        match self {
            Self::SkipLocked => "skip-locked",
            Self::ForUpdate => "for-update",
            Self::NoLock => "no-lock",
        }
    }

    fn select(self) -> &'static str {
        match self {
            Self::SkipLocked => {
                "select id from t55_ish where holat = 'kutmoqda' and keyingi_urinish <= now() \
                 order by id limit 1 for update skip locked"
            }
            Self::ForUpdate => {
                "select id from t55_ish where holat = 'kutmoqda' and keyingi_urinish <= now() \
                 order by id limit 1 for update"
            }
            Self::NoLock => {
                "select id from t55_ish where holat = 'kutmoqda' and keyingi_urinish <= now() \
                 order by id limit 1"
            }
        }
    }
}

/// Options of `claim`.
#[derive(Debug, clap::Args)]
pub struct ClaimArgs {
    /// How workers take a job.
    #[arg(long, value_enum, default_value_t = Strategy::SkipLocked)]
    pub strategy: Strategy,
    /// Jobs in the table.
    #[arg(long, default_value_t = 2000)]
    pub jobs: usize,
    /// Workers, each on its own connection.
    #[arg(long, default_value_t = 8)]
    pub workers: usize,
    /// Milliseconds of simulated work per job (fractions allowed).
    #[arg(long, default_value_t = 2.0)]
    pub work_ms: f64,
    /// Runs, each on a fresh database.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
}

/// What one run measured.
pub(super) struct ClaimRun {
    /// How long the loop took to drain the table.
    pub(super) millis: f64,
    executions: usize,
    duplicates: usize,
    per_worker: Vec<usize>,
    work_mean_ms: f64,
    /// Bytes of WAL the server wrote during the loop, per job.
    pub(super) wal_bytes_per_job: f64,
}

/// Runs the experiment `args.runs` times and prints a line per run, then the medians.
pub async fn run(args: &ClaimArgs, server_url: &str) -> anyhow::Result<()> {
    let mut millis = Vec::new();
    for _ in 0..args.runs {
        let result = run_once(args, server_url).await?;
        let per_second = args.jobs as f64 / (result.millis / 1000.0);
        println!(
            "bench=claim strategy={} jobs={} workers={} work_ms={} work_mean_ms={:.3} ms={:.0} \
             jobs_per_s={:.0} wal_bytes_per_job={:.0} executions={} duplicates={} per_worker={}",
            args.strategy.name(),
            args.jobs,
            args.workers,
            args.work_ms,
            result.work_mean_ms,
            result.millis,
            per_second,
            result.wal_bytes_per_job,
            result.executions,
            result.duplicates,
            result
                .per_worker
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
        );
        millis.push(result.millis);
    }
    if args.runs > 1 {
        let ms = devdb::stats::median(&mut millis);
        println!(
            "summary bench=claim strategy={} runs={} median_ms={:.0} median_jobs_per_s={:.0}",
            args.strategy.name(),
            args.runs,
            ms,
            args.jobs as f64 / (ms / 1000.0)
        );
    }
    Ok(())
}

pub(super) async fn run_once(args: &ClaimArgs, server_url: &str) -> anyhow::Result<ClaimRun> {
    let database = crate::scratch(server_url).await?;
    let mut setup = PgConnection::connect(database.url()).await?;
    // The seed's table (its §4.2 columns that the loop reads and writes, and `bajaruvchi`, who did
    // it) and the index its `ORDER BY id` reads: only pending ids, so a worker never walks the
    // jobs already done.
    sqlx::query(
        "create table t55_ish (
             id bigint generated always as identity primary key,
             tur text not null,
             payload jsonb not null,
             holat text not null default 'kutmoqda',
             urinish int not null default 0,
             keyingi_urinish timestamptz not null default now(),
             bajaruvchi int)",
    )
    .execute(&mut setup)
    .await?;
    sqlx::query("create index t55_ish_kutmoqda on t55_ish (id) where holat = 'kutmoqda'")
        .execute(&mut setup)
        .await?;
    // The same rows as the queue's benchmark: a payload `{"n": k}` per job.
    sqlx::query(AssertSqlSafe(format!(
        "insert into t55_ish (tur, payload) \
         select 'eslatma', jsonb_build_object('n', g) from generate_series(0, {} - 1) g",
        args.jobs
    )))
    .execute(&mut setup)
    .await?;
    sqlx::query("analyze t55_ish").execute(&mut setup).await?;

    let mut connections = Vec::with_capacity(args.workers);
    for _ in 0..args.workers {
        connections.push(PgConnection::connect(database.url()).await?);
    }
    // The seed's script stopped at twice the job count: without locks it would never end.
    let budget = Arc::new(AtomicUsize::new(args.jobs * 2));
    let executed = Arc::new(std::sync::Mutex::new(Vec::with_capacity(args.jobs * 2)));
    let work_nanos = Arc::new(AtomicU64::new(0));
    let work = Duration::from_secs_f64(args.work_ms.max(0.0) / 1000.0);
    let wal_before = pgqueue::synthetic::wal_position(&mut setup).await?;
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for (number, conn) in connections.into_iter().enumerate() {
        let (budget, executed, work_nanos) = (budget.clone(), executed.clone(), work_nanos.clone());
        let strategy = args.strategy;
        workers.spawn(async move {
            worker(
                number,
                conn,
                strategy,
                work,
                &budget,
                &executed,
                &work_nanos,
            )
            .await
        });
    }
    let mut per_worker = vec![0; args.workers];
    while let Some(joined) = workers.join_next().await {
        let (number, count) = joined??;
        per_worker[number] = count;
    }
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    let wal_after = pgqueue::synthetic::wal_position(&mut setup).await?;
    setup.close().await?;
    let executed = executed.lock().expect("poisoned").clone();
    let distinct: std::collections::HashSet<i64> = executed.iter().copied().collect();
    Ok(ClaimRun {
        millis,
        executions: executed.len(),
        duplicates: executed.len() - distinct.len(),
        work_mean_ms: work::mean_ms(work_nanos.load(Ordering::Relaxed), executed.len() as u64),
        per_worker,
        wal_bytes_per_job: (wal_after - wal_before) as f64 / args.jobs.max(1) as f64,
    })
}

async fn worker(
    number: usize,
    mut conn: PgConnection,
    strategy: Strategy,
    work: Duration,
    budget: &AtomicUsize,
    executed: &std::sync::Mutex<Vec<i64>>,
    work_nanos: &AtomicU64,
) -> anyhow::Result<(usize, usize)> {
    let mut count = 0;
    while budget
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(1))
        .is_ok()
    {
        let mut tx = conn.begin().await?;
        let Some(id): Option<i64> = sqlx::query_scalar(strategy.select())
            .fetch_optional(&mut *tx)
            .await?
        else {
            tx.commit().await?;
            break;
        };
        work::simulate(work, work_nanos).await;
        sqlx::query(
            "update t55_ish set holat = 'bajarildi', bajaruvchi = $2, urinish = urinish + 1 \
             where id = $1",
        )
        .bind(id)
        .bind(number as i32)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        executed.lock().expect("poisoned").push(id);
        count += 1;
    }
    conn.close().await?;
    Ok((number, count))
}
