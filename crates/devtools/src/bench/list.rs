//! `bench list`: the bot on a large database. A fresh database gets `--rows` tasks with
//! their reminders and jobs (as `bench explain` fills it), and one user of the simulator has
//! `--tasks` open tasks among them. Then:
//! - the look-ups behind `/list` (the count and a page of the chat's open tasks) are timed as the
//!   store calls they are, `--samples` times each, for the first page and the last;
//! - `remindbot run` starts as a process of its own against the simulator, and its resident
//!   memory is read once it is idle and again after the user's `/list`s;
//! - the user sends `/list` `--asks` times, a little more than a second apart (Telegram's 1/s per
//!   chat), and the time from the message to the bot's answer is measured end to end (long
//!   polling, the inbox, the handler, the outbox and its pacing).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use chrono::Utc;
use chrono_tz::Tz;
use sqlx::PgPool;
use tgsim::{NewUser, SimConfig, Simulator};

use pgqueue::QueueConfig;
use remindbot::bot::render::PAGE_SIZE;
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::lead::Lead;
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::ChatKind;
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

/// Options of `bench list`.
#[derive(Debug, clap::Args)]
pub struct ListBenchArgs {
    /// Tasks in the database (with their reminders and jobs).
    #[arg(long, default_value_t = 1_000_000)]
    pub rows: i64,
    /// Open tasks of the user who asks for `/list`.
    #[arg(long, default_value_t = 500)]
    pub tasks: usize,
    /// Timed calls of each store look-up.
    #[arg(long, default_value_t = 1_000)]
    pub samples: usize,
    /// `/list` messages sent through the running bot.
    #[arg(long, default_value_t = 40)]
    pub asks: usize,
    /// The `remindbot` binary to run and measure; by default the one next to this program
    /// (`cargo build --release` builds both).
    #[arg(long, value_name = "PATH")]
    pub bot: Option<PathBuf>,
}

/// The bot's zone for the user.
const ZONE: &str = "Asia/Tashkent";

/// Runs the benchmark once and prints its lines.
pub async fn run(args: &ListBenchArgs, server_url: &str) -> anyhow::Result<()> {
    let bot_binary = bot_binary(args)?;
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let seeding = Instant::now();
    super::explain::seed(&pool, args.rows).await?;
    let sim = Simulator::start(SimConfig::default()).await?;
    let user = sim.create_user(NewUser::new("Lister"))?.user.id;
    seed_user(&pool, user, args.tasks).await?;
    sqlx::query("analyze").execute(&pool).await?;
    println!(
        "bench=list seeded rows={} user_tasks={} secs={:.0}",
        args.rows,
        args.tasks,
        seeding.elapsed().as_secs_f64()
    );

    let pages = remindbot::bot::render::page_count(i64::try_from(args.tasks)?);
    for (name, offset) in [
        ("first_page", 0),
        ("last_page", (pages - 1).max(0) * PAGE_SIZE),
    ] {
        let mut times = Vec::with_capacity(args.samples);
        let mut conn = pool.acquire().await?;
        for _ in 0..args.samples {
            let started = Instant::now();
            let total = tasks::count_open(&mut conn, ChatId(user)).await?;
            let page = tasks::list_open(&mut conn, ChatId(user), PAGE_SIZE, offset).await?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            anyhow::ensure!(total >= i64::try_from(args.tasks)? && !page.is_empty());
        }
        println!(
            "bench=list measure=store_lookups page={name} samples={} p50_ms={:.3} p99_ms={:.3}",
            args.samples,
            devdb::stats::percentile(&mut times.clone(), 0.5),
            devdb::stats::percentile(&mut times, 0.99),
        );
    }

    let mut bot = tokio::process::Command::new(&bot_binary)
        .arg("run")
        .env("DATABASE_URL", database.url())
        .env("TELOXIDE_TOKEN", sim.token())
        .env("TELOXIDE_API_URL", sim.url().as_str())
        .env("HTTP_ADDR", "127.0.0.1:0")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let pid = bot
        .id()
        .ok_or_else(|| anyhow::anyhow!("the bot exited at once"))?;
    let mut waits = Vec::with_capacity(args.asks);
    // The first answer also waits for the bot to start (migrations, the first long poll).
    let said = sim.user_says(user, "/list")?;
    sim.wait_for_bot_message(user, said.message_id, Duration::from_secs(120))
        .await?;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let idle = memory(pid)?;
    for _ in 0..args.asks {
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        let asked = Instant::now();
        let said = sim.user_says(user, "/list")?;
        sim.wait_for_bot_message(user, said.message_id, Duration::from_secs(30))
            .await?;
        waits.push(asked.elapsed().as_secs_f64() * 1000.0);
    }
    let after = memory(pid)?;
    bot.kill().await?;
    println!(
        "bench=list measure=end_to_end asks={} p50_ms={:.1} p99_ms={:.1} max_ms={:.1}",
        args.asks,
        devdb::stats::percentile(&mut waits.clone(), 0.5),
        devdb::stats::percentile(&mut waits.clone(), 0.99),
        waits.iter().copied().fold(0.0, f64::max),
    );
    println!(
        "bench=list measure=memory rows={} rss_idle_mb={:.1} rss_after_mb={:.1} rss_peak_mb={:.1}",
        args.rows, idle.rss_mb, after.rss_mb, after.peak_mb
    );
    sim.shutdown().await;
    pool.close().await;
    Ok(())
}

/// The production binary the benchmark runs: `--bot`, or `remindbot` beside this program.
fn bot_binary(args: &ListBenchArgs) -> anyhow::Result<PathBuf> {
    let path = match &args.bot {
        Some(path) => path.clone(),
        None => std::env::current_exe()?.with_file_name("remindbot"),
    };
    anyhow::ensure!(
        path.is_file(),
        "no remindbot binary at {}: build it first (`cargo build --release -p remindbot`) or pass \
         --bot PATH",
        path.display()
    );
    Ok(path)
}

/// `tasks` open tasks for `user`, due over the coming weeks, each with its reminder job.
async fn seed_user(pool: &PgPool, user: i64, tasks: usize) -> anyhow::Result<()> {
    let queue = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let zone: Tz = ZONE.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut tx = pool.begin().await?;
    chats::upsert(&mut *tx, ChatId(user), ChatKind::Private, Lang::En).await?;
    chats::set_tz(&mut *tx, ChatId(user), zone).await?;
    let now = Utc::now();
    for n in 0..tasks {
        let new = NewTask {
            chat_id: ChatId(user),
            owner_id: UserId(user),
            text: TaskText::parse(&format!("errand number {n}")).expect("a short text"),
            due_at: now + chrono::Duration::minutes(60 + 97 * n as i64),
            lead: Lead::ZERO,
            recurrence: None,
            tz: zone,
        };
        tasks::create(&mut tx, &queue, &new).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A process's resident memory now and at its peak.
struct Memory {
    rss_mb: f64,
    peak_mb: f64,
}

/// Reads `VmRSS` and `VmHWM` of process `pid` (Linux).
fn memory(pid: u32) -> anyhow::Result<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let field = |name: &str| -> f64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    Ok(Memory {
        rss_mb: field("VmRSS:"),
        peak_mb: field("VmHWM:"),
    })
}
