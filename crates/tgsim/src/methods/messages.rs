//! sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage: each reads its
//! parameters, checks that the bot may reach the chat, and leaves the rest to the world.
//! sendDocument is in `documents`; what every send shares (reply target, flood control) in
//! `sending`.

use super::formatting::formatted_text;
use super::markup::reply_markup;
use super::sending::{admit, checked_reply_target, sent};
use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::Message;
use crate::world::World;

/// sendMessage.
pub(super) fn send_message(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let chat_id = params.chat_id()?;
    let (text, entities) = formatted_text(params, descriptions::MESSAGE_TOO_LONG)?;
    let markup = reply_markup(world, params, false)?;
    world.reachable(chat_id)?;
    let reply_to = checked_reply_target(world, chat_id, params)?;
    admit(world, chat_id, params)?;
    let message = world.bot_sends(chat_id, text, entities, markup, reply_to);
    sent(world, chat_id);
    Ok(message)
}

/// editMessageText.
pub(super) fn edit_message_text(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let (chat_id, message_id) = target(params)?;
    let text = formatted_text(params, descriptions::EDITED_MESSAGE_TOO_LONG)?;
    let markup = reply_markup(world, params, true)?.inline;
    world.reachable(chat_id)?;
    world.bot_edits(chat_id, message_id, Some(text), markup)
}

/// editMessageReplyMarkup.
pub(super) fn edit_message_reply_markup(
    world: &mut World,
    params: &Params,
) -> Result<Message, ApiError> {
    let (chat_id, message_id) = target(params)?;
    let markup = reply_markup(world, params, true)?.inline;
    world.reachable(chat_id)?;
    world.bot_edits(chat_id, message_id, None, markup)
}

/// deleteMessage.
pub(super) fn delete_message(world: &mut World, params: &Params) -> Result<bool, ApiError> {
    let chat_id = params.chat_id()?;
    let message_id = match params.int("message_id") {
        Ok(Some(id)) => id,
        _ => return Err(ApiError::bad_request("Bad Request: message_id is empty")),
    };
    world.reachable(chat_id)?;
    world.bot_deletes(chat_id, message_id)?;
    Ok(true)
}

/// The chat and message an edit addresses. Inline messages are not simulated.
fn target(params: &Params) -> Result<(i64, i64), ApiError> {
    if params.has("inline_message_id") && !params.has("chat_id") {
        return Err(ApiError::bad_request("Bad Request: MESSAGE_ID_INVALID"));
    }
    let chat_id = params.chat_id()?;
    match params.int("message_id") {
        Ok(Some(id)) => Ok((chat_id, id)),
        _ => Err(ApiError::bad_request(descriptions::MESSAGE_ID_MISSING)),
    }
}
