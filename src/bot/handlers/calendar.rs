//! `/calendar`: the secret URL of the chat's calendar feed ([`crate::feed`]), under the bot's
//! `PUBLIC_URL`. Only the secret's hash is stored, so the URL is shown once, when it is made: a
//! chat that has one is told so, with a button for a new one. `/calendar new` (or the button)
//! makes a new URL and revokes the old at once; in a group only its administrators may (a member
//! could otherwise cut everyone's subscription). Without `PUBLIC_URL` it says the operator has not
//! set the feed up.

use teloxide::types::MessageId;

use super::context::{Ctx, Turn};
use super::replies::{Toast, not_allowed_settings};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::feed_secret::FeedSecret;
use crate::feed::PublicUrl;
use crate::store::calendar_feeds;

/// The words after `/calendar` that ask for a new URL.
const NEW_WORDS: [&str; 5] = ["new", "новая", "новый", "yangi", "янги"];

/// Shows how to subscribe with a new URL (the chat's first), says the chat has one already
/// (with the New link button), or with `new` replaces it.
pub(super) async fn command(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    let Some(public_url) = ctx.settings().public_url.clone() else {
        return ctx.send_lines(turn, &[tr.t("calendar-off")]).await;
    };
    let args = args.trim().to_lowercase();
    if args.is_empty() {
        let made = calendar_feeds::made_at(&mut *ctx.db().await, turn.chat_id).await?;
        if made.is_some() {
            let text = render::notice(None, &[tr.t("calendar-exists")])?;
            let keyboard = render::calendar_new_keyboard(tr);
            return ctx
                .send(turn.chat_id, Reply::text(text).with_keyboard(keyboard))
                .await;
        }
    } else if !NEW_WORDS.contains(&args.as_str()) {
        return ctx.send_lines(turn, &[tr.t("calendar-usage")]).await;
    } else if !ctx.may_change_settings(turn).await? {
        return not_allowed_settings(ctx, turn).await;
    }
    let links = new_link(ctx, turn, &public_url).await?;
    ctx.send(turn.chat_id, Reply::text(links)).await
}

/// The New link button under message `message_id`: a new URL (the old one stops working), sent
/// as a message of its own; the button goes.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    let Some(public_url) = ctx.settings().public_url.clone() else {
        return Ok(Toast::Key("calendar-off"));
    };
    if !ctx.may_change_settings(turn).await? {
        return Ok(Toast::Key("not-allowed-settings"));
    }
    let links = new_link(ctx, turn, &public_url).await?;
    ctx.edit(turn.chat_id, message_id, None, None);
    ctx.send(turn.chat_id, Reply::text(links)).await?;
    Ok(Toast::Key("callback-calendar-new"))
}

/// Makes the chat's new feed URL (revoking any older one) and says how to subscribe to it.
async fn new_link(ctx: &Ctx, turn: &Turn, public_url: &PublicUrl) -> Result<String, BotError> {
    let secret = FeedSecret::generate();
    calendar_feeds::replace(&mut *ctx.db().await, turn.chat_id, &secret.hash()).await?;
    Ok(render::calendar_links(
        turn.tr,
        &public_url.feed_urls(&secret),
    )?)
}
