//! `bench sim` (`remindbot-dev bench sim`): how many sendMessage requests per second the simulator
//! answers, so it is never what limits a delivery benchmark. Starts an in-process simulator with flood control off,
//! sends over real loopback HTTP from `concurrency` keep-alive connections, and prints one line.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::body::Bytes;

use super::{HttpConnection, NewUser, SimConfig, Simulator};

/// Options of `remindbot-dev bench sim`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimBenchArgs {
    /// sendMessage requests in total.
    #[arg(long, default_value_t = 20_000)]
    pub requests: u64,
    /// Connections sending at once.
    #[arg(long, default_value_t = 64)]
    pub concurrency: u64,
    /// Distinct recipients (private chats).
    #[arg(long, default_value_t = 1000)]
    pub chats: u64,
}

/// Runs the benchmark and prints
/// `bench=sim method=sendMessage requests=N concurrency=C chats=K errors=E ms=T req_per_s=R`.
pub async fn run(args: SimBenchArgs) -> anyhow::Result<()> {
    let sim = Simulator::start(SimConfig::default().without_limits())
        .await
        .context("starting the simulator")?;
    let chats = args.chats.max(1);
    let mut chat_ids = Vec::new();
    for i in 0..chats {
        let user = sim
            .create_user(NewUser::new(&format!("Bench{i}")))
            .context("creating a recipient")?;
        chat_ids.push(user.user.id);
    }
    let chat_ids = Arc::new(chat_ids);
    let path = format!("/bot{}/sendMessage", sim.token());
    let authority = sim.addr().to_string();
    let next = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let concurrency = args.concurrency.max(1);
    let mut connections = Vec::new();
    for _ in 0..concurrency {
        connections.push(
            HttpConnection::connect(&authority)
                .await
                .context("connecting to the simulator")?,
        );
    }

    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for mut connection in connections {
        let (next, errors, chat_ids, path, total) = (
            Arc::clone(&next),
            Arc::clone(&errors),
            Arc::clone(&chat_ids),
            path.clone(),
            args.requests,
        );
        workers.spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= total {
                    return Ok::<(), anyhow::Error>(());
                }
                let chat_id = chat_ids[usize::try_from(n).unwrap_or(0) % chat_ids.len()];
                let body =
                    format!(r#"{{"chat_id":{chat_id},"text":"Reminder {n}: water the plants"}}"#);
                let (status, _) = connection.post_json(&path, &[], Bytes::from(body)).await?;
                if !status.is_success() {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
    }
    while let Some(joined) = workers.join_next().await {
        joined.context("benchmark worker panicked")??;
    }
    let elapsed = started.elapsed().max(Duration::from_micros(1));
    let sent = sim.counters().messages_sent;
    anyhow::ensure!(
        sent + errors.load(Ordering::Relaxed) == args.requests,
        "simulator counted {sent} messages"
    );
    println!(
        "bench=sim method=sendMessage requests={} concurrency={} chats={} errors={} ms={} req_per_s={:.0}",
        args.requests,
        concurrency,
        chats,
        errors.load(Ordering::Relaxed),
        elapsed.as_millis(),
        args.requests as f64 / elapsed.as_secs_f64()
    );
    sim.shutdown().await;
    Ok(())
}
