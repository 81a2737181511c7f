//! A worker that takes one job at a time: recording a success and claiming the next job is one
//! statement and one commit, fenced like every result, and the chain stops cleanly at shutdown.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pgqueue::JobId;
use pgqueue::{
    ClaimedJob, JobError, JobHandler, JobState, NewJob, Outcome, Queue, QueueConfig, Runner,
    RunnerConfig, Wakeups,
};
use serde_json::json;
use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::support::{TestDb, eventually};

async fn enqueue(queue: &Queue, pool: &PgPool, jobs: &[NewJob]) -> Vec<JobId> {
    let mut tx = pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, jobs).await.unwrap();
    tx.commit().await.unwrap();
    ids
}

/// Counts the jobs it ran, taking `work` over each; wakes the test when `target` have run.
struct Counting {
    ran: AtomicUsize,
    target: usize,
    work: Duration,
    all_ran: Notify,
}

impl Counting {
    fn new(target: usize, work: Duration) -> Arc<Self> {
        Arc::new(Self {
            ran: AtomicUsize::new(0),
            target,
            work,
            all_ran: Notify::new(),
        })
    }
}

impl JobHandler for Counting {
    async fn handle(&self, _job: ClaimedJob) -> Outcome {
        tokio::time::sleep(self.work).await;
        if self.ran.fetch_add(1, Ordering::SeqCst) + 1 == self.target {
            self.all_ran.notify_one();
        }
        Outcome::Done
    }
}

fn single_job_runner<H: JobHandler>(queue: Queue, handler: H, wakeups: Wakeups) -> Runner<H> {
    Runner::new(
        queue,
        handler,
        RunnerConfig {
            concurrency: 1,
            batch: 1,
            worker_id: "chain".to_owned(),
            ..RunnerConfig::default()
        },
        wakeups,
    )
}

#[tokio::test]
async fn completing_a_job_claims_the_next_one_of_its_key_and_a_stale_claim_records_nothing() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "n": 0 })).serial_key("chat:1"),
            NewJob::new(json!({ "n": 1 })).serial_key("chat:1"),
        ],
    )
    .await;

    // The key's second job waits for the first ...
    let first = queue.claim("w", 10).await.unwrap();
    assert_eq!(first.iter().map(|j| j.id).collect::<Vec<_>>(), [ids[0]]);
    // ... and is the one taken in the statement that finishes the first.
    let (completed, second) = queue.complete_and_claim(&first[0], "w").await.unwrap();
    assert!(completed);
    let second = second.expect("the key's next job");
    assert_eq!((second.id, second.attempt), (ids[1], 1));
    assert!(second.locked_until > chrono::Utc::now());

    // A result under an older claim changes nothing and claims nothing new (none is due).
    let stale = ClaimedJob {
        claim: second.claim - 1,
        ..second.clone()
    };
    let (completed, next) = queue.complete_and_claim(&stale, "w").await.unwrap();
    assert!(!completed, "a stale claim was recorded");
    assert!(next.is_none());
    assert_eq!(
        pgqueue::count(&db.pool, "work", JobState::Running)
            .await
            .unwrap(),
        1
    );

    let (completed, next) = queue.complete_and_claim(&second, "w").await.unwrap();
    assert!(completed);
    assert!(next.is_none(), "nothing else is due");
    assert_eq!(
        pgqueue::count(&db.pool, "work", JobState::Done)
            .await
            .unwrap(),
        2
    );
}

#[tokio::test]
async fn a_keyless_job_is_finished_with_its_history_and_the_next_is_claimed_by_priority() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "n": 0 })).priority(1),
            NewJob::new(json!({ "n": 1 })).priority(1),
            NewJob::new(json!({ "n": 2 })).priority(0),
            NewJob::new(json!({ "n": 3 }))
                .priority(0)
                .serial_key("chat:1"),
        ],
    )
    .await;
    // The first job fails once and runs again: its success goes into its history.
    let first = queue.claim("w", 1).await.unwrap().remove(0);
    assert_eq!(first.id, ids[2]);
    queue
        .retry(&first, JobError::new("transient", "try again"), None)
        .await
        .unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    assert!(
        pgqueue::maintenance::reschedule_job(
            &mut conn,
            first.id,
            chrono::Utc::now() - chrono::Duration::hours(1)
        )
        .await
        .unwrap()
    );
    let again = queue.claim("w", 1).await.unwrap().remove(0);
    assert_eq!((again.id, again.attempt), (ids[2], 2));

    // Finishing it claims the most urgent due job, a keyed one, under a lease of this worker.
    let (completed, next) = queue.complete_and_claim(&again, "w2").await.unwrap();
    assert!(completed);
    let next = next.expect("a job was due");
    assert_eq!((next.id, next.attempt, next.priority), (ids[3], 1, 0));
    assert_eq!(next.serial_key.as_deref(), Some("chat:1"));
    assert!(next.locked_until > chrono::Utc::now());
    let info = pgqueue::inspect(&db.pool, next.id).await.unwrap().unwrap();
    assert_eq!(info.state, JobState::Running);
    let history = pgqueue::maintenance::attempts(&db.pool, again.id)
        .await
        .unwrap();
    let outcomes: Vec<_> = history.iter().map(|a| (a.attempt, a.outcome)).collect();
    assert_eq!(
        outcomes,
        [
            (1, pgqueue::maintenance::AttemptOutcome::Retry),
            (2, pgqueue::maintenance::AttemptOutcome::Done)
        ]
    );

    // A result under an older claim records nothing; the claim in its statement still runs.
    let stale = ClaimedJob {
        claim: again.claim - 1,
        ..again.clone()
    };
    let (completed, taken) = queue.complete_and_claim(&stale, "w").await.unwrap();
    assert!(!completed, "a stale claim was recorded");
    assert_eq!(taken.map(|j| j.id), Some(ids[0]));
    assert_eq!(
        pgqueue::count(&db.pool, "work", JobState::Done)
            .await
            .unwrap(),
        1
    );
}

#[tokio::test]
async fn in_a_one_priority_queue_a_held_back_keyed_job_is_passed_over_and_a_job_due_later_is_not_taken()
 {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "n": 0 })).serial_key("chat:1"),
            NewJob::new(json!({ "n": 1 })).serial_key("chat:1"),
            NewJob::new(json!({ "n": 2 })),
            NewJob::new(json!({ "n": 3 })).run_at(chrono::Utc::now() + chrono::Duration::hours(1)),
        ],
    )
    .await;
    let first = queue.claim("w", 1).await.unwrap().remove(0);
    assert_eq!(first.id, ids[0]);

    // The first due job is the key's second, held back while the first runs: the claim passes
    // it over and takes the keyless job behind it.
    let stale = ClaimedJob {
        claim: first.claim - 1,
        ..first.clone()
    };
    let (completed, taken) = queue.complete_and_claim(&stale, "w").await.unwrap();
    assert!(!completed, "a stale claim was recorded");
    let keyless = taken.expect("the keyless job was due");
    assert_eq!(keyless.id, ids[2]);
    let held = pgqueue::inspect(&db.pool, ids[1]).await.unwrap().unwrap();
    assert_eq!(held.state, JobState::Pending);

    // Finishing the key's first job takes its second.
    let (completed, next) = queue.complete_and_claim(&first, "w").await.unwrap();
    assert!(completed);
    assert_eq!(next.map(|j| j.id), Some(ids[1]));

    // The job due in an hour is not taken.
    let (completed, next) = queue.complete_and_claim(&keyless, "w").await.unwrap();
    assert!(completed);
    assert!(next.is_none(), "a job due later was claimed");
}

/// Transactions committed in the current database, once the statistics of backends that have
/// exited are in.
async fn commits(pool: &PgPool) -> i64 {
    sqlx::query_scalar(
        "select xact_commit from pg_stat_database where datname = current_database()",
    )
    .fetch_one(pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_job_worker_commits_once_per_job_not_twice() {
    const JOBS: usize = 300;
    let db = TestDb::new().await;
    let jobs: Vec<NewJob> = (0..JOBS).map(|n| NewJob::new(json!({ "n": n }))).collect();
    enqueue(
        &Queue::new(db.pool.clone(), QueueConfig::new("work")),
        &db.pool,
        &jobs,
    )
    .await;

    // The worker's own pool, named so the test can tell when its backends (and their
    // statistics) are gone.
    let options = PgConnectOptions::from_str(db.url())
        .unwrap()
        .application_name("single-job-worker");
    let worker_pool = PgPoolOptions::new()
        .max_connections(4)
        .connect_with(options)
        .await
        .unwrap();
    let before = commits(&db.pool).await;
    let queue = Queue::new(worker_pool.clone(), QueueConfig::new("work"));
    let handler = Counting::new(JOBS, Duration::ZERO);
    let shutdown = CancellationToken::new();
    let runner = single_job_runner(queue, handler.clone(), Wakeups::poll_only());
    let running = tokio::spawn({
        let shutdown = shutdown.clone();
        async move { runner.run(shutdown).await }
    });
    tokio::time::timeout(Duration::from_secs(60), handler.all_ran.notified())
        .await
        .expect("every job ran");
    shutdown.cancel();
    running.await.unwrap();
    worker_pool.close().await;
    eventually(
        Duration::from_secs(10),
        "the worker's backends to exit",
        || async {
            let left: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity where application_name = 'single-job-worker'",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
            left == 0
        },
    )
    .await;
    let spent = commits(&db.pool).await - before;

    assert_eq!(
        pgqueue::count(&db.pool, "work", JobState::Done)
            .await
            .unwrap(),
        JOBS as i64
    );
    // A claim and a result each in a transaction of its own would be 600 and more; the rest
    // allows for the runner's first claim, its look at the next due time and the stray commits
    // of the test's own connections.
    assert!(
        spent <= (JOBS as i64) * 5 / 4,
        "{spent} commits for {JOBS} jobs"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_a_chain_leaves_no_job_running_and_loses_none() {
    const JOBS: usize = 60;
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let jobs: Vec<NewJob> = (0..JOBS).map(|n| NewJob::new(json!({ "n": n }))).collect();
    enqueue(&queue, &db.pool, &jobs).await;
    let handler = Counting::new(JOBS, Duration::from_millis(20));
    let shutdown = CancellationToken::new();
    let runner = single_job_runner(queue, handler.clone(), Wakeups::poll_only());
    let running = tokio::spawn({
        let shutdown = shutdown.clone();
        async move { runner.run(shutdown).await }
    });
    eventually(Duration::from_secs(10), "a few jobs to run", || async {
        handler.ran.load(Ordering::SeqCst) >= 5
    })
    .await;
    shutdown.cancel();
    running.await.unwrap();

    let count = |state| pgqueue::count(&db.pool, "work", state);
    let (done, pending, running) = (
        count(JobState::Done).await.unwrap(),
        count(JobState::Pending).await.unwrap(),
        count(JobState::Running).await.unwrap(),
    );
    assert_eq!(running, 0, "a job was left running");
    assert_eq!(done, handler.ran.load(Ordering::SeqCst) as i64);
    assert!(done < JOBS as i64, "the chain went on after shutdown");
    assert_eq!(done + pending, JOBS as i64, "a job was lost");
}
