//! Remind about a forwarded message, through the chat and the simulator: a forward (a text, or a
//! file shown by a placeholder) opens "when?" carrying its quote, and the answer makes a task
//! whose reminder quotes it and replies to it, in every language; a time said alone just before
//! a forward (a forward with a comment, as Telegram delivers it) makes that one quoted task
//! without a question, also when the forward comes while the time waits for it.

use chrono::{DateTime, Utc};
use pgqueue::JobId;
use pgqueue::JobState;
use remindbot::domain::lang::Lang;
use remindbot::i18n::{Arg, Tr};
use tgsim::types::{MessageOrigin, User};
use tgsim::{Forward, TranscriptEntry};

use crate::app::{TestApp, buttons, text};
use crate::bot_nag::bring_due;
use crate::bot_trust::toast;
use crate::support::{WAIT, db_now, eventually, said_tomorrow};

/// A message Bob wrote an hour ago, as Ann forwards it.
fn from_bob(app: &TestApp) -> MessageOrigin {
    MessageOrigin::User {
        date: app.sim.clock().unix_ms / 1000 - 3600,
        sender_user: User {
            id: 4242,
            is_bot: false,
            first_name: "Bob".into(),
            last_name: None,
            username: None,
            language_code: None,
        },
    }
}

/// A message of someone who hides their account in forwards.
fn hidden(app: &TestApp) -> MessageOrigin {
    MessageOrigin::HiddenUser {
        date: app.sim.clock().unix_ms / 1000 - 60,
        sender_user_name: "Carol".into(),
    }
}

/// The pending jobs of the outbox, due in how many minutes from now.
async fn due_in_minutes(app: &TestApp) -> Vec<i64> {
    let now = db_now(&app.pool).await;
    app.pending_jobs()
        .await
        .iter()
        .map(|job| (job.run_at - now).num_minutes())
        .collect()
}

/// The due times of the chat's tasks, by text.
async fn tasks_of(app: &TestApp, chat: i64) -> Vec<(String, DateTime<Utc>)> {
    sqlx::query_as("select text, due_at from tasks where chat_id = $1 order by id")
        .bind(chat)
        .fetch_all(&app.pool)
        .await
        .unwrap()
}

/// The bot's messages in `chat` after `after`, up to the answer to a /list sent now (the chat's
/// messages leave in order, so anything the earlier messages caused comes before it).
async fn everything_said_after(app: &TestApp, chat: i64, after: i64) -> Vec<TranscriptEntry> {
    let list = app.say(chat, "/list").await;
    app.sim
        .transcript(chat)
        .unwrap()
        .into_iter()
        .filter(|e| e.from_bot && e.message_id > after && e.message_id < list.message_id)
        .collect()
}

/// The job that handles the update of message `message_id` of `chat`, once it is in the inbox.
async fn update_job(app: &TestApp, chat: i64, message_id: i64) -> Option<i64> {
    sqlx::query_scalar(
        "select job_id from updates
         where chat_id = $1 and (raw #>> '{message,message_id}')::bigint = $2",
    )
    .bind(chat)
    .bind(message_id)
    .fetch_optional(&app.pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forward_then_a_time_reminds_of_the_message_it_quotes() {
    let app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let quoted = "the wifi password is <b>hunter2</b> & \"more\"\nsecond line";
    let forward = app
        .sim
        .user_forwards(ann, Forward::text(from_bob(&app), quoted))
        .unwrap();
    let question = app
        .replies_after(ann, forward.message_id, 1)
        .await
        .remove(0);
    assert!(
        text(&question).contains(&tr.t("ask-quote-when")),
        "{question:?}"
    );
    assert!(
        text(&question).contains("the wifi password is <b>hunter2</b> & \"more\" second line"),
        "{question:?}"
    );
    assert_eq!(buttons(&question), ["q:f"]);
    assert!(app.pending_jobs().await.is_empty(), "no task before a time");

    let card = app.say(ann, "in 1 minute").await;
    assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
    let due = due_in_minutes(&app).await;
    assert!(matches!(due[..], [0 | 1]), "{due:?}");

    bring_due(&app).await;
    let reminder = app
        .reply_containing(ann, card.message_id, &tr.t("reminder-title"))
        .await;
    assert!(text(&reminder).contains(quoted), "{reminder:?}");
    assert_eq!(reminder.reply_to, Some(forward.message_id), "{reminder:?}");
    assert!(
        reminder
            .entities
            .iter()
            .any(|e| e.kind == "expandable_blockquote"),
        "{reminder:?}"
    );
    let open: i64 = sqlx::query_scalar("select count(*) from conversations")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(open, 0, "the question was closed");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_every_language_a_file_a_task_in_between_and_cancel() {
    let app = TestApp::start().await;

    // Russian: "завтра в 9" is tomorrow at 09:00 on the chat's clock (after midnight, the coming
    // day's).
    let ru = Tr::new(Lang::Ru);
    let ivan = app.user("Ivan", "ru");
    app.say(ivan, "/tz Asia/Tashkent").await;
    let forward = app
        .sim
        .user_forwards(ivan, Forward::text(hidden(&app), "созвон в пятницу"))
        .unwrap();
    let question = app
        .replies_after(ivan, forward.message_id, 1)
        .await
        .remove(0);
    assert!(
        text(&question).contains(&ru.t("ask-quote-when")),
        "{question:?}"
    );
    let card = app.say(ivan, "завтра в 9").await;
    assert!(text(&card).contains(&ru.t("task-saved")), "{card:?}");
    let tashkent = chrono_tz::Asia::Tashkent;
    let tomorrow = said_tomorrow(tashkent);
    let tasks = tasks_of(&app, ivan).await;
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].0, "созвон в пятницу");
    let local = tasks[0].1.with_timezone(&tashkent);
    assert_eq!(
        (local.date_naive(), local.time().to_string()),
        (tomorrow, "09:00:00".to_owned())
    );

    // Uzbek: a file without a caption is quoted by its placeholder; a whole task sent in
    // between is a task of its own, and the question stays open.
    let uz = Tr::new(Lang::Uz);
    let aziz = app.user("Aziz", "uz");
    app.say(aziz, "/tz Asia/Tashkent").await;
    let file = app
        .sim
        .user_forwards(aziz, Forward::file(from_bob(&app), "chek.pdf", None))
        .unwrap();
    let placeholder = uz.t_with("quote-media", &[("kind", Arg::Text("document"))]);
    let question = app.replies_after(aziz, file.message_id, 1).await.remove(0);
    assert!(text(&question).contains(&placeholder), "{question:?}");
    let own = app
        .say_expecting(aziz, aziz, "non olish ertaga 18:00", 2)
        .await;
    assert!(text(&own[0]).contains("non olish"), "{own:?}");
    assert!(
        text(&own[1]).contains(&uz.t("ask-quote-when-still")),
        "{own:?}"
    );
    let card = app.say(aziz, "ertaga 9 da").await;
    assert!(text(&card).contains(&uz.t("task-saved")), "{card:?}");
    let texts: Vec<String> = tasks_of(&app, aziz)
        .await
        .into_iter()
        .map(|(text, _)| text)
        .collect();
    assert_eq!(texts, ["non olish".to_owned(), placeholder]);

    // English: Cancel drops the forward and says so; no task.
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let forward = app
        .sim
        .user_forwards(ann, Forward::text(hidden(&app), "renew the passport"))
        .unwrap();
    let question = app
        .replies_after(ann, forward.message_id, 1)
        .await
        .remove(0);
    let (tapped, said) = app.tap_reply(ann, question.message_id, ann, "q:f").await;
    assert_eq!(toast(&tapped), tr.t("callback-cancelled"));
    assert_eq!(
        text(&said),
        tr.t_with(
            "cancel-dropped",
            &[("text", Arg::Text("renew the passport"))]
        )
    );
    assert!(tasks_of(&app, ann).await.is_empty());
    let alone = app.say(ann, "in 2 hours").await;
    assert!(text(&alone).contains(&tr.t("err-no-text")), "{alone:?}");

    // Before the zone is known: the zone first, then forward again.
    let eve = app.user("Eve", "en");
    let forward = app
        .sim
        .user_forwards(eve, Forward::text(hidden(&app), "call the bank"))
        .unwrap();
    let ask = app
        .replies_after(eve, forward.message_id, 1)
        .await
        .remove(0);
    assert!(text(&ask).contains(&tr.t("forward-needs-zone")), "{ask:?}");
    assert!(text(&ask).contains(&tr.t("tz-ask")), "{ask:?}");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_then_a_forward_is_one_quoted_reminder_at_that_time() {
    let app = TestApp::start().await;
    let tr = Tr::new(Lang::En);

    // The comment and two forwards sent at once: two quoted tasks, nothing asked.
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let comment = app.sim.user_says(ann, "in 2 hours").unwrap();
    let first = app
        .sim
        .user_forwards(ann, Forward::text(from_bob(&app), "bring the charger"))
        .unwrap();
    let second = app
        .sim
        .user_forwards(ann, Forward::text(hidden(&app), "and the cable"))
        .unwrap();
    let cards = app.replies_after(ann, second.message_id, 2).await;
    for card in &cards {
        assert!(text(card).contains(&tr.t("task-saved")), "{cards:?}");
    }
    let said = everything_said_after(&app, ann, comment.message_id).await;
    assert_eq!(said.len(), 2, "only the two cards: {said:?}");
    assert_eq!(due_in_minutes(&app).await, [119, 119]);
    let before = app.last_message_id(ann);
    bring_due(&app).await;
    let reminders = app.replies_after(ann, before, 2).await;
    for (forward, quoted) in [(&first, "bring the charger"), (&second, "and the cable")] {
        let reminder = reminders
            .iter()
            .find(|r| text(r).contains(quoted))
            .unwrap_or_else(|| panic!("{quoted}: {reminders:?}"));
        assert!(
            text(reminder).contains(&tr.t("reminder-title")),
            "{reminder:?}"
        );
        assert_eq!(reminder.reply_to, Some(forward.message_id), "{reminder:?}");
    }

    // The forward comes while the time waits for it (its update handled again later).
    let ru = Tr::new(Lang::Ru);
    let ivan = app.user("Ivan", "ru");
    app.say(ivan, "/tz Asia/Tashkent").await;
    let comment = app.sim.user_says(ivan, "через 2 часа").unwrap();
    eventually(WAIT, "the time to wait for a forward", || async {
        match update_job(&app, ivan, comment.message_id).await {
            Some(job) => {
                let info = crate::support::job_by_id(&app.pool, JobId(job)).await;
                info.state == JobState::Pending && info.claims > 0
            }
            None => false,
        }
    })
    .await;
    let job = update_job(&app, ivan, comment.message_id).await.unwrap();
    let forward = app
        .sim
        .user_forwards(ivan, Forward::text(hidden(&app), "оплатить интернет"))
        .unwrap();
    let card = app
        .replies_after(ivan, forward.message_id, 1)
        .await
        .remove(0);
    assert!(text(&card).contains(&ru.t("task-saved")), "{card:?}");
    assert!(text(&card).contains("оплатить интернет"), "{card:?}");
    assert_eq!(
        crate::support::job_by_id(&app.pool, JobId(job))
            .await
            .attempts,
        1,
        "waiting is no attempt"
    );
    let said = everything_said_after(&app, ivan, comment.message_id).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(due_in_minutes(&app).await, [119]);

    // A time alone with nothing after it is answered as before, once it has waited.
    let uz = Tr::new(Lang::Uz);
    let aziz = app.user("Aziz", "uz");
    app.say(aziz, "/tz Asia/Tashkent").await;
    let alone = app.say(aziz, "ertaga 9 da").await;
    assert!(text(&alone).contains(&uz.t("err-no-text")), "{alone:?}");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}
