//! The chat's time zone: the question (with buttons of common zones in the chat's language and,
//! in a private chat, a button that shares the user's location), `/tz` (the current zone, and
//! the question), a typed answer, a tapped one and a shared location (its zone found offline).
//! Anyone may choose the zone of a chat that has none yet (the first contact); after that only
//! those who may change the chat's settings. A task message that arrived before the zone was
//! known waits in the question and is handed back once the zone is chosen; without one, the first
//! zone is followed by a hint of what to write.

use chrono::Utc;
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use super::replies::not_allowed_settings;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::timezone::{ZoneError, parse_zone, zone_at, zone_label};
use crate::i18n::Arg;
use crate::i18n::dates::Dates;
use crate::store::agenda;
use crate::store::chats;
use crate::store::conversation::{self, Pending};
use crate::store::outbox::ReplyKeyboard;

/// A zone just chosen, and the task message that waited for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ZoneChosen {
    /// The zone.
    pub zone: Tz,
    /// A task message sent before the zone was known, to create now.
    pub waiting: Option<String>,
}

/// Asks for the zone with buttons, remembering a task message that waits for it (`waiting`, else
/// the one an open zone question already keeps).
pub(super) async fn ask(
    ctx: &Ctx,
    turn: &Turn,
    text: String,
    waiting: Option<String>,
) -> Result<(), BotError> {
    let waiting = match waiting {
        Some(task) => Some(task),
        None => {
            match conversation::pending(&mut *ctx.db().await, turn.chat_id, turn.user_id).await? {
                Some(Pending::TimeZone { text }) => text,
                _ => None,
            }
        }
    };
    ctx.open_question(turn, &Pending::TimeZone { text: waiting })
        .await?;
    ctx.send_asking(
        turn.chat_id,
        Reply::text(text).with_keyboard(render::zone_asking_keyboard(
            turn.tr,
            Utc::now(),
            turn.asker(),
        )),
    );
    if turn.is_private() {
        // A location button works in private chats only (Telegram's rule).
        let offer = render::notice(None, &[turn.tr.t("tz-share-location")])?;
        let label = turn.tr.t("button-share-location");
        ctx.send_with_reply_keyboard(
            turn.chat_id,
            offer,
            ReplyKeyboard::RequestLocation { label },
        );
    }
    Ok(())
}

/// Whether the user of `turn` may set the chat's zone: anyone while the chat has none, then
/// only those who may change its settings.
pub(super) async fn may_set(ctx: &Ctx, turn: &Turn) -> Result<bool, BotError> {
    Ok(turn.zone().is_none() || ctx.may_change_settings(turn).await?)
}

/// `/tz [zone]`: asks for the zone, or sets the one typed; `waiting`, the task waiting in an open
/// zone question ([`waiting_in`]), is kept (and saved once the zone is set).
pub(super) async fn command(
    ctx: &Ctx,
    turn: &Turn,
    args: &str,
    waiting: Option<String>,
) -> Result<Option<ZoneChosen>, BotError> {
    if !may_set(ctx, turn).await? {
        not_allowed_settings(ctx, turn).await?;
        return Ok(None);
    }
    if args.is_empty() {
        let mut lines = Vec::new();
        if let Some(zone) = turn.zone() {
            lines.push(current_line(turn, zone));
        }
        lines.push(turn.tr.t("tz-ask"));
        let text = render::notice(None, &lines)?;
        ask(ctx, turn, text, waiting).await?;
        return Ok(None);
    }
    typed(ctx, turn, args, waiting).await
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
    let waiting = waiting_task(ctx, turn).await?;
    set(ctx, turn, zone, waiting).await
}

/// A location shared in a private chat: sets the zone of the place (found offline), handing back
/// a task message that waited for it. In groups a location is not for the bot.
pub(super) async fn located(
    ctx: &Ctx,
    turn: &Turn,
    latitude: f64,
    longitude: f64,
) -> Result<Option<ZoneChosen>, BotError> {
    if !turn.is_private() {
        return Ok(None);
    }
    match zone_at(latitude, longitude) {
        Ok(zone) => {
            let waiting = waiting_task(ctx, turn).await?;
            set(ctx, turn, zone, waiting).await.map(Some)
        }
        Err(error) => {
            tracing::info!(%error, "a location outside the map");
            ctx.send_problem(turn, &turn.tr.t("tz-location-bad"), None, "tz-example")
                .await?;
            Ok(None)
        }
    }
}

/// The task message waiting in the user's open zone question, if any.
async fn waiting_task(ctx: &Ctx, turn: &Turn) -> Result<Option<String>, BotError> {
    let pending = conversation::pending(&mut *ctx.db().await, turn.chat_id, turn.user_id).await?;
    Ok(waiting_in(pending))
}

/// The task message waiting in `pending` when it is a zone question.
pub(super) fn waiting_in(pending: Option<Pending>) -> Option<String> {
    match pending {
        Some(Pending::TimeZone { text }) => text,
        _ => None,
    }
}

/// "Your time zone: Asia/Tashkent (UTC+5). Local time: …" for `/tz` and `/settings`.
pub(super) fn current_line(turn: &Turn, zone: Tz) -> String {
    let now = Utc::now();
    let label = zone_label(zone, now);
    let local_now = Dates::new(turn.tr, zone, now).date_time(now);
    turn.tr.t_with(
        "tz-current",
        &[("tz", Arg::Text(&label)), ("now", Arg::Text(&local_now))],
    )
}

/// Sets the chat's zone and confirms with the zone (its offset as "UTC+5") and the local date and
/// time, taking a location button away in a private chat; on the first contact without a waiting
/// task the same message hints at what to write.
async fn set(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    waiting: Option<String>,
) -> Result<ZoneChosen, BotError> {
    let agenda_elsewhere = chats::set_tz(&mut *ctx.db().await, turn.chat_id, zone).await?;
    // The morning agenda follows the zone at once: its job waiting for the old zone's morning
    // would otherwise run at the wrong hour and skip that day.
    let agenda = if agenda_elsewhere {
        agenda::find(&mut *ctx.db().await, turn.chat_id).await?
    } else {
        None
    };
    if let Some(agenda) = agenda.filter(|agenda| agenda.zone != zone) {
        agenda::set(
            &mut *ctx.db().await,
            ctx.queue(),
            turn.chat_id,
            agenda.time,
            zone,
        )
        .await?;
    }
    conversation::close(
        &mut *ctx.db().await,
        ctx.queue(),
        turn.chat_id,
        turn.user_id,
    )
    .await?;
    let now = Utc::now();
    let local_now = Dates::new(turn.tr, zone, now).date_time(now);
    let label = zone_label(zone, now);
    let line = turn.tr.t_with(
        "tz-set",
        &[("tz", Arg::Text(&label)), ("now", Arg::Text(&local_now))],
    );
    let mut lines = vec![line];
    if turn.zone().is_none() && waiting.is_none() {
        lines.push(turn.tr.t("first-task-hint"));
    }
    let text = render::notice(None, &lines)?;
    if turn.is_private() {
        ctx.send_with_reply_keyboard(turn.chat_id, text, ReplyKeyboard::Remove);
    } else {
        ctx.send(turn.chat_id, Reply::text(text)).await?;
    }
    Ok(ZoneChosen { zone, waiting })
}
