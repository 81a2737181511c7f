//! The moments where people stop trusting a reminder bot, each as the user lives it through the
//! simulator: an Undo that undoes (an edit, Done, Delete; once; not after a newer change), an edit
//! that keeps what was not said (a weekly task's day, a task's time), a lead time that never makes
//! a reminder late, a new task never glued onto a pending question, questions closed by /cancel
//! or their Cancel button, and a list that shows the next reminder and what is overdue.

use chrono::{DateTime, Datelike, Utc, Weekday};
use chrono_tz::Tz;
use remindbot::domain::lang::Lang;
use remindbot::domain::timezone::to_local;
use remindbot::i18n::{Arg, Tr};
use tgsim::CallbackStatus;

use crate::app::{TestApp, buttons, text};
use crate::support::task_due_now;

const BERLIN: Tz = chrono_tz::Europe::Berlin;

/// The answer shown to the user who tapped.
pub fn toast(status: &CallbackStatus) -> String {
    status
        .answer
        .as_ref()
        .and_then(|a| a.text.clone())
        .unwrap_or_default()
}

/// The button data under a message that starts with `prefix`.
pub(crate) fn button(entry: &tgsim::TranscriptEntry, prefix: &str) -> String {
    buttons(entry)
        .into_iter()
        .find(|data| data.starts_with(prefix))
        .unwrap_or_else(|| panic!("a {prefix} button under {entry:?}"))
}

/// Sends a message with one button of `data` into `chat` as the bot, and returns its id: the
/// same tap again after the bot took its own buttons off (a double tap, a second device).
async fn stale_copy(app: &TestApp, chat: i64, data: &str) -> i64 {
    use teloxide::prelude::*;
    use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};
    let sent = app
        .bot()
        .send_message(ChatId(chat), "an older copy")
        .reply_markup(InlineKeyboardMarkup::new([[
            InlineKeyboardButton::callback("undo", data),
        ]]))
        .await
        .unwrap();
    i64::from(sent.id.0)
}

/// The task's text, deadline, rule, lead and state as stored.
pub(crate) async fn stored(
    app: &TestApp,
    id: i64,
) -> (String, DateTime<Utc>, Option<String>, i32, String) {
    sqlx::query_as("select text, due_at, rule, lead_secs, state from tasks where id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

/// A user of `lang` in Berlin.
async fn berliner(app: &TestApp, lang: &str) -> i64 {
    let user = app.user("Ann", lang);
    app.say(user, "/tz Europe/Berlin").await;
    user
}

/// Taps Change time under `card` and answers `answer`; returns the bot's answer.
pub(crate) async fn edit(
    app: &TestApp,
    user: i64,
    card: &tgsim::TranscriptEntry,
    answer: &str,
) -> tgsim::TranscriptEntry {
    let (_, ask) = app
        .tap_reply(user, card.message_id, user, &button(card, "e:"))
        .await;
    assert!(
        text(&ask).contains(&Tr::new(Lang::En).t("ask-edit")),
        "{ask:?}"
    );
    app.say(user, answer).await
}

#[tokio::test]
async fn trust_undo_after_an_edit_restores_text_time_rule_and_lead() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = berliner(&app, "en").await;
    let card = app
        .say(ann, "every monday 10:00 standup remind 15 min before")
        .await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let before = stored(&app, id).await;
    assert_eq!(before.3, 900, "{card:?}");
    let first_job = app.pending_jobs().await;

    let changed = edit(
        &app,
        ann,
        &card,
        "every friday 17:00 retro remind 1 hour before",
    )
    .await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    let after = stored(&app, id).await;
    assert_eq!(after.0, "retro");
    assert!(
        after.2.as_deref().unwrap().contains("BYDAY=FR"),
        "{after:?}"
    );
    assert_eq!(after.3, 3600);

    // Undo under "Task changed" puts the task back; it does not delete it.
    let (tapped, restored) = app
        .tap_reply(ann, changed.message_id, ann, &button(&changed, "v:"))
        .await;
    assert_eq!(toast(&tapped), tr.t("callback-undone"));
    assert!(
        text(&restored).contains(&tr.t("undo-edit-title")),
        "{restored:?}"
    );
    assert!(text(&restored).contains("standup"), "{restored:?}");
    assert!(text(&restored).contains("Mon"), "{restored:?}");
    assert_eq!(stored(&app, id).await, before);
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(
        jobs[0].run_at, first_job[0].run_at,
        "the reminder is back at its time"
    );
    // The Undo's buttons are gone, and it works once.
    app.message_once(ann, changed.message_id, |e| e.buttons.is_empty())
        .await;
    let copy = stale_copy(&app, ann, &button(&changed, "v:")).await;
    let again = app.tap(ann, copy, ann, &button(&changed, "v:")).await;
    assert_eq!(toast(&again), tr.t("undo-used"));
    assert_eq!(stored(&app, id).await, before);
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn trust_an_undo_of_something_changed_again_says_so() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = berliner(&app, "en").await;
    let card = app.say(ann, "call mom tomorrow 18:00").await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let first = edit(&app, ann, &card, "19:00").await;
    let second = edit(&app, ann, &first, "20:00").await;
    let now = stored(&app, id).await;
    let tapped = app
        .tap(ann, first.message_id, ann, &button(&first, "v:"))
        .await;
    assert_eq!(toast(&tapped), tr.t("undo-outdated"));
    // Creating it cannot be undone any more either: the task stays.
    let tapped = app
        .tap(ann, card.message_id, ann, &button(&card, "v:"))
        .await;
    assert_eq!(toast(&tapped), tr.t("undo-outdated"));
    assert_eq!(stored(&app, id).await, now);
    assert!(text(&second).contains("20:00"), "{second:?}");
    app.stop().await;
}

#[tokio::test]
async fn trust_a_time_alone_keeps_a_weekly_tasks_friday() {
    let mut app = TestApp::start().await;
    let ann = berliner(&app, "en").await;
    let card = app.say(ann, "every friday at 18:00 weekly review").await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let changed = edit(&app, ann, &card, "19:00").await;

    let (task_text, due, rule, _, _) = stored(&app, id).await;
    assert_eq!(task_text, "weekly review");
    let local = to_local(BERLIN, due);
    assert_eq!(local.weekday(), Weekday::Fri, "{local}");
    assert_eq!(local.format("%H:%M").to_string(), "19:00");
    let rule = rule.unwrap();
    assert!(
        rule.contains("BYDAY=FR") && rule.contains("BYHOUR=19"),
        "{rule}"
    );
    // The confirmation names Friday ("today" only when today is that Friday).
    let shown = text(&changed);
    let today_is_friday = to_local(BERLIN, Utc::now()).weekday() == Weekday::Fri;
    assert!(
        shown.contains("Fri") || (today_is_friday && shown.contains("today at 19:00")),
        "{changed:?}"
    );
    assert!(shown.contains("weekly review"), "{changed:?}");
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].run_at, due);
    app.stop().await;
}

#[tokio::test]
async fn trust_a_text_alone_keeps_the_time_and_its_reminder() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = berliner(&app, "en").await;
    let card = app.say(ann, "call mom tomorrow 18:00").await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let (_, due, _, _, _) = stored(&app, id).await;
    let jobs = app.pending_jobs().await;

    let changed = edit(&app, ann, &card, "call dad").await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    assert!(text(&changed).contains("call dad"), "{changed:?}");
    assert!(text(&changed).contains("18:00"), "{changed:?}");
    let (task_text, kept_due, _, _, _) = stored(&app, id).await;
    assert_eq!((task_text.as_str(), kept_due), ("call dad", due));
    assert_eq!(app.pending_jobs().await, jobs, "the reminder is untouched");
    app.stop().await;
}

#[tokio::test]
async fn trust_a_lead_that_would_be_past_is_clamped_and_the_reminder_is_not_late() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = berliner(&app, "en").await;
    app.say(ann, "/settings 30 min").await;

    // "call bob in 10 minutes": the reminder comes at the deadline, and the card says why.
    let card = app.say(ann, "call bob in 10 minutes").await;
    let clamped = tr.t_with(
        "task-remind-clamped",
        &[("when", Arg::Text("\u{1}")), ("lead", Arg::Text("\u{2}"))],
    );
    let (start, _) = clamped.split_once('\u{1}').unwrap();
    assert!(text(&card).contains(start), "{card:?}");
    assert!(
        text(&card).contains("not 30 minutes before the deadline"),
        "{card:?}"
    );
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let (_, due, _, lead, _) = stored(&app, id).await;
    assert_eq!(lead, 1800);
    let jobs = app.pending_jobs().await;
    assert_eq!(
        jobs[0].run_at, due,
        "fires at the deadline, not 20 minutes ago"
    );

    // One due in seconds arrives on time and never says "late".
    let card = app.say(ann, "call bob again in 2 seconds").await;
    assert!(text(&card).contains(start), "{card:?}");
    let reminder = app
        .reply_containing(ann, card.message_id, "call bob again")
        .await;
    assert!(
        text(&reminder).contains(&tr.t("reminder-title")),
        "{reminder:?}"
    );
    let late = tr.t_with("reminder-late", &[("late", Arg::Text(""))]);
    let late_words = late.split(':').nth(1).unwrap().trim();
    assert!(!text(&reminder).contains(late_words), "{reminder:?}");
    assert!(!text(&reminder).contains("Late by"), "{reminder:?}");
    app.stop().await;
}

#[tokio::test]
async fn trust_a_new_task_sent_while_the_bot_waits_for_when_is_its_own_task() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = berliner(&app, "en").await;
    let ask = app.say(ann, "buy bread").await;
    assert!(text(&ask).contains(&tr.t("ask-when")), "{ask:?}");
    assert_eq!(buttons(&ask), ["q:w"]);

    let replies = app
        .say_expecting(ann, ann, "call mom tomorrow 18:00", 2)
        .await;
    assert!(
        text(&replies[0]).contains(&tr.t("task-saved")),
        "{replies:?}"
    );
    assert!(text(&replies[0]).contains("call mom"), "{replies:?}");
    assert!(!text(&replies[0]).contains("bread"), "{replies:?}");
    assert!(
        text(&replies[1]).contains(&tr.t("ask-when-still")),
        "{replies:?}"
    );
    assert!(text(&replies[1]).contains("buy bread"), "{replies:?}");

    let card = app.say(ann, "tomorrow 9:00").await;
    assert!(text(&card).contains("buy bread"), "{card:?}");
    let texts: Vec<String> = sqlx::query_scalar("select text from tasks order by id")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(texts, ["call mom", "buy bread"]);
    app.stop().await;
}

#[tokio::test]
async fn trust_cancel_closes_a_question() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Ann", "ru");
    app.say(ann, "/tz Europe/Berlin").await;
    let nothing = app.say(ann, "/cancel").await;
    assert_eq!(text(&nothing), tr.t("cancel-nothing"));

    // /cancel closes "when?": the next message is a message of its own, not an answer.
    app.say(ann, "купить хлеб").await;
    let cancelled = app.say(ann, "/cancel").await;
    assert_eq!(
        text(&cancelled),
        tr.t_with("cancel-dropped", &[("text", Arg::Text("купить хлеб"))])
    );
    let open: i64 = sqlx::query_scalar("select count(*) from conversations")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(open, 0);
    let alone = app.say(ann, "завтра в 9").await;
    assert!(text(&alone).contains(&tr.t("err-no-text")), "{alone:?}");

    // The Cancel button under "new time?" closes it and leaves the task as it was.
    let card = app.say(ann, "позвонить маме завтра в 18:00").await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let before = stored(&app, id).await;
    let (_, ask) = app
        .tap_reply(ann, card.message_id, ann, &format!("e:{id}"))
        .await;
    let cancel = format!("q:e:{id}");
    assert_eq!(buttons(&ask), vec![cancel.clone()]);
    let (tapped, said) = app.tap_reply(ann, ask.message_id, ann, &cancel).await;
    assert_eq!(toast(&tapped), tr.t("callback-cancelled"));
    assert_eq!(
        text(&said),
        tr.t_with("cancel-edit", &[("id", Arg::Number(id))])
    );
    app.message_once(ann, ask.message_id, |e| e.buttons.is_empty())
        .await;
    let alone = app.say(ann, "в 20:00").await;
    assert!(text(&alone).contains(&tr.t("err-no-text")), "{alone:?}");
    assert_eq!(stored(&app, id).await, before);
    app.stop().await;
}

#[tokio::test]
async fn trust_done_and_delete_can_be_undone() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Uz);
    let ann = app.user("Ann", "uz");
    app.say(ann, "/tz +5").await;
    let card = app.say(ann, "sport ertaga 18:00").await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let before = stored(&app, id).await;
    let job = app.pending_jobs().await;

    // Done, then Undo: open again, its reminder back.
    let done = app.say(ann, &format!("/done {id}")).await;
    assert_eq!(
        text(&done),
        tr.t_with("done-ok", &[("text", Arg::Text("sport"))])
    );
    assert!(app.pending_jobs().await.is_empty());
    let (tapped, reopened) = app
        .tap_reply(ann, done.message_id, ann, &button(&done, "v:"))
        .await;
    assert_eq!(toast(&tapped), tr.t("callback-undone"));
    assert!(
        text(&reopened).contains(&tr.t("undo-done-title")),
        "{reopened:?}"
    );
    assert_eq!(stored(&app, id).await, before);
    assert_eq!(app.pending_jobs().await[0].run_at, job[0].run_at);

    // Delete, then Undo: back again.
    let deleted = app.say(ann, &format!("/delete {id}")).await;
    assert_eq!(
        text(&deleted),
        tr.t_with("deleted", &[("text", Arg::Text("sport"))])
    );
    let (_, restored) = app
        .tap_reply(ann, deleted.message_id, ann, &button(&deleted, "v:"))
        .await;
    assert!(
        text(&restored).contains(&tr.t("undo-delete-title")),
        "{restored:?}"
    );
    assert_eq!(stored(&app, id).await, before);
    assert_eq!(app.pending_jobs().await.len(), 1);
    let copy = stale_copy(&app, ann, &button(&deleted, "v:")).await;
    let again = app.tap(ann, copy, ann, &button(&deleted, "v:")).await;
    assert_eq!(toast(&again), tr.t("undo-used"));
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn trust_undoing_done_after_its_time_says_no_reminder_will_come() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    let id = task_due_now(&app.pool, &app.queue, ann, "water the plants").await;
    let reminder = app.reply_containing(ann, 0, "water the plants").await;
    let (_, done) = app
        .tap_reply(ann, reminder.message_id, ann, &format!("d:{id}"))
        .await;
    let (_, reopened) = app
        .tap_reply(ann, done.message_id, ann, &button(&done, "v:"))
        .await;
    assert!(
        text(&reopened).contains(&tr.t("undo-done-title")),
        "{reopened:?}"
    );
    assert!(
        text(&reopened).contains(&tr.t("task-overdue")),
        "{reopened:?}"
    );
    assert_eq!(buttons(&reopened), [format!("e:{id}")]);
    assert_eq!(stored(&app, id).await.4, "open");
    assert!(app.pending_jobs().await.is_empty());

    // The list marks it overdue.
    let list = app.say(ann, "/list").await;
    let overdue = tr.t_with("list-overdue", &[("when", Arg::Text("\u{1}"))]);
    let (_, mark) = overdue.split_once('\u{1}').unwrap();
    assert!(text(&list).contains(mark), "{list:?}");
    app.stop().await;
}

#[tokio::test]
async fn trust_the_list_shows_the_snoozed_reminder_not_the_old_one() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = berliner(&app, "en").await;
    let card = app.say(ann, "pay rent in 3 days").await;
    let id: i64 = button(&card, "e:")[2..].parse().unwrap();
    let list = app.say(ann, "/list").await;
    let remind = tr.t_with("list-remind", &[("when", Arg::Text(""))]);
    assert!(!text(&list).contains(remind.trim()), "{list:?}");

    let (_, choices) = app
        .tap_reply(ann, list.message_id, ann, &format!("s:{id}:c"))
        .await;
    app.tap_reply(ann, choices.message_id, ann, &format!("s:{id}:1h"))
        .await;
    let snoozed_at: DateTime<Utc> = app.pending_jobs().await[0].run_at;
    let list = app.say(ann, "/list").await;
    let expected = tr.t_with(
        "list-remind",
        &[(
            "when",
            Arg::Text(
                &remindbot::i18n::dates::Dates::new(tr, BERLIN, Utc::now()).moment(snoozed_at),
            ),
        )],
    );
    assert!(text(&list).contains(&expected), "{list:?} lacks {expected}");
    app.stop().await;
}
