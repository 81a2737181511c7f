//! The per-user message rate is one count for every replica on the database: a user who used up
//! their minute on one replica is told to wait by the next, and then ignored.

use std::num::NonZeroU32;

use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;

use crate::app::{TestApp, text};
use crate::support::{WAIT, eventually};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_users_rate_is_shared_by_two_replicas_on_one_database() {
    let mut app = TestApp::builder()
        .config(|c| c.bot.user_updates_per_minute = NonZeroU32::new(4).unwrap())
        .start()
        .await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    for i in 0..3 {
        let saved = app.say(ann, &format!("task {i} tomorrow 9:00")).await;
        assert!(text(&saved).contains("Task saved"), "{saved:?}");
    }
    // The second replica takes over; the first stops.
    let second = app.replica(|_| {}).await;
    app.stop().await;
    let slowed = app.say(ann, "task 3 tomorrow 9:00").await;
    assert_eq!(text(&slowed), tr.t("rate-limited"));
    app.sim.user_says(ann, "task 4 tomorrow 9:00").unwrap();
    app.sim.user_says(ann, "task 5 tomorrow 9:00").unwrap();
    eventually(WAIT, "every update handled", || async {
        let waiting: i64 =
            sqlx::query_scalar("select count(*) from updates where handled_at is null")
                .fetch_one(&app.pool)
                .await
                .unwrap();
        waiting == 0
    })
    .await;
    let tasks: i64 = sqlx::query_scalar("select count(*) from tasks")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(tasks, 3, "nothing over the rate saved");
    let warnings = app
        .bot_messages(ann)
        .iter()
        .filter(|m| **m == tr.t("rate-limited"))
        .count();
    assert_eq!(warnings, 1, "one warning, then silence");
    second.stop().await.unwrap();
}
