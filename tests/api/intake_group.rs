//! The webhook's group commit: the updates of requests in flight together are committed together,
//! each request answered once its own update is committed; every update is stored once, handled
//! once and in its chat's order, a crash between the commit and the handling included.

use std::collections::HashMap;

use devtools::bench::intake::message_update;
use pgqueue::{JobId, JobState, Queue, QueueConfig};
use remindbot::bot::intake::group_commit::GroupCommit;
use remindbot::bot::intake::webhook::{self, SECRET_HEADER, WebhookEndpoint};
use remindbot::domain::ids::ChatId;
use remindbot::store::inbox::{self, Incoming, UPDATE_QUEUE, update_queue};
use sqlx::{Connection, PgConnection, PgPool};

use crate::app::{TestApp, text};
use crate::intake::{SECRET, webhook_builder};
use crate::support::{TestDb, WAIT, eventually};

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
    // A statement the crashed process had already sent may still commit once the lock goes, as
    // after a real kill -9 (the server sees a dead client only at its next reply; CI saw one
    // such task): what it committed must be neither lost nor handled again, as asserted below.
    hold.rollback().await.unwrap();

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

/// The webhook endpoint alone (no bot, no workers) on a free port, storing to the inbox of
/// `queue`; its URL.
async fn endpoint(pool: &PgPool, queue: Queue) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let router = webhook::router(WebhookEndpoint {
        inbox: GroupCommit::start(pool, queue).expect("the committer starts"),
        secret: SECRET.to_owned().into(),
        max_body_bytes: 1 << 20,
        path: "/hook".to_owned(),
    });
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// POSTs every update at once (so that they meet in groups); their statuses.
async fn post_together(
    client: &reqwest::Client,
    url: &str,
    updates: &[serde_json::Value],
) -> Vec<u16> {
    let mut posts = tokio::task::JoinSet::new();
    for update in updates {
        let (client, url, update) = (client.clone(), url.to_owned(), update.clone());
        posts.spawn(async move { post(&client, &url, &update).await });
    }
    posts.join_all().await
}

/// Every stored update with its job: (update_id, the job's state, the inbox row its job handles,
/// the inbox row, the job's serial key), by update_id.
async fn updates_with_jobs(pool: &PgPool) -> Vec<(i64, JobState, i64, i64, Option<String>)> {
    let rows: Vec<(i64, i64, i64)> =
        sqlx::query_as("select update_id, id, job_id from updates order by update_id")
            .fetch_all(pool)
            .await
            .unwrap();
    let ids: Vec<JobId> = rows.iter().map(|(.., job)| JobId(*job)).collect();
    let jobs = pgqueue::inspect_many(pool, &ids).await.unwrap();
    rows.iter()
        .map(|(update_id, inbox_id, job_id)| {
            let job = jobs
                .iter()
                .find(|job| job.id.0 == *job_id)
                .unwrap_or_else(|| panic!("update {update_id} has no job"));
            let handles = job.payload["inbox_id"].as_i64().expect("an UpdateJob");
            (
                *update_id,
                job.state,
                handles,
                *inbox_id,
                job.serial_key.clone(),
            )
        })
        .collect()
}

/// The inbox's one statement writes an update and its job together: when the queue refuses the
/// jobs of a group (here a queue whose jobs would have no attempts, which its check refuses), no
/// update of it is stored and no request is answered 200, so Telegram sends them again; a
/// healthy endpoint then stores each once, with its job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_whose_jobs_are_refused_stores_no_update_and_is_not_acknowledged() {
    let db = TestDb::new().await;
    let refusing = update_queue(
        db.pool.clone(),
        QueueConfig {
            max_attempts: 0,
            ..QueueConfig::new(UPDATE_QUEUE)
        },
    );
    let url = endpoint(&db.pool, refusing).await;
    let client = reqwest::Client::new();
    let updates: Vec<serde_json::Value> = (0..8)
        .map(|n| message_update(7_000_000 + n, 8_300_000 + n % 3, "chore 1 tomorrow 9:00"))
        .collect();
    let statuses = post_together(&client, &url, &updates).await;
    assert!(
        statuses.iter().all(|status| *status == 503),
        "a request was acknowledged though its job was refused: {statuses:?}"
    );
    assert_eq!(
        sqlx::query_scalar::<_, i64>("select count(*) from updates")
            .fetch_one(&db.pool)
            .await
            .unwrap(),
        0,
        "an update was stored without its job"
    );
    assert_eq!(
        pgqueue::count(&db.pool, UPDATE_QUEUE, JobState::Pending)
            .await
            .unwrap(),
        0,
        "a job was written without its update"
    );

    let queue = update_queue(db.pool.clone(), QueueConfig::new(UPDATE_QUEUE));
    let url = endpoint(&db.pool, queue).await;
    let statuses = post_together(&client, &url, &updates).await;
    assert!(statuses.iter().all(|status| *status == 200), "{statuses:?}");
    let stored = updates_with_jobs(&db.pool).await;
    assert_eq!(stored.len(), updates.len());
    for (update_id, state, handles, inbox_id, _) in stored {
        assert_eq!(state, JobState::Pending, "update {update_id}");
        assert_eq!(
            handles, inbox_id,
            "update {update_id}'s job handles another row"
        );
    }
}

/// One group holding an update twice, and one stored before: each is stored once with one job,
/// and one chat's jobs follow its updates' order.
#[tokio::test]
async fn an_update_twice_in_a_group_or_stored_before_is_stored_once_with_one_job() {
    let db = TestDb::new().await;
    let queue = update_queue(db.pool.clone(), QueueConfig::new(UPDATE_QUEUE));
    let mut conn = db.pool.acquire().await.unwrap();
    let update = |update_id: i64, chat: i64| {
        Incoming::from_json(message_update(update_id, chat, "chore 1 tomorrow 9:00"))
    };
    assert_eq!(
        inbox::receive(&mut conn, &queue, &[update(10, 1)])
            .await
            .unwrap(),
        1
    );
    let group = [
        update(10, 1),
        update(11, 1),
        update(12, 2),
        update(11, 1),
        update(13, 1),
    ];
    assert_eq!(
        inbox::receive(&mut conn, &queue, &group).await.unwrap(),
        3,
        "updates 11, 12 and 13 are new"
    );
    let stored = updates_with_jobs(&db.pool).await;
    let update_ids: Vec<i64> = stored.iter().map(|(id, ..)| *id).collect();
    assert_eq!(update_ids, [10, 11, 12, 13]);
    assert_eq!(
        pgqueue::count(&db.pool, UPDATE_QUEUE, JobState::Pending)
            .await
            .unwrap(),
        4,
        "a job per stored update, no more"
    );
    for (update_id, _, handles, inbox_id, serial_key) in &stored {
        assert_eq!(
            handles, inbox_id,
            "update {update_id}'s job handles another row"
        );
        let chat = if *update_id == 12 {
            ChatId(2)
        } else {
            ChatId(1)
        };
        assert_eq!(serial_key.as_deref(), Some(format!("chat:{chat}").as_str()));
    }
    // Chat 1's jobs in the order of its updates (the serial key runs the lowest id first).
    let mut chat_jobs: Vec<(i64, i64)> = sqlx::query_as(
        "select update_id, job_id from updates where chat_id = 1 order by update_id",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let by_update: Vec<i64> = chat_jobs.iter().map(|(_, job)| *job).collect();
    chat_jobs.sort_by_key(|(_, job)| *job);
    assert_eq!(
        chat_jobs.iter().map(|(_, job)| *job).collect::<Vec<_>>(),
        by_update
    );
}
