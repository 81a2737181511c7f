//! The Bot API methods the simulator implements, looked up case-insensitively.

mod callbacks;
mod commands;
mod documents;
mod formatting;
mod markup;
mod members;
mod menu;
mod messages;
mod polling;
mod sending;
mod webhook;

use super::config::WebhookSettings;
use super::error::ApiError;
use super::params::Params;
use super::state::Shared;
use super::world::World;

/// An implemented method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    GetMe,
    GetUpdates,
    SendMessage,
    SendDocument,
    EditMessageText,
    EditMessageReplyMarkup,
    DeleteMessage,
    GetChatMember,
    AnswerCallbackQuery,
    SetMyCommands,
    GetMyCommands,
    DeleteMyCommands,
    SetChatMenuButton,
    GetChatMenuButton,
    SetWebhook,
    DeleteWebhook,
    GetWebhookInfo,
}

const METHODS: &[(Method, &str)] = &[
    (Method::GetMe, "getMe"),
    (Method::GetUpdates, "getUpdates"),
    (Method::SendMessage, "sendMessage"),
    (Method::SendDocument, "sendDocument"),
    (Method::EditMessageText, "editMessageText"),
    (Method::EditMessageReplyMarkup, "editMessageReplyMarkup"),
    (Method::DeleteMessage, "deleteMessage"),
    (Method::GetChatMember, "getChatMember"),
    (Method::AnswerCallbackQuery, "answerCallbackQuery"),
    (Method::SetMyCommands, "setMyCommands"),
    (Method::GetMyCommands, "getMyCommands"),
    (Method::DeleteMyCommands, "deleteMyCommands"),
    (Method::SetChatMenuButton, "setChatMenuButton"),
    (Method::GetChatMenuButton, "getChatMenuButton"),
    (Method::SetWebhook, "setWebhook"),
    (Method::DeleteWebhook, "deleteWebhook"),
    (Method::GetWebhookInfo, "getWebhookInfo"),
];

/// Names of the implemented methods, as the spec spells them.
pub fn implemented() -> impl Iterator<Item = &'static str> {
    METHODS.iter().map(|(_, name)| *name)
}

impl Method {
    /// The method called `name`, ignoring case as Telegram does.
    pub(crate) fn lookup(name: &str) -> Option<Self> {
        METHODS
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|(m, _)| *m)
    }

    /// The name as the spec spells it.
    pub(crate) fn name(self) -> &'static str {
        METHODS
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("", |(_, n)| n)
    }
}

/// A successful result as JSON text (serialised from the spec-shaped structs, so fields keep
/// Telegram's order), with the optional `description` Telegram adds for some methods.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Success {
    pub result: String,
    pub description: Option<&'static str>,
}

impl Success {
    fn of(result: impl serde::Serialize) -> Result<Self, ApiError> {
        let result = serde_json::to_string(&result).map_err(|_| ApiError::server_error(500))?;
        Ok(Self {
            result,
            description: None,
        })
    }

    /// `true` with a description, as setWebhook and deleteWebhook answer.
    fn done(description: &'static str) -> Self {
        Self {
            result: "true".to_owned(),
            description: Some(description),
        }
    }
}

/// Runs one call. Only getUpdates waits; everything else runs under the world lock at once.
pub(crate) async fn call(
    shared: &Shared,
    method: Method,
    params: &Params,
) -> Result<Success, ApiError> {
    if method == Method::GetUpdates {
        return polling::get_updates(shared, params).await;
    }
    shared.with(|world| call_now(world, &shared.webhook, method, params))
}

fn call_now(
    world: &mut World,
    webhook: &WebhookSettings,
    method: Method,
    params: &Params,
) -> Result<Success, ApiError> {
    match method {
        Method::GetMe => Success::of(&world.bot),
        Method::SendMessage => Success::of(messages::send_message(world, params)?),
        Method::SendDocument => Success::of(documents::send_document(world, params)?),
        Method::EditMessageText => Success::of(messages::edit_message_text(world, params)?),
        Method::EditMessageReplyMarkup => {
            Success::of(messages::edit_message_reply_markup(world, params)?)
        }
        Method::DeleteMessage => Success::of(messages::delete_message(world, params)?),
        Method::GetChatMember => Success::of(members::get_chat_member(world, params)?),
        Method::AnswerCallbackQuery => {
            Success::of(callbacks::answer_callback_query(world, params)?)
        }
        Method::SetMyCommands => Success::of(commands::set_my_commands(world, params)?),
        Method::GetMyCommands => Success::of(commands::get_my_commands(world, params)?),
        Method::DeleteMyCommands => Success::of(commands::delete_my_commands(world, params)?),
        Method::SetChatMenuButton => Success::of(menu::set_chat_menu_button(world, params)?),
        Method::GetChatMenuButton => Success::of(menu::get_chat_menu_button(world, params)?),
        Method::SetWebhook => webhook::set_webhook(world, webhook, params),
        Method::DeleteWebhook => webhook::delete_webhook(world, params),
        Method::GetWebhookInfo => Success::of(webhook::get_webhook_info(world)),
        Method::GetUpdates => unreachable!("getUpdates waits, so `call` runs it outside the lock"),
    }
}

pub(crate) use commands::resolve_commands;
pub(crate) use menu::resolve_menu_button;
