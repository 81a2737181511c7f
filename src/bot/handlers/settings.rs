//! `/settings`: the chat's zone and default lead time (how long before a deadline new tasks
//! remind), with buttons for the usual lead times; any other lead is typed, read with the same
//! duration grammar as the lead times in task phrases. In a group only its administrators change
//! it.

use teloxide::types::{InlineKeyboardMarkup, MessageId};

use super::context::{Ctx, Turn};
use super::replies::{Toast, not_allowed_settings};
use super::zone;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::due::{DueError, parse_lead};
use crate::domain::lead::Lead;
use crate::i18n::Arg;
use crate::i18n::dates;
use crate::store::chats;

/// Shows the settings with the lead buttons, or sets the lead from `args` ("30 min", "2 hrs",
/// "2 часа", "1 kun", "0", or minutes alone: "15").
pub(super) async fn command(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    if args.is_empty() {
        let (text, keyboard) = view(turn, turn.chat.default_lead)?;
        return ctx
            .send(turn.chat_id, Reply::text(text).with_keyboard(keyboard))
            .await;
    }
    if !ctx.may_change_settings(turn).await? {
        return not_allowed_settings(ctx, turn).await;
    }
    // A number alone is minutes ("/settings 15"), as the buttons and the example are.
    let args = match args.trim().parse::<u32>() {
        Ok(minutes) if minutes > 0 => format!("{minutes} min"),
        _ => args.to_owned(),
    };
    let lead = match parse_lead(&args, tr.lang()) {
        Ok(lead) => lead,
        Err(DueError::LeadTooLong { max_days }) => {
            let problem = tr.t_with(
                "err-lead-too-long",
                &[("days", Arg::Number(i64::from(max_days)))],
            );
            return ctx
                .send_problem(turn, &problem, None, "settings-example")
                .await;
        }
        Err(_) => {
            return ctx
                .send_problem(turn, &tr.t("settings-bad"), None, "settings-example")
                .await;
        }
    };
    chats::set_default_lead(&mut *ctx.db().await, turn.chat_id, lead).await?;
    let lead = dates::lead(tr, lead);
    ctx.send_lines(
        turn,
        &[tr.t_with("settings-set", &[("lead", Arg::Text(&lead))])],
    )
    .await
}

/// A lead button under the settings message `message_id`: sets the default lead and shows the
/// settings again with it ticked.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    minutes: u32,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    let Ok(lead) = Lead::from_secs(i64::from(minutes) * 60) else {
        return Ok(Toast::Key("stale-button"));
    };
    if !ctx.may_change_settings(turn).await? {
        return Ok(Toast::Key("not-allowed-settings"));
    }
    chats::set_default_lead(&mut *ctx.db().await, turn.chat_id, lead).await?;
    let (text, keyboard) = view(turn, lead)?;
    ctx.edit(turn.chat_id, message_id, Some(text), Some(keyboard));
    Ok(Toast::Key("settings-saved"))
}

/// The settings message with `lead` as the chat's default: the zone (with its UTC offset), the
/// lead, how to change it, and the lead buttons.
fn view(turn: &Turn, lead: Lead) -> Result<(String, InlineKeyboardMarkup), BotError> {
    let tr = turn.tr;
    let mut lines = Vec::new();
    if let Some(zone) = turn.zone() {
        lines.push(zone::current_line(turn, zone));
    }
    let shown = dates::lead(tr, lead);
    lines.push(tr.t_with("settings-current", &[("lead", Arg::Text(&shown))]));
    lines.push(tr.t("settings-usage"));
    lines.push(format!(
        "{} {}",
        tr.t("example-label"),
        tr.t("settings-example")
    ));
    let text = render::notice(None, &lines)?;
    Ok((text, render::lead_keyboard(tr, lead)))
}
