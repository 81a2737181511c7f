//! Pausing and resuming a repeat: the ⏸ button under a recurring task's reminder and
//! `/pause <id>` stop its reminders (nothing fires while it is paused); the ▶️ Resume button under
//! the answer and `/resume <id>` bring it back at its next occurrence after now, never with the
//! ones it missed.

use chrono::Utc;

use super::context::{Ctx, Turn};
use super::finish::Changed;
use super::replies::{Toast, not_allowed_task, not_found};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::callback::Action;
use crate::domain::ids::TaskId;
use crate::i18n::Arg;
use crate::i18n::dates::Dates;
use crate::store::cards;
use crate::store::series::{self, Hold};
use crate::store::tasks::Task;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

/// Pause or resume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Want {
    /// Pause the repeat.
    Pause,
    /// Resume it.
    Resume,
}

/// `/pause <id>` and `/resume <id>`.
pub(super) async fn command(
    ctx: &Ctx,
    turn: &Turn,
    want: Want,
    args: &str,
) -> Result<(), BotError> {
    let id = args
        .trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(TaskId);
    let Some(id) = id else {
        let example = match want {
            Want::Pause => "id-example-pause",
            Want::Resume => "id-example-resume",
        };
        return ctx
            .send_problem(turn, &turn.tr.t("id-usage"), None, example)
            .await;
    };
    if change(ctx, turn, want, id).await? == Changed::NotAllowed {
        not_allowed_task(ctx, turn).await?;
    }
    Ok(())
}

/// The ⏸ and ▶️ buttons.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    want: Want,
    task_id: TaskId,
) -> Result<Toast, BotError> {
    let key = match want {
        Want::Pause => "callback-paused",
        Want::Resume => "callback-resumed",
    };
    Ok(change(ctx, turn, want, task_id).await?.toast(key))
}

/// Pauses or resumes task `task_id` and says what became of it.
async fn change(ctx: &Ctx, turn: &Turn, want: Want, task_id: TaskId) -> Result<Changed, BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return Ok(Changed::NotAllowed);
    }
    let held = {
        let mut tx = ctx.db().await;
        match want {
            Want::Pause => {
                let paused = series::pause(&mut tx, turn.chat_id, task_id).await?;
                if let Some(Hold::Changed(_)) = paused {
                    // Nothing fires while paused: no card offers Done or Snooze meanwhile.
                    let keep = cards::Keep::None;
                    cards::close(&mut tx, ctx.queue(), turn.chat_id, task_id, keep).await?;
                }
                paused
            }
            Want::Resume => series::resume(&mut tx, ctx.queue(), turn.chat_id, task_id).await?,
        }
    };
    let Some(held) = held else {
        not_found(ctx, turn).await?;
        return Ok(Changed::NotFound);
    };
    let text = |task: &Task| render::shorten(&task.text, 200);
    let (line, resume_button) = match (want, &held) {
        (Want::Pause, Hold::Changed(task)) => (
            turn.tr
                .t_with("repeat-paused", &[("text", Arg::Text(&text(task)))]),
            Some(task.id),
        ),
        (Want::Pause, Hold::Already(task)) => (turn.tr.t("repeat-already-paused"), Some(task.id)),
        (Want::Resume, Hold::Changed(task)) => {
            let zone = turn.zone().unwrap_or(task.zone);
            let when = Dates::new(turn.tr, zone, Utc::now()).moment_with_weekday(task.due_at);
            let args = [("text", Arg::Text(&text(task))), ("when", Arg::Text(&when))];
            (turn.tr.t_with("repeat-resumed", &args), None)
        }
        (Want::Resume, Hold::Already(_)) => (turn.tr.t("repeat-not-paused"), None),
        (_, Hold::Ended(task)) => (
            turn.tr
                .t_with("repeat-ended-paused", &[("text", Arg::Text(&text(task)))]),
            None,
        ),
        (_, Hold::NotRepeating(_)) => (turn.tr.t("repeat-not-repeating"), None),
    };
    let mut reply = Reply::text(render::notice(None, &[line])?);
    if let Some(task_id) = resume_button {
        reply = reply.with_keyboard(InlineKeyboardMarkup::new([[
            InlineKeyboardButton::callback(
                turn.tr.t("button-resume"),
                Action::Resume { task_id }.encode(),
            ),
        ]]));
    }
    ctx.send(turn.chat_id, reply).await?;
    Ok(Changed::Yes)
}
