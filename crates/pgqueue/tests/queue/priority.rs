//! Priorities: due jobs are claimed by (priority, run_at, id), so an urgent job overtakes a
//! backlog, and the reads of the next due time and the depth see every priority.

use std::time::Duration;

use chrono::{DateTime, Utc};
use pgqueue::JobId;
use pgqueue::{NewJob, Queue, QueueConfig, maintenance};
use serde_json::json;
use sqlx::PgPool;

use crate::support::TestDb;

async fn enqueue(queue: &Queue, pool: &PgPool, jobs: &[NewJob]) -> Vec<JobId> {
    let mut tx = pool.begin().await.unwrap();
    let ids = queue.enqueue_many(&mut tx, jobs).await.unwrap();
    tx.commit().await.unwrap();
    ids
}

async fn db_now(pool: &PgPool) -> DateTime<Utc> {
    sqlx::query_scalar("select now()")
        .fetch_one(pool)
        .await
        .unwrap()
}

fn minutes(n: i64) -> chrono::Duration {
    chrono::Duration::minutes(n)
}

async fn claim_ids(queue: &Queue, limit: i64) -> Vec<JobId> {
    let jobs = queue.claim("w", limit).await.unwrap();
    jobs.iter().map(|j| j.id).collect()
}

#[tokio::test]
async fn a_higher_priority_job_enqueued_later_is_claimed_before_a_backlog() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let now = db_now(&db.pool).await;
    // A backlog of routine jobs that have waited up to an hour.
    let backlog: Vec<NewJob> = (0..200)
        .map(|n| {
            NewJob::new(json!({ "n": n }))
                .priority(5)
                .run_at(now - minutes(60 - n % 60))
        })
        .collect();
    let routine = enqueue(&queue, &db.pool, &backlog).await;
    let urgent = enqueue(&queue, &db.pool, &[NewJob::new(json!({ "urgent": true }))]).await;
    let claimed = queue.claim("w", 1).await.unwrap();
    assert_eq!(claimed[0].id, urgent[0]);
    assert_eq!(claimed[0].priority, 0);
    // Below the default, before it.
    let first = enqueue(&queue, &db.pool, &[NewJob::new(json!({})).priority(-1)]).await;
    assert_eq!(claim_ids(&queue, 1).await, first);
    // Then the backlog, oldest first.
    let next = queue.claim("w", 3).await.unwrap();
    assert!(
        next.iter()
            .all(|j| j.priority == 5 && j.run_at == now - minutes(60))
    );
    assert_eq!(
        next.iter().map(|j| j.id).collect::<Vec<_>>(),
        [routine[0], routine[60], routine[120]]
    );
    let info = pgqueue::inspect(&db.pool, routine[1])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(info.priority, 5);
}

#[tokio::test]
async fn equal_priorities_keep_run_at_order_and_a_claim_crosses_priorities_in_order() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let now = db_now(&db.pool).await;
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({})).priority(1).run_at(now - minutes(1)),
            NewJob::new(json!({})).priority(1).run_at(now - minutes(3)),
            NewJob::new(json!({})).priority(0).run_at(now - minutes(2)),
            NewJob::new(json!({})).priority(1).run_at(now - minutes(3)),
            NewJob::new(json!({})).priority(0).run_at(now - minutes(5)),
            NewJob::new(json!({})).priority(1).run_at(now + minutes(1)),
        ],
    )
    .await;
    // Priority 0 by due time, then priority 1 by due time and id (two are due at the same time);
    // the one due later stays.
    assert_eq!(claim_ids(&queue, 4).await, [ids[4], ids[2], ids[1], ids[3]]);
    assert_eq!(claim_ids(&queue, 10).await, [ids[0]]);
}

#[tokio::test]
async fn an_urgent_job_due_later_holds_nothing_back_and_the_next_due_time_sees_every_priority() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    assert_eq!(queue.next_due_in().await.unwrap(), None);
    let now = db_now(&db.pool).await;
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({})).priority(0).run_at(now + minutes(60)),
            NewJob::new(json!({})).priority(3).run_at(now + minutes(10)),
            NewJob::new(json!({})).priority(7).run_at(now - minutes(1)),
            NewJob::new(json!({})).priority(7).run_at(now - minutes(4)),
        ],
    )
    .await;
    assert_eq!(queue.next_due_in().await.unwrap(), Some(Duration::ZERO));
    let depth = maintenance::depth(&db.pool, "work").await.unwrap();
    assert_eq!(depth.due_now, 2);
    assert_eq!(depth.oldest_due.map(|d| d.id), Some(ids[3]));
    assert_eq!(claim_ids(&queue, 10).await, [ids[3], ids[2]]);
    // The earliest of any priority: the one due in ten minutes.
    let next = queue.next_due_in().await.unwrap().unwrap();
    assert!(
        next > Duration::from_secs(9 * 60) && next <= Duration::from_secs(10 * 60),
        "{next:?}"
    );
    let depth = maintenance::depth(&db.pool, "work").await.unwrap();
    assert_eq!((depth.due_now, depth.oldest_due), (0, None));
}

#[tokio::test]
async fn a_serial_key_keeps_its_order_whatever_the_priorities() {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new("work"));
    let ids = enqueue(
        &queue,
        &db.pool,
        &[
            NewJob::new(json!({})).serial_key("chat").priority(1),
            NewJob::new(json!({})).serial_key("chat").priority(0),
            NewJob::new(json!({})).priority(2),
        ],
    )
    .await;
    // The urgent job waits for the older one of its key; a job of a lower priority runs meanwhile.
    let claimed = queue.claim("w", 10).await.unwrap();
    assert_eq!(
        claimed.iter().map(|j| j.id).collect::<Vec<_>>(),
        [ids[0], ids[2]]
    );
    queue.complete(&db.pool, &claimed[0]).await.unwrap();
    assert_eq!(claim_ids(&queue, 10).await, [ids[1]]);
}
