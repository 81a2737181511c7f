//! Whether the bot may act in a chat, checked before every send, edit and delete: a private chat's
//! user must have started the bot (and not blocked it or left Telegram), a group must not have
//! moved to a supergroup, and the bot must still be in it. A refusal is Telegram's own answer
//! (403 with its description, or 400 with `migrate_to_chat_id`).

use super::World;
use super::status::{BotMembership, UserState};
use crate::error::{ApiError, descriptions};
use crate::types::ChatType;

impl World {
    /// Checks that the bot may act in the chat; the error is what Telegram answers.
    pub(crate) fn reachable(&self, chat_id: i64) -> Result<(), ApiError> {
        let record = self
            .chats
            .get(&chat_id)
            .ok_or_else(|| ApiError::bad_request(descriptions::CHAT_NOT_FOUND))?;
        if !record.is_group() {
            return match self.users.get(&chat_id).map(|u| u.state) {
                Some(UserState::Started) | None => Ok(()),
                Some(UserState::NeverStarted) => {
                    Err(ApiError::forbidden(descriptions::CANT_INITIATE))
                }
                Some(UserState::Blocked) => Err(ApiError::forbidden(descriptions::BOT_BLOCKED)),
                Some(UserState::Deactivated) => {
                    Err(ApiError::forbidden(descriptions::USER_DEACTIVATED))
                }
            };
        }
        if let Some(new_id) = record.migrated_to {
            return Err(ApiError::migrated(new_id));
        }
        let supergroup = record.chat.kind == ChatType::Supergroup;
        match (record.membership, supergroup) {
            (BotMembership::Member, _) => Ok(()),
            (BotMembership::Kicked, false) => {
                Err(ApiError::forbidden(descriptions::KICKED_FROM_GROUP))
            }
            (BotMembership::Kicked, true) => {
                Err(ApiError::forbidden(descriptions::KICKED_FROM_SUPERGROUP))
            }
            (BotMembership::Left, false) => {
                Err(ApiError::forbidden(descriptions::NOT_MEMBER_OF_GROUP))
            }
            (BotMembership::Left, true) => {
                Err(ApiError::forbidden(descriptions::NOT_MEMBER_OF_SUPERGROUP))
            }
        }
    }
}
