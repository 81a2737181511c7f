//! Changing a task: the Edit button asks "new time?", and the answer changes only what it says.
//! A time of day alone keeps the day (and a recurring task its days, at the new time); a day
//! alone keeps the time; a day and a time, or "in 2 hours", give the whole moment (a recurring
//! task moves that one occurrence and keeps its rule); a repeat replaces the rule; a lead time
//! replaces the lead; a text replaces the text, and an answer without any time phrase is a new
//! text alone, the schedule and reminders untouched. The confirmation carries an Undo that puts
//! the task back as it was.

use chrono::{DateTime, Utc};

use super::context::{Ctx, Turn};
use super::replies::{Toast, due_problem, not_allowed_task, not_found, text_problem};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::callback::Question;
use crate::domain::due::{DueError, ParsedEdit, parse_edit};
use crate::domain::recurrence::{Frequency, Recurrence};
use crate::domain::timezone::{resolve_local, to_local};
use crate::store::conversation::{self, Pending};
use crate::store::tasks::{self, Task, TaskChange, TaskText};
use crate::store::undo::{self, Change};

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
        .ask(turn, &pending, "ask-edit", &task.text, "edit-example")
        .await?;
    ctx.send_question(turn, text, Question::EditTask { task_id }, Vec::new())
        .await?;
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
    let mut conn = ctx.db().await;
    let task = tasks::find(&mut conn, turn.chat_id, task_id).await?;
    let Some(task) = task.filter(Task::is_open) else {
        conversation::close(&mut *conn, turn.chat_id, turn.user_id).await?;
        drop(conn);
        return not_found(ctx, turn).await;
    };
    drop(conn);
    let now = Utc::now();
    let parsed = match parse_edit(answer, turn.tr.lang(), now, task.zone) {
        Ok(parsed) => parsed,
        Err(DueError::NoTime) => {
            return match TaskText::parse(answer) {
                Ok(text) => rename(ctx, turn, &task, &text).await,
                Err(error) => text_problem(ctx, turn, error).await,
            };
        }
        Err(error) => return due_problem(ctx, turn, task.zone, &error).await,
    };
    let text = match parsed.text.as_deref().map(TaskText::parse).transpose() {
        Ok(text) => text,
        Err(error) => return text_problem(ctx, turn, error).await,
    };
    let (due_at, recurrence) = match new_schedule(&task, &parsed, now) {
        Ok(schedule) => schedule,
        Err(error) => return due_problem(ctx, turn, task.zone, &error).await,
    };
    let change = TaskChange {
        text,
        due_at,
        lead: parsed.lead.unwrap_or(task.lead),
        recurrence,
    };
    let mut tx = ctx.db().await;
    let changed = tasks::reschedule(&mut tx, ctx.queue(), turn.chat_id, task_id, &change).await?;
    drop(tx);
    confirm(ctx, turn, &task, changed).await
}

/// A new text alone: the schedule and the reminders stay as they are.
async fn rename(ctx: &Ctx, turn: &Turn, task: &Task, text: &TaskText) -> Result<(), BotError> {
    let mut tx = ctx.db().await;
    let changed = tasks::rename(&mut tx, turn.chat_id, task.id, text).await?;
    drop(tx);
    confirm(ctx, turn, task, changed).await
}

/// Closes the question, records the Undo of the change from `before` and shows the task as it
/// is now (or says it is gone).
async fn confirm(
    ctx: &Ctx,
    turn: &Turn,
    before: &Task,
    changed: Option<Task>,
) -> Result<(), BotError> {
    let mut tx = ctx.db().await;
    conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
    let Some(task) = changed else {
        drop(tx);
        return not_found(ctx, turn).await;
    };
    let undo_id = undo::record(&mut tx, task.id, Change::Edit, Some(&before.version())).await?;
    let next_reminder = tasks::next_reminder(&mut tx, task.id).await?;
    drop(tx);
    let zone = turn.zone().unwrap_or(task.zone);
    let card = render::task_card(
        turn.tr,
        "task-changed",
        &task,
        next_reminder,
        zone,
        Utc::now(),
    )?;
    ctx.send(
        turn.chat_id,
        Reply::text(card).with_keyboard(render::confirm_keyboard(turn.tr, undo_id, task.id)),
    )
    .await
}

/// The task's new deadline and rule from what the answer says, keeping what it does not.
fn new_schedule(
    task: &Task,
    parsed: &ParsedEdit,
    now: DateTime<Utc>,
) -> Result<(DateTime<Utc>, Option<Recurrence>), DueError> {
    let said = parsed.said;
    if said.repeat {
        return Ok((parsed.due, parsed.recurrence));
    }
    let zone = task.zone;
    let old = to_local(zone, task.due_at);
    let new = to_local(zone, parsed.due);
    if said.elapsed || (said.day && said.time) {
        // A whole moment: a recurring task moves this occurrence and keeps its rule.
        return Ok((parsed.due, task.recurrence));
    }
    if said.day {
        // A day alone keeps the time of day.
        let local = new.date().and_time(old.time());
        let due = resolve_local(zone, local);
        return if due > now {
            Ok((due, task.recurrence))
        } else {
            Err(DueError::InPast { local })
        };
    }
    // A time of day alone keeps the day, and a recurring task its days.
    let time = parsed.time_of_day;
    let due = resolve_local(zone, old.date().and_time(time));
    match task.recurrence {
        // The same days and interval at the new time of day.
        Some(rule) => {
            let rule = rule.with_time(time);
            let due = if due > now && rule.frequency() != Frequency::Hourly {
                due
            } else {
                rule.next_after(now, zone)
            };
            Ok((due, Some(rule)))
        }
        None if due > now => Ok((due, None)),
        // An overdue task: the next such time of day.
        None => {
            let today = to_local(zone, now).date();
            let at = resolve_local(zone, today.and_time(time));
            let next = if at > now {
                at
            } else {
                resolve_local(zone, today.succ_opt().unwrap_or(today).and_time(time))
            };
            Ok((next, None))
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Weekday};
    use chrono_tz::Tz;

    use super::*;
    use crate::domain::lang::Lang;
    use crate::domain::lead::Lead;
    use crate::domain::recurrence::Frequency;
    use crate::store::types::TaskState;

    const TASHKENT: Tz = chrono_tz::Asia::Tashkent;

    /// Tuesday 1 December 2026, 12:00 in Tashkent.
    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 1, 7, 0, 0).unwrap()
    }

    fn task(due_at: DateTime<Utc>, rule: Option<&str>) -> Task {
        Task {
            id: 1,
            chat_id: 1,
            owner_id: 1,
            text: "weekly review".to_owned(),
            due_at,
            lead: Lead::ZERO,
            recurrence: rule.map(|rule| Recurrence::parse_rule_string(rule).unwrap()),
            zone: TASHKENT,
            state: TaskState::Open,
        }
    }

    fn local(due: DateTime<Utc>) -> String {
        to_local(TASHKENT, due).format("%a %d %H:%M").to_string()
    }

    fn edit(task: &Task, answer: &str) -> (String, Option<Recurrence>) {
        let parsed = parse_edit(answer, Lang::En, now(), TASHKENT).unwrap();
        let (due, rule) = new_schedule(task, &parsed, now()).unwrap();
        (local(due), rule)
    }

    #[test]
    fn a_time_alone_keeps_a_weekly_tasks_day() {
        // Every Friday at 18:00, next on Friday 4 December.
        let friday = Utc.with_ymd_and_hms(2026, 12, 4, 13, 0, 0).unwrap();
        let weekly = task(
            friday,
            Some("FREQ=WEEKLY;BYDAY=FR;BYHOUR=18;BYMINUTE=0;BYSECOND=0"),
        );
        let (due, rule) = edit(&weekly, "19:00");
        assert_eq!(due, "Fri 04 19:00");
        let rule = rule.unwrap();
        assert!(
            matches!(rule.frequency(), Frequency::Weekly(days) if days.contains(Weekday::Fri) && days.len() == 1),
            "{rule:?}"
        );
    }

    #[test]
    fn a_time_alone_keeps_the_date_and_a_date_alone_keeps_the_time() {
        let thursday = Utc.with_ymd_and_hms(2026, 12, 3, 13, 0, 0).unwrap();
        let one_off = task(thursday, None);
        assert_eq!(edit(&one_off, "9:30").0, "Thu 03 09:30");
        assert_eq!(edit(&one_off, "saturday").0, "Sat 05 18:00");
        assert_eq!(edit(&one_off, "saturday 10:00").0, "Sat 05 10:00");
        assert_eq!(edit(&one_off, "in 2 hours").0, "Tue 01 14:00");
    }

    #[test]
    fn a_time_alone_on_an_overdue_task_takes_the_next_such_time() {
        let yesterday = Utc.with_ymd_and_hms(2026, 11, 30, 13, 0, 0).unwrap();
        assert_eq!(edit(&task(yesterday, None), "11:00").0, "Wed 02 11:00");
    }
}
