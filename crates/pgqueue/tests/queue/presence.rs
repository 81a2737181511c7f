//! Presence: the jobs of a worker whose process died come back once it has been missing for the
//! reaper's grace; a worker whose presence connection broke while it lives keeps its jobs and
//! completes them once; a gracefully stopped worker's jobs stay theirs until the lease says
//! otherwise.

use std::time::Duration;

use pgqueue::presence::Presence;
use pgqueue::{
    ClaimedJob, JobError, JobHandler, JobState, NewJob, Outcome, Queue, QueueConfig, QueueError,
    Runner, RunnerConfig, Wakeups, inspect, reaper,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support::{TestDb, eventually};

/// A queue whose leases last an hour, so only presence can return a job within the test.
fn long_lease_queue(db: &TestDb) -> Queue {
    let mut config = QueueConfig::new("work");
    config.lease = Duration::from_secs(3600);
    Queue::new(db.pool.clone(), config)
}

async fn enqueue_one(queue: &Queue, db: &TestDb) {
    let mut tx = db.pool.begin().await.unwrap();
    queue
        .enqueue(&mut tx, NewJob::new(json!({})))
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A queue whose leases last a second.
fn short_lease_queue(db: &TestDb) -> Queue {
    let mut config = QueueConfig::new("work");
    config.lease = Duration::from_secs(1);
    Queue::new(db.pool.clone(), config)
}

/// Ends the connection that holds `worker`'s presence lock, as a database blip or a network cut
/// would, while the worker's process goes on.
async fn cut_presence(db: &TestDb, worker: &str) {
    let cut: Vec<bool> = sqlx::query_scalar(
        "select pg_terminate_backend(l.pid)
         from pg_locks l join queue_workers w
           on ((l.classid::bigint << 32) | l.objid::bigint) = w.lock_key
         where l.locktype = 'advisory' and l.granted and w.worker_id = $1
           and l.database = (select oid from pg_database where datname = current_database())",
    )
    .bind(worker)
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(cut, vec![true], "one connection held the lock");
}

/// When a reaper pass found `worker` missing (its lock free), if it is registered.
async fn missing_since(db: &TestDb, worker: &str) -> Option<Option<chrono::DateTime<chrono::Utc>>> {
    sqlx::query_scalar("select missing_since from queue_workers where worker_id = $1")
        .bind(worker)
        .fetch_optional(&db.pool)
        .await
        .unwrap()
}

/// Reaper passes (every 50 ms) for `span`; returns how many jobs they returned.
async fn reap_for(db: &TestDb, span: Duration, grace: Duration) -> u64 {
    let until = tokio::time::Instant::now() + span;
    let mut returned = 0;
    while tokio::time::Instant::now() < until {
        let reaped = reaper::reap(&db.pool, &[], 100, grace).await.unwrap();
        returned += reaped.returned + reaped.failed;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    returned
}

#[tokio::test]
async fn a_live_worker_whose_presence_connection_broke_keeps_its_job_and_completes_it_once() {
    let db = TestDb::new().await;
    let queue = short_lease_queue(&db);
    enqueue_one(&queue, &db).await;
    let presence = Presence::register(&db.pool, "cut").await.unwrap();
    let worker = presence.worker_id().to_owned();
    let job = queue.claim(&worker, 1).await.unwrap().remove(0);
    queue
        .recheck(&job)
        .await
        .expect("a fresh claim is confirmed");

    // A database blip ends the presence connection; the process goes on with the job in hand.
    cut_presence(&db, &worker).await;
    eventually(
        Duration::from_secs(5),
        "a reaper pass to find the worker missing",
        || async {
            reaper::reap_expired(&db.pool, &[], 100).await.unwrap();
            matches!(missing_since(&db, &worker).await, Some(Some(_)))
        },
    )
    .await;
    assert!(
        matches!(
            queue.recheck(&job).await,
            Err(QueueError::NotConfirmed { .. })
        ),
        "a worker marked missing may not act on its job"
    );

    // Its lease runs out while the reapers pass: nobody else gets the job.
    let returned = reap_for(&db, Duration::from_millis(1500), reaper::GRACE).await;
    assert_eq!(
        returned, 0,
        "the reaper took the job of a worker that may come back"
    );
    assert!(
        queue.claim("other", 1).await.unwrap().is_empty(),
        "a second worker got the job"
    );

    // The process takes its lock again on a new connection, and may act on the job again.
    let shutdown = CancellationToken::new();
    let holding = tokio::spawn(presence.hold(shutdown.clone()));
    eventually(
        Duration::from_secs(5),
        "the presence to be back",
        || async { missing_since(&db, &worker).await == Some(None) },
    )
    .await;
    let returned = reap_for(&db, Duration::from_millis(300), reaper::GRACE).await;
    assert_eq!(
        returned, 0,
        "the reaper took the job of a worker that is back"
    );
    let job = queue
        .recheck(&job)
        .await
        .expect("the worker is back: its claim holds");
    queue
        .complete(&db.pool, &job)
        .await
        .expect("the job is still this worker's");
    assert!(queue.claim("other", 1).await.unwrap().is_empty());
    let info = inspect(&db.pool, job.id).await.unwrap().unwrap();
    assert_eq!(info.state, JobState::Done);
    assert_eq!(info.attempts, 1, "the job ran once");
    shutdown.cancel();
    holding.await.unwrap();
}

#[tokio::test]
async fn a_dead_processs_jobs_come_back_once_it_has_been_missing_for_the_grace() {
    let db = TestDb::new().await;
    let queue = short_lease_queue(&db);
    enqueue_one(&queue, &db).await;
    enqueue_one(&queue, &db).await;

    let alive = Presence::register(&db.pool, "alive").await.unwrap();
    let dead = Presence::register(&db.pool, "dead").await.unwrap();
    assert_ne!(alive.worker_id(), dead.worker_id());
    let alive_job = queue.claim(alive.worker_id(), 1).await.unwrap().remove(0);
    let dead_job = queue.claim(dead.worker_id(), 1).await.unwrap().remove(0);
    let dead_id = dead.worker_id().to_owned();

    // The process dies: its presence is dropped without unregistering, its connection closes.
    drop(dead);
    let grace = Duration::from_millis(500);
    let mut returned = 0;
    let mut alive_job = alive_job;
    let started = tokio::time::Instant::now();
    while returned == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the dead worker's job came back"
        );
        // The live worker re-checks its claim before each act, which extends the lease.
        alive_job = queue
            .recheck(&alive_job)
            .await
            .expect("the live worker keeps its job");
        returned += reaper::reap(&db.pool, &[], 100, grace)
            .await
            .unwrap()
            .returned;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(returned, 1, "only the dead worker's job came back");
    assert_eq!(
        missing_since(&db, &dead_id).await,
        None,
        "its registration is gone"
    );
    let job = inspect(&db.pool, dead_job.id).await.unwrap().unwrap();
    assert_eq!(job.state, JobState::Pending);
    assert_eq!(job.error_class.as_deref(), Some(JobError::WORKER_LOST));
    let job = inspect(&db.pool, alive_job.id).await.unwrap().unwrap();
    assert_eq!(
        job.state,
        JobState::Running,
        "the live worker keeps its job"
    );
    queue.complete(&db.pool, &alive_job).await.unwrap();
}

#[tokio::test]
async fn a_worker_that_stops_gracefully_keeps_its_jobs_until_their_lease() {
    let db = TestDb::new().await;
    let queue = long_lease_queue(&db);
    enqueue_one(&queue, &db).await;
    let presence = Presence::register(&db.pool, "stopping").await.unwrap();
    let job = queue
        .claim(presence.worker_id(), 1)
        .await
        .unwrap()
        .remove(0);

    let shutdown = CancellationToken::new();
    shutdown.cancel();
    presence.hold(shutdown).await;

    let reaped = reaper::reap_expired(&db.pool, &[], 100).await.unwrap();
    assert_eq!(
        reaped.returned, 0,
        "a job still being finished is not taken"
    );
    queue.complete(&db.pool, &job).await.unwrap();
}

/// Marks every job done.
struct Done;

impl JobHandler for Done {
    async fn handle(&self, _: ClaimedJob) -> Outcome {
        Outcome::Done
    }
}

#[tokio::test]
async fn a_runner_claims_nothing_while_its_presence_is_lost_and_goes_on_once_it_is_back() {
    let db = TestDb::new().await;
    let queue = long_lease_queue(&db);
    let presence = Presence::register(&db.pool, "runner").await.unwrap();
    let worker = presence.worker_id().to_owned();
    let status = presence.status();
    let key: i64 = sqlx::query_scalar("select lock_key from queue_workers where worker_id = $1")
        .bind(&worker)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let shutdown = CancellationToken::new();
    let holding = tokio::spawn(presence.hold(shutdown.clone()));

    // The connection breaks, and another session holds the lock inside a transaction of its
    // own (a session merely idle would be taken for the presence's old one, and ended), so the
    // presence cannot take it again until that session lets go.
    cut_presence(&db, &worker).await;
    let mut blocker = db.pool.acquire().await.unwrap();
    sqlx::query("begin").execute(&mut *blocker).await.unwrap();
    sqlx::query("select pg_advisory_lock($1)")
        .bind(key)
        .execute(&mut *blocker)
        .await
        .unwrap();
    eventually(
        Duration::from_secs(5),
        "the presence to find itself lost",
        || async { !status.is_present() },
    )
    .await;

    let runner = Runner::new(
        queue.clone(),
        Done,
        RunnerConfig {
            worker_id: worker.clone(),
            presence: Some(status.clone()),
            ..RunnerConfig::default()
        },
        Wakeups::listen(db.pool.clone(), shutdown.clone()),
    );
    let running = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { runner.run(shutdown).await })
    };
    enqueue_one(&queue, &db).await;
    // Longer than the runner's poll: a runner with its presence would have claimed it by now.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let pending = pgqueue::count(&db.pool, "work", JobState::Pending)
        .await
        .unwrap();
    assert_eq!(pending, 1, "a runner whose presence is lost claimed a job");

    sqlx::query("select pg_advisory_unlock($1)")
        .bind(key)
        .execute(&mut *blocker)
        .await
        .unwrap();
    sqlx::query("commit").execute(&mut *blocker).await.unwrap();
    eventually(
        Duration::from_secs(15),
        "the job to be done once the presence is back",
        || async {
            pgqueue::count(&db.pool, "work", JobState::Done)
                .await
                .unwrap()
                == 1
        },
    )
    .await;
    assert!(status.is_present());
    shutdown.cancel();
    running.await.unwrap();
    holding.await.unwrap();
}

#[tokio::test]
async fn a_presence_whose_old_session_lingers_on_the_server_takes_its_lock_back() {
    let db = TestDb::new().await;
    let presence = Presence::register(&db.pool, "linger").await.unwrap();
    let worker = presence.worker_id().to_owned();
    let key: i64 = sqlx::query_scalar("select lock_key from queue_workers where worker_id = $1")
        .bind(&worker)
        .fetch_one(&db.pool)
        .await
        .unwrap();

    // A network cut the server never heard close: the old session keeps the lock, idle, until
    // TCP gives up hours later. Here a session of the test's own holds it as that one would.
    cut_presence(&db, &worker).await;
    let mut lingering = db.pool.acquire().await.unwrap().detach();
    let lingering_pid: i32 = sqlx::query_scalar("select pg_backend_pid()")
        .fetch_one(&mut lingering)
        .await
        .unwrap();
    sqlx::query("select pg_advisory_lock($1)")
        .bind(key)
        .execute(&mut lingering)
        .await
        .unwrap();

    let shutdown = CancellationToken::new();
    let holding = tokio::spawn(presence.hold(shutdown.clone()));
    eventually(
        Duration::from_secs(10),
        "the presence to hold its lock again",
        || async {
            let holders: Vec<i32> = sqlx::query_scalar(
                "select pid from pg_locks
                 where locktype = 'advisory' and granted
                   and ((classid::bigint << 32) | objid::bigint) = $1
                   and database = (select oid from pg_database where datname = current_database())",
            )
            .bind(key)
            .fetch_all(&db.pool)
            .await
            .unwrap();
            holders.len() == 1 && holders[0] != lingering_pid
        },
    )
    .await;
    assert_eq!(
        missing_since(&db, &worker).await,
        Some(None),
        "registered again"
    );
    assert!(
        sqlx::query("select 1")
            .execute(&mut lingering)
            .await
            .is_err(),
        "the lingering session was ended"
    );
    shutdown.cancel();
    holding.await.unwrap();
}
