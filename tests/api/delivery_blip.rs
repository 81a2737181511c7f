//! A database blip under load: two replicas, reminders falling due and users writing, and
//! PostgreSQL cut off for 20 s behind a proxy. Nothing is lost, nothing is sent twice, every user
//! is answered.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use tokio_util::sync::CancellationToken;

use crate::app::TestApp;
use crate::db_proxy::DbProxy;
use crate::support::{WAIT, eventually, server_url};

const REMINDERS: i64 = 300;
const WRITERS: i64 = 30;
const OUTAGE: Duration = Duration::from_secs(20);

/// Each writer sends `/list` every 4 s (15 a minute, under the per-user limit) until `stop`;
/// returns how many messages each sent.
async fn write_until(app: Arc<TestApp>, users: Vec<i64>, stop: CancellationToken) -> Vec<usize> {
    let mut sent = vec![0; users.len()];
    while !stop.is_cancelled() {
        for (i, user) in users.iter().enumerate() {
            app.sim
                .user_says_in(*user, *user, "/list", None)
                .expect("the simulator takes the message");
            sent[i] += 1;
        }
        tokio::select! {
            () = stop.cancelled() => {}
            () = tokio::time::sleep(Duration::from_secs(4)) => {}
        }
    }
    sent
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_20_s_database_blip_under_two_replicas_loses_nothing_and_sends_nothing_twice() {
    let proxy = Arc::new(DbProxy::start(&server_url().await).await);
    let via_proxy = proxy.clone();
    let mut app = TestApp::builder()
        .config(move |c| {
            let url = c.db.database_url.as_deref().expect("a database URL");
            c.db.database_url = Some(via_proxy.url(url));
            c.delivery.rate_per_sec = 40;
            c.delivery.workers = 16;
        })
        .prepare()
        .await;
    let reminder_chats = app.users(4_500_000, REMINDERS);
    let writers = app.users(4_600_000, WRITERS);
    let now = Utc::now();
    // Due over the first 12 s, so sends are under way when the database goes.
    let due: Vec<_> = reminder_chats
        .iter()
        .enumerate()
        .map(|(i, chat)| (*chat, now + chrono::Duration::milliseconds(i as i64 * 40)))
        .collect();
    app.seed(&due).await;
    app.run().await;
    let replica = app.replica(|_| {}).await;
    let app = Arc::new(app);

    let stop_writing = CancellationToken::new();
    let writing = tokio::spawn(write_until(
        app.clone(),
        writers.clone(),
        stop_writing.clone(),
    ));
    eventually(WAIT, "sends to be under way", || async {
        app.sim.counters().messages_sent >= 60
    })
    .await;

    let started = Instant::now();
    proxy.cut();
    tokio::time::sleep(OUTAGE).await;
    proxy.restore();
    // Users go on writing for a while after the database is back.
    tokio::time::sleep(Duration::from_secs(4)).await;
    stop_writing.cancel();
    let written = writing.await.expect("the writers finish");

    app.wait_sent(REMINDERS, WAIT * 4).await;
    let answered = |i: usize| app.bot_messages(writers[i]).len() >= written[i];
    eventually(WAIT * 4, "every user answered", || async {
        (0..writers.len()).all(answered)
    })
    .await;
    let recovered_in = started.elapsed() - OUTAGE;
    // Long enough for the reaper to take, and another replica to send again, anything it would.
    tokio::time::sleep(pgqueue::reaper::GRACE + Duration::from_secs(3)).await;

    let lost = reminder_chats
        .iter()
        .filter(|c| app.bot_messages(**c).is_empty())
        .count();
    let reminder_duplicates: usize = reminder_chats
        .iter()
        .map(|c| app.bot_messages(*c).len().saturating_sub(1))
        .sum();
    let answer_duplicates: usize = writers
        .iter()
        .zip(&written)
        .map(|(c, n)| app.bot_messages(*c).len().saturating_sub(*n))
        .sum();
    let unanswered = (0..writers.len()).filter(|i| !answered(*i)).count();
    eprintln!(
        "blip of {OUTAGE:?} under 2 replicas: {REMINDERS} reminders, {lost} lost, \
         {reminder_duplicates} sent twice; {} messages from {WRITERS} users, {unanswered} \
         unanswered, {answer_duplicates} answers twice; all delivered {recovered_in:?} after \
         the database came back",
        written.iter().sum::<usize>()
    );
    assert_eq!(lost, 0, "reminders lost");
    assert_eq!(reminder_duplicates, 0, "reminders sent twice");
    assert_eq!(unanswered, 0, "users not answered");
    assert_eq!(answer_duplicates, 0, "answers sent twice");

    replica.stop().await.expect("the replica stops cleanly");
    let mut app = Arc::into_inner(app).expect("the writers are done");
    app.stop().await;
}
