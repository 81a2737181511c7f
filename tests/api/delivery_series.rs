//! Through the whole pipeline (`remindbot run` against the simulator): a recurring task's
//! occurrence that Telegram refuses with a 400, that meets 5xx until its attempts run out, or
//! whose worker dies for good, leaves the task's next occurrence pending.

use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;
use pgqueue::{JobState, QueueConfig};
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};
use tgsim::{FaultAction, FaultRule};

use crate::app::TestApp;
use crate::support::{WAIT, eventually, reminders_with_jobs};

/// A daily task of `chat` whose current occurrence fell due a minute ago (its job with
/// `max_attempts`) and whose next one is tomorrow; returns its id and that occurrence's deadline.
async fn daily_task(app: &TestApp, chat: i64, max_attempts: i32) -> (i64, DateTime<Utc>) {
    chats::upsert(
        &app.pool,
        ChatId(chat),
        remindbot::store::types::ChatKind::Private,
        remindbot::domain::lang::Lang::En,
    )
    .await
    .unwrap();
    let due = (Utc::now() - chrono::Duration::minutes(1))
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap();
    let new = NewTask {
        chat_id: ChatId(chat),
        owner_id: UserId(chat),
        text: TaskText::parse("water the plants").unwrap(),
        due_at: due,
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(Recurrence::new(Frequency::Daily, due.time()).unwrap()),
        tz: Tz::UTC,
    };
    let queue = outbox_queue(
        app.pool.clone(),
        QueueConfig {
            max_attempts,
            ..QueueConfig::new(OUTBOX_QUEUE)
        },
    );
    let mut tx = app.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &queue, &new).await.unwrap();
    tx.commit().await.unwrap();
    (task.id.0, due)
}

/// `(state of today's job, deadlines of the pending occurrences)` of the task.
async fn series(app: &TestApp, task: i64, today: DateTime<Utc>) -> (JobState, Vec<DateTime<Utc>>) {
    let reminders = reminders_with_jobs(&app.pool, task).await;
    let state = reminders
        .iter()
        .find(|r| r.due_at == today)
        .expect("today's reminder")
        .job
        .state;
    let mut pending: Vec<DateTime<Utc>> = reminders
        .iter()
        .filter(|r| r.job.state == JobState::Pending)
        .map(|r| r.due_at)
        .collect();
    pending.sort();
    (state, pending)
}

async fn wait_for_failure(app: &TestApp, task: i64, today: DateTime<Utc>, within: Duration) {
    eventually(within, "today's occurrence to fail", || async {
        series(app, task, today).await.0 == JobState::Failed
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_occurrence_telegram_refuses_with_a_400_leaves_the_next_one_pending() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_400_000, 1)[0];
    app.sim.add_fault(
        FaultRule::new(FaultAction::ApiError {
            error_code: 400,
            description:
                "Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 3"
                    .into(),
            parameters: None,
        })
        .method("sendMessage")
        .times(1),
    );
    let default_attempts = QueueConfig::new(OUTBOX_QUEUE).max_attempts;
    let (task, today) = daily_task(&app, chat, default_attempts).await;
    app.run().await;
    wait_for_failure(&app, task, today, WAIT).await;
    assert_eq!(
        series(&app, task, today).await.1,
        vec![today + chrono::Duration::days(1)]
    );
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_occurrence_that_meets_5xx_until_its_attempts_run_out_leaves_the_next_one_pending() {
    let mut app = TestApp::builder()
        .telegram_limits()
        // teloxide waits 10 s after each 5xx before it reads the answer.
        .config(|c| c.delivery.lease_secs = Some(30))
        .prepare()
        .await;
    let chat = app.users(3_410_000, 1)[0];
    app.sim.add_fault(
        FaultRule::new(FaultAction::ServerError { status: 502 })
            .method("sendMessage")
            .times(2),
    );
    let (task, today) = daily_task(&app, chat, 2).await;
    app.run().await;
    // Two attempts, each 10 s of teloxide's wait after the 5xx, with a backoff between them.
    wait_for_failure(&app, task, today, WAIT * 6).await;
    assert_eq!(
        series(&app, task, today).await.1,
        vec![today + chrono::Duration::days(1)]
    );
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 2);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_occurrence_whose_worker_died_for_good_leaves_the_next_one_pending() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_420_000, 1)[0];
    let (task, today) = daily_task(&app, chat, 1).await;
    // A worker claims the job on its last attempt and dies before it reports anything.
    let dead = outbox_queue(
        app.pool.clone(),
        QueueConfig {
            lease: Duration::ZERO,
            max_attempts: 1,
            ..QueueConfig::new(OUTBOX_QUEUE)
        },
    );
    assert_eq!(dead.claim("dead-worker", 1).await.unwrap().len(), 1);
    app.run().await;
    wait_for_failure(&app, task, today, WAIT).await;
    assert_eq!(
        series(&app, task, today).await.1,
        vec![today + chrono::Duration::days(1)]
    );
    assert!(app.bot_messages(chat).is_empty());
    app.stop().await;
}
