//! One reminder's way through the delivery worker: what is sent, what is skipped, what is recorded.

use std::time::Duration;

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::JobState;
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::{REMINDER_QUEUE, chats};
use tgsim::SimConfig;

use crate::delivery_support::{Setup, job_of_task};
use crate::support::eventually;

#[tokio::test]
async fn a_recurring_reminder_is_sent_in_the_chats_language_with_buttons_and_its_next_occurrence_scheduled()
 {
    let setup = Setup::new(SimConfig::default()).await;
    let chat = setup.users(5_000_000, 1)[0];
    chats::upsert(
        &setup.pool,
        chat,
        remindbot::store::types::ChatKind::Private,
        Lang::Ru,
    )
    .await
    .unwrap();
    let daily = NewTask {
        chat_id: chat,
        owner_id: chat,
        text: TaskText::parse("зарядка <5 мин>").unwrap(),
        due_at: Utc::now(),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(
            Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(7, 0, 0).unwrap()).unwrap(),
        ),
        tz: Tz::Europe__Moscow,
    };
    let mut tx = setup.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &setup.queue, &daily).await.unwrap();
    tx.commit().await.unwrap();

    let running = setup.start(setup.config(25, 1)).await;
    setup.wait_sent(1, Duration::from_secs(10)).await;
    let transcript = setup.sim.transcript(chat).unwrap();
    let message = transcript.iter().find(|m| m.from_bot).unwrap();
    let text = message.text.as_deref().unwrap();
    assert!(
        text.contains("Напоминание") && text.contains("зарядка <5 мин>"),
        "{text}"
    );
    let buttons: Vec<_> = message.buttons.iter().flatten().collect();
    assert_eq!(buttons.len(), 5);

    let (message_id, sent_at): (Option<i64>, Option<chrono::DateTime<Utc>>) =
        sqlx::query_as("select message_id, sent_at from reminders where task_id = $1 and sent")
            .bind(task.id)
            .fetch_one(&setup.pool)
            .await
            .unwrap();
    assert_eq!(message_id, Some(message.message_id));
    assert!(sent_at.is_some());
    let (state, _, _, due_in) = job_of_task(&setup.pool, task.id).await;
    assert_eq!(state, JobState::Pending, "the next occurrence is queued");
    assert!(due_in > 0.0 && due_in <= 86_400.0 + 60.0, "{due_in}");
    running.stop().await.unwrap();
}

#[tokio::test]
async fn done_deleted_and_already_sent_reminders_are_not_sent() {
    let setup = Setup::new(SimConfig::default()).await;
    let chats = setup.users(5_100_000, 3);
    let now = Utc::now();
    let tasks = setup
        .seed(&[(chats[0], now), (chats[1], now), (chats[2], now)])
        .await;
    sqlx::query("update tasks set state = 'done' where id = $1")
        .bind(tasks[0])
        .execute(&setup.pool)
        .await
        .unwrap();
    sqlx::query("update tasks set state = 'deleted' where id = $1")
        .bind(tasks[1])
        .execute(&setup.pool)
        .await
        .unwrap();
    // Sent by an earlier run whose completion was lost.
    sqlx::query("update reminders set sent = true, sent_at = now() where task_id = $1")
        .bind(tasks[2])
        .execute(&setup.pool)
        .await
        .unwrap();
    let running = setup.start(setup.config(25, 1)).await;
    eventually(Duration::from_secs(10), "all three handled", || async {
        let mut open = 0;
        for state in [JobState::Pending, JobState::Running] {
            open += pgqueue::count(&setup.pool, REMINDER_QUEUE, state)
                .await
                .unwrap();
        }
        open == 0
    })
    .await;
    assert_eq!(
        job_of_task(&setup.pool, tasks[0]).await.0,
        JobState::Cancelled
    );
    assert_eq!(
        job_of_task(&setup.pool, tasks[1]).await.0,
        JobState::Cancelled
    );
    assert_eq!(job_of_task(&setup.pool, tasks[2]).await.0, JobState::Done);
    assert_eq!(setup.sim.counters().messages_sent, 0);
    running.stop().await.unwrap();
}
