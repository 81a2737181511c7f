//! First contact: `/start` greets and asks the time zone unless the chat has one; `/help`.

use super::context::{Ctx, Turn};
use super::zone;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};

/// `/start`: greets, and asks for the time zone unless the chat has one.
pub(super) async fn start(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    if turn.zone().is_some() {
        let text = render::notice(None, &[tr.t("start-welcome")])?;
        ctx.send(turn.chat_id, Reply::text(text)).await?;
        return help(ctx, turn).await;
    }
    let text = render::notice(None, &[tr.t("start-welcome"), tr.t("tz-ask")])?;
    zone::ask(ctx, turn, text, None).await
}

/// `/help`.
pub(super) async fn help(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send(turn.chat_id, Reply::text(render::help(turn.tr)?))
        .await
}
