//! Users writing to the bot: a text (or command) or a shared location, in their private chat or a
//! group. Each is checked the way a Telegram client would refuse it (a blocked or deleted user, a
//! group the user or the bot is not in, a reply to nothing), stored, and queued for the bot as a
//! `message` update. Forwards are in `forwards`.

use super::World;
use super::records::{Sender, StoredMessage};
use super::status::{BotMembership, MemberStatus, UserState};
use crate::error::SimError;
use crate::text;
use crate::types::{Location, Message, UpdateKind};

impl World {
    /// A user writes in a chat (their private chat or a group); the bot gets a `message` update.
    pub(crate) fn inject_message(
        &mut self,
        chat_id: i64,
        user_id: i64,
        text: &str,
        reply_to: Option<i64>,
    ) -> Result<Message, SimError> {
        self.check_user_may_write(chat_id, user_id, reply_to)?;
        let (text, entities) = text::finalize(text, Vec::new());
        if text.is_empty() {
            return Err(SimError::InvalidState("a message needs some text".into()));
        }
        let now = self.clock.unix();
        let message = StoredMessage {
            text: Some(text),
            entities,
            reply_to,
            ..self.new_message(chat_id, Sender::User(user_id), now)
        };
        Ok(self.user_sends(chat_id, user_id, message))
    }

    /// A user shares a location in a chat (as the client does when a `request_location` button
    /// is tapped); the bot gets a `message` update with `location`.
    pub(crate) fn inject_location(
        &mut self,
        chat_id: i64,
        user_id: i64,
        latitude: f64,
        longitude: f64,
    ) -> Result<Message, SimError> {
        let on_earth = (-90.0..=90.0).contains(&latitude) && (-180.0..=180.0).contains(&longitude);
        if !on_earth {
            return Err(SimError::InvalidState(format!(
                "no such place: latitude {latitude}, longitude {longitude}"
            )));
        }
        self.check_user_may_write(chat_id, user_id, None)?;
        let now = self.clock.unix();
        let message = StoredMessage {
            location: Some(Location {
                latitude,
                longitude,
                horizontal_accuracy: None,
            }),
            ..self.new_message(chat_id, Sender::User(user_id), now)
        };
        Ok(self.user_sends(chat_id, user_id, message))
    }

    /// Whether the user may write in the chat now (replying to `reply_to`, if given).
    pub(super) fn check_user_may_write(
        &self,
        chat_id: i64,
        user_id: i64,
        reply_to: Option<i64>,
    ) -> Result<(), SimError> {
        let info = self
            .users
            .get(&user_id)
            .ok_or(SimError::UnknownUser(user_id))?;
        match info.state {
            UserState::Blocked => {
                return Err(SimError::InvalidState(format!(
                    "user {user_id} blocked the bot; unblock them first"
                )));
            }
            UserState::Deactivated => {
                return Err(SimError::InvalidState(format!(
                    "user {user_id} is deactivated"
                )));
            }
            UserState::Started | UserState::NeverStarted => {}
        }
        let record = self.chat(chat_id)?;
        if record.is_group() {
            if let Some(new_id) = record.migrated_to {
                return Err(SimError::InvalidState(format!(
                    "group {chat_id} became supergroup {new_id}"
                )));
            }
            if record.membership != BotMembership::Member {
                return Err(SimError::InvalidState(format!(
                    "the bot is not a member of {chat_id}"
                )));
            }
            if let Some(status) = record.members.get(&user_id)
                && !status.is_present()
            {
                return Err(SimError::InvalidState(format!(
                    "user {user_id} is not in group {chat_id} ({status:?}); make them a member first"
                )));
            }
        } else if chat_id != user_id {
            return Err(SimError::InvalidState(format!(
                "chat {chat_id} is another user's private chat"
            )));
        }
        if let Some(r) = reply_to
            && !record.messages.contains_key(&r)
        {
            return Err(SimError::UnknownMessage {
                chat_id,
                message_id: r,
            });
        }
        Ok(())
    }

    /// Stores a user's message (checked by [`Self::check_user_may_write`]) and gives it to the bot.
    pub(super) fn user_sends(
        &mut self,
        chat_id: i64,
        user_id: i64,
        message: StoredMessage,
    ) -> Message {
        if chat_id == user_id
            && let Some(info) = self.users.get_mut(&user_id)
        {
            info.state = UserState::Started;
        }
        if let Some(record) = self.chats.get_mut(&chat_id)
            && record.is_group()
        {
            record
                .members
                .entry(user_id)
                .or_insert(MemberStatus::Member);
        }
        let rendered = self.store(chat_id, message);
        self.stats.counters.updates_created += 1;
        self.updates.push(UpdateKind::Message(rendered.clone()));
        rendered
    }
}
