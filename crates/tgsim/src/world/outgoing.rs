//! What the bot does to messages: sending a text, editing its text or keyboard, deleting. Telegram's
//! rules for edits (only the bot's own messages with content, and never an edit that changes
//! nothing) and deletes (only within 48 hours; in groups only the bot's own) answer with its own
//! errors. Documents are in `documents`; whether the bot may reach the chat at all is checked
//! before, in `access`.

use super::World;
use super::keyboards::Markup;
use super::records::{Sender, StoredMessage};
use crate::error::{ApiError, descriptions};
use crate::types::{InlineKeyboardMarkup, Message, MessageEntity};

/// Messages older than this cannot be deleted by the bot.
const DELETE_WINDOW_MS: i64 = 48 * 3600 * 1000;

impl World {
    /// Stores a message from the bot and returns it as the Bot API shows it.
    pub(crate) fn bot_sends(
        &mut self,
        chat_id: i64,
        text: String,
        entities: Vec<MessageEntity>,
        markup: Markup,
        reply_to: Option<i64>,
    ) -> Message {
        let now = self.clock.unix();
        let message = StoredMessage {
            text: Some(text),
            entities,
            markup: markup.inline,
            reply_keyboard: markup.reply,
            reply_to,
            ..self.new_message(chat_id, Sender::Bot, now)
        };
        self.store(chat_id, message)
    }

    /// Replaces the text and keyboard of a bot message, enforcing Telegram's edit rules.
    pub(crate) fn bot_edits(
        &mut self,
        chat_id: i64,
        message_id: i64,
        text: Option<(String, Vec<MessageEntity>)>,
        markup: Option<InlineKeyboardMarkup>,
    ) -> Result<Message, ApiError> {
        let now = self.clock.unix();
        let record = self
            .chats
            .get_mut(&chat_id)
            .ok_or_else(|| ApiError::bad_request(descriptions::CHAT_NOT_FOUND))?;
        let stored = record
            .messages
            .get_mut(&message_id)
            .ok_or_else(|| ApiError::bad_request(descriptions::MESSAGE_TO_EDIT_NOT_FOUND))?;
        let has_content = stored.text.is_some() || stored.document.is_some();
        if stored.sender != Sender::Bot || !has_content {
            return Err(ApiError::bad_request(descriptions::MESSAGE_CANT_BE_EDITED));
        }
        if text.is_some() && stored.text.is_none() {
            return Err(ApiError::bad_request(descriptions::NO_TEXT_TO_EDIT));
        }
        let same_text = text
            .as_ref()
            .is_none_or(|(t, e)| stored.text.as_ref() == Some(t) && &stored.entities == e);
        if same_text && stored.markup == markup {
            return Err(ApiError::bad_request(descriptions::MESSAGE_NOT_MODIFIED));
        }
        if let Some((t, e)) = text {
            stored.text = Some(t);
            stored.entities = e;
        }
        stored.markup = markup;
        stored.edit_date = Some(now);
        let record = &self.chats[&chat_id];
        Ok(self.render(record, &record.messages[&message_id], false))
    }

    /// Deletes a message, enforcing Telegram's delete rules.
    pub(crate) fn bot_deletes(&mut self, chat_id: i64, message_id: i64) -> Result<(), ApiError> {
        let now_ms = self.clock.now_ms();
        let record = self
            .chats
            .get_mut(&chat_id)
            .ok_or_else(|| ApiError::bad_request(descriptions::CHAT_NOT_FOUND))?;
        let group = record.is_group();
        let stored = record
            .messages
            .get(&message_id)
            .ok_or_else(|| ApiError::bad_request(descriptions::MESSAGE_TO_DELETE_NOT_FOUND))?;
        if group && stored.sender != Sender::Bot {
            return Err(ApiError::bad_request(
                "Bad Request: message can't be deleted",
            ));
        }
        if now_ms - stored.date * 1000 > DELETE_WINDOW_MS {
            return Err(ApiError::bad_request(
                "Bad Request: message can't be deleted for everyone",
            ));
        }
        record.messages.remove(&message_id);
        Ok(())
    }
}
