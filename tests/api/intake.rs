//! The way in: every update is stored before Telegram is told it arrived, handled once and in
//! order per chat, by any number of replicas, over long polling or a webhook.

use pgqueue::JobId;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::{Duration, Instant};

use pgqueue::JobState;
use remindbot::bot::intake::IntakeMode;
use remindbot::bot::intake::webhook::{self, SECRET_HEADER};
use secrecy::SecretString;
use tgsim::{NewUser, SimConfig, WebhookSettings};

use crate::app::{TestApp, TestAppBuilder, text};
use crate::support::{TIMING, WAIT, eventually, jobs_in};

const SAVED: &str = "Task saved";

/// Users whose chat shows the bot's confirmation of a saved task, and how many each got.
fn confirmations(app: &TestApp, users: &[i64]) -> HashMap<i64, usize> {
    users
        .iter()
        .map(|user| {
            let saved = app
                .sim
                .transcript(*user)
                .unwrap_or_default()
                .iter()
                .filter(|e| e.from_bot && text(e).contains(SAVED))
                .count();
            (*user, saved)
        })
        .collect()
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.pool).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigkill_during_a_burst_of_300_users_loses_no_message_and_handles_none_twice() {
    let _timing = TIMING.lock().await;
    const USERS: i64 = 300;
    let app = TestApp::builder()
        .config(|c| {
            c.delivery.lease_secs = Some(4);
            c.delivery.rate_per_sec = 0;
        })
        .prepare()
        .await;
    let polls = app.sim.polls_started();
    let mut first = app
        .run_command()
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("remindbot run starts");
    app.sim
        .wait_for_polls_started(polls + 1, WAIT * 3)
        .await
        .expect("the bot polls");

    let users: Vec<i64> = (0..USERS)
        .map(|i| {
            app.sim
                .create_user(NewUser::new("user").id(6_000_000 + i).language("en"))
                .unwrap()
                .user
                .id
        })
        .collect();
    for user in &users {
        app.sim.user_says(*user, "/tz Asia/Tashkent").unwrap();
        app.sim
            .user_says(*user, "water the plants tomorrow 9:00")
            .unwrap();
    }
    // Killed while the burst is being handled.
    eventually(WAIT * 3, "a third of the burst handled", || async {
        count(
            &app,
            "select count(*) from updates where handled_at is not null",
        )
        .await
            >= USERS * 2 / 3
    })
    .await;
    first.start_kill().unwrap();
    first.wait().await.unwrap();
    let handled_at_kill = count(
        &app,
        "select count(*) from updates where handled_at is not null",
    )
    .await;
    // Tasks committed whose confirmation had not been sent yet: it waits in the outbox.
    let tasks_at_kill = count(&app, "select count(*) from tasks").await;
    let confirmed_at_kill = confirmations(&app, &users)
        .values()
        .filter(|n| **n > 0)
        .count();
    assert!(
        tasks_at_kill > confirmed_at_kill as i64,
        "the kill caught committed tasks before their confirmation \
         ({tasks_at_kill} tasks, {confirmed_at_kill} confirmed)"
    );

    let mut second = app
        .run_command()
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("remindbot run starts again");
    eventually(WAIT * 6, "every user's task confirmed", || async {
        confirmations(&app, &users).values().all(|n| *n >= 1)
    })
    .await;
    let tasks = count(&app, "select count(*) from tasks").await;
    let twice = count(
        &app,
        "select count(*) from (select chat_id from tasks group by chat_id having count(*) > 1) t",
    )
    .await;
    let confirmed: usize = confirmations(&app, &users).values().sum();
    eprintln!(
        "SIGKILL after {handled_at_kill} of {} updates handled ({tasks_at_kill} tasks, \
         {confirmed_at_kill} confirmed): after the restart {tasks} tasks, {confirmed} confirmations",
        USERS * 2
    );
    assert_eq!(tasks, USERS, "one task per user");
    assert_eq!(twice, 0, "no message handled twice");
    assert_eq!(
        count(&app, "select count(*) from updates where chat_id is null").await,
        0,
        "every update is filed under its chat (its order key)"
    );
    assert_eq!(
        count(
            &app,
            "select count(*) from updates where handled_at is null"
        )
        .await,
        0
    );
    second.start_kill().unwrap();
    second.wait().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_polling_replicas_never_conflict_and_another_takes_over_within_5_s() {
    let _timing = TIMING.lock().await;
    let mut app = TestApp::start().await;
    let second = app.replica(|_| {}).await;
    let third = app.replica(|_| {}).await;
    let ann = app.user("Ann", "en");
    let zone = app.say(ann, "/tz Asia/Tashkent").await;
    assert!(text(&zone).contains("Asia/Tashkent"), "{zone:?}");
    for i in 0..5 {
        let saved = app.say(ann, &format!("task {i} tomorrow 9:00")).await;
        assert!(text(&saved).contains(SAVED), "{saved:?}");
    }
    let conflicts = app.sim.counters().errors_by_code.get(&409).copied();
    assert_eq!(conflicts, None, "no getUpdates conflicts");

    // The replica that polls dies, perhaps between sending a confirmation and recording it (that
    // one is then sent again: a message may leave twice, never not at all). One of the others
    // polls within 5 s and nothing is lost. A job the dead one held (such a confirmation, which
    // holds the chat's next answers back) comes back after its 8 s lease and the reaper's grace:
    // a replica merely cut off from the database might still be sending it.
    app.crash();
    let crashed = Instant::now();
    let held = jobs_in(&app.pool, JobState::Running).await;
    let sent = app
        .sim
        .user_says(ann, "after the crash tomorrow 10:00")
        .unwrap();
    let answered = |t: &[tgsim::TranscriptEntry]| {
        t.iter().any(|e| {
            e.from_bot
                && e.message_id > sent.message_id
                && text(e).contains("after the crash")
                && text(e).contains(SAVED)
        })
    };
    // A held job waits for its lease and the grace: longer than WAIT.
    app.sim
        .wait_for_transcript(ann, WAIT * 3, answered)
        .await
        .expect("the message after the crash is answered");
    let took = crashed.elapsed();
    eprintln!("failover: answered {took:?} after the polling replica died ({held} jobs held)");
    let bound = if held == 0 {
        Duration::from_secs(5)
    } else {
        Duration::from_secs(8 + 3) + pgqueue::reaper::GRACE
    };
    assert!(
        took < bound,
        "{took:?}, {held} jobs held by the dead replica"
    );
    let tasks = count(&app, "select count(*) from tasks").await;
    assert_eq!(tasks, 6);
    second.stop().await.unwrap();
    third.stop().await.unwrap();
}

#[tokio::test]
async fn one_chats_burst_is_handled_in_order() {
    // Handling order is the point: the chat's 1/s spacing is off.
    let mut app = TestApp::builder()
        .config(|c| c.delivery.rate_per_chat_per_sec = 0)
        .start()
        .await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let before = app.last_message_id(ann);
    app.sim.user_says(ann, "/lang ru").unwrap();
    for i in 1..=19 {
        app.sim
            .user_says(ann, &format!("задача {i} завтра в 9:00"))
            .unwrap();
    }
    let replies = app.replies_after(ann, before, 20).await;
    let saved: Vec<&str> = replies
        .iter()
        .map(text)
        .filter(|t| t.contains("Задача сохранена"))
        .collect();
    assert_eq!(
        saved.len(),
        19,
        "every task confirmed in Russian: {replies:?}"
    );
    for (i, confirmation) in saved.iter().enumerate() {
        assert!(
            confirmation.contains(&format!("задача {}", i + 1)),
            "confirmation {} out of order: {saved:?}",
            i + 1
        );
    }
    let texts: Vec<String> = sqlx::query_scalar("select text from tasks order by id")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    let expected: Vec<String> = (1..=19).map(|i| format!("задача {i}")).collect();
    assert_eq!(texts, expected);
    app.stop().await;
}

/// A free local address for the webhook to listen on.
fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

pub(crate) const SECRET: &str = "a-webhook-secret_0123456789";

/// A bot taking its updates by webhook at `addr`, its secret [`SECRET`], from a simulator that
/// retries a refused update every 200 ms (100 times); and the hook's URL. Nothing runs yet.
pub(crate) fn webhook_builder(addr: SocketAddr) -> (TestAppBuilder, String) {
    let url = format!("http://{addr}/telegram/hook");
    let hook = url.clone();
    let sim = SimConfig {
        webhook: WebhookSettings {
            max_attempts: 100,
            retry_delay: Duration::from_millis(200),
            ..WebhookSettings::default()
        },
        ..SimConfig::default().without_limits()
    };
    let builder = TestApp::builder().simulator(sim).config(move |c| {
        c.intake.mode = IntakeMode::Webhook {
            url: hook.parse().unwrap(),
            secret: SecretString::from(SECRET),
            max_connections: 40,
        };
    });
    (builder, url)
}

async fn webhook_app() -> (TestApp, String) {
    let addr = free_addr();
    let (builder, url) = webhook_builder(addr);
    let app = builder
        .config(move |c| c.intake.webhook_listen = Some(addr))
        .start()
        .await;
    (app, url)
}

#[tokio::test]
async fn the_webhook_refuses_bad_requests_keeps_unreadable_ones_and_handles_the_rest() {
    let (mut app, url) = webhook_app().await;
    let ann = app.user("Ann", "en");
    let zone = app.say(ann, "/tz Asia/Tashkent").await;
    assert!(text(&zone).contains("Asia/Tashkent"), "{zone:?}");

    let client = reqwest::Client::new();
    let post = |secret: Option<&str>, body: Vec<u8>| {
        let mut request = client
            .post(&url)
            .header("content-type", "application/json")
            .body(body);
        if let Some(secret) = secret {
            request = request.header(SECRET_HEADER, secret);
        }
        async move { request.send().await.unwrap().status().as_u16() }
    };
    let update = br#"{"update_id": 900001, "message": {"message_id": 1}}"#.to_vec();
    assert_eq!(post(None, update.clone()).await, 401, "no secret");
    assert_eq!(
        post(Some("wrong"), update.clone()).await,
        401,
        "a wrong secret"
    );
    assert_eq!(
        post(Some(SECRET), vec![b' '; 2 << 20]).await,
        413,
        "an oversized body"
    );
    assert_eq!(post(Some(SECRET), b"{not json".to_vec()).await, 200);
    let unknown = br#"{"update_id": 900002, "business_connection": {"id": "x"}}"#.to_vec();
    assert_eq!(post(Some(SECRET), unknown.clone()).await, 200);
    assert_eq!(
        post(Some(SECRET), unknown).await,
        200,
        "a repeat is stored once"
    );

    eventually(WAIT, "the unknown update handled", || async {
        count(
            &app,
            "select count(*) from updates where update_id = 900002 and handled_at is not null",
        )
        .await
            == 1
    })
    .await;
    assert_eq!(
        count(
            &app,
            "select count(*) from updates where kind = 'unreadable'"
        )
        .await,
        1,
        "the broken body is kept for admins"
    );
    // Nothing crashed: the next message is answered.
    let saved = app.say(ann, "pay rent tomorrow 9:00").await;
    assert!(text(&saved).contains(SAVED), "{saved:?}");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_webhook_replicas_share_the_inbox_and_a_restart_loses_nothing() {
    let (mut app, _) = webhook_app().await;
    let other = app.replica(|c| c.intake.webhook_listen = None).await;
    let users = app.users(7_000_000, 20);
    for user in &users {
        app.sim.user_says(*user, "/tz Asia/Tashkent").unwrap();
    }
    eventually(WAIT, "every user answered", || async {
        users
            .iter()
            .all(|u| app.sim.transcript(*u).unwrap().iter().any(|e| e.from_bot))
    })
    .await;

    // The replica Telegram posts to dies; what users write meanwhile waits at Telegram, which
    // retries, and lands on the restarted replica.
    app.crash();
    for user in &users {
        app.sim
            .user_says(*user, "water the plants tomorrow 9:00")
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    app.run().await;
    eventually(WAIT * 2, "every task confirmed", || async {
        confirmations(&app, &users).values().all(|n| *n >= 1)
    })
    .await;
    assert!(
        confirmations(&app, &users).values().all(|n| *n == 1),
        "nothing twice"
    );
    assert_eq!(count(&app, "select count(*) from tasks").await, 20);
    other.stop().await.unwrap();
    app.stop().await;
}

/// Ann's message holding U+0000 (which PostgreSQL stores neither as jsonb nor as text) is kept
/// as unreadable for admins, its job failed at once; Bob's /list and Ann's next message are
/// answered as ever.
async fn a_nul_stops_no_one(app: &TestApp) {
    let ann = app.user("Ann", "en");
    let bob = app.user("Bob", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    app.sim
        .user_says(ann, "buy milk\u{0} tomorrow 9:00")
        .unwrap();
    let list = app.say(bob, "/list").await;
    assert!(text(&list).contains("no open tasks"), "{list:?}");
    let saved = app.say(ann, "pay rent tomorrow 9:00").await;
    assert!(text(&saved).contains(SAVED), "{saved:?}");

    let (body, job_id): (String, i64) = sqlx::query_as(
        "select body, job_id from updates where kind = 'unreadable' and chat_id = $1",
    )
    .bind(ann)
    .fetch_one(&app.pool)
    .await
    .expect("the update is kept as unreadable, filed under Ann's chat");
    assert!(body.contains(r"buy milk\u0000 tomorrow"), "{body}");
    eventually(WAIT, "its job failed for admins to see", || async {
        crate::support::job_by_id(&app.pool, JobId(job_id))
            .await
            .state
            == pgqueue::JobState::Failed
    })
    .await;
}

#[tokio::test]
async fn a_polled_message_with_u0000_is_kept_as_unreadable_and_stops_no_one() {
    let mut app = TestApp::start().await;
    a_nul_stops_no_one(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_webhook_message_with_u0000_is_kept_as_unreadable_and_stops_no_one() {
    let (mut app, _) = webhook_app().await;
    a_nul_stops_no_one(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn without_webhook_listen_the_webhook_is_served_on_http_addr() {
    let addr = free_addr();
    let hook = format!("http://{addr}/telegram/hook");
    let mut app = TestApp::builder()
        .config(move |c| {
            c.intake.mode = IntakeMode::Webhook {
                url: hook.parse().unwrap(),
                secret: SecretString::from(SECRET),
                max_connections: 40,
            };
            c.http_addr = addr;
        })
        .start()
        .await;
    assert_eq!(app.running().webhook_addr, Some(addr));
    let ann = app.user("Ann", "en");
    let zone = app.say(ann, "/tz Asia/Tashkent").await;
    assert!(text(&zone).contains("Asia/Tashkent"), "{zone:?}");
    app.stop().await;
}

#[tokio::test]
async fn the_webhook_self_test_fails_where_the_endpoint_is_not_served() {
    // Something else answers on the address (a proxy without the route, say): 404.
    let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = other.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(other, axum::Router::new()).await.unwrap() });
    let error = webhook::self_test(addr, "/telegram/hook")
        .await
        .expect_err("a 404 is no webhook");
    assert!(error.to_string().contains("answered 404"), "{error}");

    let nobody = free_addr();
    let error = webhook::self_test(nobody, "/telegram/hook")
        .await
        .expect_err("nothing listens");
    assert!(error.to_string().contains("no answer"), "{error}");
}
