//! Greeting, help, and the chat's language and time zone.

use chrono::Utc;
use chrono_tz::Tz;

use super::{Ctx, Turn, add};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::lang::Lang;
use crate::domain::timezone::{ZoneError, parse_zone};
use crate::i18n::{Arg, Tr};
use crate::store::chats;
use crate::store::conversation::{self, Pending};

/// `/start`: greets, and asks for the time zone unless the chat has one.
pub(super) async fn start(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    if turn.zone().is_some() {
        let text = render::notice(None, &[tr.t("start-welcome")])?;
        ctx.send(turn.chat_id, Reply::text(text)).await?;
        return help(ctx, turn).await;
    }
    let text = render::notice(None, &[tr.t("start-welcome"), tr.t("tz-ask")])?;
    ask_zone(ctx, turn, text, None).await
}

/// `/help`.
pub(super) async fn help(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send(turn.chat_id, Reply::text(render::help(turn.tr)?))
        .await
}

/// Asks for the zone with buttons, remembering a task message that waits for it.
pub(super) async fn ask_zone(
    ctx: &Ctx,
    turn: &Turn,
    text: String,
    task: Option<String>,
) -> Result<(), BotError> {
    conversation::ask(
        &ctx.deps.pool,
        turn.chat_id,
        turn.user_id,
        &Pending::TimeZone { text: task },
    )
    .await?;
    ctx.send(
        turn.chat_id,
        Reply::text(text).with_keyboard(render::zone_keyboard()),
    )
    .await
}

/// `/lang [language]`: shows the choice, or sets the language named.
pub(super) async fn lang(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    if args.is_empty() {
        let text = render::notice(None, &[turn.tr.t("lang-ask")])?;
        return ctx
            .send(
                turn.chat_id,
                Reply::text(text).with_keyboard(render::language_keyboard()),
            )
            .await;
    }
    if !ctx.may_change_settings(turn).await? {
        return not_allowed(ctx, turn).await;
    }
    match Lang::parse(args) {
        Some(lang) => set_language(ctx, turn.chat_id, lang).await,
        None => {
            ctx.send_problem(turn, &turn.tr.t("lang-unknown"), None, "lang-example")
                .await
        }
    }
}

/// Sets the chat's language and confirms in it.
pub(super) async fn set_language(ctx: &Ctx, chat_id: i64, lang: Lang) -> Result<(), BotError> {
    chats::set_lang(&ctx.deps.pool, chat_id, lang).await?;
    let text = render::notice(None, &[Tr::new(lang).t("lang-set")])?;
    ctx.send(chat_id, Reply::text(text)).await
}

/// Says that only a group admin changes the group's settings.
pub(super) async fn not_allowed(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send_lines(turn, &[turn.tr.t("not-allowed-settings")])
        .await
}

/// Whether the user of `turn` may set the chat's zone: anyone while the chat has none (the
/// first contact), then only those who may change its settings.
async fn may_set_zone(ctx: &Ctx, turn: &Turn) -> Result<bool, BotError> {
    Ok(turn.zone().is_none() || ctx.may_change_settings(turn).await?)
}

/// `/tz [zone]`: asks for the zone, or sets the one typed.
pub(super) async fn tz(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    if !may_set_zone(ctx, turn).await? {
        return not_allowed(ctx, turn).await;
    }
    if args.is_empty() {
        let text = render::notice(None, &[turn.tr.t("tz-ask")])?;
        return ask_zone(ctx, turn, text, None).await;
    }
    answer_zone(ctx, turn, args, None).await
}

/// A typed zone (the answer to the zone question, or `/tz`'s argument).
pub(super) async fn answer_zone(
    ctx: &Ctx,
    turn: &Turn,
    typed: &str,
    task: Option<String>,
) -> Result<(), BotError> {
    if !may_set_zone(ctx, turn).await? {
        return not_allowed(ctx, turn).await;
    }
    match parse_zone(typed) {
        Ok(zone) => set_zone(ctx, turn, zone, task).await,
        Err(error) => {
            let key = match error {
                ZoneError::OffsetOutOfRange { .. } => "tz-offset-range",
                ZoneError::Empty | ZoneError::Unknown | ZoneError::UnsupportedOffset { .. } => {
                    "tz-unknown"
                }
            };
            ctx.send_problem(turn, &turn.tr.t(key), None, "tz-example")
                .await
        }
    }
}

/// Sets the chat's zone, confirms with the local time, and creates the task that waited for it.
pub(super) async fn set_zone(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    task: Option<String>,
) -> Result<(), BotError> {
    chats::set_tz(&ctx.deps.pool, turn.chat_id, zone).await?;
    conversation::close(&ctx.deps.pool, turn.chat_id, turn.user_id).await?;
    let now = render::local_time(Utc::now(), zone);
    let line = turn.tr.t_with(
        "tz-set",
        &[("tz", Arg::Text(zone.name())), ("now", Arg::Text(&now))],
    );
    ctx.send_lines(turn, &[line]).await?;
    if let Some(task) = task {
        let mut turn_with_zone = Turn {
            chat: turn.chat.clone(),
            ..*turn
        };
        turn_with_zone.chat.tz = Some(zone.name().to_owned());
        add::create_from_text(ctx, &turn_with_zone, &task).await?;
    }
    Ok(())
}
