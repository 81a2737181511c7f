//! The answers several handlers give: what a tap shows (a toast), "not found", "not allowed", and
//! what was wrong with a task text or a time, each with an example that works.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::context::{Ctx, Turn};
use crate::bot::BotError;
use crate::domain::due::DueError;
use crate::domain::recurrence::MIN_MINUTES;
use crate::i18n::dates::Dates;
use crate::i18n::{Arg, Tr};
use crate::store::tasks::{self, TaskTextError};

/// The short notice shown on the user's screen in answer to a tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Toast {
    /// No text: the chat shows the result.
    Silent,
    /// The string with this key.
    Key(&'static str),
    /// The string with this key, in the language of the user who tapped rather than the
    /// chat's: in a group, a notice for them alone.
    Tapper(&'static str),
}

impl Toast {
    /// The notice's text in the user's language.
    pub fn text(self, tr: Tr) -> Option<String> {
        match self {
            Self::Silent => None,
            Self::Key(key) | Self::Tapper(key) => Some(tr.t(key)),
        }
    }
}

/// Says the task was not found (another chat's, finished, deleted, or never there).
pub(super) async fn not_found(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send_lines(turn, &[turn.tr.t("not-found")]).await
}

/// Says that only the task's creator or a group admin may change it.
pub(super) async fn not_allowed_task(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send_lines(turn, &[turn.tr.t("not-allowed-task")]).await
}

/// Says that only a group admin changes the group's settings.
pub(super) async fn not_allowed_settings(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    ctx.send_lines(turn, &[turn.tr.t("not-allowed-settings")])
        .await
}

/// Explains why a text cannot be a task's.
pub(super) async fn text_problem(
    ctx: &Ctx,
    turn: &Turn,
    error: TaskTextError,
) -> Result<(), BotError> {
    let (problem, example) = text_problem_text(turn.tr, error);
    ctx.send_problem(turn, &problem, None, example).await
}

/// The message for a text that cannot be a task's, and the key of its example.
pub(super) fn text_problem_text(tr: Tr, error: TaskTextError) -> (String, &'static str) {
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
    (problem, "add-example")
}

/// Explains a parser error with an example that works (a time that has passed in `zone`).
pub(super) async fn due_problem(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    error: &DueError,
) -> Result<(), BotError> {
    let (problem, example) = due_problem_text(turn.tr, zone, Utc::now(), error);
    ctx.send_problem(turn, &problem, None, example).await
}

/// The message for a parser error and the key of its example; a time that has passed is shown
/// in `zone` as seen at `now`.
pub(super) fn due_problem_text(
    tr: Tr,
    zone: Tz,
    now: DateTime<Utc>,
    error: &DueError,
) -> (String, &'static str) {
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
                    Arg::Text(&Dates::new(tr, zone, now).local_moment(*local)),
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
        DueError::RepeatTooOften { .. } => (
            tr.t_with(
                "err-repeat-too-often",
                &[("min", Arg::Number(i64::from(MIN_MINUTES)))],
            ),
            "nag-example",
        ),
        DueError::EndsBeforeFirst { first, .. } => (
            tr.t_with(
                "err-ends-before-first",
                &[(
                    "when",
                    Arg::Text(&Dates::new(tr, zone, now).local_moment(*first)),
                )],
            ),
            "repeat-example",
        ),
        DueError::LeadTooLong { max_days } => (
            tr.t_with(
                "err-lead-too-long",
                &[("days", Arg::Number(i64::from(*max_days)))],
            ),
            "lead-example",
        ),
    }
}
