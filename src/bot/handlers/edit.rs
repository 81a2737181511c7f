//! Changing a task: the Edit button asks "new time?", and the answer is a time (the text stays; a
//! recurring task keeps repeating at the new time of day) or a new text with its time (the task
//! becomes what that text says).

use chrono::{DateTime, NaiveTime, Utc};
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use super::replies::{Toast, due_problem, not_allowed_task, not_found, text_problem};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::due::{DueError, parse_due};
use crate::domain::recurrence::Recurrence;
use crate::store::conversation::{self, Pending};
use crate::store::tasks::{self, TaskChange, TaskText};

/// The Edit button: asks for the task's new time (or text and time).
pub(super) async fn tapped(ctx: &Ctx, turn: &Turn, task_id: i64) -> Result<Toast, BotError> {
    let mut conn = ctx.db().await;
    let task = tasks::find(&mut conn, turn.chat_id, task_id).await?;
    drop(conn);
    let Some(task) = task.filter(|task| task.is_open()) else {
        not_found(ctx, turn).await?;
        return Ok(Toast::Key("not-found"));
    };
    if !ctx.may_change(turn, task.owner_id).await? {
        return Ok(Toast::Key("not-allowed-task"));
    }
    let pending = Pending::EditTask { task_id };
    let text = ctx
        .ask(turn, &pending, "ask-edit", &task.text, "when-example")
        .await?;
    ctx.send(turn.chat_id, Reply::question(text)).await?;
    Ok(Toast::Silent)
}

/// The answer to "new time?".
pub(super) async fn answer(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    answer: &str,
) -> Result<(), BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return not_allowed_task(ctx, turn).await;
    }
    let mut tx = ctx.db().await;
    let Some(task) = tasks::find(&mut tx, turn.chat_id, task_id).await? else {
        conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
        drop(tx);
        return not_found(ctx, turn).await;
    };
    let zone = task.zone;
    let now = Utc::now();
    let lang = turn.tr.lang();
    let (parsed, new_text) = match parse_due(answer, lang, now, zone) {
        Ok(parsed) => {
            let text = parsed.text.clone();
            (Ok(parsed), Some(text))
        }
        Err(DueError::EmptyText) => (
            parse_due(&format!("{} {answer}", task.text), lang, now, zone),
            None,
        ),
        Err(error) => (Err(error), None),
    };
    let parsed = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return due_problem(ctx, turn, zone, &error).await,
    };
    let text = match new_text.as_deref().map(TaskText::parse).transpose() {
        Ok(text) => text,
        Err(error) => return text_problem(ctx, turn, error).await,
    };
    let (due_at, recurrence) = match (parsed.recurrence, task.recurrence) {
        (None, Some(old)) if text.is_none() => {
            keep_repeating(old, parsed.time_for_repeat(zone), zone, now)
        }
        (recurrence, _) => (parsed.due, recurrence),
    };
    let change = TaskChange {
        text,
        due_at,
        lead: parsed.lead.unwrap_or(task.lead),
        recurrence,
    };
    let changed = tasks::reschedule(&mut tx, ctx.queue(), turn.chat_id, task_id, &change).await?;
    conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
    drop(tx);
    match changed {
        Some(task) => {
            let card = render::task_card(turn.tr, "task-changed", &task, zone, Utc::now())?;
            ctx.send(
                turn.chat_id,
                Reply::text(card).with_keyboard(render::confirm_keyboard(turn.tr, task.id)),
            )
            .await
        }
        None => not_found(ctx, turn).await,
    }
}

/// A recurring task given only a new time keeps repeating on the same days at the new time of
/// day; returns its first occurrence after `now` and the new rule.
fn keep_repeating(
    old: Recurrence,
    time: NaiveTime,
    zone: Tz,
    now: DateTime<Utc>,
) -> (DateTime<Utc>, Option<Recurrence>) {
    let rule = old.with_time(time);
    (rule.next_after(now, zone), Some(rule))
}
