//! The buttons under a task or a question: undo, change the time, snooze, the two readings of an
//! hour, and Cancel under a question (naming its asker in a group).

use chrono::{NaiveTime, TimeDelta, Timelike};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use crate::callback::{Action, Question, Snooze};
use crate::domain::due::HalfOfDay;
use crate::domain::ids::{TaskId, UserId};
use crate::i18n::Tr;

/// A button that sends `action` back when tapped.
pub(super) fn button(label: String, action: Action) -> InlineKeyboardButton {
    InlineKeyboardButton::callback(label, action.encode())
}

/// Under a new or changed task: undo that (the change recorded as `undo_id`), or change its time.
pub fn confirm_keyboard(tr: Tr, undo_id: i64, task_id: TaskId) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[
        button(tr.t("button-undo"), Action::UndoChange { undo_id }),
        button(tr.t("button-change-time"), Action::Edit { task_id }),
    ]])
}

/// Under the answer to Done or Delete: undo it (the change recorded as `undo_id`).
pub fn undo_keyboard(tr: Tr, undo_id: i64) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[button(tr.t("button-undo"), Action::UndoChange { undo_id })]])
}

/// Under a task put back by Undo: change its time.
pub fn change_time_keyboard(tr: Tr, task_id: TaskId) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[button(tr.t("button-change-time"), Action::Edit { task_id })]])
}

/// Under a question in a private chat: its own buttons (`rows`), then Cancel, which closes
/// `question`.
pub fn question_keyboard(
    tr: Tr,
    question: Question,
    rows: Vec<Vec<InlineKeyboardButton>>,
) -> InlineKeyboardMarkup {
    asking_keyboard(tr, question, None, rows)
}

/// Under a question: its own buttons (`rows`), then Cancel, which closes `question`; in a group
/// the Cancel button names the `asker`, whose question it is, so that nobody else's tap closes
/// it or takes its buttons.
pub fn asking_keyboard(
    tr: Tr,
    question: Question,
    asker: Option<UserId>,
    mut rows: Vec<Vec<InlineKeyboardButton>>,
) -> InlineKeyboardMarkup {
    rows.push(vec![button(
        tr.t("button-cancel"),
        Action::Cancel { question, asker },
    )]);
    InlineKeyboardMarkup::new(rows)
}

/// The snooze choices for a task, one row.
pub fn snooze_choices(tr: Tr, task_id: TaskId) -> Vec<InlineKeyboardButton> {
    let choice = |key: &str, choice| button(tr.t(key), Action::Snooze { task_id, choice });
    vec![
        choice("button-snooze-10m", Snooze::TenMinutes),
        choice("button-snooze-1h", Snooze::OneHour),
        choice("button-snooze-tomorrow", Snooze::TomorrowMorning),
    ]
}

/// The two readings of an hour said without am/pm (see [`crate::domain::due::HourChoice`]), as buttons under the new
/// task's card: the morning and the evening one of `chosen`'s hour ("06:00", "18:00"), the
/// chosen one ticked; a tap reads the hour in that half of the day.
pub fn hour_choice_row(task_id: TaskId, chosen: NaiveTime) -> Vec<InlineKeyboardButton> {
    let morning = chosen.with_hour(chosen.hour() % 12).unwrap_or(chosen);
    [
        (morning, HalfOfDay::Morning),
        (morning + TimeDelta::hours(12), HalfOfDay::Evening),
    ]
    .into_iter()
    .map(|(time, half)| {
        let clock = time.format("%H:%M").to_string();
        let label = if time == chosen {
            format!("✓ {clock}")
        } else {
            clock
        };
        button(label, Action::PickHour { task_id, half })
    })
    .collect()
}
