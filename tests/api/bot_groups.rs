//! Who may do what in a group: a task's creator or a group administrator (as Telegram's
//! getChatMember says) may finish, delete, undo, edit or snooze it, and only administrators change
//! the group's language, zone and lead; anyone may choose the zone of a group that has none yet.
//! Everyone else is told so and nothing changes. Telegram is asked outside the update's
//! transaction, and a look-up that fails is refused at once without holding the group's updates.

use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;
use std::time::Duration;

use tgsim::{FaultAction, FaultRule, MemberStatus};

use crate::app::{TestApp, buttons, text};
use crate::support::{WAIT, eventually};

const BOT: &str = "remindbot_sim_bot";

/// The group's open tasks, by id.
async fn open_tasks(app: &TestApp) -> Vec<i64> {
    sqlx::query_scalar("select id from tasks where state = 'open' order by id")
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The answer shown to the user who tapped.
fn toast(status: &tgsim::CallbackStatus) -> String {
    status
        .answer
        .as_ref()
        .and_then(|a| a.text.clone())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_group_only_a_tasks_creator_or_an_admin_changes_it() {
    let mut app = TestApp::start().await;
    let en = Tr::new(Lang::En);
    let (ann, bob, eve) = (
        app.user("Ann", "en"),
        app.user("Bob", "en"),
        app.user("Eve", "en"),
    );
    let group = app.group("Flat");
    // Anyone may choose the zone of a group that has none yet.
    let start = app.say_in(group, eve, &format!("/start@{BOT}")).await;
    app.tap_reply(group, start.message_id, eve, "z:2").await;
    let card = app
        .say_in(group, bob, &format!("/add@{BOT} buy a cake tomorrow 10:00"))
        .await;
    let task = open_tasks(&app).await[0];
    app.sim.user_says_in(group, ann, "hi", None).unwrap();
    app.sim
        .set_member_status(group, ann, MemberStatus::Administrator)
        .unwrap();

    // Eve, a member, can change none of it: each tap is answered, nothing changes.
    assert_eq!(buttons(&card)[1], format!("e:{task}"));
    for data in [buttons(&card)[0].clone(), format!("e:{task}")] {
        let answer = app.tap(group, card.message_id, eve, &data).await;
        assert_eq!(toast(&answer), en.t("not-allowed-task"), "{data}");
    }
    let list = app.say_in(group, eve, &format!("/list@{BOT}")).await;
    for data in [
        format!("d:{task}"),
        format!("x:{task}"),
        format!("s:{task}:c"),
    ] {
        assert!(buttons(&list).contains(&data), "{data}");
        let answer = app.tap(group, list.message_id, eve, &data).await;
        assert_eq!(toast(&answer), en.t("not-allowed-task"), "{data}");
    }
    let refused = app.say_in(group, eve, &format!("/done@{BOT} {task}")).await;
    assert_eq!(text(&refused), en.t("not-allowed-task"));
    let refused = app
        .say_in(group, eve, &format!("/delete@{BOT} {task}"))
        .await;
    assert_eq!(text(&refused), en.t("not-allowed-task"));
    assert_eq!(open_tasks(&app).await, vec![task]);
    let extra_reminders: i64 =
        sqlx::query_scalar("select count(*) from reminders where kind = 'snooze'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(extra_reminders, 0, "a member snoozed someone else's task");
    assert_eq!(app.pending_jobs().await.len(), 1);

    // Ann administers the group: she may finish Bob's task.
    let done = app
        .tap(group, list.message_id, ann, &format!("d:{task}"))
        .await;
    assert_eq!(toast(&done), en.t("callback-done"));
    assert!(open_tasks(&app).await.is_empty());

    // Bob may change his own task.
    app.say_in(
        group,
        bob,
        &format!("/add@{BOT} call the landlord friday 18:00"),
    )
    .await;
    let own = open_tasks(&app).await[0];
    let deleted = app
        .say_in(group, bob, &format!("/delete@{BOT} {own}"))
        .await;
    assert_ne!(text(&deleted), en.t("not-allowed-task"));
    assert!(open_tasks(&app).await.is_empty());
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_group_only_admins_change_its_settings() {
    let mut app = TestApp::start().await;
    let en = Tr::new(Lang::En);
    let (ann, eve) = (app.user("Ann", "en"), app.user("Eve", "en"));
    let group = app.group("Club");
    let start = app.say_in(group, eve, &format!("/start@{BOT}")).await;
    app.tap_reply(group, start.message_id, eve, "z:2").await;
    let zone: Option<String> = sqlx::query_scalar("select tz from chats where chat_id = $1")
        .bind(group)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(zone.is_some(), "the first zone is anyone's to choose");

    for command in ["/lang@{BOT} ru", "/tz@{BOT} +3", "/settings@{BOT} 10 min"] {
        let reply = app.say_in(group, eve, &command.replace("{BOT}", BOT)).await;
        assert_eq!(text(&reply), en.t("not-allowed-settings"), "{command}");
    }
    let languages = app.say_in(group, eve, &format!("/lang@{BOT}")).await;
    let tapped = app.tap(group, languages.message_id, eve, "l:1").await;
    assert_eq!(toast(&tapped), en.t("not-allowed-settings"));
    let settings: (String, Option<String>, i32) =
        sqlx::query_as("select lang, tz, default_lead_secs from chats where chat_id = $1")
            .bind(group)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(settings, ("en".to_owned(), zone, 0));

    app.sim.user_says_in(group, ann, "hello", None).unwrap();
    app.sim
        .set_member_status(group, ann, MemberStatus::Creator)
        .unwrap();
    let changed = app.say_in(group, ann, &format!("/lang@{BOT} ru")).await;
    assert_eq!(text(&changed), Tr::new(Lang::Ru).t("lang-set"));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_members_cancel_leaves_someone_elses_question_as_it_was() {
    let mut app = TestApp::start().await;
    let (bob, eve) = (app.user("Bob", "en"), app.user("Eva", "ru"));
    let group = app.group("Flat");
    // Bob's /start asks him for the group's zone: zone buttons, then Cancel.
    let question = app.say_in(group, bob, &format!("/start@{BOT}")).await;
    let cancel = buttons(&question).last().cloned().expect("a Cancel button");
    assert!(cancel.starts_with("q:z"), "{cancel}");
    let before = buttons(&question);

    // Eve taps Cancel: told in her own language that it is not her question; nothing changes.
    let tapped = app.tap(group, question.message_id, eve, &cancel).await;
    assert_eq!(toast(&tapped), Tr::new(Lang::Ru).t("cancel-not-yours"));
    // The group's next message leaves after any edit Eve's tap had queued.
    let list = app.say_in(group, eve, &format!("/list@{BOT}")).await;
    assert!(list.message_id > question.message_id);
    let now = app.message_once(group, question.message_id, |_| true).await;
    assert_eq!(buttons(&now), before, "the question keeps its buttons");
    assert!(!now.edited, "{now:?}");

    // Bob's own Cancel closes it.
    let (cancelled, said) = app
        .tap_reply(group, question.message_id, bob, &cancel)
        .await;
    assert_eq!(toast(&cancelled), Tr::new(Lang::En).t("callback-cancelled"));
    assert!(!text(&said).is_empty());
    app.stop().await;
}

/// A group with Bob's task in it, and Eve, a member who did not create it (Telegram language
/// `ru`, no private chat with the bot); the group's language is Bob's English. Returns the group,
/// Bob, Eve, the task and Eve's list of the group's tasks (with its buttons).
async fn group_with_bobs_task(app: &TestApp) -> (i64, i64, i64, i64, tgsim::TranscriptEntry) {
    let (bob, eve) = (app.user("Bob", "en"), app.user("Eva", "ru"));
    let group = app.group("Flat");
    let start = app.say_in(group, bob, &format!("/start@{BOT}")).await;
    app.tap_reply(group, start.message_id, bob, "z:2").await;
    app.say_in(group, bob, &format!("/add@{BOT} buy a cake tomorrow 10:00"))
        .await;
    let task = open_tasks(app).await[0];
    let list = app.say_in(group, eve, &format!("/list@{BOT}")).await;
    assert!(buttons(&list).contains(&format!("d:{task}")), "{list:?}");
    (group, bob, eve, task, list)
}

/// Connections of the test's database that have been idle in a transaction for over a second.
async fn held_transactions(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "select count(*) from pg_stat_activity
         where datname = current_database() and state like 'idle in transaction%'
           and now() - state_change > interval '1 second'",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_permission_look_up_is_refused_at_once_and_the_group_goes_on() {
    let mut app = TestApp::start().await;
    let (group, bob, eve, task, list) = group_with_bobs_task(&app).await;
    // Telegram cannot be reached for getChatMember.
    app.sim.add_fault(
        FaultRule::new(FaultAction::Drop {
            after_processing: false,
        })
        .method("getChatMember"),
    );

    // Eve's tap is answered at once, in her language: not checked, nothing changed.
    let tapped = app
        .tap(group, list.message_id, eve, &format!("d:{task}"))
        .await;
    assert_eq!(toast(&tapped), Tr::new(Lang::Ru).t("permission-unchecked"));
    // Her command is answered in the group's language, and nothing changes either.
    let refused = app
        .say_in(group, eve, &format!("/delete@{BOT} {task}"))
        .await;
    assert_eq!(text(&refused), Tr::new(Lang::En).t("permission-unchecked"));
    assert_eq!(open_tasks(&app).await, vec![task]);
    // The group's next update is answered.
    let listed = app.say_in(group, bob, &format!("/list@{BOT}")).await;
    assert!(text(&listed).contains("buy a cake"), "{listed:?}");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_a_permission_look_up_hangs_no_transaction_is_open_and_the_group_goes_on() {
    let mut app = TestApp::start().await;
    let (group, bob, eve, task, list) = group_with_bobs_task(&app).await;
    // getChatMember answers only after half a minute.
    app.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 30_000,
            max_ms: 30_000,
        })
        .method("getChatMember"),
    );
    let tap = app
        .sim
        .tap(group, list.message_id, Some(eve), &format!("d:{task}"))
        .unwrap();
    eventually(WAIT, "the bot to ask Telegram about Eve", || async {
        app.sim.faults().iter().any(|fault| fault.fired > 0)
    })
    .await;
    // While Telegram is being asked, no transaction is held open.
    let mut held = 0;
    let watching = std::time::Instant::now();
    while held == 0 && watching.elapsed() < Duration::from_secs(2) {
        held = held_transactions(&app).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(held, 0, "a transaction stays open across getChatMember");

    // The look-up gives up soon: the tap is refused, nothing changed.
    let answer = app
        .sim
        .wait_for_answer(&tap, WAIT)
        .await
        .expect("the tap is answered");
    assert_eq!(toast(&answer), Tr::new(Lang::Ru).t("permission-unchecked"));
    assert_eq!(open_tasks(&app).await, vec![task]);
    // The group's next update is answered without waiting for Telegram.
    let listed = app.say_in(group, bob, &format!("/list@{BOT}")).await;
    assert!(text(&listed).contains("buy a cake"), "{listed:?}");
    app.stop().await;
}
