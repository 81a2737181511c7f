//! The transactional (lock-held) mode: a job is held by the row lock of an open transaction while
//! it runs and its outcome is one update in it. Each job runs once; an error is retried with backoff
//! and counted; a worker whose session ends (killed, hung past the lease) loses its job at once or
//! after the lease, and its late result is refused; serial keys and priorities hold, also beside
//! lease-mode workers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pgqueue::maintenance::{self, AttemptOutcome};
use pgqueue::{
    Backoff, Claim, ClaimMode, ClaimedJob, DoneJobs, HeldJob, JobError, JobHandler, JobId,
    JobState, NewJob, Outcome, Queue, QueueConfig, Runner, RunnerConfig, Wakeups,
};
use serde_json::json;
use sqlx::{Connection, PgConnection, PgPool};
use tokio_util::sync::CancellationToken;

use crate::support::{TestDb, eventually};

async fn enqueue(queue: &Queue, pool: &PgPool, jobs: &[NewJob]) -> Vec<JobId> {
    let mut tx = pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, jobs).await.unwrap();
    tx.commit().await.unwrap();
    ids
}

async fn info(pool: &PgPool, id: JobId) -> pgqueue::JobInfo {
    pgqueue::inspect(pool, id).await.unwrap().unwrap()
}

fn held(claim: Option<Claim<'_>>) -> HeldJob<'_> {
    match claim {
        Some(Claim::Held(held)) => held,
        other => panic!("expected a held job, got {other:?}"),
    }
}

/// A connection of its own, outside the pool (a worker's).
async fn connect(db: &TestDb) -> PgConnection {
    PgConnection::connect(db.url()).await.unwrap()
}

/// How a job was claimed by [`claim_and_finish`].
#[derive(Debug, PartialEq)]
enum Taken {
    Held,
    Leased,
}

/// Claims a job on `conn` as soon as one is claimable (within 10 s) and records it done, held or
/// leased; returns the job, how it was claimed and what recording it gave.
async fn claim_and_finish(
    queue: &Queue,
    conn: &mut PgConnection,
    worker: &str,
) -> (ClaimedJob, Taken, Result<(), pgqueue::QueueError>) {
    let started = Instant::now();
    loop {
        match queue.claim_held(conn, worker).await.unwrap() {
            Some(Claim::Held(held)) => {
                let job = held.job().clone();
                let recorded = held.finish(queue, Outcome::Done).await.map(|_| ());
                return (job, Taken::Held, recorded);
            }
            Some(Claim::Leased(job)) => {
                let recorded = queue.complete(queue.pool(), &job).await;
                return (job, Taken::Leased, recorded);
            }
            None => {}
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no job became claimable"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// What a test handler saw: each start, by job, and the keys running at once.
#[derive(Default)]
struct Seen {
    starts: Mutex<Vec<(JobId, Instant)>>,
    running_keys: Mutex<HashMap<String, usize>>,
    overlaps: Mutex<Vec<String>>,
}

impl Seen {
    /// How often each job was started.
    fn runs(&self) -> HashMap<JobId, usize> {
        let mut runs: HashMap<JobId, usize> = HashMap::new();
        for (id, _) in self.starts.lock().unwrap().iter() {
            *runs.entry(*id).or_default() += 1;
        }
        runs
    }
}

/// Records what it runs; fails the first `failures` attempts of every job; takes `work`.
struct Recording {
    seen: Arc<Seen>,
    failures: i32,
    work: Duration,
}

impl JobHandler for Recording {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        self.seen
            .starts
            .lock()
            .unwrap()
            .push((job.id, Instant::now()));
        if let Some(key) = &job.serial_key {
            let mut running = self.seen.running_keys.lock().unwrap();
            let count = running.entry(key.clone()).or_default();
            *count += 1;
            if *count > 1 {
                self.seen.overlaps.lock().unwrap().push(key.clone());
            }
        }
        tokio::time::sleep(self.work).await;
        if let Some(key) = &job.serial_key {
            *self.seen.running_keys.lock().unwrap().get_mut(key).unwrap() -= 1;
        }
        if job.attempt <= self.failures {
            return Outcome::Retry {
                error: JobError::new("transient", format!("attempt {} failed", job.attempt)),
                floor: None,
            };
        }
        Outcome::Done
    }
}

fn transactional(concurrency: usize, worker: &str) -> RunnerConfig {
    RunnerConfig {
        concurrency,
        worker_id: worker.to_owned(),
        poll_interval: Duration::from_millis(100),
        mode: ClaimMode::Transactional,
        ..RunnerConfig::default()
    }
}

/// Starts a runner of `handler` on `queue` until `shutdown`.
fn spawn_runner<H: JobHandler>(
    queue: &Queue,
    handler: H,
    config: RunnerConfig,
    shutdown: &CancellationToken,
) -> tokio::task::JoinHandle<()> {
    let runner = Runner::new(
        queue.clone(),
        handler,
        config,
        Wakeups::listen(queue.pool().clone(), shutdown.clone()),
    );
    let shutdown = shutdown.clone();
    tokio::spawn(async move { runner.run(shutdown).await })
}

/// Starts a transactional runner of 6 slots on `queue` whose handler records each start and
/// succeeds at once.
fn spawn_recording(
    queue: &Queue,
    shutdown: &CancellationToken,
) -> (Arc<Seen>, tokio::task::JoinHandle<()>) {
    let seen = Arc::new(Seen::default());
    let handler = Recording {
        seen: seen.clone(),
        failures: 0,
        work: Duration::ZERO,
    };
    let running = spawn_runner(queue, handler, transactional(6, "t"), shutdown);
    (seen, running)
}

/// The outcomes of the job's attempts on record, oldest first.
async fn attempt_outcomes(pool: &PgPool, id: JobId) -> Vec<AttemptOutcome> {
    maintenance::attempts(pool, id)
        .await
        .unwrap()
        .iter()
        .map(|a| a.outcome)
        .collect()
}

async fn count(pool: &PgPool, queue: &Queue, state: JobState) -> i64 {
    pgqueue::count(pool, queue.name(), state).await.unwrap()
}

#[tokio::test]
async fn a_transactional_runner_runs_each_job_once_with_one_claim_and_one_attempt() {
    let db = TestDb::with_connections(16).await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("held"));
    let jobs: Vec<NewJob> = (0..300).map(|n| NewJob::new(json!({ "n": n }))).collect();
    let ids = enqueue(&queue, &db.pool, &jobs).await;
    let shutdown = CancellationToken::new();
    let (seen, running) = spawn_recording(&queue, &shutdown);
    eventually(Duration::from_secs(30), "every job done", || async {
        count(&db.pool, &queue, JobState::Done).await == 300
    })
    .await;
    shutdown.cancel();
    running.await.unwrap();

    let runs = seen.runs();
    assert_eq!(runs.len(), 300, "every job ran");
    assert!(runs.values().all(|&n| n == 1), "no job ran twice");
    let counters: Vec<(i32, i32)> = sqlx::query_as(
        "select attempts, claims from jobs where id = any($1) group by attempts, claims",
    )
    .bind(ids.iter().map(|id| id.0).collect::<Vec<_>>())
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(counters, vec![(1, 1)], "one attempt and one claim per job");
}

#[tokio::test]
async fn an_error_is_retried_after_the_backoff_counted_and_kept_in_the_history() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("held");
    config.backoff = Backoff {
        base: Duration::from_millis(150),
        cap: Duration::from_secs(10),
        jitter: 0.0,
    };
    let queue = Queue::new(db.pool.clone(), config);
    let retried = enqueue(&queue, &db.pool, &[NewJob::new(json!({}))]).await[0];
    let exhausted = enqueue(&queue, &db.pool, &[NewJob::new(json!({})).max_attempts(2)]).await[0];
    let seen = Arc::new(Seen::default());
    let shutdown = CancellationToken::new();
    // Every job fails its first two attempts: the first job then succeeds, the second is out of
    // attempts.
    let handler = Recording {
        seen: seen.clone(),
        failures: 2,
        work: Duration::ZERO,
    };
    let running = spawn_runner(&queue, handler, transactional(2, "t"), &shutdown);
    eventually(Duration::from_secs(20), "both jobs finished", || async {
        info(&db.pool, retried).await.state == JobState::Done
            && info(&db.pool, exhausted).await.state == JobState::Failed
    })
    .await;
    shutdown.cancel();
    running.await.unwrap();

    let job = info(&db.pool, retried).await;
    assert_eq!((job.attempts, job.claims), (3, 3));
    let history = maintenance::attempts(&db.pool, retried).await.unwrap();
    let outcomes: Vec<(i32, AttemptOutcome)> =
        history.iter().map(|a| (a.attempt, a.outcome)).collect();
    assert_eq!(
        outcomes,
        vec![
            (1, AttemptOutcome::Retry),
            (2, AttemptOutcome::Retry),
            (3, AttemptOutcome::Done)
        ]
    );
    assert_eq!(history[0].error_class.as_deref(), Some("transient"));
    assert_eq!(history[0].worker.as_deref(), Some("t"));
    // The backoff after attempt n is base · 2^n: 300 ms, then 600 ms.
    let starts: Vec<Instant> = seen
        .starts
        .lock()
        .unwrap()
        .iter()
        .filter(|(id, _)| *id == retried)
        .map(|(_, at)| *at)
        .collect();
    assert_eq!(starts.len(), 3);
    assert!(starts[1] - starts[0] >= Duration::from_millis(290));
    assert!(starts[2] - starts[1] >= Duration::from_millis(590));

    let failed = info(&db.pool, exhausted).await;
    assert_eq!(failed.attempts, 2);
    assert_eq!(failed.error_class.as_deref(), Some("transient"));
    assert_eq!(
        attempt_outcomes(&db.pool, exhausted).await,
        vec![AttemptOutcome::Retry, AttemptOutcome::Failed]
    );
}

#[tokio::test]
async fn a_killed_workers_job_is_claimable_at_once_and_its_late_result_is_refused() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("held"));
    let id = enqueue(&queue, &db.pool, &[NewJob::new(json!({}))]).await[0];

    let mut first_conn = connect(&db).await;
    let pid: i32 = sqlx::query_scalar("select pg_backend_pid()")
        .fetch_one(&mut first_conn)
        .await
        .unwrap();
    let first = held(queue.claim_held(&mut first_conn, "first").await.unwrap());
    assert_eq!(first.job().id, id);
    // Held: another worker does not get it.
    let mut second_conn = connect(&db).await;
    assert!(
        queue
            .claim_held(&mut second_conn, "second")
            .await
            .unwrap()
            .is_none()
    );

    // The first worker's session is ended (its process killed, an operator's terminate).
    let terminated: bool = sqlx::query_scalar("select pg_terminate_backend($1)")
        .bind(pid)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert!(terminated);
    let (job, taken, recorded) = claim_and_finish(&queue, &mut second_conn, "second").await;
    assert_eq!(job.id, id);
    // The killed attempt left its mark on the row: the job is run under a lease, which counts it.
    assert_eq!(taken, Taken::Leased);
    assert_eq!(job.attempt, 1, "the killed attempt itself was not counted");
    recorded.unwrap();

    // The first worker comes back with its result: refused, nothing changed.
    assert!(first.finish(&queue, Outcome::Done).await.is_err());
    let job = info(&db.pool, id).await;
    assert_eq!(job.state, JobState::Done);
    assert_eq!((job.attempts, job.claims), (1, 1));
}

#[tokio::test]
async fn a_hung_worker_loses_its_job_after_the_lease_and_its_late_result_is_refused() {
    let db = TestDb::new().await;
    // Also on a queue whose done jobs are deleted: the late success writes nothing.
    for (name, done_jobs) in [("held", DoneJobs::Kept), ("deleting", DoneJobs::Deleted)] {
        let mut config = QueueConfig::new(name);
        config.lease = Duration::from_secs(1);
        config.done_jobs = done_jobs;
        let queue = Queue::new(db.pool.clone(), config);
        let id = enqueue(&queue, &db.pool, &[NewJob::new(json!({}))]).await[0];

        let mut hung_conn = connect(&db).await;
        let claimed_at = Instant::now();
        let hung = held(queue.claim_held(&mut hung_conn, "hung").await.unwrap());
        // The hung worker never answers; another worker gets the job once the lease has passed.
        let mut other_conn = connect(&db).await;
        let (job, taken, recorded) = claim_and_finish(&queue, &mut other_conn, "other").await;
        let at = Instant::now();
        assert_eq!(job.id, id);
        assert_eq!(taken, Taken::Leased);
        recorded.unwrap();
        assert!(
            at - claimed_at >= Duration::from_millis(950),
            "taken over after {:?}, before the lease",
            at - claimed_at
        );
        assert!(hung.finish(&queue, Outcome::Done).await.is_err());
        let job = pgqueue::inspect(&db.pool, id).await.unwrap();
        match done_jobs {
            DoneJobs::Kept => {
                let job = job.expect("a done job is kept");
                assert_eq!(
                    (job.state, job.attempts, job.claims),
                    (JobState::Done, 1, 1)
                );
            }
            // The other worker's success, under a lease, deleted the row; the late one wrote none.
            DoneJobs::Deleted => assert!(job.is_none(), "the job is deleted once, by its success"),
        }
    }
}

/// Hangs on its first attempt; succeeds after.
struct HangsOnce;

impl JobHandler for HangsOnce {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        if job.attempt == 1 {
            std::future::pending::<()>().await;
        }
        Outcome::Done
    }
}

#[tokio::test]
async fn a_runner_gives_up_a_hung_handler_at_the_lease_and_counts_the_attempt() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("held");
    config.lease = Duration::from_secs(1);
    config.backoff = Backoff {
        base: Duration::from_millis(50),
        cap: Duration::from_secs(1),
        jitter: 0.0,
    };
    let queue = Queue::new(db.pool.clone(), config);
    let id = enqueue(&queue, &db.pool, &[NewJob::new(json!({}))]).await[0];
    let shutdown = CancellationToken::new();
    let running = spawn_runner(&queue, HangsOnce, transactional(1, "t"), &shutdown);
    eventually(Duration::from_secs(10), "the job done", || async {
        info(&db.pool, id).await.state == JobState::Done
    })
    .await;
    shutdown.cancel();
    running.await.unwrap();
    let job = info(&db.pool, id).await;
    assert_eq!(job.attempts, 2);
    let history = maintenance::attempts(&db.pool, id).await.unwrap();
    assert_eq!(history[0].outcome, AttemptOutcome::Retry);
    assert_eq!(
        history[0].error_class.as_deref(),
        Some(JobError::LEASE_EXPIRED)
    );
}

#[tokio::test]
async fn serial_keys_hold_across_transactional_and_lease_runners() {
    let db = TestDb::with_connections(20).await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("held"));
    // Four keys of eight jobs each, interleaved with keyless jobs.
    let jobs: Vec<NewJob> = (0..64)
        .map(|n| match n % 2 {
            0 => NewJob::new(json!({ "n": n })).serial_key(format!("key-{}", n % 8)),
            _ => NewJob::new(json!({ "n": n })),
        })
        .collect();
    let ids = enqueue(&queue, &db.pool, &jobs).await;
    let seen = Arc::new(Seen::default());
    let shutdown = CancellationToken::new();
    let recording = || Recording {
        seen: seen.clone(),
        failures: 0,
        work: Duration::from_millis(5),
    };
    let held_runner = spawn_runner(&queue, recording(), transactional(4, "t"), &shutdown);
    let lease_runner = spawn_runner(
        &queue,
        recording(),
        RunnerConfig {
            concurrency: 4,
            batch: 1,
            worker_id: "l".to_owned(),
            poll_interval: Duration::from_millis(100),
            ..RunnerConfig::default()
        },
        &shutdown,
    );
    eventually(Duration::from_secs(30), "every job done", || async {
        count(&db.pool, &queue, JobState::Done).await == 64
    })
    .await;
    shutdown.cancel();
    held_runner.await.unwrap();
    lease_runner.await.unwrap();

    assert!(
        seen.overlaps.lock().unwrap().is_empty(),
        "two jobs of one key ran at once"
    );
    // Each key's jobs started in enqueue order.
    let starts = seen.starts.lock().unwrap();
    assert_eq!(starts.len(), 64, "each job ran once");
    for key in [0, 2, 4, 6] {
        let keyed: Vec<JobId> = ids
            .iter()
            .enumerate()
            .filter(|(n, _)| n % 8 == key)
            .map(|(_, id)| *id)
            .collect();
        let order: Vec<JobId> = starts
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| keyed.contains(id))
            .collect();
        assert_eq!(order, keyed, "key-{key} ran out of order");
    }
}

#[tokio::test]
async fn the_transactional_claim_takes_the_highest_priority_due_job_first() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("held"));
    let now: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("select now()")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let backlog: Vec<NewJob> = (0..20)
        .map(|n| {
            NewJob::new(json!({ "n": n }))
                .priority(5)
                .run_at(now - chrono::Duration::minutes(30 - n))
        })
        .collect();
    let routine = enqueue(&queue, &db.pool, &backlog).await;
    let later = enqueue(
        &queue,
        &db.pool,
        &[NewJob::new(json!({ "later": true }))
            .priority(-1)
            .run_at(now + chrono::Duration::hours(1))],
    )
    .await[0];
    let urgent = enqueue(&queue, &db.pool, &[NewJob::new(json!({})).priority(1)]).await[0];

    let mut conn = connect(&db).await;
    let first = held(queue.claim_held(&mut conn, "w").await.unwrap());
    assert_eq!(first.job().id, urgent, "the higher priority first");
    first.finish(&queue, Outcome::Done).await.unwrap();
    for expected in &routine[..3] {
        let next = held(queue.claim_held(&mut conn, "w").await.unwrap());
        assert_eq!(next.job().id, *expected, "then the backlog, oldest first");
        next.finish(&queue, Outcome::Done).await.unwrap();
    }
    assert_ne!(info(&db.pool, later).await.state, JobState::Done);
    // A keyed job first in line is claimed under a lease.
    let keyed = enqueue(
        &queue,
        &db.pool,
        &[NewJob::new(json!({})).priority(0).serial_key("k")],
    )
    .await[0];
    match queue.claim_held(&mut conn, "w").await.unwrap() {
        Some(Claim::Leased(job)) => {
            assert_eq!(job.id, keyed);
            assert_eq!(info(&db.pool, keyed).await.state, JobState::Running);
        }
        other => panic!("expected the keyed job under a lease, got {other:?}"),
    }
}

#[tokio::test]
async fn a_job_that_kills_every_worker_is_failed_after_at_most_twice_its_attempts() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("held");
    config.lease = Duration::from_millis(200);
    let queue = Queue::new(db.pool.clone(), config);
    let id = enqueue(&queue, &db.pool, &[NewJob::new(json!({})).max_attempts(2)]).await[0];
    let mut runs = 0;
    while info(&db.pool, id).await.state != JobState::Failed {
        assert!(runs < 4, "run {runs} times, not failed");
        let mut conn = connect(&db).await;
        let pid: i32 = sqlx::query_scalar("select pg_backend_pid()")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        match queue.claim_held(&mut conn, "w").await.unwrap() {
            // Its worker's process dies while it runs: the session ends.
            Some(Claim::Held(held)) => {
                runs += 1;
                let _: bool = sqlx::query_scalar("select pg_terminate_backend($1)")
                    .bind(pid)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap();
                assert!(held.finish(&queue, Outcome::Done).await.is_err());
            }
            // Under a lease its worker dies too; the lease expires and the reaper takes it back.
            Some(Claim::Leased(_)) => {
                runs += 1;
                tokio::time::sleep(Duration::from_millis(250)).await;
                pgqueue::reaper::reap_expired(&db.pool, std::slice::from_ref(&queue), 100)
                    .await
                    .unwrap();
            }
            None => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    assert!(runs <= 4, "run {runs} times");
    assert_eq!(info(&db.pool, id).await.attempts, 2);
}

#[tokio::test]
async fn a_job_retried_by_its_holder_is_held_again_not_taken_for_a_dead_holders() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("held");
    config.backoff = Backoff {
        base: Duration::from_millis(1),
        cap: Duration::from_millis(1),
        jitter: 0.0,
    };
    let queue = Queue::new(db.pool.clone(), config);
    let id = enqueue(&queue, &db.pool, &[NewJob::new(json!({}))]).await[0];
    let mut conn = connect(&db).await;
    let first = held(queue.claim_held(&mut conn, "w").await.unwrap());
    let error = JobError::new("transient", "try again");
    first
        .finish(&queue, Outcome::Retry { error, floor: None })
        .await
        .unwrap();
    // The retry wrote the attempt history (whose foreign key locks the job's row in the same
    // transaction): no mark of a dead holder, so the next claim holds it again.
    tokio::time::sleep(Duration::from_millis(20)).await;
    let second = held(queue.claim_held(&mut conn, "w").await.unwrap());
    assert_eq!((second.job().id, second.job().attempt), (id, 2));
    second.finish(&queue, Outcome::Done).await.unwrap();
    let job = info(&db.pool, id).await;
    assert_eq!(
        (job.state, job.attempts, job.claims),
        (JobState::Done, 2, 2)
    );
}

/// The queue `name` whose done jobs are deleted by their success (`DoneJobs::Deleted`); a retry
/// after a first error waits 1 s.
fn deleting_queue(db: &TestDb, name: &str) -> Queue {
    Queue::new(
        db.pool.clone(),
        QueueConfig {
            done_jobs: DoneJobs::Deleted,
            backoff: Backoff {
                base: Duration::from_millis(500),
                cap: Duration::from_secs(5),
                jitter: 0.0,
            },
            ..QueueConfig::new(name)
        },
    )
}

/// The queue's first due job, claimed on `conn`.
async fn next_claim<'c>(queue: &Queue, conn: &'c mut PgConnection) -> Claim<'c> {
    queue
        .claim_held(conn, "t")
        .await
        .unwrap()
        .expect("a due job")
}

/// In every mode that records a success (held; leased one job at a time, each success recorded
/// with the next claim; leased in batches, the successes recorded together), a deleting queue runs
/// each job once and keeps no row of a clean success.
#[tokio::test]
async fn a_queue_that_deletes_done_jobs_runs_each_once_and_leaves_no_row() {
    let db = TestDb::with_connections(24).await;
    let leased = |batch| RunnerConfig {
        concurrency: 6,
        batch,
        worker_id: "t".to_owned(),
        poll_interval: Duration::from_millis(100),
        mode: ClaimMode::Lease,
        ..RunnerConfig::default()
    };
    for (name, config) in [
        ("held", transactional(6, "t")),
        ("leased", leased(1)),
        ("batched", leased(16)),
    ] {
        let queue = deleting_queue(&db, name);
        let jobs: Vec<NewJob> = (0..200).map(|n| NewJob::new(json!({ "n": n }))).collect();
        enqueue(&queue, &db.pool, &jobs).await;
        let shutdown = CancellationToken::new();
        let seen = Arc::new(Seen::default());
        let handler = Recording {
            seen: seen.clone(),
            failures: 0,
            work: Duration::ZERO,
        };
        let running = spawn_runner(&queue, handler, config, &shutdown);
        eventually(Duration::from_secs(30), "every job ran", || async {
            seen.starts.lock().unwrap().len() >= 200
        })
        .await;
        eventually(Duration::from_secs(30), "no row left", || async {
            let left: i64 = sqlx::query_scalar("select count(*) from jobs where queue = $1")
                .bind(name)
                .fetch_one(&db.pool)
                .await
                .unwrap();
            left == 0
        })
        .await;
        shutdown.cancel();
        running.await.unwrap();
        let runs = seen.runs();
        assert_eq!(runs.len(), 200, "{name}: every job ran");
        assert!(runs.values().all(|&n| n == 1), "{name}: no job ran twice");
    }
}

#[tokio::test]
async fn a_deleting_queue_keeps_a_success_after_an_error_a_keyed_job_and_a_failure() {
    let db = TestDb::new().await;
    let queue = deleting_queue(&db, "deleting");
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "job": "flaky" })),
            NewJob::new(json!({ "job": "keyed" })).serial_key("chat:1"),
            NewJob::new(json!({ "job": "doomed" })),
            NewJob::new(json!({ "job": "clean" })),
        ],
    )
    .await;
    let (flaky, keyed, doomed, clean) = (ids[0], ids[1], ids[2], ids[3]);
    let mut conn = connect(&db).await;
    let error = || JobError::new("transient", "not yet");

    let first = held(Some(next_claim(&queue, &mut conn).await));
    assert_eq!(first.job().id, flaky);
    first
        .finish(
            &queue,
            Outcome::Retry {
                error: error(),
                floor: None,
            },
        )
        .await
        .unwrap();
    let Claim::Leased(job) = next_claim(&queue, &mut conn).await else {
        panic!("a keyed job is claimed under a lease");
    };
    assert_eq!(job.id, keyed);
    queue.complete(queue.pool(), &job).await.unwrap();
    let third = held(Some(next_claim(&queue, &mut conn).await));
    assert_eq!(third.job().id, doomed);
    third
        .finish(&queue, Outcome::Fail { error: error() })
        .await
        .unwrap();
    let fourth = held(Some(next_claim(&queue, &mut conn).await));
    assert_eq!(fourth.job().id, clean);
    fourth.finish(&queue, Outcome::Done).await.unwrap();
    eventually(Duration::from_secs(10), "the retry due", || async {
        sqlx::query_scalar::<_, bool>("select run_at <= now() from jobs where id = $1")
            .bind(flaky.0)
            .fetch_one(&db.pool)
            .await
            .unwrap()
    })
    .await;
    let again = held(Some(next_claim(&queue, &mut conn).await));
    assert_eq!(again.job().id, flaky);
    again.finish(&queue, Outcome::Done).await.unwrap();

    assert!(
        pgqueue::inspect(&db.pool, clean).await.unwrap().is_none(),
        "a clean success is deleted"
    );
    // Keyed jobs are never held: this one ran under a lease, and a keyed success keeps its row (the
    // update to `done` is what wakes its key's next job).
    assert_eq!(info(&db.pool, keyed).await.state, JobState::Done);
    assert_eq!(info(&db.pool, doomed).await.state, JobState::Failed);
    assert_eq!(info(&db.pool, flaky).await.state, JobState::Done);
    assert_eq!(
        attempt_outcomes(&db.pool, flaky).await,
        vec![AttemptOutcome::Retry, AttemptOutcome::Done],
        "a success after an error keeps its history"
    );
}

/// Under a lease, a deleting queue's success deletes a clean job's row, keeps a keyed job's and one
/// with an error on record (its history ending with the success), one at a time or many at once;
/// a success whose lease was lost changes nothing.
#[tokio::test]
async fn a_deleting_queue_under_a_lease_deletes_clean_successes_and_fences_them() {
    let db = TestDb::new().await;
    let queue = deleting_queue(&db, "leased");
    let clean = || NewJob::new(json!({ "job": "clean" }));
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "job": "flaky" })),
            clean(),
            NewJob::new(json!({ "job": "keyed" })).serial_key("chat:1"),
            clean(),
            clean(),
        ],
    )
    .await;
    let claimed = queue.claim("t", 5).await.unwrap();
    assert_eq!(claimed.len(), 5);
    let job = |id: JobId| claimed.iter().find(|j| j.id == id).unwrap().clone();
    queue
        .retry(&job(ids[0]), JobError::new("transient", "not yet"), None)
        .await
        .unwrap();

    queue.complete(queue.pool(), &job(ids[1])).await.unwrap();
    assert!(
        queue.complete(queue.pool(), &job(ids[1])).await.is_err(),
        "a second success of the same claim is refused"
    );
    let lost = queue
        .complete_many(&[
            (ids[2], job(ids[2]).claim),
            (ids[3], job(ids[3]).claim),
            (ids[4], job(ids[4]).claim),
            (ids[1], job(ids[1]).claim),
        ])
        .await
        .unwrap();
    assert_eq!(
        lost,
        vec![(ids[1], job(ids[1]).claim)],
        "only the deleted one's lease is lost"
    );

    eventually(Duration::from_secs(10), "the retry due", || async {
        sqlx::query_scalar::<_, bool>("select run_at <= now() from jobs where id = $1")
            .bind(ids[0].0)
            .fetch_one(&db.pool)
            .await
            .unwrap()
    })
    .await;
    let again = queue.claim("t", 1).await.unwrap();
    assert_eq!(again.len(), 1);
    queue.complete(queue.pool(), &again[0]).await.unwrap();

    for clean in [ids[1], ids[3], ids[4]] {
        assert!(
            pgqueue::inspect(&db.pool, clean).await.unwrap().is_none(),
            "a clean success is deleted"
        );
    }
    assert_eq!(info(&db.pool, ids[2]).await.state, JobState::Done);
    assert_eq!(info(&db.pool, ids[0]).await.state, JobState::Done);
    assert_eq!(
        attempt_outcomes(&db.pool, ids[0]).await,
        vec![AttemptOutcome::Retry, AttemptOutcome::Done],
        "a success after an error keeps its history"
    );
}

/// The previous release's statement, the five-argument `complete_and_claim_job`, still records a
/// success (keeping the row as done, even on a deleting queue), fences a repeated one and claims
/// the next job under a lease.
#[tokio::test]
async fn the_previous_releases_complete_and_claim_still_completes_fences_and_claims() {
    let db = TestDb::new().await;
    let queue = deleting_queue(&db, "previous");
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({ "job": 1 })),
            NewJob::new(json!({ "job": 2 })),
        ],
    )
    .await;
    let claimed = queue.claim("t", 1).await.unwrap();
    assert_eq!(claimed.len(), 1);
    let first = &claimed[0];
    assert_eq!(first.id, ids[0]);
    let previous = |claim: i32| {
        sqlx::query_as::<_, (bool, Option<i64>)>(
            "select completed, id from complete_and_claim_job($1, $2, $3, 30, 'old')",
        )
        .bind(first.id.0)
        .bind(claim)
        .bind("previous")
    };

    let (completed, next) = previous(first.claim).fetch_one(&db.pool).await.unwrap();
    assert!(completed, "the success is recorded");
    assert_eq!(next, Some(ids[1].0), "and the next job claimed");
    assert_eq!(
        info(&db.pool, ids[0]).await.state,
        JobState::Done,
        "the five-argument form keeps the row"
    );
    assert_eq!(info(&db.pool, ids[1]).await.state, JobState::Running);

    let (again, none) = previous(first.claim).fetch_one(&db.pool).await.unwrap();
    assert!(!again, "a second success of the same claim is refused");
    assert_eq!(none, None, "nothing else is due");
}
