//! Bad input, in each language: every case gets a clear answer in the user's language (what was
//! wrong and an example that works, or "not found"), no message fails the simulator's HTML or
//! length checks, nothing panics, and no job is created.

use std::num::NonZeroU32;

use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;
use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use crate::app::{TestApp, text};

/// Inputs that must not create a task, whatever the user's language.
fn cases() -> Vec<String> {
    let mut cases: Vec<String> = [
        // Empty and invisible (Telegram delivers no message without text).
        "/add \u{3000}\t",
        "/add \u{00A0}",
        "\u{200B}\u{200C}\u{200D}",
        "\u{FEFF}",
        "/add",
        "/add    ",
        "/add \u{200B}",
        // HTML and markdown, without a time: the bot asks when.
        "<b>bold</b>",
        "</i>&amp;<a href='x'>",
        "a < b && c > d",
        "&",
        "<script>alert(1)</script>",
        "*bold* _it_ `code` [link](http://example.com)",
        "```rm -rf /```",
        "<pre>",
        // Emoji, right-to-left and mixed scripts.
        "🎉🎉🎉",
        "👨‍👩‍👧‍👦",
        "\u{202E}gnp.exe",
        "مرحبا",
        "שלום עולם",
        // SQL-looking.
        "'; drop table tasks; --",
        "1 OR 1=1",
        "/done 1 OR 1=1",
        "/delete '; drop table jobs; --",
        // Time only, no text.
        "tomorrow 9:00",
        "in 10 min",
        "завтра в 9",
        "ertaga 18:00",
        // Past dates.
        "call mom 01.01.2020 10:00",
        "report 2020-05-01",
        "хлеб 01.01.2021 в 10:00",
        // Impossible dates and times.
        "pay 31.02",
        "pay 31.02.2027 10:00",
        "test 29.02.2027",
        "meet at 25:61",
        "встреча в 25:00",
        "yig'ilish 24:30",
        "party 32.13",
        "every month on the 32nd pay",
        // Too far.
        "party 01.01.3000",
        "party 3000-01-01",
        // Unknown zones and settings.
        "/tz Mars/Olympus",
        "/tz +15",
        "/tz +02:15",
        "/tz Atlantis",
        "/tz UTC+99",
        "/tz <b>",
        "/settings forever",
        "/settings 999 days",
        "/settings -5 min",
        "/lang klingon",
        // Ids: foreign, malformed, huge.
        "/done 999999",
        "/delete 1",
        "/done abc",
        "/done",
        "/delete",
        "/done -5",
        "/done 99999999999999999999999",
        "/delete #0",
        "/frobnicate",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    cases.push("x".repeat(5000));
    cases.push(format!("{} tomorrow 9:00", "я".repeat(1500)));
    cases.push(format!("/add {}", "<b>".repeat(400)));
    cases
}

/// What every answer in `lang` contains: an example, or "not found", or "unknown command".
fn is_clear_answer(lang: Lang, reply: &str) -> bool {
    let tr = Tr::new(lang);
    reply.contains(&tr.t("example-label"))
        || reply == tr.t("not-found")
        || reply == tr.t("unknown-command")
}

#[tokio::test]
async fn bot_bad_input_gets_a_clear_answer_and_creates_nothing() {
    let mut app = TestApp::builder()
        .config(|c| c.bot.user_updates_per_minute = NonZeroU32::new(10_000).unwrap())
        .start()
        .await;
    let mut checked = 0;
    for (code, lang, zone) in [
        ("en", Lang::En, "/tz New York"),
        ("ru-RU", Lang::Ru, "/tz Москва"),
        ("uz", Lang::Uz, "/tz Toshkent"),
    ] {
        let user = app.user("Ann", code);
        app.say(user, zone).await;
        for case in cases() {
            sqlx::query("delete from conversations")
                .execute(&app.pool)
                .await
                .unwrap();
            let reply = app.say(user, &case).await;
            let reply = text(&reply);
            assert!(
                is_clear_answer(lang, reply),
                "{code} {case:?} got {reply:?}"
            );
            if lang != Lang::En {
                assert!(
                    !reply.contains(&Tr::new(Lang::En).t("example-label")),
                    "{code} {case:?} answered in English: {reply:?}"
                );
            }
            checked += 1;
        }
        checked += forged_taps(&app, user, lang).await;
    }
    assert!(checked >= 100, "{checked} cases");
    assert!(app.jobs().await.is_empty(), "{:?}", app.jobs().await);
    let tasks: i64 = sqlx::query_scalar("select count(*) from tasks")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(tasks, 0);
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

/// Buttons with forged or stale data, as a tampering client could send: each tap is answered
/// and changes nothing. Returns how many were checked.
async fn forged_taps(app: &TestApp, user: i64, lang: Lang) -> usize {
    let tr = Tr::new(lang);
    let forged = [
        "zz:1", "d:0", "s:1:5m", "z:200", "l:9", "ar:1", "d:999999", "x:1", "u:42", "v:42", "v:0",
        "q:e:42", "q:s:1:x", "q:y",
    ];
    let message = app
        .bot()
        .send_message(ChatId(user), "forged")
        .reply_markup(InlineKeyboardMarkup::new(
            forged
                .iter()
                .map(|data| [InlineKeyboardButton::callback(*data, *data)]),
        ))
        .await
        .unwrap();
    for data in forged {
        let tap = app.tap(user, i64::from(message.id.0), user, data).await;
        let answer = tap.answer.and_then(|a| a.text).unwrap_or_default();
        assert!(
            [
                "stale-button",
                "not-found",
                "undo-outdated",
                "cancel-nothing"
            ]
            .iter()
            .any(|key| answer == tr.t(key)),
            "{data} answered {answer:?}"
        );
    }
    forged.len()
}
