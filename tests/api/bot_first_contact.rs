//! Zones and first contact through the chat: the zone question with city buttons in the user's
//! language and a location button, a shared location setting the zone (found offline), offsets
//! shown as "UTC+5", `/tz` showing the zone, the first-task hint, `/settings`' lead buttons, and
//! Uzbek in Cyrillic chosen in `/lang` for every answer and reminder.

use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;
use tgsim::{KeyboardButtonView, ReplyKeyboardView, TranscriptEntry};

use crate::app::{TestApp, buttons, text};
use crate::bot_trust::toast;
use crate::support::{task_due_now, tomorrow_is_today};

/// The labels of a message's buttons.
fn labels(entry: &TranscriptEntry) -> Vec<String> {
    entry
        .buttons
        .iter()
        .flatten()
        .map(|b| b.text.clone())
        .collect()
}

#[tokio::test]
async fn bot_a_shared_location_sets_the_zone_with_its_offset_and_a_first_task_hint() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    let start = app.say_expecting(ann, ann, "/start", 2).await;
    assert!(text(&start[0]).contains(&tr.t("tz-ask")), "{start:?}");
    let zones = labels(&start[0]);
    assert!(zones.contains(&"Tashkent (UTC+5)".to_owned()), "{zones:?}");
    assert!(zones.contains(&"UTC".to_owned()), "{zones:?}");
    assert!(
        text(&start[1]).contains(&tr.t("tz-share-location")),
        "{start:?}"
    );
    assert_eq!(
        start[1].reply_keyboard,
        Some(ReplyKeyboardView::Show {
            rows: vec![vec![KeyboardButtonView {
                text: tr.t("button-share-location"),
                request_location: true,
                web_app: None,
            }]]
        })
    );

    // Tashkent's coordinates, as the user's client sends them when the button is tapped.
    let shared = app.sim.user_shares_location(ann, 41.3111, 69.2797).unwrap();
    let set = app.replies_after(ann, shared.message_id, 1).await.remove(0);
    assert!(
        text(&set).contains("Time zone: Asia/Tashkent (UTC+5)."),
        "{set:?}"
    );
    assert!(text(&set).contains(&tr.t("first-task-hint")), "{set:?}");
    assert_eq!(set.reply_keyboard, Some(ReplyKeyboardView::Remove));

    // /tz shows the zone, then offers to change it.
    let tz = app.say_expecting(ann, ann, "/tz", 2).await;
    assert!(
        text(&tz[0]).starts_with("Your time zone: Asia/Tashkent (UTC+5). Local time: "),
        "{tz:?}"
    );
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn bot_a_task_that_waited_for_the_zone_is_saved_after_a_location() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Ann", "ru");
    let ask = app
        .say_expecting(ann, ann, "позвонить маме завтра в 18:00", 2)
        .await;
    assert!(text(&ask[0]).contains(&tr.t("tz-ask")), "{ask:?}");
    assert!(
        labels(&ask[0]).contains(&"Ташкент (UTC+5)".to_owned()),
        "{ask:?}"
    );
    assert_eq!(app.pending_jobs().await.len(), 0);
    // Moscow.
    let shared = app.sim.user_shares_location(ann, 55.7558, 37.6173).unwrap();
    let replies = app.replies_after(ann, shared.message_id, 2).await;
    assert!(
        text(&replies[0]).contains("Europe/Moscow (UTC+3)"),
        "{replies:?}"
    );
    assert!(
        !text(&replies[0]).contains(&tr.t("first-task-hint")),
        "the waiting task is the first task: {replies:?}"
    );
    assert!(text(&replies[1]).contains("позвонить маме"), "{replies:?}");
    assert!(
        text(&replies[1]).contains(&tr.t("task-saved")),
        "{replies:?}"
    );
    assert_eq!(app.pending_jobs().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn bot_offsets_read_as_utc_plus_never_as_etc_gmt() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Uz);
    let ann = app.user("Ann", "uz");
    let set = app.say(ann, "/tz +5").await;
    assert!(text(&set).contains("Vaqt mintaqasi: UTC+5."), "{set:?}");
    assert!(text(&set).contains(&tr.t("first-task-hint")), "{set:?}");
    let tz = app.say_expecting(ann, ann, "/tz", 2).await;
    assert!(text(&tz[0]).contains("Vaqt mintaqangiz: UTC+5."), "{tz:?}");
    assert!(
        labels(&tz[0]).contains(&"Toshkent (UTC+5)".to_owned()),
        "{tz:?}"
    );
    let settings = app.say(ann, "/settings").await;
    assert!(text(&settings).contains("UTC+5"), "{settings:?}");
    for entry in app.sim.transcript(ann).unwrap() {
        assert!(!text(&entry).contains("Etc/"), "{entry:?}");
    }
    app.stop().await;
}

#[tokio::test]
async fn bot_lead_buttons_in_settings_set_the_default_lead() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let settings = app.say(ann, "/settings").await;
    assert_eq!(
        buttons(&settings),
        ["ld:0", "ld:5", "ld:15", "ld:30", "ld:60", "ld:1440"]
    );
    assert_eq!(
        labels(&settings)[0],
        format!("✓ {}", tr.t("button-lead-none"))
    );
    let answer = app.tap(ann, settings.message_id, ann, "ld:15").await;
    assert_eq!(
        answer.answer.and_then(|a| a.text),
        Some(tr.t("settings-saved"))
    );
    let edited = app
        .message_once(ann, settings.message_id, |e| {
            labels(e).contains(&"✓ 15 minutes".to_owned())
        })
        .await;
    assert!(
        text(&edited).contains("New tasks are reminded: 15 minutes before the deadline."),
        "{edited:?}"
    );
    let card = app.say(ann, "call bob tomorrow 10:00").await;
    assert!(
        text(&card).contains("09:45 (15 minutes before the deadline)"),
        "{card:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn bot_uzbek_in_cyrillic_is_chosen_in_lang_and_used_for_answers_and_reminders() {
    let mut app = TestApp::start().await;
    let cyrillic = Tr::new(Lang::UzCyrl);
    let ann = app.user("Ann", "uz");
    app.say(ann, "/tz Asia/Tashkent").await;
    let choice = app.say(ann, "/lang").await;
    let languages = labels(&choice);
    assert!(
        languages.contains(&"✓ O'zbekcha".to_owned()) && languages.contains(&"Ўзбекча".to_owned()),
        "{languages:?}"
    );
    let (_, set) = app.tap_reply(ann, choice.message_id, ann, "l:3").await;
    assert_eq!(text(&set), "Энди ўзбек тилида гаплашаман.");

    // Answers are in Cyrillic; what the user wrote stays as written.
    let card = app.say(ann, "ertaga 9:00 non olish").await;
    assert!(text(&card).contains("✅ Вазифа сақланди"), "{card:?}");
    assert!(text(&card).contains("non olish"), "{card:?}");
    let due_line = if tomorrow_is_today(chrono_tz::Asia::Tashkent) {
        "Муддат: бугун 09:00"
    } else {
        "Муддат: эртага, "
    };
    assert!(text(&card).contains(due_line), "{card:?}");
    assert!(text(&card).contains(" 09:00"), "{card:?}");
    let list = app.say(ann, "/list").await;
    assert!(
        text(&list).contains("Сизда 1 та очиқ вазифа бор"),
        "{list:?}"
    );

    // So are reminders.
    let before = app.last_message_id(ann);
    task_due_now(&app.pool, &app.queue, ann, "suv ichish").await;
    let reminder = app.reply_containing(ann, before, "suv ichish").await;
    assert!(
        text(&reminder).contains(&cyrillic.t("reminder-title")),
        "{reminder:?}"
    );
    assert!(text(&reminder).contains("Эслатма"), "{reminder:?}");
    let stored: String = sqlx::query_scalar("select lang from chats where chat_id = $1")
        .bind(ann)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(stored, "uz-Cyrl");
    app.stop().await;
}

/// The chat's zone as stored.
async fn stored_zone(app: &TestApp, chat: i64) -> Option<String> {
    sqlx::query_scalar("select tz from chats where chat_id = $1")
        .bind(chat)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn bot_every_zone_question_has_a_cancel_button_that_keeps_the_zone() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);

    // On first contact: closed, the location button taken away, and still no zone.
    let ann = app.user("Ann", "en");
    let start = app.say_expecting(ann, ann, "/start", 2).await;
    let data = buttons(&start[0]);
    assert_eq!(data.last().map(String::as_str), Some("q:z"), "{data:?}");
    assert!(data.iter().all(|d| d.len() <= 64), "{data:?}");
    assert_eq!(
        labels(&start[0]).last(),
        Some(&tr.t("button-cancel")),
        "{start:?}"
    );
    let (tapped, said) = app.tap_reply(ann, start[0].message_id, ann, "q:z").await;
    assert_eq!(toast(&tapped), tr.t("callback-cancelled"));
    assert_eq!(text(&said), tr.t("cancel-zone-none"));
    assert_eq!(said.reply_keyboard, Some(ReplyKeyboardView::Remove));
    app.message_once(ann, start[0].message_id, |e| e.buttons.is_empty())
        .await;
    assert_eq!(stored_zone(&app, ann).await, None);

    // /tz: the zone stays as it was, and the question loses its buttons.
    app.say(ann, "/tz Asia/Tashkent").await;
    let tz = app.say_expecting(ann, ann, "/tz", 2).await;
    let (tapped, said) = app.tap_reply(ann, tz[0].message_id, ann, "q:z").await;
    assert_eq!(toast(&tapped), tr.t("callback-cancelled"));
    assert_eq!(text(&said), tr.t("cancel-zone"));
    assert_eq!(
        stored_zone(&app, ann).await.as_deref(),
        Some("Asia/Tashkent")
    );
    app.message_once(ann, tz[0].message_id, |e| e.buttons.is_empty())
        .await;
    let card = app.say(ann, "call bob tomorrow 10:00").await;
    assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");

    // A task waiting for its zone: dropped, and said so, in the user's language.
    let ru = Tr::new(Lang::Ru);
    let bob = app.user("Bob", "ru");
    let ask = app
        .say_expecting(bob, bob, "позвонить маме завтра в 18:00", 2)
        .await;
    assert_eq!(buttons(&ask[0]).last().map(String::as_str), Some("q:z"));
    let (tapped, said) = app.tap_reply(bob, ask[0].message_id, bob, "q:z").await;
    assert_eq!(toast(&tapped), ru.t("callback-cancelled"));
    let dropped = ru.t_with(
        "cancel-dropped",
        &[(
            "text",
            remindbot::i18n::Arg::Text("позвонить маме завтра в 18:00"),
        )],
    );
    assert_eq!(
        text(&said),
        format!("{dropped}\n{}", ru.t("cancel-zone-none"))
    );
    assert_eq!(stored_zone(&app, bob).await, None);
    let tasks: i64 = sqlx::query_scalar("select count(*) from tasks where chat_id = $1")
        .bind(bob)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(tasks, 0);
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}
