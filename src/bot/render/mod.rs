//! What the bot says: askama templates (`templates/*.html`, auto-escaped for Telegram's HTML parse
//! mode) filled with Fluent strings, and the inline keyboards under the messages. Nothing here
//! talks to Telegram or the database, so every message can be snapshot-tested.
//!
//! One file per concern: task cards, problems, questions and help (`cards.rs`), the task list and
//! its pages (`list.rs`), the buttons under a task or a question (`keyboards.rs`), and the choice
//! keyboards of the settings: zones, languages, lead times (`choices.rs`), and the answer to
//! `/calendar` (`calendar.rs`).

mod calendar;
mod cards;
mod choices;
mod keyboards;
mod list;

use askama::Template;
use teloxide::types::InlineKeyboardMarkup;

pub use self::calendar::{calendar_links, calendar_new_keyboard};
pub use self::cards::{help, problem, question, task_card};
pub use self::choices::{
    COMMON_ZONES, LEAD_CHOICES_MINUTES, language_keyboard, lead_keyboard, zone_asking_keyboard,
    zone_keyboard, zone_question_keyboard,
};
pub use self::keyboards::{
    asking_keyboard, change_time_keyboard, confirm_keyboard, hour_choice_row, question_keyboard,
    snooze_choices, undo_keyboard,
};
pub use self::list::{PAGE_SIZE, is_page_indicator, list_keyboard, page_count, task_list};
pub use crate::text::{RenderError, notice, shorten};

/// A message to send: HTML text and an optional inline keyboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// Text in Telegram's HTML parse mode.
    pub text: String,
    /// Buttons under it.
    pub keyboard: Option<InlineKeyboardMarkup>,
    /// A question whose answer is typed: in groups the user's client opens a reply to it, so
    /// that a bot in privacy mode receives the answer.
    pub expects_answer: bool,
}

impl Reply {
    /// A message without buttons.
    pub fn text(text: String) -> Self {
        Self {
            text,
            keyboard: None,
            expects_answer: false,
        }
    }

    /// A question whose answer is typed (see [`Reply::expects_answer`]).
    pub fn question(text: String) -> Self {
        Self {
            expects_answer: true,
            ..Self::text(text)
        }
    }

    /// The same message with buttons.
    #[must_use]
    pub fn with_keyboard(mut self, keyboard: InlineKeyboardMarkup) -> Self {
        self.keyboard = Some(keyboard);
        self
    }
}

/// A filled template, trimmed of the blank lines its layout leaves around the text.
fn finish(template: &impl Template) -> Result<String, RenderError> {
    Ok(template.render()?.trim().to_owned())
}
