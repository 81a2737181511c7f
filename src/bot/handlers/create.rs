//! New tasks from what people type (free text or `/add`), and the answer to "when?" for a text
//! given without a time. Invalid input never creates a job: it gets a message saying what was
//! wrong and an example that works, and an open question stays open. A message that is a whole
//! task of its own (a text and a time) is never glued onto the text waiting for "when?": it
//! becomes its own task, and the question stays open.
//!
//! Nothing is misread in silence ([`crate::bot::assumed`]): the confirmation of a new task says
//! what the bot assumed reading its time (an hour without am/pm, no time of day, next week's
//! day, the night after a day, a typo) and which time words it kept in the text. A repeat it
//! could not make ("every 10 minutes") does not stop the task: it is saved once, at the time
//! that was understood, and the confirmation says clearly that it will not repeat and how to
//! make it repeat (Change time under it), so a reminder the user wants is never held back by a
//! question. A message with no usable time is asked "when?", and the question first says which
//! repeat it could not make.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use super::replies::{due_problem, text_problem};
use super::task_extras::{self, TaskExtras};
use super::zone::ZoneChosen;
use crate::bot::BotError;
use crate::bot::assumed;
use crate::bot::render::{self, Reply};
use crate::callback::Question;
use crate::domain::due::{DueError, ParsedDue, UnplacedKind, loose_time_words, parse_due};
use crate::i18n::Arg;
use crate::store::conversation::{self, Pending};
use crate::store::tasks::{self, NewTask, Task, TaskText, TaskTextError};
use crate::store::undo::{self, Change};

/// A task message in a chat whose zone is `zone`: creates the task, asks when if no time was
/// given, or explains what was wrong.
pub(super) async fn in_zone(ctx: &Ctx, turn: &Turn, zone: Tz, text: &str) -> Result<(), BotError> {
    let Some((phrase, extras)) = task_extras::nag_suffix(ctx, turn, text).await? else {
        return Ok(());
    };
    match parse_due(&phrase, turn.tr.lang(), Utc::now(), zone) {
        Ok(parsed) => create(ctx, turn, zone, parsed, extras).await,
        Err(DueError::NoTime) => match TaskText::parse(text) {
            Ok(task) => {
                let loose = loose_repeats(turn, &phrase);
                ask_when(ctx, turn, task, &loose).await
            }
            Err(error) => text_problem(ctx, turn, error).await,
        },
        Err(error) => due_problem(ctx, turn, zone, &error).await,
    }
}

/// The zone was just chosen: the task message that waited for it is created now, in that zone.
pub(super) async fn after_zone(ctx: &Ctx, turn: &Turn, chosen: ZoneChosen) -> Result<(), BotError> {
    let Some(waiting) = chosen.waiting else {
        return Ok(());
    };
    let mut turn_with_zone = Turn {
        chat: turn.chat.clone(),
        ..*turn
    };
    turn_with_zone.chat.zone = Some(chosen.zone);
    in_zone(ctx, &turn_with_zone, chosen.zone, &waiting).await
}

/// The answer to "when?" for a task text given without a time, in a chat whose zone is `zone`.
/// An answer that is a whole task of its own (a text and a time) is created as one, and the
/// question is asked again.
pub(super) async fn answer_when(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    task: &str,
    answer: &str,
) -> Result<(), BotError> {
    // A whole task of its own ("buy bread tomorrow 9:00"), its "until done" aside: it is not
    // glued onto the waiting one. "in 1 hour every 10 min until done" has no text of its own.
    let Some((own_phrase, own_extras)) = task_extras::nag_suffix(ctx, turn, answer).await? else {
        return Ok(());
    };
    if let Ok(own) = parse_due(&own_phrase, turn.tr.lang(), Utc::now(), zone) {
        create(ctx, turn, zone, own, own_extras).await?;
        let still = Pending::NewTaskTime {
            text: task.to_owned(),
        };
        let text = ctx
            .ask(turn, &still, "ask-when-still", task, "when-example")
            .await?;
        return ctx
            .send_question(turn, text, Question::NewTaskTime, Vec::new())
            .await;
    }
    let whole = format!("{task} {answer}");
    let Some((phrase, extras)) = task_extras::nag_suffix(ctx, turn, &whole).await? else {
        return Ok(());
    };
    match parse_due(&phrase, turn.tr.lang(), Utc::now(), zone) {
        Ok(parsed) => create(ctx, turn, zone, parsed, extras).await,
        Err(error) => due_problem(ctx, turn, zone, &error).await,
    }
}

/// Asks when to remind of `task`, first saying which repeats in it could not be made (`loose`,
/// lines of [`assumed::loose_repeat`]).
async fn ask_when(
    ctx: &Ctx,
    turn: &Turn,
    task: TaskText,
    loose: &[String],
) -> Result<(), BotError> {
    let pending = Pending::NewTaskTime {
        text: task.as_str().to_owned(),
    };
    let text = ctx
        .ask(turn, &pending, "ask-when", task.as_str(), "when-example")
        .await?;
    let text = assumed::above_question(text, loose)?;
    ctx.send_question(turn, text, Question::NewTaskTime, Vec::new())
        .await
}

/// The lines saying which repeat words of a message without a usable time could not be made a
/// repeat ("every 10 minutes").
fn loose_repeats(turn: &Turn, message: &str) -> Vec<String> {
    loose_time_words(message, turn.tr.lang())
        .into_iter()
        .filter(|words| words.kind == UnplacedKind::Repeat)
        .map(|words| assumed::loose_repeat(turn.tr, &words.words))
        .collect()
}

/// Creates the parsed task with its first reminder job and its extras, within the user's
/// open-task limit, and confirms it with its card and what was assumed; a refusal is said in
/// the chat. A message with two times ("every day at 9 and 21 pills") makes a task for each,
/// each with its own card.
pub(super) async fn create(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    parsed: ParsedDue,
    extras: TaskExtras,
) -> Result<(), BotError> {
    let (first, second) = parsed.split();
    for each in [Some(first), second].into_iter().flatten() {
        if let Err(refused) = create_confirmed(ctx, turn, zone, &each, &extras).await? {
            return tell_refused(ctx, turn, refused).await;
        }
    }
    Ok(())
}

/// Creates the parsed task as [`create`] does and sends its confirmation card; a refusal is
/// handed back unsaid (the Mini App answers it itself).
pub(super) async fn create_confirmed(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    parsed: &ParsedDue,
    extras: &TaskExtras,
) -> Result<Result<Saved, Refused>, BotError> {
    let saved = match save(ctx, turn, zone, parsed, extras).await? {
        Ok(saved) => saved,
        Err(refused) => return Ok(Err(refused)),
    };
    let now = Utc::now();
    let task = &saved.task;
    // A new task's repeat is never paused.
    let mut card = render::task_card(
        turn.tr,
        "task-saved",
        task,
        saved.next_reminder,
        false,
        zone,
        now,
    )?;
    for line in extras.card_lines(turn.tr) {
        card = format!("{card}\n{}", render::notice(None, &[line])?);
    }
    let notes = assumed::notes_of(turn.tr, zone, now, parsed);
    let card = assumed::under_card(card, &notes)?;
    let mut keyboard = render::confirm_keyboard(turn.tr, saved.undo_id, task.id);
    if let Some(choice) = parsed.choice {
        let chosen = choice.reading(choice.taken).time;
        keyboard
            .inline_keyboard
            .insert(0, render::hour_choice_row(task.id, chosen));
    }
    keyboard
        .inline_keyboard
        .extend(ctx.open_app_row(turn, Some(task.id)));
    ctx.send(turn.chat_id, Reply::text(card).with_keyboard(keyboard))
        .await?;
    Ok(Ok(saved))
}

/// Why a parsed task was not saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Its text cannot be a task's.
    Text(TaskTextError),
    /// The user has this many open tasks, the most allowed.
    TooMany(i64),
}

/// Tells the user why their task was not saved.
pub(super) async fn tell_refused(ctx: &Ctx, turn: &Turn, refused: Refused) -> Result<(), BotError> {
    match refused {
        Refused::Text(error) => text_problem(ctx, turn, error).await,
        Refused::TooMany(max) => {
            let problem = turn
                .tr
                .t_with("too-many-tasks", &[("max", Arg::Number(max))]);
            ctx.send_lines(turn, &[problem]).await
        }
    }
}

/// A task just saved: the task, the Undo of its creation and its first reminder.
pub(super) struct Saved {
    /// The task.
    pub task: Task,
    /// The recorded creation, which its Undo button takes back.
    pub undo_id: i64,
    /// When it reminds first.
    pub next_reminder: Option<DateTime<Utc>>,
}

/// Saves the parsed task with its first reminder job and its extras, closing the user's open
/// question; refused (and nothing said) past the user's open-task limit or with an unusable
/// text.
pub(super) async fn save(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    parsed: &ParsedDue,
    extras: &TaskExtras,
) -> Result<Result<Saved, Refused>, BotError> {
    let text = match TaskText::parse(&parsed.text) {
        Ok(text) => text,
        Err(error) => return Ok(Err(Refused::Text(error))),
    };
    let max = ctx.settings().max_open_tasks;
    let mut tx = ctx.db().await;
    let new = NewTask {
        chat_id: turn.chat_id,
        owner_id: turn.user_id,
        text,
        due_at: parsed.due,
        lead: parsed.lead.unwrap_or(turn.chat.default_lead),
        recurrence: parsed.recurrence,
        tz: zone,
    };
    // Its first reminder is its next: the extras (nagging, a quote) add no reminder of their own.
    let Some(tasks::CreatedTask {
        task,
        first_reminder: next_reminder,
    }) = tasks::create_within(&mut tx, ctx.queue(), &new, max).await?
    else {
        return Ok(Err(Refused::TooMany(max)));
    };
    let undo_id = undo::record(&mut tx, task.id, Change::Create, None).await?;
    extras.attach(&mut tx, task.id).await?;
    conversation::close(&mut tx, ctx.queue(), turn.chat_id, turn.user_id).await?;
    Ok(Ok(Saved {
        task,
        undo_id,
        next_reminder,
    }))
}
