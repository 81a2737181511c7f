//! Upgrades without downtime: while replicas roll, the previous release keeps running against the
//! new schema. Every statement it runs (recorded from its committed query data by
//! `scripts/snapshot-release-queries.sh`) must still prepare against today's migrations, with the
//! same result columns and parameter types, so migrations may only expand (add tables, nullable
//! or defaulted columns, indexes) until a later release contracts what nobody reads any more.
//! And what a previous-release replica still writes during the roll is taken over by this one.

use serde::Deserialize;
use sqlx::{AssertSqlSafe, Column, Executor, SqlSafeStr, Statement, TypeInfo};

use remindbot::domain::ids::{ChatId, UserId};
use remindbot::store::outbox::LEGACY_REMINDER_QUEUE;

use crate::app::{TestApp, text};
use crate::support::TestDb;

/// The previous release's statements.
#[derive(Deserialize)]
struct Release {
    release: String,
    queries: Vec<RecordedQuery>,
}

/// One statement with what it returned and took, as that release's build recorded them.
#[derive(Deserialize)]
struct RecordedQuery {
    query: String,
    columns: Vec<RecordedColumn>,
    parameters: Vec<String>,
}

#[derive(Deserialize)]
struct RecordedColumn {
    name: String,
    #[serde(rename = "type")]
    type_name: String,
}

/// A recorded type name ("Int8", "TextArray") as PostgreSQL spells it ("INT8", "TEXT[]").
fn pg_name(recorded: &str) -> String {
    match recorded.strip_suffix("Array") {
        Some(element) => format!("{}[]", element.to_uppercase()),
        None => recorded.to_uppercase(),
    }
}

#[tokio::test]
async fn the_previous_releases_queries_run_unchanged_against_the_new_schema() {
    let release: Release =
        serde_json::from_str(include_str!("../fixtures/previous-release/queries.json"))
            .expect("the recorded queries");
    assert!(
        release.queries.len() > 50,
        "{} statements",
        release.queries.len()
    );
    let db = TestDb::new().await;
    let mut broken = Vec::new();
    for recorded in &release.queries {
        let head: String = recorded
            .query
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let head: String = head.chars().take(90).collect();
        // The recorded text of a release's own compile-time checked statements.
        let sql = AssertSqlSafe(recorded.query.clone()).into_sql_str();
        let statement = match (&db.pool).prepare(sql).await {
            Ok(statement) => statement,
            Err(error) => {
                broken.push(format!("{head}…: {error}"));
                continue;
            }
        };
        let columns: Vec<(String, String)> = statement
            .columns()
            .iter()
            .map(|c| (c.name().to_owned(), c.type_info().name().to_owned()))
            .collect();
        let expected: Vec<(String, String)> = recorded
            .columns
            .iter()
            .map(|c| (c.name.clone(), pg_name(&c.type_name)))
            .collect();
        if columns != expected {
            broken.push(format!("{head}…: returns {columns:?}, was {expected:?}"));
        }
        let parameters: Vec<String> = match statement.parameters() {
            Some(sqlx::Either::Left(types)) => types.iter().map(|t| t.name().to_owned()).collect(),
            _ => Vec::new(),
        };
        let expected: Vec<String> = recorded.parameters.iter().map(|p| pg_name(p)).collect();
        if parameters != expected {
            broken.push(format!("{head}…: takes {parameters:?}, took {expected:?}"));
        }
    }
    assert!(
        broken.is_empty(),
        "statements of release {} that the new schema breaks:\n{}",
        release.release,
        broken.join("\n")
    );
}

#[tokio::test]
async fn reminders_an_old_replica_enqueues_during_a_roll_are_still_delivered() {
    use remindbot::store::tasks::{self, NewTask, TaskText};
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/start").await;
    // A replica of the release before the outbox saves a task after this release started (and
    // moved the old jobs): its reminder job goes to the queue of that release. Written here as
    // that release wrote it: the task, then its job, in one transaction.
    let task = NewTask {
        chat_id: ChatId(ann),
        owner_id: UserId(ann),
        text: TaskText::parse("water the plants").expect("a valid task text"),
        due_at: chrono::Utc::now() - chrono::Duration::minutes(1),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: None,
        tz: chrono_tz::Tz::Asia__Tashkent,
    };
    let mut tx = app.pool.begin().await.unwrap();
    let created = tasks::create(&mut tx, &app.queue, &task).await.unwrap();
    let moved = sqlx::query(
        "update jobs set queue = $1 where id in (select job_id from reminders where task_id = $2)",
    )
    .bind(LEGACY_REMINDER_QUEUE)
    .bind(created.id)
    .execute(&mut *tx)
    .await
    .unwrap();
    assert_eq!(moved.rows_affected(), 1);
    tx.commit().await.unwrap();

    let reminder = app.reply_containing(ann, 0, "water the plants").await;
    assert!(text(&reminder).contains("Reminder"), "{reminder:?}");
}

/// Takes the `kind` tag off the payload of every outbox job: the jobs as a release before the tag
/// stored them (its payloads were each sort's fields alone).
async fn as_the_previous_release_stored_them(pool: &sqlx::PgPool) {
    sqlx::query("update jobs set payload = payload - 'kind' where queue = $1")
        .bind(remindbot::store::OUTBOX_QUEUE)
        .execute(pool)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untagged_jobs_of_the_previous_release_are_tagged_at_start_and_delivered() {
    use chrono::{Duration, NaiveTime, Utc};
    use pgqueue::NewJob;
    use remindbot::domain::lang::Lang;
    use remindbot::store::outbox::{self, MessageOp, OutgoingMessage};
    use remindbot::store::tasks::{self, NewTask, TaskText};
    use remindbot::store::types::ChatKind;
    use remindbot::store::{agenda, chats};

    let mut app = TestApp::builder().prepare().await;
    let (ann, bob, cy) = (
        app.user("Ann", "en"),
        app.user("Bob", "en"),
        app.user("Cy", "en"),
    );
    let send = |chat_id: i64, text: &str| OutgoingMessage {
        chat_id: ChatId(chat_id),
        op: MessageOp::Send {
            text: text.to_owned(),
            keyboard: None,
            force_reply: false,
            asks: None,
        },
    };
    let task = |chat_id: i64, text: &str, due_at| NewTask {
        chat_id: ChatId(chat_id),
        owner_id: UserId(chat_id),
        text: TaskText::parse(text).unwrap(),
        due_at,
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: None,
        tz: chrono_tz::Tz::UTC,
    };
    // What the previous release left waiting: Ann's reminder and an answer to her, Bob's
    // morning agenda (due now), and Cy's reminder due in an hour.
    let mut tx = app.pool.begin().await.unwrap();
    for chat in [ann, bob, cy] {
        chats::upsert(&mut *tx, ChatId(chat), ChatKind::Private, Lang::En)
            .await
            .unwrap();
    }
    let now = Utc::now();
    tasks::create(&mut tx, &app.queue, &task(ann, "water the plants", now))
        .await
        .unwrap();
    let later = tasks::create(
        &mut tx,
        &app.queue,
        &task(cy, "call mom", now + Duration::hours(1)),
    )
    .await
    .unwrap();
    outbox::enqueue(&mut tx, &app.queue, &send(ann, "an answer from before"))
        .await
        .unwrap();
    let eight = NaiveTime::from_hms_opt(8, 0, 0).unwrap();
    let morning = agenda::set(&mut tx, &app.queue, ChatId(bob), eight, chrono_tz::Tz::UTC)
        .await
        .unwrap();
    pgqueue::maintenance::reschedule_job(&mut tx, morning.job_id.unwrap(), now)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    as_the_previous_release_stored_them(&app.pool).await;
    let cys = crate::support::job_of_task(&app.pool, later.id.0).await;
    assert_eq!(cys.payload.get("kind"), None, "{}", cys.payload);

    // This release starts: the stored jobs get their tag, and each is delivered as its kind.
    app.run().await;
    let cys = crate::support::job_by_id(&app.pool, cys.id).await;
    assert_eq!(cys.payload["kind"], "reminder", "{}", cys.payload);
    let reminder = app.reply_containing(ann, 0, "water the plants").await;
    assert!(text(&reminder).contains("Reminder"), "{reminder:?}");
    app.reply_containing(ann, 0, "an answer from before").await;
    app.reply_containing(bob, 0, "today's tasks").await;

    // While replicas roll, one of the previous release still writes untagged jobs: delivered.
    let untagged = serde_json::to_value(send(cy, "an answer from an old replica")).unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    let job = NewJob::new(untagged).serial_key(OutgoingMessage::serial_key(ChatId(cy)));
    app.queue.enqueue(&mut tx, job).await.unwrap();
    tx.commit().await.unwrap();
    app.reply_containing(cy, 0, "an answer from an old replica")
        .await;
    app.stop().await;
}
