//! The Undo button under a new or changed task and under the answers to Done and Delete: it puts
//! the task back as it was before that change (`store::undo` keeps what it was), once, for those
//! who may change the task, and only while the task is still as that change left it.
//!
//! Undoing a creation removes the task; an edit gets its old text, time, rule and lead back; Done
//! reopens the task and Delete brings it back. Either way the task's reminder is scheduled again
//! if its time is still ahead; when it has passed, the answer says that no reminder will come and
//! offers to change the time.

use chrono::Utc;
use teloxide::types::MessageId;

use super::context::{Ctx, Turn};
use super::replies::Toast;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::ids::TaskId;
use crate::i18n::Arg;
use crate::store::series;
use crate::store::tasks;
use crate::store::undo::{self, Change};

/// The Undo button with the recorded change `undo_id`, under message `message_id`.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    undo_id: i64,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    Ok(match apply(ctx, turn, undo_id, Some(message_id)).await? {
        Undone::Removed | Undone::Restored(_) => Toast::Key("callback-undone"),
        Undone::Refused(key) => Toast::Key(key),
    })
}

/// What became of an Undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Undone {
    /// A creation was taken back: the task is gone.
    Removed,
    /// The task is back as it was.
    Restored(TaskId),
    /// Nothing changed; the string with this key says why (used, outdated, not allowed).
    Refused(&'static str),
}

/// Takes back the change recorded as `undo_id` and says so in the chat, taking the buttons off
/// message `message_id` (the one whose Undo was tapped, if any).
pub(super) async fn apply(
    ctx: &Ctx,
    turn: &Turn,
    undo_id: i64,
    message_id: Option<MessageId>,
) -> Result<Undone, BotError> {
    let found = undo::find_for_update(&mut *ctx.db().await, turn.chat_id, undo_id).await?;
    let Some(found) = found else {
        // Replaced by a newer change of the task, or the task is gone.
        return Ok(Undone::Refused("undo-outdated"));
    };
    if !ctx.may_change(turn, found.owner_id).await? {
        return Ok(Undone::Refused("not-allowed-task"));
    }
    if found.used {
        return Ok(Undone::Refused("undo-used"));
    }
    if found.outdated {
        return Ok(Undone::Refused("undo-outdated"));
    }
    let now = Utc::now();
    let mut tx = ctx.db().await;
    undo::mark_used(&mut tx, found.id).await?;
    let (title, before) = match (found.change, &found.before) {
        (Change::Create, _) | (_, None) => {
            let removed = tasks::delete(&mut tx, turn.chat_id, found.task_id).await?;
            drop(tx);
            if let Some(message_id) = message_id {
                ctx.edit(turn.chat_id, message_id, None, None);
            }
            if let Some(task) = removed {
                let text = render::shorten(&task.text, 200);
                ctx.send_lines(
                    turn,
                    &[turn.tr.t_with("undone", &[("text", Arg::Text(&text))])],
                )
                .await?;
            }
            return Ok(Undone::Removed);
        }
        (Change::Edit, Some(before)) => ("undo-edit-title", before),
        (Change::Done, Some(before)) => ("undo-done-title", before),
        (Change::Delete, Some(before)) => ("undo-delete-title", before),
    };
    let restored = tasks::restore(
        &mut tx,
        ctx.queue(),
        turn.chat_id,
        found.task_id,
        before,
        now,
    )
    .await?;
    let Some(task) = restored else {
        return Ok(Undone::Refused("undo-outdated"));
    };
    let next_reminder = tasks::next_reminder(&mut tx, task.id).await?;
    let paused = series::on_hold(&mut tx, task.id).await?;
    drop(tx);
    if let Some(message_id) = message_id {
        ctx.edit(turn.chat_id, message_id, None, None);
    }
    let zone = turn.zone().unwrap_or(task.zone);
    let card = render::task_card(turn.tr, title, &task, next_reminder, paused, zone, now)?;
    let mut keyboard = render::change_time_keyboard(turn.tr, task.id);
    keyboard
        .inline_keyboard
        .extend(ctx.open_app_row(turn, Some(task.id)));
    ctx.send(turn.chat_id, Reply::text(card).with_keyboard(keyboard))
        .await?;
    Ok(Undone::Restored(task.id))
}
