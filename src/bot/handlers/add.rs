//! Creating tasks from what people type, and the answers to "when?", "new time?" and "snooze
//! until when?". Invalid input never creates a job: it gets a message saying what was wrong and an
//! example that works, and an open question stays open.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::{Ctx, Turn, start};
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::domain::due::{DueError, ParsedDue, parse_due};
use crate::domain::recurrence::Recurrence;
use crate::domain::timezone::to_local;
use crate::i18n::Arg;
use crate::store::conversation::{self, Pending};
use crate::store::tasks::{self, NewTask, TaskChange, TaskText, TaskTextError};

/// A task message (free text or `/add`'s argument): creates the task, asks when if no time was
/// given, asks the zone first if the chat has none, or explains what was wrong.
pub(super) async fn create_from_text(ctx: &Ctx, turn: &Turn, text: &str) -> Result<(), BotError> {
    let Some(zone) = turn.zone() else {
        if let Err(error) = TaskText::parse(text) {
            return text_problem(ctx, turn, error).await;
        }
        let ask = render::notice(None, &[turn.tr.t("tz-ask")])?;
        return start::ask_zone(ctx, turn, ask, Some(text.to_owned())).await;
    };
    match parse_due(text, turn.tr.lang(), Utc::now(), zone) {
        Ok(parsed) => create(ctx, turn, zone, parsed).await,
        Err(DueError::NoTime) => match TaskText::parse(text) {
            Ok(task) => ask_when(ctx, turn, task).await,
            Err(error) => text_problem(ctx, turn, error).await,
        },
        Err(error) => due_problem(ctx, turn, &error).await,
    }
}

async fn ask_when(ctx: &Ctx, turn: &Turn, task: TaskText) -> Result<(), BotError> {
    let pending = Pending::NewTaskTime {
        text: task.as_str().to_owned(),
    };
    let text = ctx
        .ask(turn, &pending, "ask-when", task.as_str(), "when-example")
        .await?;
    ctx.send(turn.chat_id, Reply::question(text)).await
}

/// Creates the parsed task with its first reminder job, within the user's open-task limit.
async fn create(ctx: &Ctx, turn: &Turn, zone: Tz, parsed: ParsedDue) -> Result<(), BotError> {
    let text = match TaskText::parse(&parsed.text) {
        Ok(text) => text,
        Err(error) => return text_problem(ctx, turn, error).await,
    };
    let max = ctx.deps.settings.max_open_tasks;
    let mut tx = ctx.deps.pool.begin().await?;
    if tasks::count_open_by_owner(&mut tx, turn.user_id).await? >= max {
        drop(tx);
        let problem = turn
            .tr
            .t_with("too-many-tasks", &[("max", Arg::Number(max))]);
        return ctx.send_lines(turn, &[problem]).await;
    }
    let lead = parsed
        .lead
        .unwrap_or_else(|| chrono::Duration::seconds(i64::from(turn.chat.default_lead_secs)));
    let new = NewTask {
        chat_id: turn.chat_id,
        owner_id: turn.user_id,
        text,
        due_at: parsed.due,
        lead,
        recurrence: parsed.recurrence,
        tz: zone,
    };
    let task = tasks::create(&mut tx, &ctx.deps.queue, &new).await?;
    conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
    tx.commit().await?;
    let card = render::task_card(turn.tr, "task-saved", &task, zone)?;
    ctx.send(
        turn.chat_id,
        Reply::text(card).with_keyboard(render::confirm_keyboard(turn.tr, task.id)),
    )
    .await
}

/// The answer to "when?" for a task text given without a time.
pub(super) async fn answer_when(
    ctx: &Ctx,
    turn: &Turn,
    task: &str,
    answer: &str,
) -> Result<(), BotError> {
    let Some(zone) = turn.zone() else {
        return create_from_text(ctx, turn, task).await;
    };
    match parse_due(
        &format!("{task} {answer}"),
        turn.tr.lang(),
        Utc::now(),
        zone,
    ) {
        Ok(parsed) => create(ctx, turn, zone, parsed).await,
        Err(error) => due_problem(ctx, turn, &error).await,
    }
}

/// A recurring task given only a new time keeps repeating on the same days at the new time of
/// day; returns its first occurrence after `now` and the new rule.
fn keep_repeating(
    old: Recurrence,
    new_due: DateTime<Utc>,
    zone: Tz,
    now: DateTime<Utc>,
) -> (DateTime<Utc>, Option<Recurrence>) {
    match Recurrence::new(old.frequency(), to_local(zone, new_due).time()) {
        Ok(rule) => (rule.next_after(now, zone), Some(rule)),
        Err(_) => (new_due, None),
    }
}

/// The answer to "new time?": a time (the text stays; a recurring task keeps repeating at the
/// new time of day) or a new text with its time (the task becomes what that text says).
pub(super) async fn answer_edit(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    answer: &str,
) -> Result<(), BotError> {
    if !ctx.may_change_task(turn, task_id).await? {
        return not_allowed(ctx, turn).await;
    }
    let mut tx = ctx.deps.pool.begin().await?;
    let Some(task) = tasks::find(&mut tx, turn.chat_id, task_id).await? else {
        conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
        tx.commit().await?;
        return not_found(ctx, turn).await;
    };
    let zone = task.zone()?;
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
        Err(error) => return due_problem(ctx, turn, &error).await,
    };
    let text = match new_text.as_deref().map(TaskText::parse).transpose() {
        Ok(text) => text,
        Err(error) => return text_problem(ctx, turn, error).await,
    };
    let (due_at, recurrence) = match (parsed.recurrence, task.recurrence()?) {
        (None, Some(old)) if text.is_none() => keep_repeating(old, parsed.due, zone, now),
        (recurrence, _) => (parsed.due, recurrence),
    };
    let change = TaskChange {
        text,
        due_at,
        lead: parsed.lead.unwrap_or_else(|| task.lead()),
        recurrence,
    };
    let changed =
        tasks::reschedule(&mut tx, &ctx.deps.queue, turn.chat_id, task_id, &change).await?;
    conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
    tx.commit().await?;
    match changed {
        Some(task) => {
            let card = render::task_card(turn.tr, "task-changed", &task, zone)?;
            ctx.send(
                turn.chat_id,
                Reply::text(card).with_keyboard(render::confirm_keyboard(turn.tr, task.id)),
            )
            .await
        }
        None => not_found(ctx, turn).await,
    }
}

/// The answer to "snooze until when?".
pub(super) async fn answer_snooze(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    answer: &str,
) -> Result<(), BotError> {
    let mut conn = ctx.deps.pool.acquire().await?;
    let Some(task) = tasks::find(&mut conn, turn.chat_id, task_id).await? else {
        conversation::close(&mut *conn, turn.chat_id, turn.user_id).await?;
        return not_found(ctx, turn).await;
    };
    drop(conn);
    if !ctx.may_change(turn, task.owner_id).await? {
        return not_allowed(ctx, turn).await;
    }
    let zone = task.zone()?;
    match parse_due(
        &format!("{} {answer}", task.text),
        turn.tr.lang(),
        Utc::now(),
        zone,
    ) {
        Ok(parsed) => snooze(ctx, turn, task_id, parsed.due, zone).await,
        Err(error) => due_problem(ctx, turn, &error).await,
    }
}

/// Snoozes the task until `fire_at` and says until when (or that the task is not found).
pub(super) async fn snooze(
    ctx: &Ctx,
    turn: &Turn,
    task_id: i64,
    fire_at: DateTime<Utc>,
    zone: Tz,
) -> Result<(), BotError> {
    let mut tx = ctx.deps.pool.begin().await?;
    let snoozed = tasks::snooze(&mut tx, &ctx.deps.queue, turn.chat_id, task_id, fire_at).await?;
    conversation::close(&mut *tx, turn.chat_id, turn.user_id).await?;
    tx.commit().await?;
    if snoozed.is_none() {
        return not_found(ctx, turn).await;
    }
    let when = render::local_time(fire_at, zone);
    ctx.send_lines(
        turn,
        &[turn.tr.t_with("snoozed", &[("when", Arg::Text(&when))])],
    )
    .await
}

/// Says that only the task's creator or a group admin may change it.
async fn not_allowed(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send_lines(turn, &[turn.tr.t("not-allowed-task")]).await
}

/// Says the task was not found (another chat's, finished, deleted, or never there).
pub(super) async fn not_found(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send_lines(turn, &[turn.tr.t("not-found")]).await
}

async fn text_problem(ctx: &Ctx, turn: &Turn, error: TaskTextError) -> Result<(), BotError> {
    let tr = turn.tr;
    let problem = match error {
        TaskTextError::Empty => tr.t("err-empty"),
        TaskTextError::TooLong(len) => tr.t_with(
            "err-text-too-long",
            &[
                ("len", Arg::Number(len as i64)),
                ("max", Arg::Number(tasks::MAX_TEXT_CHARS as i64)),
            ],
        ),
    };
    ctx.send_problem(turn, &problem, None, "add-example").await
}

/// Explains a parser error with an example that works.
pub(super) async fn due_problem(ctx: &Ctx, turn: &Turn, error: &DueError) -> Result<(), BotError> {
    let (problem, example) = due_problem_text(turn.tr, error);
    ctx.send_problem(turn, &problem, None, example).await
}

/// The message for a parser error and the key of its example.
pub fn due_problem_text(tr: crate::i18n::Tr, error: &DueError) -> (String, &'static str) {
    match error {
        DueError::EmptyInput => (tr.t("err-empty"), "add-example"),
        DueError::TooLong { max } => (
            tr.t_with("err-too-long", &[("max", Arg::Number(*max as i64))]),
            "add-example",
        ),
        DueError::NoTime => (tr.t("err-no-time"), "when-example"),
        DueError::EmptyText => (tr.t("err-no-text"), "add-example"),
        DueError::InvalidTime { hour, minute } => (
            tr.t_with(
                "err-invalid-time",
                &[("time", Arg::Text(&format!("{hour:02}:{minute:02}")))],
            ),
            "when-example",
        ),
        DueError::InvalidDate { day, month, year } => {
            let date = match year {
                Some(year) => format!("{day:02}.{month:02}.{year}"),
                None => format!("{day:02}.{month:02}"),
            };
            (
                tr.t_with("err-invalid-date", &[("date", Arg::Text(&date))]),
                "add-example",
            )
        }
        DueError::InvalidDayOfMonth { day } => (
            tr.t_with("err-invalid-day", &[("day", Arg::Number(i64::from(*day)))]),
            "repeat-example",
        ),
        DueError::InPast { local } => (
            tr.t_with(
                "err-past",
                &[(
                    "when",
                    Arg::Text(&local.format("%d.%m.%Y %H:%M").to_string()),
                )],
            ),
            "when-example",
        ),
        DueError::TooFar { max_year } => (
            tr.t_with(
                "err-too-far",
                &[("year", Arg::Number(i64::from(*max_year)))],
            ),
            "add-example",
        ),
    }
}
