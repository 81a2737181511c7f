//! A database made by the last single-crate release (its migrations are kept in
//! `tests/fixtures/legacy_migrations`, recorded in `_sqlx_migrations`) migrates forward to the
//! workspace layout (the queue's migrations in `pgqueue_migrations`, then the bot's in
//! `remindbot_migrations`) without losing a row, and everything in it still works.

use pgqueue::JobId;
use std::time::Duration;

use pgqueue::QueueConfig;
use remindbot::domain::ids::ChatId;
use remindbot::store::{OUTBOX_QUEUE, outbox_queue};
use sqlx::migrate::Migrator;

use crate::support::{attempt_outcomes, job_by_id, job_states, server_url};

/// The migrations of the last release before the workspace.
static LEGACY: Migrator = sqlx::migrate!("tests/fixtures/legacy_migrations");

/// Rows the old release wrote, in its schema (as a dump of its database would hold them).
const LEGACY_DATA: &str = include_str!("../fixtures/legacy_release_data.sql");

/// Row counts of the bot's tables.
async fn app_counts(pool: &sqlx::PgPool) -> Vec<(String, i64)> {
    let mut counts = Vec::new();
    for table in [
        "chats",
        "tasks",
        "reminders",
        "conversations",
        "admin_actions",
    ] {
        let sql = format!("select count(*) from {table}");
        counts.push((
            table.to_owned(),
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .fetch_one(pool)
                .await
                .unwrap(),
        ));
    }
    counts
}

/// The queue's rows as the queue reports them (on the migrated schema): jobs per state that has
/// any, and the attempt history of the reminders' jobs.
async fn queue_counts(pool: &sqlx::PgPool) -> Vec<(String, i64)> {
    let mut counts: Vec<(String, i64)> = job_states(pool)
        .await
        .into_iter()
        .filter(|(_, jobs)| *jobs > 0)
        .map(|(state, jobs)| (format!("{state} jobs"), jobs))
        .collect();
    let job_ids: Vec<i64> =
        sqlx::query_scalar("select job_id from reminders where job_id is not null order by id")
            .fetch_all(pool)
            .await
            .unwrap();
    let mut attempts = 0;
    for id in job_ids {
        attempts += attempt_outcomes(pool, JobId(id)).await.len() as i64;
    }
    counts.push(("job attempts".to_owned(), attempts));
    counts
}

/// The queue's rows the fixture wrote.
fn fixture_queue_rows() -> Vec<(String, i64)> {
    ["done jobs", "failed jobs", "pending jobs", "job attempts"]
        .into_iter()
        .zip([1, 1, 1, 2])
        .map(|(what, n)| (what.to_owned(), n))
        .collect()
}

#[tokio::test]
async fn a_database_of_the_last_release_migrates_forward_with_its_data() {
    let database = devdb::ScratchDatabase::create(&server_url().await, &[&LEGACY])
        .await
        .unwrap();
    let pool = database.pool(4).await.unwrap();
    // What the old release wrote: a chat with a pending reminder, a failed one with its history,
    // a done one, a question waiting for its answer and an admin's action.
    sqlx::raw_sql(LEGACY_DATA).execute(&pool).await.unwrap();
    let before = app_counts(&pool).await;

    remindbot::db::migrate(&pool).await.unwrap();
    assert_eq!(app_counts(&pool).await, before, "no row of the bot's lost");
    assert_eq!(
        queue_counts(&pool).await,
        fixture_queue_rows(),
        "no row of the queue's lost"
    );
    let newest = |migrator: &Migrator| migrator.iter().map(|m| m.version).max();
    for (table, version) in [
        ("pgqueue_migrations", newest(&pgqueue::MIGRATOR)),
        ("remindbot_migrations", newest(&remindbot::MIGRATOR)),
    ] {
        let sql = format!("select max(version) from {table} where success");
        let applied: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(applied, version, "{table}");
    }
    // A second run (a second replica starting) changes nothing.
    remindbot::db::migrate(&pool).await.unwrap();
    assert_eq!(app_counts(&pool).await, before);
    assert_eq!(queue_counts(&pool).await, fixture_queue_rows());

    // The queue claims the old pending job and throttles it without using its attempt.
    let queue = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
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
    let throttled = job_by_id(&pool, job.id).await;
    assert_eq!((throttled.attempts, throttled.throttles), (0, 1));
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
    assert_eq!(attempt_outcomes(&pool, failed[0].job_id).await.len(), 2);
    let mut conn = pool.acquire().await.unwrap();
    let open = remindbot::store::tasks::list_open(&mut conn, ChatId(7), 10, 0)
        .await
        .unwrap();
    assert_eq!(open.len(), 2);
    let waiting = remindbot::store::conversation::pending(
        &mut *conn,
        remindbot::domain::ids::ChatId(7),
        remindbot::domain::ids::UserId(7),
    )
    .await
    .unwrap();
    assert!(waiting.is_some());
}
