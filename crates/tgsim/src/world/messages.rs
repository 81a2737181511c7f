//! Messages as the Bot API shows them: a fresh message numbered in its chat, storing it, and
//! rendering a stored message as a `Message` (with the message it replies to, one level deep).
//! Every concern that creates messages (users writing, the bot sending, service messages) goes
//! through here.

use super::World;
use super::records::{ChatRecord, Sender, StoredMessage};
use crate::types::Message;

impl World {
    /// True when the chat has this message.
    pub(crate) fn has_message(&self, chat_id: i64, message_id: i64) -> bool {
        self.chats
            .get(&chat_id)
            .is_some_and(|c| c.messages.contains_key(&message_id))
    }

    /// An empty message with the chat's next id.
    pub(super) fn new_message(&mut self, chat_id: i64, sender: Sender, date: i64) -> StoredMessage {
        let id = self.chats.get_mut(&chat_id).map_or(0, |c| {
            let id = c.next_message_id;
            c.next_message_id += 1;
            id
        });
        StoredMessage {
            id,
            sender,
            date,
            text: None,
            entities: Vec::new(),
            markup: None,
            edit_date: None,
            reply_to: None,
            migrate_to: None,
            migrate_from: None,
            document: None,
            caption: None,
            location: None,
            reply_keyboard: None,
            forward_origin: None,
        }
    }

    /// Stores a message in its chat and returns it as the Bot API shows it.
    pub(super) fn store(&mut self, chat_id: i64, message: StoredMessage) -> Message {
        let id = message.id;
        self.chats
            .get_mut(&chat_id)
            .expect("messages are stored in existing chats")
            .messages
            .insert(id, message);
        let record = &self.chats[&chat_id];
        self.render(record, &record.messages[&id], false)
    }

    /// A stored message as the Bot API shows it; `nested` leaves out the message it replies to
    /// (Telegram nests replies one level deep).
    pub(super) fn render(&self, chat: &ChatRecord, m: &StoredMessage, nested: bool) -> Message {
        let from = match m.sender {
            Sender::Bot => Some(self.bot.user.clone()),
            Sender::User(id) => self
                .users
                .get(&id)
                .map(|u| u.user.clone())
                .or_else(|| self.actor(None).ok()),
        };
        Message {
            message_id: m.id,
            from,
            date: m.date,
            forward_origin: m.forward_origin.clone(),
            chat: chat.chat.clone(),
            reply_to_message: if nested {
                None
            } else {
                m.reply_to
                    .and_then(|r| chat.messages.get(&r))
                    .map(|r| Box::new(self.render(chat, r, true)))
            },
            edit_date: m.edit_date,
            text: m.text.clone(),
            entities: (m.document.is_none() && !m.entities.is_empty()).then(|| m.entities.clone()),
            document: m.document.clone(),
            caption: m.caption.clone(),
            caption_entities: (m.document.is_some() && !m.entities.is_empty())
                .then(|| m.entities.clone()),
            location: m.location,
            reply_markup: m.markup.clone(),
            migrate_to_chat_id: m.migrate_to,
            migrate_from_chat_id: m.migrate_from,
        }
    }
}
