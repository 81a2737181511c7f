//! The menu button of private chats (setChatMenuButton, getChatMenuButton): the bot's commands,
//! a Mini App, or no choice. A chat's button is its own choice, else the one chosen for every
//! chat, else `MenuButtonDefault`. Validated as Telegram does: a Web App button needs a label
//! and an HTTPS URL (in the test environment, an HTTP one will do).

use serde_json::Value;

use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::{MenuButton, WebAppInfo};
use crate::world::World;

/// setChatMenuButton: sets the button of one private chat (`chat_id`) or of every chat; a
/// `MenuButtonDefault` (or no `menu_button`) removes the choice.
pub(super) fn set_chat_menu_button(world: &mut World, params: &Params) -> Result<bool, ApiError> {
    let button = menu_button(params, world.test_environment)?;
    let chat = chat(world, params)?;
    match button {
        MenuButton::Default => world.menu_buttons.remove(&chat),
        button => world.menu_buttons.insert(chat, button),
    };
    Ok(true)
}

/// getChatMenuButton: the button the chat (or, without `chat_id`, every chat) shows.
pub(super) fn get_chat_menu_button(
    world: &mut World,
    params: &Params,
) -> Result<MenuButton, ApiError> {
    let chat = chat(world, params)?;
    Ok(resolve_menu_button(world, chat))
}

/// The button a chat shows: its own choice, else the choice for every chat, else the default.
pub(crate) fn resolve_menu_button(world: &World, chat: Option<i64>) -> MenuButton {
    chat.and_then(|c| world.menu_buttons.get(&Some(c)))
        .or_else(|| world.menu_buttons.get(&None))
        .cloned()
        .unwrap_or(MenuButton::Default)
}

/// The optional `chat_id`: a private chat (a user's id) the simulator knows.
fn chat(world: &World, params: &Params) -> Result<Option<i64>, ApiError> {
    match params.int("chat_id") {
        Ok(None) => Ok(None),
        Ok(Some(id)) if id > 0 => match world.user(id) {
            Some(_) => Ok(Some(id)),
            None => Err(ApiError::bad_request(descriptions::USER_NOT_FOUND)),
        },
        Ok(Some(_)) | Err(()) => Err(ApiError::bad_request(descriptions::CHAT_ID_INVALID)),
    }
}

/// The `menu_button` parameter, parsed and checked as the Bot API server and Telegram do.
fn menu_button(params: &Params, test_environment: bool) -> Result<MenuButton, ApiError> {
    let cant_parse = |detail: &str| {
        ApiError::bad_request(format!("{}{detail}", descriptions::CANT_PARSE_MENU_BUTTON))
    };
    let value = match params.json::<Value>("menu_button") {
        Ok(None) => return Ok(MenuButton::Default),
        Ok(Some(value)) => value,
        Err(_) => return Err(ApiError::bad_request(descriptions::BAD_MENU_BUTTON_JSON)),
    };
    let Value::Object(fields) = value else {
        return Err(cant_parse("MenuButton must be an Object"));
    };
    let string = |field: &str| match fields.get(field) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(cant_parse(&format!(
            "Field \"{field}\" must be of type String"
        ))),
        None => Err(cant_parse(&format!("Can't find field \"{field}\""))),
    };
    match string("type")?.as_str() {
        "default" => Ok(MenuButton::Default),
        "commands" => Ok(MenuButton::Commands),
        "web_app" => {
            let text = string("text")?;
            let url = match fields.get("web_app") {
                Some(Value::Object(web_app)) => match web_app.get("url") {
                    Some(Value::String(url)) => url.clone(),
                    Some(_) => {
                        return Err(cant_parse("Field \"url\" must be of type String"));
                    }
                    None => return Err(cant_parse("Can't find field \"url\"")),
                },
                Some(_) => return Err(cant_parse("Field \"web_app\" must be of type Object")),
                None => return Err(cant_parse("Can't find field \"web_app\"")),
            };
            if text.trim().is_empty() {
                return Err(ApiError::bad_request(descriptions::MENU_BUTTON_TEXT_EMPTY));
            }
            check_web_app_url("menu button Web App URL", &url, test_environment)?;
            Ok(MenuButton::WebApp {
                text,
                web_app: WebAppInfo { url },
            })
        }
        _ => Err(cant_parse("MenuButton has unsupported type")),
    }
}

/// Telegram opens Mini Apps over HTTPS only, except in its test environment, which takes plain
/// HTTP links too ("When working with the test environment, you may use HTTP links without TLS",
/// core.telegram.org/bots/webapps); `what` names the field in the error, as Telegram's answers do
/// ("inline keyboard button Web App URL 'http://…' is invalid: …").
pub(super) fn check_web_app_url(
    what: &str,
    url: &str,
    test_environment: bool,
) -> Result<(), ApiError> {
    let schemes: &[&str] = if test_environment {
        &["https://", "http://"]
    } else {
        &["https://"]
    };
    let Some(rest) = schemes.iter().find_map(|scheme| {
        url.get(..scheme.len())
            .filter(|head| head.eq_ignore_ascii_case(scheme))
            .map(|_| &url[scheme.len()..])
    }) else {
        return Err(ApiError::bad_request(format!(
            "Bad Request: {what} '{url}' is invalid: Only HTTPS links are allowed"
        )));
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() {
        return Err(ApiError::bad_request(format!(
            "Bad Request: {what} '{url}' is invalid: URL host is empty"
        )));
    }
    Ok(())
}
