//! Tasks written before the chat's time zone is known (the first contact, when the greeting says
//! "just write what and when" and the zone question is open): a task is never refused as an
//! unknown zone and never lost. One whose time is the same in every zone ("in 2 minutes",
//! "через 2 часа") is saved at once and the user told when it reminds; any other (or one that
//! nags until done, whose extras are read with the zone) waits in the
//! zone question (said so) and is saved once the zone is chosen, its time read in that zone.
//! Only one task waits: another one while it waits is answered with what to do, never glued
//! onto it or put in its place.

use chrono::Utc;
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use super::create;
use super::replies::text_problem;
use super::task_extras::TaskExtras;
use super::zone;
use crate::bot::BotError;
use crate::bot::nag_phrase;
use crate::bot::render::{self, Reply};
use crate::domain::due::{ParsedDue, parse_due};
use crate::domain::timezone::parse_zone;
use crate::i18n::{Arg, dates};
use crate::store::tasks::TaskText;

/// The zone a task whose time is the same in every zone is saved in until the chat has one
/// (choosing the chat's zone then moves it there).
const ANY_ZONE: Tz = chrono_tz::UTC;

/// A task message in a chat without a zone (no question open): saved at once when its time
/// needs no zone, else kept waiting for the zone question it opens.
pub(super) async fn task(ctx: &Ctx, turn: &Turn, text: &str) -> Result<(), BotError> {
    if let Err(error) = TaskText::parse(text) {
        return text_problem(ctx, turn, error).await;
    }
    hold(ctx, turn, text, None).await
}

/// A message while the zone question is open: a zone sets it (and the task that waited is
/// saved); a message that reads as a task (a text and a time) is a task, not a wrong zone.
pub(super) async fn answer(
    ctx: &Ctx,
    turn: &Turn,
    text: &str,
    waiting: Option<String>,
) -> Result<(), BotError> {
    if parse_zone(text).is_err() && read(turn, text).is_some() {
        return hold(ctx, turn, text, waiting).await;
    }
    match zone::typed(ctx, turn, text, waiting).await? {
        Some(chosen) => create::after_zone(ctx, turn, chosen).await,
        None => Ok(()),
    }
}

/// The message read as a task in any zone, if it reads as one, and whether it also asks to be
/// reminded until done ("every 10 min until done", read once the zone is known).
fn read(turn: &Turn, text: &str) -> Option<(ParsedDue, bool)> {
    let nag = nag_phrase::find(text).ok().flatten();
    let phrase = nag.as_ref().map_or(text, |nag| nag.rest.as_str());
    parse_due(phrase, turn.tr.lang(), Utc::now(), ANY_ZONE)
        .ok()
        .map(|parsed| (parsed, nag.is_some()))
}

/// Saves `text` at once when its time needs no zone, else keeps it waiting (unless another task
/// already waits), and asks for the zone again.
async fn hold(ctx: &Ctx, turn: &Turn, text: &str, waiting: Option<String>) -> Result<(), BotError> {
    let tr = turn.tr;
    if let Some((parsed, false)) = read(turn, text).filter(|(parsed, _)| parsed.zone_free) {
        save_now(ctx, turn, &parsed).await?;
        let text = render::notice(None, &[tr.t("tz-ask")])?;
        return zone::ask(ctx, turn, text, waiting).await;
    }
    let (line, waiting) = match waiting {
        Some(earlier) if earlier != text => (
            tr.t_with(
                "tz-task-waits-already",
                &[
                    ("waiting", Arg::Text(&render::shorten(&earlier, 100))),
                    ("text", Arg::Text(&render::shorten(text, 100))),
                ],
            ),
            earlier,
        ),
        _ => (
            tr.t_with(
                "tz-task-kept",
                &[("text", Arg::Text(&render::shorten(text, 100)))],
            ),
            text.to_owned(),
        ),
    };
    let question = render::notice(None, &[line, tr.t("tz-ask")])?;
    zone::ask(ctx, turn, question, Some(waiting)).await
}

/// Saves a task whose time needs no zone and says when it reminds, with its Undo.
async fn save_now(ctx: &Ctx, turn: &Turn, parsed: &ParsedDue) -> Result<(), BotError> {
    let saved = match create::save(ctx, turn, ANY_ZONE, parsed, &TaskExtras::default()).await? {
        Ok(saved) => saved,
        Err(refused) => return create::tell_refused(ctx, turn, refused).await,
    };
    let now = Utc::now();
    let at = saved.next_reminder.unwrap_or(saved.task.due_at);
    // Rounded to the minute: "in 2 minutes" is said as 2 minutes, not as 1.
    let left = dates::duration(turn.tr, at - now + chrono::TimeDelta::seconds(30));
    let line = turn.tr.t_with(
        "task-saved-before-zone",
        &[
            ("text", Arg::Text(&saved.task.text)),
            ("in", Arg::Text(&left)),
        ],
    );
    let text = render::notice(None, &[line])?;
    ctx.send(
        turn.chat_id,
        Reply::text(text).with_keyboard(render::undo_keyboard(turn.tr, saved.undo_id)),
    )
    .await
}
