//! The Mini App's API over real HTTP, signed as Telegram signs it (the simulator's `initData`):
//! the user's tasks by section; a task created by text shows in the chat with its card; Done and
//! Snooze change the task and take the buttons off the chat's reminder card; Undo brings it back;
//! a stale version is refused with 409 and changes nothing; missing, forged or expired launch data
//! gets 401 and nothing else; another user's task is 404; bad text is 400 with the chat's own
//! message in the user's language; a location sets the zone of the place as the chat's shared
//! location does (a point off the map is 400 and the zone stays); an agenda saved with a zone comes
//! at its time in that zone. The chat's menu button and the buttons under /list and under a
//! task's card open the app, in private chats only.

use chrono_tz::Asia::Tashkent;
use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{TestApp, text};
use crate::support::tomorrow_section;

/// The public URL the tests give the bot (a reverse proxy passes its paths on unchanged).
const PUBLIC_URL: &str = "https://bot.example.org/rb/";

/// The app with a public URL.
async fn app_with_public_url() -> TestApp {
    TestApp::builder()
        .config(|c| c.bot.public_url = Some(PUBLIC_URL.parse().expect("a public URL")))
        .start()
        .await
}

/// A user of the chat in `lang` whose zone is Tashkent.
async fn user(app: &TestApp, name: &str, lang: &str) -> i64 {
    let id = app.user(name, lang);
    app.say(id, "/tz Asia/Tashkent").await;
    id
}

/// Calls the API as a page would: `Authorization: tma <init_data>` when given.
async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    init_data: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let url = format!("http://{}/rb/app/api{path}", app.http_addr());
    let mut request = reqwest::Client::new().request(method, url);
    if let Some(data) = init_data {
        request = request.header("Authorization", format!("tma {data}"));
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the side-car answers");
    let status = response.status();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

/// Calls the API signed as `user`.
async fn as_user(
    app: &TestApp,
    user: i64,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let data = app.sim.init_data(user).expect("the user exists");
    call(app, method, path, Some(&data), body).await
}

/// The user's open tasks: `(section key, task)` in the order shown.
async fn tasks(app: &TestApp, user: i64) -> Vec<(String, Value)> {
    let (status, body) = as_user(app, user, Method::GET, "/tasks", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .flat_map(|section| {
            let key = section["key"].as_str().expect("a key").to_owned();
            section["tasks"]
                .as_array()
                .expect("tasks")
                .iter()
                .map(move |task| (key.clone(), task.clone()))
        })
        .collect()
}

/// The open task with `text` (its section and JSON).
async fn task_named(app: &TestApp, user: i64, name: &str) -> Option<(String, Value)> {
    tasks(app, user)
        .await
        .into_iter()
        .find(|(_, task)| task["text"] == name)
}

/// Creates a task in the chat (in English) and waits for its reminder card (with buttons);
/// returns the task's id and the card's message id.
async fn task_with_reminder_card(app: &TestApp, user: i64, name: &str) -> (i64, i64) {
    let before = app.last_message_id(user);
    app.say(user, &format!("{name} in 2 seconds")).await;
    let title = Tr::new(Lang::En).t("reminder-title");
    let is_reminder = |e: &tgsim::TranscriptEntry| {
        e.from_bot
            && e.message_id > before
            && e.text
                .as_deref()
                .is_some_and(|t| t.contains(&title) && t.contains(name))
    };
    let transcript = app
        .sim
        .wait_for_transcript(user, std::time::Duration::from_secs(20), |t| {
            t.iter().any(is_reminder)
        })
        .await
        .expect("the reminder comes");
    let reminder = transcript.into_iter().find(is_reminder).unwrap();
    assert!(!reminder.buttons.is_empty(), "{reminder:?}");
    let (_, task) = task_named(app, user, name).await.expect("the task is open");
    (task["id"].as_i64().expect("an id"), reminder.message_id)
}

#[tokio::test]
async fn miniapp_shows_the_tasks_by_section_and_the_chat_opens_it() {
    let mut app = app_with_public_url().await;
    let ann = user(&app, "ann", "en").await;
    app.say(ann, "pay rent in 3 days").await;
    app.say(ann, "call mom tomorrow at 10:00").await;
    app.say(ann, "renew passport in 30 days").await;
    app.say(ann, "feed the cat in 5 minutes").await;
    sqlx::query("update tasks set due_at = now() - interval '1 hour' where text = 'feed the cat'")
        .execute(&app.pool)
        .await
        .unwrap();

    let shown = tasks(&app, ann).await;
    let order: Vec<(&str, &str)> = shown
        .iter()
        .map(|(key, task)| (key.as_str(), task["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        order,
        [
            ("overdue", "feed the cat"),
            (tomorrow_section(Tashkent), "call mom"),
            ("week", "pay rent"),
            ("later", "renew passport"),
        ]
    );
    let (_, call_mom) = &shown[1];
    assert!(
        call_mom["due"].as_str().unwrap().contains("10:00"),
        "{call_mom}"
    );
    assert!(call_mom["due_at"].as_str().unwrap().ends_with('Z'));
    assert!(call_mom["version"].is_i64() && call_mom["repeat"].is_null());
    let (_, body) = as_user(&app, ann, Method::GET, "/tasks", None).await;
    let title = if tomorrow_section(Tashkent) == "today" {
        "Today"
    } else {
        "Tomorrow"
    };
    assert_eq!(body["sections"][1]["title"], title);

    let (status, me) = as_user(&app, ann, Method::GET, "/me", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["lang"], "en");
    assert_eq!(me["zone"], "Asia/Tashkent");
    assert_eq!(me["settings"]["zone"], "Asia/Tashkent");
    assert_eq!(me["strings"]["app-section-overdue"], "Overdue");

    // The chat opens the app: its menu button, and a button under /list.
    let app_url = "https://bot.example.org/rb/app/";
    match app.sim.menu_button(Some(ann)) {
        tgsim::types::MenuButton::WebApp { web_app, .. } => assert_eq!(web_app.url, app_url),
        other => panic!("the menu button opens the app, not {other:?}"),
    }
    let list = app.say(ann, "/list").await;
    let opens: Vec<_> = list
        .buttons
        .iter()
        .flatten()
        .filter_map(|button| button.web_app.clone())
        .collect();
    assert_eq!(opens, [app_url], "{list:?}");
    app.stop().await;
}

/// The Mini App buttons of a message, by URL.
fn app_buttons(entry: &tgsim::TranscriptEntry) -> Vec<String> {
    entry
        .buttons
        .iter()
        .flatten()
        .filter_map(|button| button.web_app.clone())
        .collect()
}

#[tokio::test]
async fn miniapp_is_opened_from_a_private_chats_cards_and_never_from_a_groups() {
    let mut app = app_with_public_url().await;
    let en = Tr::new(Lang::En);
    let app_url = "https://bot.example.org/rb/app/";
    let ann = user(&app, "ann", "en").await;

    // The new task's card: Undo and Change time first, then a row that opens the app at the task.
    let card = app.say(ann, "buy milk tomorrow 10:00").await;
    assert!(text(&card).contains("buy milk"), "{card:?}");
    let edit = crate::app::buttons(&card)[1].clone();
    let task = edit.strip_prefix("e:").expect("Change time second");
    let at_task = format!("{app_url}?task={task}");
    assert_eq!(app_buttons(&card), [at_task.as_str()], "{card:?}");
    let last_row = card.buttons.last().expect("buttons under the card");
    assert_eq!(last_row.len(), 1, "the app's button has a row of its own");
    assert_eq!(last_row[0].text, en.t("button-open-app"));
    assert!(
        card.buttons[0]
            .iter()
            .all(|button| button.callback_data.is_some()),
        "{card:?}"
    );
    // A changed task's card too; /list opens the app as it is.
    app.tap_reply(ann, card.message_id, ann, &edit).await;
    let changed = app.say(ann, "tomorrow 11:00").await;
    assert!(text(&changed).contains("11:00"), "{changed:?}");
    assert_eq!(app_buttons(&changed), [at_task.as_str()], "{changed:?}");
    let list = app.say(ann, "/list").await;
    assert_eq!(app_buttons(&list), [app_url], "{list:?}");

    // In a group Telegram refuses Mini App buttons: its card and its list have none, and are sent.
    let group = app.group("Team");
    let bot = "remindbot_sim_bot";
    let start = app.say_in(group, ann, &format!("/start@{bot}")).await;
    app.tap_reply(group, start.message_id, ann, "z:2").await;
    let card = app
        .say_in(group, ann, &format!("/add@{bot} standup tomorrow 10:00"))
        .await;
    assert!(text(&card).contains("standup"), "{card:?}");
    assert!(!card.buttons.is_empty(), "{card:?}");
    assert!(app_buttons(&card).is_empty(), "{card:?}");
    let list = app.say_in(group, ann, &format!("/list@{bot}")).await;
    assert!(text(&list).contains("standup"), "{list:?}");
    assert!(app_buttons(&list).is_empty(), "{list:?}");
    app.stop().await;
}

#[tokio::test]
async fn miniapp_creates_by_text_as_the_chat_does_and_the_chat_shows_it() {
    let mut app = app_with_public_url().await;
    let ann = user(&app, "ann", "en").await;

    let (status, preview) = as_user(
        &app,
        ann,
        Method::POST,
        "/preview",
        Some(json!({ "text": "buy milk tomorrow at 3" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(preview["text"], "buy milk");
    assert!(
        preview["due"].as_str().unwrap().contains("15:00"),
        "{preview}"
    );
    let assumed: Vec<String> = serde_json::from_value(preview["assumed"].clone()).unwrap();
    assert!(
        !assumed.is_empty(),
        "an hour without am/pm is said: {preview}"
    );
    assert!(
        tasks(&app, ann).await.is_empty(),
        "a preview creates nothing"
    );

    let before = app.last_message_id(ann);
    let (status, created) = as_user(
        &app,
        ann,
        Method::POST,
        "/tasks",
        Some(json!({ "text": "buy milk tomorrow at 3" })),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["task"]["text"], "buy milk");
    assert_eq!(created["task"]["due"], preview["due"]);
    // The chat gets the card it would get for the message, with what was assumed.
    let card = app.reply_containing(ann, before, "buy milk").await;
    assert!(
        text(&card).contains(&Tr::new(Lang::En).t("task-saved")),
        "{card:?}"
    );
    for line in &assumed {
        assert!(text(&card).contains(line.as_str()), "{line} in {card:?}");
    }
    assert!(!card.buttons.is_empty(), "{card:?}");
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "the task's reminder job: {jobs:?}");

    // Two times make two tasks, as in the chat, and the preview says when the second reminds.
    let pills = json!({ "text": "pills every day at 9 and 21" });
    let (_, preview) = as_user(&app, ann, Method::POST, "/preview", Some(pills.clone())).await;
    assert_eq!(preview["text"], "pills", "{preview}");
    let assumed: Vec<String> = serde_json::from_value(preview["assumed"].clone()).unwrap();
    assert!(
        assumed
            .iter()
            .any(|line| line.contains("A second task") && line.contains("21:00")),
        "{preview}"
    );
    let (status, created) = as_user(&app, ann, Method::POST, "/tasks", Some(pills)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let pills: Vec<_> = tasks(&app, ann)
        .await
        .into_iter()
        .filter(|(_, task)| task["text"] == "pills")
        .collect();
    assert_eq!(pills.len(), 2, "{pills:?}");
    app.stop().await;
}

#[tokio::test]
async fn miniapp_done_snooze_and_undo_change_the_task_and_the_chats_card() {
    let mut app = app_with_public_url().await;
    let ann = user(&app, "ann", "en").await;
    let tr = Tr::new(Lang::En);

    // Done: the task closes, the reminder card loses its buttons, the chat says so.
    let (task_id, card) = task_with_reminder_card(&app, ann, "water plants").await;
    let (_, task) = task_named(&app, ann, "water plants").await.unwrap();
    let before = app.last_message_id(ann);
    let (status, done) = as_user(
        &app,
        ann,
        Method::POST,
        &format!("/tasks/{task_id}/done"),
        Some(json!({ "version": task["version"] })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert!(done["task"].is_null(), "{done}");
    let undo = done["undo"].as_str().expect("an undo token").to_owned();
    app.message_once(ann, card, |e| e.buttons.is_empty()).await;
    let said = tr.t_with(
        "done-ok",
        &[("text", remindbot::i18n::Arg::Text("water plants"))],
    );
    app.reply_containing(ann, before, &said).await;
    assert!(task_named(&app, ann, "water plants").await.is_none());

    // Undo: the task is back, open, in the list.
    let (status, undone) = as_user(&app, ann, Method::POST, &format!("/undo/{undo}"), None).await;
    assert_eq!(status, StatusCode::OK, "{undone}");
    assert_eq!(undone["task"]["text"], "water plants");
    assert!(task_named(&app, ann, "water plants").await.is_some());
    let (status, again) = as_user(&app, ann, Method::POST, &format!("/undo/{undo}"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "an Undo works once: {again}");

    // Snooze: an extra reminder; the old card loses its buttons.
    let (task_id, card) = task_with_reminder_card(&app, ann, "stretch").await;
    let (_, task) = task_named(&app, ann, "stretch").await.unwrap();
    let (status, snoozed) = as_user(
        &app,
        ann,
        Method::POST,
        &format!("/tasks/{task_id}/snooze"),
        Some(json!({ "version": task["version"], "minutes": 30 })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{snoozed}");
    assert!(snoozed["task"]["next_reminder"].is_string(), "{snoozed}");
    assert!(snoozed["undo"].is_string(), "{snoozed}");
    app.message_once(ann, card, |e| e.buttons.is_empty()).await;
    let pending: Vec<i64> = sqlx::query_scalar(
        "select r.task_id from reminders r where r.kind = 'snooze' and not r.sent",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(pending, [task_id]);
    app.stop().await;
}

#[tokio::test]
async fn miniapp_refuses_a_stale_version_and_changes_nothing() {
    let mut app = app_with_public_url().await;
    let ann = user(&app, "ann", "en").await;
    app.say(ann, "write report tomorrow at 10:00").await;
    let (_, task) = task_named(&app, ann, "write report").await.unwrap();
    let id = task["id"].as_i64().unwrap();
    let read = task["version"].clone();

    let (status, edited) = as_user(
        &app,
        ann,
        Method::PATCH,
        &format!("/tasks/{id}"),
        Some(json!({ "version": read, "text": "write the report" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(edited["task"]["text"], "write the report");
    assert_ne!(edited["task"]["version"], read);

    // Another tab still holds the version it read.
    for (method, path, body) in every_change(id, &read) {
        let (status, refused) = as_user(&app, ann, method.clone(), &path, Some(body)).await;
        assert_eq!(status, StatusCode::CONFLICT, "{method} {path}: {refused}");
        assert_eq!(refused["task"]["text"], "write the report", "{refused}");
        assert_eq!(refused["task"]["version"], edited["task"]["version"]);
        assert!(refused["error"].is_string());
    }
    let (_, now) = task_named(&app, ann, "write the report").await.unwrap();
    assert_eq!(now, edited["task"], "nothing changed");
    let snoozes: i64 = sqlx::query_scalar("select count(*) from reminders where kind = 'snooze'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(snoozes, 0);
    app.stop().await;
}

#[tokio::test]
async fn miniapp_answers_401_to_missing_forged_or_expired_launch_data() {
    let mut app = app_with_public_url().await;
    let ann = user(&app, "ann", "en").await;
    app.say(ann, "secret plan tomorrow at 10:00").await;
    let signed = app.sim.init_data(ann).unwrap();
    let forged = signed.replace(&format!("%22id%22%3A{ann}"), "%22id%22%3A1");
    assert_ne!(forged, signed);
    let old = tgsim::InitData {
        query_id: "AAH1".to_owned(),
        user: tgsim::WebAppUser {
            id: ann,
            first_name: "ann".to_owned(),
            last_name: None,
            username: None,
            language_code: Some("en".to_owned()),
            allows_write_to_pm: None,
        },
        auth_date: chrono::Utc::now().timestamp() - 2 * 3600,
    }
    .sign(app.sim.token());
    for (what, data) in [
        ("missing", None),
        ("forged", Some(forged.as_str())),
        ("expired", Some(old.as_str())),
        ("empty", Some("")),
    ] {
        for path in ["/me", "/tasks"] {
            let (status, body) = call(&app, Method::GET, path, data, None).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{what} {path}");
            let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["error"], "{what}: nothing else in {body}");
            assert!(!body.to_string().contains("secret plan"));
        }
        let (status, _) = call(
            &app,
            Method::POST,
            "/tasks",
            data,
            Some(json!({ "text": "sneak in tomorrow at 9" })),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}");
    }
    assert_eq!(tasks(&app, ann).await.len(), 1, "nothing was created");
    let (status, _) = call(&app, Method::GET, "/tasks", Some(&signed), None).await;
    assert_eq!(status, StatusCode::OK, "the signed data itself is fine");
    app.stop().await;
}

#[tokio::test]
async fn miniapp_answers_404_for_another_users_task() {
    let mut app = app_with_public_url().await;
    let ann = user(&app, "ann", "en").await;
    let bob = user(&app, "bob", "en").await;
    app.say(ann, "ann's dentist tomorrow at 10:00").await;
    let (_, task) = task_named(&app, ann, "ann's dentist").await.unwrap();
    let id = task["id"].as_i64().unwrap();
    let version = task["version"].clone();
    let no_such_task = (
        Method::POST,
        "/tasks/999999/done".to_owned(),
        json!({ "version": 0 }),
    );
    for (method, path, body) in every_change(id, &version).into_iter().chain([no_such_task]) {
        let (status, body) = as_user(&app, bob, method.clone(), &path, Some(body)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {body}");
        assert!(!body.to_string().contains("dentist"), "{body}");
    }
    assert!(tasks(&app, bob).await.is_empty());
    let (_, now) = task_named(&app, ann, "ann's dentist").await.unwrap();
    assert_eq!(now, task, "ann's task is as it was");
    app.stop().await;
}

#[tokio::test]
async fn miniapp_answers_bad_text_with_the_chats_message_in_the_users_language() {
    let mut app = app_with_public_url().await;
    let vera = user(&app, "vera", "ru").await;
    let bad = "купить молоко 31.02";
    let chat = app.say(vera, bad).await;
    let (status, body) = as_user(
        &app,
        vera,
        Method::POST,
        "/tasks",
        Some(json!({ "text": bad })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(text(&chat).contains(error), "{error:?} as in {chat:?}");
    let ru = Tr::new(Lang::Ru);
    assert_eq!(
        error,
        ru.t_with(
            "err-invalid-date",
            &[("date", remindbot::i18n::Arg::Text("31.02"))]
        )
    );
    let (status, preview) = as_user(
        &app,
        vera,
        Method::POST,
        "/preview",
        Some(json!({ "text": bad })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(preview["error"], body["error"]);
    let (status, _) = as_user(
        &app,
        vera,
        Method::POST,
        "/tasks",
        Some(json!({ "txt": 1 })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(tasks(&app, vera).await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn miniapp_holds_to_the_chats_rate_and_caps_bodies() {
    let mut app = TestApp::builder()
        .config(|c| {
            c.bot.public_url = Some(PUBLIC_URL.parse().expect("a public URL"));
            c.bot.user_updates_per_minute = std::num::NonZeroU32::new(5).expect("not zero");
        })
        .start()
        .await;
    let ann = user(&app, "ann", "en").await;
    let huge = "x".repeat(20 * 1024);
    let (status, _) = as_user(
        &app,
        ann,
        Method::POST,
        "/preview",
        Some(json!({ "text": huge })),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let body = Some(json!({ "text": "tea tomorrow at 10:00" }));
        statuses.push(as_user(&app, ann, Method::POST, "/preview", body).await.0);
    }
    assert_eq!(statuses[0], StatusCode::OK, "{statuses:?}");
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "past the chat's rate: {statuses:?}"
    );
    let (status, body) = as_user(&app, ann, Method::GET, "/tasks", None).await;
    assert_eq!(status, StatusCode::OK, "reads are not counted: {body}");
    app.stop().await;
}

#[tokio::test]
async fn miniapp_sets_the_zone_from_a_location_as_the_chats_location_does() {
    let mut app = app_with_public_url().await;
    let ru = Tr::new(Lang::Ru);
    let lev = app.user("lev", "ru");
    app.say(lev, "/tz Europe/Moscow").await;
    let zone_now = async |app: &TestApp| {
        let (status, me) = as_user(app, lev, Method::GET, "/me", None).await;
        assert_eq!(status, StatusCode::OK, "{me}");
        me["settings"]["zone"].clone()
    };

    // A point that is no place on Earth: the chat's own words, in the user's language, and the
    // zone stays. So does a body whose point is not a number.
    for location in [
        json!({ "latitude": 91.0, "longitude": 69.28 }),
        json!({ "latitude": 41.31, "longitude": -180.5 }),
    ] {
        let (status, body) = as_user(
            &app,
            lev,
            Method::PUT,
            "/settings",
            Some(json!({ "location": location })),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{location} {body}");
        assert_eq!(body["error"], ru.t("tz-location-bad"), "{body}");
    }
    let (status, _) = as_user(
        &app,
        lev,
        Method::PUT,
        "/settings",
        Some(json!({ "location": { "latitude": "41.31", "longitude": 69.28 } })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(zone_now(&app).await, "Europe/Moscow");

    // Tashkent: the zone is set, and the chat confirms it as it confirms a shared location.
    let before = app.last_message_id(lev);
    let (status, settings) = as_user(
        &app,
        lev,
        Method::PUT,
        "/settings",
        Some(json!({ "location": { "latitude": 41.31, "longitude": 69.28 } })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    assert_eq!(settings["zone"], "Asia/Tashkent");
    assert_eq!(zone_now(&app).await, "Asia/Tashkent");
    let confirmed = app
        .reply_containing(lev, before, "Asia/Tashkent (UTC+5)")
        .await;
    let shared = app.sim.user_shares_location(lev, 41.31, 69.28).unwrap();
    let in_chat = app.replies_after(lev, shared.message_id, 1).await.remove(0);
    let first_line = |entry: &tgsim::TranscriptEntry| {
        let line = text(entry).lines().next().unwrap_or_default().to_owned();
        // The local time at the end may have turned a minute meanwhile.
        line.split_once(". ")
            .map_or(line.clone(), |(zone, _)| zone.to_owned())
    };
    assert_eq!(
        first_line(&confirmed),
        first_line(&in_chat),
        "{confirmed:?}"
    );
    assert_eq!(confirmed.reply_keyboard, in_chat.reply_keyboard);

    // At sea the chat's location gives the longitude's nautical zone; so does the app's.
    let (status, settings) = as_user(
        &app,
        lev,
        Method::PUT,
        "/settings",
        Some(json!({ "location": { "latitude": 0.0, "longitude": -30.0 } })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    assert_eq!(settings["zone"], "Etc/GMT+2");
    app.stop().await;
}

/// The chat's stored agenda: its zone and when it next comes.
async fn stored_agenda(app: &TestApp, chat: i64) -> (String, chrono::DateTime<chrono::Utc>) {
    sqlx::query_as("select tz, next_at from agendas where chat_id = $1")
        .bind(chat)
        .fetch_one(&app.pool)
        .await
        .expect("the chat has an agenda")
}

#[tokio::test]
async fn miniapp_sets_the_agenda_in_the_zone_set_by_the_same_save() {
    let mut app = app_with_public_url().await;
    let eight = chrono::NaiveTime::from_hms_opt(8, 0, 0).unwrap();
    let comes_at_eight_in = |zone: chrono_tz::Tz, next: chrono::DateTime<chrono::Utc>| {
        next.with_timezone(&zone).time() == eight
            && next - chrono::Utc::now() <= chrono::TimeDelta::days(1)
    };

    // A new user sets the zone and the agenda in one Save: both are set, the agenda in that zone.
    let new = app.user("nia", "en");
    let (status, settings) = as_user(
        &app,
        new,
        Method::PUT,
        "/settings",
        Some(json!({ "zone": "Asia/Tashkent", "agenda": "08:00" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    assert_eq!(
        (&settings["zone"], &settings["agenda"]),
        (&json!("Asia/Tashkent"), &json!("08:00"))
    );
    let (zone, next) = stored_agenda(&app, new).await;
    assert_eq!(zone, "Asia/Tashkent");
    assert!(comes_at_eight_in(chrono_tz::Asia::Tashkent, next), "{next}");

    // A user moving from Moscow to Tashkent with the agenda at 08:00: it comes at 08:00 in Tashkent.
    let lev = app.user("lev", "ru");
    app.say(lev, "/tz Europe/Moscow").await;
    app.say(lev, "/agenda 8:00").await;
    let (status, settings) = as_user(
        &app,
        lev,
        Method::PUT,
        "/settings",
        Some(json!({ "location": { "latitude": 41.31, "longitude": 69.28 }, "agenda": "08:00" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    let (zone, next) = stored_agenda(&app, lev).await;
    assert_eq!(zone, "Asia/Tashkent");
    assert!(comes_at_eight_in(chrono_tz::Asia::Tashkent, next), "{next}");
    app.stop().await;
}

#[tokio::test]
async fn an_http_public_url_offers_no_app_button_outside_the_test_environment() {
    // Telegram refuses a Mini App button that is not https: with a plain-http local stand-in the
    // chat still answers, without the app's buttons.
    let mut app = TestApp::builder()
        .config(|c| c.bot.public_url = Some("http://127.0.0.1:8080/rb/".parse().unwrap()))
        .start()
        .await;
    let ann = user(&app, "ann", "en").await;
    let card = app.say(ann, "buy milk tomorrow 10:00").await;
    assert!(text(&card).contains("buy milk"), "{card:?}");
    assert!(!card.buttons.is_empty(), "{card:?}");
    assert!(app_buttons(&card).is_empty(), "{card:?}");
    let list = app.say(ann, "/list").await;
    assert!(text(&list).contains("buy milk"), "{list:?}");
    assert!(app_buttons(&list).is_empty(), "{list:?}");
    let report = remindbot::check::run(app.config()).await;
    let line = report
        .findings
        .iter()
        .find(|f| f.topic == "miniapp")
        .expect("check reports the Mini App");
    assert_eq!(line.verdict, remindbot::check::Severity::Warn, "{line}");
    assert!(line.detail.contains("not https"), "{line}");
    app.stop().await;

    // Telegram's test environment takes plain http: the buttons are there.
    let mut app = TestApp::builder()
        .simulator(
            tgsim::SimConfig {
                test_environment: true,
                ..tgsim::SimConfig::default()
            }
            .without_limits(),
        )
        .config(|c| {
            c.bot.public_url = Some("http://127.0.0.1:8080/rb/".parse().unwrap());
            c.bot.telegram_test_environment = true;
        })
        .start()
        .await;
    let ann = user(&app, "ann", "en").await;
    let list = app.say(ann, "/list").await;
    assert_eq!(
        app_buttons(&list),
        ["http://127.0.0.1:8080/rb/app/"],
        "{list:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn miniapp_refuses_a_negative_lead_in_the_users_language() {
    let mut app = app_with_public_url().await;
    let ru = Tr::new(Lang::Ru);
    let lev = user(&app, "lev", "ru").await;
    let (status, created) = as_user(
        &app,
        lev,
        Method::POST,
        "/tasks",
        Some(json!({ "text": "купить хлеб завтра 10:00" })),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let task = &created["task"];
    let edit = format!("/tasks/{}", task["id"]);

    // A negative lead: said so, not "too long"; nothing changes.
    let (status, body) = as_user(
        &app,
        lev,
        Method::PUT,
        "/settings",
        Some(json!({ "lead_minutes": -5 })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"], ru.t("app-err-lead-negative"), "{body}");
    let (status, body) = as_user(
        &app,
        lev,
        Method::PATCH,
        &edit,
        Some(json!({ "version": task["version"], "lead_minutes": -5 })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"], ru.t("app-err-lead-negative"), "{body}");

    // A lead too long still says how long it may be.
    let (status, body) = as_user(
        &app,
        lev,
        Method::PATCH,
        &edit,
        Some(json!({ "version": task["version"], "lead_minutes": 10_000_000 })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Напоминание может прийти"),
        "{body}"
    );
    let (_, settings) = as_user(&app, lev, Method::GET, "/me", None).await;
    assert_eq!(settings["settings"]["lead_minutes"], 0, "{settings}");
    app.stop().await;
}

/// Each change the page can ask of task `id` at `version` (Done, Snooze, Delete, an edit of its
/// time), as (method, path, body).
fn every_change(id: i64, version: &Value) -> [(Method, String, Value); 4] {
    [
        (
            Method::POST,
            format!("/tasks/{id}/done"),
            json!({ "version": version }),
        ),
        (
            Method::POST,
            format!("/tasks/{id}/snooze"),
            json!({ "version": version, "minutes": 10 }),
        ),
        (
            Method::DELETE,
            format!("/tasks/{id}"),
            json!({ "version": version }),
        ),
        (
            Method::PATCH,
            format!("/tasks/{id}"),
            json!({ "version": version, "when": "friday 18:00" }),
        ),
    ]
}
