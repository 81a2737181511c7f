//! The chat's language: `/lang` (buttons) or `/lang <name>`, and the language buttons. In a group
//! only its administrators change it.

use super::context::{Ctx, Turn};
use super::replies::not_allowed_settings;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::ids::ChatId;
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::chats;

/// `/lang [language]`: shows the choice, or sets the language named.
pub(super) async fn command(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    if args.is_empty() {
        let text = render::notice(None, &[turn.tr.t("lang-ask")])?;
        return ctx
            .send(
                turn.chat_id,
                Reply::text(text).with_keyboard(render::language_keyboard(turn.tr.lang())),
            )
            .await;
    }
    if !ctx.may_change_settings(turn).await? {
        return not_allowed_settings(ctx, turn).await;
    }
    match Lang::parse(args) {
        Some(lang) => set(ctx, turn.chat_id, lang).await,
        None => {
            ctx.send_problem(turn, &turn.tr.t("lang-unknown"), None, "lang-example")
                .await
        }
    }
}

/// Sets the chat's language and confirms in it (the caller checked the user may).
pub(super) async fn set(ctx: &Ctx, chat_id: ChatId, lang: Lang) -> Result<(), BotError> {
    chats::set_lang(&mut *ctx.db().await, chat_id, lang).await?;
    let text = render::notice(None, &[Tr::new(lang).t("lang-set")])?;
    ctx.send(chat_id, Reply::text(text)).await
}
