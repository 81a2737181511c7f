//! The morning agenda, through the chat and the simulator: `/agenda 8:00` schedules the day's
//! tasks at 8:00 on the chat's clock, `/agenda` shows it and `/agenda off` stops it; each agenda
//! that goes out schedules the next day's in the same transaction, DST-correct, in two zones
//! across their changes. Time is controlled by moving the agenda's job (its day and due time).

use chrono::{DateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use pgqueue::JobId;
use pgqueue::{JobState, NewJob};
use remindbot::store::agenda::{AgendaJob, next_at};
use remindbot::store::outbox::OutboxJob;
use tgsim::TranscriptEntry;

use crate::app::{TestApp, text};
use crate::support::{db_now, job_by_id};

const EIGHT: NaiveTime = match NaiveTime::from_hms_opt(8, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// The chat's agenda: its id, its current job and that job's due time and payload.
async fn agenda_job(app: &TestApp, chat: i64) -> (i64, i64, DateTime<Utc>, AgendaJob) {
    let (id, job): (i64, i64) = sqlx::query_as("select id, job_id from agendas where chat_id = $1")
        .bind(chat)
        .fetch_one(&app.pool)
        .await
        .expect("the chat has an agenda with a job");
    let info = job_by_id(&app.pool, JobId(job)).await;
    let Ok(OutboxJob::Agenda(payload)) = info.args::<OutboxJob>() else {
        panic!("not an agenda job: {}", info.payload);
    };
    (id, job, info.run_at, payload)
}

/// Puts the chat's agenda on the day of `at`, due now: the next one it schedules follows `at`.
async fn agenda_for(app: &TestApp, chat: i64, at: DateTime<Utc>) {
    let (id, job, _, _) = agenda_job(app, chat).await;
    let mut tx = app.pool.begin().await.unwrap();
    pgqueue::maintenance::cancel_job(&mut *tx, JobId(job))
        .await
        .unwrap();
    let moved = app
        .queue
        .enqueue(
            &mut tx,
            NewJob::of(&OutboxJob::Agenda(AgendaJob {
                agenda_id: id,
                agenda_at: at,
            }))
            .priority(1),
        )
        .await
        .unwrap()
        .unwrap();
    sqlx::query("update agendas set job_id = $2, next_at = $3 where id = $1")
        .bind(id)
        .bind(moved)
        .bind(at)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// The next agenda message in the chat after message `after`.
async fn next_agenda(app: &TestApp, chat: i64, after: i64) -> TranscriptEntry {
    app.reply_containing(chat, after, "☀️").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agenda_arrives_with_the_days_tasks_and_schedules_the_next_day() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    let berlin: Tz = chrono_tz::Europe::Berlin;
    let off = app.say(ann, "/agenda").await;
    assert_eq!(
        text(&off),
        "The morning agenda is off.\nSend /agenda 8:00 to get the day's tasks every morning at 8:00."
    );
    let set = app.say(ann, "/agenda 8:00").await;
    assert!(
        text(&set).starts_with(
            "Every day at 08:00 I will send you the day's tasks, or a short note when there are none."
        ),
        "{set:?}"
    );
    let (_, job, run_at, payload) = agenda_job(&app, ann).await;
    assert_eq!(
        job_by_id(&app.pool, JobId(job)).await.state,
        JobState::Pending
    );
    let expected = next_at(EIGHT, berlin, db_now(&app.pool).await);
    assert_eq!((run_at, payload.agenda_at), (expected, expected));
    let shown = app.say(ann, "/agenda").await;
    assert_eq!(
        text(&shown),
        format!(
            "The morning agenda comes every day at 08:00; time zone {}. /agenda off turns it off.",
            remindbot::domain::timezone::zone_label(berlin, Utc::now())
        )
    );

    // Two tasks on the agenda's day, one the day after; HTML in a text stays text.
    let day = expected.with_timezone(&berlin).date_naive();
    let next_day = day.succ_opt().unwrap();
    let on = |date: chrono::NaiveDate| date.format("%d.%m.%Y").to_string();
    app.say(ann, &format!("pay <b>rent</b> {} 10:00", on(day)))
        .await;
    app.say(ann, &format!("call mom {} 18:30", on(day))).await;
    app.say(ann, &format!("dentist {} 09:00", on(next_day)))
        .await;

    let before = app.last_message_id(ann);
    let (id, job, _, _) = agenda_job(&app, ann).await;
    let mut tx = app.pool.begin().await.unwrap();
    pgqueue::maintenance::reschedule_job(&mut tx, JobId(job), db_now(&app.pool).await)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let agenda = next_agenda(&app, ann, before).await;
    let body = text(&agenda);
    assert!(body.contains("10:00 · pay <b>rent</b>"), "{body}");
    assert!(body.contains("18:30 · call mom"), "{body}");
    assert!(!body.contains("dentist"), "{body}");
    assert!(
        body.find("10:00").unwrap() < body.find("18:30").unwrap(),
        "{body}"
    );

    // The next day's agenda is scheduled, once.
    crate::support::eventually(crate::support::WAIT, "the next agenda", || async {
        agenda_job(&app, ann).await.1 != job
    })
    .await;
    let (same_id, next_job, run_at, payload) = agenda_job(&app, ann).await;
    assert_eq!(same_id, id);
    assert_eq!(job_by_id(&app.pool, JobId(job)).await.state, JobState::Done);
    assert_eq!(
        job_by_id(&app.pool, JobId(next_job)).await.state,
        JobState::Pending
    );
    assert_eq!(run_at, next_at(EIGHT, berlin, expected));
    assert_eq!(payload.agenda_at, run_at);

    // Off: the next one is cancelled, and /agenda says so.
    let done = app.say(ann, "/agenda off").await;
    assert_eq!(text(&done), "Done: the morning agenda is off.");
    assert_eq!(
        job_by_id(&app.pool, JobId(next_job)).await.state,
        JobState::Cancelled
    );
    let shown = app.say(ann, "/agenda").await;
    assert_eq!(
        text(&shown).lines().next(),
        Some("The morning agenda is off.")
    );
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agendas_arrive_at_eight_on_both_sides_of_a_dst_change_in_two_zones() {
    let app = TestApp::start().await;
    // Berlin moves its clocks forward on 28 March 2027, New York on 14 March 2027.
    let cases = [
        (
            "Europe/Berlin",
            Utc.with_ymd_and_hms(2027, 3, 27, 7, 0, 0).unwrap(),
            [
                Utc.with_ymd_and_hms(2027, 3, 28, 6, 0, 0).unwrap(),
                Utc.with_ymd_and_hms(2027, 3, 29, 6, 0, 0).unwrap(),
            ],
            ["27.03.2027", "28.03.2027"],
        ),
        (
            "America/New_York",
            Utc.with_ymd_and_hms(2027, 3, 13, 13, 0, 0).unwrap(),
            [
                Utc.with_ymd_and_hms(2027, 3, 14, 12, 0, 0).unwrap(),
                Utc.with_ymd_and_hms(2027, 3, 15, 12, 0, 0).unwrap(),
            ],
            ["13.03.2027", "14.03.2027"],
        ),
    ];
    for (index, (zone, first, [second, third], days)) in cases.into_iter().enumerate() {
        let user = app.user(&format!("user{index}"), "en");
        app.say(user, &format!("/tz {zone}")).await;
        let tz: Tz = zone.parse().unwrap();
        assert_eq!(next_at(EIGHT, tz, first), second, "{zone}");
        app.say(user, &format!("pay rent {} 10:00", days[0])).await;
        app.say(user, &format!("call mom {} 10:00", days[1])).await;
        app.say(user, "/agenda 8:00").await;

        // The agenda of the day before the change arrives, and schedules the day of the change.
        agenda_for(&app, user, first).await;
        let before = app.last_message_id(user);
        let agenda = next_agenda(&app, user, before).await;
        assert!(
            text(&agenda).contains("10:00 · pay rent"),
            "{zone}: {agenda:?}"
        );
        assert!(!text(&agenda).contains("call mom"), "{zone}: {agenda:?}");
        crate::support::eventually(crate::support::WAIT, "the next agenda", || async {
            agenda_job(&app, user).await.3.agenda_at == second
        })
        .await;
        let (_, job, run_at, _) = agenda_job(&app, user).await;
        assert_eq!(run_at, second, "{zone}: 08:00 on the day of the change");

        // That one arrives too (brought forward), with its day's task, and schedules the next.
        let mut tx = app.pool.begin().await.unwrap();
        pgqueue::maintenance::reschedule_job(&mut tx, JobId(job), db_now(&app.pool).await)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let agenda = next_agenda(&app, user, agenda.message_id).await;
        assert!(
            text(&agenda).contains("10:00 · call mom"),
            "{zone}: {agenda:?}"
        );
        crate::support::eventually(crate::support::WAIT, "the agenda after", || async {
            agenda_job(&app, user).await.2 == third
        })
        .await;
    }
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test]
async fn a_repeating_task_whose_reminder_went_out_before_the_agenda_is_on_it() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    app.say(ann, "/agenda 8:00").await;
    // Reminded 90 minutes before 09:00, so before the 08:00 agenda of the same day.
    app.say(ann, "every day 9:00 take the pills remind 90 min before")
        .await;
    let reminder = app.pending_jobs().await;
    assert_eq!(reminder.len(), 1, "{reminder:?}");
    let before = app.last_message_id(ann);
    let mut tx = app.pool.begin().await.unwrap();
    pgqueue::maintenance::reschedule_job(&mut tx, reminder[0].id, db_now(&app.pool).await)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    app.reply_containing(ann, before, "take the pills").await;
    // The task has moved on to the next day's 09:00 when its first agenda runs.
    crate::support::eventually(crate::support::WAIT, "the next occurrence", || async {
        app.pending_jobs()
            .await
            .iter()
            .any(|job| job.id != reminder[0].id)
    })
    .await;

    let before = app.last_message_id(ann);
    let (_, job, _, _) = agenda_job(&app, ann).await;
    let mut tx = app.pool.begin().await.unwrap();
    pgqueue::maintenance::reschedule_job(&mut tx, JobId(job), db_now(&app.pool).await)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let agenda = next_agenda(&app, ann, before).await;
    assert!(
        text(&agenda).contains("09:00 · take the pills"),
        "{agenda:?}"
    );
}

#[tokio::test]
async fn a_new_zone_moves_the_next_agenda_to_that_zones_morning() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    app.say(ann, "/agenda 8:00").await;
    let (_, berlin_job, _, _) = agenda_job(&app, ann).await;
    app.say(ann, "/tz Asia/Tashkent").await;
    let tashkent: Tz = chrono_tz::Asia::Tashkent;
    let (_, job, run_at, payload) = agenda_job(&app, ann).await;
    assert_ne!(job, berlin_job, "a new job for the new zone");
    assert_eq!(
        job_by_id(&app.pool, JobId(berlin_job)).await.state,
        JobState::Cancelled
    );
    let expected = next_at(EIGHT, tashkent, db_now(&app.pool).await);
    assert_eq!((run_at, payload.agenda_at), (expected, expected));
}
