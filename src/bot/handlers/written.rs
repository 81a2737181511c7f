//! Answering in the script the user writes: a private chat whose language nobody chose (it came
//! from the user's Telegram language code) and whose user writes Uzbek in Cyrillic is answered
//! in Uzbek Cyrillic from that message on, at once, with buttons offering the other languages;
//! a language chosen with `/lang` is never changed by what the user writes.

use super::context::{Ctx, Turn};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::due::written_in;
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::chats;

/// Follows the script of `text` in a private chat whose language nobody chose: Uzbek in Cyrillic
/// switches the chat, and `turn`, to it. Returns whether it did (then [`offer`] the others).
pub(super) async fn follow(ctx: &Ctx, turn: &mut Turn, text: &str) -> Result<bool, BotError> {
    if !turn.is_private() || turn.tr.lang() == Lang::UzCyrl {
        return Ok(false);
    }
    if written_in(text) != Some(Lang::UzCyrl) {
        return Ok(false);
    }
    let followed =
        chats::follow_written_lang(&mut *ctx.db().await, turn.chat_id, Lang::UzCyrl).await?;
    if followed {
        turn.chat.lang = Lang::UzCyrl;
        turn.tr = Tr::new(Lang::UzCyrl);
    }
    Ok(followed)
}

/// Says that the chat now answers in Uzbek Cyrillic, with the language buttons to choose another.
pub(super) async fn offer(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let text = render::notice(None, &[turn.tr.t("lang-written-offer")])?;
    ctx.send(
        turn.chat_id,
        Reply::text(text).with_keyboard(render::language_keyboard(turn.tr.lang())),
    )
    .await
}
