//! Remind about a message, through the chat and the simulator: a reply with only a time to a
//! message makes a task whose reminder quotes it (escaped, within Telegram's 4,096 characters)
//! and replies to it, in every language.

use remindbot::domain::lang::Lang;
use remindbot::i18n::Tr;

use crate::app::{TestApp, text};
use crate::bot_nag::bring_due;
use crate::support::db_now;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_with_only_a_time_reminds_of_the_message_it_quotes() {
    let app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let quoted = "the wifi password is <b>hunter2</b> & \"more\"\nsecond line";
    let note = app.sim.user_says_in(ann, ann, quoted, None).unwrap();
    // Without a time of its own the note is a task waiting for its time; the reply answers it.
    app.replies_after(ann, note.message_id, 1).await;
    let reply = app
        .sim
        .user_says_in(ann, ann, "in 1 minute", Some(note.message_id))
        .unwrap();
    let card = app.replies_after(ann, reply.message_id, 1).await.remove(0);
    assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
    assert!(
        text(&card).contains("the wifi password is <b>hunter2</b> & \"more\" second line"),
        "{card:?}"
    );
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    let due_in = (jobs[0].run_at - db_now(&app.pool).await).num_seconds();
    assert!((30..=60).contains(&due_in), "due in {due_in} s");

    bring_due(&app).await;
    let reminder = app
        .reply_containing(ann, card.message_id, &tr.t("reminder-title"))
        .await;
    assert!(text(&reminder).contains(quoted), "{reminder:?}");
    assert_eq!(reminder.reply_to, Some(note.message_id), "{reminder:?}");
    assert!(
        reminder
            .entities
            .iter()
            .any(|e| e.kind == "expandable_blockquote"),
        "{reminder:?}"
    );
    assert!(
        app.pending_jobs().await.is_empty(),
        "the question was closed too"
    );
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_every_language_and_at_telegrams_longest() {
    let app = TestApp::start().await;
    for (code, phrase, saved) in [
        ("en", "in 2 hours", "Task saved"),
        ("ru", "через 2 часа", "Задача сохранена"),
        ("uz", "2 soatdan keyin", "Vazifa saqlandi"),
    ] {
        let user = app.user("User", code);
        app.say(user, "/tz Asia/Tashkent").await;
        let note = app.sim.user_says_in(user, user, "/list", None).unwrap();
        app.replies_after(user, note.message_id, 1).await;
        let reply = app
            .sim
            .user_says_in(user, user, phrase, Some(note.message_id))
            .unwrap();
        let card = app.replies_after(user, reply.message_id, 1).await.remove(0);
        assert!(text(&card).contains(saved), "{code}: {card:?}");
        assert!(text(&card).contains("/list"), "{code}: {card:?}");
    }
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 3, "{jobs:?}");
    for job in &jobs {
        let due_in = (job.run_at - db_now(&app.pool).await).num_minutes();
        assert!((118..=120).contains(&due_in), "{jobs:?}");
    }
    bring_due(&app).await;
    app.wait_sent(3, crate::support::WAIT).await;

    // A message of Telegram's longest, all of it characters to escape: the quote is cut to fit.
    let bob = app.user("Bob", "en");
    app.say(bob, "/tz Asia/Tashkent").await;
    let long = "<&>".repeat(4096 / 3);
    let note = app.sim.user_says_in(bob, bob, &long, None).unwrap();
    app.replies_after(bob, note.message_id, 1).await;
    let reply = app
        .sim
        .user_says_in(bob, bob, "in 1 minute", Some(note.message_id))
        .unwrap();
    let card = app.replies_after(bob, reply.message_id, 1).await.remove(0);
    bring_due(&app).await;
    let reminder = app.reply_containing(bob, card.message_id, "⏰").await;
    let shown = text(&reminder);
    assert!(
        shown.contains(&long[..300]) && shown.contains('…'),
        "{shown}"
    );
    assert!(shown.chars().map(char::len_utf16).sum::<usize>() <= 4096);
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
}
