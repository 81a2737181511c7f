//! What a new task may carry besides its text and schedule: nagging until it is done ("every 10
//! min until done", taken off the phrase before the due-date parser reads it) and the message it
//! reminds of (a reply with only a time). Attached in the transaction that creates the task, and
//! said on its card.

use std::borrow::Cow;

use chrono::TimeDelta;
use sqlx::PgConnection;

use super::context::{Ctx, Turn};
use crate::bot::BotError;
use crate::bot::nag_phrase::{self, MAX_EVERY, MIN_EVERY};
use crate::domain::ids::TaskId;
use crate::i18n::{Arg, Tr, dates};
use crate::store::nags;
use crate::store::quotes::{self, Quote};

/// A new task's extras.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TaskExtras {
    /// Remind again this often after each reminder, until done.
    pub nag: Option<TimeDelta>,
    /// The message the task reminds of.
    pub quote: Option<Quote>,
}

impl TaskExtras {
    /// Stores the extras of the new task `task_id` (in the transaction that creates it).
    pub async fn attach(&self, conn: &mut PgConnection, task_id: TaskId) -> Result<(), BotError> {
        if let Some(every) = self.nag {
            nags::enable(conn, task_id, every).await?;
        }
        if let Some(quote) = &self.quote {
            quotes::save(conn, task_id, quote).await?;
        }
        Ok(())
    }

    /// The lines the task's card adds for them (plain text).
    pub fn card_lines(&self, tr: Tr) -> Vec<String> {
        self.nag
            .map(|every| nag_line(tr, "task-nag", every))
            .into_iter()
            .collect()
    }
}

/// A line about nagging every `every` (`key` is `task-nag` or `nag-on`): the interval and the cap.
pub(crate) fn nag_line(tr: Tr, key: &str, every: TimeDelta) -> String {
    tr.t_with(
        key,
        &[
            ("every", Arg::Text(&dates::duration(tr, every))),
            ("max", Arg::Number(i64::from(nags::round_len(every)))),
        ],
    )
}

/// Takes "until done" (with its interval) off a task phrase: the rest for the due-date parser,
/// and the extras it asks for. `Err` when its interval is out of bounds (said to the user).
pub(super) async fn nag_suffix<'a>(
    ctx: &Ctx,
    turn: &Turn,
    phrase: &'a str,
) -> Result<Option<(Cow<'a, str>, TaskExtras)>, BotError> {
    match split_nag(turn.tr, phrase) {
        Ok(split) => Ok(Some(split)),
        Err((problem, example)) => {
            ctx.send_problem(turn, &problem, None, example).await?;
            Ok(None)
        }
    }
}

/// [`nag_suffix`] without a chat: the rest and the extras, or the problem with its interval and
/// the key of an example.
pub(super) fn split_nag(
    tr: Tr,
    phrase: &str,
) -> Result<(Cow<'_, str>, TaskExtras), (String, &'static str)> {
    match nag_phrase::find(phrase) {
        Ok(None) => Ok((Cow::Borrowed(phrase), TaskExtras::default())),
        Ok(Some(found)) => Ok((
            Cow::Owned(found.rest),
            TaskExtras {
                nag: Some(found.every),
                quote: None,
            },
        )),
        Err(_) => {
            let problem = tr.t_with(
                "err-nag-interval",
                &[
                    ("min", Arg::Text(&dates::duration(tr, MIN_EVERY))),
                    ("max", Arg::Text(&dates::duration(tr, MAX_EVERY))),
                ],
            );
            Err((problem, "nag-example"))
        }
    }
}
