//! The Mini App's ways in from the chat: the chat's menu button (`setChatMenuButton` with a
//! `web_app`, set for every private chat at start) and the "Open app" button under `/list` and
//! under a task's card; all only when `PUBLIC_URL` is set and https (any in Telegram's test
//! environment: [`super::BotSettings::miniapp_url`]), the app's URL being
//! `<PUBLIC_URL>/app/`, and the buttons only in private chats (Telegram refuses them elsewhere).

use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardButton, MenuButton, WebAppInfo};

use crate::domain::ids::TaskId;
use crate::domain::lang::Lang;
use crate::feed::PublicUrl;
use crate::i18n::Tr;

/// The Mini App's launch description at `public_url`, if its URL reads.
fn web_app(public_url: &PublicUrl) -> Option<WebAppInfo> {
    let url = public_url.app_url().parse().ok()?;
    Some(WebAppInfo { url })
}

/// Sets the default menu button of private chats to open the Mini App (labelled in English:
/// the default button has one label for everyone).
pub async fn publish(bot: &Bot, public_url: &PublicUrl) -> Result<(), teloxide::RequestError> {
    let Some(web_app) = web_app(public_url) else {
        return Ok(());
    };
    let button = MenuButton::WebApp {
        text: Tr::new(Lang::En).t("button-open-app"),
        web_app,
    };
    bot.set_chat_menu_button().menu_button(button).await?;
    Ok(())
}

/// The "Open app" button, in `tr`'s language, as a row of its own for the bottom of a keyboard:
/// only in a `private` chat (Telegram allows Mini App buttons nowhere else) and only when a
/// public URL is set. Under a card it opens the app at its `task` (`<PUBLIC_URL>/app/?task=<id>`,
/// which the page scrolls to; Telegram adds its launch data in the fragment).
pub fn open_app_row(
    tr: Tr,
    public_url: Option<&PublicUrl>,
    private: bool,
    task: Option<TaskId>,
) -> Option<Vec<InlineKeyboardButton>> {
    let public_url = public_url.filter(|_| private)?;
    let web_app = match task {
        None => web_app(public_url)?,
        Some(task) => WebAppInfo {
            url: format!("{}?task={}", public_url.app_url(), task.0)
                .parse()
                .ok()?,
        },
    };
    Some(vec![InlineKeyboardButton::web_app(
        tr.t("button-open-app"),
        web_app,
    )])
}
