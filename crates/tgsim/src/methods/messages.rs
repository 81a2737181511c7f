//! sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage: text and markup
//! validation, recipient states, flood control.

use serde_json::Value;

use crate::error::{ApiError, descriptions};
use crate::html;
use crate::params::Params;
use crate::text::{self, MAX_TEXT_LEN};
use crate::types::{InlineKeyboardMarkup, Message, MessageEntity};
use crate::world::World;

/// Longest `callback_data`, in bytes.
const MAX_CALLBACK_DATA: usize = 64;

/// sendMessage.
pub(super) fn send_message(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let chat_id = params.chat_id()?;
    let (text, entities) = formatted_text(params, descriptions::MESSAGE_TOO_LONG)?;
    let markup = reply_markup(params, false)?;
    world.reachable(chat_id)?;
    let reply_to = reply_target(params);
    if let Some(r) = reply_to
        && !world.has_message(chat_id, r)
        && !allows_missing_reply(params)
    {
        return Err(ApiError::bad_request(descriptions::REPLY_NOT_FOUND));
    }
    let is_group = world.is_group(chat_id);
    let now_ms = world.clock.now_ms();
    if let Err(refused) = world.limiter.admit(
        chat_id,
        is_group,
        params.flag("allow_paid_broadcast"),
        now_ms,
    ) {
        world.stats.throttled(refused.kind);
        let with_parameters = !world.limiter.config().omit_parameters;
        return Err(ApiError::too_many_requests(
            refused.retry_after,
            with_parameters,
        ));
    }
    let reply_to = reply_to.filter(|r| world.has_message(chat_id, *r));
    let message = world.bot_sends(chat_id, text, entities, markup, reply_to);
    world.stats.message_sent(chat_id, is_group, now_ms);
    Ok(message)
}

/// editMessageText.
pub(super) fn edit_message_text(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let (chat_id, message_id) = target(params)?;
    let text = formatted_text(params, descriptions::EDITED_MESSAGE_TOO_LONG)?;
    let markup = reply_markup(params, true)?;
    world.reachable(chat_id)?;
    world.bot_edits(chat_id, message_id, Some(text), markup)
}

/// editMessageReplyMarkup.
pub(super) fn edit_message_reply_markup(
    world: &mut World,
    params: &Params,
) -> Result<Message, ApiError> {
    let (chat_id, message_id) = target(params)?;
    let markup = reply_markup(params, true)?;
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

/// The text after entity parsing, trimmed, with its entities; checks 1–4096 characters.
fn formatted_text(
    params: &Params,
    too_long: &str,
) -> Result<(String, Vec<MessageEntity>), ApiError> {
    let raw = params.str("text").unwrap_or_default();
    let (parsed, entities) = if params.has("entities") {
        let entities = params
            .json::<Vec<MessageEntity>>("entities")
            .map_err(|_| ApiError::bad_request("Bad Request: can't parse entities JSON object"))?
            .unwrap_or_default();
        (raw, entities)
    } else {
        match params
            .str("parse_mode")
            .unwrap_or_default()
            .to_ascii_lowercase()
            .as_str()
        {
            "" => (raw, Vec::new()),
            "html" => html::parse(&raw).map_err(ApiError::cant_parse_entities)?,
            _ => return Err(ApiError::bad_request(descriptions::UNSUPPORTED_PARSE_MODE)),
        }
    };
    let (text, entities) = text::finalize(&parsed, entities);
    if text.is_empty() {
        return Err(ApiError::bad_request(descriptions::MESSAGE_TEXT_EMPTY));
    }
    if text::utf16_len(&text) > MAX_TEXT_LEN {
        return Err(ApiError::bad_request(too_long));
    }
    Ok((text, entities))
}

/// The inline keyboard of `reply_markup`, validated. Reply keyboards, keyboard removal and
/// force-reply are accepted on sends (they attach no inline keyboard) and refused on edits.
fn reply_markup(
    params: &Params,
    inline_only: bool,
) -> Result<Option<InlineKeyboardMarkup>, ApiError> {
    let bad = || ApiError::bad_request(descriptions::BAD_REPLY_MARKUP);
    let Some(value) = params.json::<Value>("reply_markup").map_err(|_| bad())? else {
        return Ok(None);
    };
    if value.get("inline_keyboard").is_none() {
        let other = ["keyboard", "remove_keyboard", "force_reply"]
            .iter()
            .any(|k| value.get(k).is_some());
        return if other && !inline_only {
            Ok(None)
        } else {
            Err(bad())
        };
    }
    let mut markup: InlineKeyboardMarkup = serde_json::from_value(value).map_err(|_| bad())?;
    for button in markup.inline_keyboard.iter().flatten() {
        if let Some(data) = &button.callback_data
            && (data.is_empty() || data.len() > MAX_CALLBACK_DATA)
        {
            return Err(ApiError::bad_request(descriptions::BUTTON_DATA_INVALID));
        }
        if let Some(url) = &button.url
            && !["http://", "https://", "tg://"]
                .iter()
                .any(|p| url.to_ascii_lowercase().starts_with(p))
        {
            return Err(ApiError::bad_request(descriptions::BUTTON_URL_INVALID));
        }
        if button.callback_data.is_none() && button.url.is_none() && button.other.is_empty() {
            return Err(ApiError::bad_request(descriptions::TEXT_BUTTONS_UNALLOWED));
        }
    }
    markup.inline_keyboard.retain(|row| !row.is_empty());
    Ok((!markup.inline_keyboard.is_empty()).then_some(markup))
}

/// The message a send replies to: `reply_parameters.message_id` or the older `reply_to_message_id`.
fn reply_target(params: &Params) -> Option<i64> {
    params
        .json::<Value>("reply_parameters")
        .ok()
        .flatten()
        .and_then(|r| r.get("message_id").and_then(Value::as_i64))
        .or_else(|| params.int("reply_to_message_id").ok().flatten())
}

/// True when a missing reply target may be ignored.
fn allows_missing_reply(params: &Params) -> bool {
    params.flag("allow_sending_without_reply")
        || params
            .json::<Value>("reply_parameters")
            .ok()
            .flatten()
            .and_then(|r| {
                r.get("allow_sending_without_reply")
                    .and_then(Value::as_bool)
            })
            .unwrap_or(false)
}
