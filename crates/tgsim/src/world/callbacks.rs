//! Inline buttons being tapped: a tap queues a `callback_query` update for the bot, and the bot's
//! answerCallbackQuery is recorded once, within the answer timeout (else Telegram's "query is too
//! old"), so tests can see whether and how each tap was answered.

use serde::{Deserialize, Serialize};

use super::World;
use super::status::UserState;
use crate::error::{ApiError, SimError, descriptions};
use crate::types::{CallbackQuery, UpdateKind};

/// How the bot answered a callback query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallbackAnswer {
    /// Notification text.
    pub text: Option<String>,
    /// Shown as an alert rather than a toast.
    pub show_alert: bool,
    /// URL to open.
    pub url: Option<String>,
    /// Simulated Unix time in milliseconds of the answer.
    pub answered_at_ms: i64,
}

/// A callback query created by a tap, and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallbackStatus {
    /// The query id.
    pub id: String,
    /// Chat of the message.
    pub chat_id: i64,
    /// The message with the button.
    pub message_id: i64,
    /// Who tapped.
    pub user_id: i64,
    /// The button's callback data.
    pub data: String,
    /// Simulated Unix time in milliseconds of the tap.
    pub created_ms: i64,
    /// The answer, once given.
    pub answer: Option<CallbackAnswer>,
}

impl World {
    /// A user taps the inline button whose callback data (or label) is `button`; the bot gets a
    /// `callback_query` update. Returns the query id.
    pub(crate) fn tap(
        &mut self,
        chat_id: i64,
        message_id: i64,
        user_id: Option<i64>,
        button: &str,
    ) -> Result<String, SimError> {
        let record = self.chat(chat_id)?;
        let stored = record
            .messages
            .get(&message_id)
            .ok_or(SimError::UnknownMessage {
                chat_id,
                message_id,
            })?;
        let data = stored
            .markup
            .iter()
            .flat_map(|m| m.inline_keyboard.iter().flatten())
            .filter(|b| b.callback_data.as_deref() == Some(button) || b.text == button)
            .find_map(|b| b.callback_data.clone())
            .ok_or_else(|| SimError::NoSuchButton {
                message_id,
                button: button.to_owned(),
            })?;
        let user_id = match user_id {
            Some(id) => id,
            None if !record.is_group() => chat_id,
            None => {
                return Err(SimError::InvalidState(
                    "say which user taps in a group".into(),
                ));
            }
        };
        let user = self
            .users
            .get(&user_id)
            .ok_or(SimError::UnknownUser(user_id))?;
        if matches!(user.state, UserState::Blocked | UserState::Deactivated) {
            return Err(SimError::InvalidState(format!(
                "user {user_id} cannot tap: {:?}",
                user.state
            )));
        }
        let from = user.user.clone();
        let message = self.render(record, stored, false);
        let id = self.next_callback.to_string();
        self.next_callback += 1;
        let created_ms = self.clock.now_ms();
        self.callbacks.insert(
            id.clone(),
            CallbackStatus {
                id: id.clone(),
                chat_id,
                message_id,
                user_id,
                data: data.clone(),
                created_ms,
                answer: None,
            },
        );
        self.stats.counters.updates_created += 1;
        self.updates.push(UpdateKind::CallbackQuery(CallbackQuery {
            id: id.clone(),
            from,
            message: Some(message),
            chat_instance: chat_instance(chat_id),
            data: Some(data),
        }));
        Ok(id)
    }

    /// A callback query and its answer.
    pub(crate) fn callback(&self, id: &str) -> Option<CallbackStatus> {
        self.callbacks.get(id).cloned()
    }

    /// Records the answer to a callback query: only once, and only within the answer timeout.
    pub(crate) fn answer_callback(
        &mut self,
        id: &str,
        text: Option<String>,
        show_alert: bool,
        url: Option<String>,
    ) -> Result<(), ApiError> {
        let now = self.clock.now_ms();
        let timeout = self.callback_timeout_ms;
        let too_old = || ApiError::bad_request(descriptions::QUERY_TOO_OLD);
        let status = self.callbacks.get_mut(id).ok_or_else(too_old)?;
        if status.answer.is_some() || now - status.created_ms > timeout {
            return Err(too_old());
        }
        status.answer = Some(CallbackAnswer {
            text,
            show_alert,
            url,
            answered_at_ms: now,
        });
        Ok(())
    }
}

/// A stable `chat_instance` for callback queries from a chat.
fn chat_instance(chat_id: i64) -> String {
    let mixed = (chat_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as i64;
    mixed.to_string()
}
