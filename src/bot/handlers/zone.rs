//! The chat's time zone: the question (with buttons of common zones), `/tz`, a typed answer and a
//! tapped one. Anyone may choose the zone of a chat that has none yet (the first contact); after
//! that only those who may change the chat's settings. A task message that arrived before the
//! zone was known waits in the question and is handed back once the zone is chosen.

use chrono::Utc;
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use super::replies::not_allowed_settings;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::timezone::{ZoneError, parse_zone};
use crate::i18n::Arg;
use crate::i18n::dates::Dates;
use crate::store::chats;
use crate::store::conversation::{self, Pending};

/// A zone just chosen, and the task message that waited for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ZoneChosen {
    /// The zone.
    pub zone: Tz,
    /// A task message sent before the zone was known, to create now.
    pub waiting: Option<String>,
}

/// Asks for the zone with buttons, remembering a task message that waits for it.
pub(super) async fn ask(
    ctx: &Ctx,
    turn: &Turn,
    text: String,
    waiting: Option<String>,
) -> Result<(), BotError> {
    conversation::ask(
        &mut *ctx.db().await,
        turn.chat_id,
        turn.user_id,
        &Pending::TimeZone { text: waiting },
    )
    .await?;
    ctx.send(
        turn.chat_id,
        Reply::text(text).with_keyboard(render::zone_keyboard()),
    )
    .await
}

/// Whether the user of `turn` may set the chat's zone: anyone while the chat has none, then
/// only those who may change its settings.
pub(super) async fn may_set(ctx: &Ctx, turn: &Turn) -> Result<bool, BotError> {
    Ok(turn.zone().is_none() || ctx.may_change_settings(turn).await?)
}

/// `/tz [zone]`: asks for the zone, or sets the one typed.
pub(super) async fn command(
    ctx: &Ctx,
    turn: &Turn,
    args: &str,
) -> Result<Option<ZoneChosen>, BotError> {
    if !may_set(ctx, turn).await? {
        not_allowed_settings(ctx, turn).await?;
        return Ok(None);
    }
    if args.is_empty() {
        let text = render::notice(None, &[turn.tr.t("tz-ask")])?;
        ask(ctx, turn, text, None).await?;
        return Ok(None);
    }
    typed(ctx, turn, args, None).await
}

/// A typed zone (the answer to the zone question, or `/tz`'s argument).
pub(super) async fn typed(
    ctx: &Ctx,
    turn: &Turn,
    typed: &str,
    waiting: Option<String>,
) -> Result<Option<ZoneChosen>, BotError> {
    if !may_set(ctx, turn).await? {
        not_allowed_settings(ctx, turn).await?;
        return Ok(None);
    }
    match parse_zone(typed) {
        Ok(zone) => set(ctx, turn, zone, waiting).await.map(Some),
        Err(error) => {
            let key = match error {
                ZoneError::OffsetOutOfRange { .. } => "tz-offset-range",
                ZoneError::Empty | ZoneError::Unknown | ZoneError::UnsupportedOffset { .. } => {
                    "tz-unknown"
                }
            };
            ctx.send_problem(turn, &turn.tr.t(key), None, "tz-example")
                .await?;
            Ok(None)
        }
    }
}

/// A zone button (the caller checked [`may_set`]): sets the zone, handing back a task message
/// that waited for it.
pub(super) async fn tapped(ctx: &Ctx, turn: &Turn, zone: Tz) -> Result<ZoneChosen, BotError> {
    let waiting =
        match conversation::pending(&mut *ctx.db().await, turn.chat_id, turn.user_id).await? {
            Some(Pending::TimeZone { text }) => text,
            _ => None,
        };
    set(ctx, turn, zone, waiting).await
}

/// Sets the chat's zone and confirms with the local date and time.
async fn set(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    waiting: Option<String>,
) -> Result<ZoneChosen, BotError> {
    chats::set_tz(&mut *ctx.db().await, turn.chat_id, zone).await?;
    conversation::close(&mut *ctx.db().await, turn.chat_id, turn.user_id).await?;
    let now = Utc::now();
    let local_now = Dates::new(turn.tr, zone, now).date_time(now);
    let line = turn.tr.t_with(
        "tz-set",
        &[
            ("tz", Arg::Text(zone.name())),
            ("now", Arg::Text(&local_now)),
        ],
    );
    ctx.send_lines(turn, &[line]).await?;
    Ok(ZoneChosen { zone, waiting })
}
