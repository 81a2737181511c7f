//! The simulator's bodies equal Telegram's real ones (fixtures recorded from the reference), and
//! its objects carry every field the spec marks required.

use serde::Deserialize;
use serde_json::{Value, json};
use tgsim::{BotMembership, LimitsConfig, NewGroup, NewUser, SimConfig, SimHandle, UserState};

use crate::support::{Raw, WAIT, call, start_unlimited, start_with, user};

#[derive(Deserialize)]
struct Fixture {
    case: String,
    status: u16,
    body: String,
}

fn fixtures() -> Vec<Fixture> {
    serde_json::from_str(include_str!("fixtures/telegram_errors.json")).expect("fixtures parse")
}

async fn send(sim: &SimHandle, chat_id: i64, text: &str) -> Raw {
    call(
        sim,
        "sendMessage",
        json!({"chat_id": chat_id, "text": text}),
    )
    .await
}

/// Makes the simulator answer with the fixture's case.
async fn provoke(case: &str) -> Raw {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    match case {
        "flood" | "flood_without_parameters" => {
            let omit = case == "flood_without_parameters";
            let limits = LimitsConfig {
                retry_after_override: Some(if omit { 5 } else { 35 }),
                omit_parameters: omit,
                ..LimitsConfig::default()
            };
            let sim =
                start_with(SimConfig::default().with_limits(limits).with_manual_clock()).await;
            let ann = user(&sim, "Ann");
            for _ in 0..3 {
                assert_eq!(send(&sim, ann, "hi").await.status, 200);
            }
            send(&sim, ann, "hi").await
        }
        "blocked" | "never_started" | "deactivated" => {
            let state = match case {
                "blocked" => UserState::Blocked,
                "never_started" => UserState::NeverStarted,
                _ => UserState::Deactivated,
            };
            sim.set_user_state(ann, state).unwrap();
            send(&sim, ann, "hi").await
        }
        "kicked_from_group"
        | "kicked_from_supergroup"
        | "not_member_of_group"
        | "not_member_of_supergroup" => {
            let mut group = NewGroup::new("G");
            group.supergroup = case.ends_with("supergroup");
            let id = sim.create_group(group).unwrap().chat.id;
            let membership = if case.starts_with("kicked") {
                BotMembership::Kicked
            } else {
                BotMembership::Left
            };
            sim.set_membership(id, membership, Some(ann)).unwrap();
            send(&sim, id, "hi").await
        }
        "chat_not_found" => send(&sim, 4242, "hi").await,
        "group_upgraded" => {
            let group = sim
                .create_group(NewGroup {
                    id: Some(-1_234_567_890),
                    ..NewGroup::new("Club")
                })
                .unwrap();
            sim.upgrade_group(group.chat.id, Some(ann)).unwrap();
            send(&sim, group.chat.id, "hi").await
        }
        "too_long" => send(&sim, ann, &"a".repeat(4097)).await,
        "bad_html" => {
            let text = format!("{}<foo>bar</foo>", "x".repeat(42));
            call(
                &sim,
                "sendMessage",
                json!({"chat_id": ann, "text": text, "parse_mode": "HTML"}),
            )
            .await
        }
        "not_modified" | "edit_target_missing" | "edit_not_allowed" => {
            let sent = send(&sim, ann, "Buy milk").await.json["result"]["message_id"]
                .as_i64()
                .unwrap();
            let theirs = sim.user_says(ann, "hello").unwrap().message_id;
            let target = match case {
                "not_modified" => sent,
                "edit_target_missing" => 999,
                _ => theirs,
            };
            call(
                &sim,
                "editMessageText",
                json!({"chat_id": ann, "message_id": target, "text": "Buy milk"}),
            )
            .await
        }
        "old_callback" => {
            call(
                &sim,
                "answerCallbackQuery",
                json!({"callback_query_id": "123"}),
            )
            .await
        }
        "wrong_token" => {
            let url = format!("{}/bot7000000001:wrong/getMe", sim.url());
            crate::support::get(&url).await
        }
        "not_found" => call(&sim, "sendPigeon", json!({})).await,
        "two_pollers" => {
            let waiting = {
                let url = format!("{}/getUpdates?timeout=10", sim.api_url());
                tokio::spawn(async move { crate::support::get(&url).await })
            };
            sim.wait_for_polls_started(1, WAIT).await.unwrap();
            assert_eq!(call(&sim, "getUpdates", json!({})).await.status, 200);
            waiting.await.unwrap()
        }
        "webhook_active" => {
            assert_eq!(
                call(&sim, "setWebhook", json!({"url": "http://127.0.0.1:9/"}))
                    .await
                    .status,
                200
            );
            call(&sim, "getUpdates", json!({})).await
        }
        other => panic!("no way to provoke fixture case {other}"),
    }
}

#[tokio::test]
async fn error_bodies_equal_telegrams_byte_for_byte() {
    let fixtures = fixtures();
    assert_eq!(
        fixtures.len(),
        21,
        "every row of the reference table has a fixture"
    );
    for fixture in fixtures {
        let got = provoke(&fixture.case).await;
        assert_eq!(
            got.status, fixture.status,
            "HTTP status of {}",
            fixture.case
        );
        assert_eq!(got.text, fixture.body, "body of {}", fixture.case);
        assert_eq!(
            got.json["error_code"],
            json!(fixture.status),
            "error_code equals the status in {}",
            fixture.case
        );
    }
}

/// Asserts that `value` has every field in `fields` and no nulls anywhere.
fn has_fields(value: &Value, fields: &[&str], what: &str) {
    for field in fields {
        assert!(
            value.get(field).is_some(),
            "{what} lacks required field {field}: {value}"
        );
    }
    let text = value.to_string();
    assert!(
        !text.contains("null"),
        "{what} has a null (Telegram omits empty fields): {text}"
    );
}

#[tokio::test]
async fn objects_carry_the_fields_the_spec_requires() {
    let sim = start_unlimited().await;
    let ann = sim
        .create_user(NewUser::new("Ann").language("ru").username("ann"))
        .unwrap()
        .user
        .id;

    let me = call(&sim, "getMe", json!({})).await;
    assert!(
        me.text.starts_with(r#"{"ok":true,"result":{"#),
        "envelope: {}",
        me.text
    );
    has_fields(
        &me.json["result"],
        &[
            "id",
            "is_bot",
            "first_name",
            "username",
            "can_join_groups",
            "can_read_all_group_messages",
            "supports_inline_queries",
            "can_connect_to_business",
            "has_main_web_app",
        ],
        "getMe",
    );
    assert_eq!(me.json["result"]["is_bot"], json!(true));
    assert_eq!(me.json["result"]["id"], json!(sim.bot_id()));

    let markup = json!({"inline_keyboard": [[{"text": "Done", "callback_data": "dn:1"}]]});
    let sent = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "<b>Call</b> mum", "parse_mode": "HTML", "reply_markup": markup})).await;
    let message = &sent.json["result"];
    let order = [
        "\"message_id\"",
        "\"from\"",
        "\"chat\"",
        "\"date\"",
        "\"text\"",
        "\"entities\"",
        "\"reply_markup\"",
    ];
    let positions: Vec<usize> = order.iter().map(|k| sent.text.find(k).unwrap()).collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "fields in Telegram's order: {}",
        sent.text
    );
    has_fields(
        message,
        &[
            "message_id",
            "from",
            "date",
            "chat",
            "text",
            "entities",
            "reply_markup",
        ],
        "Message",
    );
    has_fields(
        &message["from"],
        &["id", "is_bot", "first_name", "username"],
        "Message.from",
    );
    has_fields(
        &message["chat"],
        &["id", "type", "first_name", "username"],
        "Message.chat",
    );
    assert_eq!(
        message["chat"],
        json!({"id": ann, "type": "private", "username": "ann", "first_name": "Ann"})
    );
    assert_eq!(message["text"], json!("Call mum"));
    assert_eq!(
        message["entities"],
        json!([{"type": "bold", "offset": 0, "length": 4}])
    );
    assert_eq!(message["reply_markup"], markup);
    assert_eq!(message["from"]["is_bot"], json!(true));

    let user_message = sim.user_says(ann, "/start").unwrap();
    let pending = sim.pending_updates();
    let update = serde_json::to_value(&pending[0]).unwrap();
    has_fields(&update, &["update_id", "message"], "Update");
    has_fields(
        &update["message"],
        &["message_id", "from", "date", "chat", "text", "entities"],
        "incoming Message",
    );
    has_fields(
        &update["message"]["from"],
        &["id", "is_bot", "first_name", "language_code"],
        "incoming Message.from",
    );
    assert_eq!(
        update["message"]["entities"],
        json!([{"type": "bot_command", "offset": 0, "length": 6}])
    );
    assert!(
        user_message.message_id > message["message_id"].as_i64().unwrap(),
        "message ids increase per chat"
    );

    let tap = sim
        .tap(ann, message["message_id"].as_i64().unwrap(), None, "dn:1")
        .unwrap();
    let update = serde_json::to_value(sim.pending_updates().last().unwrap()).unwrap();
    has_fields(
        &update["callback_query"],
        &["id", "from", "message", "chat_instance", "data"],
        "CallbackQuery",
    );
    assert_eq!(update["callback_query"]["id"], json!(tap));

    sim.set_user_state(ann, UserState::Blocked).unwrap();
    let update = serde_json::to_value(sim.pending_updates().last().unwrap()).unwrap();
    let member = &update["my_chat_member"];
    has_fields(
        member,
        &["chat", "from", "date", "old_chat_member", "new_chat_member"],
        "ChatMemberUpdated",
    );
    assert_eq!(member["old_chat_member"]["status"], json!("member"));
    assert_eq!(member["new_chat_member"]["status"], json!("kicked"));
    assert_eq!(member["new_chat_member"]["until_date"], json!(0));
    assert_eq!(member["new_chat_member"]["user"]["id"], json!(sim.bot_id()));
}
