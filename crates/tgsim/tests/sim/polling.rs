//! getUpdates long polling (early return, offsets, limit, allowed_updates) and a real teloxide
//! `Dispatcher` driven through the simulator.

use std::time::{Duration, Instant};

use serde_json::json;
use teloxide::RequestError;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup};
use tgsim::SimHandle;

use crate::support::{WAIT, bot, call, start, start_unlimited, user};

fn update_ids(raw: &crate::support::Raw) -> Vec<i64> {
    raw.json["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["update_id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn long_poll_returns_within_milliseconds_of_an_update() {
    let sim = start().await;
    let ann = user(&sim, "Ann");
    let poller = bot(&sim);
    let poll = tokio::spawn(async move {
        let updates = poller.get_updates().timeout(10).await;
        (Instant::now(), updates)
    });
    sim.wait_for_polls_started(1, WAIT).await.unwrap();
    let injected = Instant::now();
    sim.user_says(ann, "remind me").unwrap();
    let (answered, updates) = tokio::time::timeout(WAIT, poll)
        .await
        .expect("the poll returns early")
        .unwrap();
    let updates = updates.unwrap();
    let latency = answered.duration_since(injected);
    assert!(
        latency < Duration::from_millis(100),
        "answered {latency:?} after the update"
    );
    assert_eq!(updates.len(), 1);
}

#[tokio::test]
async fn short_poll_answers_at_once_and_long_poll_waits_out_its_timeout() {
    let sim = start().await;
    let started = Instant::now();
    assert_eq!(
        call(&sim, "getUpdates", json!({"timeout": 0})).await.json["result"],
        json!([])
    );
    assert!(started.elapsed() < Duration::from_millis(500));
    let started = Instant::now();
    assert_eq!(
        call(&sim, "getUpdates", json!({"timeout": 1})).await.json["result"],
        json!([])
    );
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(950) && waited < Duration::from_secs(3),
        "waited {waited:?}"
    );
}

#[tokio::test]
async fn offsets_confirm_and_negative_offsets_keep_the_last_updates() {
    let sim = start().await;
    let ann = user(&sim, "Ann");
    for text in ["one", "two", "three"] {
        sim.user_says(ann, text).unwrap();
    }
    let first = update_ids(&call(&sim, "getUpdates", json!({})).await);
    assert_eq!(first.len(), 3);
    assert!(
        first.windows(2).all(|w| w[1] == w[0] + 1),
        "sequential ids: {first:?}"
    );
    assert_eq!(
        update_ids(&call(&sim, "getUpdates", json!({})).await),
        first,
        "unconfirmed updates come again"
    );
    assert_eq!(
        update_ids(&call(&sim, "getUpdates", json!({"offset": first[1]})).await),
        first[1..].to_vec()
    );
    assert_eq!(
        update_ids(&call(&sim, "getUpdates", json!({"offset": first[2] + 1})).await),
        Vec::<i64>::new()
    );
    assert!(
        sim.pending_updates().is_empty(),
        "confirmed updates are forgotten"
    );

    for text in ["4", "5", "6", "7"] {
        sim.user_says(ann, text).unwrap();
    }
    let tail = update_ids(&call(&sim, "getUpdates", json!({"offset": -2})).await);
    assert_eq!(tail, vec![first[2] + 3, first[2] + 4]);
    assert_eq!(
        sim.pending_updates().len(),
        2,
        "older updates were forgotten"
    );
}

#[tokio::test]
async fn limit_is_clamped_to_1_through_100() {
    let sim = start().await;
    let ann = user(&sim, "Ann");
    for i in 0..3 {
        sim.user_says(ann, &format!("m{i}")).unwrap();
    }
    for (limit, expected) in [(1, 1), (0, 1), (2, 2), (500, 3)] {
        let got = update_ids(&call(&sim, "getUpdates", json!({"limit": limit})).await).len();
        assert_eq!(got, expected, "limit {limit}");
    }
}

#[tokio::test]
async fn allowed_updates_persist_until_changed() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    call(
        &sim,
        "getUpdates",
        json!({"allowed_updates": ["callback_query"]}),
    )
    .await;
    sim.user_says(ann, "filtered").unwrap();
    call(&sim, "getUpdates", json!({})).await;
    sim.user_says(ann, "still filtered").unwrap();
    assert!(
        sim.pending_updates().is_empty(),
        "messages are excluded while the setting lasts"
    );

    let sent = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "tap", "reply_markup": {"inline_keyboard": [[{"text": "ok", "callback_data": "ok"}]]}})).await;
    sim.tap(
        ann,
        sent.json["result"]["message_id"].as_i64().unwrap(),
        None,
        "ok",
    )
    .unwrap();
    assert_eq!(
        sim.pending_updates().len(),
        1,
        "callback queries still arrive"
    );

    call(&sim, "getUpdates", json!({"allowed_updates": "[]"})).await;
    sim.user_says(ann, "back to defaults").unwrap();
    assert_eq!(
        sim.pending_updates().len(),
        2,
        "[] restores the default set"
    );
}

async fn run_dispatcher(
    sim: &SimHandle,
    handler: teloxide::dispatching::UpdateHandler<RequestError>,
) -> (
    tokio::task::JoinHandle<()>,
    teloxide::dispatching::ShutdownToken,
) {
    let mut dispatcher = Dispatcher::builder(bot(sim), handler).build();
    let token = dispatcher.shutdown_token();
    let task = tokio::spawn(async move { dispatcher.dispatch().await });
    sim.wait_for_polls_started(1, WAIT)
        .await
        .expect("the dispatcher polls");
    (task, token)
}

async fn stop(task: tokio::task::JoinHandle<()>, token: teloxide::dispatching::ShutdownToken) {
    token.shutdown().expect("the dispatcher is running").await;
    tokio::time::timeout(WAIT, task)
        .await
        .expect("the dispatcher stops")
        .unwrap();
}

#[tokio::test]
async fn dispatcher_receives_injected_messages_and_its_replies_reach_the_transcript() {
    let sim = start().await;
    let handler = Update::filter_message().endpoint(|bot: Bot, msg: Message| async move {
        bot.send_message(
            msg.chat.id,
            format!("You said: {}", msg.text().unwrap_or_default()),
        )
        .await?;
        Ok(())
    });
    let (task, token) = run_dispatcher(&sim, handler).await;

    let ann = user(&sim, "Ann");
    let said = sim.user_says(ann, "water the plants").unwrap();
    let reply = sim
        .wait_for_bot_message(ann, said.message_id, WAIT)
        .await
        .unwrap();
    assert_eq!(reply.text.as_deref(), Some("You said: water the plants"));
    stop(task, token).await;

    let methods: Vec<String> = sim.calls(0).into_iter().map(|c| c.method).collect();
    for expected in ["getMe", "getUpdates", "sendMessage"] {
        assert!(
            methods.iter().any(|m| m == expected),
            "{expected} in {methods:?}"
        );
    }
    assert!(
        sim.pending_updates().is_empty(),
        "the dispatcher confirmed its updates on shutdown"
    );
}

#[tokio::test]
async fn dispatcher_handles_button_taps() {
    let sim = start().await;
    let handler = dptree::entry()
        .branch(
            Update::filter_message().endpoint(|bot: Bot, msg: Message| async move {
                let keyboard =
                    InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Done", "dn:7")]]);
                bot.send_message(msg.chat.id, "Reminder: call mum")
                    .reply_markup(keyboard)
                    .await?;
                Ok(())
            }),
        )
        .branch(Update::filter_callback_query().endpoint(
            |bot: Bot, q: CallbackQuery| async move {
                bot.answer_callback_query(q.id.clone())
                    .text("Marked done")
                    .await?;
                if let Some(message) = q.regular_message() {
                    bot.edit_message_text(message.chat.id, message.id, "✅ call mum")
                        .await?;
                }
                Ok(())
            },
        ));
    let (task, token) = run_dispatcher(&sim, handler).await;

    let ann = user(&sim, "Ann");
    let said = sim.user_says(ann, "/start").unwrap();
    let reminder = sim
        .wait_for_bot_message(ann, said.message_id, WAIT)
        .await
        .unwrap();
    assert_eq!(
        reminder.buttons[0][0].callback_data.as_deref(),
        Some("dn:7")
    );
    let query = sim.tap(ann, reminder.message_id, None, "Done").unwrap();
    let answered = sim.wait_for_answer(&query, WAIT).await.unwrap();
    assert_eq!(
        answered.answer.unwrap().text.as_deref(),
        Some("Marked done")
    );
    let transcript = sim
        .wait_for_transcript(ann, WAIT, |t| {
            t.iter().any(|e| e.text.as_deref() == Some("✅ call mum"))
        })
        .await
        .unwrap();
    let edited = transcript
        .iter()
        .find(|e| e.message_id == reminder.message_id)
        .unwrap();
    assert!(
        edited.edited && edited.buttons.is_empty(),
        "editing without reply_markup removes the keyboard"
    );
    stop(task, token).await;
}
