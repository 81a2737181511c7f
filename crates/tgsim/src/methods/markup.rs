//! A call's `reply_markup`, validated as Telegram does: an inline keyboard (callback data of 1-64
//! bytes, http(s) or tg URLs, Web App buttons with HTTPS URLs — or, in the test environment, HTTP
//! ones — in private chats only, no button without an action), or on sends a reply keyboard, its
//! removal, or force-reply.

use serde_json::Value;

use super::menu::check_web_app_url;
use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::InlineKeyboardMarkup;
use crate::world::{KeyboardButtonView, Markup, ReplyKeyboardView, World};

/// Longest `callback_data`, in bytes.
const MAX_CALLBACK_DATA: usize = 64;

/// The `reply_markup` of a call, validated: an inline keyboard, or on sends a reply keyboard
/// (kept, so the user's side shows it), its removal, or force-reply (which attaches nothing).
/// Edits take inline keyboards only.
pub(super) fn reply_markup(
    world: &World,
    params: &Params,
    inline_only: bool,
) -> Result<Markup, ApiError> {
    let test_environment = world.test_environment;
    let bad = || ApiError::bad_request(descriptions::BAD_REPLY_MARKUP);
    let Some(value) = params.json::<Value>("reply_markup").map_err(|_| bad())? else {
        return Ok(Markup::default());
    };
    let private = params.chat_hint().is_none_or(|id| id > 0);
    if value.get("inline_keyboard").is_none() {
        if inline_only {
            return Err(bad());
        }
        return if let Some(rows) = value.get("keyboard") {
            Ok(Markup {
                inline: None,
                reply: Some(reply_keyboard(rows, private, test_environment)?.ok_or_else(bad)?),
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
        if let Some(web_app) = button.other.get("web_app") {
            check_web_app_url(
                "inline keyboard button Web App URL",
                web_app_url(web_app).ok_or_else(bad)?,
                test_environment,
            )?;
            if !private {
                return Err(ApiError::bad_request(descriptions::BUTTON_TYPE_INVALID));
            }
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

/// The `url` of a `WebAppInfo`.
fn web_app_url(web_app: &Value) -> Option<&str> {
    web_app.get("url")?.as_str()
}

/// The rows of a `ReplyKeyboardMarkup`: each button a string or a `KeyboardButton` with `text`
/// (`None` when malformed). A `web_app` button needs an HTTPS URL (outside the test environment)
/// and a private chat.
fn reply_keyboard(
    rows: &Value,
    private: bool,
    test_environment: bool,
) -> Result<Option<ReplyKeyboardView>, ApiError> {
    let Some(rows) = rows.as_array() else {
        return Ok(None);
    };
    let mut shown = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(row) = row.as_array() else {
            return Ok(None);
        };
        let mut buttons = Vec::with_capacity(row.len());
        for button in row {
            let view = match button {
                Value::String(text) => KeyboardButtonView {
                    text: text.clone(),
                    request_location: false,
                    web_app: None,
                },
                Value::Object(fields) => {
                    let Some(text) = fields.get("text").and_then(Value::as_str) else {
                        return Ok(None);
                    };
                    let web_app = match fields.get("web_app") {
                        None => None,
                        Some(web_app) => {
                            let Some(url) = web_app_url(web_app) else {
                                return Ok(None);
                            };
                            check_web_app_url(
                                "keyboard button Web App URL",
                                url,
                                test_environment,
                            )?;
                            if !private {
                                return Err(ApiError::bad_request(
                                    descriptions::BUTTON_TYPE_INVALID,
                                ));
                            }
                            Some(url.to_owned())
                        }
                    };
                    KeyboardButtonView {
                        text: text.to_owned(),
                        request_location: fields
                            .get("request_location")
                            .and_then(Value::as_bool)
                            .unwrap_or(false),
                        web_app,
                    }
                }
                _ => return Ok(None),
            };
            buttons.push(view);
        }
        shown.push(buttons);
    }
    Ok(Some(ReplyKeyboardView::Show { rows: shown }))
}
