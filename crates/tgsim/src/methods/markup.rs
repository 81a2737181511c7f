//! A call's `reply_markup`, validated as Telegram does: an inline keyboard (callback data of 1-64
//! bytes, http(s) or tg URLs, no button without an action), or on sends a reply keyboard, its
//! removal, or force-reply.

use serde_json::Value;

use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::InlineKeyboardMarkup;
use crate::world::{KeyboardButtonView, Markup, ReplyKeyboardView};

/// Longest `callback_data`, in bytes.
const MAX_CALLBACK_DATA: usize = 64;

/// The `reply_markup` of a call, validated: an inline keyboard, or on sends a reply keyboard
/// (kept, so the user's side shows it), its removal, or force-reply (which attaches nothing).
/// Edits take inline keyboards only.
pub(super) fn reply_markup(params: &Params, inline_only: bool) -> Result<Markup, ApiError> {
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
