//! The [06:00] [18:00] buttons under a new task whose hour was said without am/pm on a named day
//! ("tomorrow at 6", "в пятницу в 7", "ertaga soat 6 da"), or without a day and first read in the
//! night ("call client at 1" at 13:40: [01:00] [13:00]): the task is saved at once with the reading
//! taken, nothing waits for an answer, and a tap reads the hour in the other half of the day as
//! Change time with that time would ("06:00": the same day, a repeat's same days, from its next
//! such time). The card then shows the task as it is, the tapped button ticked, and its Undo takes
//! the switch back.

use chrono::{NaiveTime, TimeDelta, Timelike, Utc};
use teloxide::types::MessageId;

use super::context::{Ctx, Turn};
use super::edit;
use super::replies::Toast;
use crate::bot::BotError;
use crate::bot::assumed;
use crate::bot::render;
use crate::domain::due::{HalfOfDay, parse_edit};
use crate::domain::ids::TaskId;
use crate::domain::timezone::to_local;
use crate::store::series;
use crate::store::tasks::{self, TaskChange};
use crate::store::undo::{self, Change};

/// A tap on the [06:00] or [18:00] button under the card `message_id` of task `task_id`.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    half: HalfOfDay,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    let task = tasks::find(&mut *ctx.db().await, turn.chat_id, task_id).await?;
    let Some(task) = task.filter(|task| task.is_open()) else {
        return Ok(Toast::Key("not-found"));
    };
    if !ctx.may_change(turn, task.owner_id).await? {
        return Ok(Toast::Key("not-allowed-task"));
    }
    let now = Utc::now();
    let time = in_half(to_local(task.zone, task.due_at).time(), half);
    let said = time.format("%H:%M").to_string();
    let schedule = parse_edit(&said, turn.tr.lang(), now, task.zone)
        .ok()
        .and_then(|parsed| edit::new_schedule(&task, &parsed, now).ok());
    let Some(schedule) = schedule else {
        return Ok(Toast::Key("stale-button"));
    };
    // A repeat's first time is its next one from now, as the parser would have read it: "every
    // day at 7" switched to 19:00 at noon rings tonight, not only tomorrow.
    let due_at = match schedule.recurrence {
        Some(rule) if !rule.frequency().counts_elapsed_time() => {
            schedule.due_at.min(rule.next_after(now, task.zone))
        }
        _ => schedule.due_at,
    };
    let change = TaskChange {
        text: None,
        due_at,
        lead: task.lead,
        recurrence: schedule.recurrence,
    };
    let mut tx = ctx.db().await;
    let Some(changed) =
        tasks::reschedule(&mut tx, ctx.queue(), turn.chat_id, task_id, &change).await?
    else {
        return Ok(Toast::Key("not-found"));
    };
    let undo_id = undo::record(&mut tx, task_id, Change::Edit, Some(&task.version())).await?;
    let next_reminder = tasks::next_reminder(&mut tx, task_id).await?;
    let paused = series::on_hold(&mut tx, task_id).await?;
    drop(tx);
    let zone = turn.zone().unwrap_or(changed.zone);
    let card = render::task_card(
        turn.tr,
        "task-saved",
        &changed,
        next_reminder,
        paused,
        zone,
        now,
    )?;
    let card = assumed::under_card(card, &[assumed::hour_choice(turn.tr, time)])?;
    let mut keyboard = render::confirm_keyboard(turn.tr, undo_id, task_id);
    keyboard
        .inline_keyboard
        .insert(0, render::hour_choice_row(task_id, time));
    keyboard
        .inline_keyboard
        .extend(ctx.open_app_row(turn, Some(task_id)));
    ctx.edit(turn.chat_id, message_id, Some(card), Some(keyboard));
    Ok(Toast::Key("settings-saved"))
}

/// `time` moved into `half` of the day, its minutes kept: 18:30 in the morning is 06:30.
fn in_half(time: NaiveTime, half: HalfOfDay) -> NaiveTime {
    let evening = time.hour() >= 12;
    match (half, evening) {
        (HalfOfDay::Morning, true) => time - TimeDelta::hours(12),
        (HalfOfDay::Evening, false) => time + TimeDelta::hours(12),
        _ => time,
    }
}
