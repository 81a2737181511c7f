//! `/export`: the chat's open tasks (the soonest [`MAX_EXPORT_TASKS`]) as a calendar file and a
//! table, two documents through the outbox like every message.

use chrono::Utc;

use super::context::{Ctx, Turn};
use crate::bot::BotError;
use crate::bot::render;
use crate::export::{self, CSV_FILE_NAME, ICS_FILE_NAME, MAX_EXPORT_TASKS};
use crate::i18n::Arg;
use crate::store::tasks;

/// Sends the `.ics` and the `.csv` of the chat's open tasks, or says there are none.
pub(super) async fn command(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    let total = tasks::count_open(&mut *ctx.db().await, turn.chat_id).await?;
    if total == 0 {
        return ctx.send_lines(turn, &[tr.t("export-empty")]).await;
    }
    let tasks: Vec<_> = tasks::list_open(&mut *ctx.db().await, turn.chat_id, MAX_EXPORT_TASKS, 0)
        .await?
        .into_iter()
        .map(|listed| listed.task)
        .collect();
    let mut lines = vec![tr.t_with(
        "export-calendar",
        &[("count", Arg::Number(tasks.len() as i64))],
    )];
    if total > MAX_EXPORT_TASKS {
        lines.push(tr.t_with(
            "export-capped",
            &[
                ("max", Arg::Number(MAX_EXPORT_TASKS)),
                ("count", Arg::Number(total)),
            ],
        ));
    }
    let calendar = export::ics::calendar(&tasks, Utc::now());
    ctx.send_document(
        turn.chat_id,
        ICS_FILE_NAME.to_owned(),
        calendar,
        Some(render::notice(None, &lines)?),
    );
    let table = export::csv::table(&tasks, tr);
    let caption = render::notice(None, &[tr.t("export-table")])?;
    ctx.send_document(turn.chat_id, CSV_FILE_NAME.to_owned(), table, Some(caption));
    Ok(())
}
