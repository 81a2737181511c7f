//! Series that end and series counted from Done (issue 24), through the chat and the simulator:
//! "10 times" stops after the last one and says so, "until <date>" never fires past it, and
//! "every! 3 days" comes 3 days after the user pressed Done, not after the due time. Time is
//! controlled by bringing the due jobs forward.

use chrono::{Duration, Timelike, Utc};
use chrono_tz::Tz;
use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;
use tgsim::TranscriptEntry;

use crate::app::{TestApp, buttons, text};
use crate::bot_nag::bring_due;
use crate::support::{WAIT, eventually};

/// The task id behind the Change time button of a card.
pub(crate) fn task_id(card: &TranscriptEntry) -> i64 {
    buttons(card)
        .iter()
        .find_map(|data| data.strip_prefix("e:")?.parse().ok())
        .unwrap_or_else(|| panic!("a Change time button under {card:?}"))
}

/// Waits until the task's next reminder is scheduled, then brings it forward to now; returns the
/// reminder the user receives after message `after`.
pub(crate) async fn next_reminder(app: &TestApp, user: i64, after: i64) -> TranscriptEntry {
    eventually(WAIT, "the next reminder to be scheduled", || async {
        !app.pending_jobs().await.is_empty()
    })
    .await;
    bring_due(app).await;
    app.reply_containing(user, after, &Tr::new(Lang::En).t("reminder-title"))
        .await
}

/// Waits until the task has no reminder waiting (the one sent is recorded, nothing follows).
async fn assert_nothing_follows(app: &TestApp) {
    eventually(WAIT, "no reminder to wait", || async {
        sqlx::query_scalar::<_, i64>("select count(*) from reminders where not sent")
            .fetch_one(&app.pool)
            .await
            .unwrap()
            == 0
    })
    .await;
    assert!(app.pending_jobs().await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_a_counted_repeat_stops_after_its_last_and_says_so() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app.say(ann, "every day at 9 pills 2 times").await;
    assert!(
        text(&card).contains("Repeats: every day, 2 times in all"),
        "{card:?}"
    );
    let id = task_id(&card);

    let first = next_reminder(&app, ann, card.message_id).await;
    assert!(text(&first).contains("pills"), "{first:?}");
    assert!(!text(&first).contains("last one"), "{first:?}");
    let second = next_reminder(&app, ann, first.message_id).await;
    assert!(
        text(&second).contains("🏁 The last one of this series: no more will follow."),
        "{second:?}"
    );
    assert_nothing_follows(&app).await;

    let (_, done) = app
        .tap_reply(ann, second.message_id, ann, &format!("d:{id}"))
        .await;
    assert_eq!(
        text(&done),
        "Done: pills. That was the last one: the series has ended."
    );
    let list = app.say(ann, "/list").await;
    assert!(!text(&list).contains("pills"), "{list:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_an_end_date_is_never_passed() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    // A time already past today: the first one is tomorrow, the last the day after.
    let zone = Tz::Asia__Tashkent;
    let local = Utc::now().with_timezone(&zone);
    let hour = (local.hour() + 23) % 24;
    let first_day = local.date_naive() + Duration::days(if hour < local.hour() { 1 } else { 0 });
    let last_day = first_day + Duration::days(1);
    let until = last_day.format("%-d %B").to_string();
    let card = app
        .say(
            ann,
            &format!("every day at {hour:02}:00 stretch until {until}"),
        )
        .await;
    let shown = last_day.format("%-d %B %Y");
    assert!(
        text(&card).contains(&format!("Repeats: every day, until {shown}")),
        "{card:?}"
    );

    let first = next_reminder(&app, ann, card.message_id).await;
    assert!(!text(&first).contains("last one"), "{first:?}");
    let second = next_reminder(&app, ann, first.message_id).await;
    assert!(text(&second).contains("🏁 The last one"), "{second:?}");
    assert_nothing_follows(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_after_done_counts_from_the_press_of_done() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    let (zone, hour) = zone_and_past_hour();
    app.say(ann, &format!("/tz {}", zone.name())).await;
    let local = Utc::now().with_timezone(&zone);
    let card = app
        .say(ann, &format!("water plants every! 3 days at {hour:02}:00"))
        .await;
    assert!(
        text(&card).contains("Repeats: every 3 days, counted from each Done"),
        "{card:?}"
    );
    let id = task_id(&card);

    let reminder = next_reminder(&app, ann, card.message_id).await;
    let (_, done) = app
        .tap_reply(ann, reminder.message_id, ann, &format!("d:{id}"))
        .await;
    // Three days from today (when Done was pressed), not from tomorrow's due time.
    let next = (local.date_naive() + Duration::days(3)).format("%a %-d %b");
    assert!(
        text(&done).contains(&format!("Next time: {next}")),
        "{done:?}"
    );
    assert!(
        buttons(&done).iter().any(|data| data.starts_with("v:")),
        "a recurring Done has its Undo: {done:?}"
    );
    let due: chrono::DateTime<Utc> = sqlx::query_scalar("select due_at from tasks where id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let due = due.with_timezone(&zone);
    assert_eq!(
        (due.date_naive(), due.hour()),
        (local.date_naive() + Duration::days(3), hour)
    );
}

/// A zone among three where it is past 02:00 now, and the hour before now there: a daily task at
/// that hour comes first tomorrow.
fn zone_and_past_hour() -> (Tz, u32) {
    let zone = [
        Tz::Asia__Tashkent,
        Tz::Europe__London,
        Tz::America__Los_Angeles,
    ]
    .into_iter()
    .find(|zone| Utc::now().with_timezone(zone).hour() >= 2)
    .expect("one of three zones 5 and 8 hours apart is past 02:00");
    (zone, Utc::now().with_timezone(&zone).hour() - 1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_a_paused_repeat_fires_nothing_and_resumes_once_at_its_next_time() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    let (zone, hour) = zone_and_past_hour();
    app.say(ann, &format!("/tz {}", zone.name())).await;
    let card = app
        .say(ann, &format!("every day at {hour:02}:00 stretch"))
        .await;
    let id = task_id(&card);
    let reminder = next_reminder(&app, ann, card.message_id).await;
    assert!(
        buttons(&reminder).contains(&format!("hp:{id}")),
        "{reminder:?}"
    );
    // It says it repeats, and when next: the day after tomorrow's (tomorrow's is the one sent).
    let next = Utc::now().with_timezone(&zone).date_naive() + Duration::days(2);
    assert!(
        text(&reminder).contains(&format!(
            "🔁 every day · next: {}, {hour:02}:00",
            next.format("%a %-d %b")
        )),
        "{reminder:?}"
    );

    let (answer, paused) = app
        .tap_reply(ann, reminder.message_id, ann, &format!("hp:{id}"))
        .await;
    assert_eq!(
        answer.answer.and_then(|a| a.text).as_deref(),
        Some("Paused ⏸")
    );
    assert!(text(&paused).contains("⏸ Paused: stretch."), "{paused:?}");
    assert_nothing_follows(&app).await;

    // Paused for days: its occurrences came and went, and none was sent.
    sqlx::query("update tasks set due_at = due_at - interval '5 days' where id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query("update reminders set due_at = due_at - interval '5 days' where task_id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    let (_, resumed) = app
        .tap_reply(ann, paused.message_id, ann, &format!("hr:{id}"))
        .await;
    assert!(
        text(&resumed).contains("▶️ Resumed: stretch. Next time: tomorrow"),
        "{resumed:?}"
    );
    let jobs = app.pending_jobs().await;
    assert_eq!(
        jobs.len(),
        1,
        "one reminder, no burst of missed ones: {jobs:?}"
    );
    assert!(jobs[0].run_at > Utc::now(), "{jobs:?}");

    let once = app.say(ann, "call mom in 2 hours").await;
    let reply = app.say(ann, &format!("/pause {}", task_id(&once))).await;
    assert!(
        text(&reply).contains("Only a repeating task can be paused"),
        "{reply:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cards_one_card_of_a_task_is_live_and_done_closes_them_all() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app.say(ann, "call bob in 10 minutes").await;
    let id = task_id(&card);
    let first = next_reminder(&app, ann, card.message_id).await;
    assert!(buttons(&first).contains(&format!("n:{id}")), "{first:?}");

    // Keep reminding: the nag that comes is the live card, the first one loses its buttons.
    app.tap(ann, first.message_id, ann, &format!("n:{id}"))
        .await;
    let nag = next_reminder(&app, ann, first.message_id).await;
    assert!(text(&nag).contains("Reminder 1 of 12"), "{nag:?}");
    assert!(buttons(&nag).contains(&format!("d:{id}")), "{nag:?}");
    assert!(!buttons(&nag).contains(&format!("n:{id}")), "{nag:?}");
    app.message_once(ann, first.message_id, |m| buttons(m).is_empty())
        .await;

    // A snooze takes the buttons off: the same reminder cannot be snoozed again from it.
    let answer = app
        .tap(ann, nag.message_id, ann, &format!("s:{id}:10m"))
        .await;
    assert_eq!(
        answer.answer.and_then(|a| a.text).as_deref(),
        Some(Tr::new(Lang::En).t("callback-snoozed").as_str())
    );
    app.message_once(ann, nag.message_id, |m| buttons(m).is_empty())
        .await;

    // The snoozed reminder is the one live card; Done on it leaves none.
    let snoozed = next_reminder(&app, ann, nag.message_id).await;
    assert!(
        buttons(&snoozed).contains(&format!("d:{id}")),
        "{snoozed:?}"
    );
    app.tap(ann, snoozed.message_id, ann, &format!("d:{id}"))
        .await;
    for message in [first.message_id, nag.message_id, snoozed.message_id] {
        app.message_once(ann, message, |m| buttons(m).is_empty())
            .await;
    }
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_undoing_a_recurring_done_puts_the_occurrence_back() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    let (zone, hour) = zone_and_past_hour();
    app.say(ann, &format!("/tz {}", zone.name())).await;
    let card = app
        .say(ann, &format!("every day at {hour:02}:00 stretch 3 times"))
        .await;
    let id = task_id(&card);
    let stored = || async {
        sqlx::query_as::<_, (chrono::DateTime<Utc>, i32)>(
            "select due_at, occurrence from tasks where id = $1",
        )
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap()
    };
    let first = stored().await;
    assert_eq!(first.1, 1);

    let done = app.say(ann, &format!("/done {id}")).await;
    assert!(text(&done).contains("Done. Next time:"), "{done:?}");
    let undo = buttons(&done)
        .into_iter()
        .find(|data| data.starts_with("v:"))
        .unwrap_or_else(|| panic!("an Undo under {done:?}"));
    assert_eq!(stored().await.1, 2);

    app.tap(ann, done.message_id, ann, &undo).await;
    eventually(WAIT, "the occurrence to be back", || async {
        stored().await == first
    })
    .await;
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(jobs[0].run_at, first.0, "{jobs:?}");
}

#[test]
fn series_the_repeat_line_names_the_end_and_done_in_every_language() {
    use chrono::NaiveDate;
    use remindbot::domain::recurrence::{End, Frequency, Recurrence};
    use remindbot::i18n::repeats::repeats_text;

    let nine = chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap();
    let daily = Recurrence::new(Frequency::Daily, nine).unwrap();
    let counted = daily.ending(End::Count(10)).unwrap();
    let until = daily
        .ending(End::Until(NaiveDate::from_ymd_opt(2027, 3, 1).unwrap()))
        .unwrap();
    let start = NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
    let after_done = Recurrence::every(Frequency::Daily, nine, 3, start)
        .and_then(Recurrence::from_done)
        .unwrap();
    let lines = |lang| {
        let tr = Tr::new(lang);
        [&counted, &until, &after_done].map(|rule| repeats_text(tr, rule))
    };
    assert_eq!(
        lines(Lang::En),
        [
            "every day, 10 times in all",
            "every day, until 1 March 2027",
            "every 3 days, counted from each Done"
        ]
    );
    let ru = lines(Lang::Ru);
    assert!(ru[0].ends_with(", всего 10 раз"), "{ru:?}");
    assert!(ru[1].ends_with(", до 1 марта 2027"), "{ru:?}");
    assert!(ru[2].ends_with(", считая от отметки «Готово»"), "{ru:?}");
    let uz = lines(Lang::Uz);
    assert!(uz[0].ends_with(", jami 10 marta"), "{uz:?}");
    assert!(uz[1].ends_with(", 2027-yil 1-martgacha"), "{uz:?}");
    assert!(uz[2].contains("«Bajarildi»"), "{uz:?}");
    let cyrillic = lines(Lang::UzCyrl);
    assert!(cyrillic[0].ends_with(", жами 10 марта"), "{cyrillic:?}");
    assert!(cyrillic[1].contains("2027-йил 1-мартгача"), "{cyrillic:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cards_a_question_answered_with_its_buttons_loses_them() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app.say(ann, "call bob in 10 minutes").await;
    let id = task_id(&card);
    let reminder = next_reminder(&app, ann, card.message_id).await;
    let (_, question) = app
        .tap_reply(ann, reminder.message_id, ann, &format!("s:{id}:c"))
        .await;
    assert!(
        buttons(&question).contains(&format!("s:{id}:1h")),
        "{question:?}"
    );
    app.tap(ann, question.message_id, ann, &format!("s:{id}:1h"))
        .await;
    for message in [question.message_id, reminder.message_id] {
        app.message_once(ann, message, |m| buttons(m).is_empty())
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn series_a_paused_repeat_shows_as_paused_in_the_list_and_on_its_card() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app.say(ann, "every day at 9:00 stretch").await;
    let id = task_id(&card);
    let line = |list: &TranscriptEntry| {
        text(list)
            .lines()
            .find(|line| line.starts_with(&format!("#{id} ")))
            .unwrap_or_else(|| panic!("task {id} in {list:?}"))
            .to_owned()
    };
    let list = app.say(ann, "/list").await;
    assert!(!line(&list).contains("⏸"), "{list:?}");

    app.say(ann, &format!("/pause {id}")).await;
    let list = app.say(ann, "/list").await;
    assert!(line(&list).contains("🔁 ⏸ paused — stretch"), "{list:?}");

    // Its card, after Change time, says it is paused (and nothing is scheduled).
    let (_, question) = app
        .tap_reply(ann, card.message_id, ann, &format!("e:{id}"))
        .await;
    let changed = app.say(ann, "every day at 10:00").await;
    assert!(
        text(&changed).contains(&format!(
            "⏸ Paused: no reminders until you resume it (/resume {id})."
        )),
        "{changed:?}"
    );
    assert!(!text(&changed).contains("⏰"), "{changed:?}");
    assert!(app.pending_jobs().await.is_empty());
    app.message_once(ann, question.message_id, |m| buttons(m).is_empty())
        .await;

    app.say(ann, &format!("/resume {id}")).await;
    let list = app.say(ann, "/list").await;
    assert!(!line(&list).contains("⏸"), "{list:?}");
}
