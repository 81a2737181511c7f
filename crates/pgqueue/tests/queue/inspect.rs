//! Reading jobs without claiming them: what an admin page, a dashboard or a producer's test sees
//! through the queue's API, and that the dashboard's reads stay on indexes on a large table.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pgqueue::JobId;
use pgqueue::hook::HookFuture;
use pgqueue::maintenance::AttemptOutcome;
use pgqueue::{
    FailedQuery, GiveUpHook, GivenUpJob, JobError, JobState, NewJob, Queue, QueueConfig,
    RecentOutcomes, maintenance,
};
use serde_json::json;
use sqlx::{PgConnection, PgPool};

use crate::support::TestDb;

async fn enqueue(queue: &Queue, pool: &PgPool, jobs: &[NewJob]) -> Vec<JobId> {
    let mut tx = pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, jobs).await.unwrap();
    tx.commit().await.unwrap();
    ids
}

/// Claims the next due job of `queue` and fails it with `error`; returns its id.
async fn fail_next(queue: &Queue, pool: &PgPool, error: &str) -> JobId {
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.fail(pool, &job, error).await.unwrap();
    job.id
}

#[tokio::test]
async fn a_job_is_inspected_as_it_stands() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let later = chrono::Utc::now() + chrono::Duration::hours(1);
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "n": 1 }))
                .dedupe_key("one")
                .max_attempts(3),
            NewJob::new(json!({ "n": 2 })).run_at(later),
        ],
    )
    .await;

    let first = pgqueue::inspect(&db.pool, ids[0]).await.unwrap().unwrap();
    assert_eq!(
        (
            first.queue.as_str(),
            first.state,
            first.attempts,
            first.max_attempts
        ),
        ("work", JobState::Pending, 0, 3)
    );
    assert_eq!(
        (first.payload.clone(), first.dedupe_key.as_deref()),
        (json!({ "n": 1 }), Some("one"))
    );
    assert!(first.finished_at.is_none() && first.last_error.is_none());

    let job = queue.claim("w", 1).await.unwrap().remove(0);
    assert_eq!(job.id, ids[0]);
    queue
        .throttle(&job, Duration::ZERO, "Too Many Requests")
        .await
        .unwrap();
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.fail(&db.pool, &job, "gone for good").await.unwrap();
    let failed = pgqueue::inspect(&db.pool, ids[0]).await.unwrap().unwrap();
    assert_eq!(
        (
            failed.state,
            failed.attempts,
            failed.claims,
            failed.throttles
        ),
        (JobState::Failed, 1, 2, 1)
    );
    assert_eq!(failed.last_error.as_deref(), Some("gone for good"));
    assert!(failed.finished_at.is_some_and(|at| at >= failed.created_at));

    assert!(
        pgqueue::inspect(&db.pool, JobId(999_999))
            .await
            .unwrap()
            .is_none()
    );
    let many = pgqueue::inspect_many(&db.pool, &[ids[1], JobId(999_999), ids[0]])
        .await
        .unwrap();
    assert_eq!(many.iter().map(|j| j.id).collect::<Vec<_>>(), ids);
    assert_eq!(
        (many[1].state, many[1].run_at.timestamp()),
        (JobState::Pending, later.timestamp())
    );

    let pending = pgqueue::list(&db.pool, "work", Some(JobState::Pending), 10)
        .await
        .unwrap();
    assert_eq!(pending.iter().map(|j| j.id).collect::<Vec<_>>(), [ids[1]]);
    assert_eq!(
        pgqueue::list(&db.pool, "work", None, 10).await.unwrap(),
        many
    );
    assert!(
        pgqueue::list(&db.pool, "other", None, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        (
            pgqueue::count(&db.pool, "work", JobState::Pending)
                .await
                .unwrap(),
            pgqueue::count(&db.pool, "work", JobState::Failed)
                .await
                .unwrap(),
            pgqueue::count(&db.pool, "other", JobState::Failed)
                .await
                .unwrap(),
        ),
        (1, 1, 0)
    );
}

#[tokio::test]
async fn a_state_is_text_in_the_database_and_lowercase_elsewhere() {
    let db = TestDb::new().await;
    for state in JobState::ALL {
        let text: String = sqlx::query_scalar("select $1::text")
            .bind(state)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(text, state.as_str());
        let decoded: JobState = sqlx::query_scalar("select $1::text")
            .bind(state.as_str())
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(decoded, state);
        assert_eq!(
            serde_json::to_value(state).unwrap(),
            json!(state.to_string())
        );
    }
    // A state the queue does not know is an error, never a default.
    let unknown = sqlx::query_scalar::<_, JobState>("select 'paused'::text")
        .fetch_one(&db.pool)
        .await;
    assert!(unknown.is_err(), "{unknown:?}");
    assert_eq!(format!("[{:<9}]", JobState::Done), "[done     ]");
    let parsed: JobState = serde_json::from_value(json!("cancelled")).unwrap();
    assert_eq!(parsed, JobState::Cancelled);
}

#[tokio::test]
async fn the_failed_list_filters_pages_and_counts_newest_first() {
    let db = TestDb::new().await;
    let work = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mail = Queue::new(db.pool.clone(), QueueConfig::new("mail"));
    enqueue(&work, &db.pool, &vec![NewJob::new(json!({})); 3]).await;
    enqueue(&mail, &db.pool, &[NewJob::new(json!({}))]).await;
    let blocked = fail_next(&work, &db.pool, "Forbidden: bot was BLOCKED by the user").await;
    let gone = fail_next(&work, &db.pool, "Bad Request: chat not found").await;
    let bounced = fail_next(&mail, &db.pool, "mailbox blocked").await;
    let before_last: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("select now()")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let last = fail_next(&work, &db.pool, "100% wrong").await;

    let list = |query: FailedQuery| {
        let pool = db.pool.clone();
        async move {
            pgqueue::failed_jobs(&pool, &query)
                .await
                .unwrap()
                .into_iter()
                .map(|j| j.id)
                .collect::<Vec<_>>()
        }
    };
    let all = FailedQuery {
        limit: 10,
        ..FailedQuery::default()
    };
    assert_eq!(list(all.clone()).await, [last, bounced, gone, blocked]);
    let work_only = FailedQuery {
        queue: Some("work".into()),
        ..all.clone()
    };
    assert_eq!(list(work_only.clone()).await, [last, gone, blocked]);
    let reason = |text: &str| FailedQuery {
        reason: Some(text.into()),
        ..all.clone()
    };
    assert_eq!(list(reason("blocked")).await, [bounced, blocked]);
    // The reason is plain text, not a pattern.
    assert_eq!(list(reason("0% w")).await, [last]);
    assert!(list(reason("_")).await.is_empty());
    assert_eq!(
        list(FailedQuery {
            since: Some(before_last),
            ..all.clone()
        })
        .await,
        [last]
    );
    assert_eq!(
        list(FailedQuery {
            until: Some(before_last),
            ..work_only.clone()
        })
        .await,
        [gone, blocked]
    );
    assert_eq!(
        list(FailedQuery {
            limit: 2,
            offset: 1,
            ..all.clone()
        })
        .await,
        [bounced, gone]
    );
    assert_eq!(list(FailedQuery::default()).await, [last], "at least one");

    assert_eq!(pgqueue::count_failed(&db.pool, None).await.unwrap(), 4);
    assert_eq!(
        pgqueue::count_failed(&db.pool, Some("mail")).await.unwrap(),
        1
    );
}

/// Counts how often it was called.
#[derive(Default)]
struct CountingHook(AtomicUsize);

impl GiveUpHook for CountingHook {
    fn gave_up<'a>(
        &'a self,
        _queue: &'a Queue,
        _conn: &'a mut PgConnection,
        _job: &'a GivenUpJob,
    ) -> HookFuture<'a> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test]
async fn a_producer_cancels_only_pending_jobs_and_runs_no_give_up_hook() {
    let db = TestDb::new().await;
    let hook = Arc::new(CountingHook::default());
    let queue =
        Queue::new(db.pool.clone(), QueueConfig::new("work")).with_give_up_hook(hook.clone());
    let ids = enqueue(&queue, &db.pool, &vec![NewJob::new(json!({})); 4]).await;
    let running = queue.claim("w", 1).await.unwrap().remove(0);
    let failed = queue.claim("w", 1).await.unwrap().remove(0);
    queue.fail(&db.pool, &failed, "gone").await.unwrap();
    assert_eq!(hook.0.load(Ordering::SeqCst), 1, "the failure ran it");

    // Rolled back with the producer's transaction.
    let mut tx = db.pool.begin().await.unwrap();
    assert_eq!(
        pgqueue::cancel_pending(&mut *tx, &ids).await.unwrap(),
        &ids[2..]
    );
    tx.rollback().await.unwrap();
    assert_eq!(
        pgqueue::count(&db.pool, "work", JobState::Pending)
            .await
            .unwrap(),
        2
    );

    let mut tx = db.pool.begin().await.unwrap();
    let cancelled = pgqueue::cancel_pending(&mut *tx, &[ids[0], ids[1], ids[3]])
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(cancelled, [ids[3]]);
    let states: Vec<JobState> = pgqueue::inspect_many(&db.pool, &ids)
        .await
        .unwrap()
        .into_iter()
        .map(|j| j.state)
        .collect();
    assert_eq!(
        states,
        [
            JobState::Running,
            JobState::Failed,
            JobState::Pending,
            JobState::Cancelled
        ]
    );
    assert_eq!(
        hook.0.load(Ordering::SeqCst),
        1,
        "no hook for a producer's cancel"
    );
    queue.complete(&db.pool, &running).await.unwrap();
}

#[tokio::test]
async fn recent_outcomes_count_what_happened_in_the_window() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue(&queue, &db.pool, &vec![NewJob::new(json!({})); 3]).await;
    let jobs = queue.claim("w", 3).await.unwrap();
    queue.retry(&jobs[0], "Bad Gateway", None).await.unwrap();
    queue
        .throttle(&jobs[1], Duration::from_secs(60), "Too Many Requests")
        .await
        .unwrap();
    queue.fail(&db.pool, &jobs[2], "gone").await.unwrap();
    let hour = Duration::from_secs(3600);
    assert_eq!(
        pgqueue::recent_outcomes(&db.pool, hour).await.unwrap(),
        RecentOutcomes {
            failed: 1,
            retried: 1,
            throttled: 1
        }
    );
    sqlx::raw_sql(
        "update jobs set finished_at = now() - interval '2 hours' where finished_at is not null;
         update job_attempts set finished_at = now() - interval '2 hours';",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    assert_eq!(
        pgqueue::recent_outcomes(&db.pool, hour).await.unwrap(),
        RecentOutcomes::default()
    );
}

#[tokio::test]
async fn depth_names_the_oldest_due_job() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let empty = maintenance::depth(&db.pool, "work").await.unwrap();
    assert_eq!(
        (empty.due_now, empty.oldest_due, empty.oldest_due_secs),
        (0, None, None)
    );
    let now: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("select now()")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({})).run_at(now - chrono::Duration::minutes(1)),
            NewJob::new(json!({})).run_at(now - chrono::Duration::minutes(5)),
            NewJob::new(json!({})).run_at(now + chrono::Duration::hours(1)),
        ],
    )
    .await;
    let depth = maintenance::depth(&db.pool, "work").await.unwrap();
    assert_eq!(depth.due_now, 2);
    let oldest = depth.oldest_due.unwrap();
    assert_eq!(
        (oldest.id, oldest.run_at),
        (ids[1], now - chrono::Duration::minutes(5))
    );
    assert!(depth.oldest_due_secs.unwrap() >= 300.0);
    assert_eq!(
        depth.states,
        [
            (JobState::Cancelled, 0),
            (JobState::Done, 0),
            (JobState::Failed, 0),
            (JobState::Pending, 3),
            (JobState::Running, 0)
        ]
    );
}

#[tokio::test]
async fn the_dashboard_and_admin_reads_are_served_by_indexes() {
    let db = TestDb::new().await;
    // Enough rows that depth estimates the states: 90 % pending in the future, a few due, 1 %
    // failed with a retry on record each (half of them in the last hour), the rest done; in three
    // priorities, one job in seven with one of 1000 serial keys (five of the due ones share a key).
    sqlx::raw_sql(
        "insert into jobs (queue, payload, run_at, state, attempts, claims, last_error,
                           finished_at, priority, serial_key)
         select 'work', jsonb_build_object('n', g),
                case when g % 1000 = 50 then now() - interval '1 minute'
                     else now() + (g % 40000) * interval '1 minute' end,
                case when g % 100 = 0 then 'failed'
                     when g % 100 < 10 then 'done' else 'pending' end,
                case when g % 100 < 10 then 1 else 0 end,
                case when g % 100 < 10 then 1 else 0 end,
                case when g % 100 = 0 then 'Forbidden: bot was blocked by the user' end,
                case when g % 100 < 10 then now() - (g % 200) * interval '1 hour' end,
                g % 3, case when g % 7 = 0 then 'chat' || (g % 1000) end
         from generate_series(1, 30000) g;
         insert into job_attempts (job_id, attempt, outcome, error, finished_at)
         select id, 1, 'retry', 'Bad Gateway', finished_at from jobs where state = 'failed';",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    // As autovacuum leaves the tables in steady state: statistics fresh, visibility map set.
    sqlx::query("vacuum analyze jobs, job_attempts")
        .execute(&db.pool)
        .await
        .unwrap();

    // With sequential scans priced out, a read still scanning a table has no index serving it.
    // The counters of the transaction tell which way each table was read.
    let mut tx = db.pool.begin().await.unwrap();
    sqlx::query("set local enable_seqscan = off")
        .execute(&mut *tx)
        .await
        .unwrap();
    let depth = maintenance::depth(&mut *tx, "work").await.unwrap();
    assert!(depth.estimated);
    assert_eq!(depth.due_now, 30);
    let page = FailedQuery {
        limit: 50,
        ..FailedQuery::default()
    };
    assert_eq!(
        pgqueue::failed_jobs(&mut *tx, &page).await.unwrap().len(),
        50
    );
    let filtered = FailedQuery {
        queue: Some("work".into()),
        reason: Some("blocked".into()),
        since: Some(chrono::Utc::now() - chrono::Duration::days(2)),
        offset: 50,
        ..page
    };
    pgqueue::failed_jobs(&mut *tx, &filtered).await.unwrap();
    assert_eq!(pgqueue::count_failed(&mut *tx, None).await.unwrap(), 300);
    pgqueue::count_failed(&mut *tx, Some("work")).await.unwrap();
    let recent = pgqueue::recent_outcomes(&mut *tx, Duration::from_secs(3600))
        .await
        .unwrap();
    assert_eq!((recent.failed, recent.retried), (150, 150));
    pgqueue::inspect_many(&mut *tx, &[JobId(1), JobId(2), JobId(3)])
        .await
        .unwrap();
    maintenance::attempts(&mut *tx, JobId(100)).await.unwrap();
    let scans: Vec<(String, i64, i64)> = sqlx::query_as(
        "select relname::text, seq_scan, coalesce(idx_scan, 0) from pg_stat_xact_user_tables
         where relname in ('jobs', 'job_attempts') order by relname",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    assert_eq!(scans.len(), 2, "{scans:?}");
    for (table, seq_scans, index_scans) in &scans {
        assert_eq!(*seq_scans, 0, "{table} was read sequentially: {scans:?}");
        assert!(*index_scans > 0, "{table}: {scans:?}");
    }
    drop(tx);

    // The claim and the next due time run on the queue's own pool: one connection with the same
    // setting, its counters read from the cumulative statistics, flushed at once before each
    // reading.
    let options = (*db.pool.connect_options())
        .clone()
        .options([("enable_seqscan", "off")]);
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    let queue = Queue::new(pool.clone(), QueueConfig::new("work"));
    let counters = || async {
        sqlx::query("select pg_stat_force_next_flush()")
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query_as::<_, (i64, i64)>(
            "select seq_scan, coalesce(idx_scan, 0) from pg_stat_user_tables
             where relname = 'jobs'",
        )
        .fetch_one(&pool)
        .await
        .unwrap()
    };
    let before = counters().await;
    assert_eq!(queue.next_due_in().await.unwrap(), Some(Duration::ZERO));
    // The 30 due jobs but four of the five that share a key: those wait for the first.
    let claimed = queue.claim("w", 100).await.unwrap();
    assert_eq!(claimed.len(), 26);
    let keyed: Vec<JobId> = claimed
        .iter()
        .filter(|j| j.serial_key.is_some())
        .map(|j| j.id)
        .collect();
    assert_eq!(keyed, [JobId(1050)]);
    assert!(claimed.is_sorted_by_key(|j| (j.priority, j.run_at, j.id)));
    let after = counters().await;
    assert_eq!(
        after.0, before.0,
        "the claim or next_due_in read jobs sequentially"
    );
    assert!(after.1 > before.1, "{before:?} {after:?}");
}

#[tokio::test]
async fn errors_keep_their_class_and_admins_filter_by_it() {
    let db = TestDb::new().await;
    let queue = Queue::new(
        db.pool.clone(),
        QueueConfig {
            lease: Duration::ZERO,
            max_attempts: 2,
            ..QueueConfig::new("work")
        },
    );
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({"n": 1})),
            NewJob::new(json!({"n": 2})),
            NewJob::new(json!({"n": 3})),
        ],
    )
    .await;
    // The first fails with a class, after a retry of another class; the second with plain text;
    // the third's worker dies on its last attempt.
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue
        .retry(&job, JobError::new("transient", "Bad Gateway"), None)
        .await
        .unwrap();
    pgqueue::maintenance::reschedule_job(
        &mut db.pool.acquire().await.unwrap(),
        ids[0],
        chrono::Utc::now() - chrono::Duration::hours(1),
    )
    .await
    .unwrap();
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    assert_eq!(job.id, ids[0]);
    queue
        .fail(
            &db.pool,
            &job,
            JobError::new("unreachable", "Forbidden: bot was blocked"),
        )
        .await
        .unwrap();
    fail_next(&queue, &db.pool, "something odd").await;
    let dying = Queue::new(
        db.pool.clone(),
        QueueConfig {
            lease: Duration::ZERO,
            max_attempts: 1,
            ..QueueConfig::new("work")
        },
    );
    dying.claim("dead", 1).await.unwrap();
    sqlx::query("update jobs set max_attempts = 1 where id = $1")
        .bind(ids[2])
        .execute(&db.pool)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    pgqueue::reaper::reap_expired(&db.pool, &[], 10)
        .await
        .unwrap();

    let class_of = |id: JobId| {
        let pool = db.pool.clone();
        async move {
            pgqueue::inspect(&pool, id)
                .await
                .unwrap()
                .unwrap()
                .error_class
        }
    };
    assert_eq!(class_of(ids[0]).await.as_deref(), Some("unreachable"));
    assert_eq!(
        class_of(ids[1]).await.as_deref(),
        Some(JobError::UNCLASSIFIED)
    );
    assert_eq!(
        class_of(ids[2]).await.as_deref(),
        Some(JobError::LEASE_EXPIRED)
    );
    let unreachable = pgqueue::failed_jobs(
        &db.pool,
        &FailedQuery {
            class: Some("unreachable".into()),
            limit: 10,
            ..FailedQuery::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        unreachable.iter().map(|j| j.id).collect::<Vec<_>>(),
        [ids[0]]
    );
    let history = maintenance::attempts(&db.pool, ids[0]).await.unwrap();
    let classes: Vec<_> = history
        .iter()
        .map(|a| (a.outcome, a.error_class.as_deref()))
        .collect();
    assert_eq!(
        classes,
        [
            (AttemptOutcome::Retry, Some("transient")),
            (AttemptOutcome::Failed, Some("unreachable"))
        ]
    );
}
