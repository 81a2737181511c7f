//! Chats that Telegram stops delivering to, and every way back: an admin's Retry, the user
//! unblocking the bot (without writing), the bot added back to a group, and Telegram delivering
//! to a chat that was marked unreachable. Each way back resumes the chat's paused tasks; and a
//! reminder whose task is deleted while it is being sent frees its worker at once.

use std::time::Duration;

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::JobState;
use remindbot::admin::actions::{self, ActionResult};
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::reachability;
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::ChatKind;
use tgsim::{BotMembership, FaultAction, FaultRule, NewGroup, SimConfig, UserState};

use crate::delivery_support::Setup;
use crate::support::{eventually, job_of_task, reminders_with_jobs};

const WAIT: Duration = Duration::from_secs(10);

/// A daily task of `chat` at 09:00 UTC starting tomorrow; returns its id.
async fn daily_task(setup: &Setup, chat: i64, text: &str) -> i64 {
    let kind = if chat < 0 {
        ChatKind::Group
    } else {
        ChatKind::Private
    };
    remindbot::store::chats::upsert(&setup.pool, chat, kind, remindbot::domain::lang::Lang::En)
        .await
        .unwrap();
    let new = NewTask {
        chat_id: chat,
        owner_id: chat.abs(),
        text: TaskText::parse(text).unwrap(),
        due_at: Utc::now() + chrono::Duration::days(1),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(
            Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(9, 0, 0).unwrap()).unwrap(),
        ),
        tz: Tz::UTC,
    };
    let mut tx = setup.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &setup.queue, &new).await.unwrap();
    tx.commit().await.unwrap();
    task.id
}

/// `(chat reachable, task state, pending jobs of the task)`.
async fn standing(setup: &Setup, task: i64) -> (bool, String, i64) {
    let (reachable, state): (bool, String) = sqlx::query_as(
        "select c.reachable, t.state from tasks t join chats c using (chat_id) where t.id = $1",
    )
    .bind(task)
    .fetch_one(&setup.pool)
    .await
    .unwrap();
    let pending = reminders_with_jobs(&setup.pool, task)
        .await
        .iter()
        .filter(|r| r.job.state == JobState::Pending)
        .count();
    (reachable, state, pending as i64)
}

async fn wait_for_standing(setup: &Setup, task: i64, expected: (bool, &str, i64), what: &str) {
    eventually(WAIT, what, || async {
        let (reachable, state, pending) = standing(setup, task).await;
        (reachable, state.as_str(), pending) == expected
    })
    .await;
}

/// The user writes `text`; returns the text of the bot's first reply.
async fn say(setup: &Setup, user: i64, text: &str) -> String {
    let sent = setup.sim.user_says_in(user, user, text, None).unwrap();
    let newer = |e: &tgsim::TranscriptEntry| e.from_bot && e.message_id > sent.message_id;
    let transcript = setup
        .sim
        .wait_for_transcript(user, WAIT, |t| t.iter().any(newer))
        .await
        .unwrap();
    transcript
        .into_iter()
        .find(newer)
        .and_then(|e| e.text)
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_retry_resumes_the_chats_paused_tasks() {
    let setup = Setup::new(SimConfig::default()).await;
    let user = setup.users(3_500_000, 1)[0];
    let daily = daily_task(&setup, user, "evening walk").await;
    // The account is deactivated (no update tells the bot): the next reminder fails with 403.
    setup
        .sim
        .set_user_state(user, UserState::Deactivated)
        .unwrap();
    let one_off = setup.seed(&[(user, Utc::now())]).await[0];
    let running = setup.start(setup.config(25, 1)).await;
    wait_for_standing(
        &setup,
        daily,
        (false, "paused", 0),
        "the daily task to pause",
    )
    .await;

    // The account is back; an admin retries the failed reminder.
    setup.sim.set_user_state(user, UserState::Started).unwrap();
    let job = job_of_task(&setup.pool, one_off).await.id;
    assert_eq!(
        actions::retry(&setup.queue, "admin:test", job)
            .await
            .unwrap(),
        ActionResult::Retried(vec![job])
    );
    assert_eq!(standing(&setup, daily).await, (true, "open".to_owned(), 1));
    setup.wait_sent(1, WAIT).await;
    // The user sees the daily task in /list again and can finish today's occurrence.
    assert!(say(&setup, user, "/list").await.contains("evening walk"));
    let done = say(&setup, user, &format!("/done {daily}")).await;
    assert!(!done.contains("not found"), "{done}");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocking_pauses_and_unblocking_resumes_without_a_word_from_the_user() {
    let setup = Setup::new(SimConfig::default()).await;
    let user = setup.users(3_510_000, 1)[0];
    let daily = daily_task(&setup, user, "stretch").await;
    let running = setup.start(setup.config(25, 1)).await;
    setup
        .sim
        .wait_for_polls_started(1, WAIT)
        .await
        .expect("the bot polls");
    setup.sim.set_user_state(user, UserState::Blocked).unwrap();
    wait_for_standing(
        &setup,
        daily,
        (false, "paused", 0),
        "blocking to pause the task",
    )
    .await;
    setup.sim.set_user_state(user, UserState::Started).unwrap();
    wait_for_standing(&setup, daily, (true, "open", 1), "unblocking to resume it").await;
    assert!(setup.bot_messages(user).is_empty());
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_that_removes_the_bot_pauses_and_one_that_adds_it_back_resumes() {
    let setup = Setup::new(SimConfig::default()).await;
    let group = setup
        .sim
        .create_group(NewGroup::new("family"))
        .unwrap()
        .chat
        .id;
    let daily = daily_task(&setup, group, "take out the bins").await;
    let running = setup.start(setup.config(25, 1)).await;
    setup
        .sim
        .wait_for_polls_started(1, WAIT)
        .await
        .expect("the bot polls");
    setup
        .sim
        .set_membership(group, BotMembership::Kicked, None)
        .unwrap();
    wait_for_standing(
        &setup,
        daily,
        (false, "paused", 0),
        "the kick to pause the task",
    )
    .await;
    setup
        .sim
        .set_membership(group, BotMembership::Member, None)
        .unwrap();
    wait_for_standing(
        &setup,
        daily,
        (true, "open", 1),
        "the bot's return to resume it",
    )
    .await;
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_decides_not_a_stale_flag_and_a_delivery_resumes_the_chat() {
    let setup = Setup::new(SimConfig::default()).await;
    let user = setup.users(3_520_000, 1)[0];
    let daily = daily_task(&setup, user, "vitamins").await;
    // The chat was marked unreachable once, but the user can be reached again.
    let mut tx = setup.pool.begin().await.unwrap();
    reachability::mark_unreachable(
        &mut tx,
        user,
        "Forbidden: bot was blocked by the user",
        None,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        standing(&setup, daily).await,
        (false, "paused".to_owned(), 0)
    );
    setup.seed(&[(user, Utc::now())]).await;
    let running = setup.start(setup.config(25, 1)).await;
    setup.wait_sent(1, WAIT).await;
    assert_eq!(setup.bot_messages(user).len(), 1);
    wait_for_standing(
        &setup,
        daily,
        (true, "open", 1),
        "the delivery to resume the chat",
    )
    .await;
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_deleted_while_it_is_sent_frees_its_worker_at_once() {
    let setup = Setup::new(SimConfig::default()).await;
    let users = setup.users(3_530_000, 2);
    setup.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 1500,
            max_ms: 1500,
        })
        .method("sendMessage")
        .chat(users[0])
        .times(1),
    );
    let first = setup.seed(&[(users[0], Utc::now())]).await[0];
    let mut config = setup.config(25, 1);
    config.delivery.workers = 1;
    let running = setup.start(config).await;
    // The message reached the user; Telegram's answer is still on its way when the task goes.
    setup
        .sim
        .wait_for_transcript(users[0], WAIT, |t| t.iter().any(|e| e.from_bot))
        .await
        .unwrap();
    let mut tx = setup.pool.begin().await.unwrap();
    tasks::delete(&mut tx, users[0], first)
        .await
        .unwrap()
        .unwrap();
    tx.commit().await.unwrap();
    // The only worker is free at once: the next reminder goes out within seconds, not a minute.
    setup.seed(&[(users[1], Utc::now())]).await;
    setup
        .sim
        .wait_for_transcript(users[1], Duration::from_secs(5), |t| {
            t.iter().any(|e| e.from_bot)
        })
        .await
        .expect("the next reminder is sent");
    running.stop().await.unwrap();
}
