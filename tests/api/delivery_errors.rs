//! How delivery reacts to Telegram's errors: flood control, unreachable recipients, migrated
//! groups, unreadable answers.

use std::time::{Duration, Instant};

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::JobState;
use pgqueue::maintenance::AttemptOutcome;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::reachability;
use remindbot::store::tasks::{self, NewTask, TaskText};
use tgsim::{FaultAction, FaultRule, NewGroup, UserState};

use crate::app::TestApp;
use crate::support::{
    WAIT, attempt_outcomes, db_now, due_in_secs, eventually, job_of_task, job_states, jobs_in,
    reminders_with_jobs,
};

async fn flood_once(with_parameters: bool) {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_000_000, 1)[0];
    app.sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 2,
            with_parameters,
        })
        .method("sendMessage")
        .times(1),
    );
    let task = app.seed(&[(chat, Utc::now())]).await[0];
    let started = Instant::now();
    app.run().await;
    app.wait_sent(1, WAIT).await;
    let waited = started.elapsed();
    let job = job_of_task(&app.pool, task).await;
    eprintln!(
        "429 (parameters: {with_parameters}): sent after {waited:?}, {:?}",
        job.last_error
    );
    assert!(waited >= Duration::from_secs(2), "{waited:?}");
    // The 429 used up no attempt, but it is on record.
    assert_eq!((job.state, job.attempts), (JobState::Done, 1));
    assert_eq!(job.throttles, 1);
    assert!(
        job.last_error
            .is_some_and(|e| e.to_lowercase().contains("retry after"))
    );
    assert_eq!(
        attempt_outcomes(&app.pool, job.id).await,
        [AttemptOutcome::Throttled, AttemptOutcome::Done]
    );
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 2);
    app.stop().await;
}

/// Seconds from each sent reminder's fire time to its sending, for the tasks `tasks`.
async fn lateness(pool: &sqlx::PgPool, tasks: &[i64]) -> Vec<f64> {
    sqlx::query_scalar(
        "select extract(epoch from sent_at - fire_at)::float8 from reminders
         where task_id = any($1) and sent order by task_id",
    )
    .bind(tasks)
    .fetch_all(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_429_with_parameters_is_honoured_and_no_attempt_is_used() {
    flood_once(true).await;
}

#[tokio::test]
async fn a_429_without_parameters_is_read_from_the_description() {
    flood_once(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_chats_hour_long_429_delays_only_that_chat() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chats = app.users(3_100_000, 6);
    app.sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 3600,
            with_parameters: true,
        })
        .method("sendMessage")
        .chat(chats[0])
        .times(1),
    );
    let parked = app.seed(&[(chats[0], Utc::now())]).await[0];
    app.run().await;
    eventually(WAIT, "the 429", || async {
        app.sim.counters().requests >= 1 && job_of_task(&app.pool, parked).await.throttles == 1
    })
    .await;
    // Five other users' reminders fall due after the 429: each goes out on time.
    let soon = Utc::now() + chrono::Duration::seconds(1);
    let due: Vec<_> = chats[1..].iter().map(|chat| (*chat, soon)).collect();
    let others = app.seed(&due).await;
    app.wait_sent(5, WAIT).await;
    for late in lateness(&app.pool, &others).await {
        assert!(late < 2.0, "another chat's reminder went out {late} s late");
    }
    let job = job_of_task(&app.pool, parked).await;
    let due_in = due_in_secs(&app.pool, &job).await;
    assert_eq!((job.state, job.attempts), (JobState::Pending, 0));
    assert!(due_in > 3500.0, "due in {due_in} s");
    assert!(job.last_error.is_some());
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 6);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_429s_from_many_chats_pauses_everyone_for_at_most_the_cap() {
    let mut app = TestApp::builder()
        .telegram_limits()
        .config(|c| c.delivery.flood_pause_cap_secs = 3)
        .prepare()
        .await;
    let chats = app.users(3_150_000, 4);
    for chat in &chats[..3] {
        app.sim.add_fault(
            FaultRule::new(FaultAction::TooManyRequests {
                retry_after: 3600,
                with_parameters: true,
            })
            .method("sendMessage")
            .chat(*chat)
            .times(1),
        );
    }
    let flooded = app
        .seed(&[
            (chats[0], Utc::now()),
            (chats[1], Utc::now()),
            (chats[2], Utc::now()),
        ])
        .await;
    let bystander = app
        .seed(&[(chats[3], Utc::now() + chrono::Duration::milliseconds(1500))])
        .await[0];
    app.run().await;
    app.wait_sent(1, WAIT).await;
    let calls = app.sim.calls(0);
    let last_refusal = calls
        .iter()
        .filter(|c| c.status == 429)
        .map(|c| c.at_ms)
        .max()
        .unwrap();
    let delivered = calls
        .iter()
        .find(|c| c.status == 200 && c.method == "sendMessage")
        .unwrap();
    assert_eq!(delivered.chat_id, Some(chats[3]));
    let paused_ms = delivered.at_ms - last_refusal;
    assert!(
        (2000..=5000).contains(&paused_ms),
        "the bystander's reminder went out {paused_ms} ms after the flood"
    );
    assert!(lateness(&app.pool, &[bystander]).await[0] < 5.0);
    // The chats that got the 429s wait their own retry_after.
    for task in flooded {
        let job = job_of_task(&app.pool, task).await;
        let due_in = due_in_secs(&app.pool, &job).await;
        assert_eq!((job.state, job.attempts), (JobState::Pending, 0));
        assert!(due_in > 3500.0, "due in {due_in} s");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absurd_retry_after_neither_panics_nor_parks_anything_beyond_the_cap() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chats = app.users(3_180_000, 3);
    let bodies = [
        r#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 10000000000000","parameters":{"retry_after":10000000000000}}"#,
        r#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 99999999999999999999999999"}"#,
    ];
    for (chat, body) in chats.iter().zip(bodies) {
        app.sim.add_fault(
            FaultRule::new(FaultAction::Raw {
                status: 429,
                body: body.into(),
                after_processing: false,
            })
            .method("sendMessage")
            .chat(*chat)
            .times(1),
        );
    }
    let absurd = app
        .seed(&[(chats[0], Utc::now()), (chats[1], Utc::now())])
        .await;
    app.run().await;
    eventually(WAIT, "both 429s", || async {
        let mut throttled = 0;
        for task in &absurd {
            throttled += job_of_task(&app.pool, *task).await.throttles;
        }
        throttled == 2
    })
    .await;
    let other = app.seed(&[(chats[2], Utc::now())]).await;
    app.wait_sent(1, WAIT).await;
    assert!(lateness(&app.pool, &other).await[0] < 2.0);
    for task in absurd {
        let job = job_of_task(&app.pool, task).await;
        let due_in = due_in_secs(&app.pool, &job).await;
        assert_eq!((job.state, job.attempts), (JobState::Pending, 0));
        assert!(
            due_in > 3500.0 && due_in <= 3601.0,
            "clamped to an hour: due in {due_in} s"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn a_blocked_user_and_a_missing_chat_fail_at_once_and_pause_recurring_tasks() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let blocked = app.users(3_200_000, 1)[0];
    app.sim.set_user_state(blocked, UserState::Blocked).unwrap();
    let missing = 3_200_777; // never known to the simulator: "chat not found"
    let tasks = app
        .seed(&[(blocked, Utc::now()), (missing, Utc::now())])
        .await;
    // A recurring task of each chat, due tomorrow: paused, its pending reminder cancelled.
    for chat in [blocked, missing] {
        let daily = NewTask {
            chat_id: chat,
            owner_id: chat,
            text: TaskText::parse("daily").unwrap(),
            due_at: Utc::now() + chrono::Duration::days(1),
            lead: remindbot::domain::lead::Lead::ZERO,
            recurrence: Some(
                Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(9, 0, 0).unwrap())
                    .unwrap(),
            ),
            tz: Tz::UTC,
        };
        let mut tx = app.pool.begin().await.unwrap();
        tasks::create(&mut tx, &app.queue, &daily).await.unwrap();
        tx.commit().await.unwrap();
    }
    app.run().await;
    eventually(WAIT, "both failed", || async {
        let failed = jobs_in(&app.pool, JobState::Failed).await;
        failed == 2
    })
    .await;
    for (task, reason) in [(tasks[0], "blocked"), (tasks[1], "chat not found")] {
        let job = job_of_task(&app.pool, task).await;
        assert_eq!((job.state, job.attempts), (JobState::Failed, 1));
        let last_error = job.last_error.unwrap_or_default();
        assert!(last_error.contains(reason), "{last_error:?}");
    }
    let chats: Vec<(i64, bool, String)> = sqlx::query_as(
        "select c.chat_id, c.reachable, t.state from chats c join tasks t using (chat_id)
         where t.rule is not null order by c.chat_id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(
        chats,
        vec![
            (blocked, false, "paused".into()),
            (missing, false, "paused".into())
        ]
    );
    let pending = jobs_in(&app.pool, JobState::Pending).await;
    assert_eq!(pending, 0, "{:?}", job_states(&app.pool).await);
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 2);

    // The blocked user writes again: the daily task resumes at its next occurrence.
    let mut tx = app.pool.begin().await.unwrap();
    let resumed = reachability::resume(&mut tx, &app.queue, blocked)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(resumed, 1);
    let (reachable, state, task): (bool, String, i64) = sqlx::query_as(
        "select c.reachable, t.state, t.id from chats c join tasks t using (chat_id)
         where c.chat_id = $1 and t.rule is not null",
    )
    .bind(blocked)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let pending: Vec<_> = reminders_with_jobs(&app.pool, task)
        .await
        .into_iter()
        .filter(|r| r.job.state == JobState::Pending)
        .collect();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let due_in = pending[0].job.run_at - db_now(&app.pool).await;
    assert!(reachable);
    assert_eq!(state, "open");
    assert!(due_in > chrono::Duration::zero());
    app.stop().await;
}

#[tokio::test]
async fn a_reminder_for_a_migrated_group_reaches_the_supergroup() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let group = app.sim.create_group(NewGroup::new("team")).unwrap().chat.id;
    let supergroup = app.sim.upgrade_group(group, None).unwrap();
    let task = app.seed(&[(group, Utc::now())]).await[0];
    app.run().await;
    app.wait_sent(1, WAIT).await;
    assert_eq!(app.bot_messages(supergroup).len(), 1);
    let chat: i64 = sqlx::query_scalar("select chat_id from tasks where id = $1")
        .bind(task)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(chat, supergroup);
    app.stop().await;
}

#[tokio::test]
async fn an_unreadable_answer_after_delivery_counts_as_sent_and_is_not_sent_again() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_300_000, 1)[0];
    app.sim.add_fault(
        FaultRule::new(FaultAction::Raw {
            status: 200,
            body: r#"{"ok":true,"result":{"message_id":"not a number"}}"#.into(),
            after_processing: true,
        })
        .method("sendMessage")
        .times(1),
    );
    let task = app.seed(&[(chat, Utc::now())]).await[0];
    app.run().await;
    app.wait_sent(1, WAIT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.bot_messages(chat).len(), 1);
    let job = job_of_task(&app.pool, task).await;
    assert_eq!((job.state, job.attempts), (JobState::Done, 1));
    app.stop().await;
}
