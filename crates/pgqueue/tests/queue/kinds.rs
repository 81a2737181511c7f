//! One kind per queue: a kind's job goes only to its queue and is read only from it, and the
//! payloads an earlier version wrote without the kind's tag are tagged in place, once.

use pgqueue::JobId;
use pgqueue::{JobKind, JobState, NewJob, PayloadError, Queue, QueueConfig, QueueError, Untagged};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::TestDb;

/// The chores queue's one kind: two sorts told apart by a tag, which an earlier version did not
/// write.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Chore {
    Sweep { room: String },
    Water { plant: String },
}

impl JobKind for Chore {
    const QUEUE: &'static str = "chores";
    const UNTAGGED: Untagged = Untagged {
        tag: "kind",
        sorts: &[("room", "sweep"), ("plant", "water")],
    };
}

async fn enqueue(queue: &Queue, pool: &PgPool, job: NewJob) -> Result<Option<JobId>, QueueError> {
    let mut tx = pool.begin().await.unwrap();
    let id = queue.enqueue(&mut tx, job).await?;
    tx.commit().await.unwrap();
    Ok(id)
}

async fn payload(pool: &PgPool, id: JobId) -> Value {
    pgqueue::inspect(pool, id).await.unwrap().unwrap().payload
}

#[tokio::test]
async fn a_kinds_job_goes_only_to_its_queue_and_is_read_only_there() {
    let db = TestDb::new().await;
    let chores = Queue::new(db.pool.clone(), QueueConfig::new("chores"));
    let mail = Queue::new(db.pool.clone(), QueueConfig::new("mail"));
    let sweep = || {
        NewJob::of(&Chore::Sweep {
            room: "hall".into(),
        })
    };

    let refused = enqueue(&mail, &db.pool, sweep()).await.unwrap_err();
    assert!(
        matches!(
            &refused,
            QueueError::OtherQueue { queue, kind_queue: "chores" } if queue == "mail"
        ),
        "{refused}"
    );
    let mut tx = db.pool.begin().await.unwrap();
    let refused = mail
        .enqueue_many(&mut tx, &[NewJob::new(json!({"to": "a@b"})), sweep()])
        .await
        .unwrap_err();
    assert!(
        matches!(refused, QueueError::OtherQueue { .. }),
        "{refused}"
    );
    tx.commit().await.unwrap();
    assert_eq!(
        pgqueue::count(&db.pool, "mail", JobState::Pending)
            .await
            .unwrap(),
        0
    );

    // A bare payload goes anywhere; read as a kind of another queue, it is refused.
    enqueue(&mail, &db.pool, NewJob::new(json!({"room": "hall"})))
        .await
        .unwrap();
    let job = mail.claim("w", 1).await.unwrap().remove(0);
    assert!(matches!(
        job.args::<Chore>(),
        Err(PayloadError::OtherQueue {
            kind_queue: "chores",
            ..
        })
    ));

    enqueue(&chores, &db.pool, sweep()).await.unwrap();
    let job = chores.claim("w", 1).await.unwrap().remove(0);
    assert_eq!(job.payload, json!({"kind": "sweep", "room": "hall"}));
    assert_eq!(
        job.args::<Chore>().unwrap(),
        Chore::Sweep {
            room: "hall".into()
        }
    );
}

#[tokio::test]
async fn untagged_payloads_of_unfinished_and_failed_jobs_are_tagged_once() {
    let db = TestDb::new().await;
    let chores = Queue::new(db.pool.clone(), QueueConfig::new("chores"));
    let other = Queue::new(db.pool.clone(), QueueConfig::new("other"));
    let bare = |payload: Value| NewJob::new(payload);
    // As an earlier version wrote them: a failed one, a running one, and pending ones.
    let failed = enqueue(&chores, &db.pool, bare(json!({"room": "attic"})))
        .await
        .unwrap()
        .unwrap();
    let job = chores.claim("w", 1).await.unwrap().remove(0);
    chores.fail(&db.pool, &job, "gave up").await.unwrap();
    let running = enqueue(&chores, &db.pool, bare(json!({"plant": "fig"})))
        .await
        .unwrap()
        .unwrap();
    chores.claim("w", 1).await.unwrap();
    let later = chrono::Utc::now() + chrono::Duration::hours(1);
    let mut ids = Vec::new();
    for payload in [
        json!({"room": "hall"}),
        json!({"kind": "water", "plant": "palm"}),
        json!({"room": "hall", "plant": "fig"}),
        json!({"n": 1}),
        json!("room"),
    ] {
        let job = bare(payload).run_at(later);
        ids.push(enqueue(&chores, &db.pool, job).await.unwrap().unwrap());
    }
    let elsewhere = enqueue(&other, &db.pool, bare(json!({"room": "hall"})))
        .await
        .unwrap()
        .unwrap();

    let tagged = pgqueue::maintenance::tag_untagged::<Chore>(&db.pool)
        .await
        .unwrap();
    assert_eq!(tagged, 3);
    assert_eq!(
        payload(&db.pool, failed).await,
        json!({"kind": "sweep", "room": "attic"})
    );
    assert_eq!(
        payload(&db.pool, running).await,
        json!({"kind": "water", "plant": "fig"})
    );
    assert_eq!(
        payload(&db.pool, ids[0]).await,
        json!({"kind": "sweep", "room": "hall"})
    );
    // Tagged already, of two sorts at once, of none, not an object, or in another queue: as
    // they were.
    let untouched = [
        (ids[1], json!({"kind": "water", "plant": "palm"})),
        (ids[2], json!({"room": "hall", "plant": "fig"})),
        (ids[3], json!({"n": 1})),
        (ids[4], json!("room")),
        (elsewhere, json!({"room": "hall"})),
    ];
    for (id, was) in untouched {
        assert_eq!(payload(&db.pool, id).await, was);
    }
    assert_eq!(
        pgqueue::maintenance::tag_untagged::<Chore>(&db.pool)
            .await
            .unwrap(),
        0
    );
}
