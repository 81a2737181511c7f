//! How delivery reacts to Telegram's errors: flood control, unreachable recipients, migrated
//! groups, unreadable answers.

use std::time::{Duration, Instant};

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::sim::{FaultAction, FaultRule, NewGroup, SimConfig, UserState};
use remindbot::store::reachability;
use remindbot::store::tasks::{self, NewTask, TaskText};

use crate::delivery_support::{Setup, job_of_task};
use crate::support::eventually;

async fn flood_once(with_parameters: bool) {
    let setup = Setup::new(SimConfig::default()).await;
    let chat = setup.users(3_000_000, 1)[0];
    setup.sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 2,
            with_parameters,
        })
        .method("sendMessage")
        .times(1),
    );
    let task = setup.seed(&[(chat, Utc::now())]).await[0];
    let started = Instant::now();
    let running = setup.start(setup.config(25, 1)).await;
    setup.wait_sent(1, Duration::from_secs(15)).await;
    let waited = started.elapsed();
    let (state, attempts, last_error, _) = job_of_task(&setup.pool, task).await;
    eprintln!("429 (parameters: {with_parameters}): sent after {waited:?}, {last_error:?}");
    assert!(waited >= Duration::from_secs(2), "{waited:?}");
    assert_eq!((state.as_str(), attempts), ("done", 2));
    assert!(last_error.is_some_and(|e| e.to_lowercase().contains("retry after")));
    assert_eq!(setup.sim.counters().requests_by_method["sendMessage"], 2);
    running.stop().await.unwrap();
}

#[tokio::test]
async fn a_429_with_parameters_is_honoured_and_the_attempt_recorded() {
    flood_once(true).await;
}

#[tokio::test]
async fn a_429_without_parameters_is_read_from_the_description() {
    flood_once(false).await;
}

#[tokio::test]
async fn a_retry_after_of_an_hour_parks_the_job_without_a_busy_loop() {
    let setup = Setup::new(SimConfig::default()).await;
    let chats = setup.users(3_100_000, 2);
    setup.sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 3600,
            with_parameters: true,
        })
        .method("sendMessage")
        .chat(chats[0])
        .times(1),
    );
    let task = setup.seed(&[(chats[0], Utc::now())]).await[0];
    let running = setup.start(setup.config(25, 1)).await;
    eventually(Duration::from_secs(10), "the 429", || async {
        setup.sim.counters().requests >= 1
    })
    .await;
    // A reminder falling due meanwhile waits for the pause too.
    let later = setup.seed(&[(chats[1], Utc::now())]).await[0];
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (state, attempts, last_error, due_in) = job_of_task(&setup.pool, task).await;
    assert_eq!((state.as_str(), attempts), ("pending", 1));
    assert!(due_in > 3500.0, "due in {due_in} s");
    assert!(last_error.is_some());
    let (state, _, _, due_in) = job_of_task(&setup.pool, later).await;
    assert_eq!(state, "pending");
    assert!(
        due_in > 3000.0,
        "the paused sender snoozed it: due in {due_in} s"
    );
    assert_eq!(setup.sim.counters().requests_by_method["sendMessage"], 1);
    running.stop().await.unwrap();
}

#[tokio::test]
async fn a_blocked_user_and_a_missing_chat_fail_at_once_and_pause_recurring_tasks() {
    let setup = Setup::new(SimConfig::default()).await;
    let blocked = setup.users(3_200_000, 1)[0];
    setup
        .sim
        .set_user_state(blocked, UserState::Blocked)
        .unwrap();
    let missing = 3_200_777; // never known to the simulator: "chat not found"
    let tasks = setup
        .seed(&[(blocked, Utc::now()), (missing, Utc::now())])
        .await;
    // A recurring task of each chat, due tomorrow: paused, its pending reminder cancelled.
    for chat in [blocked, missing] {
        let daily = NewTask {
            chat_id: chat,
            owner_id: chat,
            text: TaskText::parse("daily").unwrap(),
            due_at: Utc::now() + chrono::Duration::days(1),
            lead: chrono::Duration::zero(),
            recurrence: Some(
                Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(9, 0, 0).unwrap())
                    .unwrap(),
            ),
            tz: Tz::UTC,
        };
        let mut tx = setup.pool.begin().await.unwrap();
        tasks::create(&mut tx, &setup.queue, &daily).await.unwrap();
        tx.commit().await.unwrap();
    }
    let running = setup.start(setup.config(25, 1)).await;
    eventually(Duration::from_secs(10), "both failed", || async {
        let failed: i64 = sqlx::query_scalar("select count(*) from jobs where state = 'failed'")
            .fetch_one(&setup.pool)
            .await
            .unwrap();
        failed == 2
    })
    .await;
    for (task, reason) in [(tasks[0], "blocked"), (tasks[1], "chat not found")] {
        let (state, attempts, last_error, _) = job_of_task(&setup.pool, task).await;
        assert_eq!((state.as_str(), attempts), ("failed", 1));
        assert!(
            last_error.as_deref().unwrap().contains(reason),
            "{last_error:?}"
        );
    }
    let chats: Vec<(i64, bool, String)> = sqlx::query_as(
        "select c.chat_id, c.reachable, t.state from chats c join tasks t using (chat_id)
         where t.rule is not null order by c.chat_id",
    )
    .fetch_all(&setup.pool)
    .await
    .unwrap();
    assert_eq!(
        chats,
        vec![
            (blocked, false, "paused".into()),
            (missing, false, "paused".into())
        ]
    );
    let pending: i64 = sqlx::query_scalar("select count(*) from jobs where state = 'pending'")
        .fetch_one(&setup.pool)
        .await
        .unwrap();
    assert_eq!(pending, 0, "{:?}", setup.job_states().await);
    assert_eq!(setup.sim.counters().requests_by_method["sendMessage"], 2);

    // The blocked user writes again: the daily task resumes at its next occurrence.
    let mut tx = setup.pool.begin().await.unwrap();
    let resumed = reachability::resume(&mut tx, &setup.queue, blocked)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(resumed, 1);
    let (reachable, state, due_in): (bool, String, f64) = sqlx::query_as(
        "select c.reachable, t.state, extract(epoch from j.run_at - now())::float8
         from chats c join tasks t using (chat_id) join reminders r on r.task_id = t.id
         join jobs j on j.id = r.job_id
         where c.chat_id = $1 and t.rule is not null and j.state = 'pending'",
    )
    .bind(blocked)
    .fetch_one(&setup.pool)
    .await
    .unwrap();
    assert!(reachable);
    assert_eq!(state, "open");
    assert!(due_in > 0.0);
    running.stop().await.unwrap();
}

#[tokio::test]
async fn a_reminder_for_a_migrated_group_reaches_the_supergroup() {
    let setup = Setup::new(SimConfig::default()).await;
    let group = setup
        .sim
        .create_group(NewGroup::new("team"))
        .unwrap()
        .chat
        .id;
    let supergroup = setup.sim.upgrade_group(group, None).unwrap();
    let task = setup.seed(&[(group, Utc::now())]).await[0];
    let running = setup.start(setup.config(25, 1)).await;
    setup.wait_sent(1, Duration::from_secs(10)).await;
    assert_eq!(setup.bot_messages(supergroup).len(), 1);
    let chat: i64 = sqlx::query_scalar("select chat_id from tasks where id = $1")
        .bind(task)
        .fetch_one(&setup.pool)
        .await
        .unwrap();
    assert_eq!(chat, supergroup);
    running.stop().await.unwrap();
}

#[tokio::test]
async fn an_unreadable_answer_after_delivery_counts_as_sent_and_is_not_sent_again() {
    let setup = Setup::new(SimConfig::default()).await;
    let chat = setup.users(3_300_000, 1)[0];
    setup.sim.add_fault(
        FaultRule::new(FaultAction::Raw {
            status: 200,
            body: r#"{"ok":true,"result":{"message_id":"not a number"}}"#.into(),
            after_processing: true,
        })
        .method("sendMessage")
        .times(1),
    );
    let task = setup.seed(&[(chat, Utc::now())]).await[0];
    let running = setup.start(setup.config(25, 1)).await;
    setup.wait_sent(1, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(setup.bot_messages(chat).len(), 1);
    let (state, attempts, _, _) = job_of_task(&setup.pool, task).await;
    assert_eq!((state.as_str(), attempts), ("done", 1));
    running.stop().await.unwrap();
}
