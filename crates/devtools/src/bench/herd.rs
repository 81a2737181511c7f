//! `bench herd`: the 09:00 herd. `--users` users each have a reminder at the same
//! instant; the bot (`remindbot run`, already running and idle) must send them all under its
//! budget. At Telegram's 30/s, 100,000 reminders take 55 minutes: a physical limit. So the
//! simulator's overall limit and the bot's budget are scaled together (`--rate`), and the run
//! measures what the pipeline adds to that physical time, and what the users see:
//! - the drain: from the due instant to the last reminder's arrival at the simulator, against
//!   `users / rate` (the overhead is the pipeline's own cost: claims, pacing, recording);
//! - the order: how far each reminder arrives from its place in due order (the queue's order);
//! - starvation: every chat gets exactly one reminder, and the latest one is as late as the
//!   physical limit says, no later;
//! - lateness grows linearly with the place in line (a least-squares line and its worst
//!   residual), and every reminder later than the "late" threshold (Telegram's 5 minutes, scaled by
//!   `30 / rate`) says how late it is, and none before it does.
//!
//! With `--paid`, each run drains the herd twice, on fresh databases and simulators: at the free
//! rate, then with paid broadcast on (PAID_BROADCAST, the simulator's paid cap of 1000/s and a
//! Stars balance), and prints both drains side by side with the paid sends and the Stars charged.
//!
//! Each run also samples the egress's in-flight limit ([`remindbot::egress::InFlight`]) every
//! 100 ms of the drain and prints its median and largest value: how many sends the bot kept in
//! flight, the bound of a drain that the budget does not bound.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sqlx::PgPool;
use tgsim::{LimitsConfig, NewUser, Rate, SimConfig, SimHandle, Simulator};

use pgqueue::QueueConfig;
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::lead::Lead;
use remindbot::egress::paid::PAID_MAX_PER_SEC;
use remindbot::egress::{InFlight, PaidSettings, Stars};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::ChatKind;
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

/// Options of `bench herd`.
#[derive(Debug, clap::Args)]
pub struct HerdArgs {
    /// Users, each with one reminder at the same instant.
    #[arg(long, default_value_t = 100_000)]
    pub users: usize,
    /// The simulator's overall limit and the bot's budget (SEND_RATE_PER_SEC), per second.
    #[arg(long, default_value_t = 1_000)]
    pub rate: u32,
    /// Reminders being sent at once (DELIVERY_WORKERS).
    #[arg(long, default_value_t = 64)]
    pub workers: usize,
    /// Seconds from the start of seeding to the due instant (seeding must finish before it).
    #[arg(long, default_value_t = 90)]
    pub lead_in_secs: u64,
    /// Runs, each on a fresh database and simulator.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Also drain the herd with paid broadcast on (`allow_paid_broadcast`, up to 1000/s), and
    /// report both drains (use `--rate 30`, Telegram's free limit, for the real comparison).
    #[arg(long)]
    pub paid: bool,
    /// Drain the herd with paid broadcast on only, skipping the free drain (at 30/s, 100,000
    /// reminders take 55 minutes): for a rerun of the paid figure alone.
    #[arg(long, conflicts_with = "paid")]
    pub paid_only: bool,
    /// The simulated bot's Stars balance for the paid drain.
    #[arg(long, default_value = "100000")]
    pub stars_balance: Stars,
    /// PAID_BROADCAST_STARS_PER_DAY for the paid drain.
    #[arg(long, default_value = "100000")]
    pub stars_per_day: Stars,
    /// PAID_BROADCAST_AFTER_SECS for the paid drain.
    #[arg(long, default_value_t = 60)]
    pub paid_after_secs: u64,
    /// A folder to write `herd-lateness.svg` to: each reminder's lateness by its place in line
    /// (the last run of each drain), beside the physical limit's line.
    #[arg(long)]
    pub plots: Option<std::path::PathBuf>,
}

/// The most points a curve of the chart keeps (every n-th reminder of a larger herd).
const PLOT_POINTS: usize = 2_000;

/// Telegram's overall limit, against which the "late" threshold is scaled.
const TELEGRAM_RATE: f64 = 30.0;
/// The bot's "late" threshold at Telegram's rate (the shipped LATE_THRESHOLD_SECS).
const LATE_AT_TELEGRAMS_RATE: f64 = 300.0;
/// The English reminder's "late by" line starts so.
const LATE_NOTE: &str = "Late by";
/// Seeding transactions running at once.
const SEEDERS: usize = 4;
/// How often the in-flight limit is sampled during the drain.
const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// What one run measured.
#[derive(Clone, Copy, Debug)]
struct Herd {
    physical_s: f64,
    drain_s: f64,
    first_send_ms: f64,
    r429: f64,
    missing: f64,
    duplicates: f64,
    displacement_p99: f64,
    displacement_max: f64,
    lateness_p50_s: f64,
    lateness_max_s: f64,
    slope_vs_rate: f64,
    residual_max_ms: f64,
    r_squared: f64,
    late_with_note: f64,
    late_without_note: f64,
    note_when_on_time: f64,
    paid_sends: f64,
    charged_stars: f64,
    in_flight_p50: f64,
    in_flight_max: f64,
}

impl Herd {
    /// The pipeline's share of the drain beyond the physical limit, in percent.
    fn overhead_pct(&self) -> f64 {
        100.0 * (self.drain_s / self.physical_s - 1.0)
    }
}

/// Runs the herd `--runs` times (with `--paid`, twice each: free, then paid): a line per run,
/// then medians, then the drains side by side.
pub async fn run(args: &HerdArgs, server_url: &str) -> anyhow::Result<()> {
    let passes: &[bool] = if args.paid_only {
        &[true]
    } else if args.paid {
        &[false, true]
    } else {
        &[false]
    };
    let mut summaries = Vec::new();
    let mut curves = Vec::new();
    for &paid in passes {
        let mut runs = Vec::new();
        let mut last_lateness = Vec::new();
        for _ in 0..args.runs.max(1) {
            let (herd, lateness_s) = run_once(args, server_url, paid).await?;
            println!("{}", line(args, &herd, "run", paid));
            runs.push(herd);
            last_lateness = lateness_s;
        }
        let name = if paid { "with paid broadcast" } else { "free" };
        curves.push((name, last_lateness));
        let summary = median_of(&runs);
        if runs.len() > 1 {
            println!("{}", line(args, &summary, "summary", paid));
        }
        summaries.push(summary);
    }
    if let [free, paid] = summaries[..] {
        println!(
            "bench=herd compare users={} rate={} drain_free_s={:.2} drain_paid_s={:.2} \
             speedup={:.2} paid_sends={:.0} charged_stars={:.1}",
            args.users,
            args.rate,
            free.drain_s,
            paid.drain_s,
            free.drain_s / paid.drain_s,
            paid.paid_sends,
            paid.charged_stars,
        );
    }
    if let Some(folder) = &args.plots {
        plot(args, folder, &curves)?;
    }
    Ok(())
}

/// Writes the lateness of each reminder by its place in line, for each drain, and the line of
/// the free rate's physical limit (place / rate).
fn plot(
    args: &HerdArgs,
    folder: &std::path::Path,
    curves: &[(&str, Vec<f64>)],
) -> anyhow::Result<()> {
    use benchplot::{Axis, Chart, Corner, Series};
    let every = args.users.div_ceil(PLOT_POINTS).max(1);
    let rate = f64::from(args.rate.max(1));
    let last = args.users.saturating_sub(1) as f64;
    // The physical limit first, so that the free drain, which follows it, is drawn over it.
    let mut series = vec![Series::new(
        format!("physical limit at {rate}/s"),
        vec![(0.0, 0.0), (last, last / rate)],
    )];
    series.extend(curves.iter().map(|(name, lateness_s)| {
        let points = lateness_s
            .iter()
            .enumerate()
            .step_by(every)
            .map(|(place, late)| (place as f64, *late))
            .collect();
        Series::new(*name, points)
    }));
    Chart {
        title: &format!("The 09:00 herd: {} reminders due at once", args.users),
        x: Axis::linear("place in line (arrival order)"),
        y: Axis::linear("seconds late"),
        series,
        legend: Corner::UpperLeft,
    }
    .write(&folder.join("herd-lateness.svg"))?;
    Ok(())
}

/// The median of every figure of `runs`.
fn median_of(runs: &[Herd]) -> Herd {
    let median =
        |f: fn(&Herd) -> f64| devdb::stats::median(&mut runs.iter().map(f).collect::<Vec<_>>());
    Herd {
        physical_s: median(|h| h.physical_s),
        drain_s: median(|h| h.drain_s),
        first_send_ms: median(|h| h.first_send_ms),
        r429: median(|h| h.r429),
        missing: median(|h| h.missing),
        duplicates: median(|h| h.duplicates),
        displacement_p99: median(|h| h.displacement_p99),
        displacement_max: median(|h| h.displacement_max),
        lateness_p50_s: median(|h| h.lateness_p50_s),
        lateness_max_s: median(|h| h.lateness_max_s),
        slope_vs_rate: median(|h| h.slope_vs_rate),
        residual_max_ms: median(|h| h.residual_max_ms),
        r_squared: median(|h| h.r_squared),
        late_with_note: median(|h| h.late_with_note),
        late_without_note: median(|h| h.late_without_note),
        note_when_on_time: median(|h| h.note_when_on_time),
        paid_sends: median(|h| h.paid_sends),
        charged_stars: median(|h| h.charged_stars),
        in_flight_p50: median(|h| h.in_flight_p50),
        in_flight_max: median(|h| h.in_flight_max),
    }
}

fn line(args: &HerdArgs, h: &Herd, kind: &str, paid: bool) -> String {
    format!(
        "bench=herd {kind} paid={paid} users={} rate={} workers={} physical_s={:.2} drain_s={:.2} \
         overhead_pct={:.2} first_send_ms={:.0} r429={:.0} missing={:.0} duplicates={:.0} \
         displacement_p99={:.0} displacement_max={:.0} lateness_p50_s={:.1} lateness_max_s={:.1} \
         slope_vs_rate={:.4} residual_max_ms={:.0} r_squared={:.5} late_threshold_s={:.1} \
         late_with_note={:.0} late_without_note={:.0} note_when_on_time={:.0} paid_sends={:.0} \
         charged_stars={:.1} in_flight_p50={:.0} in_flight_max={:.0}",
        args.users,
        args.rate,
        args.workers,
        h.physical_s,
        h.drain_s,
        h.overhead_pct(),
        h.first_send_ms,
        h.r429,
        h.missing,
        h.duplicates,
        h.displacement_p99,
        h.displacement_max,
        h.lateness_p50_s,
        h.lateness_max_s,
        h.slope_vs_rate,
        h.residual_max_ms,
        h.r_squared,
        late_threshold(args.rate),
        h.late_with_note,
        h.late_without_note,
        h.note_when_on_time,
        h.paid_sends,
        h.charged_stars,
        h.in_flight_p50,
        h.in_flight_max,
    )
}

/// The "late" threshold at `rate`: Telegram's 5 minutes scaled with the rate, so that the same
/// share of the herd counts as late as at 30/s.
fn late_threshold(rate: u32) -> f64 {
    LATE_AT_TELEGRAMS_RATE * TELEGRAM_RATE / f64::from(rate.max(1))
}

/// One drain: its figures, and each reminder's lateness in seconds in arrival order.
async fn run_once(
    args: &HerdArgs,
    server_url: &str,
    paid: bool,
) -> anyhow::Result<(Herd, Vec<f64>)> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(SEEDERS as u32 + 2).await?;
    let mut sim_config = SimConfig::default().with_limits(LimitsConfig {
        global: Rate::per_second(args.rate, args.rate),
        ..LimitsConfig::default()
    });
    sim_config.call_log_capacity = args.users * 2 + 1_000;
    if paid {
        sim_config.stars_balance_tenths = args.stars_balance.tenths;
    }
    let sim = Simulator::start(sim_config).await?;
    let mut chat_ids = Vec::with_capacity(args.users);
    for i in 0..args.users {
        chat_ids.push(sim.create_user(NewUser::new(&format!("Herd{i}")))?.user.id);
    }

    let mut config =
        super::delivery::run_config(database.url(), &sim, args.rate, true, Some(args.workers));
    config.delivery.late_threshold_secs = late_threshold(args.rate).round() as u64;
    if paid {
        config.paid_broadcast.settings = Some(PaidSettings {
            after: Duration::from_secs(args.paid_after_secs),
            per_day: args.stars_per_day,
        });
    }
    let running = remindbot::app::start(config).await?;

    let due = Utc::now() + chrono::Duration::seconds(args.lead_in_secs as i64);
    let seeding = Instant::now();
    seed_at(&pool, &chat_ids, due).await?;
    anyhow::ensure!(
        Utc::now() < due,
        "seeding took {:.0} s, past the due instant: raise --lead-in-secs",
        seeding.elapsed().as_secs_f64()
    );
    sqlx::query("analyze").execute(&pool).await?;
    let timeout = Duration::from_secs(args.lead_in_secs + 120)
        + Duration::from_secs_f64(3.0 * args.users as f64 / f64::from(args.rate.max(1)));
    let waiting = Instant::now();
    let samples = Arc::new(Mutex::new(Vec::new()));
    let sampler = tokio::spawn(sample_in_flight(
        running.context.in_flight.clone(),
        due,
        samples.clone(),
    ));
    wait_for_arrivals(&sim, args.users as u64, timeout).await;
    sampler.abort();
    let limits = std::mem::take(&mut *samples.lock().unwrap_or_else(PoisonError::into_inner));
    anyhow::ensure!(
        super::delivery::wait_for_sent(
            &pool,
            args.users as i64,
            timeout.saturating_sub(waiting.elapsed())
        )
        .await?,
        "not every reminder was sent within {timeout:?}"
    );
    running.stop().await?;
    let herd = measure(args, &pool, &sim, due, paid, limits).await;
    sim.shutdown().await;
    pool.close().await;
    herd
}

/// Adds the egress's in-flight limit to `samples` every [`SAMPLE_EVERY`] from `due` on, until
/// the task is aborted.
async fn sample_in_flight(in_flight: InFlight, due: DateTime<Utc>, samples: Arc<Mutex<Vec<f64>>>) {
    if let Ok(wait) = (due - Utc::now()).to_std() {
        tokio::time::sleep(wait).await;
    }
    let mut every = tokio::time::interval(SAMPLE_EVERY);
    loop {
        every.tick().await;
        let limit = in_flight.current() as f64;
        samples
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(limit);
    }
}

/// Waits until the simulator has taken `n` messages (or `timeout` passed), asking it rather than
/// the database: counting the sent reminders every few milliseconds throughout the drain reads
/// every sent row each time (a herd's rows are not yet all-visible), which took database time from
/// the drain it measures. The database is asked only for the last few records after that.
async fn wait_for_arrivals(sim: &SimHandle, n: u64, timeout: Duration) {
    let started = Instant::now();
    while sim.counters().messages_sent < n && started.elapsed() < timeout {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One reminder per chat, all due at `due`, seeded by [`SEEDERS`] transactions at once.
async fn seed_at(pool: &PgPool, chat_ids: &[i64], due: DateTime<Utc>) -> anyhow::Result<()> {
    let queue = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let chunk = chat_ids.len().div_ceil(SEEDERS).max(1);
    let mut seeders = tokio::task::JoinSet::new();
    for part in chat_ids.chunks(chunk) {
        let (pool, queue, part) = (pool.clone(), queue.clone(), part.to_vec());
        seeders.spawn(async move {
            let mut tx = pool.begin().await?;
            for chat_id in part {
                chats::upsert(&mut *tx, ChatId(chat_id), ChatKind::Private, Lang::En).await?;
                let new = NewTask {
                    chat_id: ChatId(chat_id),
                    owner_id: UserId(chat_id),
                    text: TaskText::parse("stand-up at nine").expect("a short text"),
                    due_at: due,
                    lead: Lead::ZERO,
                    recurrence: None,
                    tz: Tz::UTC,
                };
                tasks::create(&mut tx, &queue, &new).await?;
            }
            tx.commit().await?;
            anyhow::Ok(())
        });
    }
    while let Some(seeded) = seeders.join_next().await {
        seeded??;
    }
    Ok(())
}

/// Reads the simulator's call log and the reminders' due order into the run's figures.
async fn measure(
    args: &HerdArgs,
    pool: &PgPool,
    sim: &SimHandle,
    due: DateTime<Utc>,
    paid: bool,
    mut in_flight: Vec<f64>,
) -> anyhow::Result<(Herd, Vec<f64>)> {
    let due_ms = due.timestamp_millis();
    let paid_sends = sim
        .calls(0)
        .iter()
        .filter(|c| {
            c.method == "sendMessage"
                && c.status == 200
                && c.params["allow_paid_broadcast"].as_bool() == Some(true)
        })
        .count();
    let mut sends: Vec<(i64, u64, i64, bool)> = sim
        .calls(0)
        .into_iter()
        .filter(|c| c.method == "sendMessage" && c.status == 200)
        .filter_map(|c| {
            let chat = c.chat_id?;
            let noted = c.params["text"]
                .as_str()
                .is_some_and(|text| text.contains(LATE_NOTE));
            Some((c.at_ms, c.seq, chat, noted))
        })
        .collect();
    sends.sort_unstable_by_key(|(at, seq, ..)| (*at, *seq));
    let due_order: Vec<i64> = sqlx::query_scalar(
        "select t.chat_id from reminders r join tasks t on t.id = r.task_id order by r.job_id",
    )
    .fetch_all(pool)
    .await
    .context("reading the due order")?;
    let rank: std::collections::HashMap<i64, usize> = due_order
        .iter()
        .enumerate()
        .map(|(i, chat)| (*chat, i))
        .collect();

    let mut seen = std::collections::HashSet::with_capacity(sends.len());
    let mut duplicates = 0usize;
    let mut displacement = Vec::with_capacity(sends.len());
    let mut lateness_s = Vec::with_capacity(sends.len());
    let threshold = late_threshold(args.rate);
    let (mut late_with_note, mut late_without_note, mut note_when_on_time) = (0, 0, 0);
    for (arrived, (at_ms, _, chat, noted)) in sends.iter().enumerate() {
        if !seen.insert(*chat) {
            duplicates += 1;
            continue;
        }
        if let Some(place) = rank.get(chat) {
            displacement.push(arrived.abs_diff(*place) as f64);
        }
        let late = (at_ms - due_ms) as f64 / 1000.0;
        lateness_s.push(late);
        // The bot decides at render time, a few milliseconds before the arrival: a second's
        // grace on either side of the threshold.
        match (*noted, late) {
            (true, _) if late < threshold - 1.0 => note_when_on_time += 1,
            (true, _) => late_with_note += 1,
            (false, _) if late > threshold + 1.0 => late_without_note += 1,
            (false, _) => {}
        }
    }
    let line = fit(&lateness_s);
    let first_ms = sends
        .first()
        .map_or(f64::NAN, |(at, ..)| (at - due_ms) as f64);
    let drain_s = sends
        .last()
        .map_or(f64::NAN, |(at, ..)| (at - due_ms) as f64 / 1000.0);
    let counters = sim.counters();
    // With paid broadcast the cap is Telegram's 1000/s (free and paid together).
    let cap = if paid {
        PAID_MAX_PER_SEC.max(args.rate)
    } else {
        args.rate.max(1)
    };
    let herd = Herd {
        physical_s: args.users as f64 / f64::from(cap),
        drain_s,
        first_send_ms: first_ms,
        r429: counters.errors_by_code.get(&429).copied().unwrap_or(0) as f64,
        missing: args.users.saturating_sub(seen.len()) as f64,
        duplicates: duplicates as f64,
        displacement_p99: devdb::stats::percentile(&mut displacement.clone(), 0.99),
        displacement_max: displacement.iter().copied().fold(0.0, f64::max),
        lateness_p50_s: devdb::stats::percentile(&mut lateness_s.clone(), 0.5),
        lateness_max_s: lateness_s.iter().copied().fold(0.0, f64::max),
        slope_vs_rate: line.slope * f64::from(args.rate),
        residual_max_ms: line.residual_max * 1000.0,
        r_squared: line.r_squared,
        late_with_note: f64::from(late_with_note),
        late_without_note: f64::from(late_without_note),
        note_when_on_time: f64::from(note_when_on_time),
        paid_sends: paid_sends as f64,
        charged_stars: sim.paid_broadcast().charged_tenths as f64 / 10.0,
        in_flight_p50: devdb::stats::percentile(&mut in_flight, 0.5),
        in_flight_max: in_flight.iter().copied().fold(0.0, f64::max),
    };
    Ok((herd, lateness_s))
}

/// A least-squares line through `(i, y[i])`.
struct Line {
    slope: f64,
    residual_max: f64,
    r_squared: f64,
}

fn fit(y: &[f64]) -> Line {
    let n = y.len() as f64;
    if y.len() < 2 {
        return Line {
            slope: f64::NAN,
            residual_max: f64::NAN,
            r_squared: f64::NAN,
        };
    }
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (i, yi) in y.iter().enumerate() {
        let (dx, dy) = (i as f64 - mean_x, yi - mean_y);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    let slope = sxy / sxx;
    let intercept = mean_y - slope * mean_x;
    let residual_max = y
        .iter()
        .enumerate()
        .map(|(i, yi)| (yi - (intercept + slope * i as f64)).abs())
        .fold(0.0, f64::max);
    Line {
        slope,
        residual_max,
        r_squared: if syy > 0.0 {
            sxy * sxy / (sxx * syy)
        } else {
            1.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{fit, late_threshold};

    #[test]
    fn a_straight_line_fits_exactly_and_a_bump_shows_in_the_residual() {
        let straight: Vec<f64> = (0..100).map(|i| 2.0 + 0.5 * f64::from(i)).collect();
        let line = fit(&straight);
        assert!((line.slope - 0.5).abs() < 1e-9);
        assert!(line.residual_max < 1e-9);
        assert!((line.r_squared - 1.0).abs() < 1e-9);
        let mut bumped = straight;
        bumped[50] += 10.0;
        assert!(fit(&bumped).residual_max > 9.0);
    }

    #[test]
    fn the_late_threshold_scales_with_the_rate() {
        assert_eq!(late_threshold(30), 300.0);
        assert_eq!(late_threshold(1_000), 9.0);
    }
}
