//! The chat reads what people mean from the first message (issue 24): a task written while the
//! zone question is open is never refused as an unknown zone nor lost — saved at once when its
//! time is the same in every zone ("in 2 minutes"), else kept and saved once the zone is set.

use remindbot::domain::lang::Lang;
use remindbot::i18n::{Arg, Tr};

use crate::app::{TestApp, buttons, text};

/// The zone stored for the tasks of `chat`.
async fn task_zones(app: &TestApp, chat: i64) -> Vec<String> {
    sqlx::query_scalar("select tz from tasks where chat_id = $1 order by id")
        .bind(chat)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn first_task_in_minutes_is_saved_while_the_zone_is_asked() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say_expecting(ann, ann, "/start", 2).await;
    let replies = app
        .say_expecting(ann, ann, "remind me to buy milk in 2 minutes", 3)
        .await;
    assert_eq!(
        text(&replies[0]),
        "✅ Task saved: buy milk. Reminder in 2 minutes."
    );
    assert!(text(&replies[1]).contains(&tr.t("tz-ask")), "{replies:?}");
    for reply in &replies {
        assert!(!text(reply).contains(&tr.t("tz-unknown")), "{replies:?}");
    }
    assert_eq!(app.pending_jobs().await.len(), 1);
    // The zone chosen next is the task's zone too.
    let set = app.say(ann, "Asia/Tashkent").await;
    assert!(text(&set).contains("Asia/Tashkent (UTC+5)"), "{set:?}");
    assert_eq!(task_zones(&app, ann).await, ["Asia/Tashkent"]);

    // In Russian, and a task that nags until done waits for the zone rather than being refused.
    let ru = Tr::new(Lang::Ru);
    let vera = app.user("Vera", "ru");
    app.say_expecting(vera, vera, "/start", 2).await;
    let replies = app
        .say_expecting(vera, vera, "через 2 часа позвонить в банк", 3)
        .await;
    assert_eq!(
        text(&replies[0]),
        "✅ Задача сохранена: позвонить в банк. До напоминания: 2 часа."
    );
    assert!(text(&replies[1]).contains(&ru.t("tz-ask")), "{replies:?}");
    let nagging = app
        .say_expecting(
            vera,
            vera,
            "завтра в 9 выпить таблетку каждые 10 минут пока не сделаю",
            2,
        )
        .await;
    assert!(
        text(&nagging[0]).starts_with("Я сохраню «завтра в 9 выпить таблетку"),
        "{nagging:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn first_task_with_a_day_waits_for_the_zone_and_is_saved_in_it() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Ann", "ru");
    app.say_expecting(ann, ann, "/start", 2).await;
    let asked = app
        .say_expecting(ann, ann, "завтра в 9 позвонить маме", 2)
        .await;
    assert_eq!(
        text(&asked[0]),
        format!(
            "Я сохраню «завтра в 9 позвонить маме», как только узнаю ваш часовой пояс.\n{}",
            tr.t("tz-ask")
        )
    );
    assert_eq!(app.pending_jobs().await.len(), 0);
    // Other commands on the way (help, the language, the greeting again) lose nothing.
    app.say(ann, "/help").await;
    app.say(ann, "/lang").await;
    app.say_expecting(ann, ann, "/start", 2).await;
    let replies = app.say_expecting(ann, ann, "/tz Europe/Moscow", 2).await;
    assert!(text(&replies[0]).contains("Europe/Moscow"), "{replies:?}");
    let card = text(&replies[1]);
    assert!(card.contains(&tr.t("task-saved")), "{card}");
    assert!(card.contains("позвонить маме"), "{card}");
    assert!(card.contains("09:00"), "{card}");
    assert_eq!(task_zones(&app, ann).await, ["Europe/Moscow"]);
    app.stop().await;
}

#[tokio::test]
async fn a_second_task_while_one_waits_is_not_lost_in_silence() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Uz);
    let ann = app.user("Ann", "uz");
    let asked = app.say_expecting(ann, ann, "ertaga 18:00 sport", 2).await;
    assert!(
        text(&asked[0]).starts_with("Vaqt mintaqangizni bilishim bilan «ertaga 18:00 sport»"),
        "{asked:?}"
    );
    let again = app.say_expecting(ann, ann, "ertaga 19:00 kitob", 2).await;
    assert!(
        text(&again[0]).starts_with(&tr.t_with(
            "tz-task-waits-already",
            &[
                ("waiting", Arg::Text("ertaga 18:00 sport")),
                ("text", Arg::Text("ertaga 19:00 kitob")),
            ],
        )),
        "{again:?}"
    );
    // A wrong zone is still a wrong zone.
    let wrong = app.say(ann, "Toshkenttt").await;
    assert!(text(&wrong).contains(&tr.t("tz-unknown")), "{wrong:?}");
    // The question asked again replaced the first, whose buttons are gone.
    app.message_once(ann, asked[0].message_id, |m| buttons(m).is_empty())
        .await;
    let (_, set) = app.tap_reply(ann, again[0].message_id, ann, "z:0").await;
    assert!(text(&set).contains("Asia/Tashkent"), "{set:?}");
    let card = app.reply_containing(ann, set.message_id - 1, "sport").await;
    assert!(text(&card).contains("18:00"), "{card:?}");
    assert_eq!(app.pending_jobs().await.len(), 1);
    app.stop().await;
}

#[test]
fn first_task_messages_in_every_script() {
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        let lines = [
            tr.t_with("tz-task-kept", &[("text", Arg::Text("sport 18:00"))]),
            tr.t_with(
                "tz-task-waits-already",
                &[
                    ("waiting", Arg::Text("sport 18:00")),
                    ("text", Arg::Text("kitob 19:00")),
                ],
            ),
            tr.t_with(
                "task-saved-before-zone",
                &[("text", Arg::Text("choy")), ("in", Arg::Text("2 min"))],
            ),
        ];
        insta::assert_snapshot!(format!("first_task_{lang}"), lines.join("\n"));
    }
}

/// The labels of a message's buttons.
fn labels(entry: &tgsim::TranscriptEntry) -> Vec<String> {
    entry
        .buttons
        .iter()
        .flatten()
        .map(|b| b.text.clone())
        .collect()
}

#[tokio::test]
async fn uzbek_in_cyrillic_is_answered_in_cyrillic_from_the_first_message() {
    let mut app = TestApp::start().await;
    let cyrillic = Tr::new(Lang::UzCyrl);
    let latin = Tr::new(Lang::Uz);
    // Telegram says "uz" (or "ru": many in Uzbekistan use a Russian interface).
    for code in ["uz", "ru"] {
        let ann = app.user("Ann", code);
        let replies = app
            .say_expecting(ann, ann, "эртага соат 9 да нон олиш", 3)
            .await;
        assert_eq!(
            text(&replies[0]),
            format!(
                "{}\n{}",
                cyrillic.t_with(
                    "tz-task-kept",
                    &[("text", Arg::Text("эртага соат 9 да нон олиш"))]
                ),
                cyrillic.t("tz-ask")
            )
        );
        assert!(
            text(&replies[0]).contains("Қайси вақт минтақасида"),
            "{replies:?}"
        );
        assert_eq!(text(&replies[2]), cyrillic.t("lang-written-offer"));
        assert!(
            labels(&replies[2]).contains(&"✓ Ўзбекча".to_owned()),
            "{replies:?}"
        );

        // The offer is taken: Latin from now on, whatever the user writes.
        let (_, set) = app.tap_reply(ann, replies[2].message_id, ann, "l:2").await;
        assert_eq!(text(&set), latin.t("lang-set"));
        let again = app.say(ann, "эртага соат 10 да сут олиш").await;
        assert!(text(&again).contains("allaqachon kutmoqda"), "{again:?}");
    }
    // A language chosen with /lang is never changed by what the user writes.
    let bob = app.user("Bob", "uz");
    app.say(bob, "/lang ru").await;
    let replies = app
        .say_expecting(bob, bob, "эртага соат 9 да нон олиш", 2)
        .await;
    assert!(
        text(&replies[0]).contains(&Tr::new(Lang::Ru).t("tz-ask")),
        "{replies:?}"
    );
    // Russian stays Russian.
    let vera = app.user("Vera", "ru");
    let replies = app
        .say_expecting(vera, vera, "завтра в 9 позвонить маме", 2)
        .await;
    assert!(
        text(&replies[0]).contains(&Tr::new(Lang::Ru).t("tz-ask")),
        "{replies:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn words_and_labels_say_what_they_do_in_every_language() {
    let mut app = TestApp::start().await;
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        assert_ne!(tr.t("button-undo"), tr.t("button-cancel"), "{lang}");
    }
    for (code, undo, cancel, lead) in [
        ("en", "↩️ Undo", "✖️ Cancel", "15 minutes"),
        ("ru", "↩️ Вернуть", "✖️ Отмена", "15 минут"),
        ("uz", "↩️ Qaytarish", "✖️ Bekor qilish", "15 daqiqa"),
    ] {
        let tr = Tr::new(Lang::from_code(code));
        let ann = app.user("Ann", code);
        app.say(ann, "/tz Asia/Tashkent").await;
        let card = app.say(ann, "tomorrow 10:00 pay rent").await;
        assert_eq!(labels(&card)[0], undo, "{card:?}");
        let asked = app.say(ann, "pay rent").await;
        assert_eq!(labels(&asked).last().unwrap(), cancel, "{asked:?}");
        let languages = app.say(ann, "/lang").await;
        let ticked: Vec<String> = labels(&languages)
            .into_iter()
            .filter(|label| label.starts_with('✓'))
            .collect();
        assert_eq!(ticked.len(), 1, "{languages:?}");
        let set = app.say(ann, "/settings 15").await;
        assert!(text(&set).contains(lead), "{set:?}");
        assert!(!text(&set).contains(&tr.t("settings-bad")), "{set:?}");
        let help = app.say(ann, "/help").await;
        assert!(text(&help).contains(&tr.t("help-forward")), "{help:?}");
    }
    app.stop().await;
}

#[test]
fn written_offer_and_help_forward_in_every_script() {
    let lines: Vec<String> = Lang::CHOICES
        .into_iter()
        .flat_map(|lang| {
            let tr = Tr::new(lang);
            [
                tr.t("lang-written-offer"),
                tr.t("help-forward"),
                format!("{} | {}", tr.t("button-undo"), tr.t("button-cancel")),
            ]
        })
        .collect();
    insta::assert_snapshot!("written_offer_and_labels", lines.join("\n"));
}
