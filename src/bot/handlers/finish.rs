//! Finishing and deleting tasks: `/done <id>` and `/delete <id>`, and the Done and Delete buttons
//! (under a card, a list page or a reminder). Each answer carries an Undo that takes it back.

use chrono::Utc;

use super::context::{Ctx, Turn};
use super::replies::{Toast, not_allowed_task, not_found};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::ids::TaskId;
use crate::i18n::Arg;
use crate::i18n::dates::Dates;
use crate::store::tasks::TaskVersion;
use crate::store::undo::{self, Change};
use crate::store::{cards, occurrences, tasks};

/// Reads a task id (`12` or `#12`).
fn task_id(args: &str) -> Option<TaskId> {
    args.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(TaskId)
}

/// What became of a change the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Changed {
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
            let changed = delete(ctx, turn, id).await?;
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
        Changed::NotAllowed => not_allowed_task(ctx, turn).await,
        Changed::Yes | Changed::NotFound => Ok(()),
    }
}

/// Marks the task done (a recurring one moves to its next occurrence, unless Done answers the
/// reminder message `reminder_message` of an occurrence already past) and says so, with an Undo
/// when the task changed.
pub(super) async fn finish(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    reminder_message: Option<i64>,
) -> Result<Changed, BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return Ok(Changed::NotAllowed);
    }
    let mut tx = ctx.db().await;
    let queue = ctx.queue();
    let before = match tasks::find(&mut tx, turn.chat_id, task_id).await? {
        // Where its series stood, for an Undo to put back.
        Some(before) => Some(TaskVersion {
            occurrence: Some(occurrences::current(&mut tx, &before).await?.index),
            ..before.version()
        }),
        None => None,
    };
    let finished = match reminder_message {
        Some(message_id) => {
            tasks::finish_from_reminder(&mut tx, queue, turn.chat_id, task_id, message_id).await?
        }
        None => tasks::finish(&mut tx, queue, turn.chat_id, task_id).await?,
    };
    let (Some(before), Some(task)) = (before, finished) else {
        drop(tx);
        not_found(ctx, turn).await?;
        return Ok(Changed::NotFound);
    };
    let tapped = reminder_message.map_or(cards::Keep::None, cards::Keep::EditedByCaller);
    cards::close(&mut tx, queue, turn.chat_id, task.id, tapped).await?;
    // Done under the reminder of a recurring task's past occurrence changes nothing but its
    // nagging: its Undo puts the task back as it is, and says when the next one comes.
    let undo_id = undo::record(&mut tx, task.id, Change::Done, Some(&before)).await?;
    drop(tx);
    let line = if task.is_open() {
        let zone = turn.zone().unwrap_or(task.zone);
        let when = Dates::new(turn.tr, zone, Utc::now()).moment_with_weekday(task.due_at);
        turn.tr.t_with("done-next", &[("when", Arg::Text(&when))])
    } else {
        // A recurring task closes only when its series has ended.
        let key = if task.recurs() {
            "done-series-ended"
        } else {
            "done-ok"
        };
        let text = render::shorten(&task.text, 200);
        turn.tr.t_with(key, &[("text", Arg::Text(&text))])
    };
    send_with_undo(ctx, turn, line, undo_id).await?;
    Ok(Changed::Yes)
}

/// Deletes the task and says so, with an Undo that brings it back.
pub(super) async fn delete(ctx: &Ctx, turn: &Turn, task_id: TaskId) -> Result<Changed, BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return Ok(Changed::NotAllowed);
    }
    let mut tx = ctx.db().await;
    let deleted = tasks::delete(&mut tx, turn.chat_id, task_id).await?;
    let Some(task) = deleted else {
        drop(tx);
        not_found(ctx, turn).await?;
        return Ok(Changed::NotFound);
    };
    cards::close(
        &mut tx,
        ctx.queue(),
        turn.chat_id,
        task.id,
        cards::Keep::None,
    )
    .await?;
    let undo_id = undo::record(&mut tx, task.id, Change::Delete, Some(&task.version())).await?;
    drop(tx);
    let text = render::shorten(&task.text, 200);
    let line = turn.tr.t_with("deleted", &[("text", Arg::Text(&text))]);
    send_with_undo(ctx, turn, line, undo_id).await?;
    Ok(Changed::Yes)
}

/// Sends `line`, with an Undo button for the change recorded as `undo_id`.
async fn send_with_undo(
    ctx: &Ctx,
    turn: &Turn,
    line: String,
    undo_id: i64,
) -> Result<(), BotError> {
    let reply = Reply::text(render::notice(None, &[line])?)
        .with_keyboard(render::undo_keyboard(turn.tr, undo_id));
    ctx.send(turn.chat_id, reply).await
}

impl Changed {
    /// The toast answering a tap that asked for the change: `done` when it was made.
    pub(super) fn toast(self, done: &'static str) -> Toast {
        Toast::Key(match self {
            Self::Yes => done,
            Self::NotFound => "not-found",
            Self::NotAllowed => "not-allowed-task",
        })
    }
}
