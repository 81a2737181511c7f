//! `/settings`: the chat's default lead time (how long before a deadline new tasks remind), read
//! with the same duration grammar as the lead times in task phrases. In a group only its
//! administrators change it.

use super::context::{Ctx, Turn};
use super::replies::not_allowed_settings;
use crate::bot::BotError;
use crate::domain::due::{DueError, parse_lead};
use crate::i18n::Arg;
use crate::i18n::dates;
use crate::store::chats;

/// Shows the default lead time, or sets it from `args` ("30 min", "2 hrs", "2 часа", "1 kun", "0").
pub(super) async fn command(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    if args.is_empty() {
        let lead = dates::lead(tr, turn.chat.default_lead);
        let current = tr.t_with("settings-current", &[("lead", Arg::Text(&lead))]);
        let example = format!("{} {}", tr.t("example-label"), tr.t("settings-example"));
        return ctx
            .send_lines(turn, &[current, tr.t("settings-usage"), example])
            .await;
    }
    if !ctx.may_change_settings(turn).await? {
        return not_allowed_settings(ctx, turn).await;
    }
    let lead = match parse_lead(args, tr.lang()) {
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
