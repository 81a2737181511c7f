//! How the world stores a chat and its messages: [`ChatRecord`] (the chat, the bot's membership,
//! the members' statuses, the messages by id) and [`StoredMessage`] (everything a message may
//! carry, whoever sent it). Storage only: `messages` renders a stored message as the Bot API shows
//! it, `transcript` as the user sees it.

use std::collections::{BTreeMap, HashMap};

use super::keyboards::ReplyKeyboardView;
use super::status::{BotMembership, MemberStatus};
use crate::types::{
    Chat, ChatType, Document, InlineKeyboardMarkup, Location, MessageEntity, MessageOrigin,
};

/// Who sent a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sender {
    /// The bot.
    Bot,
    /// A user (or, for service messages, the user who acted), by id.
    User(i64),
}

/// A message as the world keeps it: edits overwrite it, a delete removes it.
#[derive(Clone, Debug)]
pub(super) struct StoredMessage {
    pub id: i64,
    pub sender: Sender,
    pub date: i64,
    pub text: Option<String>,
    /// The entities of the text, or of the caption of a document.
    pub entities: Vec<MessageEntity>,
    pub markup: Option<InlineKeyboardMarkup>,
    pub edit_date: Option<i64>,
    pub reply_to: Option<i64>,
    pub migrate_to: Option<i64>,
    pub migrate_from: Option<i64>,
    pub document: Option<Document>,
    pub caption: Option<String>,
    pub location: Option<Location>,
    pub reply_keyboard: Option<ReplyKeyboardView>,
    pub forward_origin: Option<MessageOrigin>,
}

/// A chat as the world keeps it.
#[derive(Debug)]
pub(super) struct ChatRecord {
    pub chat: Chat,
    /// The bot's membership (always `Member` in private chats).
    pub membership: BotMembership,
    /// Set once a basic group was upgraded: the supergroup's id.
    pub migrated_to: Option<i64>,
    /// Users' statuses in a group; a user absent here has left (or never joined).
    pub members: HashMap<i64, MemberStatus>,
    pub messages: BTreeMap<i64, StoredMessage>,
    pub next_message_id: i64,
}

impl ChatRecord {
    /// A chat with no messages, the bot a member.
    pub(super) fn new(chat: Chat) -> Self {
        Self {
            chat,
            membership: BotMembership::Member,
            migrated_to: None,
            members: HashMap::new(),
            messages: BTreeMap::new(),
            next_message_id: 1,
        }
    }

    /// True for groups and supergroups.
    pub(super) fn is_group(&self) -> bool {
        matches!(self.chat.kind, ChatType::Group | ChatType::Supergroup)
    }
}
