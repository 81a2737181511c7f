//! Chats that Telegram stops delivering to, and every way back: an admin's Retry, the user
//! unblocking the bot (without writing), the bot added back to a group, and Telegram delivering
//! to a chat that was marked unreachable. Each way back resumes the chat's paused tasks; and a
//! reminder whose task is deleted while it is being sent frees its worker at once.

use pgqueue::JobId;
use std::time::Duration;

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::JobState;
use remindbot::admin::actions::{self, ActionResult};
use remindbot::domain::ids::{ChatId, TaskId, UserId};
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::outbox::OutboxJob;
use remindbot::store::reachability;
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::ChatKind;
use tgsim::{BotMembership, FaultAction, FaultRule, NewGroup, UserState};

use crate::app::{TestApp, text};
use crate::support::{WAIT, eventually, job_of_task, reminders_with_jobs};

/// A daily task of `chat` at 09:00 UTC starting tomorrow; returns its id.
async fn daily_task(app: &TestApp, chat: i64, text: &str) -> i64 {
    let kind = if chat < 0 {
        ChatKind::Group
    } else {
        ChatKind::Private
    };
    remindbot::store::chats::upsert(
        &app.pool,
        ChatId(chat),
        kind,
        remindbot::domain::lang::Lang::En,
    )
    .await
    .unwrap();
    let new = NewTask {
        chat_id: ChatId(chat),
        owner_id: UserId(chat.abs()),
        text: TaskText::parse(text).unwrap(),
        due_at: Utc::now() + chrono::Duration::days(1),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(
            Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(9, 0, 0).unwrap()).unwrap(),
        ),
        tz: Tz::UTC,
    };
    let mut tx = app.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &app.queue, &new).await.unwrap();
    tx.commit().await.unwrap();
    task.id.0
}

/// `(chat reachable, task state, pending jobs of the task)`.
async fn standing(app: &TestApp, task: i64) -> (bool, String, i64) {
    let (reachable, state): (bool, String) = sqlx::query_as(
        "select c.reachable, t.state from tasks t join chats c using (chat_id) where t.id = $1",
    )
    .bind(task)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let pending = reminders_with_jobs(&app.pool, task)
        .await
        .iter()
        .filter(|r| r.job.state == JobState::Pending)
        .count();
    (reachable, state, pending as i64)
}

async fn wait_for_standing(app: &TestApp, task: i64, expected: (bool, &str, i64), what: &str) {
    eventually(WAIT, what, || async {
        let (reachable, state, pending) = standing(app, task).await;
        (reachable, state.as_str(), pending) == expected
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_retry_resumes_the_chats_paused_tasks() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let user = app.users(3_500_000, 1)[0];
    let daily = daily_task(&app, user, "evening walk").await;
    // The account is deactivated (no update tells the bot): the next reminder fails with 403.
    app.sim
        .set_user_state(user, UserState::Deactivated)
        .unwrap();
    let one_off = app.seed(&[(user, Utc::now())]).await[0];
    app.run().await;
    wait_for_standing(&app, daily, (false, "paused", 0), "the daily task to pause").await;

    // The account is back; an admin retries the failed reminder.
    app.sim.set_user_state(user, UserState::Started).unwrap();
    let job = job_of_task(&app.pool, one_off).await.id;
    assert_eq!(
        actions::retry(&app.queue, "admin:test", job).await.unwrap(),
        ActionResult::Retried(vec![job])
    );
    assert_eq!(standing(&app, daily).await, (true, "open".to_owned(), 1));
    app.wait_sent(1, WAIT).await;
    // The user sees the daily task in /list again and can finish today's occurrence.
    assert!(text(&app.say(user, "/list").await).contains("evening walk"));
    let done = app.say(user, &format!("/done {daily}")).await;
    assert!(!text(&done).contains("not found"), "{done:?}");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocking_pauses_and_unblocking_resumes_without_a_word_from_the_user() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let user = app.users(3_510_000, 1)[0];
    let daily = daily_task(&app, user, "stretch").await;
    app.run().await;
    app.sim.set_user_state(user, UserState::Blocked).unwrap();
    wait_for_standing(
        &app,
        daily,
        (false, "paused", 0),
        "blocking to pause the task",
    )
    .await;
    app.sim.set_user_state(user, UserState::Started).unwrap();
    wait_for_standing(&app, daily, (true, "open", 1), "unblocking to resume it").await;
    assert!(app.bot_messages(user).is_empty());
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_that_removes_the_bot_pauses_and_one_that_adds_it_back_resumes() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let group = app
        .sim
        .create_group(NewGroup::new("family"))
        .unwrap()
        .chat
        .id;
    let daily = daily_task(&app, group, "take out the bins").await;
    app.run().await;
    app.sim
        .set_membership(group, BotMembership::Kicked, None)
        .unwrap();
    wait_for_standing(
        &app,
        daily,
        (false, "paused", 0),
        "the kick to pause the task",
    )
    .await;
    app.sim
        .set_membership(group, BotMembership::Member, None)
        .unwrap();
    wait_for_standing(
        &app,
        daily,
        (true, "open", 1),
        "the bot's return to resume it",
    )
    .await;
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_decides_not_a_stale_flag_and_a_delivery_resumes_the_chat() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let user = app.users(3_520_000, 1)[0];
    let daily = daily_task(&app, user, "vitamins").await;
    // The chat was marked unreachable once, but the user can be reached again.
    let mut tx = app.pool.begin().await.unwrap();
    reachability::mark_unreachable(
        &mut tx,
        ChatId(user),
        "Forbidden: bot was blocked by the user",
        None,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(standing(&app, daily).await, (false, "paused".to_owned(), 0));
    app.seed(&[(user, Utc::now())]).await;
    app.run().await;
    app.wait_sent(1, WAIT).await;
    assert_eq!(app.bot_messages(user).len(), 1);
    wait_for_standing(
        &app,
        daily,
        (true, "open", 1),
        "the delivery to resume the chat",
    )
    .await;
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_deleted_while_it_is_sent_frees_its_worker_at_once() {
    let mut app = TestApp::builder()
        .telegram_limits()
        .config(|c| c.delivery.workers = 1)
        .prepare()
        .await;
    let users = app.users(3_530_000, 2);
    app.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 1500,
            max_ms: 1500,
        })
        .method("sendMessage")
        .chat(users[0])
        .times(1),
    );
    let first = app.seed(&[(users[0], Utc::now())]).await[0];
    app.run().await;
    // The message reached the user; Telegram's answer is still on its way when the task goes.
    app.sim
        .wait_for_transcript(users[0], WAIT, |t| t.iter().any(|e| e.from_bot))
        .await
        .unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    tasks::delete(&mut tx, ChatId(users[0]), TaskId(first))
        .await
        .unwrap()
        .unwrap();
    tx.commit().await.unwrap();
    // The only worker is free at once: the next reminder goes out within seconds, not a minute
    // (a bound on purpose shorter than WAIT and than the 8 s lease).
    app.seed(&[(users[1], Utc::now())]).await;
    app.sim
        .wait_for_transcript(users[1], Duration::from_secs(5), |t| {
            t.iter().any(|e| e.from_bot)
        })
        .await
        .expect("the next reminder is sent");
    app.stop().await;
}

/// The chat's agenda: whether it is paused, and its job (id, state, due time), if it has one.
async fn agenda_standing(
    app: &TestApp,
    chat: i64,
) -> (bool, Option<(i64, JobState, chrono::DateTime<Utc>)>) {
    let (paused, job): (bool, Option<i64>) =
        sqlx::query_as("select paused, job_id from agendas where chat_id = $1")
            .bind(chat)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    let job = match job {
        Some(id) => {
            let info = crate::support::job_by_id(&app.pool, JobId(id)).await;
            Some((id, info.state, info.run_at))
        }
        None => None,
    };
    (paused, job)
}

/// The agenda jobs of the outbox in `state`.
async fn agenda_jobs_in(app: &TestApp, state: JobState) -> usize {
    pgqueue::list(&app.pool, remindbot::store::OUTBOX_QUEUE, Some(state), 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|job| matches!(job.args::<OutboxJob>(), Ok(OutboxJob::Agenda(_))))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agenda_pauses_with_its_chat_and_comes_back_on_every_way_back() {
    let app = TestApp::start().await;
    let berlin: Tz = chrono_tz::Europe::Berlin;
    let eight = NaiveTime::from_hms_opt(8, 0, 0).unwrap();
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    app.say(ann, "/agenda 8:00").await;
    let (_, first) = agenda_standing(&app, ann).await;
    let (first, state, _) = first.expect("a job for the next morning");
    assert_eq!(state, JobState::Pending);

    // Blocked: the agenda pauses, its job is cancelled and no morning will fail.
    app.sim.set_user_state(ann, UserState::Blocked).unwrap();
    eventually(WAIT, "the agenda to pause", || async {
        agenda_standing(&app, ann).await == (true, None)
    })
    .await;
    assert_eq!(
        crate::support::job_by_id(&app.pool, JobId(first))
            .await
            .state,
        JobState::Cancelled
    );
    assert_eq!(agenda_jobs_in(&app, JobState::Pending).await, 0);

    // Unblocked (no message needed): scheduled again for its next morning.
    app.sim.set_user_state(ann, UserState::Started).unwrap();
    eventually(WAIT, "the agenda to resume", || async {
        matches!(
            agenda_standing(&app, ann).await,
            (false, Some((_, JobState::Pending, _)))
        )
    })
    .await;
    let (_, Some((resumed, _, run_at))) = agenda_standing(&app, ann).await else {
        unreachable!("checked above")
    };
    let now = crate::support::db_now(&app.pool).await;
    assert_eq!(
        run_at,
        remindbot::store::agenda::next_at(eight, berlin, now - chrono::Duration::seconds(30))
    );

    // Gone without a word (a deleted account): the morning's agenda fails once, and the next
    // one is not scheduled to fail again.
    app.sim.set_user_state(ann, UserState::Deactivated).unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    pgqueue::maintenance::reschedule_job(&mut tx, JobId(resumed), now)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    eventually(WAIT, "the agenda to fail and pause", || async {
        crate::support::job_by_id(&app.pool, JobId(resumed))
            .await
            .state
            == JobState::Failed
            && agenda_standing(&app, ann).await == (true, None)
    })
    .await;
    assert_eq!(agenda_jobs_in(&app, JobState::Pending).await, 0);
    assert_eq!(agenda_jobs_in(&app, JobState::Failed).await, 1);

    // Back by writing: the agenda is on again, for its next morning.
    app.sim.set_user_state(ann, UserState::Started).unwrap();
    let shown = app.say(ann, "/agenda").await;
    assert!(text(&shown).contains("08:00"), "{shown:?}");
    let (paused, job) = agenda_standing(&app, ann).await;
    assert!(!paused);
    assert!(
        matches!(job, Some((_, JobState::Pending, at)) if at > now),
        "{job:?}"
    );
    assert_eq!(agenda_jobs_in(&app, JobState::Failed).await, 1);
}
