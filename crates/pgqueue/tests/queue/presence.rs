//! Presence: the jobs of a worker whose process died come back at once, not after their lease;
//! a live worker's and a gracefully stopped worker's jobs stay theirs until the lease says
//! otherwise.

use std::time::Duration;

use pgqueue::presence::Presence;
use pgqueue::{JobError, JobState, NewJob, Queue, QueueConfig, inspect, reaper};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support::TestDb;

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

#[tokio::test]
async fn a_dead_processs_jobs_come_back_at_once_and_a_live_ones_stay() {
    let db = TestDb::new().await;
    let queue = long_lease_queue(&db);
    enqueue_one(&queue, &db).await;
    enqueue_one(&queue, &db).await;

    let alive = Presence::register(&db.pool, "alive").await.unwrap();
    let dead = Presence::register(&db.pool, "dead").await.unwrap();
    assert_ne!(alive.worker_id(), dead.worker_id());
    let alive_job = queue.claim(alive.worker_id(), 1).await.unwrap().remove(0);
    let dead_job = queue.claim(dead.worker_id(), 1).await.unwrap().remove(0);

    let nothing = reaper::reap_expired(&db.pool, &[], 100).await.unwrap();
    assert_eq!(nothing.returned, 0, "both workers are alive");

    // The process dies: its presence is dropped without unregistering, its connection closes.
    drop(dead);
    let mut returned = 0;
    for _ in 0..50 {
        returned += reaper::reap_expired(&db.pool, &[], 100)
            .await
            .unwrap()
            .returned;
        if returned > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(returned, 1, "the dead worker's job came back");
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
