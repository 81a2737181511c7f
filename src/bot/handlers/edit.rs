//! Changing a task: the Edit button asks "new time?", and the answer changes only what it says.
//! A time of day alone keeps the day (and a recurring task its days, at the new time); a day
//! alone keeps the time; a day and a time, or "in 2 hours", give the whole moment (a recurring
//! task moves that one occurrence and keeps its rule); a repeat replaces the rule; a lead time
//! replaces the lead; a text replaces the text, and an answer without any time phrase is a new
//! text alone, the schedule and reminders untouched (hours alone, "9" or "9 and 21", are a time).
//! The confirmation says what was assumed (a second time left out, a time the clocks skip) and
//! carries an Undo that puts the task back as it was.
//!
//! The confirmation also says what was assumed where it shaped the change
//! ([`crate::bot::assumed`]): an hour without am/pm (on the task's own day when that is not
//! today, and in a repeat, the daytime reading: 3 is 15:00), the time taken for a repeat or a
//! whole moment without one (not for a day alone, which keeps the time), next week's day, the
//! night after a day, a typo, time words kept in the new text. An answer whose only time words
//! are a repeat the bot cannot make ("every 10 minutes") changes nothing (it is not taken for a
//! new text): the bot says so and the question stays open.

use chrono::{DateTime, Utc};

use super::context::{Ctx, Turn};
use super::replies::{Toast, due_problem, not_allowed_task, not_found, text_problem};
use crate::bot::BotError;
use crate::bot::assumed;
use crate::bot::render::{self, Reply};
use crate::callback::Question;
use crate::domain::due::{
    Assumption, DueError, ParsedEdit, UnplacedKind, daytime_reading, loose_time_words, parse_edit,
};
use crate::domain::ids::TaskId;
use crate::domain::recurrence::{Recurrence, next_time_of_day};
use crate::domain::timezone::{resolve_local, to_local};
use crate::i18n::Arg;
use crate::store::conversation::{self, Pending};
use crate::store::series;
use crate::store::tasks::{self, Task, TaskChange, TaskText};
use crate::store::undo::{self, Change};

/// The Edit button: asks for the task's new time (or text and time).
pub(super) async fn tapped(ctx: &Ctx, turn: &Turn, task_id: TaskId) -> Result<Toast, BotError> {
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
    task_id: TaskId,
    answer: &str,
) -> Result<(), BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return not_allowed_task(ctx, turn).await;
    }
    let mut conn = ctx.db().await;
    let task = tasks::find(&mut conn, turn.chat_id, task_id).await?;
    let Some(task) = task.filter(Task::is_open) else {
        conversation::close(&mut conn, ctx.queue(), turn.chat_id, turn.user_id).await?;
        drop(conn);
        return not_found(ctx, turn).await;
    };
    drop(conn);
    let now = Utc::now();
    let parsed = match parse_edit(answer, turn.tr.lang(), now, task.zone) {
        Ok(parsed) => parsed,
        Err(DueError::NoTime) => {
            if let Some(words) = loose_time_words(answer, turn.tr.lang())
                .into_iter()
                .find(|words| words.kind == UnplacedKind::Repeat)
            {
                let problem = turn.tr.t_with(
                    "edit-repeat-unknown",
                    &[("words", Arg::Text(&render::shorten(&words.words, 40)))],
                );
                return ctx
                    .send_problem(turn, &problem, None, "repeat-edit-example")
                    .await;
            }
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
    let schedule = match new_schedule(&task, &parsed, now) {
        Ok(schedule) => schedule,
        Err(error) => return due_problem(ctx, turn, task.zone, &error).await,
    };
    let change = TaskChange {
        text,
        due_at: schedule.due_at,
        lead: parsed.lead.unwrap_or(task.lead),
        recurrence: schedule.recurrence,
    };
    let mut tx = ctx.db().await;
    let changed = tasks::reschedule(&mut tx, ctx.queue(), turn.chat_id, task_id, &change).await?;
    drop(tx);
    let notes = assumed::notes(
        turn.tr,
        turn.zone().unwrap_or(task.zone),
        now,
        &schedule.assumptions,
        &parsed.unplaced,
    );
    confirm(ctx, turn, &task, changed, &notes).await
}

/// A new text alone: the schedule and the reminders stay as they are.
pub(super) async fn rename(
    ctx: &Ctx,
    turn: &Turn,
    task: &Task,
    text: &TaskText,
) -> Result<(), BotError> {
    let mut tx = ctx.db().await;
    let changed = tasks::rename(&mut tx, turn.chat_id, task.id, text).await?;
    drop(tx);
    confirm(ctx, turn, task, changed, &[]).await
}

/// Closes the question, records the Undo of the change from `before` and shows the task as it
/// is now with `notes` ([`assumed::notes`]) under it (or says it is gone).
pub(super) async fn confirm(
    ctx: &Ctx,
    turn: &Turn,
    before: &Task,
    changed: Option<Task>,
    notes: &[String],
) -> Result<(), BotError> {
    let mut tx = ctx.db().await;
    conversation::close(&mut tx, ctx.queue(), turn.chat_id, turn.user_id).await?;
    let Some(task) = changed else {
        drop(tx);
        return not_found(ctx, turn).await;
    };
    let undo_id = undo::record(&mut tx, task.id, Change::Edit, Some(&before.version())).await?;
    let next_reminder = tasks::next_reminder(&mut tx, task.id).await?;
    let paused = series::on_hold(&mut tx, task.id).await?;
    drop(tx);
    let zone = turn.zone().unwrap_or(task.zone);
    let card = render::task_card(
        turn.tr,
        "task-changed",
        &task,
        next_reminder,
        paused,
        zone,
        Utc::now(),
    )?;
    let card = assumed::under_card(card, notes)?;
    let mut keyboard = render::confirm_keyboard(turn.tr, undo_id, task.id);
    keyboard
        .inline_keyboard
        .extend(ctx.open_app_row(turn, Some(task.id)));
    ctx.send(turn.chat_id, Reply::text(card).with_keyboard(keyboard))
        .await
}

/// A task's schedule after an edit, and what was assumed to get it.
#[derive(Debug)]
pub(super) struct Schedule {
    /// The new (first) deadline.
    pub due_at: DateTime<Utc>,
    /// The new rule.
    pub recurrence: Option<Recurrence>,
    /// The parser's assumptions that shaped this schedule (not those about a part it kept).
    pub assumptions: Vec<Assumption>,
}

/// The task's new deadline and rule from what the answer says, keeping what it does not.
pub(super) fn new_schedule(
    task: &Task,
    parsed: &ParsedEdit,
    now: DateTime<Utc>,
) -> Result<Schedule, DueError> {
    let mut schedule = schedule_for(task, parsed, now)?;
    // The answer's time skipped by the clocks is said of the day the task keeps, if there too.
    let local = to_local(task.zone, schedule.due_at);
    schedule
        .assumptions
        .retain_mut(|assumption| match assumption {
            Assumption::ClockSkipped { said, chosen, date } => {
                (*chosen, *date) = (local.time(), local.date());
                *said != local.time()
                    && resolve_local(task.zone, local.date().and_time(*said)) == schedule.due_at
            }
            _ => true,
        });
    Ok(schedule)
}

/// [`new_schedule`] before its notes are checked against the day kept.
fn schedule_for(
    task: &Task,
    parsed: &ParsedEdit,
    now: DateTime<Utc>,
) -> Result<Schedule, DueError> {
    let said = parsed.said;
    let whole = |due_at, recurrence| Schedule {
        due_at,
        recurrence,
        assumptions: parsed.assumptions.clone(),
    };
    if said.repeat {
        return Ok(whole(parsed.due, parsed.recurrence));
    }
    let zone = task.zone;
    let old = to_local(zone, task.due_at);
    let new = to_local(zone, parsed.due);
    if said.elapsed || (said.day && said.time) {
        // A whole moment: a recurring task moves this occurrence and keeps its rule.
        return Ok(whole(parsed.due, task.recurrence));
    }
    if said.day {
        // A day alone keeps the time of day, so no time was taken for it.
        let mut assumptions: Vec<Assumption> = parsed
            .assumptions
            .iter()
            .filter(|assumption| !matches!(assumption, Assumption::TimeNotSaid { .. }))
            .cloned()
            .collect();
        let mut local = new.date().and_time(old.time());
        let after_midnight = |assumption: &Assumption| {
            matches!(assumption, Assumption::TomorrowAfterMidnight { .. })
        };
        if resolve_local(zone, local) <= now
            && assumptions.iter().any(after_midnight)
            && let Some(next) = new.date().succ_opt()
        {
            // "tomorrow" after midnight is the coming day, but not at a time of it already
            // past: then, as in a message, it is the calendar's tomorrow, and nothing assumed.
            local = next.and_time(old.time());
            assumptions.retain(|assumption| !after_midnight(assumption));
        }
        let due = resolve_local(zone, local);
        if due <= now {
            return Err(DueError::InPast { local });
        }
        return Ok(Schedule {
            due_at: due,
            recurrence: task.recurrence,
            assumptions,
        });
    }
    // A time of day alone keeps the day, and a recurring task its days. An hour without am/pm
    // is read as on a named day (in the daytime) unless the day kept is today.
    let daytime = task.recurrence.is_some() || old.date() != to_local(zone, now).date();
    let mut assumptions = parsed.assumptions.clone();
    let mut time = new.time();
    for assumption in &mut assumptions {
        if let Assumption::HourWithoutAmPm { typed, chosen } = assumption
            && daytime
        {
            *chosen = daytime_reading(*typed);
            time = *chosen;
        }
    }
    let due = resolve_local(zone, old.date().and_time(time));
    let (due_at, recurrence) = match task.recurrence {
        // Every few minutes or hours, from the new time on: the first one at that time
        // (today's, or the next day's when it has passed).
        Some(rule) if rule.frequency().counts_elapsed_time() => {
            let start = if due > now {
                due
            } else {
                next_time_of_day(time, zone, now)
            };
            (start, Some(rule.restarted_at(start)))
        }
        // The same days and interval at the new time of day.
        Some(rule) => {
            let rule = rule.with_time(time);
            // The first occurrence still to come; a series that has ended keeps the time asked.
            let due = match rule.first_occurrence(now, zone) {
                Some(first) if due <= now => first.at,
                _ => due,
            };
            (due, Some(rule))
        }
        None if due > now => (due, None),
        // The day kept has passed: the next such time.
        None => (next_time_of_day(time, zone, now), None),
    };
    Ok(Schedule {
        due_at,
        recurrence,
        assumptions,
    })
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Weekday};
    use chrono_tz::Tz;

    use crate::domain::ids::{ChatId, UserId};

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
            id: TaskId(1),
            chat_id: ChatId(1),
            owner_id: UserId(1),
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
        let schedule = new_schedule(task, &parsed, now()).unwrap();
        (local(schedule.due_at), schedule.recurrence)
    }

    fn assumed(task: &Task, answer: &str) -> Vec<Assumption> {
        let parsed = parse_edit(answer, Lang::En, now(), TASHKENT).unwrap();
        new_schedule(task, &parsed, now()).unwrap().assumptions
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

    #[test]
    fn an_hour_alone_on_another_day_is_the_daytime_one_and_said() {
        let hour = |typed: u32, chosen: u32| Assumption::HourWithoutAmPm {
            typed: chrono::NaiveTime::from_hms_opt(typed, 0, 0).unwrap(),
            chosen: chrono::NaiveTime::from_hms_opt(chosen, 0, 0).unwrap(),
        };
        // Thursday's task, edited on Tuesday at noon: "at 3" is Thursday 15:00.
        let thursday = task(Utc.with_ymd_and_hms(2026, 12, 3, 13, 0, 0).unwrap(), None);
        assert_eq!(edit(&thursday, "at 3").0, "Thu 03 15:00");
        assert_eq!(assumed(&thursday, "at 3"), [hour(3, 15)]);
        // "at 9" on Thursday is 09:00, whatever the hour now.
        assert_eq!(edit(&thursday, "at 9").0, "Thu 03 09:00");
        // An hour alone is a time too, not a new text for the task (it renamed the task "9").
        assert_eq!(edit(&thursday, "9").0, "Thu 03 09:00");
        assert_eq!(edit(&thursday, "3").0, "Thu 03 15:00");
        // A day alone keeps the time: no time was assumed.
        assert_eq!(edit(&thursday, "saturday").0, "Sat 05 18:00");
        assert!(assumed(&thursday, "saturday").is_empty());
        // Today's task at noon: "at 3" is the 15:00 still ahead.
        let today = task(Utc.with_ymd_and_hms(2026, 12, 1, 13, 0, 0).unwrap(), None);
        assert_eq!(edit(&today, "at 3").0, "Tue 01 15:00");
        // A repeat keeps its days at the daytime reading.
        let daily = task(
            Utc.with_ymd_and_hms(2026, 12, 2, 4, 0, 0).unwrap(),
            Some("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
        );
        assert_eq!(edit(&daily, "at 8").0, "Wed 02 08:00");
        assert_eq!(assumed(&daily, "at 8"), [hour(8, 8)]);
    }

    #[test]
    fn tomorrow_after_midnight_is_the_coming_day_unless_the_tasks_time_has_passed() {
        // Wednesday 2 December, 00:30 in Tashkent.
        let night = Utc.with_ymd_and_hms(2026, 12, 1, 19, 30, 0).unwrap();
        let schedule = |due_at| {
            let parsed = parse_edit("tomorrow", Lang::En, night, TASHKENT).unwrap();
            new_schedule(&task(due_at, None), &parsed, night).unwrap()
        };
        // A task at 18:00: "tomorrow" is Wednesday's 18:00, and said.
        let evening = schedule(Utc.with_ymd_and_hms(2026, 12, 5, 13, 0, 0).unwrap());
        assert_eq!(local(evening.due_at), "Wed 02 18:00");
        assert!(
            matches!(
                evening.assumptions[..],
                [Assumption::TomorrowAfterMidnight {
                    day_after: false,
                    ..
                }]
            ),
            "{:?}",
            evening.assumptions
        );
        // A task at 00:10: Wednesday's has passed, so Thursday's, with nothing to say.
        let small_hours = schedule(Utc.with_ymd_and_hms(2026, 12, 5, 19, 10, 0).unwrap());
        assert_eq!(local(small_hours.due_at), "Thu 03 00:10");
        assert!(small_hours.assumptions.is_empty(), "{small_hours:?}");
    }

    #[test]
    fn a_time_alone_starts_an_hourly_task_again_from_that_time() {
        // Every 3 hours from 13:00 today; the next one at 13:00.
        let next = Utc.with_ymd_and_hms(2026, 12, 1, 8, 0, 0).unwrap();
        let rule = Recurrence::hourly(3, next).unwrap().to_rule_string();
        let hourly = task(next, Some(&rule));
        let (due, rule) = edit(&hourly, "15:00");
        assert_eq!(due, "Tue 01 15:00");
        let rule = rule.unwrap();
        assert_eq!((rule.frequency(), rule.interval()), (Frequency::Hourly, 3));
        let after = rule.next_after(
            Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap(),
            TASHKENT,
        );
        assert_eq!(local(after), "Tue 01 18:00");
    }
}
