//! Forwarded messages in the simulator, as the Bot API (7.0 and later) gives them to a bot: a
//! `message` with `forward_origin` of each of the four kinds (a user, a hidden user, a chat, a
//! channel post) and its original `date`, a text or a file with its caption; read back by
//! teloxide from getUpdates, injected in-process and through the control API, and the origins
//! Telegram could not produce refused.

use reqwest::Method;
use serde_json::json;
use teloxide::prelude::*;
use teloxide::types::{MessageOrigin as Origin, UpdateKind};
use tgsim::types::{Chat, ChatType, MessageOrigin};
use tgsim::{Forward, NewGroup};

use crate::support::{bot, control, start_unlimited, user};

fn channel(id: i64, title: &str) -> Chat {
    Chat {
        id,
        title: Some(title.to_owned()),
        first_name: None,
        last_name: None,
        username: None,
        kind: ChatType::Channel,
    }
}

#[tokio::test]
async fn forwards_of_every_origin_reach_the_bot_as_telegram_sends_them() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let bob = user(&sim, "Bob");
    let bob_user = sim
        .users()
        .into_iter()
        .find(|u| u.user.id == bob)
        .unwrap()
        .user;
    let group = sim.create_group(NewGroup::new("Family")).unwrap().chat;
    let now = sim.clock().unix_ms / 1000;
    let hour_ago = now - 3600;

    let from_bob = sim
        .user_forwards(
            ann,
            Forward::text(
                MessageOrigin::User {
                    date: hour_ago,
                    sender_user: bob_user.clone(),
                },
                "see you at 5",
            ),
        )
        .unwrap();
    assert_eq!(from_bob.text.as_deref(), Some("see you at 5"));
    assert_eq!(from_bob.from.as_ref().map(|u| u.id), Some(ann));
    let hidden = MessageOrigin::HiddenUser {
        date: hour_ago,
        sender_user_name: "Carol".into(),
    };
    sim.user_forwards(
        ann,
        Forward::file(hidden, "scan.pdf", Some("the <receipt>")),
    )
    .unwrap();
    let as_group = control(
        &sim,
        Method::POST,
        &format!("users/{ann}/forwards"),
        Some(json!({
            "origin": {"type": "chat", "date": hour_ago, "sender_chat": group,
                       "author_signature": "Admin"},
            "text": "meeting moved",
        })),
    )
    .await;
    assert_eq!(as_group.status, 200, "{}", as_group.text);
    assert_eq!(as_group.json["forward_origin"]["type"], json!("chat"));
    let post = control(
        &sim,
        Method::POST,
        &format!("users/{ann}/forwards"),
        Some(json!({
            "origin": {"type": "channel", "date": hour_ago,
                       "chat": channel(-1_001_234, "News"), "message_id": 42},
            "text": "rates change on Monday",
        })),
    )
    .await;
    assert_eq!(post.status, 200, "{}", post.text);

    let updates = bot(&sim).get_updates().await.unwrap();
    let messages: Vec<_> = updates
        .iter()
        .filter_map(|u| match &u.kind {
            UpdateKind::Message(m) => Some(m.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(messages.len(), 4, "{updates:?}");
    for message in &messages {
        let origin = message.forward_origin().expect("a forward");
        assert_eq!(origin.date().timestamp(), hour_ago, "{origin:?}");
        assert!(message.date.timestamp() >= now, "the forward is dated now");
    }
    match messages[0].forward_origin() {
        Some(Origin::User { sender_user, .. }) => assert_eq!(sender_user.first_name, "Bob"),
        other => panic!("{other:?}"),
    }
    match messages[1].forward_origin() {
        Some(Origin::HiddenUser {
            sender_user_name, ..
        }) => assert_eq!(sender_user_name, "Carol"),
        other => panic!("{other:?}"),
    }
    assert_eq!(messages[1].caption(), Some("the <receipt>"));
    let document = messages[1].document().expect("a forwarded file");
    assert_eq!(document.file_name.as_deref(), Some("scan.pdf"));
    match messages[2].forward_origin() {
        Some(Origin::Chat {
            sender_chat,
            author_signature,
            ..
        }) => {
            assert_eq!(sender_chat.id.0, group.id);
            assert_eq!(author_signature.as_deref(), Some("Admin"));
        }
        other => panic!("{other:?}"),
    }
    match messages[3].forward_origin() {
        Some(Origin::Channel {
            chat, message_id, ..
        }) => {
            assert_eq!(chat.id.0, -1_001_234);
            assert_eq!(message_id.0, 42);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(messages[3].text(), Some("rates change on Monday"));
    let transcript = sim.transcript(ann).unwrap();
    assert!(transcript.iter().all(|e| e.forward_origin.is_some()));
}

#[tokio::test]
async fn origins_telegram_could_not_produce_are_refused() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let now = sim.clock().unix_ms / 1000;
    let hidden = json!({"type": "hidden_user", "date": now - 60, "sender_user_name": "Carol"});
    let refused = [
        json!({"origin": {"type": "hidden_user", "date": now + 3600, "sender_user_name": "C"},
               "text": "from the future"}),
        json!({"origin": {"type": "channel", "date": now, "message_id": 1,
                          "chat": {"id": ann, "first_name": "Ann", "type": "private"}},
               "text": "a private chat is no channel"}),
        json!({"origin": {"type": "chat", "date": now,
                          "sender_chat": {"id": ann, "first_name": "Ann", "type": "private"}},
               "text": "a private chat sends on behalf of no one"}),
        json!({"origin": hidden, "text": "both", "file_name": "a.pdf"}),
        json!({"origin": hidden}),
        json!({"origin": hidden, "text": "a caption without a file", "caption": "x"}),
        json!({"origin": hidden, "text": "x".repeat(4097)}),
    ];
    for body in refused {
        let answer = control(
            &sim,
            Method::POST,
            &format!("users/{ann}/forwards"),
            Some(body.clone()),
        )
        .await;
        assert_eq!(answer.status, 409, "{body}: {}", answer.text);
    }
    let unknown_kind = control(
        &sim,
        Method::POST,
        &format!("users/{ann}/forwards"),
        Some(json!({"origin": {"type": "robot", "date": now}, "text": "x"})),
    )
    .await;
    assert!(
        unknown_kind.status >= 400,
        "an origin of no kind of the spec: {}",
        unknown_kind.text
    );
    assert!(sim.transcript(ann).unwrap().is_empty());
}
