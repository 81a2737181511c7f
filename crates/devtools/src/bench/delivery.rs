//! `bench delivery`: the delivery pipeline (queue, rate limits, teloxide, recording)
//! against the in-process Bot API simulator, on a fresh database per run.
//!
//! Modes: `throughput` (N reminders due at once for N chats; reminders/s from start to the last
//! one recorded, and the sustained request rate from the first send to the last; 429 share), `steady`
//! (reminders falling due at a steady rate; lateness p50/p99 from due to sent).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use secrecy::SecretString;
use sqlx::PgPool;

use pgqueue::{Queue, QueueConfig};
use remindbot::config::{DeliveryArgs, RunConfig, TelegramArgs};
use remindbot::db::DatabaseArgs;
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::lead::Lead;
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::ChatKind;
use remindbot::store::{OUTBOX_QUEUE, StoreError, chats, outbox_queue};
use tgsim::{FaultAction, FaultRule, LimitsConfig, NewUser, Rate, SimConfig, Simulator};

/// What to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// All reminders due at once, one per chat: reminders/s and the share of 429s.
    Throughput,
    /// Reminders falling due at `--steady-rate` per second: lateness from due to sent.
    Steady,
}

/// Options of `bench delivery`.
#[derive(Debug, clap::Args)]
pub struct DeliveryBenchArgs {
    /// What to measure.
    #[arg(long, value_enum, default_value_t = Mode::Throughput)]
    pub mode: Mode,
    /// Reminders per run (throughput mode).
    #[arg(long, default_value_t = 900)]
    pub reminders: usize,
    /// The simulator's overall limit per second (Telegram's: 30).
    #[arg(long, default_value_t = 30)]
    pub sim_rate: u32,
    /// The bot's overall limit per second (SEND_RATE_PER_SEC).
    #[arg(long, default_value_t = 29)]
    pub bot_rate: u32,
    /// Flood control off on both sides: the pipeline's headroom.
    #[arg(long)]
    pub no_limits: bool,
    /// Latency added to every send, as `MIN-MAX` milliseconds (e.g. 200-3000).
    #[arg(long)]
    pub latency_ms: Option<String>,
    /// Reminders falling due per second (steady mode).
    #[arg(long, default_value_t = 20)]
    pub steady_rate: u32,
    /// Seconds of steady load (steady mode).
    #[arg(long, default_value_t = 20)]
    pub steady_secs: u32,
    /// The most sends in flight (DELIVERY_WORKERS); unset: the bot's default.
    #[arg(long)]
    pub workers: Option<usize>,
    /// Runs, each on a fresh database and simulator.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// A folder to write `delivery-sends-per-second.svg` to: each run's successful sends per
    /// second, beside the bot's budget.
    #[arg(long)]
    pub plots: Option<std::path::PathBuf>,
}

/// What one run measured.
struct RunResult {
    reminders: usize,
    secs: f64,
    /// Requests per second between the first and the last send's arrival at the simulator.
    sustained_per_s: f64,
    requests: u64,
    too_many: u64,
    duplicates: u64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    /// When each successful send arrived at the simulator, in milliseconds.
    sent_at_ms: Vec<i64>,
}

/// Runs the benchmark `--runs` times; prints one `bench=delivery …` line per run and, with several
/// runs, a `summary` line of medians.
pub async fn run(args: &DeliveryBenchArgs, server_url: &str) -> anyhow::Result<()> {
    let latency = args.latency_ms.as_deref().map(parse_range).transpose()?;
    let results = super::repeat::repeated(
        args.runs,
        async || run_once(args, server_url, latency).await,
        |result, kind| line(args, latency, result, kind),
        |runs| RunResult {
            reminders: runs.median(|r| r.reminders as f64) as usize,
            secs: runs.median(|r| r.secs),
            sustained_per_s: runs.median(|r| r.sustained_per_s),
            requests: runs.median(|r| r.requests as f64) as u64,
            too_many: runs.median(|r| r.too_many as f64) as u64,
            duplicates: runs.median(|r| r.duplicates as f64) as u64,
            p50_ms: runs.median(|r| r.p50_ms),
            p99_ms: runs.median(|r| r.p99_ms),
            max_ms: runs.median(|r| r.max_ms),
            sent_at_ms: Vec::new(),
        },
    )
    .await?;
    if let Some(folder) = &args.plots {
        let runs: Vec<(String, Vec<i64>)> = results
            .into_iter()
            .enumerate()
            .map(|(i, r)| (format!("run {}", i + 1), r.sent_at_ms))
            .collect();
        let budget = (!args.no_limits).then_some(args.bot_rate);
        super::plots::sends_per_second(
            folder,
            "delivery-sends-per-second.svg",
            &format!(
                "Reminders sent per second, Telegram answering in {} ms",
                latency_label(latency)
            ),
            &runs,
            budget,
        )?;
    }
    Ok(())
}

/// The latency added to the simulator's answers as `MIN-MAX` (milliseconds), or 0 without.
pub(super) fn latency_label(latency: Option<(u64, u64)>) -> String {
    latency.map_or("0".to_owned(), |(lo, hi)| format!("{lo}-{hi}"))
}

fn line(
    args: &DeliveryBenchArgs,
    latency: Option<(u64, u64)>,
    r: &RunResult,
    kind: &str,
) -> String {
    let latency = latency.map_or("0".to_owned(), |(lo, hi)| format!("{lo}-{hi}"));
    let limits = if args.no_limits {
        "off".to_owned()
    } else {
        format!("sim{}/bot{}", args.sim_rate, args.bot_rate)
    };
    let head = format!(
        "bench=delivery {kind} mode={:?} limits={limits} latency_ms={latency} workers={} reminders={} secs={:.2}",
        args.mode,
        max_in_flight(args.workers),
        r.reminders,
        r.secs
    )
    .to_lowercase();
    match args.mode {
        Mode::Throughput => format!(
            "{head} reminders_per_s={:.1} sustained_per_s={:.1} requests={} r429={} r429_pct={:.2} duplicates={}",
            r.reminders as f64 / r.secs,
            r.sustained_per_s,
            r.requests,
            r.too_many,
            100.0 * r.too_many as f64 / r.requests.max(1) as f64,
            r.duplicates
        ),
        Mode::Steady => format!(
            "{head} rate={} lateness_p50_ms={:.1} lateness_p99_ms={:.1} lateness_max_ms={:.1} r429={}",
            args.steady_rate, r.p50_ms, r.p99_ms, r.max_ms, r.too_many
        ),
    }
}

/// The most sends in flight a run has: `workers`, else DELIVERY_WORKERS's default.
pub(super) fn max_in_flight(workers: Option<usize>) -> usize {
    workers.unwrap_or_else(|| DeliveryArgs::default().workers)
}

/// `MIN-MAX` milliseconds.
pub(super) fn parse_range(text: &str) -> anyhow::Result<(u64, u64)> {
    let (lo, hi) = text.split_once('-').context("--latency-ms is MIN-MAX")?;
    Ok((lo.trim().parse()?, hi.trim().parse()?))
}

async fn run_once(
    args: &DeliveryBenchArgs,
    server_url: &str,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<RunResult> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let queue = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let sim_config = if args.no_limits {
        SimConfig::default().without_limits()
    } else {
        SimConfig::default().with_limits(LimitsConfig {
            global: Rate::per_second(args.sim_rate, args.sim_rate),
            ..LimitsConfig::default()
        })
    };
    let sim = Simulator::start(sim_config).await?;
    if let Some((min_ms, max_ms)) = latency {
        sim.add_fault(FaultRule::new(FaultAction::Delay { min_ms, max_ms }).method("sendMessage"));
    }
    let n = match args.mode {
        Mode::Throughput => args.reminders,
        Mode::Steady => (args.steady_rate * args.steady_secs) as usize,
    };
    let mut chat_ids = Vec::with_capacity(n);
    for i in 0..n {
        let user = sim.create_user(NewUser::new(&format!("Bench{i}")))?;
        chat_ids.push(user.user.id);
    }
    let start_at = Utc::now() + chrono::Duration::seconds(3);
    let due: Vec<_> = chat_ids
        .iter()
        .enumerate()
        .map(|(i, chat)| match args.mode {
            Mode::Throughput => (*chat, Utc::now()),
            Mode::Steady => (
                *chat,
                start_at
                    + chrono::Duration::microseconds(
                        i as i64 * 1_000_000 / i64::from(args.steady_rate.max(1)),
                    ),
            ),
        })
        .collect();
    seed(&pool, &queue, &due).await?;
    sqlx::query("analyze").execute(&pool).await?;

    let bot_rate = if args.no_limits { 0 } else { args.bot_rate };
    let config = run_config(
        database.url(),
        &sim,
        bot_rate,
        !args.no_limits,
        args.workers,
    );
    let started = Instant::now();
    let running = remindbot::app::start(config).await?;
    let timeout = Duration::from_secs(600);
    anyhow::ensure!(
        wait_for_sent(&pool, n as i64, timeout).await?,
        "not every reminder was sent within {timeout:?}"
    );
    let secs = started.elapsed().as_secs_f64();
    running.stop().await?;
    let counters = sim.counters();
    let calls = sim.calls(0);
    let arrivals: Vec<i64> = calls
        .iter()
        .filter(|c| c.method == "sendMessage")
        .map(|c| c.at_ms)
        .collect();
    let sent_at_ms: Vec<i64> = calls
        .iter()
        .filter(|c| c.method == "sendMessage" && c.status == 200)
        .map(|c| c.at_ms)
        .collect();
    let span_ms = match (arrivals.iter().min(), arrivals.iter().max()) {
        (Some(first), Some(last)) if last > first => (last - first) as f64,
        _ => f64::NAN,
    };
    let (p50, p99, max): (f64, f64, f64) = sqlx::query_as(
        "select percentile_cont(0.5) within group (order by l), percentile_cont(0.99) within group (order by l), max(l)
         from (select extract(epoch from sent_at - fire_at)::float8 * 1000 as l from reminders) s",
    )
    .fetch_one(&pool)
    .await?;
    sim.shutdown().await;
    pool.close().await;
    Ok(RunResult {
        reminders: n,
        secs,
        sustained_per_s: (arrivals.len().saturating_sub(1)) as f64 * 1000.0 / span_ms,
        requests: counters
            .requests_by_method
            .get("sendMessage")
            .copied()
            .unwrap_or(0),
        too_many: counters.errors_by_code.get(&429).copied().unwrap_or(0),
        duplicates: counters.messages_sent.saturating_sub(n as u64),
        p50_ms: p50,
        p99_ms: p99,
        max_ms: max,
        sent_at_ms,
    })
}

/// Creates (when new) the chats and one one-off task per `(chat_id, due_at)`, each with its
/// reminder job; negative ids are groups. Returns the task ids in order.
pub async fn seed(
    pool: &PgPool,
    queue: &Queue,
    reminders: &[(i64, DateTime<Utc>)],
) -> Result<Vec<i64>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut ids = Vec::with_capacity(reminders.len());
    for (n, (chat_id, due_at)) in reminders.iter().enumerate() {
        let kind = if *chat_id < 0 {
            ChatKind::Group
        } else {
            ChatKind::Private
        };
        chats::upsert(&mut *tx, ChatId(*chat_id), kind, Lang::En).await?;
        let new = NewTask {
            chat_id: ChatId(*chat_id),
            owner_id: UserId(chat_id.abs()),
            text: TaskText::parse(&format!("task {n}")).expect("a short text"),
            due_at: *due_at,
            lead: Lead::ZERO,
            recurrence: None,
            tz: Tz::UTC,
        };
        ids.push(tasks::create(&mut tx, queue, &new).await?.id.0);
    }
    tx.commit().await?;
    Ok(ids)
}

/// Waits until `n` reminders are marked sent, checking every 20 ms; `false` after `timeout`.
pub async fn wait_for_sent(pool: &PgPool, n: i64, timeout: Duration) -> Result<bool, sqlx::Error> {
    let started = Instant::now();
    loop {
        let sent: i64 = sqlx::query_scalar("select count(*) from reminders where sent")
            .fetch_one(pool)
            .await?;
        if sent >= n {
            return Ok(true);
        }
        if started.elapsed() > timeout {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `remindbot run`'s settings for a benchmark against `sim`: the bot's overall budget `rate` per
/// second (0: none), the per-chat and per-group limits on or off, at most `workers` sends in
/// flight (unset: the default); the rest are the defaults.
pub(super) fn run_config(
    database_url: &str,
    sim: &tgsim::SimHandle,
    rate: u32,
    chat_limits: bool,
    workers: Option<usize>,
) -> RunConfig {
    run_config_at(
        database_url,
        sim.url(),
        sim.token(),
        rate,
        chat_limits,
        workers,
    )
}

/// [`run_config`] against a simulator known by its Bot API's base URL and token (one that runs in
/// another process).
pub(super) fn run_config_at(
    database_url: &str,
    api_url: String,
    token: &str,
    rate: u32,
    chat_limits: bool,
    workers: Option<usize>,
) -> RunConfig {
    RunConfig {
        db: DatabaseArgs {
            database_url: Some(database_url.to_owned()),
        },
        telegram: TelegramArgs {
            token: remindbot::config::BotToken::from(SecretString::from(token.to_owned())),
            api_url: Some(api_url),
            http_timeout_secs: 17,
        },
        delivery: DeliveryArgs {
            workers: max_in_flight(workers),
            rate_per_sec: rate,
            rate_per_chat_per_sec: u32::from(chat_limits),
            rate_per_group_per_min: if chat_limits { 20 } else { 0 },
            ..DeliveryArgs::default()
        },
        bot: remindbot::bot::BotSettings::default(),
        admin: remindbot::config::AdminArgs::default(),
        http_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        calendar_feed_rate_per_min: std::num::NonZeroU32::new(6).expect("not zero"),
        listeners: remindbot::http::ListenerLimits::default(),
        miniapp: remindbot::miniapp::MiniAppSettings::default(),
        db_max_connections: 20,
        retention_days: 90,
        intake: remindbot::config::IntakeArgs::default(),
        paid_broadcast: remindbot::config::PaidBroadcastArgs::default(),
    }
}
