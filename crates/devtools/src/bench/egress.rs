//! `bench egress`: the way out at Telegram's limits (30/s overall, 1/s per chat), on a
//! fresh database and simulator per measurement.
//!
//! Budget: `--reminders` reminders due at once for as many chats, sent by 1, 2 and 3 replicas of
//! `remindbot run` sharing one budget: messages/s (first to last arrival at the simulator), the
//! busiest second (the most arrivals within any 1,000 ms), 429s and duplicates. Priority: one
//! replica with the same backlog while `--askers` users write one after another: the time from a
//! user's message to the bot's answer at p50/p95/p99, and the reminders still waiting. Burst:
//! `--burst-users` users, their zones set, each write a task at the same moment to one replica:
//! the seconds until every one of them sees the bot's confirmation, how many had theirs within
//! [`BURST_AIM`], and confirmations beyond one per user. `--latency-ms` makes every
//! `sendMessage` answer that much later (Telegram slow), in every measurement.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::Utc;
use chrono_tz::Tz;
use sqlx::PgPool;
use tgsim::{FaultAction, FaultRule, LimitsConfig, NewUser, SimConfig, SimHandle, Simulator};

use pgqueue::QueueConfig;
use remindbot::domain::lang::Lang;
use remindbot::store::types::ChatKind;
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

/// What `bench egress` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Measure {
    /// A backlog sent by 1, 2 and 3 replicas under one budget.
    Budget,
    /// Answers to users who write while a backlog drains.
    Answers,
    /// Users writing all at once: how soon every one is answered.
    Burst,
}

/// Options of `bench egress`.
#[derive(Debug, clap::Args)]
pub struct EgressBenchArgs {
    /// The measurements to run.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "budget,answers,burst"
    )]
    pub measures: Vec<Measure>,
    /// Reminders due at once (one per chat).
    #[arg(long, default_value_t = 600)]
    pub reminders: usize,
    /// The replica counts measured.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3")]
    pub replicas: Vec<usize>,
    /// Users who write, one after another, while the backlog drains.
    #[arg(long, default_value_t = 20)]
    pub askers: usize,
    /// Users who write at the same moment (burst).
    #[arg(long, default_value_t = 300)]
    pub burst_users: usize,
    /// Latency added to every `sendMessage`, as `MIN-MAX` milliseconds (e.g. 200-3000).
    #[arg(long)]
    pub latency_ms: Option<String>,
    /// The most sends in flight per replica (DELIVERY_WORKERS); unset: the bot's default.
    #[arg(long)]
    pub workers: Option<usize>,
    /// Runs of each measurement.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// A folder to write `egress-sends-per-second.svg` to: the budget measurement's sends per
    /// second with each replica count (its last run), beside the shared budget.
    #[arg(long)]
    pub plots: Option<std::path::PathBuf>,
}

/// What one burst measurement found.
#[derive(Clone, Copy, Debug)]
struct Burst {
    all_confirmed_s: f64,
    confirmed_within_aim: f64,
    duplicates: f64,
}

/// The burst's aim: every user confirmed within this (300 users at 30/s need 10 s).
const BURST_AIM: Duration = Duration::from_secs(15);
/// What a burst user writes.
const BURST_TASK: &str = "water the plants tomorrow 9:00";
/// The start of the bot's confirmation of a saved task.
const SAVED: &str = "Task saved";

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
    let latency = args
        .latency_ms
        .as_deref()
        .map(super::delivery::parse_range)
        .transpose()?;
    if args.measures.contains(&Measure::Budget) {
        budgets(args, server_url, latency).await?;
    }
    if args.measures.contains(&Measure::Answers) {
        all_answers(args, server_url, latency).await?;
    }
    if args.measures.contains(&Measure::Burst) {
        bursts(args, server_url, latency).await?;
    }
    Ok(())
}

async fn budgets(
    args: &EgressBenchArgs,
    server_url: &str,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<()> {
    let mut curves = Vec::new();
    for replicas in &args.replicas {
        let runs = super::repeat::repeated(
            args.runs,
            async || budget(args, server_url, *replicas, latency).await,
            |(budget, _), kind| budget_line(args, latency, *replicas, budget, kind),
            |runs| {
                let summary = Budget {
                    per_s: runs.median(|(b, _)| b.per_s),
                    busiest_second: runs.median(|(b, _)| b.busiest_second),
                    r429: runs.median(|(b, _)| b.r429),
                    duplicates: runs.median(|(b, _)| b.duplicates),
                };
                (summary, Vec::new())
            },
        )
        .await?;
        let last_sends = runs.into_iter().last().map(|(_, sends)| sends);
        curves.push((
            format!("{replicas} replica(s)"),
            last_sends.unwrap_or_default(),
        ));
    }
    if let Some(folder) = &args.plots {
        super::plots::sends_per_second(
            folder,
            "egress-sends-per-second.svg",
            &match latency {
                Some(_) => format!(
                    "Messages sent per second under one budget, Telegram answering in {} ms",
                    super::delivery::latency_label(latency)
                ),
                None => "Messages sent per second under one budget, Telegram answering at once"
                    .to_owned(),
            },
            &curves,
            Some(RATE),
        )?;
    }
    Ok(())
}

async fn all_answers(
    args: &EgressBenchArgs,
    server_url: &str,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<()> {
    super::repeat::repeated(
        args.runs,
        async || answers(args, server_url, latency).await,
        |answers, kind| answers_line(args, latency, answers, kind),
        |runs| Answers {
            p50_ms: runs.median(|a| a.p50_ms),
            p95_ms: runs.median(|a| a.p95_ms),
            p99_ms: runs.median(|a| a.p99_ms),
            backlog_left: runs.median(|a| a.backlog_left),
        },
    )
    .await?;
    Ok(())
}

async fn bursts(
    args: &EgressBenchArgs,
    server_url: &str,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<()> {
    super::repeat::repeated(
        args.runs,
        async || burst(args, server_url, latency).await,
        |burst, kind| burst_line(args, latency, burst, kind),
        |runs| Burst {
            all_confirmed_s: runs.median(|b| b.all_confirmed_s),
            confirmed_within_aim: runs.median(|b| b.confirmed_within_aim),
            duplicates: runs.median(|b| b.duplicates),
        },
    )
    .await?;
    Ok(())
}

fn budget_line(
    args: &EgressBenchArgs,
    latency: Option<(u64, u64)>,
    replicas: usize,
    b: &Budget,
    kind: &str,
) -> String {
    format!(
        "bench=egress {kind} measure=budget limit_per_s={RATE} latency_ms={} workers={} \
         replicas={replicas} messages={} messages_per_s={:.1} busiest_second={:.0} r429={:.0} \
         duplicates={:.0}",
        super::delivery::latency_label(latency),
        super::delivery::max_in_flight(args.workers),
        args.reminders,
        b.per_s,
        b.busiest_second,
        b.r429,
        b.duplicates
    )
}

fn answers_line(
    args: &EgressBenchArgs,
    latency: Option<(u64, u64)>,
    a: &Answers,
    kind: &str,
) -> String {
    format!(
        "bench=egress {kind} measure=answers_under_backlog latency_ms={} backlog={} askers={} \
         p50_ms={:.0} p95_ms={:.0} p99_ms={:.0} backlog_left={:.0}",
        super::delivery::latency_label(latency),
        args.reminders,
        args.askers,
        a.p50_ms,
        a.p95_ms,
        a.p99_ms,
        a.backlog_left
    )
}

fn burst_line(
    args: &EgressBenchArgs,
    latency: Option<(u64, u64)>,
    b: &Burst,
    kind: &str,
) -> String {
    format!(
        "bench=egress {kind} measure=burst limit_per_s={RATE} latency_ms={} workers={} users={} \
         all_confirmed_s={:.2} confirmed_within_{}s={:.0} duplicates={:.0}",
        super::delivery::latency_label(latency),
        super::delivery::max_in_flight(args.workers),
        args.burst_users,
        b.all_confirmed_s,
        BURST_AIM.as_secs(),
        b.confirmed_within_aim,
        b.duplicates
    )
}

/// A simulator at Telegram's limits whose `sendMessage` answers `latency` late, if given.
async fn simulator(latency: Option<(u64, u64)>) -> anyhow::Result<SimHandle> {
    let sim = Simulator::start(SimConfig::default().with_limits(LimitsConfig::default())).await?;
    if let Some((min_ms, max_ms)) = latency {
        sim.add_fault(FaultRule::new(FaultAction::Delay { min_ms, max_ms }).method("sendMessage"));
    }
    Ok(sim)
}

/// A fresh database and a simulator at Telegram's limits (answering `latency` late) with `n`
/// users, each with a reminder due now.
async fn with_backlog(
    server_url: &str,
    n: usize,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<(devdb::ScratchDatabase, PgPool, SimHandle)> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let sim = simulator(latency).await?;
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

/// One budget measurement, and when each successful send arrived (milliseconds).
async fn budget(
    args: &EgressBenchArgs,
    server_url: &str,
    replicas: usize,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<(Budget, Vec<i64>)> {
    let (database, pool, sim) = with_backlog(server_url, args.reminders, latency).await?;
    let mut running = Vec::new();
    for _ in 0..replicas.max(1) {
        let config = super::delivery::run_config(database.url(), &sim, RATE, true, args.workers);
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
    let budget = Budget {
        per_s: (arrivals.len().saturating_sub(1)) as f64 * 1000.0 / span_ms.max(1) as f64,
        busiest_second: busiest as f64,
        r429: counters.errors_by_code.get(&429).copied().unwrap_or(0) as f64,
        duplicates: counters.messages_sent.saturating_sub(args.reminders as u64) as f64,
    };
    Ok((budget, arrivals))
}

async fn answers(
    args: &EgressBenchArgs,
    server_url: &str,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<Answers> {
    let (database, pool, sim) = with_backlog(server_url, args.reminders, latency).await?;
    let config = super::delivery::run_config(database.url(), &sim, RATE, true, args.workers);
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

/// `--burst-users` users with their zones set write a task at the same moment to one replica
/// with the default settings; their confirmations are watched in their chats.
async fn burst(
    args: &EgressBenchArgs,
    server_url: &str,
    latency: Option<(u64, u64)>,
) -> anyhow::Result<Burst> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let sim = simulator(latency).await?;
    let mut users = Vec::with_capacity(args.burst_users);
    for i in 0..args.burst_users {
        let user = sim
            .create_user(NewUser::new(&format!("Burst{i}")).language("en"))?
            .user
            .id;
        chats::upsert(
            &pool,
            remindbot::domain::ids::ChatId(user),
            ChatKind::Private,
            Lang::En,
        )
        .await?;
        chats::set_tz(
            &pool,
            remindbot::domain::ids::ChatId(user),
            Tz::Asia__Tashkent,
        )
        .await?;
        users.push(user);
    }
    let config = super::delivery::run_config(database.url(), &sim, RATE, true, args.workers);
    let polls = sim.polls_started();
    let running = remindbot::app::start(config).await?;
    sim.wait_for_polls_started(polls + 1, Duration::from_secs(30))
        .await?;
    let started = Instant::now();
    for user in &users {
        sim.user_says(*user, BURST_TASK)?;
    }
    let timeout = Duration::from_secs(120);
    let mut confirmed_at: HashMap<i64, Duration> = HashMap::new();
    while confirmed_at.len() < users.len() {
        anyhow::ensure!(
            started.elapsed() < timeout,
            "{} of {} users confirmed within {timeout:?}",
            confirmed_at.len(),
            users.len()
        );
        for user in &users {
            if !confirmed_at.contains_key(user) && confirmations(&sim, *user) > 0 {
                confirmed_at.insert(*user, started.elapsed());
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let all_confirmed = confirmed_at.values().max().copied().unwrap_or_default();
    // Every confirmation recorded as sent before counting them (a second one would follow that).
    running.stop().await?;
    let total: usize = users.iter().map(|user| confirmations(&sim, *user)).sum();
    sim.shutdown().await;
    pool.close().await;
    Ok(Burst {
        all_confirmed_s: all_confirmed.as_secs_f64(),
        confirmed_within_aim: confirmed_at.values().filter(|at| **at <= BURST_AIM).count() as f64,
        duplicates: total.saturating_sub(users.len()) as f64,
    })
}

/// The bot's task confirmations in `user`'s chat.
fn confirmations(sim: &SimHandle, user: i64) -> usize {
    sim.transcript(user)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.from_bot && e.text.as_deref().is_some_and(|t| t.contains(SAVED)))
        .count()
}
