//! Groups and the chats list: creating a group or supergroup, the bot's membership in it (a change
//! tells the bot through a `my_chat_member` update), and upgrading a basic group to a supergroup
//! (later sends to the old id answer with `migrate_to_chat_id`).

use serde::{Deserialize, Serialize};

use super::World;
use super::records::{ChatRecord, Sender, StoredMessage};
use super::status::{BotMembership, MemberStatus};
use crate::error::SimError;
use crate::types::{Chat, ChatType, UpdateKind};

/// A group to create, with the bot as a member.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewGroup {
    /// Id (negative; `-100…` for supergroups); a fresh one when unset.
    pub id: Option<i64>,
    /// Title.
    pub title: String,
    /// A supergroup rather than a basic group.
    pub supergroup: bool,
    /// A user who owns the group (status `creator`); none when unset.
    pub creator: Option<i64>,
}

impl NewGroup {
    /// A basic group with this title.
    pub fn new(title: &str) -> Self {
        Self {
            title: title.to_owned(),
            ..Self::default()
        }
    }

    /// Makes it a supergroup.
    #[must_use]
    pub fn supergroup(mut self) -> Self {
        self.supergroup = true;
        self
    }

    /// Makes this (existing) user the group's owner.
    #[must_use]
    pub fn creator(mut self, user_id: i64) -> Self {
        self.creator = Some(user_id);
        self
    }
}

/// A chat as the simulator holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatInfo {
    /// The Bot API `Chat`.
    pub chat: Chat,
    /// The bot's membership (always `member` for private chats).
    pub membership: BotMembership,
    /// Set once a group was upgraded: the new supergroup's id.
    pub migrated_to: Option<i64>,
}

impl ChatRecord {
    /// The chat as control operations report it.
    fn info(&self) -> ChatInfo {
        ChatInfo {
            chat: self.chat.clone(),
            membership: self.membership,
            migrated_to: self.migrated_to,
        }
    }
}

impl World {
    /// Creates a group or supergroup with the bot as a member.
    pub(crate) fn create_group(&mut self, new: NewGroup) -> Result<ChatInfo, SimError> {
        let id = match new.id {
            Some(id) => id,
            None => loop {
                let n = self.next_group_id;
                self.next_group_id += 1;
                let id = if new.supergroup {
                    -1_000_000_000_000 - n
                } else {
                    -n
                };
                if !self.chats.contains_key(&id) {
                    break id;
                }
            },
        };
        if id >= 0 || self.chats.contains_key(&id) {
            return Err(SimError::IdTaken(id));
        }
        if let Some(creator) = new.creator
            && !self.users.contains_key(&creator)
        {
            return Err(SimError::UnknownUser(creator));
        }
        let chat = Chat {
            id,
            kind: if new.supergroup {
                ChatType::Supergroup
            } else {
                ChatType::Group
            },
            title: Some(if new.title.is_empty() {
                format!("Group {}", -id)
            } else {
                new.title
            }),
            username: None,
            first_name: None,
            last_name: None,
        };
        let mut record = ChatRecord::new(chat);
        record
            .members
            .extend(new.creator.map(|c| (c, MemberStatus::Creator)));
        let info = record.info();
        self.chats.insert(id, record);
        Ok(info)
    }

    /// All chats.
    pub(crate) fn chats(&self) -> Vec<ChatInfo> {
        let mut chats: Vec<ChatInfo> = self.chats.values().map(ChatRecord::info).collect();
        chats.sort_by_key(|c| c.chat.id);
        chats
    }

    /// True for groups and supergroups.
    pub(crate) fn is_group(&self, chat_id: i64) -> bool {
        self.chats.get(&chat_id).is_some_and(ChatRecord::is_group)
    }

    /// Changes the bot's membership in a group, sending it a `my_chat_member` update.
    pub(crate) fn set_membership(
        &mut self,
        chat_id: i64,
        membership: BotMembership,
        by: Option<i64>,
    ) -> Result<(), SimError> {
        let by = self.actor(by)?;
        let record = self
            .chats
            .get_mut(&chat_id)
            .ok_or(SimError::UnknownChat(chat_id))?;
        if !record.is_group() {
            return Err(SimError::InvalidState(
                "private chats have no membership; set the user's state".into(),
            ));
        }
        let old = std::mem::replace(&mut record.membership, membership);
        let chat = record.chat.clone();
        if old != membership {
            self.push_membership_update(chat, by, old.into(), membership.into());
        }
        Ok(())
    }

    /// Upgrades a basic group to a supergroup: sends to the old id fail with `migrate_to_chat_id`,
    /// and both chats get the service message. Returns the new id.
    pub(crate) fn upgrade_group(&mut self, chat_id: i64, by: Option<i64>) -> Result<i64, SimError> {
        let by = self.actor(by)?;
        let record = self
            .chats
            .get(&chat_id)
            .ok_or(SimError::UnknownChat(chat_id))?;
        if record.chat.kind != ChatType::Group || record.migrated_to.is_some() {
            return Err(SimError::InvalidState(format!(
                "chat {chat_id} is not a basic group"
            )));
        }
        let new_id = -1_000_000_000_000 - chat_id.abs();
        if self.chats.contains_key(&new_id) {
            return Err(SimError::IdTaken(new_id));
        }
        let title = record.chat.title.clone().unwrap_or_default();
        let members = record.members.clone();
        self.create_group(NewGroup {
            id: Some(new_id),
            title,
            supergroup: true,
            creator: None,
        })?;
        if let Some(new) = self.chats.get_mut(&new_id) {
            new.members = members;
        }
        if let Some(old) = self.chats.get_mut(&chat_id) {
            old.migrated_to = Some(new_id);
        }
        let now = self.clock.unix();
        for (chat, to, from) in [(chat_id, Some(new_id), None), (new_id, None, Some(chat_id))] {
            let message = StoredMessage {
                migrate_to: to,
                migrate_from: from,
                ..self.new_message(chat, Sender::User(by.id), now)
            };
            let rendered = self.store(chat, message);
            self.updates.push(UpdateKind::Message(rendered));
        }
        Ok(new_id)
    }
}
