//! The webhook's group commit: the updates of requests in flight together are committed together,
//! each request answered once its own update is committed; every update is stored once, handled
//! once and in its chat's order, a crash between the commit and the handling included.

use std::collections::HashMap;

use devtools::bench::intake::message_update;
use remindbot::bot::intake::webhook::SECRET_HEADER;
use sqlx::{Connection, PgConnection};

use crate::app::{TestApp, text};
use crate::intake::{SECRET, webhook_builder};
use crate::support::{WAIT, eventually};

/// The bot's confirmations in each chat, the tasks' texts in the order they arrived.
fn saved_tasks(app: &TestApp, users: &[i64]) -> HashMap<i64, Vec<String>> {
    users
        .iter()
        .map(|user| {
            let saved = app
                .sim
                .transcript(*user)
                .unwrap_or_default()
                .iter()
                .filter(|e| e.from_bot && text(e).contains("Task saved"))
                .filter_map(|e| {
                    let text = text(e);
                    let start = text.find("chore ")?;
                    let end = text[start..].find(' ').map(|i| start + i)?;
                    let number_end = text[end + 1..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(text.len(), |i| end + 1 + i);
                    Some(text[start..number_end].to_owned())
                })
                .collect();
            (*user, saved)
        })
        .collect()
}

/// POSTs `update` to the webhook at `url` as Telegram does; its status.
async fn post(client: &reqwest::Client, url: &str, update: &serde_json::Value) -> u16 {
    client
        .post(url)
        .header(SECRET_HEADER, SECRET)
        .header("content-type", "application/json")
        .body(update.to_string())
        .send()
        .await
        .expect("the webhook answers")
        .status()
        .as_u16()
}

/// An app serving its webhook, with Telegram's limits off and users' message rates unlimited.
async fn app() -> (TestApp, String) {
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = std_listener.local_addr().unwrap();
    drop(std_listener);
    let (builder, url) = webhook_builder(addr);
    let app = builder
        .config(move |c| {
            c.intake.webhook_listen = Some(addr);
            c.bot.user_updates_per_minute = std::num::NonZeroU32::MAX;
            c.delivery.rate_per_chat_per_sec = 0;
            // A crashed replica's claimed updates come back soon.
            c.delivery.lease_secs = Some(4);
        })
        .start()
        .await;
    (app, url)
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.pool).await.unwrap()
}

const CHORES: i64 = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_posts_are_saved_once_and_handled_in_each_chats_order() {
    let (mut app, url) = app().await;
    let users = app.users(8_100_000, 40);
    let client = reqwest::Client::new();
    // Every chat at once, each chat's updates one after another (as Telegram sends a chat's),
    // and each update twice at the same time (a retry crossing the first request).
    let mut chats = tokio::task::JoinSet::new();
    for (n, user) in users.iter().copied().enumerate() {
        let (client, url) = (client.clone(), url.clone());
        chats.spawn(async move {
            let first = 9_000_000 + n as i64 * 100;
            let mut texts = vec!["/tz Asia/Tashkent".to_owned()];
            texts.extend((1..=CHORES).map(|i| format!("chore {i} tomorrow 9:00")));
            for (i, said) in texts.iter().enumerate() {
                let update = message_update(first + i as i64, user, said);
                let (a, b) =
                    tokio::join!(post(&client, &url, &update), post(&client, &url, &update));
                assert_eq!((a, b), (200, 200), "both requests answered once committed");
            }
        });
    }
    while let Some(joined) = chats.join_next().await {
        joined.unwrap();
    }
    assert_eq!(
        count(&app, "select count(*) from updates").await,
        users.len() as i64 * (CHORES + 1),
        "every update stored once"
    );
    eventually(WAIT * 3, "every chore confirmed", || async {
        saved_tasks(&app, &users)
            .values()
            .all(|saved| saved.len() >= CHORES as usize)
    })
    .await;
    let expected: Vec<String> = (1..=CHORES).map(|i| format!("chore {i}")).collect();
    for (user, saved) in saved_tasks(&app, &users) {
        assert_eq!(saved, expected, "chat {user}: each once, in the order sent");
    }
    assert_eq!(
        count(&app, "select count(*) from tasks").await,
        users.len() as i64 * CHORES
    );
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_commit_and_handling_loses_nothing_and_repeats_nothing() {
    let (mut app, url) = app().await;
    let users = app.users(8_200_000, 30);
    let client = reqwest::Client::new();
    let zone =
        |n: usize, user: i64| message_update(9_500_000 + n as i64 * 10, user, "/tz Asia/Tashkent");
    for (n, user) in users.iter().enumerate() {
        assert_eq!(post(&client, &url, &zone(n, *user)).await, 200);
    }
    eventually(WAIT * 2, "every zone set", || async {
        count(
            &app,
            "select count(*) from updates where handled_at is null",
        )
        .await
            == 0
    })
    .await;

    // Handling stops short of its commit: every handler writes its chat, which this transaction
    // keeps from being written until the crash is over.
    let mut blocker = PgConnection::connect(app.database_url()).await.unwrap();
    let mut hold = blocker.begin().await.unwrap();
    sqlx::query("lock table chats in exclusive mode")
        .execute(&mut *hold)
        .await
        .unwrap();
    let mut posts = tokio::task::JoinSet::new();
    for (n, user) in users.iter().copied().enumerate() {
        let (client, url) = (client.clone(), url.clone());
        posts.spawn(async move {
            let task = message_update(9_500_001 + n as i64 * 10, user, "chore 1 tomorrow 9:00");
            post(&client, &url, &task).await
        });
    }
    while let Some(status) = posts.join_next().await {
        assert_eq!(status.unwrap(), 200, "answered once committed");
    }
    assert_eq!(
        count(
            &app,
            "select count(*) from updates where handled_at is null"
        )
        .await,
        users.len() as i64,
        "every task committed to the inbox, none handled"
    );
    app.crash();
    hold.rollback().await.unwrap();
    assert_eq!(count(&app, "select count(*) from tasks").await, 0);

    app.run().await;
    eventually(
        WAIT * 4,
        "every chore confirmed after the restart",
        || async {
            saved_tasks(&app, &users)
                .values()
                .all(|saved| !saved.is_empty())
        },
    )
    .await;
    // A second handling would have written a second task with a second confirmation.
    for (user, saved) in saved_tasks(&app, &users) {
        assert_eq!(saved, ["chore 1"], "chat {user}: confirmed once");
    }
    assert_eq!(
        count(&app, "select count(*) from tasks").await,
        users.len() as i64
    );
    assert_eq!(
        count(
            &app,
            "select count(*) from updates where handled_at is null"
        )
        .await,
        0
    );
    app.stop().await;
}
