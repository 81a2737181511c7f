//! The store functions the chat uses: finishing, deleting, rescheduling and snoozing a task change
//! its reminder jobs in the same transaction, and never touch another chat's task.

use chrono::{DateTime, Duration, TimeZone, Utc};
use chrono_tz::Tz;
use pgqueue::{Queue, QueueConfig};
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::tasks::{self, NewTask, Task, TaskChange, TaskText};
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

use crate::support::{TestDb, reminder_jobs};

const CHAT: i64 = 42;
const OTHER: i64 = 43;

async fn setup() -> (TestDb, Queue) {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    for chat in [CHAT, OTHER] {
        chats::upsert(
            &db.pool,
            ChatId(chat),
            remindbot::store::types::ChatKind::Private,
            Lang::En,
        )
        .await
        .unwrap();
    }
    (db, queue)
}

/// A fixed future instant plus `days` (so that repeated calls agree).
fn in_days(days: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2030, 1, 1, 10, 0, 0).unwrap() + Duration::days(days)
}

async fn create(db: &TestDb, queue: &Queue, daily: bool) -> Task {
    let new = NewTask {
        chat_id: ChatId(CHAT),
        owner_id: UserId(CHAT),
        text: TaskText::parse("stretch").unwrap(),
        due_at: in_days(1),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: daily.then(|| {
            let time = in_days(1).with_timezone(&Tz::UTC).time();
            Recurrence::new(Frequency::Daily, time).unwrap()
        }),
        tz: Tz::UTC,
    };
    let mut tx = db.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, queue, &new).await.unwrap();
    tx.commit().await.unwrap();
    task
}

/// `(state, run_at)` of every reminder job, oldest first.
async fn jobs(db: &TestDb) -> Vec<(String, DateTime<Utc>)> {
    reminder_jobs(&db.pool)
        .await
        .into_iter()
        .map(|job| (job.state.to_string(), job.run_at))
        .collect()
}

#[tokio::test]
async fn bot_store_another_chats_task_is_untouchable() {
    let (db, queue) = setup().await;
    let task = create(&db, &queue, false).await;
    let mut tx = db.pool.begin().await.unwrap();
    let change = TaskChange {
        text: None,
        due_at: in_days(2),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: None,
    };
    assert!(
        tasks::finish(&mut tx, &queue, ChatId(OTHER), task.id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        tasks::delete(&mut tx, ChatId(OTHER), task.id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        tasks::reschedule(&mut tx, &queue, ChatId(OTHER), task.id, &change)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        tasks::snooze(&mut tx, &queue, ChatId(OTHER), task.id, in_days(1))
            .await
            .unwrap()
            .is_none()
    );
    tx.commit().await.unwrap();
    assert_eq!(jobs(&db).await, [("pending".to_owned(), in_days(1))]);
}

#[tokio::test]
async fn bot_store_a_second_snooze_replaces_the_first_and_leaves_the_deadline() {
    let (db, queue) = setup().await;
    let task = create(&db, &queue, true).await;
    for hours in [1, 2] {
        let mut tx = db.pool.begin().await.unwrap();
        let fire_at = Utc::now() + Duration::hours(hours);
        tasks::snooze(&mut tx, &queue, ChatId(CHAT), task.id, fire_at)
            .await
            .unwrap()
            .unwrap();
        tx.commit().await.unwrap();
    }
    let states: Vec<String> = jobs(&db).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(states, ["pending", "cancelled", "pending"]);
    let after = tasks::find(&mut db.pool.acquire().await.unwrap(), ChatId(CHAT), task.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (after.due_at, after.recurrence),
        (task.due_at, task.recurrence)
    );
}

#[tokio::test]
async fn bot_store_rescheduling_back_to_the_old_time_still_gets_a_job() {
    let (db, queue) = setup().await;
    let task = create(&db, &queue, false).await;
    for due_at in [in_days(2), in_days(1)] {
        let change = TaskChange {
            text: None,
            due_at,
            lead: remindbot::domain::lead::Lead::new(Duration::minutes(5)).unwrap(),
            recurrence: None,
        };
        let mut tx = db.pool.begin().await.unwrap();
        tasks::reschedule(&mut tx, &queue, ChatId(CHAT), task.id, &change)
            .await
            .unwrap()
            .unwrap();
        tx.commit().await.unwrap();
    }
    let pending: Vec<DateTime<Utc>> = jobs(&db)
        .await
        .into_iter()
        .filter(|(state, _)| state == "pending")
        .map(|(_, at)| at)
        .collect();
    assert_eq!(pending, [in_days(1) - Duration::minutes(5)]);
}

#[tokio::test]
async fn bot_store_done_closes_a_one_off_and_moves_a_recurring_task_on() {
    let (db, queue) = setup().await;
    let once = create(&db, &queue, false).await;
    let daily = create(&db, &queue, true).await;
    let mut tx = db.pool.begin().await.unwrap();
    let closed = tasks::finish(&mut tx, &queue, ChatId(CHAT), once.id)
        .await
        .unwrap()
        .unwrap();
    let moved = tasks::finish(&mut tx, &queue, ChatId(CHAT), daily.id)
        .await
        .unwrap()
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(closed.state, remindbot::store::types::TaskState::Done);
    assert_eq!(moved.state, remindbot::store::types::TaskState::Open);
    assert_eq!(moved.due_at, daily.due_at + Duration::days(1));
    assert_eq!(moved.due_at.time(), daily.due_at.time());
    let states: Vec<String> = jobs(&db).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(states, ["cancelled", "cancelled", "pending"]);

    let mut tx = db.pool.begin().await.unwrap();
    assert!(
        tasks::finish(&mut tx, &queue, ChatId(CHAT), once.id)
            .await
            .unwrap()
            .is_none()
    );
    tasks::delete(&mut tx, ChatId(CHAT), daily.id)
        .await
        .unwrap()
        .unwrap();
    tx.commit().await.unwrap();
    assert!(
        jobs(&db)
            .await
            .iter()
            .all(|(state, _)| state == "cancelled")
    );
}
