//! What a reminder carries besides its task, read just before it is sent: the message the task
//! reminds of (quoted, and replied to), and where the reminder stands in its task's nagging (a
//! count, and on the round's last nag the word that no more will follow).

use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ReplyParameters};

use super::record::DueReminder;
use super::render::{
    ReminderExtras, ReminderView, nag_keyboard, reminder_html_with, reminder_keyboard,
};
use crate::callback::Action;
use crate::domain::recurrence::{End, Occurrence};
use crate::i18n::{Arg, Tr, dates};
use crate::store::nags::{self, NagProgress};
use crate::store::quotes::Quote;
use crate::store::types::ReminderKind;

/// A reminder's quote and nag count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    quote: Option<Quote>,
    nag: Option<NagProgress>,
    last_of_series: bool,
    repeats: bool,
}

impl Extras {
    /// The extras of `due`, read with it.
    pub fn of(due: &DueReminder) -> Self {
        Self {
            quote: due.quote.clone(),
            nag: due
                .nag
                .and_then(|nag| nags::progress(&nag, due.reminder_id)),
            last_of_series: last_of_series(due),
            repeats: due.task.recurs(),
        }
    }

    /// The reminder's text (Telegram HTML).
    pub fn html(&self, tr: Tr, view: &ReminderView<'_>) -> String {
        let extras = ReminderExtras {
            quote: self.quote.as_ref().map(|quote| quote.text.as_str()),
            note: self.note(tr),
        };
        reminder_html_with(tr, view, &extras)
    }

    /// The lines under the due time: where a nag stands, and that the series ends with this one.
    fn note(&self, tr: Tr) -> Option<String> {
        let lines: Vec<String> = [
            self.nag.map(|nag| nag_note(tr, nag)),
            self.last_of_series.then(|| tr.t("series-last")),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }

    /// The buttons: a nag has no Keep reminding (it keeps reminding already); a repeat can be
    /// paused.
    pub fn keyboard(&self, tr: Tr, task_id: i64) -> InlineKeyboardMarkup {
        let keyboard = match self.nag {
            Some(_) => nag_keyboard(tr, task_id),
            None => reminder_keyboard(tr, task_id),
        };
        if !self.repeats {
            return keyboard;
        }
        keyboard.append_row([InlineKeyboardButton::callback(
            tr.t("button-pause"),
            Action::Pause { task_id }.encode(),
        )])
    }

    /// The reply to the quoted message, sent even if that message is gone.
    pub fn reply(&self) -> Option<ReplyParameters> {
        let message_id = self.quote.as_ref()?.message_id?;
        let message_id = i32::try_from(message_id).ok()?;
        Some(ReplyParameters::new(MessageId(message_id)).allow_sending_without_reply())
    }
}

/// Whether `due` announces the last occurrence of its task's series: no occurrence follows it on
/// the schedule (or, for a rule counted from each Done, its count is reached).
fn last_of_series(due: &DueReminder) -> bool {
    let Some(rule) = &due.task.recurrence else {
        return false;
    };
    if due.kind != ReminderKind::Occurrence || due.due_at != due.task.due_at {
        return false;
    }
    if rule.counts_from_done() {
        return matches!(rule.end(), Some(End::Count(count)) if due.occurrence >= count);
    }
    let current = Occurrence {
        at: due.due_at,
        index: due.occurrence,
    };
    rule.next_occurrence(current, due.due_at, due.task.zone)
        .is_none()
}

/// Where a nag stands, in words: its count and interval, or on the last one that no more follow.
pub fn nag_note(tr: Tr, nag: NagProgress) -> String {
    let args = [
        ("n", Arg::Number(i64::from(nag.ordinal))),
        ("max", Arg::Number(i64::from(nag.of))),
    ];
    if nag.is_last() {
        return tr.t_with("nag-last", &args);
    }
    let every = dates::duration(tr, nag.every);
    tr.t_with(
        "nag-note",
        &[args[0], args[1], ("every", Arg::Text(&every))],
    )
}
