//! sendMessage, sendDocument, editMessageText, editMessageReplyMarkup, deleteMessage: text,
//! caption and markup validation, uploads, recipient states, flood control.

use serde_json::Value;

use crate::error::{ApiError, descriptions};
use crate::html;
use crate::params::Params;
use crate::text::{self, MAX_TEXT_LEN};
use crate::types::{InlineKeyboardMarkup, Message, MessageEntity};
use crate::world::{KeyboardButtonView, Markup, ReplyKeyboardView, Upload, World};

/// Longest `callback_data`, in bytes.
const MAX_CALLBACK_DATA: usize = 64;
/// Longest caption, in characters (UTF-16 code units) after entity parsing.
const MAX_CAPTION_LEN: usize = 1024;

/// sendMessage.
pub(super) fn send_message(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let chat_id = params.chat_id()?;
    let (text, entities) = formatted_text(params, descriptions::MESSAGE_TOO_LONG)?;
    let markup = reply_markup(params, false)?;
    world.reachable(chat_id)?;
    let reply_to = checked_reply_target(world, chat_id, params)?;
    admit(world, chat_id, params)?;
    let message = world.bot_sends(chat_id, text, entities, markup, reply_to);
    sent(world, chat_id);
    Ok(message)
}

/// sendDocument: a file uploaded with the request (multipart/form-data), or one sent before
/// (its `file_id`), with an optional caption in a parse mode.
pub(super) fn send_document(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let chat_id = params.chat_id()?;
    let upload = upload(world, params)?;
    let caption = caption(params)?;
    let markup = reply_markup(params, false)?;
    world.reachable(chat_id)?;
    let reply_to = checked_reply_target(world, chat_id, params)?;
    admit(world, chat_id, params)?;
    let message = world.bot_sends_document(chat_id, upload, caption, markup, reply_to);
    sent(world, chat_id);
    Ok(message)
}

/// The reply target of a send, checked: a missing one is an error unless allowed.
fn checked_reply_target(
    world: &World,
    chat_id: i64,
    params: &Params,
) -> Result<Option<i64>, ApiError> {
    let reply_to = reply_target(params);
    if let Some(r) = reply_to
        && !world.has_message(chat_id, r)
        && !allows_missing_reply(params)
    {
        return Err(ApiError::bad_request(descriptions::REPLY_NOT_FOUND));
    }
    Ok(reply_to.filter(|r| world.has_message(chat_id, *r)))
}

/// Flood control for a send to `chat_id`: a 429 when its turn has not come.
fn admit(world: &mut World, chat_id: i64, params: &Params) -> Result<(), ApiError> {
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
    Ok(())
}

/// Counts a message sent to `chat_id`.
fn sent(world: &mut World, chat_id: i64) {
    let is_group = world.is_group(chat_id);
    let now_ms = world.clock.now_ms();
    world.stats.message_sent(chat_id, is_group, now_ms);
}

/// The `document` of a sendDocument call: a file part named `document`, or the part that
/// `attach://<name>` names (as teloxide uploads), or a `file_id` the bot got before; an HTTP URL
/// cannot be fetched offline.
fn upload(world: &World, params: &Params) -> Result<Upload, ApiError> {
    let reference = params.str("document").unwrap_or_default();
    let part = match reference.trim().strip_prefix("attach://") {
        Some(name) => Some(
            params
                .file(name)
                .ok_or_else(|| ApiError::bad_request(descriptions::NO_DOCUMENT))?,
        ),
        None => params.file("document"),
    };
    if let Some(file) = part {
        if file.bytes.is_empty() {
            return Err(ApiError::bad_request(descriptions::FILE_EMPTY));
        }
        let mime_type = file
            .content_type
            .as_deref()
            .filter(|t| !t.eq_ignore_ascii_case("application/octet-stream"))
            .map_or_else(|| mime_of(&file.file_name), str::to_owned);
        return Ok(Upload::New {
            file_name: file.file_name.clone(),
            mime_type,
            bytes: file.bytes.clone(),
        });
    }
    if reference.trim().is_empty() {
        return Err(ApiError::bad_request(descriptions::NO_DOCUMENT));
    }
    if let Some(stored) = world.file(reference.trim()) {
        return Ok(Upload::Existing(stored.document.clone()));
    }
    let lower = reference.trim().to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Err(ApiError::bad_request(descriptions::URL_UNREACHABLE));
    }
    Err(ApiError::bad_request(descriptions::WRONG_FILE_ID))
}

/// The MIME type Telegram gives a file uploaded without one, by its extension.
fn mime_of(file_name: &str) -> String {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "ics" => "text/calendar",
        "csv" => "text/csv",
        "txt" => "text/plain",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
    .to_owned()
}

/// The caption after entity parsing (`None` when absent or empty), at most 1024 characters.
fn caption(params: &Params) -> Result<Option<(String, Vec<MessageEntity>)>, ApiError> {
    let raw = params.str("caption").unwrap_or_default();
    let (parsed, entities) = if params.has("caption_entities") {
        let entities = params
            .json::<Vec<MessageEntity>>("caption_entities")
            .map_err(|_| ApiError::bad_request("Bad Request: can't parse entities JSON object"))?
            .unwrap_or_default();
        (raw, entities)
    } else {
        parse_mode(params, raw)?
    };
    let (text, entities) = text::finalize(&parsed, entities);
    if text.is_empty() {
        return Ok(None);
    }
    if text::utf16_len(&text) > MAX_CAPTION_LEN {
        return Err(ApiError::bad_request(descriptions::CAPTION_TOO_LONG));
    }
    Ok(Some((text, entities)))
}

/// `raw` read in the call's `parse_mode`: its text and entities.
fn parse_mode(params: &Params, raw: String) -> Result<(String, Vec<MessageEntity>), ApiError> {
    match params
        .str("parse_mode")
        .unwrap_or_default()
        .to_ascii_lowercase()
        .as_str()
    {
        "" => Ok((raw, Vec::new())),
        "html" => html::parse(&raw).map_err(ApiError::cant_parse_entities),
        _ => Err(ApiError::bad_request(descriptions::UNSUPPORTED_PARSE_MODE)),
    }
}

/// editMessageText.
pub(super) fn edit_message_text(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let (chat_id, message_id) = target(params)?;
    let text = formatted_text(params, descriptions::EDITED_MESSAGE_TOO_LONG)?;
    let markup = reply_markup(params, true)?.inline;
    world.reachable(chat_id)?;
    world.bot_edits(chat_id, message_id, Some(text), markup)
}

/// editMessageReplyMarkup.
pub(super) fn edit_message_reply_markup(
    world: &mut World,
    params: &Params,
) -> Result<Message, ApiError> {
    let (chat_id, message_id) = target(params)?;
    let markup = reply_markup(params, true)?.inline;
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
        parse_mode(params, raw)?
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

/// The `reply_markup` of a call, validated: an inline keyboard, or on sends a reply keyboard
/// (kept, so the user's side shows it), its removal, or force-reply (which attaches nothing).
/// Edits take inline keyboards only.
fn reply_markup(params: &Params, inline_only: bool) -> Result<Markup, ApiError> {
    let bad = || ApiError::bad_request(descriptions::BAD_REPLY_MARKUP);
    let Some(value) = params.json::<Value>("reply_markup").map_err(|_| bad())? else {
        return Ok(Markup::default());
    };
    if value.get("inline_keyboard").is_none() {
        if inline_only {
            return Err(bad());
        }
        return if let Some(rows) = value.get("keyboard") {
            Ok(Markup {
                inline: None,
                reply: Some(reply_keyboard(rows).ok_or_else(bad)?),
            })
        } else if value.get("remove_keyboard").is_some() {
            Ok(Markup {
                inline: None,
                reply: Some(ReplyKeyboardView::Remove),
            })
        } else if value.get("force_reply").is_some() {
            Ok(Markup::default())
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
    Ok(Markup {
        inline: (!markup.inline_keyboard.is_empty()).then_some(markup),
        reply: None,
    })
}

/// The rows of a `ReplyKeyboardMarkup`: each button a string or a `KeyboardButton` with `text`.
fn reply_keyboard(rows: &Value) -> Option<ReplyKeyboardView> {
    let rows = rows
        .as_array()?
        .iter()
        .map(|row| {
            row.as_array()?
                .iter()
                .map(|button| match button {
                    Value::String(text) => Some(KeyboardButtonView {
                        text: text.clone(),
                        request_location: false,
                    }),
                    Value::Object(fields) => Some(KeyboardButtonView {
                        text: fields.get("text")?.as_str()?.to_owned(),
                        request_location: fields
                            .get("request_location")
                            .and_then(Value::as_bool)
                            .unwrap_or(false),
                    }),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    Some(ReplyKeyboardView::Show { rows })
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
