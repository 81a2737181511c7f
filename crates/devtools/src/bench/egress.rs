//! `bench egress`: the way out at Telegram's limits (30/s overall, 1/s per chat), on a
//! fresh database and simulator per measurement.
//!
//! Budget: `--reminders` reminders due at once for as many chats, sent by 1, 2 and 3 replicas of
//! `remindbot run` sharing one budget: messages/s (first to last arrival at the simulator), the
//! busiest second (the most arrivals within any 1,000 ms), 429s and duplicates. Priority: one
//! replica with the same backlog while `--askers` users write one after another: the time from a
//! user's message to the bot's answer at p50/p95/p99, and the reminders still waiting.

use std::time::{Duration, Instant};

use chrono::Utc;
use sqlx::PgPool;
use tgsim::{LimitsConfig, NewUser, SimConfig, SimHandle, Simulator};

use pgqueue::QueueConfig;
use remindbot::store::{OUTBOX_QUEUE, outbox_queue};

/// Options of `bench egress`.
#[derive(Debug, clap::Args)]
pub struct EgressBenchArgs {
    /// Reminders due at once (one per chat).
    #[arg(long, default_value_t = 600)]
    pub reminders: usize,
    /// The replica counts measured.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3")]
    pub replicas: Vec<usize>,
    /// Users who write, one after another, while the backlog drains.
    #[arg(long, default_value_t = 20)]
    pub askers: usize,
    /// Runs of each measurement.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
}

/// What one budget measurement found.
#[derive(Clone, Copy, Debug)]
struct Budget {
    per_s: f64,
    busiest_second: f64,
    r429: f64,
    duplicates: f64,
}

/// What one priority measurement found.
#[derive(Clone, Copy, Debug)]
struct Answers {
    p50_ms: f64,
    p95_ms: f64,
    p99_ms: f64,
    backlog_left: f64,
}

/// The bot's budget: Telegram's 30/s.
const RATE: u32 = 30;

/// Runs every measurement `--runs` times; one line per run, then a summary of medians.
pub async fn run(args: &EgressBenchArgs, server_url: &str) -> anyhow::Result<()> {
    for replicas in &args.replicas {
        let mut runs = Vec::new();
        for _ in 0..args.runs.max(1) {
            let budget = budget(args, server_url, *replicas).await?;
            println!("{}", budget_line(args, *replicas, &budget, "run"));
            runs.push(budget);
        }
        if runs.len() > 1 {
            let median = |f: fn(&Budget) -> f64| {
                devdb::stats::median(&mut runs.iter().map(f).collect::<Vec<_>>())
            };
            let summary = Budget {
                per_s: median(|b| b.per_s),
                busiest_second: median(|b| b.busiest_second),
                r429: median(|b| b.r429),
                duplicates: median(|b| b.duplicates),
            };
            println!("{}", budget_line(args, *replicas, &summary, "summary"));
        }
    }
    let mut runs = Vec::new();
    for _ in 0..args.runs.max(1) {
        let answers = answers(args, server_url).await?;
        println!("{}", answers_line(args, &answers, "run"));
        runs.push(answers);
    }
    if runs.len() > 1 {
        let median = |f: fn(&Answers) -> f64| {
            devdb::stats::median(&mut runs.iter().map(f).collect::<Vec<_>>())
        };
        let summary = Answers {
            p50_ms: median(|a| a.p50_ms),
            p95_ms: median(|a| a.p95_ms),
            p99_ms: median(|a| a.p99_ms),
            backlog_left: median(|a| a.backlog_left),
        };
        println!("{}", answers_line(args, &summary, "summary"));
    }
    Ok(())
}

fn budget_line(args: &EgressBenchArgs, replicas: usize, b: &Budget, kind: &str) -> String {
    format!(
        "bench=egress {kind} measure=budget limit_per_s={RATE} replicas={replicas} messages={} \
         messages_per_s={:.1} busiest_second={:.0} r429={:.0} duplicates={:.0}",
        args.reminders, b.per_s, b.busiest_second, b.r429, b.duplicates
    )
}

fn answers_line(args: &EgressBenchArgs, a: &Answers, kind: &str) -> String {
    format!(
        "bench=egress {kind} measure=answers_under_backlog backlog={} askers={} p50_ms={:.0} \
         p95_ms={:.0} p99_ms={:.0} backlog_left={:.0}",
        args.reminders, args.askers, a.p50_ms, a.p95_ms, a.p99_ms, a.backlog_left
    )
}

/// A fresh database and a simulator at Telegram's limits with `n` users, each with a reminder due now.
async fn with_backlog(
    server_url: &str,
    n: usize,
) -> anyhow::Result<(devdb::ScratchDatabase, PgPool, SimHandle)> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let sim = Simulator::start(SimConfig::default().with_limits(LimitsConfig::default())).await?;
    let now = Utc::now();
    let mut due = Vec::with_capacity(n);
    for i in 0..n {
        let user = sim.create_user(NewUser::new(&format!("Bench{i}")))?;
        due.push((user.user.id, now));
    }
    let queue = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    super::delivery::seed(&pool, &queue, &due).await?;
    Ok((database, pool, sim))
}

async fn budget(
    args: &EgressBenchArgs,
    server_url: &str,
    replicas: usize,
) -> anyhow::Result<Budget> {
    let (database, pool, sim) = with_backlog(server_url, args.reminders).await?;
    let mut running = Vec::new();
    for _ in 0..replicas.max(1) {
        let config = super::delivery::run_config(database.url(), &sim, RATE, true, 16);
        running.push(remindbot::app::start(config).await?);
    }
    let timeout = Duration::from_secs(60 + args.reminders as u64);
    anyhow::ensure!(
        super::delivery::wait_for_sent(&pool, args.reminders as i64, timeout).await?,
        "not every reminder was sent within {timeout:?}"
    );
    for replica in running {
        replica.stop().await?;
    }
    let counters = sim.counters();
    let mut arrivals: Vec<i64> = sim
        .calls(0)
        .iter()
        .filter(|c| c.method == "sendMessage" && c.status == 200)
        .map(|c| c.at_ms)
        .collect();
    arrivals.sort_unstable();
    let span_ms = arrivals
        .last()
        .zip(arrivals.first())
        .map_or(0, |(l, f)| l - f);
    let busiest = (0..arrivals.len())
        .map(|i| {
            arrivals[i..]
                .iter()
                .take_while(|at| **at < arrivals[i] + 1000)
                .count()
        })
        .max()
        .unwrap_or(0);
    sim.shutdown().await;
    pool.close().await;
    Ok(Budget {
        per_s: (arrivals.len().saturating_sub(1)) as f64 * 1000.0 / span_ms.max(1) as f64,
        busiest_second: busiest as f64,
        r429: counters.errors_by_code.get(&429).copied().unwrap_or(0) as f64,
        duplicates: counters.messages_sent.saturating_sub(args.reminders as u64) as f64,
    })
}

async fn answers(args: &EgressBenchArgs, server_url: &str) -> anyhow::Result<Answers> {
    let (database, pool, sim) = with_backlog(server_url, args.reminders).await?;
    let config = super::delivery::run_config(database.url(), &sim, RATE, true, 16);
    let running = remindbot::app::start(config).await?;
    // Let the backlog build up a head of steam first.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut waits = Vec::with_capacity(args.askers);
    for i in 0..args.askers {
        let user = sim.create_user(NewUser::new(&format!("Asker{i}")))?.user.id;
        let asked = Instant::now();
        let said = sim.user_says(user, "/tz Asia/Tashkent")?;
        sim.wait_for_bot_message(user, said.message_id, Duration::from_secs(60))
            .await?;
        waits.push(asked.elapsed().as_secs_f64() * 1000.0);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let left: i64 = sqlx::query_scalar("select count(*) from reminders where not sent")
        .fetch_one(&pool)
        .await?;
    running.stop().await?;
    sim.shutdown().await;
    pool.close().await;
    waits.sort_by(f64::total_cmp);
    let at = |q: f64| waits[((waits.len() - 1) as f64 * q).round() as usize];
    Ok(Answers {
        p50_ms: at(0.5),
        p95_ms: at(0.95),
        p99_ms: at(0.99),
        backlog_left: left as f64,
    })
}
