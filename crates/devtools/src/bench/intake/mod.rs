//! `bench intake`: the way in, on a fresh database per run, Telegram's limits off.
//!
//! `remindbot run` serves its webhook; the benchmark POSTs updates to it as Telegram would (one
//! update per request, `--connections` at once): per user `/tz Asia/Tashkent` then a task, so
//! every update does real work (a zone saved; a task, its reminder job and a reply committed).
//! It reports receipts/s and the POST's round trip (update committed to the inbox) at p50/p99,
//! then updates/s handled end to end (first POST to the last update handled) and the time from
//! receipt to handled at p50/p99.
//!
//! By default the load is closed: each connection POSTs its next update as soon as the last one is
//! answered, so the bot is saturated and the POST's round trip is mostly time spent waiting behind
//! the other connections. `--rate` makes it open, as Telegram's traffic is: update `i` is due at
//! `i / rate` seconds, whether or not the bot kept up, and its round trip counts from when it was
//! due (the wait for a free connection included), so a bot that falls behind shows it.
//!
//! The simulator and the senders run in the bench's process, beside the bot, unless
//! `--load-process` puts them in a process of their own ([`load`]).

mod load;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::Context;
use secrecy::SecretString;
use sqlx::PgPool;

use remindbot::bot::intake::IntakeMode;

use load::{Load, SECRET};
pub use load::{LoadArgs, message_update, run_in_child};

/// Options of `bench intake`.
#[derive(Debug, clap::Args)]
pub struct IntakeBenchArgs {
    /// Users, each sending two updates.
    #[arg(long, default_value_t = 1000)]
    pub users: usize,
    /// Webhook requests in flight at once (Telegram's max_connections).
    #[arg(long, default_value_t = 40)]
    pub connections: usize,
    /// Update workers (UPDATE_WORKERS): transactions handling updates at once.
    #[arg(long, default_value_t = 16)]
    pub workers: usize,
    /// Updates one of those transactions handles at most (UPDATE_BATCH; 1: one per update).
    #[arg(long, default_value_t = 16)]
    pub batch: usize,
    /// Runs, each on a fresh database and simulator.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Updates offered per second (an open load, see the module docs); unset: as fast as the
    /// connections are answered.
    #[arg(long)]
    pub rate: Option<f64>,
    /// Runs the simulator and the senders in a process of their own (this binary again), so
    /// that the bot's process is the bot's alone, as in production; else they share its runtime.
    #[arg(long)]
    pub load_process: bool,
}

/// What one run measured.
#[derive(Clone, Copy, Debug)]
struct RunResult {
    updates: usize,
    received_per_s: f64,
    commit_p50_ms: f64,
    commit_p99_ms: f64,
    handled_per_s: f64,
    handled_p50_ms: f64,
    handled_p99_ms: f64,
}

/// Runs the benchmark `--runs` times; one `bench=intake` line per run, then the medians.
pub async fn run(args: &IntakeBenchArgs, server_url: &str) -> anyhow::Result<()> {
    let mut results = Vec::new();
    for _ in 0..args.runs.max(1) {
        let result = run_once(args, server_url).await?;
        println!("{}", line(args, &result, "run"));
        results.push(result);
    }
    if results.len() > 1 {
        let median = |f: fn(&RunResult) -> f64| {
            devdb::stats::median(&mut results.iter().map(f).collect::<Vec<_>>())
        };
        let summary = RunResult {
            updates: results[0].updates,
            received_per_s: median(|r| r.received_per_s),
            commit_p50_ms: median(|r| r.commit_p50_ms),
            commit_p99_ms: median(|r| r.commit_p99_ms),
            handled_per_s: median(|r| r.handled_per_s),
            handled_p50_ms: median(|r| r.handled_p50_ms),
            handled_p99_ms: median(|r| r.handled_p99_ms),
        };
        println!("{}", line(args, &summary, "summary"));
    }
    Ok(())
}

fn line(args: &IntakeBenchArgs, r: &RunResult, kind: &str) -> String {
    format!(
        "bench=intake {kind} updates={} offered_per_s={} load={} connections={} workers={} batch={} \
         received_per_s={:.0} commit_p50_ms={:.1} commit_p99_ms={:.1} handled_per_s={:.0} \
         handled_p50_ms={:.0} handled_p99_ms={:.0}",
        r.updates,
        args.rate
            .map_or_else(|| "closed".to_owned(), |rate| format!("{rate:.0}")),
        if args.load_process {
            "process"
        } else {
            "in-process"
        },
        args.connections,
        args.workers,
        args.batch,
        r.received_per_s,
        r.commit_p50_ms,
        r.commit_p99_ms,
        r.handled_per_s,
        r.handled_p50_ms,
        r.handled_p99_ms
    )
}

async fn run_once(args: &IntakeBenchArgs, server_url: &str) -> anyhow::Result<RunResult> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let mut load = Load::start(
        LoadArgs {
            users: args.users,
            connections: args.connections,
            rate: args.rate,
        },
        args.load_process,
    )
    .await?;
    let listen = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?;
    let url = format!("http://{listen}/telegram");
    let (api_url, token) = load.telegram();
    let mut config =
        super::delivery::run_config_at(database.url(), api_url, &token, 0, false, Some(64));
    config.intake.mode = IntakeMode::Webhook {
        url: url.parse().context("a webhook URL")?,
        secret: SecretString::from(SECRET),
        max_connections: 40,
    };
    config.intake.webhook_listen = Some(listen);
    config.intake.update_workers = args.workers;
    config.intake.update_batch = args.batch;
    config.bot.user_updates_per_minute = std::num::NonZeroU32::MAX;
    let running = remindbot::app::start(config).await?;
    wait_until_up(listen).await?;

    let started_at = chrono::Utc::now();
    let sent = load.send(&url).await?;
    let mut round_trips = sent.round_trips_ms;
    let n = 2 * args.users as i64;
    anyhow::ensure!(
        wait_for_handled(&pool, n, Duration::from_secs(600)).await?,
        "not every update was handled"
    );
    // When the last update was handled, by the database's clock (this machine's): the wait above
    // polls coarsely so as not to take the bot's CPU.
    let last_handled: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("select max(handled_at) from updates")
            .fetch_one(&pool)
            .await?;
    let handled_secs = (last_handled - started_at).as_seconds_f64();
    let (p50, p99): (f64, f64) = sqlx::query_as(
        "select percentile_cont(0.5) within group (order by l), percentile_cont(0.99) within group (order by l)
         from (select extract(epoch from handled_at - received_at)::float8 * 1000 as l from updates) s",
    )
    .fetch_one(&pool)
    .await?;
    let tasks: i64 = sqlx::query_scalar("select count(*) from tasks")
        .fetch_one(&pool)
        .await?;
    anyhow::ensure!(
        tasks == args.users as i64,
        "{tasks} tasks for {} users",
        args.users
    );
    running.stop().await?;
    load.stop().await?;
    pool.close().await;
    round_trips.sort_by(f64::total_cmp);
    let at = |q: f64| round_trips[((round_trips.len() - 1) as f64 * q) as usize];
    Ok(RunResult {
        updates: round_trips.len(),
        received_per_s: round_trips.len() as f64 / sent.secs,
        commit_p50_ms: at(0.5),
        commit_p99_ms: at(0.99),
        handled_per_s: round_trips.len() as f64 / handled_secs,
        handled_p50_ms: p50,
        handled_p99_ms: p99,
    })
}

/// Waits until the webhook's address accepts connections.
async fn wait_until_up(addr: SocketAddr) -> anyhow::Result<()> {
    let started = Instant::now();
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(30),
            "the webhook is not up"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Waits until `n` updates are handled; `false` after `timeout`.
async fn wait_for_handled(pool: &PgPool, n: i64, timeout: Duration) -> Result<bool, sqlx::Error> {
    let started = Instant::now();
    loop {
        let handled: i64 =
            sqlx::query_scalar("select count(*) from updates where handled_at is not null")
                .fetch_one(pool)
                .await?;
        if handled >= n {
            return Ok(true);
        }
        if started.elapsed() > timeout {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
