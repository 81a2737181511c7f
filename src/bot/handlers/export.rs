//! `/export`: the chat's open tasks (the soonest [`crate::export::MAX_EXPORT_TASKS`]) as a
//! calendar file and a table, two outbox jobs whose files are built when they are sent. A chat
//! asks at most once per [`EXPORT_COOLDOWN`].

use super::context::{Ctx, Turn};
use crate::bot::BotError;
use crate::export::EXPORT_COOLDOWN;
use crate::export::file::{ExportFormat, ExportJob};
use crate::i18n::Arg;
use crate::store::{exports, outbox, tasks};

/// Puts the `.ics` and the `.csv` of the chat's open tasks in the outbox; or says there are none,
/// or how long to wait after the last export.
pub(super) async fn command(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    let total = tasks::count_open(&mut *ctx.db().await, turn.chat_id).await?;
    if total == 0 {
        return ctx.send_lines(turn, &[tr.t("export-empty")]).await;
    }
    let wait = exports::request(&mut *ctx.db().await, turn.chat_id, EXPORT_COOLDOWN).await?;
    if let Some(wait) = wait {
        let seconds = Arg::Number(wait.as_secs_f64().ceil().max(1.0) as i64);
        return ctx
            .send_lines(turn, &[tr.t_with("export-wait", &[("seconds", seconds)])])
            .await;
    }
    for format in [ExportFormat::Calendar, ExportFormat::Table] {
        let job = ExportJob {
            chat_id: turn.chat_id,
            format,
        };
        outbox::enqueue_export(&mut *ctx.db().await, ctx.queue(), job).await?;
    }
    Ok(())
}
