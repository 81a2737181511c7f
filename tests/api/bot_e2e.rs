//! End to end through the simulator and the real dispatcher: in each language a user sets a zone,
//! creates a task by free text, lists, snoozes, edits, finishes and deletes it, and the jobs table
//! follows each step; another user can neither see nor touch it. A time that has passed is named
//! the way each language writes dates.

use chrono::{DateTime, Datelike, Days, NaiveDate, NaiveTime, Utc};
use chrono_tz::Tz;
use remindbot::domain::due::NIGHT_ENDS;
use remindbot::domain::lang::Lang;
use remindbot::domain::timezone::{resolve_local, to_local};
use remindbot::i18n::{Arg, Tr};
use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use crate::app::{TestApp, buttons, text};

const TASHKENT: Tz = chrono_tz::Asia::Tashkent;

struct Script {
    lang: Lang,
    code: &'static str,
    create: &'static str,
    task: &'static str,
    /// The start of the card's due line for `create`, as the user reads it (the weekday and date
    /// follow, then the time).
    due_line: &'static str,
    recurring: &'static str,
    recurring_task: &'static str,
}

/// Whether it is now after midnight and before [`NIGHT_ENDS`] in Tashkent, when "tomorrow" is
/// the coming day, today's date.
fn after_midnight() -> bool {
    to_local(TASHKENT, Utc::now()).time() < NIGHT_ENDS
}

/// "tomorrow" at `hour`:00 in Tashkent: the calendar's tomorrow, or today's date after midnight.
fn tomorrow_at(hour: u32) -> DateTime<Utc> {
    let today = to_local(TASHKENT, Utc::now()).date();
    let days = if after_midnight() { 0 } else { 1 };
    let tomorrow = today.checked_add_days(Days::new(days)).unwrap();
    resolve_local(
        TASHKENT,
        tomorrow.and_time(NaiveTime::from_hms_opt(hour, 0, 0).unwrap()),
    )
}

/// The next 31 December 10:00 in Tashkent that is still ahead.
fn next_new_years_eve() -> DateTime<Utc> {
    let now = Utc::now();
    let year = to_local(TASHKENT, now).date().year_ce().1 as i32;
    [year, year + 1]
        .into_iter()
        .map(|y| {
            resolve_local(
                TASHKENT,
                NaiveDate::from_ymd_opt(y, 12, 31)
                    .unwrap()
                    .and_hms_opt(10, 0, 0)
                    .unwrap(),
            )
        })
        .find(|t| *t > now)
        .unwrap()
}

/// Asserts that `actual` is the string `key` with some time as its `when`.
fn assert_shaped(tr: Tr, key: &str, actual: &str) {
    let shape = tr.t_with(key, &[("when", Arg::Text("\u{1}"))]);
    let (before, after) = shape.split_once('\u{1}').unwrap();
    assert!(
        actual.starts_with(before) && actual.ends_with(after),
        "{actual:?} is not {shape:?}"
    );
}

fn task_id(data: &[String], prefix: &str) -> i64 {
    data.iter()
        .find_map(|d| d.strip_prefix(prefix))
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("a {prefix} button in {data:?}"))
}

async fn full_round(script: Script) {
    let mut app = TestApp::start().await;
    let tr = Tr::new(script.lang);
    let ann = app.user("Ann", script.code);

    // /start asks the zone once, with buttons (and a location button after it); a tap sets it.
    let start = app.say_expecting(ann, ann, "/start", 2).await.remove(0);
    assert!(text(&start).contains(&tr.t("tz-ask")), "{start:?}");
    let (_, zone_set) = app.tap_reply(ann, start.message_id, ann, "z:0").await;
    assert!(text(&zone_set).contains("Asia/Tashkent"), "{zone_set:?}");

    // A task by free text: confirmed with its due time, Undo and Change time.
    let card = app.say(ann, script.create).await;
    assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
    assert!(text(&card).contains(script.task), "{card:?}");
    let due = tomorrow_at(18);
    if after_midnight() {
        let today = tr.t_with("date-today", &[("time", Arg::Text("18:00"))]);
        assert!(text(&card).contains(&today), "{card:?}");
    } else {
        assert!(text(&card).contains(script.due_line), "{card:?}");
    }
    assert!(text(&card).contains("18:00"), "{card:?}");
    let id = task_id(&buttons(&card), "e:");
    assert!(buttons(&card)[0].starts_with("v:"), "{card:?}");
    assert_eq!(buttons(&card)[1], format!("e:{id}"));
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(jobs[0].run_at, due);

    // The list shows it with its buttons.
    let list = app.say(ann, "/list").await;
    assert!(text(&list).contains(script.task), "{list:?}");
    assert!(text(&list).contains(&format!("#{id}")), "{list:?}");
    for data in [
        format!("d:{id}"),
        format!("s:{id}:c"),
        format!("e:{id}"),
        format!("x:{id}"),
    ] {
        assert!(buttons(&list).contains(&data), "{data} in {list:?}");
    }

    // Snooze: the choices, then an hour; an extra job, the deadline's job untouched.
    let (_, choices) = app
        .tap_reply(ann, list.message_id, ann, &format!("s:{id}:c"))
        .await;
    assert!(text(&choices).contains(&tr.t("ask-snooze")), "{choices:?}");
    let (answer, snoozed) = app
        .tap_reply(ann, choices.message_id, ann, &format!("s:{id}:1h"))
        .await;
    assert_eq!(
        answer.answer.and_then(|a| a.text),
        Some(tr.t("callback-snoozed"))
    );
    assert_shaped(tr, "snoozed", text(&snoozed));
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 2, "{jobs:?}");
    let in_an_hour = Utc::now() + chrono::Duration::hours(1);
    assert!(
        (jobs[0].run_at - in_an_hour).num_seconds().abs() < 120,
        "{jobs:?}"
    );
    assert_eq!(jobs[0].kind.as_deref(), Some("snooze"));
    assert_eq!(jobs[1].run_at, due);

    // Edit: Change time, then a new time; both old jobs cancelled, one new job.
    let (_, ask) = app
        .tap_reply(ann, card.message_id, ann, &format!("e:{id}"))
        .await;
    assert!(text(&ask).contains(&tr.t("ask-edit")), "{ask:?}");
    let changed = app.say(ann, "31.12 10:00").await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    assert!(text(&changed).contains(script.task), "{changed:?}");
    let new_due = next_new_years_eve();
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(jobs[0].run_at, new_due);
    assert_eq!(app.jobs().await.len(), 3);

    // Another user sees nothing and touches nothing.
    let bob = app.user("Bob", script.code);
    app.say(bob, "/tz Tashkent").await;
    let bobs_list = app.say(bob, "/list").await;
    assert_eq!(text(&bobs_list), tr.t("list-empty"));
    for command in [format!("/done {id}"), format!("/delete {id}")] {
        let reply = app.say(bob, &command).await;
        assert_eq!(text(&reply), tr.t("not-found"), "{command}");
    }
    let forged = app
        .bot()
        .send_message(ChatId(bob), "forged")
        .reply_markup(InlineKeyboardMarkup::new([[
            InlineKeyboardButton::callback("done", format!("d:{id}")),
            InlineKeyboardButton::callback("snooze", format!("s:{id}:10m")),
            InlineKeyboardButton::callback("bad", "zz:1"),
        ]]))
        .await
        .unwrap();
    for data in [format!("d:{id}"), format!("s:{id}:10m")] {
        let tap = app.tap(bob, i64::from(forged.id.0), bob, &data).await;
        assert_eq!(tap.answer.and_then(|a| a.text), Some(tr.t("not-found")));
    }
    let tap = app.tap(bob, i64::from(forged.id.0), bob, "zz:1").await;
    assert_eq!(
        tap.answer.and_then(|a| a.text),
        Some(Tr::new(Lang::from_code(script.code)).t("stale-button"))
    );
    assert_eq!(app.pending_jobs().await, jobs, "Bob changed nothing");

    // Done from the list: no job left.
    let (answer, done) = app
        .tap_reply(ann, list.message_id, ann, &format!("d:{id}"))
        .await;
    assert_eq!(
        answer.answer.and_then(|a| a.text),
        Some(tr.t("callback-done"))
    );
    assert_eq!(
        text(&done),
        tr.t_with("done-ok", &[("text", Arg::Text(script.task))])
    );
    assert!(app.pending_jobs().await.is_empty());

    // A recurring task: done moves it to the next occurrence, delete ends it.
    let card = app.say(ann, script.recurring).await;
    assert!(text(&card).contains(script.recurring_task), "{card:?}");
    assert!(text(&card).contains("🔁"), "{card:?}");
    let rid = task_id(&buttons(&card), "e:");
    let first = app.pending_jobs().await;
    assert_eq!(first.len(), 1);
    let next = app.say(ann, &format!("/done {rid}")).await;
    assert_shaped(tr, "done-next", text(&next));
    let second = app.pending_jobs().await;
    assert_eq!(second.len(), 1);
    assert_eq!((second[0].run_at - first[0].run_at).num_hours(), 24);
    let deleted = app.say(ann, &format!("/delete {rid}")).await;
    assert_eq!(
        text(&deleted),
        tr.t_with("deleted", &[("text", Arg::Text(script.recurring_task))])
    );
    assert!(app.pending_jobs().await.is_empty());

    // Undo right after creating.
    let card = app.say(ann, script.create).await;
    let undo = buttons(&card)[0].clone();
    assert_eq!(app.pending_jobs().await.len(), 1);
    let (_, undone) = app.tap_reply(ann, card.message_id, ann, &undo).await;
    assert!(text(&undone).contains(script.task), "{undone:?}");
    assert!(app.pending_jobs().await.is_empty());
    // The undone card loses its buttons.
    app.message_once(ann, card.message_id, |e| e.buttons.is_empty())
        .await;

    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn bot_e2e_english() {
    full_round(Script {
        lang: Lang::En,
        code: "en-GB",
        create: "call mom tomorrow 18:00",
        task: "call mom",
        due_line: "Due: tomorrow, ",
        recurring: "every day 8:00 stretch",
        recurring_task: "stretch",
    })
    .await;
}

#[tokio::test]
async fn bot_e2e_russian() {
    full_round(Script {
        lang: Lang::Ru,
        code: "ru",
        create: "позвонить маме завтра в 18:00",
        task: "позвонить маме",
        due_line: "Срок: завтра, ",
        recurring: "каждый день в 8 зарядка",
        recurring_task: "зарядка",
    })
    .await;
}

#[tokio::test]
async fn bot_e2e_uzbek() {
    full_round(Script {
        lang: Lang::Uz,
        code: "uz",
        create: "sport ertaga 18:00",
        task: "sport",
        due_line: "Muddat: ertaga, ",
        recurring: "har kuni 7:00 yugurish",
        recurring_task: "yugurish",
    })
    .await;
}

#[tokio::test]
async fn bot_a_time_that_has_passed_is_named_as_each_language_writes_dates() {
    let mut app = TestApp::start().await;
    for (code, typed, answer) in [
        (
            "en",
            "call mom 01.01.2020 10:00",
            "That time has already passed: Wed 1 Jan 2020, 10:00.",
        ),
        (
            "ru",
            "позвонить маме 01.01.2020 в 10:00",
            "Это время уже прошло: ср, 1 янв. 2020 г., 10:00.",
        ),
        (
            "uz",
            "sport 01.01.2020 10:00",
            "Bu vaqt allaqachon o'tib ketgan: 2020-yil 1-yanvar, chorshanba, 10:00.",
        ),
    ] {
        let user = app.user(code, code);
        app.say(user, "/tz Tashkent").await;
        let reply = app.say(user, typed).await;
        assert!(text(&reply).contains(answer), "{reply:?}");
    }
    assert!(app.pending_jobs().await.is_empty());
    app.stop().await;
}
