//! The keyboards a message comes with: what a send attaches ([`Markup`]: an inline keyboard or a
//! reply keyboard) and how the user sees them ([`ButtonView`], [`ReplyKeyboardView`]). Validating
//! a call's `reply_markup` is the method's job (`methods/markup.rs`); this is what is kept.

use serde::{Deserialize, Serialize};

use crate::types::InlineKeyboardMarkup;

/// One inline button as the user sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ButtonView {
    /// Label.
    pub text: String,
    /// Data sent when tapped.
    pub callback_data: Option<String>,
    /// URL opened when tapped.
    pub url: Option<String>,
    /// URL of the Mini App opened when tapped (`web_app`).
    pub web_app: Option<String>,
}

/// One button of a reply keyboard (the keyboard that replaces the user's own while it is shown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyboardButtonView {
    /// Label; tapping a plain button sends it as the user's message.
    pub text: String,
    /// Tapping it shares the user's location (`request_location`).
    pub request_location: bool,
    /// URL of the Mini App opened when tapped (`web_app`).
    pub web_app: Option<String>,
}

/// The reply keyboard a message came with (`reply_markup` of kind `ReplyKeyboardMarkup` or
/// `ReplyKeyboardRemove`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyKeyboardView {
    /// Shows these rows of buttons in place of the user's keyboard.
    Show {
        /// The rows.
        rows: Vec<Vec<KeyboardButtonView>>,
    },
    /// Takes a shown reply keyboard away.
    Remove,
}

/// What a send attaches besides its content: an inline keyboard, or a reply keyboard (shown or
/// removed); force-reply attaches neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Markup {
    /// Buttons under the message.
    pub inline: Option<InlineKeyboardMarkup>,
    /// A keyboard in place of the user's.
    pub reply: Option<ReplyKeyboardView>,
}

/// The rows of an inline keyboard as the user sees them (none without a keyboard).
pub(super) fn button_rows(markup: Option<&InlineKeyboardMarkup>) -> Vec<Vec<ButtonView>> {
    markup
        .iter()
        .flat_map(|k| &k.inline_keyboard)
        .map(|row| {
            row.iter()
                .map(|b| ButtonView {
                    text: b.text.clone(),
                    callback_data: b.callback_data.clone(),
                    url: b.url.clone(),
                    web_app: b
                        .other
                        .get("web_app")
                        .and_then(|w| w.get("url"))
                        .and_then(serde_json::Value::as_str)
                        .map(str::to_owned),
                })
                .collect()
        })
        .collect()
}
