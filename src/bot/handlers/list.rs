//! The task list (paged) and finishing or deleting tasks by id.

use teloxide::prelude::*;
use teloxide::types::{MessageId, ParseMode};

use super::{Ctx, Turn, add};
use crate::bot::BotError;
use crate::bot::render::{self, PAGE_SIZE, Reply};
use crate::i18n::Arg;
use crate::store::tasks;

/// Shows page `page` of the chat's open tasks; with `edit`, replaces that message (a page button).
pub(super) async fn show(
    ctx: &Ctx,
    turn: &Turn,
    page: u32,
    edit: Option<MessageId>,
) -> Result<(), BotError> {
    let zone = turn.zone().unwrap_or(chrono_tz::UTC);
    let mut conn = ctx.deps.pool.acquire().await?;
    let total = tasks::count_open(&mut conn, turn.chat_id).await?;
    let last_page = u32::try_from(render::page_count(total) - 1).unwrap_or(0);
    let page = page.min(last_page);
    let page_tasks = tasks::list_open(
        &mut conn,
        turn.chat_id,
        PAGE_SIZE,
        i64::from(page) * PAGE_SIZE,
    )
    .await?;
    drop(conn);
    let text = render::task_list(turn.tr, &page_tasks, page, total, zone)?;
    let keyboard = render::list_keyboard(turn.tr, &page_tasks, page, total);
    match edit {
        Some(message_id) => {
            let result = ctx
                .bot
                .edit_message_text(ChatId(turn.chat_id), message_id, text)
                .parse_mode(ParseMode::Html)
                .reply_markup(keyboard)
                .await;
            match result {
                Ok(_) => Ok(()),
                Err(teloxide::RequestError::Api(teloxide::ApiError::MessageNotModified)) => Ok(()),
                Err(error) => Err(error.into()),
            }
        }
        None => {
            ctx.send(turn.chat_id, Reply::text(text).with_keyboard(keyboard))
                .await
        }
    }
}

/// Reads a task id (`12` or `#12`).
fn task_id(args: &str) -> Option<i64> {
    args.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
}

/// `/done <id>`.
pub(super) async fn done_by_id(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    match task_id(args) {
        Some(id) => {
            finish(ctx, turn, id, None).await?;
            Ok(())
        }
        None => {
            ctx.send_problem(turn, &turn.tr.t("id-usage"), None, "id-example-done")
                .await
        }
    }
}

/// `/delete <id>`.
pub(super) async fn delete_by_id(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    match task_id(args) {
        Some(id) => {
            delete(ctx, turn, id, "deleted").await?;
            Ok(())
        }
        None => {
            ctx.send_problem(turn, &turn.tr.t("id-usage"), None, "id-example-delete")
                .await
        }
    }
}

/// Marks the task done (a recurring one moves to its next occurrence, unless Done answers the
/// reminder message `reminder_message` of an occurrence already past) and says so. Returns
/// whether the task was found.
pub(super) async fn finish(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    reminder_message: Option<i64>,
) -> Result<bool, BotError> {
    let mut tx = ctx.deps.pool.begin().await?;
    let queue = &ctx.deps.queue;
    let finished = match reminder_message {
        Some(message_id) => {
            tasks::finish_from_reminder(&mut tx, queue, turn.chat_id, task_id, message_id).await?
        }
        None => tasks::finish(&mut tx, queue, turn.chat_id, task_id).await?,
    };
    tx.commit().await?;
    let Some(task) = finished else {
        add::not_found(ctx, turn).await?;
        return Ok(false);
    };
    let line = if task.state == "open" {
        let when = render::local_time(task.due_at, task.zone()?);
        turn.tr.t_with("done-next", &[("when", Arg::Text(&when))])
    } else {
        let text = render::shorten(&task.text, 200);
        turn.tr.t_with("done-ok", &[("text", Arg::Text(&text))])
    };
    ctx.send_lines(turn, &[line]).await?;
    Ok(true)
}

/// Deletes the task and says so with the message `key` (`deleted`, or `undone` for Undo).
/// Returns whether the task was found.
pub(super) async fn delete(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    key: &str,
) -> Result<bool, BotError> {
    let mut tx = ctx.deps.pool.begin().await?;
    let deleted = tasks::delete(&mut tx, turn.chat_id, task_id).await?;
    tx.commit().await?;
    let Some(task) = deleted else {
        add::not_found(ctx, turn).await?;
        return Ok(false);
    };
    let text = render::shorten(&task.text, 200);
    ctx.send_lines(turn, &[turn.tr.t_with(key, &[("text", Arg::Text(&text))])])
        .await?;
    Ok(true)
}
