//! Message methods as a bot uses them: encodings, method-name case, edits and deletions as the
//! user sees them, replies, commands per scope and language, group upgrades, blocking.

use serde_json::json;
use teloxide::prelude::*;
use teloxide::types::{BotCommand, BotCommandScope, Recipient};
use tgsim::{NewGroup, NewUser, UserState, descriptions};

use crate::support::{bot, call, call_form, get, start_unlimited, user};

#[tokio::test]
async fn any_case_any_verb_any_encoding() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    for name in ["getMe", "getme", "GETME", "GetMe"] {
        let answer = get(&format!("{}/{name}", sim.api_url())).await;
        assert_eq!(answer.status, 200, "{name}");
        assert_eq!(answer.json["result"]["is_bot"], json!(true));
    }
    let markup = r#"{"inline_keyboard":[[{"text":"Snooze","callback_data":"sz:1:10"}]]}"#;
    let form = call_form(
        &sim,
        "SENDMESSAGE",
        &[
            ("chat_id", &ann.to_string()),
            ("text", "from a form"),
            ("reply_markup", markup),
        ],
    )
    .await;
    assert_eq!(form.status, 200, "{}", form.text);
    assert_eq!(
        form.json["result"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"],
        json!("sz:1:10")
    );
    let query = get(&format!(
        "{}/sendmessage?chat_id={ann}&text=from%20a%20query&parse_mode=HTML",
        sim.api_url()
    ))
    .await;
    assert_eq!(query.json["result"]["text"], json!("from a query"));
    let json_body = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann.to_string(), "text": "chat_id as a string"}),
    )
    .await;
    assert_eq!(json_body.status, 200);

    let ids: Vec<i64> = sim
        .transcript(ann)
        .unwrap()
        .iter()
        .map(|e| e.message_id)
        .collect();
    assert_eq!(ids, vec![1, 2, 3], "message ids increase per chat");
    let bob = user(&sim, "Bob");
    assert_eq!(
        call(&sim, "sendMessage", json!({"chat_id": bob, "text": "x"}))
            .await
            .json["result"]["message_id"],
        json!(1)
    );
    assert_eq!(
        call(&sim, "sendMessage", json!({"text": "x"}))
            .await
            .description(),
        descriptions::CHAT_ID_EMPTY
    );
}

#[tokio::test]
async fn edits_and_deletions_show_in_the_transcript() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let keyboard = json!({"inline_keyboard": [[{"text": "Done", "callback_data": "dn:1"}, {"text": "Snooze", "callback_data": "sz:1"}]]});
    let sent = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "Call mum", "reply_markup": keyboard}),
    )
    .await;
    let id = sent.json["result"]["message_id"].as_i64().unwrap();

    let same = call(
        &sim,
        "editMessageReplyMarkup",
        json!({"chat_id": ann, "message_id": id, "reply_markup": keyboard}),
    )
    .await;
    assert_eq!(same.description(), descriptions::MESSAGE_NOT_MODIFIED);
    let fewer = json!({"inline_keyboard": [[{"text": "Done", "callback_data": "dn:1"}]]});
    call(
        &sim,
        "editMessageReplyMarkup",
        json!({"chat_id": ann, "message_id": id, "reply_markup": fewer}),
    )
    .await;
    let entry = &sim.transcript(ann).unwrap()[0];
    assert_eq!(
        entry
            .buttons
            .iter()
            .flatten()
            .map(|b| b.text.as_str())
            .collect::<Vec<_>>(),
        vec!["Done"]
    );
    assert!(entry.edited);

    let same_text_no_markup = call(
        &sim,
        "editMessageText",
        json!({"chat_id": ann, "message_id": id, "text": "Call mum"}),
    )
    .await;
    assert_eq!(
        same_text_no_markup.status, 200,
        "dropping the keyboard is a change"
    );
    assert!(sim.transcript(ann).unwrap()[0].buttons.is_empty());

    let reply = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "second"}),
    )
    .await;
    let second = reply.json["result"]["message_id"].as_i64().unwrap();
    assert_eq!(
        call(
            &sim,
            "deleteMessage",
            json!({"chat_id": ann, "message_id": second})
        )
        .await
        .json["result"],
        json!(true)
    );
    let again = call(
        &sim,
        "deleteMessage",
        json!({"chat_id": ann, "message_id": second}),
    )
    .await;
    assert_eq!(
        again.description(),
        descriptions::MESSAGE_TO_DELETE_NOT_FOUND
    );
    let theirs = sim.user_says(ann, "typo").unwrap().message_id;
    assert_eq!(
        call(
            &sim,
            "deleteMessage",
            json!({"chat_id": ann, "message_id": theirs})
        )
        .await
        .status,
        200
    );
    let texts: Vec<String> = sim
        .transcript(ann)
        .unwrap()
        .into_iter()
        .filter_map(|e| e.text)
        .collect();
    assert_eq!(texts, vec!["Call mum"]);
}

#[tokio::test]
async fn replies_need_their_target_unless_allowed_without() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let asked = sim.user_says(ann, "remind me at 9").unwrap().message_id;
    let reply = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "Done", "reply_parameters": {"message_id": asked}}),
    )
    .await;
    assert_eq!(
        reply.json["result"]["reply_to_message"]["text"],
        json!("remind me at 9")
    );
    assert_eq!(sim.transcript(ann).unwrap()[1].reply_to, Some(asked));
    let missing = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "x", "reply_parameters": {"message_id": 99}}),
    )
    .await;
    assert_eq!(missing.description(), descriptions::REPLY_NOT_FOUND);
    let allowed = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x", "reply_parameters": {"message_id": 99, "allow_sending_without_reply": true}})).await;
    assert_eq!(allowed.status, 200);
    assert!(allowed.json["result"].get("reply_to_message").is_none());
}

#[tokio::test]
async fn commands_per_scope_and_language() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ru = sim
        .create_user(NewUser::new("Иван").language("ru"))
        .unwrap()
        .user
        .id;
    let en = sim
        .create_user(NewUser::new("John").language("en"))
        .unwrap()
        .user
        .id;
    bot.set_my_commands([BotCommand::new("list", "Your reminders")])
        .await
        .unwrap();
    bot.set_my_commands([BotCommand::new("list", "Ваши напоминания")])
        .language_code("ru")
        .await
        .unwrap();
    bot.set_my_commands([BotCommand::new("admin", "Failed reminders")])
        .scope(BotCommandScope::Chat {
            chat_id: Recipient::Id(ChatId(en)),
        })
        .await
        .unwrap();

    assert_eq!(
        bot.get_my_commands().language_code("ru").await.unwrap()[0].description,
        "Ваши напоминания"
    );
    assert!(
        bot.get_my_commands()
            .language_code("uz")
            .await
            .unwrap()
            .is_empty(),
        "no fallback in getMyCommands"
    );
    assert_eq!(
        sim.commands_for(ru, None)[0].description,
        "Ваши напоминания"
    );
    assert_eq!(
        sim.commands_for(en, None)[0].command,
        "admin",
        "the chat scope wins"
    );

    let bad = call(
        &sim,
        "setMyCommands",
        json!({"commands": [{"command": "List", "description": "x"}]}),
    )
    .await;
    assert_eq!(bad.description(), descriptions::BOT_COMMAND_INVALID);
    bot.delete_my_commands().language_code("ru").await.unwrap();
    assert_eq!(sim.commands_for(ru, None)[0].description, "Your reminders");
}

#[tokio::test]
async fn an_upgraded_group_leaves_a_service_message_and_updates() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let group = sim.create_group(NewGroup::new("Family")).unwrap().chat.id;
    sim.user_says_in(group, ann, "/remind@remindbot_sim_bot 9:00 standup", None)
        .unwrap();
    let new_id = sim.upgrade_group(group, Some(ann)).unwrap();
    assert!(new_id.to_string().starts_with("-100"));

    let old = sim.transcript(group).unwrap();
    assert_eq!(
        old.last().unwrap().service.as_deref(),
        Some(format!("migrated to supergroup {new_id}").as_str())
    );
    let updates = sim.pending_updates();
    let kinds: Vec<serde_json::Value> = updates
        .iter()
        .map(|u| serde_json::to_value(u).unwrap())
        .collect();
    assert_eq!(kinds[1]["message"]["migrate_to_chat_id"], json!(new_id));
    assert_eq!(kinds[2]["message"]["migrate_from_chat_id"], json!(group));
    assert_eq!(kinds[2]["message"]["chat"]["type"], json!("supergroup"));
    assert!(
        sim.user_says_in(group, ann, "hello?", None).is_err(),
        "nobody writes in the old group"
    );
}

#[tokio::test]
async fn blocking_and_unblocking_send_my_chat_member_updates() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let ann = user(&sim, "Ann");
    sim.set_user_state(ann, UserState::Blocked).unwrap();
    assert!(
        sim.user_says(ann, "hi").is_err(),
        "a user who blocked the bot cannot write to it"
    );
    sim.set_user_state(ann, UserState::Started).unwrap();
    let updates = bot.get_updates().await.unwrap();
    let statuses: Vec<(String, String)> = updates
        .iter()
        .filter_map(|u| match &u.kind {
            teloxide::types::UpdateKind::MyChatMember(m) => Some((
                format!("{:?}", m.old_chat_member.kind),
                format!("{:?}", m.new_chat_member.kind),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(statuses.len(), 2);
    assert!(
        statuses[0].1.starts_with("Banned"),
        "blocked shows as kicked: {statuses:?}"
    );
    assert!(
        statuses[1].1.starts_with("Member"),
        "unblocked shows as member: {statuses:?}"
    );
    bot.send_message(ChatId(ann), "welcome back").await.unwrap();
}
