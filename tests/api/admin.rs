//! Admin views and actions over real data: failed reminders with their reasons, retry, cancel,
//! stats that equal the tables, and the CLI's JSON.

use chrono::{Duration, Utc};
use pgqueue::JobId;
use pgqueue::{Queue, QueueConfig};
use remindbot::admin::actions::{self, ActionResult};
use remindbot::admin::failed::{self, FailedFilter};
use remindbot::admin::stats;
use remindbot::store::{OUTBOX_QUEUE, outbox_queue};

use crate::support::{TestDb, task_due_now};

/// Creates `count` tasks due now in chat 500 and fails each reminder job with `error`.
async fn seed_failures(db: &TestDb, queue: &Queue, count: usize, error: &str) -> Vec<i64> {
    for n in 0..count {
        task_due_now(&db.pool, queue, 500, &format!("task {n} <b>&")).await;
    }
    let mut ids = Vec::new();
    for job in queue.claim("w", count as i64).await.unwrap() {
        queue.fail(&db.pool, &job, error).await.unwrap();
        ids.push(job.id.0);
    }
    ids
}

fn all() -> FailedFilter {
    FailedFilter {
        limit: 100,
        ..FailedFilter::default()
    }
}

#[tokio::test]
async fn failed_reminders_show_their_task_chat_and_reason_and_filter_by_it() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    seed_failures(&db, &queue, 2, "Forbidden: bot was blocked by the user").await;
    seed_failures(&db, &queue, 1, "Bad Request: chat not found").await;

    let listed = failed::list(&db.pool, &all()).await.unwrap();
    assert_eq!(listed.len(), 3);
    assert!(
        listed
            .iter()
            .all(|f| f.chat_id == Some(500) && f.attempts == 1)
    );
    assert!(
        listed
            .iter()
            .all(|f| f.task_text.as_deref().unwrap().ends_with("<b>&"))
    );
    let blocked = FailedFilter {
        reason: Some("BLOCKED".to_owned()),
        ..all()
    };
    assert_eq!(failed::list(&db.pool, &blocked).await.unwrap().len(), 2);
    let later = FailedFilter {
        since: Some(Utc::now() + Duration::minutes(1)),
        ..all()
    };
    assert!(failed::list(&db.pool, &later).await.unwrap().is_empty());
    assert_eq!(failed::count(&db.pool).await.unwrap(), 3);
}

#[tokio::test]
async fn retry_and_cancel_change_the_job_and_are_recorded() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let ids = seed_failures(&db, &queue, 3, "Bad Request: chat not found").await;

    assert_eq!(
        actions::retry(&queue, "admin:1", JobId(ids[0]))
            .await
            .unwrap(),
        ActionResult::Retried(vec![JobId(ids[0])])
    );
    assert_eq!(
        actions::retry(&queue, "admin:1", JobId(ids[0]))
            .await
            .unwrap(),
        ActionResult::NotFound(JobId(ids[0]))
    );
    assert_eq!(
        actions::cancel(&queue, "admin:2", JobId(ids[1]))
            .await
            .unwrap(),
        ActionResult::Cancelled(JobId(ids[1]))
    );
    let again = queue.claim("w", 10).await.unwrap();
    assert_eq!(
        again.iter().map(|j| j.id).collect::<Vec<_>>(),
        vec![JobId(ids[0])]
    );
    assert_eq!(
        actions::retry_all(&queue, "admin:1").await.unwrap(),
        ActionResult::Retried(vec![JobId(ids[2])])
    );
    let log: Vec<(String, String, Option<i64>)> =
        sqlx::query_as("select actor, action, job_id from admin_actions order by id")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        log,
        vec![
            ("admin:1".to_owned(), "retry".to_owned(), Some(ids[0])),
            ("admin:2".to_owned(), "cancel".to_owned(), Some(ids[1])),
            ("admin:1".to_owned(), "retry all".to_owned(), None),
        ]
    );
}

#[tokio::test]
async fn the_stats_equal_what_the_tables_hold() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    seed_failures(&db, &queue, 2, "Bad Request: chat not found").await;
    // Two reminders sent 1 s and 3 s after they were due.
    sqlx::query(
        "update reminders set sent = true, fire_at = now() - make_interval(secs => 10),
             sent_at = now() - make_interval(secs => 10) + make_interval(secs => 1 + 2 * (id % 2))",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    // A third one was answered 429 and waits (a throttle, not an attempt); a fourth failed for
    // now and waits for its retry.
    task_due_now(&db.pool, &queue, 500, "third").await;
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    let wait = std::time::Duration::from_secs(5);
    queue
        .throttle(&job, wait, "Too Many Requests: retry after 5")
        .await
        .unwrap();
    task_due_now(&db.pool, &queue, 500, "fourth").await;
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.retry(&job, "Bad Gateway", Some(wait)).await.unwrap();

    let stats = stats::read(&db.pool).await.unwrap();
    let count = |state: &str| {
        stats
            .states
            .iter()
            .find(|(s, _)| s.as_str() == state)
            .unwrap()
            .1
    };
    assert_eq!(
        (count("failed"), count("pending"), count("running")),
        (2, 2, 0)
    );
    assert_eq!((stats.sent_last_hour, stats.failed_last_hour), (2, 2));
    assert_eq!(
        (stats.retried_last_hour, stats.too_many_requests_last_hour),
        (1, 1)
    );
    assert!((stats.lateness_p50_secs.unwrap() - 2.0).abs() < 0.01);
    assert!((stats.lateness_p99_secs.unwrap() - 2.98).abs() < 0.01);
    // The retried job is not due yet.
    assert!(stats.oldest_due.is_none());
}

#[tokio::test]
async fn the_cli_prints_failed_reminders_as_json() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let ids = seed_failures(&db, &queue, 1, "Forbidden: user is deactivated").await;
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_remindbot"))
        .args(["admin", "failed", "--json"])
        .env("DATABASE_URL", db.url())
        .env("RUST_LOG", "warn")
        .output()
        .await
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(listed[0]["job_id"], ids[0]);
    assert_eq!(listed[0]["last_error"], "Forbidden: user is deactivated");
}
