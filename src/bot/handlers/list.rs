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

/// What became of a change the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Changed {
    /// Done, and said so.
    Yes,
    /// The chat has no such open task (said so).
    NotFound,
    /// The task is someone else's in a group, and the user does not administer it: nothing
    /// changed, and nothing was said yet (a command says it in the chat, a tap in a toast).
    NotAllowed,
}

/// `/done <id>`.
pub(super) async fn done_by_id(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    match task_id(args) {
        Some(id) => {
            let changed = finish(ctx, turn, id, None).await?;
            say_if_not_allowed(ctx, turn, changed).await
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
            let changed = delete(ctx, turn, id, "deleted").await?;
            say_if_not_allowed(ctx, turn, changed).await
        }
        None => {
            ctx.send_problem(turn, &turn.tr.t("id-usage"), None, "id-example-delete")
                .await
        }
    }
}

/// Tells a user who may not change a task so, in the chat.
async fn say_if_not_allowed(ctx: &Ctx, turn: &Turn, changed: Changed) -> Result<(), BotError> {
    match changed {
        Changed::NotAllowed => ctx.send_lines(turn, &[turn.tr.t("not-allowed-task")]).await,
        Changed::Yes | Changed::NotFound => Ok(()),
    }
}

/// Marks the task done (a recurring one moves to its next occurrence, unless Done answers the
/// reminder message `reminder_message` of an occurrence already past) and says so.
pub(super) async fn finish(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    reminder_message: Option<i64>,
) -> Result<Changed, BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return Ok(Changed::NotAllowed);
    }
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
        return Ok(Changed::NotFound);
    };
    let line = if task.state == "open" {
        let when = render::local_time(task.due_at, task.zone()?);
        turn.tr.t_with("done-next", &[("when", Arg::Text(&when))])
    } else {
        let text = render::shorten(&task.text, 200);
        turn.tr.t_with("done-ok", &[("text", Arg::Text(&text))])
    };
    ctx.send_lines(turn, &[line]).await?;
    Ok(Changed::Yes)
}

/// Deletes the task and says so with the message `key` (`deleted`, or `undone` for Undo).
pub(super) async fn delete(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    key: &str,
) -> Result<Changed, BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return Ok(Changed::NotAllowed);
    }
    let mut tx = ctx.deps.pool.begin().await?;
    let deleted = tasks::delete(&mut tx, turn.chat_id, task_id).await?;
    tx.commit().await?;
    let Some(task) = deleted else {
        add::not_found(ctx, turn).await?;
        return Ok(Changed::NotFound);
    };
    let text = render::shorten(&task.text, 200);
    ctx.send_lines(turn, &[turn.tr.t_with(key, &[("text", Arg::Text(&text))])])
        .await?;
    Ok(Changed::Yes)
}
