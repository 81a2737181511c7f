//! Questions that stay true (issue 24): a question the bot asks with buttons loses them once it
//! is answered or replaced, also when the answer is typed, through the chat and the simulator
//! (whose transcript shows a message's current buttons).

use crate::app::{TestApp, buttons, text};
use crate::bot_series::{next_reminder, task_id};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_answered_by_typing_lose_their_buttons() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");

    // The zone question, answered with a typed zone.
    let start = app.say_expecting(ann, ann, "/start", 2).await;
    assert!(!buttons(&start[0]).is_empty(), "{start:?}");
    app.say(ann, "Asia/Tashkent").await;
    app.message_once(ann, start[0].message_id, |m| buttons(m).is_empty())
        .await;

    // "When?" for a task without a time, answered with a typed time.
    let when = app.say(ann, "buy milk").await;
    assert!(!buttons(&when).is_empty(), "{when:?}");
    let card = app.say(ann, "tomorrow at 9").await;
    assert!(text(&card).contains("buy milk"), "{card:?}");
    app.message_once(ann, when.message_id, |m| buttons(m).is_empty())
        .await;

    // "Snooze until when?", answered with a typed time.
    let id = task_id(&card);
    let reminder = next_reminder(&app, ann, card.message_id).await;
    let (_, snooze) = app
        .tap_reply(ann, reminder.message_id, ann, &format!("s:{id}:c"))
        .await;
    assert!(
        buttons(&snooze).contains(&format!("s:{id}:1h")),
        "{snooze:?}"
    );
    let snoozed = app.say(ann, "in 2 hours").await;
    assert!(
        text(&snoozed).contains("I will remind you again"),
        "{snoozed:?}"
    );
    app.message_once(ann, snooze.message_id, |m| buttons(m).is_empty())
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_replaced_or_cancelled_loses_its_buttons() {
    let app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    let card = app.say(ann, "call bob tomorrow at 10:00").await;
    let id = task_id(&card);

    // "When?" left open, replaced by Change time: the first question's buttons go.
    let when = app.say(ann, "buy milk").await;
    assert!(!buttons(&when).is_empty(), "{when:?}");
    let (_, change) = app
        .tap_reply(ann, card.message_id, ann, &format!("e:{id}"))
        .await;
    assert!(!buttons(&change).is_empty(), "{change:?}");
    app.message_once(ann, when.message_id, |m| buttons(m).is_empty())
        .await;

    // Change time closed by /cancel typed: its buttons go too.
    app.say(ann, "/cancel").await;
    app.message_once(ann, change.message_id, |m| buttons(m).is_empty())
        .await;
}
