//! The Keep reminding button under a reminder: the task is reminded again every
//! [`DEFAULT_EVERY_MINUTES`] minutes (or at the interval it nags at already) until it is done, at
//! most a round's worth of times; the button leaves the message, which keeps Done and Snooze.

use chrono::TimeDelta;
use teloxide::types::MessageId;

use super::context::{Ctx, Turn};
use super::replies::{Toast, not_found};
use super::task_extras::nag_line;
use crate::bot::BotError;
use crate::bot::nag_phrase::DEFAULT_EVERY_MINUTES;
use crate::domain::ids::TaskId;
use crate::egress::render::nag_keyboard;
use crate::store::{cards, nags, tasks};

/// Keep reminding under message `message_id`: starts nagging and says how often.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    let task = tasks::find(&mut *ctx.db().await, turn.chat_id, task_id).await?;
    let Some(task) = task.filter(tasks::Task::is_open) else {
        not_found(ctx, turn).await?;
        return Ok(Toast::Key("not-found"));
    };
    if !ctx.may_change(turn, task.owner_id).await? {
        return Ok(Toast::Key("not-allowed-task"));
    }
    let every = nags::start_now(
        &mut *ctx.db().await,
        ctx.queue(),
        &task,
        i64::from(message_id.0),
        TimeDelta::minutes(DEFAULT_EVERY_MINUTES),
    )
    .await?;
    // The tapped card is the live one: older cards lose their buttons (Keep reminding too).
    let tapped = cards::Keep::Live(i64::from(message_id.0));
    cards::close(
        &mut *ctx.db().await,
        ctx.queue(),
        turn.chat_id,
        task_id,
        tapped,
    )
    .await?;
    ctx.edit(
        turn.chat_id,
        message_id,
        None,
        Some(nag_keyboard(turn.tr, task_id)),
    );
    ctx.send_lines(turn, &[nag_line(turn.tr, "nag-on", every)])
        .await?;
    Ok(Toast::Key("callback-nag"))
}
