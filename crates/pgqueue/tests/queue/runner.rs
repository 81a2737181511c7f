//! The runner: how fast it wakes, that it never loses a job to a lost NOTIFY, that long jobs keep
//! their lease, and that shutdown leaves nothing `running`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pgqueue::JobId;
use pgqueue::{
    ClaimedJob, JobHandler, NewJob, Outcome, Queue, QueueConfig, Runner, RunnerConfig, Wakeups,
};
use serde_json::json;
use sqlx::PgPool;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::support::{TestDb, eventually};

/// Reports each job it starts, then waits `work` and succeeds.
struct Reporting {
    started: mpsc::UnboundedSender<(JobId, Instant)>,
    work: Duration,
    finished: Arc<AtomicUsize>,
}

impl JobHandler for Reporting {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        let _ = self.started.send((job.id, Instant::now()));
        tokio::time::sleep(self.work).await;
        self.finished.fetch_add(1, Ordering::SeqCst);
        Outcome::Done
    }
}

struct Harness {
    db: TestDb,
    queue: Queue,
    started: mpsc::UnboundedReceiver<(JobId, Instant)>,
    finished: Arc<AtomicUsize>,
    shutdown: CancellationToken,
    running: tokio::task::JoinHandle<()>,
}

async fn start(
    queue_config: QueueConfig,
    runner_config: RunnerConfig,
    listen: bool,
    work: Duration,
) -> Harness {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), queue_config);
    let shutdown = CancellationToken::new();
    let wakeups = if listen {
        Wakeups::listen(db.pool.clone(), shutdown.clone())
    } else {
        Wakeups::poll_only()
    };
    let (tx, started) = mpsc::unbounded_channel();
    let finished = Arc::new(AtomicUsize::new(0));
    let handler = Reporting {
        started: tx,
        work,
        finished: finished.clone(),
    };
    let runner = Runner::new(queue.clone(), handler, runner_config, wakeups);
    let running = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { runner.run(shutdown).await })
    };
    Harness {
        db,
        queue,
        started,
        finished,
        shutdown,
        running,
    }
}

impl Harness {
    async fn enqueue(&self, job: NewJob) -> JobId {
        let mut tx = self.db.pool.begin().await.unwrap();
        let id = self.queue.enqueue(&mut tx, job).await.unwrap().unwrap();
        tx.commit().await.unwrap();
        id
    }

    /// Shuts the runner down and hands back the database for inspection.
    async fn stop(self) -> TestDb {
        self.shutdown.cancel();
        self.running.await.unwrap();
        self.db
    }
}

async fn states(pool: &PgPool) -> Vec<(String, i64)> {
    sqlx::query_as("select state, count(*) from jobs group by state order by state")
        .fetch_all(pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_due_now_starts_well_under_a_second_after_commit_without_waiting_for_the_poll() {
    let poll = RunnerConfig {
        poll_interval: Duration::from_secs(30),
        ..RunnerConfig::default()
    };
    let mut h = start(QueueConfig::new("work"), poll, true, Duration::ZERO).await;
    // Let the runner go idle (it will now sleep up to 30 s unless woken).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut latencies = Vec::new();
    for n in 0..5 {
        let committed = Instant::now();
        let id = h.enqueue(NewJob::new(json!({ "n": n }))).await;
        let (started_id, at) = tokio::time::timeout(Duration::from_secs(5), h.started.recv())
            .await
            .expect("the job started")
            .unwrap();
        assert_eq!(started_id, id);
        latencies.push(at - committed);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    latencies.sort();
    assert!(
        latencies[2] < Duration::from_millis(250),
        "median start latency {latencies:?}"
    );
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_due_in_three_seconds_runs_on_time_with_no_notify_at_all() {
    let mut h = start(
        QueueConfig::new("work"),
        RunnerConfig::default(),
        false,
        Duration::ZERO,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let due_in = chrono::Duration::seconds(3);
    let enqueued = Instant::now();
    h.enqueue(NewJob::new(json!({"n": 1})).run_at(chrono::Utc::now() + due_in))
        .await;
    let (_, at) = tokio::time::timeout(Duration::from_secs(10), h.started.recv())
        .await
        .expect("the job started")
        .unwrap();
    let waited = at - enqueued;
    assert!(
        waited >= Duration::from_millis(2900),
        "ran early: {waited:?}"
    );
    assert!(
        waited <= Duration::from_millis(3500),
        "ran late: {waited:?}"
    );
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_reconnect_loses_no_job() {
    let poll = RunnerConfig {
        poll_interval: Duration::from_secs(60),
        ..RunnerConfig::default()
    };
    let mut h = start(QueueConfig::new("work"), poll, true, Duration::ZERO).await;
    let listening = || async {
        let n: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
        )
        .fetch_one(&h.db.pool)
        .await
        .unwrap();
        n > 0
    };
    eventually(Duration::from_secs(5), "the listener to connect", listening).await;
    for n in 0..3 {
        // Kill the listener's connection, then enqueue while it is (probably) reconnecting.
        sqlx::query(
            "select pg_terminate_backend(pid) from pg_stat_activity
             where datname = current_database() and query ilike 'listen%'",
        )
        .execute(&h.db.pool)
        .await
        .unwrap();
        let id = h.enqueue(NewJob::new(json!({ "n": n }))).await;
        let (started, _) = tokio::time::timeout(Duration::from_secs(10), h.started.recv())
            .await
            .expect("the job enqueued during the reconnect ran")
            .unwrap();
        assert_eq!(started, id);
    }
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_leaves_no_job_running_and_loses_none() {
    let config = RunnerConfig {
        concurrency: 4,
        batch: 8,
        shutdown_deadline: Duration::from_millis(300),
        ..RunnerConfig::default()
    };
    // Handlers take 10 s: the deadline cuts them off and their jobs go back to the queue.
    let mut h = start(
        QueueConfig::new("work"),
        config,
        true,
        Duration::from_secs(10),
    )
    .await;
    for n in 0..20 {
        h.enqueue(NewJob::new(json!({ "n": n }))).await;
    }
    for _ in 0..4 {
        tokio::time::timeout(Duration::from_secs(5), h.started.recv())
            .await
            .expect("handlers started")
            .unwrap();
    }
    let db = h.stop().await;
    assert_eq!(states(&db.pool).await, vec![("pending".to_owned(), 20)]);
    let attempts: Vec<i32> = sqlx::query_scalar("select distinct attempts from jobs")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(attempts, vec![0], "a released job used up an attempt");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_lets_running_jobs_finish_within_the_deadline() {
    let config = RunnerConfig {
        concurrency: 2,
        batch: 8,
        shutdown_deadline: Duration::from_secs(10),
        ..RunnerConfig::default()
    };
    let mut h = start(
        QueueConfig::new("work"),
        config,
        true,
        Duration::from_millis(300),
    )
    .await;
    for n in 0..6 {
        h.enqueue(NewJob::new(json!({ "n": n }))).await;
    }
    tokio::time::timeout(Duration::from_secs(5), h.started.recv())
        .await
        .expect("a handler started")
        .unwrap();
    let finished = h.finished.clone();
    let db = h.stop().await;
    let done = finished.load(Ordering::SeqCst) as i64;
    assert!(done >= 1);
    let mut expected = vec![("done".to_owned(), done)];
    if done < 6 {
        expected.push(("pending".to_owned(), 6 - done));
    }
    assert_eq!(states(&db.pool).await, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_job_keeps_its_lease_while_the_reaper_runs() {
    let mut queue_config = QueueConfig::new("work");
    queue_config.lease = Duration::from_millis(1200);
    let h = start(
        queue_config,
        RunnerConfig::default(),
        true,
        Duration::from_millis(3000),
    )
    .await;
    let reaping = tokio::spawn(pgqueue::reaper::run(
        h.db.pool.clone(),
        Vec::new(),
        Duration::from_millis(100),
        h.shutdown.clone(),
    ));
    h.enqueue(NewJob::new(json!({"n": 1}))).await;
    let finished = h.finished.clone();
    eventually(
        Duration::from_secs(10),
        "the long job to finish",
        || async { finished.load(Ordering::SeqCst) == 1 },
    )
    .await;
    let pool = h.db.pool.clone();
    eventually(Duration::from_secs(5), "the job to be done", || async {
        states(&pool).await == vec![("done".to_owned(), 1)]
    })
    .await;
    let attempts: i32 = sqlx::query_scalar("select attempts from jobs")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(attempts, 1, "the reaper took a live job");
    h.stop().await;
    reaping.await.unwrap();
}

#[tokio::test]
async fn run_once_runs_the_due_jobs_synchronously() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut tx = db.pool.begin().await.unwrap();
    let jobs: Vec<NewJob> = (0..50).map(|n| NewJob::new(json!({ "n": n }))).collect();
    queue.enqueue_many(&mut tx, &jobs).await.unwrap();
    let later =
        NewJob::new(json!({"n": 99})).run_at(chrono::Utc::now() + chrono::Duration::hours(1));
    queue.enqueue(&mut tx, later).await.unwrap();
    tx.commit().await.unwrap();
    let (started, _rx) = mpsc::unbounded_channel();
    let finished = Arc::new(AtomicUsize::new(0));
    let runner = Runner::new(
        queue,
        Reporting {
            started,
            work: Duration::ZERO,
            finished: finished.clone(),
        },
        RunnerConfig::default(),
        Wakeups::poll_only(),
    );
    assert_eq!(runner.run_once().await.unwrap(), 50);
    assert_eq!(finished.load(Ordering::SeqCst), 50);
    assert_eq!(
        states(&db.pool).await,
        vec![("done".to_owned(), 50), ("pending".to_owned(), 1)]
    );
    assert_eq!(runner.run_once().await.unwrap(), 0);
}

/// Panics on the job with payload `n == 1`, succeeds on the others.
struct PanicsOnOne;

impl JobHandler for PanicsOnOne {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        assert_ne!(job.payload["n"], 1, "boom");
        Outcome::Done
    }
}

#[tokio::test]
async fn a_panicking_handler_costs_its_job_an_attempt_not_the_runner() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut tx = db.pool.begin().await.unwrap();
    let jobs: Vec<NewJob> = (0..3).map(|n| NewJob::new(json!({ "n": n }))).collect();
    queue.enqueue_many(&mut tx, &jobs).await.unwrap();
    tx.commit().await.unwrap();
    let runner = Runner::new(
        queue,
        PanicsOnOne,
        RunnerConfig::default(),
        Wakeups::poll_only(),
    );
    assert_eq!(runner.run_once().await.unwrap(), 3);
    let (state, error): (String, String) =
        sqlx::query_as("select state, last_error from jobs where payload->>'n' = '1'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(state, "pending");
    assert!(
        error.contains("the handler panicked") && error.contains("boom"),
        "{error}"
    );
    assert_eq!(
        states(&db.pool).await,
        vec![("done".to_owned(), 2), ("pending".to_owned(), 1)]
    );
}

/// Snoozes every job for no time at all.
struct SnoozesAtOnce;

impl JobHandler for SnoozesAtOnce {
    async fn handle(&self, _job: ClaimedJob) -> Outcome {
        Outcome::Snooze(Duration::ZERO)
    }
}

#[tokio::test]
async fn run_once_runs_a_job_that_snoozes_once_and_returns() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut conn = db.pool.acquire().await.unwrap();
    queue
        .enqueue(&mut conn, NewJob::new(json!({"n": 1})))
        .await
        .unwrap();
    let runner = Runner::new(
        queue,
        SnoozesAtOnce,
        RunnerConfig::default(),
        Wakeups::poll_only(),
    );
    assert_eq!(runner.run_once().await.unwrap(), 1);
    assert_eq!(states(&db.pool).await, vec![("pending".to_owned(), 1)]);
}

/// Waits until the job is cancelled under it, then claims success.
struct OutlivesItsLease {
    started: mpsc::UnboundedSender<JobId>,
    finished: Arc<AtomicUsize>,
}

impl JobHandler for OutlivesItsLease {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        let _ = self.started.send(job.id);
        tokio::time::sleep(Duration::from_secs(3)).await;
        self.finished.fetch_add(1, Ordering::SeqCst);
        Outcome::Done
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_whose_lease_is_lost_is_stopped_and_records_nothing() {
    let db = TestDb::new().await;
    let mut config = QueueConfig::new("work");
    config.lease = Duration::from_millis(600);
    let queue = Queue::new(db.pool.clone(), config);
    let (started, mut started_rx) = mpsc::unbounded_channel();
    let finished = Arc::new(AtomicUsize::new(0));
    let handler = OutlivesItsLease {
        started,
        finished: finished.clone(),
    };
    let shutdown = CancellationToken::new();
    let runner = Runner::new(
        queue.clone(),
        handler,
        RunnerConfig::default(),
        Wakeups::listen(db.pool.clone(), shutdown.clone()),
    );
    let running = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { runner.run(shutdown).await })
    };
    let mut conn = db.pool.acquire().await.unwrap();
    queue
        .enqueue(&mut conn, NewJob::new(json!({"n": 1})))
        .await
        .unwrap();
    let id = tokio::time::timeout(Duration::from_secs(5), started_rx.recv())
        .await
        .unwrap()
        .unwrap();
    // An admin cancels the job while it runs: the next heartbeat finds the lease gone.
    assert!(
        pgqueue::maintenance::cancel_job(&mut *conn, id)
            .await
            .unwrap()
    );
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        finished.load(Ordering::SeqCst),
        0,
        "the handler ran on without its lease"
    );
    assert_eq!(states(&db.pool).await, vec![("cancelled".to_owned(), 1)]);
    shutdown.cancel();
    running.await.unwrap();
}

/// Holds each job until a permit of `release` lets it finish, counting the jobs it holds.
struct Gated {
    running: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
    finished: Arc<AtomicUsize>,
    release: Arc<tokio::sync::Semaphore>,
}

impl JobHandler for Gated {
    async fn handle(&self, _: ClaimedJob) -> Outcome {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        self.release
            .acquire()
            .await
            .expect("the gate stays open")
            .forget();
        self.running.fetch_sub(1, Ordering::SeqCst);
        self.finished.fetch_add(1, Ordering::SeqCst);
        Outcome::Done
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changing_limit_sets_how_many_run_within_the_concurrency() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut tx = db.pool.begin().await.unwrap();
    for n in 0..20 {
        queue
            .enqueue(&mut tx, NewJob::new(json!({ "n": n })))
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let (running, most, finished) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
    );
    let release = Arc::new(tokio::sync::Semaphore::new(0));
    let handler = Gated {
        running: running.clone(),
        most: most.clone(),
        finished: finished.clone(),
        release: release.clone(),
    };
    let limit = pgqueue::ConcurrencyLimit::new(2);
    let shutdown = CancellationToken::new();
    let runner = Runner::new(
        queue.clone(),
        handler,
        RunnerConfig {
            concurrency: 8,
            limit: Some(limit.clone()),
            ..RunnerConfig::default()
        },
        Wakeups::listen(db.pool.clone(), shutdown.clone()),
    );
    let run = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { runner.run(shutdown).await })
    };
    let now = |counter: &Arc<AtomicUsize>| counter.load(Ordering::SeqCst);

    // Two at a time, while 18 more are due: as two finish, the next two start.
    eventually(Duration::from_secs(5), "two running", || async {
        now(&running) == 2
    })
    .await;
    release.add_permits(2);
    eventually(Duration::from_secs(5), "the next two running", || async {
        now(&finished) == 2 && now(&running) == 2
    })
    .await;
    assert_eq!(now(&most), 2, "never more than the limit");

    // A raise starts more without any job finishing.
    limit.set(6);
    eventually(Duration::from_secs(5), "six running", || async {
        now(&running) == 6
    })
    .await;
    // A limit past the concurrency stops at it.
    limit.set(50);
    eventually(Duration::from_secs(5), "eight running", || async {
        now(&running) == 8
    })
    .await;
    release.add_permits(100);
    eventually(Duration::from_secs(10), "every job done", || async {
        now(&finished) == 20
    })
    .await;
    assert_eq!(now(&most), 8, "never more than the concurrency");
    shutdown.cancel();
    run.await.unwrap();
    assert_eq!(states(&db.pool).await, vec![("done".to_owned(), 20)]);
}
