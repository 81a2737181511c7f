//! Admin commands in the chat: refused exactly like unknown commands for anyone not in
//! ADMIN_CHAT_IDS; for admins /failed shows the reminders the delivery workers could not deliver,
//! with their reasons and buttons, Retry (which delivers once the user is reachable) and Cancel
//! act on the job (and are recorded), /retry and /stats work.

use pgqueue::JobId;
use pgqueue::JobState;
use tgsim::{NewUser, UserState};

use crate::app::{TestApp, buttons, text};
use crate::support::{WAIT, eventually, job_by_id, task_due_now};

/// The admin of [`app_with_admin`].
pub const ADMIN: i64 = 900_001;

/// The app with one admin, [`ADMIN`], a user of the simulator.
pub async fn app_with_admin() -> TestApp {
    let app = TestApp::builder()
        .config(|c| c.bot.admin_ids = vec![ADMIN])
        .start()
        .await;
    app.sim
        .create_user(NewUser::new("Ada").id(ADMIN).language("en"))
        .unwrap();
    app
}

/// Why Telegram refuses a reminder, as the simulator plays it.
#[derive(Clone, Copy)]
enum Refusal {
    /// "Forbidden: bot was blocked by the user".
    Blocked,
    /// "Bad Request: chat not found": no such chat.
    ChatNotFound,
    /// "Forbidden: user is deactivated".
    Deactivated,
}

/// A reminder for chat `chat` that the delivery workers fail for `refusal`; returns its job id.
async fn seed_failure(app: &TestApp, chat: i64, refusal: Refusal) -> i64 {
    let state = match refusal {
        Refusal::Blocked => Some(UserState::Blocked),
        Refusal::ChatNotFound => None,
        Refusal::Deactivated => Some(UserState::Deactivated),
    };
    if let Some(state) = state {
        app.sim
            .create_user(NewUser::new("Bo").id(chat).state(state))
            .unwrap();
    }
    let task = task_due_now(&app.pool, &app.queue, chat, "water <the> plants & more").await;
    let id = crate::support::job_of_task(&app.pool, task).await.id;
    eventually(WAIT, "the reminder to fail", || async {
        job_by_id(&app.pool, id).await.state == JobState::Failed
    })
    .await;
    id.0
}

/// Waits until the reminder of job `id` has been delivered to `chat`.
async fn wait_delivered(app: &TestApp, id: i64, chat: i64) {
    eventually(WAIT, "the retried reminder to be delivered", || async {
        job_by_id(&app.pool, JobId(id)).await.state == JobState::Done
    })
    .await;
    assert_eq!(app.bot_messages(chat).len(), 1, "delivered once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn to_anyone_else_the_admin_commands_are_unknown_commands() {
    let mut app = app_with_admin().await;
    let job = seed_failure(&app, 4242, Refusal::Blocked).await;
    let stranger = app.user("Eve", "ru");
    let unknown = text(&app.say(stranger, "/frobnicate").await).to_owned();
    for command in [
        "/failed",
        "/failed 2",
        "/retry all",
        &format!("/retry {job}"),
        "/stats",
    ] {
        let reply = app.say(stranger, command).await;
        assert_eq!(text(&reply), unknown, "{command}");
        assert!(buttons(&reply).is_empty());
    }
    assert_eq!(
        job_by_id(&app.pool, JobId(job)).await.state,
        JobState::Failed
    );
    let actions: i64 = sqlx::query_scalar("select count(*) from admin_actions")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(actions, 0);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admins_see_failures_with_reasons_and_retry_or_cancel_them() {
    let mut app = app_with_admin().await;
    let blocked = seed_failure(&app, 4242, Refusal::Blocked).await;
    let missing = seed_failure(&app, 4343, Refusal::ChatNotFound).await;

    let listing = app.say(ADMIN, "/failed").await;
    let shown = text(&listing);
    assert!(shown.contains("Failed reminders: 2"), "{shown}");
    assert!(shown.contains("bot was blocked by the user") && shown.contains("chat not found"));
    assert!(
        shown.contains("water <the> plants & more"),
        "user text shown as text: {shown}"
    );
    let data = buttons(&listing);
    assert!(data.contains(&format!("ar:{blocked}")) && data.contains(&format!("ac:{missing}")));

    // The user unblocks the bot; the admin retries their reminder, and it arrives.
    app.sim.set_user_state(4242, UserState::Started).unwrap();
    let answer = app
        .tap(ADMIN, listing.message_id, ADMIN, &format!("ar:{blocked}"))
        .await;
    assert_eq!(
        answer.answer.unwrap().text.as_deref(),
        Some("Back in the queue.")
    );
    wait_delivered(&app, blocked, 4242).await;
    let answer = app
        .tap(ADMIN, listing.message_id, ADMIN, &format!("ac:{missing}"))
        .await;
    assert_eq!(answer.answer.unwrap().text.as_deref(), Some("Cancelled."));
    assert_eq!(
        job_by_id(&app.pool, JobId(missing)).await.state,
        JobState::Cancelled
    );
    let answer = app
        .tap(ADMIN, listing.message_id, ADMIN, &format!("ac:{missing}"))
        .await;
    assert_eq!(
        answer.answer.unwrap().text.as_deref(),
        Some("This reminder is no longer failed.")
    );

    let stats = app.say(ADMIN, "/stats").await;
    assert!(
        text(&stats).contains("cancelled: 1") && text(&stats).contains("done: "),
        "{}",
        text(&stats)
    );
    assert!(text(&app.say(ADMIN, "/failed").await).contains("No failed reminders."));
    let third = seed_failure(&app, 4444, Refusal::Deactivated).await;
    app.sim.set_user_state(4444, UserState::Started).unwrap();
    let retried = app.say(ADMIN, "/retry all").await;
    assert!(
        text(&retried).contains("1 reminder is back in the queue."),
        "{}",
        text(&retried)
    );
    wait_delivered(&app, third, 4444).await;

    let log: Vec<String> =
        sqlx::query_scalar("select actor || ' ' || action from admin_actions order by id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(
        log,
        [
            format!("bot:{ADMIN} retry"),
            format!("bot:{ADMIN} cancel"),
            format!("bot:{ADMIN} retry all")
        ]
    );
    app.stop().await;
}

/// Users unblock the bot and an admin taps Retry on their reminders while the bot is down: the
/// updates wait for it and are handled together (an unblock locks its user's chat in the
/// transaction it is handled in), and every tap is still answered and every reminder delivered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_tapped_as_their_users_unblock_the_bot_are_answered_and_deliver() {
    let mut app = app_with_admin().await;
    let chats = [4242, 4243, 4244];
    let mut jobs = Vec::new();
    for chat in chats {
        jobs.push(seed_failure(&app, chat, Refusal::Blocked).await);
    }
    let listing = app.say(ADMIN, "/failed").await;
    app.stop().await;
    let mut taps = Vec::new();
    for (chat, job) in chats.into_iter().zip(&jobs) {
        app.sim.set_user_state(chat, UserState::Started).unwrap();
        let data = format!("ar:{job}");
        taps.push(
            app.sim
                .tap(ADMIN, listing.message_id, Some(ADMIN), &data)
                .unwrap(),
        );
    }
    app.run().await;
    for tap in &taps {
        let answer = app
            .sim
            .wait_for_answer(tap, WAIT)
            .await
            .expect("the tap is answered");
        assert_eq!(
            answer.answer.unwrap().text.as_deref(),
            Some("Back in the queue.")
        );
    }
    for (chat, job) in chats.into_iter().zip(jobs) {
        wait_delivered(&app, job, chat).await;
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_group_the_admin_commands_show_nothing_even_to_an_admin() {
    let mut app = app_with_admin().await;
    let job = seed_failure(&app, 4242, Refusal::Blocked).await;
    let group = app.group("Team");
    let unknown = text(&app.say_in(group, ADMIN, "/frobnicate").await).to_owned();
    for command in ["/failed", "/stats", "/retry all", &format!("/retry {job}")] {
        let reply = app.say_in(group, ADMIN, command).await;
        assert_eq!(text(&reply), unknown, "{command}");
        assert!(buttons(&reply).is_empty(), "{command}");
        assert!(!text(&reply).contains("blocked"), "{command}");
    }
    assert_eq!(
        job_by_id(&app.pool, JobId(job)).await.state,
        JobState::Failed
    );
    app.stop().await;
}
