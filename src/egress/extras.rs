//! What a reminder carries besides its task, read just before it is sent: the message the task
//! reminds of (quoted, and replied to), and where the reminder stands in its task's nagging (a
//! count, and on the round's last nag the word that no more will follow).

use teloxide::types::{InlineKeyboardMarkup, MessageId, ReplyParameters};

use super::record::DueReminder;
use super::render::{
    ReminderExtras, ReminderView, nag_keyboard, reminder_html_with, reminder_keyboard,
};
use crate::i18n::{Arg, Tr, dates};
use crate::store::nags::{self, NagProgress};
use crate::store::quotes::Quote;

/// A reminder's quote and nag count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    quote: Option<Quote>,
    nag: Option<NagProgress>,
}

impl Extras {
    /// The extras of `due`, read with it.
    pub fn of(due: &DueReminder) -> Self {
        Self {
            quote: due.quote.clone(),
            nag: due
                .nag
                .and_then(|nag| nags::progress(&nag, due.reminder_id)),
        }
    }

    /// The reminder's text (Telegram HTML).
    pub fn html(&self, tr: Tr, view: &ReminderView<'_>) -> String {
        let extras = ReminderExtras {
            quote: self.quote.as_ref().map(|quote| quote.text.as_str()),
            note: self.nag.map(|nag| nag_note(tr, nag)),
        };
        reminder_html_with(tr, view, &extras)
    }

    /// The buttons: a nag has no Keep reminding (it keeps reminding already).
    pub fn keyboard(&self, tr: Tr, task_id: i64) -> InlineKeyboardMarkup {
        match self.nag {
            Some(_) => nag_keyboard(tr, task_id),
            None => reminder_keyboard(tr, task_id),
        }
    }

    /// The reply to the quoted message, sent even if that message is gone.
    pub fn reply(&self) -> Option<ReplyParameters> {
        let message_id = self.quote.as_ref()?.message_id?;
        let message_id = i32::try_from(message_id).ok()?;
        Some(ReplyParameters::new(MessageId(message_id)).allow_sending_without_reply())
    }
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
