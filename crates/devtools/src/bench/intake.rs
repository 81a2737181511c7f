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

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use secrecy::SecretString;
use serde_json::json;
use sqlx::PgPool;
use tgsim::{NewUser, SimConfig, Simulator};

use remindbot::bot::intake::IntakeMode;
use remindbot::bot::intake::webhook::SECRET_HEADER;

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

const SECRET: &str = "bench-intake-secret";

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
        "bench=intake {kind} updates={} offered_per_s={} connections={} workers={} batch={} \
         received_per_s={:.0} commit_p50_ms={:.1} commit_p99_ms={:.1} handled_per_s={:.0} \
         handled_p50_ms={:.0} handled_p99_ms={:.0}",
        r.updates,
        args.rate
            .map_or_else(|| "closed".to_owned(), |rate| format!("{rate:.0}")),
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

/// A message update as Telegram sends it: `text` from user `user_id` in their private chat (a
/// command's entity marked).
pub fn message_update(update_id: i64, user_id: i64, text: &str) -> serde_json::Value {
    let command = text.starts_with('/').then(|| {
        let length = text.find(' ').unwrap_or(text.len());
        json!([{"type": "bot_command", "offset": 0, "length": length}])
    });
    let mut message = json!({
        "message_id": update_id,
        "date": chrono::Utc::now().timestamp(),
        "chat": {"id": user_id, "type": "private", "first_name": "Bench"},
        "from": {"id": user_id, "is_bot": false, "first_name": "Bench", "language_code": "en"},
        "text": text,
    });
    if let Some(entities) = command {
        message["entities"] = entities;
    }
    json!({"update_id": update_id, "message": message})
}

async fn run_once(args: &IntakeBenchArgs, server_url: &str) -> anyhow::Result<RunResult> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let sim = Simulator::start(SimConfig::default().without_limits()).await?;
    let mut user_ids = Vec::with_capacity(args.users);
    for i in 0..args.users {
        user_ids.push(sim.create_user(NewUser::new(&format!("Bench{i}")))?.user.id);
    }
    let listen = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?;
    let url = format!("http://{listen}/telegram");
    let mut config = super::delivery::run_config(database.url(), &sim, 0, false, Some(64));
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

    let mut bodies = Vec::with_capacity(args.users * 2);
    for (i, user) in user_ids.iter().enumerate() {
        let id = 2 * i as i64 + 1;
        bodies.push(message_update(id, *user, "/tz Asia/Tashkent").to_string());
    }
    for (i, user) in user_ids.iter().enumerate() {
        let id = 2 * i as i64 + 2;
        let task = format!("water the plants {i} tomorrow 9:00");
        bodies.push(message_update(id, *user, &task).to_string());
    }
    let bodies = Arc::new(bodies);
    let client = reqwest::Client::new();
    let started_at = chrono::Utc::now();
    let started = Instant::now();
    let mut round_trips = match args.rate {
        None => post_closed(&client, &url, &bodies, args.connections).await?,
        Some(rate) => post_open(&client, &url, &bodies, args.connections, rate).await?,
    };
    let received_secs = started.elapsed().as_secs_f64();
    let n = bodies.len() as i64;
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
    sim.shutdown().await;
    pool.close().await;
    round_trips.sort_by(f64::total_cmp);
    let at = |q: f64| round_trips[((round_trips.len() - 1) as f64 * q) as usize];
    Ok(RunResult {
        updates: bodies.len(),
        received_per_s: bodies.len() as f64 / received_secs,
        commit_p50_ms: at(0.5),
        commit_p99_ms: at(0.99),
        handled_per_s: bodies.len() as f64 / handled_secs,
        handled_p50_ms: p50,
        handled_p99_ms: p99,
    })
}

/// POSTs `bodies` over `connections` connections, each sending its next as soon as the last is
/// answered; the round trip of each.
async fn post_closed(
    client: &reqwest::Client,
    url: &str,
    bodies: &Arc<Vec<String>>,
    connections: usize,
) -> anyhow::Result<Vec<f64>> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut senders = tokio::task::JoinSet::new();
    for _ in 0..connections.max(1) {
        let (bodies, next, client, url) =
            (bodies.clone(), next.clone(), client.clone(), url.to_owned());
        senders.spawn(async move {
            let mut round_trips = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(body) = bodies.get(i) else {
                    return Ok::<_, anyhow::Error>(round_trips);
                };
                let sent = Instant::now();
                post(&client, &url, body).await?;
                round_trips.push(sent.elapsed().as_secs_f64() * 1000.0);
            }
        });
    }
    let mut round_trips = Vec::with_capacity(bodies.len());
    while let Some(joined) = senders.join_next().await {
        round_trips.extend(joined??);
    }
    Ok(round_trips)
}

/// POSTs update `i` of `bodies` when it is due, `i / rate` seconds from now, over at most
/// `connections` connections at once; the time of each from when it was due to its answer.
async fn post_open(
    client: &reqwest::Client,
    url: &str,
    bodies: &Arc<Vec<String>>,
    connections: usize,
    rate: f64,
) -> anyhow::Result<Vec<f64>> {
    anyhow::ensure!(rate > 0.0, "--rate must be above 0");
    let free = Arc::new(tokio::sync::Semaphore::new(connections.max(1)));
    let start = tokio::time::Instant::now();
    let mut senders = tokio::task::JoinSet::new();
    for i in 0..bodies.len() {
        let due = start + Duration::from_secs_f64(i as f64 / rate);
        tokio::time::sleep_until(due).await;
        let (bodies, free, client, url) =
            (bodies.clone(), free.clone(), client.clone(), url.to_owned());
        senders.spawn(async move {
            let _connection = free.acquire_owned().await?;
            post(&client, &url, &bodies[i]).await?;
            Ok::<_, anyhow::Error>(due.elapsed().as_secs_f64() * 1000.0)
        });
    }
    let mut round_trips = Vec::with_capacity(bodies.len());
    while let Some(joined) = senders.join_next().await {
        round_trips.push(joined??);
    }
    Ok(round_trips)
}

/// POSTs one update to the webhook as Telegram does; an error unless it is accepted.
async fn post(client: &reqwest::Client, url: &str, body: &str) -> anyhow::Result<()> {
    let status = client
        .post(url)
        .header(SECRET_HEADER, SECRET)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await?
        .status();
    anyhow::ensure!(status.is_success(), "the webhook answered {status}");
    Ok(())
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
