//! A database made by the last single-crate release (its migrations are kept in
//! `tests/fixtures/legacy_migrations`, recorded in `_sqlx_migrations`) migrates forward to the
//! workspace layout (the queue's migrations in `pgqueue_migrations`, then the bot's in
//! `remindbot_migrations`) without losing a row, and everything in it still works.

use std::time::Duration;

use pgqueue::QueueConfig;
use remindbot::store::{REMINDER_QUEUE, reminder_queue};
use sqlx::migrate::Migrator;

use crate::support::server_url;

/// The migrations of the last release before the workspace.
static LEGACY: Migrator = sqlx::migrate!("tests/fixtures/legacy_migrations");

/// Row counts of every table the old release had.
async fn counts(pool: &sqlx::PgPool) -> Vec<i64> {
    let mut counts = Vec::new();
    for table in [
        "chats",
        "tasks",
        "reminders",
        "conversations",
        "jobs",
        "job_attempts",
        "admin_actions",
    ] {
        let sql = format!("select count(*) from {table}");
        counts.push(
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .fetch_one(pool)
                .await
                .unwrap(),
        );
    }
    counts
}

#[tokio::test]
async fn a_database_of_the_last_release_migrates_forward_with_its_data() {
    let database = devdb::ScratchDatabase::create(&server_url().await, &[&LEGACY])
        .await
        .unwrap();
    let pool = database.pool(4).await.unwrap();
    // What the old release wrote: a chat with a pending reminder, a failed one with its history,
    // a done one, a question waiting for its answer and an admin's action.
    sqlx::raw_sql(
        "insert into chats (chat_id, kind, lang, tz) values (7, 'private', 'ru', 'Europe/Moscow');
         insert into tasks (chat_id, owner_id, text, due_at, tz) values
             (7, 7, 'pay rent', now() - interval '1 minute', 'Europe/Moscow'),
             (7, 7, 'call mom', now() - interval '1 day', 'Europe/Moscow'),
             (7, 7, 'buy milk', now() - interval '2 days', 'Europe/Moscow');
         update tasks set state = 'done' where text = 'buy milk';
         insert into jobs (queue, payload, run_at, state, attempts, claims, last_error,
                           finished_at, max_attempts) values
             ('reminders', '{\"reminder_id\": 1}', now() - interval '1 minute', 'pending', 0, 0,
              null, null, 5),
             ('reminders', '{\"reminder_id\": 2}', now() - interval '1 day', 'failed', 5, 5,
              'Forbidden: bot was blocked by the user', now(), 5),
             ('reminders', '{\"reminder_id\": 3}', now() - interval '2 days', 'done', 1, 1,
              null, now(), 5);
         insert into reminders (task_id, due_at, fire_at, job_id, sent, sent_at) values
             (1, now() - interval '1 minute', now() - interval '1 minute', 1, false, null),
             (2, now() - interval '1 day', now() - interval '1 day', 2, false, null),
             (3, now() - interval '2 days', now() - interval '2 days', 3, true, now());
         insert into job_attempts (job_id, attempt, outcome, error) values
             (2, 4, 'retry', 'Bad Gateway'),
             (2, 5, 'failed', 'Forbidden: bot was blocked by the user');
         insert into conversations (chat_id, user_id, kind, text) values
             (7, 7, 'new_task_time', 'water the plants');
         insert into admin_actions (actor, action, job_id) values ('cli:ops uid=1000', 'retry', 2);",
    )
    .execute(&pool)
    .await
    .unwrap();
    let before = counts(&pool).await;

    remindbot::db::migrate(&pool).await.unwrap();
    assert_eq!(counts(&pool).await, before, "no row lost");
    for (table, version) in [("pgqueue_migrations", 1_i64), ("remindbot_migrations", 1)] {
        let sql = format!("select max(version) from {table} where success");
        let applied: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(applied, Some(version), "{table}");
    }
    // A second run (a second replica starting) changes nothing.
    remindbot::db::migrate(&pool).await.unwrap();
    assert_eq!(counts(&pool).await, before);

    // The queue claims the old pending job and throttles it without using its attempt.
    let queue = reminder_queue(pool.clone(), QueueConfig::new(REMINDER_QUEUE));
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.payload["reminder_id"], 1);
    queue
        .throttle(
            &job,
            Duration::from_secs(1),
            "Too Many Requests: retry after 1",
        )
        .await
        .unwrap();
    let (attempts, throttles): (i32, i32) =
        sqlx::query_as("select attempts, throttles from jobs where id = $1")
            .bind(job.id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((attempts, throttles), (0, 1));
    // Admins still see the failure with its history; the bot still lists the open tasks.
    let failed = remindbot::admin::failed::list(
        &pool,
        &remindbot::admin::failed::FailedFilter {
            limit: 10,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].task_text.as_deref(), Some("call mom"));
    let history = pgqueue::maintenance::attempts(&pool, failed[0].job_id)
        .await
        .unwrap();
    assert_eq!(history.len(), 2);
    let mut conn = pool.acquire().await.unwrap();
    let open = remindbot::store::tasks::list_open(&mut conn, 7, 10, 0)
        .await
        .unwrap();
    assert_eq!(open.len(), 2);
    let waiting = remindbot::store::conversation::pending(&mut *conn, 7, 7)
        .await
        .unwrap();
    assert!(waiting.is_some());
}
