//! What a reminder carries besides its task, read just before it is sent: the message the task
//! reminds of (quoted, and replied to), and where the reminder stands in its task's nagging (a
//! count, and on the round's last nag the word that no more will follow).

use chrono::{DateTime, Utc};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ReplyParameters};

use super::record::DueReminder;
use super::render::{
    ReminderExtras, ReminderView, nag_keyboard, reminder_html_with, reminder_keyboard,
};
use crate::callback::Action;
use crate::domain::ids::TaskId;
use crate::domain::recurrence::{End, Occurrence, Recurrence};
use crate::i18n::dates::Dates;
use crate::i18n::repeats::repeats_text;
use crate::i18n::{Arg, Tr, dates};
use crate::store::nags::{self, NagProgress};
use crate::store::quotes::Quote;

/// A reminder's quote and nag count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    quote: Option<Quote>,
    nag: Option<NagProgress>,
    series: Option<SeriesLine>,
}

/// Where a recurring task's series stands, as its reminder says it.
#[derive(Clone, Debug, PartialEq)]
struct SeriesLine {
    rule: Recurrence,
    next: Next,
}

/// What comes after the occurrence a reminder announces.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Next {
    /// The next occurrence, due then.
    At(DateTime<Utc>),
    /// The next one counts from when this one is done.
    AfterDone,
    /// None: the series ends with this one.
    Last,
}

impl Extras {
    /// The extras of `due`, read with it.
    pub fn of(due: &DueReminder) -> Self {
        Self {
            quote: due.quote.clone(),
            nag: due
                .nag
                .and_then(|nag| nags::progress(&nag, due.reminder_id)),
            series: series_line(due),
        }
    }

    /// The reminder's text (Telegram HTML).
    pub fn html(&self, tr: Tr, view: &ReminderView<'_>) -> String {
        let extras = ReminderExtras {
            quote: self.quote.as_ref().map(|quote| quote.text.as_str()),
            note: self.note(tr, view),
        };
        reminder_html_with(tr, view, &extras)
    }

    /// The lines under the due time: where a nag stands, that the task repeats and when next
    /// (or that the series ends with this one).
    fn note(&self, tr: Tr, view: &ReminderView<'_>) -> Option<String> {
        let series = self.series.as_ref().map(|series| {
            let rule = repeats_text(tr, &series.rule);
            match series.next {
                Next::At(at) => {
                    let when = Dates::new(tr, view.zone, view.now).moment_with_weekday(at);
                    let args = [("rule", Arg::Text(&rule)), ("when", Arg::Text(&when))];
                    tr.t_with("series-next", &args)
                }
                Next::AfterDone => tr.t_with("series-repeats", &[("rule", Arg::Text(&rule))]),
                Next::Last => format!(
                    "{}\n{}",
                    tr.t_with("series-repeats", &[("rule", Arg::Text(&rule))]),
                    tr.t("series-last")
                ),
            }
        });
        let lines: Vec<String> = [self.nag.map(|nag| nag_note(tr, nag)), series]
            .into_iter()
            .flatten()
            .collect();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }

    /// The buttons: a nag has no Keep reminding (it keeps reminding already); a repeat can be
    /// paused.
    pub fn keyboard(&self, tr: Tr, task_id: TaskId) -> InlineKeyboardMarkup {
        let keyboard = match self.nag {
            Some(_) => nag_keyboard(tr, task_id),
            None => reminder_keyboard(tr, task_id),
        };
        if self.series.is_none() {
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

/// The series line of `due`'s task, if it repeats: what follows the occurrence announced. For
/// the task's current occurrence it is the domain's next one (none when the series ends; for a
/// rule counted from each Done, not known until then); a reminder of an occurrence the task has
/// moved past (a snooze, a nag) names the task's current one.
fn series_line(due: &DueReminder) -> Option<SeriesLine> {
    let rule = due.task.recurrence?;
    let next = if due.due_at != due.task.due_at {
        Next::At(due.task.due_at)
    } else if rule.counts_from_done() {
        match rule.end() {
            Some(End::Count(count)) if due.occurrence >= count => Next::Last,
            _ => Next::AfterDone,
        }
    } else {
        let current = Occurrence {
            at: due.due_at,
            index: due.occurrence,
        };
        rule.next_occurrence(current, due.due_at, due.task.zone)
            .map_or(Next::Last, |next| Next::At(next.at))
    };
    Some(SeriesLine { rule, next })
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
