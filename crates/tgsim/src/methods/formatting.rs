//! A text or caption as the message will hold it: entities given as JSON or parsed from the
//! `parse_mode` (HTML), trimmed, and checked against Telegram's length limits (4096 characters for
//! a text, 1024 for a caption, in UTF-16 code units).

use crate::error::{ApiError, descriptions};
use crate::html;
use crate::params::Params;
use crate::text::{self, MAX_CAPTION_LEN, MAX_TEXT_LEN};
use crate::types::MessageEntity;

/// The `text` after entity parsing, trimmed, with its entities; checks 1–4096 characters.
pub(super) fn formatted_text(
    params: &Params,
    too_long: &str,
) -> Result<(String, Vec<MessageEntity>), ApiError> {
    let (text, entities) = parsed(params, "text", "entities")?;
    if text.is_empty() {
        return Err(ApiError::bad_request(descriptions::MESSAGE_TEXT_EMPTY));
    }
    if text::utf16_len(&text) > MAX_TEXT_LEN {
        return Err(ApiError::bad_request(too_long));
    }
    Ok((text, entities))
}

/// The `caption` after entity parsing (`None` when absent or empty), at most 1024 characters.
pub(super) fn caption(params: &Params) -> Result<Option<(String, Vec<MessageEntity>)>, ApiError> {
    let (text, entities) = parsed(params, "caption", "caption_entities")?;
    if text.is_empty() {
        return Ok(None);
    }
    if text::utf16_len(&text) > MAX_CAPTION_LEN {
        return Err(ApiError::bad_request(descriptions::CAPTION_TOO_LONG));
    }
    Ok(Some((text, entities)))
}

/// The parameter `text_key` with the entities given in `entities_key`, or else read in the call's
/// `parse_mode`; trimmed, with the entities Telegram detects added.
fn parsed(
    params: &Params,
    text_key: &str,
    entities_key: &str,
) -> Result<(String, Vec<MessageEntity>), ApiError> {
    let raw = params.str(text_key).unwrap_or_default();
    let (parsed, entities) = if params.has(entities_key) {
        let entities = params
            .json::<Vec<MessageEntity>>(entities_key)
            .map_err(|_| ApiError::bad_request("Bad Request: can't parse entities JSON object"))?
            .unwrap_or_default();
        (raw, entities)
    } else {
        parse_mode(params, raw)?
    };
    Ok(text::finalize(&parsed, entities))
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
