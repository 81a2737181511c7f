//! teloxide, pointed at the simulator, receives the right `RequestError` for every error case of
//! the reference table (shared/reference/telegram-bot-api.md §3).

use std::time::Duration;

use teloxide::prelude::*;
use teloxide::types::{
    CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ParseMode,
};
use teloxide::{ApiError, RequestError};
use tgsim::{
    BotMembership, FaultAction, FaultRule, LimitsConfig, NewGroup, NewUser, SimConfig, UserState,
    descriptions,
};

use crate::support::{WAIT, bot, start, start_unlimited, start_with, user};

fn unknown(result: Result<Message, RequestError>) -> String {
    match result {
        Err(RequestError::Api(ApiError::Unknown(text))) => text,
        other => panic!("expected Api(Unknown(..)), got {other:?}"),
    }
}

#[tokio::test]
async fn recipients_in_every_state() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let started = user(&sim, "Started");
    let blocked = user(&sim, "Blocked");
    sim.set_user_state(blocked, UserState::Blocked).unwrap();
    let never = sim
        .create_user(NewUser::new("Never").state(UserState::NeverStarted))
        .unwrap()
        .user
        .id;
    let gone = sim
        .create_user(NewUser::new("Gone").state(UserState::Deactivated))
        .unwrap()
        .user
        .id;

    bot.send_message(ChatId(started), "hi")
        .await
        .expect("a started user gets messages");
    assert!(matches!(
        bot.send_message(ChatId(blocked), "hi").await,
        Err(RequestError::Api(ApiError::BotBlocked))
    ));
    assert_eq!(
        unknown(bot.send_message(ChatId(never), "hi").await),
        descriptions::CANT_INITIATE
    );
    assert!(matches!(
        bot.send_message(ChatId(gone), "hi").await,
        Err(RequestError::Api(ApiError::UserDeactivated))
    ));
    assert!(matches!(
        bot.send_message(ChatId(4242), "hi").await,
        Err(RequestError::Api(ApiError::ChatNotFound))
    ));

    sim.user_says(never, "/start").unwrap();
    bot.send_message(ChatId(never), "welcome")
        .await
        .expect("after /start the bot may write");
}

#[tokio::test]
async fn groups_kicked_left_and_upgraded() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let group = sim.create_group(NewGroup::new("Family")).unwrap().chat.id;
    let supergroup = sim
        .create_group(NewGroup::new("Team").supergroup())
        .unwrap()
        .chat
        .id;
    let left = sim.create_group(NewGroup::new("Old")).unwrap().chat.id;
    sim.set_membership(group, BotMembership::Kicked, None)
        .unwrap();
    sim.set_membership(supergroup, BotMembership::Kicked, None)
        .unwrap();
    sim.set_membership(left, BotMembership::Left, None).unwrap();

    assert_eq!(
        unknown(bot.send_message(ChatId(group), "hi").await),
        descriptions::KICKED_FROM_GROUP
    );
    assert!(matches!(
        bot.send_message(ChatId(supergroup), "hi").await,
        Err(RequestError::Api(ApiError::BotKickedFromSupergroup))
    ));
    assert_eq!(
        unknown(bot.send_message(ChatId(left), "hi").await),
        descriptions::NOT_MEMBER_OF_GROUP
    );

    let basic = sim.create_group(NewGroup::new("Club")).unwrap().chat.id;
    let new_id = sim.upgrade_group(basic, None).unwrap();
    match bot.send_message(ChatId(basic), "hi").await {
        Err(RequestError::MigrateToChatId(to)) => assert_eq!(to, ChatId(new_id)),
        other => panic!("expected MigrateToChatId, got {other:?}"),
    }
    bot.send_message(ChatId(new_id), "hi")
        .await
        .expect("the supergroup takes messages");
}

#[tokio::test]
async fn text_and_markup_errors() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let chat = ChatId(user(&sim, "Ann"));

    bot.send_message(chat, "a".repeat(4096))
        .await
        .expect("4096 characters fit");
    assert!(matches!(
        bot.send_message(chat, "a".repeat(4097)).await,
        Err(RequestError::Api(ApiError::MessageIsTooLong))
    ));
    assert!(matches!(
        bot.send_message(chat, "  \n ").await,
        Err(RequestError::Api(ApiError::MessageTextIsEmpty))
    ));
    match bot
        .send_message(chat, "<foo>bar</foo>")
        .parse_mode(ParseMode::Html)
        .await
    {
        Err(RequestError::Api(ApiError::CantParseEntities(text))) => {
            assert_eq!(
                text,
                "Bad Request: can't parse entities: Unsupported start tag \"foo\" at byte offset 0"
            );
        }
        other => panic!("expected CantParseEntities, got {other:?}"),
    }
    let long_data =
        InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("x", "d".repeat(65))]]);
    assert!(matches!(
        bot.send_message(chat, "buttons")
            .reply_markup(long_data)
            .await,
        Err(RequestError::Api(ApiError::ButtonDataInvalid))
    ));
}

#[tokio::test]
async fn edit_errors() {
    let sim = start_unlimited().await;
    let bot = bot(&sim);
    let id = user(&sim, "Ann");
    let sent = bot.send_message(ChatId(id), "Buy milk").await.unwrap();

    assert!(matches!(
        bot.edit_message_text(ChatId(id), sent.id, "Buy milk").await,
        Err(RequestError::Api(ApiError::MessageNotModified))
    ));
    assert!(matches!(
        bot.edit_message_text(ChatId(id), MessageId(999), "x").await,
        Err(RequestError::Api(ApiError::MessageToEditNotFound))
    ));
    let theirs = sim.user_says(id, "hello").unwrap();
    let theirs = MessageId(i32::try_from(theirs.message_id).unwrap());
    assert!(matches!(
        bot.edit_message_text(ChatId(id), theirs, "x").await,
        Err(RequestError::Api(ApiError::MessageCantBeEdited))
    ));
    let edited = bot
        .edit_message_text(ChatId(id), sent.id, "Buy oat milk")
        .await
        .unwrap();
    assert_eq!(edited.text(), Some("Buy oat milk"));
    assert!(edited.edit_date().is_some());
}

#[tokio::test]
async fn callback_answered_twice_or_late() {
    let sim = start_with(SimConfig::default().without_limits().with_manual_clock()).await;
    let bot = bot(&sim);
    let id = user(&sim, "Ann");
    let keyboard = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Done", "dn:1")]]);
    let sent = bot
        .send_message(ChatId(id), "Reminder")
        .reply_markup(keyboard)
        .await
        .unwrap();
    let message_id = i64::from(sent.id.0);

    let first = sim.tap(id, message_id, None, "dn:1").unwrap();
    bot.answer_callback_query(CallbackQueryId(first.clone()))
        .text("Done!")
        .await
        .expect("first answer works");
    assert!(matches!(
        bot.answer_callback_query(CallbackQueryId(first)).await,
        Err(RequestError::Api(ApiError::InvalidQueryId))
    ));

    let late = sim.tap(id, message_id, None, "Done").unwrap();
    sim.advance_clock(Duration::from_secs(31));
    assert!(matches!(
        bot.answer_callback_query(CallbackQueryId(late.clone()))
            .await,
        Err(RequestError::Api(ApiError::InvalidQueryId))
    ));
    assert!(sim.callback(&late).unwrap().answer.is_none());
    assert!(matches!(
        bot.answer_callback_query(CallbackQueryId("nonsense".into()))
            .await,
        Err(RequestError::Api(ApiError::InvalidQueryId))
    ));
}

#[tokio::test]
async fn wrong_token_and_wrong_url() {
    let sim = start().await;
    let wrong = teloxide::Bot::new("7000000001:wrong").set_api_url(sim.url().parse().unwrap());
    assert!(matches!(
        wrong.get_me().await,
        Err(RequestError::Api(ApiError::InvalidToken))
    ));
    let misrouted =
        crate::support::bot(&sim).set_api_url(format!("{}/tba", sim.url()).parse().unwrap());
    assert!(matches!(
        misrouted.get_me().await,
        Err(RequestError::Api(ApiError::InvalidToken))
    ));
    let calls = sim.calls(0);
    assert_eq!(
        calls.iter().map(|c| c.status).collect::<Vec<_>>(),
        vec![401, 404]
    );
}

#[tokio::test]
async fn flood_errors() {
    let sim = start().await;
    let bot = bot(&sim);
    let chat = ChatId(user(&sim, "Ann"));
    for _ in 0..3 {
        bot.send_message(chat, "burst")
            .await
            .expect("the burst passes");
    }
    match bot.send_message(chat, "one too many").await {
        Err(RequestError::RetryAfter(after)) => assert_eq!(after.seconds(), 1),
        other => panic!("expected RetryAfter, got {other:?}"),
    }

    sim.set_limits(LimitsConfig {
        retry_after_override: Some(3600),
        ..LimitsConfig::default()
    });
    let other = ChatId(user(&sim, "Bob"));
    for _ in 0..3 {
        bot.send_message(other, "burst").await.unwrap();
    }
    match bot.send_message(other, "again").await {
        Err(RequestError::RetryAfter(after)) => assert_eq!(after.seconds(), 3600),
        other => panic!("expected RetryAfter(3600), got {other:?}"),
    }

    sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 5,
            with_parameters: false,
        })
        .times(1),
    );
    assert_eq!(
        unknown(bot.send_message(ChatId(user(&sim, "Cid")), "hi").await),
        "Too Many Requests: retry after 5"
    );
}

#[tokio::test]
async fn polling_conflicts() {
    let sim = start().await;
    let first = bot(&sim);
    let waiting = tokio::spawn(async move { first.get_updates().timeout(10).await });
    sim.wait_for_polls_started(1, WAIT).await.unwrap();
    let second = bot(&sim).get_updates().timeout(0).await;
    assert!(second.unwrap().is_empty());
    let overtaken = tokio::time::timeout(WAIT, waiting)
        .await
        .expect("the overtaken poll answers at once")
        .unwrap();
    assert!(matches!(
        overtaken,
        Err(RequestError::Api(ApiError::TerminatedByOtherGetUpdates))
    ));

    let bot = bot(&sim);
    bot.set_webhook("http://127.0.0.1:9/hook".parse().unwrap())
        .await
        .unwrap();
    match bot.get_updates().await {
        Err(RequestError::Api(ApiError::Unknown(text))) => {
            assert_eq!(text, descriptions::WEBHOOK_ACTIVE)
        }
        other => panic!("expected the webhook conflict, got {other:?}"),
    }
    bot.delete_webhook().await.unwrap();
    assert!(bot.get_updates().await.unwrap().is_empty());
}
