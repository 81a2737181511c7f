//! Per-key serial execution: the jobs of one queue that share a serial key run one at a time,
//! oldest first, under competing claimers; other keys and keyless jobs run beside them; a retried
//! or snoozed job holds its key back, a finished one releases it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pgqueue::JobId;
use pgqueue::{
    Backoff, ClaimedJob, JobHandler, NewJob, Outcome, Queue, QueueConfig, QueueError, Runner,
    RunnerConfig, Wakeups, maintenance,
};
use serde_json::json;
use sqlx::PgPool;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::support::{TestDb, eventually};

async fn enqueue(queue: &Queue, pool: &PgPool, jobs: &[NewJob]) -> Vec<JobId> {
    let mut tx = pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, jobs).await.unwrap();
    tx.commit().await.unwrap();
    ids
}

/// `count` jobs of `key` (`None`: keyless), numbered in their payload.
fn keyed(key: Option<&str>, count: usize) -> Vec<NewJob> {
    (0..count)
        .map(|n| {
            let job = NewJob::new(json!({ "key": key, "n": n }));
            match key {
                Some(key) => job.serial_key(key),
                None => job,
            }
        })
        .collect()
}

async fn claim_ids(queue: &Queue, limit: i64) -> Vec<JobId> {
    let jobs = queue.claim("w", limit).await.unwrap();
    jobs.iter().map(|j| j.id).collect()
}

/// What the handlers saw of each key: how many of its jobs ran at once, and whether each start
/// was the key's oldest unfinished job.
#[derive(Default)]
struct Watch {
    /// The ids of each key's jobs not done yet, in id order.
    unfinished: HashMap<String, Vec<JobId>>,
    /// Handlers of each key running now.
    running: HashMap<String, usize>,
    /// Starts while another job of the key ran.
    overlaps: Vec<JobId>,
    /// Starts of a job that was not its key's oldest unfinished one.
    out_of_order: Vec<JobId>,
    /// Each key's jobs in the order they succeeded.
    done: HashMap<String, Vec<JobId>>,
    /// Every run, keyed or not.
    runs: usize,
}

/// Watches its jobs and, for variety, snoozes some on their first run and retries some others.
#[derive(Clone)]
struct Watching {
    watch: Arc<Mutex<Watch>>,
}

impl Watching {
    fn start(&self, job: &ClaimedJob) {
        let mut watch = self.watch.lock().unwrap();
        watch.runs += 1;
        let Some(key) = job.serial_key.clone() else {
            return;
        };
        let running = watch.running.entry(key.clone()).or_default();
        *running += 1;
        if *running > 1 {
            watch.overlaps.push(job.id);
        }
        if watch.unfinished[&key].first() != Some(&job.id) {
            watch.out_of_order.push(job.id);
        }
    }

    /// Ends the run; `done` when the job succeeded. Called before the result is recorded, so a
    /// job of the key that starts after the result is recorded never sees this one as running.
    fn end(&self, job: &ClaimedJob, done: bool) {
        let mut watch = self.watch.lock().unwrap();
        let Some(key) = job.serial_key.clone() else {
            return;
        };
        *watch.running.get_mut(&key).unwrap() -= 1;
        if done {
            watch
                .unfinished
                .get_mut(&key)
                .unwrap()
                .retain(|id| *id != job.id);
            watch.done.entry(key).or_default().push(job.id);
        }
    }
}

impl JobHandler for Watching {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        self.start(&job);
        // Leave room for another claimer to (wrongly) start a job of the key meanwhile.
        tokio::time::sleep(Duration::from_micros(rand::random_range(0..1500))).await;
        let outcome = match job.id.0 % 7 {
            0 if job.claim == 1 => Outcome::Snooze(Duration::ZERO),
            3 if job.attempt == 1 => Outcome::Retry {
                error: "once more".into(),
                floor: None,
            },
            _ => Outcome::Done,
        };
        self.end(&job, outcome == Outcome::Done);
        outcome
    }
}

/// Claims and runs jobs itself, one claim of up to 4 at a time, recording each result at once;
/// panics if a claim fails.
async fn claim_loop(queue: Queue, handler: Watching, shutdown: CancellationToken) {
    while !shutdown.is_cancelled() {
        let jobs = queue.claim("loop", 4).await.expect("a claim never fails");
        if jobs.is_empty() {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        for job in jobs {
            let recorded = match handler.handle(job.clone()).await {
                Outcome::Done => queue.complete(queue.pool(), &job).await,
                Outcome::Snooze(delay) => queue.reschedule(&job, delay).await,
                Outcome::Retry { error, floor } => queue.retry(&job, error, floor).await.map(drop),
                other => panic!("unexpected outcome {other:?}"),
            };
            recorded.unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_keys_jobs_never_overlap_and_run_in_id_order_under_competing_claimers() {
    const HOT: usize = 300;
    let db = TestDb::with_connections(24).await;
    // The rule alone is under test: without the unique index that backs it up, a claim that broke
    // it would run a second job of the key instead of failing.
    sqlx::query("drop index jobs_serial_running")
        .execute(&db.pool)
        .await
        .unwrap();
    let queue = Queue::new(
        db.pool.clone(),
        QueueConfig {
            backoff: Backoff {
                base: Duration::from_millis(2),
                cap: Duration::from_millis(10),
                jitter: 0.5,
            },
            ..QueueConfig::new("work")
        },
    );
    let watch = Arc::new(Mutex::new(Watch::default()));
    let handler = Watching {
        watch: watch.clone(),
    };
    let shutdown = CancellationToken::new();
    let wakeups = Wakeups::listen(db.pool.clone(), shutdown.clone());
    let mut tasks = tokio::task::JoinSet::new();
    // Batched runners (claims of up to 16, prefetched, completions batched), single-job runners and
    // plain claim loops, all on the same queue.
    for (n, (concurrency, batch)) in [(4, 16), (4, 16), (4, 16), (1, 1), (1, 1), (1, 1)]
        .into_iter()
        .enumerate()
    {
        let runner = Runner::new(
            queue.clone(),
            handler.clone(),
            RunnerConfig {
                concurrency,
                batch,
                poll_interval: Duration::from_millis(200),
                worker_id: format!("runner-{n}"),
                ..RunnerConfig::default()
            },
            wakeups.clone(),
        );
        let shutdown = shutdown.clone();
        tasks.spawn(async move { runner.run(shutdown).await });
    }
    for _ in 0..2 {
        tasks.spawn(claim_loop(queue.clone(), handler.clone(), shutdown.clone()));
    }

    // The hot key's jobs arrive in waves while the others run, mixed with jobs of ten other keys
    // and keyless ones.
    let mut total = 0;
    for wave in 0..6 {
        let mut jobs = keyed(Some("hot"), HOT / 6);
        for k in 0..10 {
            jobs.extend(keyed(Some(&format!("k{k}")), 3));
        }
        jobs.extend(keyed(None, 20));
        // Known to the handlers before they can run (before the commit).
        let mut tx = db.pool.begin().await.unwrap();
        let ids = queue.enqueue_many(&mut tx, &jobs).await.unwrap();
        {
            let mut watch = watch.lock().unwrap();
            for (job, id) in jobs.iter().zip(&ids) {
                if let Some(key) = &job.serial_key {
                    watch.unfinished.entry(key.clone()).or_default().push(*id);
                }
            }
        }
        tx.commit().await.unwrap();
        total += ids.len();
        if wave % 2 == 0 {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let done = || {
        let watch = watch.lock().unwrap();
        watch.unfinished.values().all(Vec::is_empty)
    };
    eventually(
        Duration::from_secs(90),
        "every keyed job to run",
        || async { done() },
    )
    .await;
    eventually(Duration::from_secs(30), "every job to be done", || async {
        pgqueue::count(&db.pool, "work", pgqueue::JobState::Done)
            .await
            .unwrap()
            == total as i64
    })
    .await;
    shutdown.cancel();
    while let Some(joined) = tasks.join_next().await {
        joined.unwrap();
    }

    let watch = watch.lock().unwrap();
    assert!(
        watch.overlaps.is_empty(),
        "ran beside another job of their key: {:?}",
        watch.overlaps
    );
    assert!(
        watch.out_of_order.is_empty(),
        "ran before an older job of their key: {:?}",
        watch.out_of_order
    );
    let hot = &watch.done["hot"];
    assert_eq!(hot.len(), HOT);
    assert!(
        hot.is_sorted(),
        "the hot key's jobs finished out of id order: {hot:?}"
    );
    for (key, ids) in &watch.done {
        assert!(ids.is_sorted(), "{key}: {ids:?}");
    }
    assert!(watch.runs > total, "no job snoozed or retried");
}

/// Reports each job it starts and when it ends, after `work`.
struct Timed {
    events: mpsc::UnboundedSender<(String, JobId, Instant, Instant)>,
    work: Duration,
}

impl JobHandler for Timed {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        let started = Instant::now();
        tokio::time::sleep(self.work).await;
        let key = job.serial_key.clone().unwrap_or_default();
        let _ = self.events.send((key, job.id, started, Instant::now()));
        Outcome::Done
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn different_keys_run_in_parallel_and_a_claim_takes_each_keys_oldest() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut jobs = Vec::new();
    for key in ["x", "y", "z"] {
        jobs.extend(keyed(Some(key), 3));
    }
    jobs.extend(keyed(None, 2));
    let ids = enqueue(&queue, &db.pool, &jobs).await;
    // One claim: the oldest of each key and both keyless jobs, never two of one key.
    assert_eq!(
        claim_ids(&queue, 100).await,
        [ids[0], ids[3], ids[6], ids[9], ids[10]]
    );
    sqlx::query("update jobs set state = 'pending', locked_until = null")
        .execute(&db.pool)
        .await
        .unwrap();

    // A runner with four slots runs the three keys at once, each key's jobs one after another.
    let (events, mut received) = mpsc::unbounded_channel();
    let runner = Runner::new(
        queue.clone(),
        Timed {
            events,
            work: Duration::from_millis(300),
        },
        RunnerConfig {
            concurrency: 4,
            ..RunnerConfig::default()
        },
        Wakeups::poll_only(),
    );
    assert_eq!(runner.run_once().await.unwrap(), 11);
    let mut runs = Vec::new();
    while let Ok(event) = received.try_recv() {
        runs.push(event);
    }
    let first_of = |key: &str| runs.iter().find(|r| r.0 == key).unwrap().clone();
    let (x, y, z) = (first_of("x"), first_of("y"), first_of("z"));
    assert!(
        x.2.max(y.2).max(z.2) < x.3.min(y.3).min(z.3),
        "the first jobs of x, y and z did not run at once"
    );
    for key in ["x", "y", "z"] {
        let of_key: Vec<_> = runs.iter().filter(|r| r.0 == key).collect();
        assert_eq!(of_key.len(), 3);
        for pair in of_key.windows(2) {
            assert!(pair[0].1 < pair[1].1, "{key} ran out of order");
            assert!(pair[0].3 <= pair[1].2, "{key}'s jobs overlapped");
        }
    }
}

#[tokio::test]
async fn a_retried_or_snoozed_job_holds_back_its_key() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut jobs = keyed(Some("k"), 2);
    jobs.extend(keyed(Some("other"), 1));
    let ids = enqueue(&queue, &db.pool, &jobs).await;
    let (first, second, other) = (ids[0], ids[1], ids[2]);
    let claimed = queue.claim("w", 10).await.unwrap();
    assert_eq!(
        claimed.iter().map(|j| j.id).collect::<Vec<_>>(),
        [first, other]
    );
    assert_eq!(claimed[0].serial_key.as_deref(), Some("k"));

    // Retried: pending again, due after the backoff; the second job, due now, waits behind it.
    queue.retry(&claimed[0], "Bad Gateway", None).await.unwrap();
    assert!(claim_ids(&queue, 10).await.is_empty());
    let now = chrono::Utc::now() - chrono::Duration::seconds(1);
    let mut conn = db.pool.acquire().await.unwrap();
    maintenance::reschedule_job(&mut conn, first, now)
        .await
        .unwrap();
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.id, first, "the retried job comes first once due");

    // Snoozed for an hour: the key waits that hour.
    queue
        .reschedule(&job, Duration::from_secs(3600))
        .await
        .unwrap();
    assert!(claim_ids(&queue, 10).await.is_empty());
    // Thrown back by flood control, or by the reaper after its worker died: the same.
    maintenance::reschedule_job(&mut conn, first, now)
        .await
        .unwrap();
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    queue
        .throttle(&job, Duration::from_secs(3600), "Too Many Requests")
        .await
        .unwrap();
    assert!(claim_ids(&queue, 10).await.is_empty());
    maintenance::reschedule_job(&mut conn, first, now)
        .await
        .unwrap();
    assert_eq!(claim_ids(&queue, 10).await, [first]);
    sqlx::query("update jobs set locked_until = now() - interval '1 second' where id = $1")
        .bind(first)
        .execute(&db.pool)
        .await
        .unwrap();
    pgqueue::reaper::reap_expired(&db.pool, &[], 10)
        .await
        .unwrap();
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.id, first, "the reaped job first");

    // Done: the key's next job is claimable.
    queue.complete(&db.pool, &job).await.unwrap();
    assert_eq!(claim_ids(&queue, 10).await, [second]);
}

#[tokio::test]
async fn a_failed_or_cancelled_job_releases_its_key_and_an_admin_retry_takes_its_place_again() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let k = enqueue(&queue, &db.pool, &keyed(Some("k"), 6)).await;
    let mut conn = db.pool.acquire().await.unwrap();

    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.id, k[0]);
    queue.fail(&db.pool, &job, "gone for good").await.unwrap();
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.id, k[1], "a failed job releases its key");
    queue.cancel(&db.pool, &job).await.unwrap();
    let running = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(running.id, k[2], "a cancelled job releases its key");

    // A producer cancels the next pending one; an admin retries the failed first one, which
    // takes its place again (the oldest), after the one running now.
    assert_eq!(
        pgqueue::cancel_pending(&mut *conn, &[k[3]]).await.unwrap(),
        [k[3]]
    );
    maintenance::retry_failed(&mut conn, k[0]).await.unwrap();
    assert!(
        claim_ids(&queue, 10).await.is_empty(),
        "beside a running job of its key"
    );
    queue.complete(&db.pool, &running).await.unwrap();
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.id, k[0], "the retried job before the newer ones");
    queue.complete(&db.pool, &job).await.unwrap();

    // An admin cancels a running job: its worker's result bounces, the key is free.
    let job = queue.claim("w", 10).await.unwrap().remove(0);
    assert_eq!(job.id, k[4]);
    assert!(maintenance::cancel_job(&mut *conn, k[4]).await.unwrap());
    assert!(matches!(
        queue.complete(&db.pool, &job).await,
        Err(QueueError::LeaseLost { .. })
    ));
    assert_eq!(claim_ids(&queue, 10).await, [k[5]]);
}

#[tokio::test]
async fn keyless_jobs_run_beside_a_busy_key() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let k = enqueue(&queue, &db.pool, &keyed(Some("k"), 10)).await;
    let free = enqueue(&queue, &db.pool, &keyed(None, 20)).await;
    let claimed = queue.claim("w", 5).await.unwrap();
    assert_eq!(
        claimed.iter().map(|j| j.id).collect::<Vec<_>>(),
        [k[0], free[0], free[1], free[2], free[3]]
    );
    assert!(claimed[1..].iter().all(|j| j.serial_key.is_none()));
    assert_eq!(
        claim_ids(&queue, 100).await,
        &free[4..],
        "all the keyless ones, none of the key"
    );
    // The same key in another queue is another key.
    let other = Queue::new(db.pool.clone(), QueueConfig::new("other"));
    let theirs = enqueue(&other, &db.pool, &keyed(Some("k"), 2)).await;
    assert_eq!(claim_ids(&other, 10).await, [theirs[0]]);
}

#[tokio::test]
async fn the_database_refuses_a_second_running_job_of_a_key() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let k = enqueue(&queue, &db.pool, &keyed(Some("k"), 2)).await;
    assert_eq!(claim_ids(&queue, 10).await, [k[0]]);
    // What a claim racing with an admin's retry would do: the unique index refuses it.
    let second = sqlx::query(
        "update jobs set state = 'running', locked_until = now() + interval '1 minute'
         where id = $1",
    )
    .bind(k[1])
    .execute(&db.pool)
    .await
    .unwrap_err();
    let code = second
        .as_database_error()
        .and_then(|e| e.code().map(|c| c.into_owned()));
    assert_eq!(code.as_deref(), Some("23505"), "{second}");
}

#[tokio::test]
async fn run_once_runs_each_keys_jobs_in_order() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let mut jobs = Vec::new();
    for round in 0..4 {
        for key in ["a", "b", "c"] {
            jobs.push(NewJob::new(json!({ "round": round })).serial_key(key));
        }
    }
    jobs.extend(keyed(None, 5));
    let ids = enqueue(&queue, &db.pool, &jobs).await;
    let (events, mut received) = mpsc::unbounded_channel();
    let runner = Runner::new(
        queue,
        Timed {
            events,
            work: Duration::ZERO,
        },
        RunnerConfig::default(),
        Wakeups::poll_only(),
    );
    assert_eq!(runner.run_once().await.unwrap(), ids.len());
    let mut order: HashMap<String, Vec<JobId>> = HashMap::new();
    while let Ok((key, id, _, _)) = received.try_recv() {
        order.entry(key).or_default().push(id);
    }
    for key in ["a", "b", "c"] {
        assert_eq!(order[key].len(), 4);
        assert!(order[key].is_sorted(), "{key}: {:?}", order[key]);
    }
    assert_eq!(order[""].len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keys_next_job_starts_as_soon_as_the_one_ahead_is_done() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    // Enqueued before the runner starts: its first look at the queue finds them, whenever its
    // listener is ready.
    let ids = enqueue(&queue, &db.pool, &keyed(Some("k"), 2)).await;
    let shutdown = CancellationToken::new();
    let (events, mut received) = mpsc::unbounded_channel();
    // Polling every 30 s, and backing off while the key's second job waits (20 ms, doubling: it
    // looks again 2.54 s and 5.1 s after the first job started): only the wake-up sent when the
    // first one is done, after 3.5 s (clear of both looks), starts the second one within a second.
    let runner = Runner::new(
        queue.clone(),
        Timed {
            events,
            work: Duration::from_millis(3500),
        },
        RunnerConfig {
            poll_interval: Duration::from_secs(30),
            ..RunnerConfig::default()
        },
        Wakeups::listen(db.pool.clone(), shutdown.clone()),
    );
    let running = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { runner.run(shutdown).await })
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        let run = tokio::time::timeout(Duration::from_secs(15), received.recv())
            .await
            .expect("the key's jobs ran")
            .unwrap();
        runs.push(run);
    }
    assert_eq!((runs[0].1, runs[1].1), (ids[0], ids[1]));
    let gap = runs[1].2 - runs[0].3;
    assert!(
        gap < Duration::from_secs(1),
        "the second job started {gap:?} after the first ended"
    );
    shutdown.cancel();
    running.await.unwrap();
}
