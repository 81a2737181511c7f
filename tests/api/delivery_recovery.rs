//! Delivery through crashes, shutdowns, database restarts and downtime, and past a lost claim.

use std::process::Stdio;
use std::time::{Duration, Instant};

use chrono::Utc;
use devdb::LocalCluster;
use pgqueue::{JobState, Outcome, QueueConfig, reaper};
use remindbot::config::DeliveryArgs;
use remindbot::egress::{Egress, InFlight, Pacer};
use remindbot::store::{OUTBOX_QUEUE, outbox_queue};
use teloxide::Bot;
use tgsim::{FaultAction, FaultRule};
use tokio::process::Child;
use tokio_util::sync::CancellationToken;

use crate::app::TestApp;
use crate::support::{WAIT, eventually, job_of_task, jobs_in};

/// A database and a simulator without limits for the built `remindbot run`: a 6 s lease and
/// 200 sends per second overall.
async fn prepare_for_processes() -> TestApp {
    TestApp::builder()
        .config(|c| {
            c.delivery.lease_secs = Some(6);
            c.delivery.rate_per_sec = 200;
        })
        .prepare()
        .await
}

/// Starts the built `remindbot run` against the app's database and simulator.
fn spawn_run(app: &TestApp) -> Child {
    app.run_command()
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("remindbot run starts")
}

/// 200 ms to 3 s on every send.
fn slow_sends(app: &TestApp) {
    app.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 200,
            max_ms: 3000,
        })
        .method("sendMessage"),
    );
}

async fn seed_one_each(app: &TestApp, first: i64, n: i64) {
    let chats = app.users(first, n);
    let now = Utc::now();
    let seeded: Vec<_> = chats.iter().map(|c| (*c, now)).collect();
    app.seed(&seeded).await;
}

async fn running_jobs(app: &TestApp) -> i64 {
    jobs_in(&app.pool, JobState::Running).await
}

async fn wait_for_messages(app: &TestApp, n: u64, timeout: Duration) {
    eventually(timeout, "messages sent", || async {
        app.sim.counters().messages_sent >= n
    })
    .await;
}

#[tokio::test]
async fn sigkill_mid_run_then_restart_delivers_everything_with_duplicates_bounded_by_sends_in_flight()
 {
    const N: i64 = 400;
    let app = prepare_for_processes().await;
    slow_sends(&app);
    seed_one_each(&app, 4_000_000, N).await;

    let mut first = spawn_run(&app);
    // The built binary starts first, and each send takes up to 3 s.
    wait_for_messages(&app, N as u64 / 4, WAIT * 3).await;
    first.start_kill().unwrap();
    let kill_ms = Utc::now().timestamp_millis();
    first.wait().await.unwrap();
    // Let the simulator finish the answers nobody waits for any more.
    tokio::time::sleep(Duration::from_millis(3200)).await;
    // A send can be sent twice only if it reached Telegram and its result was not yet recorded
    // at the kill: in flight, or answered so shortly before that the worker had not committed
    // its result (a second on a loaded machine).
    let in_flight = app
        .sim
        .calls(0)
        .iter()
        .filter(|c| c.method == "sendMessage")
        .filter(|c| c.at_ms <= kill_ms && c.at_ms + c.duration_ms as i64 >= kill_ms - 1000)
        .count() as u64;
    let claimed_at_kill = running_jobs(&app).await;

    let mut second = spawn_run(&app);
    // 400 sends of 200 ms to 3 s through 64 workers take 10 s or more.
    app.wait_sent(N, WAIT * 6).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sent = app.sim.counters().messages_sent;
    let duplicates = sent - N as u64;
    eprintln!(
        "SIGKILL: {in_flight} sends in flight, {claimed_at_kill} jobs claimed at the kill; \
         {sent} messages for {N} reminders: {duplicates} duplicates"
    );
    assert!(duplicates <= in_flight, "{duplicates} > {in_flight}");
    assert!(
        duplicates <= claimed_at_kill as u64,
        "{duplicates} duplicates > {claimed_at_kill} jobs claimed at the kill"
    );

    // A graceful stop leaves nothing running.
    terminate(&mut second).await;
    assert_eq!(running_jobs(&app).await, 0);
}

/// Sends SIGTERM and waits for a clean exit.
async fn terminate(child: &mut Child) {
    let pid = child.id().expect("the process runs") as libc::pid_t;
    // SAFETY: signalling a child process we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    // Sends in flight have the 5 s shutdown deadline; then the process exits.
    let status = tokio::time::timeout(WAIT * 2, child.wait())
        .await
        .expect("exit within the shutdown deadline")
        .unwrap();
    assert!(status.success(), "{status}");
}

#[tokio::test]
async fn sigterm_mid_run_finishes_in_flight_sends_and_leaves_nothing_running() {
    const N: i64 = 200;
    let app = prepare_for_processes().await;
    slow_sends(&app);
    seed_one_each(&app, 4_100_000, N).await;

    let mut first = spawn_run(&app);
    // The built binary starts first, and each send takes up to 3 s.
    wait_for_messages(&app, 40, WAIT * 3).await;
    terminate(&mut first).await;
    assert_eq!(running_jobs(&app).await, 0);

    let mut second = spawn_run(&app);
    // 200 sends of 200 ms to 3 s through 64 workers take 5 s or more.
    app.wait_sent(N, WAIT * 6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.sim.counters().messages_sent, N as u64, "no duplicates");
    terminate(&mut second).await;
}

#[tokio::test]
async fn a_postgres_restart_during_a_run_loses_nothing() {
    const N: i64 = 300;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("delivery-pg-restart");
    let cluster = LocalCluster::new(&dir, 55467);
    let url = cluster.ensure_running().await.expect("a dedicated cluster");
    let mut app = TestApp::builder()
        .server(&url)
        .config(|c| {
            c.delivery.rate_per_sec = 60;
            c.delivery.workers = 16;
        })
        .prepare()
        .await;
    app.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 50,
            max_ms: 300,
        })
        .method("sendMessage"),
    );
    seed_one_each(&app, 4_200_000, N).await;
    app.run().await;
    wait_for_messages(&app, 60, WAIT).await;

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

    // PostgreSQL was down for seconds and takes seconds to start; the pools reconnect.
    app.wait_sent(N, WAIT * 6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = app.sim.counters().messages_sent;
    eprintln!("PostgreSQL restart: {sent} messages for {N} reminders");
    assert!(sent >= N as u64);
    app.stop().await;
    assert_eq!(running_jobs(&app).await, 0);
    drop(app);
    tokio::task::spawn_blocking(move || cluster.stop())
        .await
        .unwrap()
        .expect("PostgreSQL stops");
}

#[tokio::test]
async fn reminders_missed_during_an_hour_of_downtime_go_out_oldest_first_and_say_how_late() {
    let mut app = TestApp::builder()
        .telegram_limits()
        .config(|c| c.delivery.workers = 1)
        .prepare()
        .await;
    let chats = app.users(4_300_000, 20);
    let now = Utc::now();
    // Seeded in an order unrelated to their due times: chat i fell due 60 − 2·(i·7 mod 20) minutes ago.
    let due = |i: usize| now - chrono::Duration::minutes(60 - 2 * ((i as i64 * 7) % 20));
    let seeded: Vec<_> = chats
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, due(i)))
        .collect();
    app.seed(&seeded).await;
    app.run().await;
    app.wait_sent(20, WAIT).await;

    let order: Vec<i64> = app
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
        let messages = app.bot_messages(*chat);
        assert_eq!(messages.len(), 1);
        assert!(messages[0].contains("Late by"), "{}", messages[0]);
    }
    app.stop().await;
}

#[tokio::test]
async fn the_token_reaches_neither_the_log_nor_the_jobs_when_telegram_is_unreachable() {
    let app = TestApp::builder().prepare().await;
    let task = app.seed(&[(4_400_000, Utc::now())]).await[0];
    let mut child = app
        .run_command()
        // Nothing listens there: every send is a network error quoting the request URL.
        .env("TELOXIDE_API_URL", "http://127.0.0.1:9")
        .env("RUST_LOG", "debug")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    eventually(WAIT, "a failed attempt", || async {
        job_of_task(&app.pool, task).await.last_error.is_some()
    })
    .await;
    terminate(&mut child).await;
    let output = child.wait_with_output().await.unwrap();
    let log = String::from_utf8_lossy(&output.stderr) + String::from_utf8_lossy(&output.stdout);
    let secret = app.sim.token().split(':').nth(1).unwrap();
    assert!(!log.is_empty());
    assert!(!log.contains(secret), "the token is in the log");
    let last_error = job_of_task(&app.pool, task).await.last_error.unwrap();
    assert!(!last_error.contains(secret), "{last_error}");
    assert!(last_error.contains("network"), "{last_error}");
}

/// A worker whose claim was taken over (its lease ran out, the reaper gave the job back and
/// another worker claimed it) neither sends the reminder nor books its chat when its turn comes:
/// the claim is confirmed in the statement that books the chat. The new holder sends it, once.
#[tokio::test]
async fn a_worker_whose_claim_was_taken_over_neither_sends_nor_books_the_chat() {
    let app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_300_000, 1)[0];
    app.seed(&[(chat, Utc::now())]).await;
    let brief = outbox_queue(
        app.pool.clone(),
        QueueConfig {
            lease: Duration::ZERO,
            ..QueueConfig::new(OUTBOX_QUEUE)
        },
    );
    let old = brief.claim("old", 1).await.expect("a claim").remove(0);
    eventually(WAIT, "the expired claim given back", || async {
        reaper::reap_expired(&app.pool, std::slice::from_ref(&brief), 10)
            .await
            .expect("a reaper pass")
            .returned
            == 1
    })
    .await;
    let new = app.queue.claim("new", 1).await.expect("a claim").remove(0);
    assert_eq!(new.id, old.id);

    let delivery = DeliveryArgs::default();
    let shutdown = CancellationToken::new();
    let bot = Bot::new(app.sim.token()).set_api_url(app.sim.url().parse().expect("a URL"));
    let egress = Egress::new(
        bot,
        app.queue.clone(),
        Pacer::start(app.pool.clone(), delivery.rates(), shutdown.clone()),
        InFlight::new(delivery.rate_per_sec, delivery.workers),
        delivery.worker(),
    );

    let outcome = egress.send(old).await;
    assert!(matches!(outcome, Outcome::Snooze(_)), "{outcome:?}");
    assert!(app.bot_messages(chat).is_empty(), "the old holder sent it");
    let booked: Option<i64> =
        sqlx::query_scalar("select chat_id from chat_sends where chat_id = $1")
            .bind(chat)
            .fetch_optional(&app.pool)
            .await
            .expect("the chat's pacing row");
    assert_eq!(booked, None, "the old holder booked the chat");

    let outcome = egress.send(new).await;
    assert!(matches!(outcome, Outcome::Recorded), "{outcome:?}");
    assert_eq!(app.bot_messages(chat).len(), 1);
    assert_eq!(jobs_in(&app.pool, JobState::Done).await, 1);
    shutdown.cancel();
}
