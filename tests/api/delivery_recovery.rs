//! Delivery through crashes, shutdowns, database restarts and downtime.

use std::process::Stdio;
use std::time::{Duration, Instant};

use chrono::Utc;
use devdb::LocalCluster;
use pgqueue::JobState;
use remindbot::store::REMINDER_QUEUE;
use tgsim::{FaultAction, FaultRule, SimConfig};
use tokio::process::{Child, Command};

use crate::delivery_support::Setup;

/// Starts the built `remindbot run` against the setup's database and simulator.
fn spawn_run(setup: &Setup) -> Child {
    Command::new(env!("CARGO_BIN_EXE_remindbot"))
        .arg("run")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATABASE_URL", setup.database.url())
        .env("TELOXIDE_TOKEN", setup.sim.token())
        .env("TELOXIDE_API_URL", setup.sim.url())
        .env("TELEGRAM_HTTP_TIMEOUT_SECS", "5")
        .env("DELIVERY_LEASE_SECS", "6")
        .env("REAPER_INTERVAL_SECS", "1")
        .env("SHUTDOWN_DEADLINE_SECS", "5")
        .env("SEND_RATE_PER_SEC", "200")
        .env("HTTP_ADDR", "127.0.0.1:0")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("remindbot run starts")
}

/// 200 ms to 3 s on every send.
fn slow_sends(setup: &Setup) {
    setup.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 200,
            max_ms: 3000,
        })
        .method("sendMessage"),
    );
}

async fn seed_one_each(setup: &Setup, first: i64, n: i64) {
    let chats = setup.users(first, n);
    let now = Utc::now();
    let seeded: Vec<_> = chats.iter().map(|c| (*c, now)).collect();
    setup.seed(&seeded).await;
}

async fn running_jobs(setup: &Setup) -> i64 {
    pgqueue::count(&setup.pool, REMINDER_QUEUE, JobState::Running)
        .await
        .unwrap()
}

async fn wait_for_messages(setup: &Setup, n: u64, timeout: Duration) {
    crate::support::eventually(timeout, "messages sent", || async {
        setup.sim.counters().messages_sent >= n
    })
    .await;
}

#[tokio::test]
async fn sigkill_mid_run_then_restart_delivers_everything_with_duplicates_bounded_by_sends_in_flight()
 {
    const N: i64 = 400;
    let setup = Setup::new(SimConfig::default().without_limits()).await;
    slow_sends(&setup);
    seed_one_each(&setup, 4_000_000, N).await;

    let mut first = spawn_run(&setup);
    wait_for_messages(&setup, N as u64 / 4, Duration::from_secs(30)).await;
    first.start_kill().unwrap();
    let kill_ms = Utc::now().timestamp_millis();
    first.wait().await.unwrap();
    // Let the simulator finish the answers nobody waits for any more.
    tokio::time::sleep(Duration::from_millis(3200)).await;
    let in_flight = setup
        .sim
        .calls(0)
        .iter()
        .filter(|c| c.method == "sendMessage")
        .filter(|c| c.at_ms <= kill_ms && c.at_ms + c.duration_ms as i64 >= kill_ms - 50)
        .count() as u64;
    let claimed_at_kill = running_jobs(&setup).await;

    let mut second = spawn_run(&setup);
    setup.wait_sent(N, Duration::from_secs(60)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sent = setup.sim.counters().messages_sent;
    let duplicates = sent - N as u64;
    eprintln!(
        "SIGKILL: {in_flight} sends in flight, {claimed_at_kill} jobs claimed at the kill; \
         {sent} messages for {N} reminders: {duplicates} duplicates"
    );
    assert!(duplicates <= in_flight, "{duplicates} > {in_flight}");

    // A graceful stop leaves nothing running.
    terminate(&mut second).await;
    assert_eq!(running_jobs(&setup).await, 0);
}

/// Sends SIGTERM and waits for a clean exit.
async fn terminate(child: &mut Child) {
    let pid = child.id().expect("the process runs") as libc::pid_t;
    // SAFETY: signalling a child process we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("exit within the shutdown deadline")
        .unwrap();
    assert!(status.success(), "{status}");
}

#[tokio::test]
async fn sigterm_mid_run_finishes_in_flight_sends_and_leaves_nothing_running() {
    const N: i64 = 200;
    let setup = Setup::new(SimConfig::default().without_limits()).await;
    slow_sends(&setup);
    seed_one_each(&setup, 4_100_000, N).await;

    let mut first = spawn_run(&setup);
    wait_for_messages(&setup, 40, Duration::from_secs(30)).await;
    terminate(&mut first).await;
    assert_eq!(running_jobs(&setup).await, 0);

    let mut second = spawn_run(&setup);
    setup.wait_sent(N, Duration::from_secs(60)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        setup.sim.counters().messages_sent,
        N as u64,
        "no duplicates"
    );
    terminate(&mut second).await;
}

#[tokio::test]
async fn a_postgres_restart_during_a_run_loses_nothing() {
    const N: i64 = 300;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("delivery-pg-restart");
    let cluster = LocalCluster::new(&dir, 55467);
    let url = cluster.ensure_running().await.expect("a dedicated cluster");
    let setup = Setup::on_server(&url, SimConfig::default().without_limits()).await;
    setup.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 50,
            max_ms: 300,
        })
        .method("sendMessage"),
    );
    seed_one_each(&setup, 4_200_000, N).await;
    let mut config = setup.config(60, 1);
    config.delivery.workers = 16;
    let running = setup.start(config).await;
    wait_for_messages(&setup, 60, Duration::from_secs(30)).await;

    let stopping = cluster.clone();
    tokio::task::spawn_blocking(move || stopping.stop())
        .await
        .unwrap()
        .expect("PostgreSQL stops");
    let down_at = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    cluster
        .ensure_running()
        .await
        .expect("PostgreSQL starts again");
    eprintln!("PostgreSQL was down for {:?}", down_at.elapsed());

    setup.wait_sent(N, Duration::from_secs(90)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = setup.sim.counters().messages_sent;
    eprintln!("PostgreSQL restart: {sent} messages for {N} reminders");
    assert!(sent >= N as u64);
    running.stop().await.unwrap();
    assert_eq!(running_jobs(&setup).await, 0);
    drop(setup);
    tokio::task::spawn_blocking(move || cluster.stop())
        .await
        .unwrap()
        .expect("PostgreSQL stops");
}

#[tokio::test]
async fn reminders_missed_during_an_hour_of_downtime_go_out_oldest_first_and_say_how_late() {
    let setup = Setup::new(SimConfig::default()).await;
    let chats = setup.users(4_300_000, 20);
    let now = Utc::now();
    // Seeded in an order unrelated to their due times: chat i fell due 60 − 2·(i·7 mod 20) minutes ago.
    let due = |i: usize| now - chrono::Duration::minutes(60 - 2 * ((i as i64 * 7) % 20));
    let seeded: Vec<_> = chats
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, due(i)))
        .collect();
    setup.seed(&seeded).await;
    let mut config = setup.config(25, 1);
    config.delivery.workers = 1;
    let running = setup.start(config).await;
    setup.wait_sent(20, Duration::from_secs(20)).await;

    let order: Vec<i64> = setup
        .sim
        .calls(0)
        .iter()
        .filter(|c| c.method == "sendMessage" && c.status == 200)
        .filter_map(|c| c.chat_id)
        .collect();
    let mut expected = seeded.clone();
    expected.sort_by_key(|(_, due)| *due);
    let expected: Vec<i64> = expected.into_iter().map(|(c, _)| c).collect();
    assert_eq!(order, expected);
    for chat in &chats {
        let messages = setup.bot_messages(*chat);
        assert_eq!(messages.len(), 1);
        assert!(messages[0].contains("Late by"), "{}", messages[0]);
    }
    running.stop().await.unwrap();
}

#[tokio::test]
async fn the_token_reaches_neither_the_log_nor_the_jobs_when_telegram_is_unreachable() {
    let setup = Setup::new(SimConfig::default()).await;
    let task = setup.seed(&[(4_400_000, Utc::now())]).await[0];
    let mut child = Command::new(env!("CARGO_BIN_EXE_remindbot"))
        .arg("run")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATABASE_URL", setup.database.url())
        .env("TELOXIDE_TOKEN", setup.sim.token())
        // Nothing listens there: every send is a network error quoting the request URL.
        .env("TELOXIDE_API_URL", "http://127.0.0.1:9")
        .env("HTTP_ADDR", "127.0.0.1:0")
        .env("RUST_LOG", "debug")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    crate::support::eventually(Duration::from_secs(15), "a failed attempt", || async {
        crate::delivery_support::job_of_task(&setup.pool, task)
            .await
            .2
            .is_some()
    })
    .await;
    terminate(&mut child).await;
    let output = child.wait_with_output().await.unwrap();
    let log = String::from_utf8_lossy(&output.stderr) + String::from_utf8_lossy(&output.stdout);
    let secret = setup.sim.token().split(':').nth(1).unwrap();
    assert!(!log.is_empty());
    assert!(!log.contains(secret), "the token is in the log");
    let (_, _, last_error, _) = crate::delivery_support::job_of_task(&setup.pool, task).await;
    let last_error = last_error.unwrap();
    assert!(!last_error.contains(secret), "{last_error}");
    assert!(last_error.contains("network"), "{last_error}");
}
