//! The queue's guarantees on real PostgreSQL: exactly-once under concurrent claims, transactional
//! enqueue, fencing after a lease is lost, backoff, dedupe and retention.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pgqueue::JobId;
use pgqueue::RetryOutcome;
use pgqueue::{
    Backoff, ClaimedJob, JobHandler, JobState, NewJob, Outcome, Queue, QueueConfig, QueueError,
    Runner, RunnerConfig, Wakeups, maintenance, reaper,
};
use serde_json::json;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use crate::support::{TestDb, eventually};

/// Counts how often each job (by payload `n`) ran, and which runner ran it.
#[derive(Clone, Default)]
pub struct Recorder {
    runs: Arc<Mutex<HashMap<u64, Vec<String>>>>,
}

impl Recorder {
    fn total(&self) -> usize {
        self.runs.lock().unwrap().values().map(Vec::len).sum()
    }

    fn distinct(&self) -> usize {
        self.runs.lock().unwrap().len()
    }
}

/// A handler that records its job and succeeds.
struct Recording {
    name: String,
    recorder: Recorder,
}

impl JobHandler for Recording {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        let n = job.payload["n"].as_u64().expect("payload n");
        // Yield so that concurrent runners interleave.
        tokio::task::yield_now().await;
        self.recorder
            .runs
            .lock()
            .unwrap()
            .entry(n)
            .or_default()
            .push(self.name.clone());
        Outcome::Done
    }
}

async fn enqueue_numbered(queue: &Queue, pool: &PgPool, count: u64) {
    let jobs: Vec<NewJob> = (0..count).map(|n| NewJob::new(json!({ "n": n }))).collect();
    let mut tx = pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, &jobs).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(ids.len() as u64, count);
}

/// Makes every running job's lease expire, as if its worker had died a while ago.
async fn expire_leases(pool: &PgPool) {
    sqlx::query(
        "update jobs set locked_until = now() - interval '1 second' where state = 'running'",
    )
    .execute(pool)
    .await
    .unwrap();
}

async fn count_in_state(pool: &PgPool, state: &str) -> i64 {
    sqlx::query_scalar("select count(*) from jobs where state = $1")
        .bind(state)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// Starts `runners` competing runners over one queue and waits until `jobs` distinct jobs ran.
async fn drain_with_competing_runners(runners: usize, concurrency: usize, batch: usize) {
    const JOBS: u64 = 2000;
    let db = TestDb::with_connections(runners as u32 + 4).await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, JOBS).await;
    let recorder = Recorder::default();
    let shutdown = CancellationToken::new();
    let wakeups = Wakeups::listen(db.pool.clone(), shutdown.clone());
    let mut tasks = tokio::task::JoinSet::new();
    for worker in 0..runners {
        let runner = Runner::new(
            queue.clone(),
            Recording {
                name: format!("w{worker}"),
                recorder: recorder.clone(),
            },
            RunnerConfig {
                concurrency,
                batch,
                worker_id: format!("w{worker}"),
                ..RunnerConfig::default()
            },
            wakeups.clone(),
        );
        let shutdown = shutdown.clone();
        tasks.spawn(async move { runner.run(shutdown).await });
    }
    eventually(Duration::from_secs(60), "all jobs to run", || async {
        recorder.distinct() == JOBS as usize
    })
    .await;
    shutdown.cancel();
    while tasks.join_next().await.is_some() {}

    assert_eq!(recorder.total(), JOBS as usize, "some job ran twice");
    assert_eq!(count_in_state(&db.pool, "done").await, JOBS as i64);
    let workers_used = {
        let runs = recorder.runs.lock().unwrap();
        let mut names: Vec<&String> = runs.values().flatten().collect();
        names.sort();
        names.dedup();
        names.len()
    };
    assert!(workers_used > 1, "the work was not shared between runners");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_workers_run_two_thousand_jobs_exactly_once() {
    drain_with_competing_runners(8, 1, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_workers_with_batch_claims_run_every_job_exactly_once() {
    drain_with_competing_runners(16, 2, 16).await;
}

#[tokio::test]
async fn a_claim_takes_no_more_than_asked_and_sets_a_lease() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, 10).await;
    let claimed = queue.claim("w", 4).await.unwrap();
    assert_eq!(claimed.len(), 4);
    assert!(claimed.iter().all(|j| j.attempt == 1 && j.claim == 1));
    assert_eq!(count_in_state(&db.pool, "running").await, 4);
    let leased: bool = sqlx::query_scalar(
        "select bool_and(locked_until > now() + interval '50 seconds') from jobs where state = 'running'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert!(leased);
    let future =
        NewJob::new(json!({"n": 99})).run_at(chrono::Utc::now() + chrono::Duration::hours(1));
    queue
        .enqueue(&mut db.pool.acquire().await.unwrap(), future)
        .await
        .unwrap();
    assert_eq!(
        queue.claim("w", 100).await.unwrap().len(),
        6,
        "a job due later was claimed"
    );
}

/// `complete_job`, the completion a program calls inside a statement of its own: it completes a
/// job still held under its claim, and refuses (writing nothing) one whose lease was lost and
/// which another worker now holds.
#[tokio::test]
async fn complete_job_in_sql_completes_under_the_claim_and_refuses_a_lost_lease() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, 2).await;
    let held = queue.claim("w", 2).await.unwrap();
    let complete = |job: &ClaimedJob| {
        sqlx::query_scalar::<_, bool>("select complete_job($1, $2)")
            .bind(job.id.0)
            .bind(job.claim)
            .fetch_one(&db.pool)
    };
    assert!(complete(&held[0]).await.unwrap());
    assert_eq!(count_in_state(&db.pool, "done").await, 1);

    expire_leases(&db.pool).await;
    let reaped = reaper::reap(&db.pool, &[], 100, Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(reaped.returned, 1);
    let again = queue.claim("other", 1).await.unwrap();
    assert_eq!(again.len(), 1, "the lost job is claimed again");
    assert!(
        !complete(&held[1]).await.unwrap(),
        "a lost lease completed the job"
    );
    assert_eq!(count_in_state(&db.pool, "running").await, 1);
    assert!(complete(&again[0]).await.unwrap());
    assert_eq!(count_in_state(&db.pool, "done").await, 2);
}

/// A program's rows with their jobs in one statement of its own, as `reserve_job_id` and
/// `enqueue_reserved_jobs` are meant to be used: each row keeps its job's id, each job names its
/// row; a row skipped by the program's insert gets no job; a key's jobs run in the order of the
/// rows; and when the queue refuses the jobs, the rows are not written either.
#[tokio::test]
async fn rows_and_their_reserved_jobs_are_written_in_one_statement_or_not_at_all() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("orders"));
    sqlx::query(
        "create table orders (id bigint generated always as identity primary key,
                              number bigint unique, customer text not null, job_id bigint)",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    let write = |numbers: Vec<i64>, customers: Vec<&'static str>, max_attempts: i32| {
        sqlx::query_scalar::<_, i32>(
            "with stored as (
                 insert into orders (number, customer, job_id)
                 select number, customer, reserve_job_id()
                 from rows from (unnest($1::bigint[]), unnest($2::text[])) as o(number, customer)
                 on conflict (number) do nothing
                 returning id, customer, job_id)
             select enqueue_reserved_jobs(
                        $3,
                        array_agg(job_id order by job_id),
                        jsonb_agg(jsonb_build_object('order', id) order by job_id),
                        array_agg(customer order by job_id),
                        $4)
             from stored",
        )
        .bind(numbers)
        .bind(customers)
        .bind(queue.name().to_owned())
        .bind(max_attempts)
        .fetch_one(&db.pool)
    };
    assert_eq!(
        write(vec![1, 2, 3], vec!["a", "b", "a"], 5).await.unwrap(),
        3
    );
    // Order 2 again (a duplicate the program's insert skips), and one new order.
    assert_eq!(write(vec![2, 4], vec!["b", "a"], 5).await.unwrap(), 1);
    let error = write(vec![5, 6], vec!["c", "c"], 0)
        .await
        .expect_err("a job of no attempts is refused");
    assert!(error.to_string().contains("jobs_valid"), "{error}");

    let linked: Vec<(i64, i64, Option<i64>)> = sqlx::query_as(
        "select o.number, o.id, (j.payload->>'order')::bigint
         from orders o left join jobs j on j.id = o.job_id order by o.number",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(
        linked.len(),
        4,
        "the refused statement wrote its rows: {linked:?}"
    );
    for (number, id, job_order) in &linked {
        assert_eq!(
            Some(*id),
            *job_order,
            "order {number} and its job point at each other"
        );
    }
    assert_eq!(
        count_in_state(&db.pool, "pending").await,
        4,
        "a job per order, no more"
    );
    // Customer a's jobs one at a time, in the order of the orders (1, 3, 4).
    let mut claimed = Vec::new();
    loop {
        let jobs = queue.claim("w", 10).await.unwrap();
        if jobs.is_empty() {
            break;
        }
        for job in jobs {
            claimed.push(job.payload["order"].as_i64().unwrap());
            queue.complete(&db.pool, &job).await.unwrap();
        }
    }
    let order_of = |number: i64| linked.iter().find(|(n, ..)| *n == number).unwrap().1;
    let of_a: Vec<i64> = claimed
        .iter()
        .copied()
        .filter(|id| [1, 3, 4].map(order_of).contains(id))
        .collect();
    assert_eq!(of_a, [1, 3, 4].map(order_of));
}

/// A row with its one scheduled job in one statement, as `enqueue_reserved_job` is meant to be
/// used: the job is due when the row says, with its priority and dedupe key, and the row keeps its
/// id; a job the queue refuses, or whose dedupe key a live job holds, leaves no row either.
#[tokio::test]
async fn a_row_and_its_scheduled_job_are_written_in_one_statement_or_not_at_all() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("calls"));
    sqlx::query(
        "create table calls (id bigint generated always as identity primary key,
                             due timestamptz not null, job_id bigint)",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    let write = |due_in_secs: f64, key: Option<&'static str>, max_attempts: i32| {
        sqlx::query_as::<_, (i64, i64)>(
            "with stored as (
                 insert into calls (due, job_id)
                 values (now() + make_interval(secs => $1), reserve_job_id())
                 returning id, due, job_id)
             select id, enqueue_reserved_job($2, job_id, jsonb_build_object('call', id), due,
                                             7::smallint, coalesce($3, 'call:' || id), $4)
             from stored",
        )
        .bind(due_in_secs)
        .bind(queue.name().to_owned())
        .bind(key)
        .bind(max_attempts)
        .fetch_one(&db.pool)
    };
    let (now_id, now_job) = write(0.0, None, 5).await.unwrap();
    let (later_id, _) = write(3600.0, None, 5).await.unwrap();
    write(0.0, Some("taken"), 5).await.unwrap();
    let error = write(0.0, Some("taken"), 5)
        .await
        .expect_err("a live job holds the key");
    assert!(error.to_string().contains("jobs_live_dedupe"), "{error}");
    let error = write(0.0, None, 0)
        .await
        .expect_err("a job of no attempts is refused");
    assert!(error.to_string().contains("jobs_valid"), "{error}");

    let calls: i64 = sqlx::query_scalar("select count(*) from calls")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(calls, 3, "a refused statement wrote its row");
    let linked: Vec<(i64, Option<i64>, Option<i16>)> = sqlx::query_as(
        "select c.id, (j.payload->>'call')::bigint, j.priority
         from calls c left join jobs j on j.id = c.job_id and j.run_at = c.due order by c.id",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    for (id, job_call, priority) in &linked {
        assert_eq!(
            Some(*id),
            *job_call,
            "call {id} and its job (due with it) point at each other"
        );
        assert_eq!(*priority, Some(7));
    }
    let key: Option<String> = sqlx::query_scalar("select dedupe_key from jobs where id = $1")
        .bind(now_job)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(key, Some(format!("call:{now_id}")));

    // Only the calls due now are claimed; the later one waits for its time.
    let mut claimed = Vec::new();
    for job in queue.claim("w", 10).await.unwrap() {
        claimed.push(job.payload["call"].as_i64().unwrap());
        assert!(job.id.0 != 0);
        if job.payload["call"].as_i64() == Some(now_id) {
            assert_eq!(
                job.id.0, now_job,
                "the job was written under the reserved id"
            );
        }
    }
    claimed.sort_unstable();
    assert_eq!(claimed.len(), 2);
    assert!(!claimed.contains(&later_id), "a job ran before its time");
}

#[tokio::test]
async fn an_enqueue_in_a_rolled_back_transaction_leaves_no_job_and_wakes_no_worker() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let shutdown = CancellationToken::new();
    let wakeups = Wakeups::listen(db.pool.clone(), shutdown.clone());
    let wake = wakeups.subscribe("work");
    // The listener wakes every queue once when it has connected.
    tokio::time::timeout(Duration::from_secs(5), wake.notified())
        .await
        .expect("the listener connected");

    let mut tx = db.pool.begin().await.unwrap();
    let id = queue
        .enqueue(&mut tx, NewJob::new(json!({"n": 1})))
        .await
        .unwrap();
    assert!(id.is_some());
    tx.rollback().await.unwrap();
    assert_eq!(count_in_state(&db.pool, "pending").await, 0);
    assert!(
        tokio::time::timeout(Duration::from_millis(500), wake.notified())
            .await
            .is_err(),
        "a rolled-back enqueue woke a worker"
    );

    let mut tx = db.pool.begin().await.unwrap();
    queue
        .enqueue(&mut tx, NewJob::new(json!({"n": 2})))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    tokio::time::timeout(Duration::from_secs(2), wake.notified())
        .await
        .expect("a committed enqueue wakes workers");
    shutdown.cancel();
}

#[tokio::test]
async fn a_dead_workers_job_is_reaped_rerun_and_its_late_result_refused() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("work");
    config.lease = Duration::from_millis(300);
    let queue = Queue::new(db.pool.clone(), config);
    enqueue_numbered(&queue, &db.pool, 1).await;

    let dead = queue.claim("dead", 1).await.unwrap().remove(0);
    assert_eq!(
        reaper::reap_expired(&db.pool, &[], 100)
            .await
            .unwrap()
            .returned,
        0,
        "lease still valid"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let reaped = reaper::reap_expired(&db.pool, &[], 100).await.unwrap();
    assert_eq!(reaped.returned, 1);
    assert_eq!(count_in_state(&db.pool, "pending").await, 1);

    let alive = queue.claim("alive", 1).await.unwrap().remove(0);
    assert_eq!(alive.id, dead.id);
    assert_eq!(alive.attempt, 2);
    // The dead worker comes back to life too late: every transition is refused.
    for late in [
        queue.complete(&db.pool, &dead).await,
        queue.fail(&db.pool, &dead, "late").await,
        queue.cancel(&db.pool, &dead).await,
        queue.release(&dead).await,
    ] {
        assert!(
            matches!(late, Err(QueueError::LeaseLost { .. })),
            "{late:?}"
        );
    }
    assert!(matches!(
        queue.extend_lease(&dead).await,
        Err(QueueError::LeaseLost { .. })
    ));
    queue.complete(&db.pool, &alive).await.unwrap();
    let (state, locked_by): (String, String) =
        sqlx::query_as("select state, locked_by from jobs where id = $1")
            .bind(alive.id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!((state.as_str(), locked_by.as_str()), ("done", "alive"));
}

#[tokio::test]
async fn the_reaper_fails_a_job_whose_attempts_are_used_up() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("work");
    config.max_attempts = 1;
    let queue = Queue::new(db.pool.clone(), config);
    enqueue_numbered(&queue, &db.pool, 1).await;
    queue.claim("dead", 1).await.unwrap();
    expire_leases(&db.pool).await;
    let reaped = reaper::reap_expired(&db.pool, &[], 100).await.unwrap();
    assert_eq!((reaped.returned, reaped.failed), (0, 1));
    let error: String = sqlx::query_scalar("select last_error from jobs where state = 'failed'")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert!(error.contains("lease expired"), "{error}");
}

#[tokio::test]
async fn concurrent_reapers_return_each_job_once() {
    let db = TestDb::with_connections(12).await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, 300).await;
    assert_eq!(queue.claim("dead", 300).await.unwrap().len(), 300);
    expire_leases(&db.pool).await;
    let passes = (0..6).map(|_| {
        let pool = db.pool.clone();
        tokio::spawn(async move { reaper::reap_expired(&pool, &[], 40).await.unwrap() })
    });
    let mut returned = 0;
    for pass in passes {
        returned += pass.await.unwrap().returned;
    }
    returned += reaper::reap_expired(&db.pool, &[], 1000)
        .await
        .unwrap()
        .returned;
    assert_eq!(returned, 300);
    let attempts: Vec<i32> = sqlx::query_scalar("select distinct attempts from jobs")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(attempts, vec![1]);
}

/// The delay the last retry set, measured on the database clock.
async fn scheduled_delay(pool: &PgPool, id: JobId) -> Duration {
    let seconds: f64 = sqlx::query_scalar(
        "select extract(epoch from run_at - updated_at)::float8 from jobs where id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await
    .unwrap();
    Duration::from_secs_f64(seconds)
}

async fn make_due(pool: &PgPool) {
    sqlx::query("update jobs set run_at = now() where state = 'pending'")
        .execute(pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn retries_follow_the_backoff_honour_the_floor_and_end_failed() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("work");
    config.backoff = Backoff {
        base: Duration::from_millis(100),
        cap: Duration::from_secs(10),
        jitter: 0.5,
    };
    config.max_attempts = 4;
    let queue = Queue::new(db.pool.clone(), config);
    enqueue_numbered(&queue, &db.pool, 1).await;

    // Attempts 1 and 2: 100 ms · 2^n, jittered down by at most half.
    for (attempt, ceiling_ms) in [(1, 200u64), (2, 400)] {
        let job = queue.claim("w", 1).await.unwrap().remove(0);
        assert_eq!(job.attempt, attempt);
        let outcome = queue.retry(&job, "boom", None).await.unwrap();
        let delay = scheduled_delay(&db.pool, job.id).await;
        let ceiling = Duration::from_millis(ceiling_ms);
        assert!(
            delay >= ceiling / 2 && delay <= ceiling + Duration::from_millis(1),
            "attempt {attempt}: {delay:?}"
        );
        assert!(matches!(outcome, RetryOutcome::Scheduled(d) if d >= ceiling / 2 && d <= ceiling));
        make_due(&db.pool).await;
    }
    // Attempt 3: the caller's floor (Telegram's retry_after) wins over a shorter backoff.
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue
        .retry(&job, "429", Some(Duration::from_secs(3600)))
        .await
        .unwrap();
    let delay = scheduled_delay(&db.pool, job.id).await;
    assert!((delay.as_secs_f64() - 3600.0).abs() < 0.01, "{delay:?}");
    assert!(
        queue.claim("w", 1).await.unwrap().is_empty(),
        "a job ran before its retry time"
    );
    make_due(&db.pool).await;
    // Attempt 4 is the last: the job fails with its error.
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    assert!(job.is_last_attempt());
    assert_eq!(
        queue.retry(&job, "still broken", None).await.unwrap(),
        RetryOutcome::Failed
    );
    let (state, attempts, error): (String, i32, String) =
        sqlx::query_as("select state, attempts, last_error from jobs where id = $1")
            .bind(job.id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        (state.as_str(), attempts, error.as_str()),
        ("failed", 4, "still broken")
    );
}

#[tokio::test]
async fn a_snooze_does_not_use_up_an_attempt() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, 1).await;
    for _ in 0..3 {
        let job = queue.claim("w", 1).await.unwrap().remove(0);
        assert_eq!(job.attempt, 1);
        queue.reschedule(&job, Duration::ZERO).await.unwrap();
    }
    let claims: i32 = sqlx::query_scalar("select claims from jobs")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(claims, 3, "the fence counts every claim");
}

#[tokio::test]
async fn the_same_dedupe_key_enqueued_concurrently_gives_one_job() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    for round in 0..10 {
        let key = format!("reminder-{round}");
        let attempts = (0..2).map(|_| {
            let (queue, pool, key) = (queue.clone(), db.pool.clone(), key.clone());
            tokio::spawn(async move {
                let mut tx = pool.begin().await.unwrap();
                let id = queue
                    .enqueue(&mut tx, NewJob::new(json!({"n": 1})).dedupe_key(key))
                    .await
                    .unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
                tx.commit().await.unwrap();
                id
            })
        });
        let mut inserted = 0;
        for attempt in attempts {
            inserted += usize::from(attempt.await.unwrap().is_some());
        }
        assert_eq!(inserted, 1, "round {round}");
    }
    assert_eq!(count_in_state(&db.pool, "pending").await, 10);
    // Once the job is finished the key is free again.
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.complete(&db.pool, &job).await.unwrap();
    let key: String = sqlx::query_scalar("select dedupe_key from jobs where id = $1")
        .bind(job.id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let again = queue
        .enqueue(
            &mut db.pool.acquire().await.unwrap(),
            NewJob::new(json!({"n": 1})).dedupe_key(key),
        )
        .await
        .unwrap();
    assert!(again.is_some());
}

/// The payload numbers of the queue's jobs in id order.
async fn numbers_in_id_order(pool: &PgPool) -> Vec<i64> {
    sqlx::query_scalar("select (payload->>'n')::bigint from jobs order by id")
        .fetch_all(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_bulk_enqueue_keeps_the_jobs_order_with_and_without_dedupe_keys() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let plain: Vec<NewJob> = (0..1000)
        .map(|n| NewJob::new(json!({ "n": n })).serial_key(format!("chat:{}", n % 3)))
        .collect();
    let mut tx = db.pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, &plain).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(ids.len(), 1000);
    assert!(ids.is_sorted());
    assert_eq!(
        numbers_in_id_order(&db.pool).await,
        (0..1000).collect::<Vec<_>>()
    );

    // With dedupe keys (one of them live already, one twice in the batch) the live ones are
    // skipped and the rest keep their order.
    let deduped: Vec<NewJob> = (1000..2000)
        .map(|n| {
            let job = NewJob::new(json!({ "n": n }));
            match n {
                1000 | 1001 => job.dedupe_key("taken"),
                1500 => job.dedupe_key("k1500"),
                _ => job,
            }
        })
        .collect();
    let mut tx = db.pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, &deduped).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        ids.len(),
        999,
        "the second job of key \"taken\" was inserted"
    );
    let expected: Vec<i64> = (0..2000).filter(|&n| n != 1001).collect();
    assert_eq!(numbers_in_id_order(&db.pool).await, expected);
}

#[tokio::test]
async fn retention_removes_old_finished_jobs_and_keeps_failed_ones() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, 3).await;
    let jobs = queue.claim("w", 3).await.unwrap();
    queue.complete(&db.pool, &jobs[0]).await.unwrap();
    queue.cancel(&db.pool, &jobs[1]).await.unwrap();
    queue.fail(&db.pool, &jobs[2], "gone").await.unwrap();
    assert_eq!(
        maintenance::purge_finished(&db.pool, Duration::from_secs(3600))
            .await
            .unwrap(),
        0
    );
    sqlx::query("update jobs set finished_at = now() - interval '2 hours'")
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(
        maintenance::purge_finished(&db.pool, Duration::from_secs(3600))
            .await
            .unwrap(),
        2
    );
    assert_eq!(count_in_state(&db.pool, "failed").await, 1);
}

#[tokio::test]
async fn admins_can_retry_a_failed_job_and_producers_cancel_or_move_pending_ones() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    enqueue_numbered(&queue, &db.pool, 2).await;
    let jobs = queue.claim("w", 2).await.unwrap();
    queue.fail(&db.pool, &jobs[0], "blocked").await.unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    maintenance::retry_failed(&mut conn, jobs[0].id)
        .await
        .unwrap();
    assert!(matches!(
        maintenance::retry_failed(&mut conn, jobs[0].id).await,
        Err(QueueError::NotFound(_))
    ));
    let again = queue.claim("w", 1).await.unwrap().remove(0);
    assert_eq!((again.id, again.attempt), (jobs[0].id, 1));

    // Cancelling a running job makes its worker's result bounce.
    assert!(
        maintenance::cancel_job(&mut *conn, jobs[1].id)
            .await
            .unwrap()
    );
    assert!(matches!(
        queue.complete(&db.pool, &jobs[1]).await,
        Err(QueueError::LeaseLost { .. })
    ));
    assert!(
        !maintenance::cancel_job(&mut *conn, jobs[1].id)
            .await
            .unwrap()
    );

    queue.release(&again).await.unwrap();
    let later = chrono::Utc::now() + chrono::Duration::hours(2);
    assert!(
        maintenance::reschedule_job(&mut conn, again.id, later)
            .await
            .unwrap()
    );
    assert!(queue.claim("w", 1).await.unwrap().is_empty());
    let counts = maintenance::state_counts(&db.pool).await.unwrap();
    assert_eq!(
        counts,
        [
            (JobState::Cancelled, 1),
            (JobState::Done, 0),
            (JobState::Failed, 0),
            (JobState::Pending, 1),
            (JobState::Running, 0)
        ]
    );
}

#[tokio::test]
async fn the_attempts_of_a_failing_job_are_kept_with_their_errors_and_bounded() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("work");
    config.max_attempts = 30;
    let queue = Queue::new(db.pool.clone(), config);
    enqueue_numbered(&queue, &db.pool, 2).await;

    // A job that succeeds at once leaves no history; a snooze is not an attempt.
    let quick = queue.claim("w", 1).await.unwrap().remove(0);
    queue.complete(&db.pool, &quick).await.unwrap();
    assert!(
        maintenance::attempts(&db.pool, quick.id)
            .await
            .unwrap()
            .is_empty()
    );

    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.reschedule(&job, Duration::ZERO).await.unwrap();
    for n in 1..=24 {
        let job = queue.claim("worker-a", 1).await.unwrap().remove(0);
        assert_eq!(job.attempt, n);
        queue.retry(&job, format!("error {n}"), None).await.unwrap();
        make_due(&db.pool).await;
    }
    let job = queue.claim("worker-b", 1).await.unwrap().remove(0);
    queue.fail(&db.pool, &job, "gave up").await.unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    maintenance::retry_failed(&mut conn, job.id).await.unwrap();
    let job = queue.claim("worker-c", 1).await.unwrap().remove(0);
    queue.complete(&db.pool, &job).await.unwrap();

    let history = maintenance::attempts(&db.pool, job.id).await.unwrap();
    assert_eq!(history.len(), 20, "bounded to the newest 20");
    let last = &history[19];
    assert_eq!(
        (last.outcome.as_str(), last.worker.as_deref()),
        ("done", Some("worker-c"))
    );
    let failed = &history[18];
    assert_eq!(
        (
            failed.outcome.as_str(),
            failed.attempt,
            failed.error.as_deref()
        ),
        ("failed", 25, Some("gave up"))
    );
    let retry = &history[17];
    assert_eq!(
        (retry.outcome.as_str(), retry.error.as_deref()),
        ("retry", Some("error 24"))
    );
    assert!(
        history
            .iter()
            .all(|a| a.started_at.is_some_and(|s| s <= a.finished_at))
    );
}
