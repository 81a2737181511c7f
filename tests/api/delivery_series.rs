//! Through the whole pipeline (`remindbot run` against the simulator): a recurring task's
//! occurrence that Telegram refuses with a 400, that meets 5xx until its attempts run out, or
//! whose worker dies for good, leaves the task's next occurrence pending.

use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;
use pgqueue::{JobState, QueueConfig};
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::{REMINDER_QUEUE, chats, reminder_queue};
use tgsim::{FaultAction, FaultRule, SimConfig};

use crate::delivery_support::Setup;
use crate::support::{eventually, reminders_with_jobs};

/// A daily task of `chat` whose current occurrence fell due a minute ago (its job with
/// `max_attempts`) and whose next one is tomorrow; returns its id and that occurrence's deadline.
async fn daily_task(setup: &Setup, chat: i64, max_attempts: i32) -> (i64, DateTime<Utc>) {
    chats::upsert(
        &setup.pool,
        chat,
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
        chat_id: chat,
        owner_id: chat,
        text: TaskText::parse("water the plants").unwrap(),
        due_at: due,
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(Recurrence::new(Frequency::Daily, due.time()).unwrap()),
        tz: Tz::UTC,
    };
    let queue = reminder_queue(
        setup.pool.clone(),
        QueueConfig {
            max_attempts,
            ..QueueConfig::new(REMINDER_QUEUE)
        },
    );
    let mut tx = setup.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &queue, &new).await.unwrap();
    tx.commit().await.unwrap();
    (task.id, due)
}

/// `(state of today's job, deadlines of the pending occurrences)` of the task.
async fn series(setup: &Setup, task: i64, today: DateTime<Utc>) -> (JobState, Vec<DateTime<Utc>>) {
    let reminders = reminders_with_jobs(&setup.pool, task).await;
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

async fn wait_for_failure(setup: &Setup, task: i64, today: DateTime<Utc>, within: Duration) {
    eventually(within, "today's occurrence to fail", || async {
        series(setup, task, today).await.0 == JobState::Failed
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_occurrence_telegram_refuses_with_a_400_leaves_the_next_one_pending() {
    let setup = Setup::new(SimConfig::default()).await;
    let chat = setup.users(3_400_000, 1)[0];
    setup.sim.add_fault(
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
    let default_attempts = QueueConfig::new(REMINDER_QUEUE).max_attempts;
    let (task, today) = daily_task(&setup, chat, default_attempts).await;
    let running = setup.start(setup.config(25, 1)).await;
    wait_for_failure(&setup, task, today, Duration::from_secs(10)).await;
    assert_eq!(
        series(&setup, task, today).await.1,
        vec![today + chrono::Duration::days(1)]
    );
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_occurrence_that_meets_5xx_until_its_attempts_run_out_leaves_the_next_one_pending() {
    let setup = Setup::new(SimConfig::default()).await;
    let chat = setup.users(3_410_000, 1)[0];
    setup.sim.add_fault(
        FaultRule::new(FaultAction::ServerError { status: 502 })
            .method("sendMessage")
            .times(2),
    );
    let (task, today) = daily_task(&setup, chat, 2).await;
    let mut config = setup.config(25, 1);
    // teloxide waits 10 s after each 5xx before it reads the answer.
    config.delivery.lease_secs = Some(30);
    let running = setup.start(config).await;
    wait_for_failure(&setup, task, today, Duration::from_secs(60)).await;
    assert_eq!(
        series(&setup, task, today).await.1,
        vec![today + chrono::Duration::days(1)]
    );
    assert_eq!(setup.sim.counters().requests_by_method["sendMessage"], 2);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_occurrence_whose_worker_died_for_good_leaves_the_next_one_pending() {
    let setup = Setup::new(SimConfig::default()).await;
    let chat = setup.users(3_420_000, 1)[0];
    let (task, today) = daily_task(&setup, chat, 1).await;
    // A worker claims the job on its last attempt and dies before it reports anything.
    let dead = reminder_queue(
        setup.pool.clone(),
        QueueConfig {
            lease: Duration::ZERO,
            max_attempts: 1,
            ..QueueConfig::new(REMINDER_QUEUE)
        },
    );
    assert_eq!(dead.claim("dead-worker", 1).await.unwrap().len(), 1);
    let running = setup.start(setup.config(25, 1)).await;
    wait_for_failure(&setup, task, today, Duration::from_secs(10)).await;
    assert_eq!(
        series(&setup, task, today).await.1,
        vec![today + chrono::Duration::days(1)]
    );
    assert!(setup.bot_messages(chat).is_empty());
    running.stop().await.unwrap();
}
