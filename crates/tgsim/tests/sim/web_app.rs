//! Mini Apps as a bot meets them: the menu button (setChatMenuButton, getChatMenuButton) read
//! back through a real teloxide `Bot`, Web App buttons under messages and in reply keyboards with
//! Telegram's errors, and `initData` signed for a simulated user.

use reqwest::Method;
use serde_json::json;
use teloxide::prelude::*;
use teloxide::types::MenuButton as TeloxideMenuButton;
use tgsim::types::{MenuButton, WebAppInfo};
use tgsim::web_app::{WebAppUser, data_check_string, hash_hex};
use tgsim::{ClockMode, NewGroup, NewUser, descriptions};

use crate::support::{bot, call, control, start_unlimited, user};

fn web_app(text: &str, url: &str) -> MenuButton {
    MenuButton::WebApp {
        text: text.to_owned(),
        web_app: WebAppInfo {
            url: url.to_owned(),
        },
    }
}

#[tokio::test]
async fn a_chat_shows_its_own_menu_button_else_the_bots_else_the_default() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let bob = user(&sim, "Bob");
    assert_eq!(sim.menu_button(Some(ann)), MenuButton::Default);

    let set = call(
        &sim,
        "setChatMenuButton",
        json!({"menu_button": {"type": "commands"}}),
    )
    .await;
    assert_eq!((set.status, &set.json["result"]), (200, &json!(true)));
    let set = call(
        &sim,
        "setChatMenuButton",
        json!({"chat_id": ann, "menu_button": {"type": "web_app", "text": "Open", "web_app": {"url": "https://example.org/app/"}}}),
    )
    .await;
    assert_eq!(set.status, 200, "{}", set.text);
    assert_eq!(
        sim.menu_button(Some(ann)),
        web_app("Open", "https://example.org/app/")
    );

    // teloxide reads the answers as the Bot API types.
    let bot = bot(&sim);
    let mine = bot
        .get_chat_menu_button()
        .chat_id(ChatId(ann))
        .await
        .unwrap();
    let TeloxideMenuButton::WebApp { text, web_app } = mine else {
        panic!("expected a Web App button, got {mine:?}");
    };
    assert_eq!(
        (text.as_str(), web_app.url.as_str()),
        ("Open", "https://example.org/app/")
    );
    assert_eq!(
        bot.get_chat_menu_button()
            .chat_id(ChatId(bob))
            .await
            .unwrap(),
        TeloxideMenuButton::Commands
    );
    assert_eq!(sim.menu_button(Some(bob)), MenuButton::Commands);

    // The default button removes a chat's choice: Ann falls back to the bot's.
    let reset = call(
        &sim,
        "setChatMenuButton",
        json!({"chat_id": ann, "menu_button": {"type": "default"}}),
    )
    .await;
    assert_eq!(reset.status, 200);
    assert_eq!(sim.menu_button(Some(ann)), MenuButton::Commands);
    let raw = control(&sim, Method::GET, &format!("chats/{ann}/menu_button"), None).await;
    assert_eq!(raw.json, json!({"type": "commands"}));
}

#[tokio::test]
async fn menu_buttons_are_refused_as_telegram_refuses_them() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let cases = [
        (
            json!({"menu_button": {"type": "web_app", "text": "Open", "web_app": {"url": "http://example.org/"}}}),
            "Bad Request: menu button Web App URL 'http://example.org/' is invalid: Only HTTPS links are allowed".to_owned(),
        ),
        (
            json!({"menu_button": {"type": "web_app", "text": " ", "web_app": {"url": "https://example.org/"}}}),
            descriptions::MENU_BUTTON_TEXT_EMPTY.to_owned(),
        ),
        (
            json!({"menu_button": {"type": "web_app", "text": "Open"}}),
            format!("{}Can't find field \"web_app\"", descriptions::CANT_PARSE_MENU_BUTTON),
        ),
        (
            json!({"menu_button": {"type": "game"}}),
            format!("{}MenuButton has unsupported type", descriptions::CANT_PARSE_MENU_BUTTON),
        ),
        (
            json!({"menu_button": "{not json"}),
            descriptions::BAD_MENU_BUTTON_JSON.to_owned(),
        ),
        (
            json!({"chat_id": 999_999_999, "menu_button": {"type": "commands"}}),
            descriptions::USER_NOT_FOUND.to_owned(),
        ),
        (
            json!({"chat_id": -100, "menu_button": {"type": "commands"}}),
            descriptions::CHAT_ID_INVALID.to_owned(),
        ),
    ];
    for (body, description) in cases {
        let answer = call(&sim, "setChatMenuButton", body.clone()).await;
        assert_eq!(
            (answer.status, answer.description()),
            (400, description.as_str()),
            "{body}"
        );
    }
    assert_eq!(
        sim.menu_button(Some(ann)),
        MenuButton::Default,
        "nothing was set"
    );
}

#[tokio::test]
async fn web_app_buttons_need_https_and_a_private_chat() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let group = sim
        .create_group(NewGroup::new("Team").creator(ann))
        .unwrap()
        .chat
        .id;
    let inline =
        |url: &str| json!({"inline_keyboard": [[{"text": "Open", "web_app": {"url": url}}]]});

    let refused = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "x", "reply_markup": inline("http://example.org/app")}),
    )
    .await;
    assert_eq!(
        (refused.status, refused.description()),
        (
            400,
            "Bad Request: inline keyboard button Web App URL 'http://example.org/app' is invalid: Only HTTPS links are allowed"
        )
    );
    let keyboard =
        json!({"keyboard": [[{"text": "Open", "web_app": {"url": "ftp://example.org/"}}]]});
    let refused = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "x", "reply_markup": keyboard}),
    )
    .await;
    assert_eq!(
        (refused.status, refused.description()),
        (
            400,
            "Bad Request: keyboard button Web App URL 'ftp://example.org/' is invalid: Only HTTPS links are allowed"
        )
    );
    let refused = call(
        &sim,
        "sendMessage",
        json!({"chat_id": group, "text": "x", "reply_markup": inline("https://example.org/app")}),
    )
    .await;
    assert_eq!(
        (refused.status, refused.description()),
        (400, descriptions::BUTTON_TYPE_INVALID)
    );

    let sent = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "Your tasks", "reply_markup": inline("https://example.org/app/")})).await;
    assert_eq!(sent.status, 200, "{}", sent.text);
    assert_eq!(
        sent.json["result"]["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"],
        "https://example.org/app/"
    );
    let keyboard =
        json!({"keyboard": [[{"text": "Open", "web_app": {"url": "https://example.org/app/"}}]]});
    let sent = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "Or here", "reply_markup": keyboard}),
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.text);

    let transcript = sim.transcript(ann).unwrap();
    assert_eq!(
        transcript[0].buttons[0][0].web_app.as_deref(),
        Some("https://example.org/app/")
    );
    let Some(tgsim::ReplyKeyboardView::Show { rows }) = &transcript[1].reply_keyboard else {
        panic!("the reply keyboard is shown");
    };
    assert_eq!(
        rows[0][0].web_app.as_deref(),
        Some("https://example.org/app/")
    );
}

#[tokio::test]
async fn init_data_is_the_users_launch_data_signed_with_the_bots_token() {
    let sim = start_unlimited().await;
    sim.set_clock_mode(ClockMode::Manual);
    let ann = sim
        .create_user(NewUser::new("Ann").language("uz").username("ann"))
        .unwrap()
        .user
        .id;
    let signed = sim.init_data(ann).unwrap();
    let fields: Vec<(String, String)> = form_urlencoded::parse(signed.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    let user: WebAppUser = serde_json::from_str(&field("user")).unwrap();
    assert_eq!(
        (
            user.id,
            user.first_name.as_str(),
            user.language_code.as_deref()
        ),
        (ann, "Ann", Some("uz"))
    );
    assert_eq!(field("auth_date"), (sim.clock().unix_ms / 1000).to_string());
    assert!(!field("query_id").is_empty());
    assert_eq!(
        field("hash"),
        hash_hex(sim.token(), &data_check_string(&fields))
    );
    assert_ne!(
        field("hash"),
        hash_hex("1:another", &data_check_string(&fields))
    );

    let raw = control(&sim, Method::GET, &format!("users/{ann}/init_data"), None).await;
    assert_eq!(
        raw.json["init_data"].as_str(),
        Some(signed.as_str()),
        "the same moment, the same data"
    );
    let unknown = control(&sim, Method::GET, "users/424242/init_data", None).await;
    assert_eq!(unknown.status, 404);
}

/// Telegram's test environment takes plain HTTP Mini App URLs (a Mini App on the developer's
/// machine), under messages and as the menu button; never in a group, and never another scheme.
#[tokio::test]
async fn the_test_environment_takes_http_web_app_urls() {
    let sim = crate::support::start_with(
        tgsim::SimConfig {
            test_environment: true,
            ..tgsim::SimConfig::default()
        }
        .without_limits(),
    )
    .await;
    let ann = user(&sim, "Ann");
    let group = sim
        .create_group(NewGroup::new("Team").creator(ann))
        .unwrap()
        .chat
        .id;
    let inline =
        |url: &str| json!({"inline_keyboard": [[{"text": "Open", "web_app": {"url": url}}]]});

    let sent = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "x", "reply_markup": inline("http://127.0.0.1:8080/app/")}),
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.text);
    let set = call(
        &sim,
        "setChatMenuButton",
        json!({"menu_button": {"type": "web_app", "text": "Open", "web_app": {"url": "http://127.0.0.1:8080/app/"}}}),
    )
    .await;
    assert_eq!(set.status, 200, "{}", set.text);
    assert_eq!(
        sim.menu_button(Some(ann)),
        web_app("Open", "http://127.0.0.1:8080/app/")
    );

    let refused = call(
        &sim,
        "sendMessage",
        json!({"chat_id": ann, "text": "x", "reply_markup": inline("ftp://127.0.0.1/app/")}),
    )
    .await;
    assert_eq!(
        (refused.status, refused.description()),
        (
            400,
            "Bad Request: inline keyboard button Web App URL 'ftp://127.0.0.1/app/' is invalid: Only HTTPS links are allowed"
        )
    );
    let refused = call(&sim, "sendMessage", json!({"chat_id": group, "text": "x", "reply_markup": inline("http://127.0.0.1:8080/app/")})).await;
    assert_eq!(
        (refused.status, refused.description()),
        (400, descriptions::BUTTON_TYPE_INVALID)
    );
}
