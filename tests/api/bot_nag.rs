//! Nagging until done, through the chat and the simulator: "every 10 min until done" on a task,
//! and the Keep reminding button under a reminder, repeat a reminder (each nag an outbox job of
//! its own, sent once) until Done stops it in the same transaction, a snooze replaces it, or the
//! cap ends it with a word to the user. Time is controlled by bringing the due jobs forward.

use chrono::Utc;
use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;
use tgsim::TranscriptEntry;

use crate::app::{TestApp, buttons, text};
use crate::support::{JobRow, WAIT, db_now, eventually};

/// Brings every pending reminder job forward to now (the database's clock): the tests' clock.
pub async fn bring_due(app: &TestApp) -> Vec<JobRow> {
    let jobs = app.pending_jobs().await;
    let now = db_now(&app.pool).await;
    let mut tx = app.pool.begin().await.unwrap();
    for job in &jobs {
        assert!(
            pgqueue::maintenance::reschedule_job(&mut tx, job.id, now)
                .await
                .unwrap()
        );
    }
    tx.commit().await.unwrap();
    jobs
}

/// The task id behind the Change time button of a card.
fn task_id(card: &TranscriptEntry) -> i64 {
    buttons(card)
        .iter()
        .find_map(|data| data.strip_prefix("e:")?.parse().ok())
        .unwrap_or_else(|| panic!("a Change time button under {card:?}"))
}

/// The first bot message after `after` in the user's chat that contains `needle`.
async fn next_with(app: &TestApp, user: i64, after: i64, needle: &str) -> TranscriptEntry {
    app.reply_containing(user, after, needle).await
}

/// Asserts that the one pending reminder job is a nag (an extra reminder) due in about `minutes`,
/// once the reminder before it is recorded as sent (which schedules it).
async fn assert_one_nag_in(app: &TestApp, minutes: i64) {
    eventually(WAIT, "a nag to be scheduled", || async {
        !app.pending_jobs().await.is_empty()
    })
    .await;
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(jobs[0].kind.as_deref(), Some("snooze"), "{jobs:?}");
    let due_in = (jobs[0].run_at - db_now(&app.pool).await).num_seconds();
    assert!(
        (minutes * 60 - 30..=minutes * 60).contains(&due_in),
        "due in {due_in} s"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn until_done_repeats_the_reminder_until_done_stops_it() {
    let app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app
        .say(ann, "call bob in 10 minutes every 10 min until done")
        .await;
    assert!(text(&card).contains("call bob"), "{card:?}");
    assert!(
        text(&card)
            .contains("Until done: again every 10 minutes after each reminder, at most 12 times."),
        "{card:?}"
    );
    let id = task_id(&card);

    // The reminder, then a nag every 10 minutes, each counted, none with Keep reminding.
    bring_due(&app).await;
    let reminder = next_with(&app, ann, card.message_id, &tr.t("reminder-title")).await;
    assert!(text(&reminder).contains("call bob"), "{reminder:?}");
    assert!(
        buttons(&reminder).contains(&format!("n:{id}")),
        "{reminder:?}"
    );
    assert_one_nag_in(&app, 10).await;
    let mut last = reminder.message_id;
    for n in 1..=2 {
        bring_due(&app).await;
        let nag = next_with(&app, ann, last, &format!("Reminder {n} of 12")).await;
        assert!(text(&nag).contains("call bob"), "{nag:?}");
        assert!(text(&nag).contains("the next one in 10 minutes"), "{nag:?}");
        assert!(!buttons(&nag).contains(&format!("n:{id}")), "{nag:?}");
        assert_one_nag_in(&app, 10).await;
        last = nag.message_id;
    }

    // Done under the last nag: the task is done and the next nag is gone with it.
    let (answer, done) = app.tap_reply(ann, last, ann, &format!("d:{id}")).await;
    assert_eq!(
        answer.answer.and_then(|a| a.text),
        Some(tr.t("callback-done"))
    );
    assert!(text(&done).contains("call bob"), "{done:?}");
    assert!(app.pending_jobs().await.is_empty());
    let sent_nags: i64 =
        sqlx::query_scalar("select count(*) from reminders where task_id = $1 and sent")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(sent_nags, 3, "the reminder and two nags, each sent once");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_reminding_under_a_reminder_nags_until_a_snooze_replaces_it() {
    let app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Anna", "ru");
    app.say(ann, "/tz Europe/Moscow").await;
    let card = app.say(ann, "полить цветы через 10 минут").await;
    let id = task_id(&card);
    bring_due(&app).await;
    let reminder = next_with(&app, ann, card.message_id, &tr.t("reminder-title")).await;
    assert!(
        app.pending_jobs().await.is_empty(),
        "a one-off task, no nag yet"
    );

    // Keep reminding: every 10 minutes from now, the button leaves the message.
    let (answer, said) = app
        .tap_reply(ann, reminder.message_id, ann, &format!("n:{id}"))
        .await;
    assert_eq!(
        answer.answer.and_then(|a| a.text),
        Some(tr.t("callback-nag"))
    );
    assert_eq!(
        text(&said),
        "Буду напоминать раз в 10 минут, пока задача не сделана, не больше 12 раз."
    );
    let edited = app
        .message_once(ann, reminder.message_id, |m| {
            !buttons(m).contains(&format!("n:{id}"))
        })
        .await;
    assert!(buttons(&edited).contains(&format!("d:{id}")), "{edited:?}");
    assert_one_nag_in(&app, 10).await;
    bring_due(&app).await;
    let nag = next_with(&app, ann, said.message_id, "Напоминание 1 из 12").await;
    assert!(text(&nag).contains("полить цветы"), "{nag:?}");
    assert_one_nag_in(&app, 10).await;

    // A snooze for an hour replaces the next nag.
    app.tap(ann, nag.message_id, ann, &format!("s:{id}:1h"))
        .await;
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    let in_an_hour = (jobs[0].run_at - Utc::now()).num_minutes();
    assert!((58..=60).contains(&in_an_hour), "{jobs:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cap_ends_nagging_and_says_so() {
    let app = TestApp::start().await;
    let ann = app.user("Anvar", "uz");
    app.say(ann, "/tz Asia/Tashkent").await;
    // Every 24 hours fits one nag into the round's day.
    let card = app
        .say(
            ann,
            "10 daqiqadan keyin dori ichish bajarilmaguncha har 24 soatda",
        )
        .await;
    assert!(text(&card).contains("ko'pi bilan 1 marta"), "{card:?}");
    bring_due(&app).await;
    let reminder = next_with(&app, ann, card.message_id, "Eslatma").await;
    assert_one_nag_in(&app, 24 * 60).await;
    bring_due(&app).await;
    let nag = next_with(
        &app,
        ann,
        reminder.message_id,
        "1 tadan 1-eslatma, oxirgisi",
    )
    .await;
    assert!(text(&nag).contains("dori ichish"), "{nag:?}");
    app.wait_sent(2, WAIT).await;
    assert!(
        app.pending_jobs().await.is_empty(),
        "no nag after the last one"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interval_out_of_bounds_is_explained_and_creates_nothing() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let reply = app
        .say(ann, "call bob in 10 minutes every 30 hours until done")
        .await;
    assert!(
        text(&reply)
            .contains("every 1 minute at the most often and every 1 day at the least often"),
        "{reply:?}"
    );
    assert!(app.pending_jobs().await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_reminding_is_for_the_occurrence_it_was_tapped_under() {
    let app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app.say(ann, "every day 9:00 water the plants").await;
    let id = task_id(&card);
    bring_due(&app).await;
    let first = next_with(&app, ann, card.message_id, &tr.t("reminder-title")).await;
    eventually(WAIT, "the next day's reminder to be scheduled", || async {
        app.pending_jobs().await.len() == 1
    })
    .await;

    // Keep reminding under today's reminder: a nag in 10 minutes, beside tomorrow's reminder.
    let (_, said) = app
        .tap_reply(ann, first.message_id, ann, &format!("n:{id}"))
        .await;
    assert!(text(&said).contains("every 10 minutes"), "{said:?}");
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 2, "{jobs:?}");

    // Tomorrow's reminder goes out before anyone is done: it neither nags nor keeps today's
    // nag, and the task does not nag any more.
    let mut tx = app.pool.begin().await.unwrap();
    let now = db_now(&app.pool).await;
    for job in jobs
        .iter()
        .filter(|job| job.kind.as_deref() != Some("snooze"))
    {
        assert!(
            pgqueue::maintenance::reschedule_job(&mut tx, job.id, now)
                .await
                .unwrap()
        );
    }
    tx.commit().await.unwrap();
    let second = next_with(&app, ann, said.message_id, &tr.t("reminder-title")).await;
    assert!(text(&second).contains("water the plants"), "{second:?}");
    eventually(WAIT, "only the day after's reminder to wait", || async {
        let jobs = app.pending_jobs().await;
        jobs.len() == 1 && jobs[0].kind.as_deref() != Some("snooze")
    })
    .await;
    let nags: i64 = sqlx::query_scalar("select count(*) from task_nags where task_id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(nags, 0, "Keep reminding was for yesterday's reminder only");
}
