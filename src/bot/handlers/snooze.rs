//! Snoozing a task: the Snooze buttons (10 minutes, an hour, tomorrow morning, another time) and
//! the answer to "snooze until when?". A snooze adds an extra reminder and never changes the
//! task's deadline or rule.

use chrono::{DateTime, Days, Duration, Utc};
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use super::replies::{Toast, due_problem, not_allowed_task, not_found};
use crate::bot::BotError;
use crate::bot::render;
use crate::callback::{Question, Snooze};
use crate::domain::due::{DEFAULT_TIME, parse_due};
use crate::domain::ids::TaskId;
use crate::domain::timezone::{resolve_local, to_local};
use crate::i18n::Arg;
use crate::i18n::dates::Dates;
use crate::store::conversation::{self, Pending};
use crate::store::{cards, tasks};

/// A Snooze button: snoozes for the chosen while, or asks until when.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    choice: Snooze,
) -> Result<Toast, BotError> {
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
    let zone = task.zone;
    let now = Utc::now();
    let fire_at = match choice {
        Snooze::TenMinutes => now + Duration::minutes(10),
        Snooze::OneHour => now + Duration::hours(1),
        Snooze::TomorrowMorning => {
            let today = to_local(zone, now).date();
            let tomorrow = today.checked_add_days(Days::new(1)).unwrap_or(today);
            resolve_local(zone, tomorrow.and_time(DEFAULT_TIME))
        }
        Snooze::Custom => {
            let pending = Pending::SnoozeTime { task_id };
            let text = ctx
                .ask(turn, &pending, "ask-snooze", &task.text, "snooze-example")
                .await?;
            ctx.send_question(
                turn,
                text,
                Question::SnoozeTime { task_id },
                vec![render::snooze_choices(turn.tr, task_id)],
            )
            .await?;
            return Ok(Toast::Silent);
        }
    };
    snooze(ctx, turn, task_id, fire_at, zone).await?;
    Ok(Toast::Key("callback-snoozed"))
}

/// The answer to "snooze until when?".
pub(super) async fn answer(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    answer: &str,
) -> Result<(), BotError> {
    let mut conn = ctx.db().await;
    let Some(task) = tasks::find(&mut conn, turn.chat_id, task_id).await? else {
        conversation::close(&mut conn, ctx.queue(), turn.chat_id, turn.user_id).await?;
        return not_found(ctx, turn).await;
    };
    drop(conn);
    if !ctx.may_change(turn, task.owner_id).await? {
        return not_allowed_task(ctx, turn).await;
    }
    let zone = task.zone;
    match parse_due(
        &format!("{} {answer}", task.text),
        turn.tr.lang(),
        Utc::now(),
        zone,
    ) {
        Ok(parsed) => snooze(ctx, turn, task_id, parsed.due, zone).await,
        Err(error) => due_problem(ctx, turn, zone, &error).await,
    }
}

/// Snoozes the task until `fire_at` and says until when (or that the task is not found).
pub(super) async fn snooze(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    fire_at: DateTime<Utc>,
    zone: Tz,
) -> Result<(), BotError> {
    let mut tx = ctx.db().await;
    let snoozed = tasks::snooze(&mut tx, ctx.queue(), turn.chat_id, task_id, fire_at).await?;
    if snoozed.is_some() {
        // The snooze comes back as a card of its own: no older card snoozes it again.
        cards::close(
            &mut tx,
            ctx.queue(),
            turn.chat_id,
            task_id,
            cards::Keep::None,
        )
        .await?;
    }
    conversation::close(&mut tx, ctx.queue(), turn.chat_id, turn.user_id).await?;
    drop(tx);
    if snoozed.is_none() {
        return not_found(ctx, turn).await;
    }
    let when = Dates::new(turn.tr, zone, Utc::now()).moment(fire_at);
    ctx.send_lines(
        turn,
        &[turn.tr.t_with("snoozed", &[("when", Arg::Text(&when))])],
    )
    .await
}
