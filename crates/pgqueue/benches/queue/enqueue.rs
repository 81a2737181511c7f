//! The bulk enqueue against a plain INSERT of the same rows, in pairs: each round writes
//! `--jobs` jobs with `Queue::enqueue_many` into a fresh database and the same rows with a bare
//! `INSERT … jsonb_array_elements` into another, the two one right after the other (which goes
//! first alternates by round), so that both meet the same moment of a shared machine. A single
//! bulk write of 20,000 rows takes ~100–300 ms, where one scheduling hiccup shows; the default
//! benchmark times it once per run, this one as often as `--rounds` says.

use std::time::Instant;

use serde_json::json;

use pgqueue::{NewJob, Queue, QueueConfig};

/// Options of `enqueue`.
#[derive(Debug, clap::Args)]
pub struct EnqueueArgs {
    /// Jobs written per round by each side.
    #[arg(long, default_value_t = 20_000)]
    pub jobs: usize,
    /// Pairs measured.
    #[arg(long, default_value_t = 9)]
    pub rounds: usize,
}

/// Measures `--rounds` pairs; prints a line per pair and the medians.
pub async fn run(args: &EnqueueArgs, server_url: &str) -> anyhow::Result<()> {
    let jobs: Vec<NewJob> = (0..args.jobs)
        .map(|n| NewJob::new(json!({ "n": n })))
        .collect();
    let payloads = serde_json::Value::Array((0..args.jobs).map(|n| json!({ "n": n })).collect());
    let (mut enqueue_rates, mut insert_rates, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..args.rounds.max(1) {
        let (enqueue_ms, insert_ms) = if round % 2 == 0 {
            let enqueue = time_enqueue(&jobs, server_url).await?;
            (
                enqueue,
                time_insert(&payloads, args.jobs, server_url).await?,
            )
        } else {
            let insert = time_insert(&payloads, args.jobs, server_url).await?;
            (time_enqueue(&jobs, server_url).await?, insert)
        };
        let (enqueue_rate, insert_rate) = (rate(args.jobs, enqueue_ms), rate(args.jobs, insert_ms));
        println!(
            "bench=enqueue round={} jobs={} enqueue_ms={enqueue_ms:.1} insert_ms={insert_ms:.1} \
             enqueue_jobs_per_s={enqueue_rate:.0} raw_insert_jobs_per_s={insert_rate:.0} \
             enqueue_to_raw_insert={:.2}",
            round + 1,
            args.jobs,
            enqueue_rate / insert_rate,
        );
        enqueue_rates.push(enqueue_rate);
        insert_rates.push(insert_rate);
        ratios.push(enqueue_rate / insert_rate);
    }
    let enqueue = devdb::stats::median(&mut enqueue_rates);
    let insert = devdb::stats::median(&mut insert_rates);
    println!(
        "summary bench=enqueue jobs={} rounds={} median_enqueue_jobs_per_s={enqueue:.0} \
         median_raw_insert_jobs_per_s={insert:.0} ratio_of_medians={:.2} median_pair_ratio={:.2}",
        args.jobs,
        args.rounds.max(1),
        enqueue / insert,
        devdb::stats::median(&mut ratios),
    );
    Ok(())
}

fn rate(jobs: usize, millis: f64) -> f64 {
    jobs as f64 / (millis / 1000.0)
}

/// Milliseconds for `enqueue_many` of `jobs` in one transaction, on a fresh database.
async fn time_enqueue(jobs: &[NewJob], server_url: &str) -> anyhow::Result<f64> {
    let database = crate::scratch(server_url).await?;
    let pool = database.pool(2).await?;
    let queue = Queue::new(pool.clone(), QueueConfig::new("bench"));
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    let ids = queue.enqueue_many(&mut tx, jobs).await?;
    tx.commit().await?;
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    anyhow::ensure!(ids.len() == jobs.len(), "enqueued {} jobs", ids.len());
    pool.close().await;
    Ok(millis)
}

/// Milliseconds for the plain INSERT of `payloads` in one transaction, on a fresh database.
async fn time_insert(
    payloads: &serde_json::Value,
    jobs: usize,
    server_url: &str,
) -> anyhow::Result<f64> {
    let database = crate::scratch(server_url).await?;
    let pool = database.pool(2).await?;
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    let written = pgqueue::synthetic::raw_insert(&mut *tx, "bench", payloads).await?;
    tx.commit().await?;
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    anyhow::ensure!(
        written as usize == jobs,
        "the plain INSERT wrote {written} rows"
    );
    pool.close().await;
    Ok(millis)
}
