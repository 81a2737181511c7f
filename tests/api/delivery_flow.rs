//! One reminder's way through the delivery worker: what is sent, what is skipped, what is recorded.

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::JobState;
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::chats;
use remindbot::store::tasks::{self, NewTask, TaskText};

use crate::app::TestApp;
use crate::support::{WAIT, due_in_secs, eventually, job_of_task, jobs_in};

#[tokio::test]
async fn a_recurring_reminder_is_sent_in_the_chats_language_with_buttons_and_its_next_occurrence_scheduled()
 {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(5_000_000, 1)[0];
    chats::upsert(
        &app.pool,
        ChatId(chat),
        remindbot::store::types::ChatKind::Private,
        Lang::Ru,
    )
    .await
    .unwrap();
    let daily = NewTask {
        chat_id: ChatId(chat),
        owner_id: UserId(chat),
        text: TaskText::parse("зарядка <5 мин>").unwrap(),
        due_at: Utc::now(),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(
            Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(7, 0, 0).unwrap()).unwrap(),
        ),
        tz: Tz::Europe__Moscow,
    };
    let mut tx = app.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &app.queue, &daily).await.unwrap();
    tx.commit().await.unwrap();

    app.run().await;
    app.wait_sent(1, WAIT).await;
    let transcript = app.sim.transcript(chat).unwrap();
    let message = transcript.iter().find(|m| m.from_bot).unwrap();
    let text = message.text.as_deref().unwrap();
    assert!(
        text.contains("Напоминание") && text.contains("зарядка <5 мин>"),
        "{text}"
    );
    // Done, four snoozes, Keep reminding and, for a repeat, Pause.
    let buttons: Vec<_> = message.buttons.iter().flatten().collect();
    assert_eq!(buttons.len(), 7);

    let (message_id, sent_at): (Option<i64>, Option<chrono::DateTime<Utc>>) =
        sqlx::query_as("select message_id, sent_at from reminders where task_id = $1 and sent")
            .bind(task.id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(message_id, Some(message.message_id));
    assert!(sent_at.is_some());
    let job = job_of_task(&app.pool, task.id.0).await;
    let due_in = due_in_secs(&app.pool, &job).await;
    assert_eq!(
        job.state,
        JobState::Pending,
        "the next occurrence is queued"
    );
    assert!(due_in > 0.0 && due_in <= 86_400.0 + 60.0, "{due_in}");
    app.stop().await;
}

#[tokio::test]
async fn done_deleted_and_already_sent_reminders_are_not_sent() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chats = app.users(5_100_000, 3);
    let now = Utc::now();
    let tasks = app
        .seed(&[(chats[0], now), (chats[1], now), (chats[2], now)])
        .await;
    sqlx::query("update tasks set state = 'done' where id = $1")
        .bind(tasks[0])
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query("update tasks set state = 'deleted' where id = $1")
        .bind(tasks[1])
        .execute(&app.pool)
        .await
        .unwrap();
    // Sent by an earlier run whose completion was lost.
    sqlx::query("update reminders set sent = true, sent_at = now() where task_id = $1")
        .bind(tasks[2])
        .execute(&app.pool)
        .await
        .unwrap();
    app.run().await;
    eventually(WAIT, "all three handled", || async {
        jobs_in(&app.pool, JobState::Pending).await + jobs_in(&app.pool, JobState::Running).await
            == 0
    })
    .await;
    assert_eq!(
        job_of_task(&app.pool, tasks[0]).await.state,
        JobState::Cancelled
    );
    assert_eq!(
        job_of_task(&app.pool, tasks[1]).await.state,
        JobState::Cancelled
    );
    assert_eq!(job_of_task(&app.pool, tasks[2]).await.state, JobState::Done);
    assert_eq!(app.sim.counters().messages_sent, 0);
    app.stop().await;
}
