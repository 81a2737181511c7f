//! Admin commands in the chat: refused exactly like unknown commands for anyone not in
//! ADMIN_CHAT_IDS; for admins /failed shows the failures with their reasons and buttons, Retry and
//! Cancel act on the job (and are recorded), /retry and /stats work.

use pgqueue::{JobState, QueueConfig};
use remindbot::bot::BotSettings;
use remindbot::store::{REMINDER_QUEUE, reminder_queue};
use tgsim::NewUser;

use crate::bot_support::{TestApp, buttons, text};
use crate::support::task_due_now;

const ADMIN: i64 = 900_001;

async fn app_with_admin() -> TestApp {
    let settings = BotSettings {
        admin_ids: vec![ADMIN],
        ..BotSettings::default()
    };
    let app = TestApp::with_settings(settings).await;
    app.sim
        .create_user(NewUser::new("Ada").id(ADMIN).language("en"))
        .unwrap();
    app
}

/// A reminder for chat 4242 whose delivery failed with `reason`; returns its job id.
async fn seed_failure(app: &TestApp, reason: &str) -> i64 {
    let pool = &app.db.pool;
    let queue = reminder_queue(pool.clone(), QueueConfig::new(REMINDER_QUEUE));
    task_due_now(pool, &queue, 4242, "water <the> plants & more").await;
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.fail(pool, &job, reason).await.unwrap();
    job.id
}

async fn job_state(app: &TestApp, id: i64) -> JobState {
    pgqueue::inspect(&app.db.pool, id)
        .await
        .unwrap()
        .expect("the job exists")
        .state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn to_anyone_else_the_admin_commands_are_unknown_commands() {
    let app = app_with_admin().await;
    let job = seed_failure(&app, "Forbidden: bot was blocked by the user").await;
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
    assert_eq!(job_state(&app, job).await, JobState::Failed);
    let actions: i64 = sqlx::query_scalar("select count(*) from admin_actions")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(actions, 0);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admins_see_failures_with_reasons_and_retry_or_cancel_them() {
    let app = app_with_admin().await;
    let blocked = seed_failure(&app, "Forbidden: bot was blocked by the user").await;
    let missing = seed_failure(&app, "Bad Request: chat not found").await;

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

    let answer = app
        .tap(ADMIN, listing.message_id, ADMIN, &format!("ar:{blocked}"))
        .await;
    assert_eq!(
        answer.answer.unwrap().text.as_deref(),
        Some("Back in the queue.")
    );
    assert_eq!(job_state(&app, blocked).await, JobState::Pending);
    let answer = app
        .tap(ADMIN, listing.message_id, ADMIN, &format!("ac:{missing}"))
        .await;
    assert_eq!(answer.answer.unwrap().text.as_deref(), Some("Cancelled."));
    assert_eq!(job_state(&app, missing).await, JobState::Cancelled);
    let answer = app
        .tap(ADMIN, listing.message_id, ADMIN, &format!("ac:{missing}"))
        .await;
    assert_eq!(
        answer.answer.unwrap().text.as_deref(),
        Some("This reminder is no longer failed.")
    );

    let stats = app.say(ADMIN, "/stats").await;
    assert!(text(&stats).contains("cancelled: 1") && text(&stats).contains("pending: 1"));
    assert!(text(&app.say(ADMIN, "/failed").await).contains("No failed reminders."));
    let third = seed_failure(&app, "Forbidden: user is deactivated").await;
    let retried = app.say(ADMIN, "/retry all").await;
    assert!(
        text(&retried).contains("1 reminder is back in the queue."),
        "{}",
        text(&retried)
    );
    assert_eq!(job_state(&app, third).await, JobState::Pending);

    let log: Vec<String> =
        sqlx::query_scalar("select actor || ' ' || action from admin_actions order by id")
            .fetch_all(&app.db.pool)
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_group_the_admin_commands_show_nothing_even_to_an_admin() {
    let app = app_with_admin().await;
    let job = seed_failure(&app, "Forbidden: bot was blocked by the user").await;
    let group = app.group("Team");
    let unknown = text(&app.say_in(group, ADMIN, "/frobnicate").await).to_owned();
    for command in ["/failed", "/stats", "/retry all", &format!("/retry {job}")] {
        let reply = app.say_in(group, ADMIN, command).await;
        assert_eq!(text(&reply), unknown, "{command}");
        assert!(buttons(&reply).is_empty(), "{command}");
        assert!(!text(&reply).contains("blocked"), "{command}");
    }
    assert_eq!(job_state(&app, job).await, JobState::Failed);
    app.stop().await;
}
