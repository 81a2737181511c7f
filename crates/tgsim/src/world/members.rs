//! Who is what in a chat: setting a user's status in a group (owner, administrator, member, left,
//! kicked), answering getChatMember with Telegram's errors, and the `my_chat_member` update the
//! bot gets when its own status changes.

use super::World;
use super::records::ChatRecord;
use super::status::{MemberStatus, UserState};
use crate::error::{ApiError, SimError, descriptions};
use crate::types::{Chat, ChatMember, ChatMemberUpdated, UpdateKind, User};

impl World {
    /// Sets a user's status in a group. Making a user the creator makes the previous creator an
    /// administrator, as an ownership transfer does.
    pub(crate) fn set_member_status(
        &mut self,
        chat_id: i64,
        user_id: i64,
        status: MemberStatus,
    ) -> Result<(), SimError> {
        let record = self
            .chats
            .get_mut(&chat_id)
            .ok_or(SimError::UnknownChat(chat_id))?;
        if !self.users.contains_key(&user_id) {
            return Err(SimError::UnknownUser(user_id));
        }
        if !record.is_group() {
            return Err(SimError::InvalidState(
                "private chats have no member statuses".into(),
            ));
        }
        if status == MemberStatus::Creator {
            for old in record.members.values_mut() {
                if *old == MemberStatus::Creator {
                    *old = MemberStatus::Administrator;
                }
            }
        }
        record.members.insert(user_id, status);
        Ok(())
    }

    /// A user's (or the bot's own) status in a chat, as getChatMember answers it; the errors are
    /// Telegram's. A known user who never joined a group has left it.
    pub(crate) fn chat_member(&self, chat_id: i64, user_id: i64) -> Result<ChatMember, ApiError> {
        let record = self
            .chats
            .get(&chat_id)
            .ok_or_else(|| ApiError::bad_request(descriptions::CHAT_NOT_FOUND))?;
        let status = if record.is_group() {
            self.group_member_status(record, user_id)?
        } else {
            self.private_member_status(record, user_id)
        };
        let user = if user_id == self.bot.user.id {
            self.bot.user.clone()
        } else {
            self.users
                .get(&user_id)
                .map(|u| u.user.clone())
                .ok_or_else(|| ApiError::bad_request(descriptions::USER_NOT_FOUND))?
        };
        Ok(status.of(user))
    }

    /// Status in a group: the bot's own membership even where it cannot act, anyone else's only
    /// where it can.
    fn group_member_status(
        &self,
        record: &ChatRecord,
        user_id: i64,
    ) -> Result<MemberStatus, ApiError> {
        if let Some(new_id) = record.migrated_to {
            return Err(ApiError::migrated(new_id));
        }
        if user_id == self.bot.user.id {
            return Ok(record.membership.into());
        }
        self.reachable(record.chat.id)?;
        Ok(record
            .members
            .get(&user_id)
            .copied()
            .unwrap_or(MemberStatus::Left))
    }

    /// Status in a private chat: its user and the bot are members (the bot `kicked` once blocked,
    /// as its `my_chat_member` update says); anyone else is not in it.
    fn private_member_status(&self, record: &ChatRecord, user_id: i64) -> MemberStatus {
        let owner = record.chat.id;
        let blocked = self
            .users
            .get(&owner)
            .is_some_and(|u| u.state == UserState::Blocked);
        if user_id == self.bot.user.id && blocked {
            MemberStatus::Kicked
        } else if user_id == self.bot.user.id || user_id == owner {
            MemberStatus::Member
        } else {
            MemberStatus::Left
        }
    }

    /// Queues a `my_chat_member` update: `from` changed the bot's status in `chat`.
    pub(super) fn push_membership_update(
        &mut self,
        chat: Chat,
        from: User,
        old: MemberStatus,
        new: MemberStatus,
    ) {
        let update = ChatMemberUpdated {
            chat,
            from,
            date: self.clock.unix(),
            old_chat_member: old.of(self.bot.user.clone()),
            new_chat_member: new.of(self.bot.user.clone()),
        };
        self.stats.counters.updates_created += 1;
        self.updates.push(UpdateKind::MyChatMember(update));
    }
}
