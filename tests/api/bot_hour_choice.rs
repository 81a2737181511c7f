//! Clock times as people write them, through the chat (issue 24): "10:00" is never 22:00 and the
//! advice of a note gives what it says when followed; an hour that is truly either side of noon
//! on a named day ("tomorrow at 6") is saved with its daytime reading and two buttons,
//! [06:00] [18:00], that give exactly the time they say.

use remindbot::domain::lang::Lang;
use remindbot::i18n::{Arg, Tr};

use crate::app::{TestApp, buttons, text};
use crate::bot_misreadings::{at, at_noon, task_id, today, zone_at};
use crate::bot_trust::{edit, stored, toast};

/// The labels of the first row of buttons under a message.
fn first_row(entry: &tgsim::TranscriptEntry) -> Vec<String> {
    entry.buttons[0].iter().map(|b| b.text.clone()).collect()
}

/// Taps the evening button under `card` and waits for the card to tick it, labelled `label`.
async fn tap_evening(app: &TestApp, user: i64, card: &tgsim::TranscriptEntry, label: &str) {
    let id = task_id(card);
    app.tap(user, card.message_id, user, &format!("h:{id}:e"))
        .await;
    app.message_once(user, card.message_id, |e| {
        first_row(e).contains(&format!("✓ {label}"))
    })
    .await;
}

#[tokio::test]
async fn hour_choice_buttons_give_the_time_they_say() {
    let mut app = TestApp::start().await;
    for (lang, message, typed, daytime, other) in [
        ("en", "call mom tomorrow at 6", 6, 18, 6),
        ("ru", "завтра в 7 зарядка", 7, 7, 19),
        ("uz", "ertaga soat 6 da yugurish", 6, 18, 6),
        // Uzbek in Cyrillic is answered in it.
        ("uz-Cyrl", "эртага соат 6 да югуриш", 6, 18, 6),
    ] {
        let tr = Tr::new(Lang::from_code(lang));
        let lang = if lang == "uz-Cyrl" { "uz" } else { lang };
        let (ann, zone) = at_noon(&app, lang).await;
        let card = app.say(ann, message).await;
        let clock = |hour: u32| format!("{hour:02}:00");
        let note = tr.t_with(
            "assumed-hour-choice",
            &[
                ("typed", Arg::Text(&typed.to_string())),
                ("chosen", Arg::Text(&clock(daytime))),
                ("other", Arg::Text(&clock(other))),
            ],
        );
        assert!(text(&card).contains(&note), "{card:?} lacks {note}");
        let morning = clock(typed);
        let evening = clock(typed + 12);
        let ticked = |hour: u32, label: &str| {
            if hour == daytime {
                format!("✓ {label}")
            } else {
                label.to_owned()
            }
        };
        assert_eq!(
            first_row(&card),
            [ticked(typed, &morning), ticked(typed + 12, &evening)]
        );
        let id = task_id(&card);
        let tomorrow = today(zone).succ_opt().unwrap();
        assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, daytime, 0));

        // The other button: the task is at that time, and the card says so.
        let half = if other < 12 { "m" } else { "e" };
        let data = format!("h:{id}:{half}");
        assert!(buttons(&card).contains(&data), "{card:?}");
        let answer = app.tap(ann, card.message_id, ann, &data).await;
        assert_eq!(toast(&answer), tr.t("settings-saved"));
        let edited = app
            .message_once(ann, card.message_id, |e| {
                first_row(e).contains(&format!("✓ {}", clock(other)))
            })
            .await;
        assert!(text(&edited).contains(&clock(other)), "{edited:?}");
        assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, other, 0));
    }
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn an_hour_choice_in_a_repeat_keeps_repeating_at_the_time_tapped() {
    let mut app = TestApp::start().await;
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app.say(ann, "every day at 7 stretch").await;
    assert_eq!(first_row(&card), ["✓ 07:00", "19:00"], "{card:?}");
    let id = task_id(&card);
    let tomorrow = today(zone).succ_opt().unwrap();
    assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, 7, 0));
    tap_evening(&app, ann, &card, "19:00").await;
    let (_, due, rule, ..) = stored(&app, id).await;
    // Tonight's 19:00 is the first, and every day after it.
    assert_eq!(due, at(zone, today(zone), 19, 0));
    let rule = rule.unwrap();
    assert!(
        rule.contains("FREQ=DAILY") && rule.contains("BYHOUR=19"),
        "{rule}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_clock_time_is_never_read_twelve_hours_off_and_the_advice_holds() {
    let mut app = TestApp::start().await;
    for (lang, message) in [
        ("en", "call the office at 10:00"),
        ("ru", "позвонить в офис в 10:00"),
        ("uz", "soat 10:00 da ofisga qo'ng'iroq"),
    ] {
        let (ann, zone) = at_noon(&app, lang).await;
        let card = app.say(ann, message).await;
        let tomorrow = today(zone).succ_opt().unwrap();
        assert_eq!(
            stored(&app, task_id(&card)).await.1,
            at(zone, tomorrow, 10, 0),
            "{card:?}"
        );
        assert!(!text(&card).contains("22:00"), "{card:?}");
        assert!(!text(&card).contains("ℹ️"), "{card:?}");
    }
    // A bare hour at noon is the next one ahead, said; the advice given is followed to the letter.
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app.say(ann, "water the plants at 9").await;
    let advice = tr.t_with(
        "assumed-hour",
        &[
            ("typed", Arg::Text("9")),
            ("chosen", Arg::Text("21:00")),
            ("other", Arg::Text("09:00")),
        ],
    );
    assert!(text(&card).contains(&advice), "{card:?} lacks {advice}");
    let id = task_id(&card);
    let changed = edit(&app, ann, &card, "09:00").await;
    let tomorrow = today(zone).succ_opt().unwrap();
    assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, 9, 0));
    assert!(text(&changed).contains("09:00"), "{changed:?}");
    assert!(!text(&changed).contains("ℹ️"), "{changed:?}");
    app.stop().await;
}

#[test]
fn hour_choice_note_in_every_script() {
    let lines: Vec<String> = Lang::CHOICES
        .into_iter()
        .map(|lang| {
            remindbot::bot::assumed::hour_choice(
                Tr::new(lang),
                chrono::NaiveTime::from_hms_opt(18, 0, 0).unwrap(),
            )
        })
        .collect();
    insta::assert_snapshot!("hour_choice_note", lines.join("\n"));
}

#[tokio::test]
async fn an_hour_first_read_in_the_night_offers_the_afternoon_with_a_button() {
    let mut app = TestApp::start().await;
    let zone = zone_at(15);
    let ann = app.user("Ann", "en");
    app.say(ann, &format!("/tz {}", zone.name())).await;
    // "call client at 2" at 15:xx: 14:00 has passed, so 02:00 tonight comes first; few tasks
    // mean the night, so 14:00 is one tap away (it rang at 02:00 with only a note).
    let card = app.say(ann, "call client at 2").await;
    assert_eq!(first_row(&card), ["✓ 02:00", "14:00"], "{card:?}");
    let id = task_id(&card);
    let tomorrow = today(zone).succ_opt().unwrap();
    assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, 2, 0));
    tap_evening(&app, ann, &card, "14:00").await;
    assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, 14, 0));
    app.stop().await;
}
