//! The simulated Telegram: the bot, users in every state, private chats and groups with their
//! messages, callback queries, command menus, the webhook, plus the clock, limits, faults and
//! statistics. One value behind one lock; every operation is synchronous and short.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::clock::Clock;
use super::config::SimConfig;
use super::error::{ApiError, SimError, descriptions};
use super::faults::Faults;
use super::limits::Limiter;
use super::stats::Stats;
use super::text;
use super::types::{
    BotCommand, BotUser, CallbackQuery, Chat, ChatMember, ChatMemberAdministrator,
    ChatMemberUpdated, ChatType, Document, InlineKeyboardMarkup, Location, Message, MessageEntity,
    MessageOrigin, UpdateKind, User,
};
use super::updates::UpdateQueue;

/// Where a user stands with the bot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UserState {
    /// Pressed /start (or wrote to the bot): messages are delivered.
    #[default]
    Started,
    /// Never wrote to the bot: 403 "bot can't initiate conversation with a user". The user's first
    /// message moves them to `Started`.
    NeverStarted,
    /// Blocked the bot: 403 "bot was blocked by the user".
    Blocked,
    /// Deleted their account: 403 "user is deactivated".
    Deactivated,
}

/// Where the bot stands in a group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotMembership {
    /// A member: messages are delivered.
    #[default]
    Member,
    /// Removed by an admin: 403 "bot was kicked from the … chat".
    Kicked,
    /// Left: 403 "bot is not a member of the … chat".
    Left,
}

/// A user's status in a group, as getChatMember reports it (and `my_chat_member` updates for the
/// bot). Lets tests give a group an owner and administrators the bot can check for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberStatus {
    /// The group's owner; a group has at most one.
    Creator,
    /// An administrator with the default rights (see `ChatMemberAdministrator`).
    Administrator,
    /// An ordinary member.
    Member,
    /// Not in the group: left it, or never joined.
    Left,
    /// Removed and banned for good.
    Kicked,
}

impl MemberStatus {
    /// The spec-shaped `ChatMember` of `user` in this status.
    pub(crate) fn of(self, user: User) -> ChatMember {
        match self {
            Self::Creator => ChatMember::Creator {
                user,
                is_anonymous: false,
            },
            Self::Administrator => {
                ChatMember::Administrator(ChatMemberAdministrator::with_default_rights(user))
            }
            Self::Member => ChatMember::Member { user },
            Self::Left => ChatMember::Left { user },
            Self::Kicked => ChatMember::Kicked {
                user,
                until_date: 0,
            },
        }
    }

    /// False for users who may not write in the group.
    fn is_present(self) -> bool {
        !matches!(self, Self::Left | Self::Kicked)
    }
}

impl From<BotMembership> for MemberStatus {
    fn from(membership: BotMembership) -> Self {
        match membership {
            BotMembership::Member => Self::Member,
            BotMembership::Kicked => Self::Kicked,
            BotMembership::Left => Self::Left,
        }
    }
}

/// A user to create. Unset fields get defaults (a fresh id, state `Started`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewUser {
    /// Id (positive); a fresh one when unset.
    pub id: Option<i64>,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: Option<String>,
    /// Username without `@`.
    pub username: Option<String>,
    /// IETF language tag, e.g. "ru".
    pub language_code: Option<String>,
    /// Starting state.
    pub state: UserState,
}

impl NewUser {
    /// A started user with this first name.
    pub fn new(first_name: &str) -> Self {
        Self {
            first_name: first_name.to_owned(),
            ..Self::default()
        }
    }

    /// Sets the id.
    #[must_use]
    pub fn id(mut self, id: i64) -> Self {
        self.id = Some(id);
        self
    }

    /// Sets the language code.
    #[must_use]
    pub fn language(mut self, code: &str) -> Self {
        self.language_code = Some(code.to_owned());
        self
    }

    /// Sets the username.
    #[must_use]
    pub fn username(mut self, username: &str) -> Self {
        self.username = Some(username.to_owned());
        self
    }

    /// Sets the starting state.
    #[must_use]
    pub fn state(mut self, state: UserState) -> Self {
        self.state = state;
        self
    }
}

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

/// A user as the simulator holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    /// The Bot API `User`.
    pub user: User,
    /// Where the user stands with the bot.
    pub state: UserState,
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

/// One inline button as the user sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ButtonView {
    /// Label.
    pub text: String,
    /// Data sent when tapped.
    pub callback_data: Option<String>,
    /// URL opened when tapped.
    pub url: Option<String>,
}

/// One button of a reply keyboard (the keyboard that replaces the user's own while it is shown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyboardButtonView {
    /// Label; tapping a plain button sends it as the user's message.
    pub text: String,
    /// Tapping it shares the user's location (`request_location`).
    pub request_location: bool,
}

/// The reply keyboard a message came with (`reply_markup` of kind `ReplyKeyboardMarkup` or
/// `ReplyKeyboardRemove`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyKeyboardView {
    /// Shows these rows of buttons in place of the user's keyboard.
    Show {
        /// The rows.
        rows: Vec<Vec<KeyboardButtonView>>,
    },
    /// Takes a shown reply keyboard away.
    Remove,
}

/// A file the bot uploaded, as the simulator keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFile {
    /// How the Bot API describes it.
    pub document: Document,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A message a user forwards ([`crate::SimHandle::user_forwards`], `POST
/// /__sim/users/{id}/forwards`): where it came from, and a text, or a file (by its name) with an
/// optional caption.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forward {
    /// Where the original came from.
    pub origin: MessageOrigin,
    /// Its text.
    #[serde(default)]
    pub text: Option<String>,
    /// Its file's name, for a forwarded file.
    #[serde(default)]
    pub file_name: Option<String>,
    /// The file's caption.
    #[serde(default)]
    pub caption: Option<String>,
}

impl Forward {
    /// A forwarded text.
    pub fn text(origin: MessageOrigin, text: &str) -> Self {
        Self {
            origin,
            text: Some(text.to_owned()),
            file_name: None,
            caption: None,
        }
    }

    /// A forwarded file, with an optional caption.
    pub fn file(origin: MessageOrigin, file_name: &str, caption: Option<&str>) -> Self {
        Self {
            origin,
            text: None,
            file_name: Some(file_name.to_owned()),
            caption: caption.map(str::to_owned),
        }
    }
}

/// The longest caption, in UTF-16 code units.
const MAX_CAPTION_LEN: usize = 1024;

/// Whether `origin` is one Telegram could give a forward made at `now`: sent before it, a
/// channel post from a channel, a chat's message from a group or channel.
fn check_origin(origin: &MessageOrigin, now: i64) -> Result<(), SimError> {
    if origin.date() > now {
        return Err(SimError::InvalidState(
            "a forwarded message was sent before it is forwarded".into(),
        ));
    }
    match origin {
        MessageOrigin::Channel { chat, .. } if chat.kind != ChatType::Channel => Err(
            SimError::InvalidState("a channel origin names a channel chat".into()),
        ),
        MessageOrigin::Chat { sender_chat, .. } if sender_chat.kind == ChatType::Private => Err(
            SimError::InvalidState("a chat origin names a group or a channel".into()),
        ),
        _ => Ok(()),
    }
}

/// One message of a chat as the user sees it now: edits applied, deleted messages absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranscriptEntry {
    /// Message id.
    pub message_id: i64,
    /// Unix time it was sent.
    pub date: i64,
    /// Sent by the bot (else by `user_id`).
    pub from_bot: bool,
    /// The sending user, for user messages.
    pub user_id: Option<i64>,
    /// Text after entity parsing (None for service messages).
    pub text: Option<String>,
    /// Entities of the text.
    pub entities: Vec<MessageEntity>,
    /// Inline keyboard rows.
    pub buttons: Vec<Vec<ButtonView>>,
    /// Edited at least once.
    pub edited: bool,
    /// The message it replies to.
    pub reply_to: Option<i64>,
    /// What a service message says, e.g. "migrated to supergroup -1001234".
    pub service: Option<String>,
    /// The file of a document message (its bytes: `SimHandle::file`, or `GET /__sim/files/{file_id}`).
    pub document: Option<Document>,
    /// The caption of a document, after entity parsing (its entities are in `entities`).
    pub caption: Option<String>,
    /// A shared location.
    pub location: Option<Location>,
    /// The reply keyboard the message came with.
    pub reply_keyboard: Option<ReplyKeyboardView>,
    /// Where a forwarded message came from.
    pub forward_origin: Option<MessageOrigin>,
}

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

/// A webhook as set by setWebhook.
#[derive(Clone, Debug)]
pub(crate) struct Webhook {
    pub url: String,
    pub secret_token: Option<String>,
    pub max_connections: u32,
    pub last_error_date: Option<i64>,
    pub last_error_message: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sender {
    Bot,
    User(i64),
}

#[derive(Clone, Debug)]
struct StoredMessage {
    id: i64,
    sender: Sender,
    date: i64,
    text: Option<String>,
    /// The entities of the text, or of the caption of a document.
    entities: Vec<MessageEntity>,
    markup: Option<InlineKeyboardMarkup>,
    edit_date: Option<i64>,
    reply_to: Option<i64>,
    migrate_to: Option<i64>,
    migrate_from: Option<i64>,
    document: Option<Document>,
    caption: Option<String>,
    location: Option<Location>,
    reply_keyboard: Option<ReplyKeyboardView>,
    forward_origin: Option<MessageOrigin>,
}

#[derive(Debug)]
struct ChatRecord {
    chat: Chat,
    membership: BotMembership,
    migrated_to: Option<i64>,
    members: HashMap<i64, MemberStatus>,
    messages: BTreeMap<i64, StoredMessage>,
    next_message_id: i64,
}

impl ChatRecord {
    fn new(chat: Chat) -> Self {
        Self {
            chat,
            membership: BotMembership::Member,
            migrated_to: None,
            members: HashMap::new(),
            messages: BTreeMap::new(),
            next_message_id: 1,
        }
    }

    fn is_group(&self) -> bool {
        matches!(self.chat.kind, ChatType::Group | ChatType::Supergroup)
    }

    fn info(&self) -> ChatInfo {
        ChatInfo {
            chat: self.chat.clone(),
            membership: self.membership,
            migrated_to: self.migrated_to,
        }
    }
}

/// Id of the service account that kicks the bot or upgrades a group when no user is named.
const SERVICE_USER_ID: i64 = 777_000;
/// Messages older than this cannot be deleted by the bot.
const DELETE_WINDOW_MS: i64 = 48 * 3600 * 1000;

/// The whole simulated state.
#[derive(Debug)]
pub(crate) struct World {
    pub clock: Clock,
    pub bot: BotUser,
    pub limiter: Limiter,
    pub faults: Faults,
    pub stats: Stats,
    pub updates: UpdateQueue,
    pub webhook: Option<Webhook>,
    pub commands: BTreeMap<(String, String), Vec<BotCommand>>,
    callback_timeout_ms: i64,
    users: HashMap<i64, UserInfo>,
    chats: HashMap<i64, ChatRecord>,
    callbacks: HashMap<String, CallbackStatus>,
    files: HashMap<String, StoredFile>,
    next_user_id: i64,
    next_group_id: i64,
    next_callback: u64,
}

impl World {
    /// A world with only the bot in it.
    pub(crate) fn new(config: &SimConfig, bot_id: i64) -> Self {
        let p = &config.bot;
        let bot = BotUser {
            user: User {
                id: bot_id,
                is_bot: true,
                first_name: p.first_name.clone(),
                last_name: None,
                username: Some(p.username.clone()),
                language_code: None,
            },
            can_join_groups: p.can_join_groups,
            can_read_all_group_messages: p.can_read_all_group_messages,
            supports_inline_queries: p.supports_inline_queries,
            can_connect_to_business: p.can_connect_to_business,
            has_main_web_app: p.has_main_web_app,
        };
        Self {
            clock: Clock::new(config.clock),
            bot,
            limiter: Limiter::new(config.limits.clone()),
            faults: Faults::new(config.seed),
            stats: Stats::new(config.call_log_capacity),
            updates: UpdateQueue::new(),
            webhook: None,
            commands: BTreeMap::new(),
            callback_timeout_ms: i64::try_from(config.callback_answer_timeout.as_millis())
                .unwrap_or(i64::MAX),
            users: HashMap::new(),
            chats: HashMap::new(),
            callbacks: HashMap::new(),
            files: HashMap::new(),
            next_user_id: 100_000_001,
            next_group_id: 4_000_000_001,
            next_callback: 4_382_000_000_000_000_001,
        }
    }

    // ----- control operations -----

    /// Creates a user and their private chat.
    pub(crate) fn create_user(&mut self, new: NewUser) -> Result<UserInfo, SimError> {
        let id = match new.id {
            Some(id) => id,
            None => {
                while self.chats.contains_key(&self.next_user_id) {
                    self.next_user_id += 1;
                }
                self.next_user_id
            }
        };
        if id <= 0 || self.chats.contains_key(&id) || id == self.bot.user.id {
            return Err(SimError::IdTaken(id));
        }
        let first_name = if new.first_name.is_empty() {
            format!("User{id}")
        } else {
            new.first_name
        };
        let user = User {
            id,
            is_bot: false,
            first_name,
            last_name: new.last_name,
            username: new.username,
            language_code: new.language_code,
        };
        let chat = Chat {
            id,
            kind: ChatType::Private,
            title: None,
            username: user.username.clone(),
            first_name: Some(user.first_name.clone()),
            last_name: user.last_name.clone(),
        };
        self.chats.insert(id, ChatRecord::new(chat));
        let info = UserInfo {
            user,
            state: new.state,
        };
        self.users.insert(id, info.clone());
        Ok(info)
    }

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

    /// All users.
    pub(crate) fn users(&self) -> Vec<UserInfo> {
        let mut users: Vec<UserInfo> = self.users.values().cloned().collect();
        users.sort_by_key(|u| u.user.id);
        users
    }

    /// All chats.
    pub(crate) fn chats(&self) -> Vec<ChatInfo> {
        let mut chats: Vec<ChatInfo> = self.chats.values().map(ChatRecord::info).collect();
        chats.sort_by_key(|c| c.chat.id);
        chats
    }

    /// Changes a user's state. Blocking sends the bot a `my_chat_member` update (member → kicked),
    /// unblocking one the other way round.
    pub(crate) fn set_user_state(
        &mut self,
        user_id: i64,
        state: UserState,
    ) -> Result<(), SimError> {
        let info = self
            .users
            .get_mut(&user_id)
            .ok_or(SimError::UnknownUser(user_id))?;
        let old = std::mem::replace(&mut info.state, state);
        let user = info.user.clone();
        let (from, to) = match (old, state) {
            (UserState::Started, UserState::Blocked) => {
                (MemberStatus::Member, MemberStatus::Kicked)
            }
            (UserState::Blocked, UserState::Started) => {
                (MemberStatus::Kicked, MemberStatus::Member)
            }
            _ => return Ok(()),
        };
        let chat = self.chat(user_id)?.chat.clone();
        self.push_membership_update(chat, user, from, to);
        Ok(())
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

    /// A user forwards a message into a chat (as the client does, without a comment: a comment
    /// is a message of its own, sent just before); the bot gets a `message` update with
    /// `forward_origin` and the forwarded text, or the file with its caption.
    pub(crate) fn inject_forward(
        &mut self,
        chat_id: i64,
        user_id: i64,
        forward: Forward,
    ) -> Result<Message, SimError> {
        self.check_user_may_write(chat_id, user_id, None)?;
        let now = self.clock.unix();
        check_origin(&forward.origin, now)?;
        let mut message = StoredMessage {
            forward_origin: Some(forward.origin),
            ..self.new_message(chat_id, Sender::User(user_id), now)
        };
        match (forward.text, forward.file_name) {
            (Some(text), None) if forward.caption.is_none() => {
                let (text, entities) = text::finalize(&text, Vec::new());
                if text.is_empty() || text::utf16_len(&text) > text::MAX_TEXT_LEN {
                    return Err(SimError::InvalidState(format!(
                        "a forwarded text has 1-{} characters",
                        text::MAX_TEXT_LEN
                    )));
                }
                message.text = Some(text);
                message.entities = entities;
            }
            (None, Some(file_name)) if !file_name.trim().is_empty() => {
                if let Some(caption) = forward.caption {
                    let (caption, entities) = text::finalize(&caption, Vec::new());
                    if text::utf16_len(&caption) > MAX_CAPTION_LEN {
                        return Err(SimError::InvalidState(format!(
                            "a caption has at most {MAX_CAPTION_LEN} characters"
                        )));
                    }
                    message.entities = entities;
                    message.caption = Some(caption).filter(|c| !c.is_empty());
                }
                let n = self.files.len() + 1;
                let document = Document {
                    file_id: format!("BQACAgIAAxkBAAI{n:08}sim"),
                    file_unique_id: format!("AgAD{n:06}"),
                    file_name: Some(file_name),
                    mime_type: None,
                    file_size: None,
                };
                self.files.insert(
                    document.file_id.clone(),
                    StoredFile {
                        document: document.clone(),
                        bytes: Vec::new(),
                    },
                );
                message.document = Some(document);
            }
            _ => {
                return Err(SimError::InvalidState(
                    "a forward carries a text, or a file_name with an optional caption".into(),
                ));
            }
        }
        Ok(self.user_sends(chat_id, user_id, message))
    }

    /// Whether the user may write in the chat now (replying to `reply_to`, if given).
    fn check_user_may_write(
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
    fn user_sends(&mut self, chat_id: i64, user_id: i64, message: StoredMessage) -> Message {
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

    /// The chat as its user sees it.
    pub(crate) fn transcript(&self, chat_id: i64) -> Result<Vec<TranscriptEntry>, SimError> {
        let record = self.chat(chat_id)?;
        Ok(record
            .messages
            .values()
            .map(|m| TranscriptEntry {
                message_id: m.id,
                date: m.date,
                from_bot: m.sender == Sender::Bot,
                user_id: match m.sender {
                    Sender::User(id) => Some(id),
                    Sender::Bot => None,
                },
                text: m.text.clone(),
                entities: m.entities.clone(),
                buttons: m
                    .markup
                    .iter()
                    .flat_map(|k| &k.inline_keyboard)
                    .map(|row| {
                        row.iter()
                            .map(|b| ButtonView {
                                text: b.text.clone(),
                                callback_data: b.callback_data.clone(),
                                url: b.url.clone(),
                            })
                            .collect()
                    })
                    .collect(),
                edited: m.edit_date.is_some(),
                reply_to: m.reply_to,
                service: m
                    .migrate_to
                    .map(|id| format!("migrated to supergroup {id}"))
                    .or_else(|| m.migrate_from.map(|id| format!("migrated from group {id}"))),
                document: m.document.clone(),
                caption: m.caption.clone(),
                location: m.location,
                reply_keyboard: m.reply_keyboard.clone(),
                forward_origin: m.forward_origin.clone(),
            })
            .collect())
    }

    // ----- bot operations -----

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

    /// True for groups and supergroups.
    pub(crate) fn is_group(&self, chat_id: i64) -> bool {
        self.chats.get(&chat_id).is_some_and(ChatRecord::is_group)
    }

    /// True when the chat has this message.
    pub(crate) fn has_message(&self, chat_id: i64, message_id: i64) -> bool {
        self.chats
            .get(&chat_id)
            .is_some_and(|c| c.messages.contains_key(&message_id))
    }

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

    /// Stores a document from the bot (with its caption) and keeps the file under a fresh
    /// `file_id`; returns the message as the Bot API shows it.
    pub(crate) fn bot_sends_document(
        &mut self,
        chat_id: i64,
        upload: Upload,
        caption: Option<(String, Vec<MessageEntity>)>,
        markup: Markup,
        reply_to: Option<i64>,
    ) -> Message {
        let document = match upload {
            Upload::Existing(document) => document,
            Upload::New {
                file_name,
                mime_type,
                bytes,
            } => {
                let n = self.files.len() + 1;
                let document = Document {
                    file_id: format!("BQACAgIAAxkDAAI{n:08}sim"),
                    file_unique_id: format!("AgAD{n:06}"),
                    file_name: Some(file_name),
                    mime_type: Some(mime_type),
                    file_size: Some(bytes.len() as u64),
                };
                self.files.insert(
                    document.file_id.clone(),
                    StoredFile {
                        document: document.clone(),
                        bytes,
                    },
                );
                document
            }
        };
        let now = self.clock.unix();
        let (caption, entities) = caption.map_or((None, Vec::new()), |(c, e)| (Some(c), e));
        let message = StoredMessage {
            document: Some(document),
            caption,
            entities,
            markup: markup.inline,
            reply_keyboard: markup.reply,
            reply_to,
            ..self.new_message(chat_id, Sender::Bot, now)
        };
        self.store(chat_id, message)
    }

    /// A file the bot uploaded, by its `file_id`.
    pub(crate) fn file(&self, file_id: &str) -> Option<&StoredFile> {
        self.files.get(file_id)
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

    /// The user's language code, for command menus.
    pub(crate) fn language_of(&self, user_id: i64) -> Option<String> {
        self.users
            .get(&user_id)
            .and_then(|u| u.user.language_code.clone())
    }

    // ----- helpers -----

    fn chat(&self, chat_id: i64) -> Result<&ChatRecord, SimError> {
        self.chats
            .get(&chat_id)
            .ok_or(SimError::UnknownChat(chat_id))
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

    /// The user who performs an admin action: the given one, or Telegram's service account.
    fn actor(&self, by: Option<i64>) -> Result<User, SimError> {
        match by {
            Some(id) => self
                .users
                .get(&id)
                .map(|u| u.user.clone())
                .ok_or(SimError::UnknownUser(id)),
            None => Ok(User {
                id: SERVICE_USER_ID,
                is_bot: false,
                first_name: "Telegram".into(),
                last_name: None,
                username: None,
                language_code: None,
            }),
        }
    }

    fn push_membership_update(
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

    /// An empty message with the chat's next id.
    fn new_message(&mut self, chat_id: i64, sender: Sender, date: i64) -> StoredMessage {
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

    fn store(&mut self, chat_id: i64, message: StoredMessage) -> Message {
        let id = message.id;
        self.chats
            .get_mut(&chat_id)
            .expect("messages are stored in existing chats")
            .messages
            .insert(id, message);
        let record = &self.chats[&chat_id];
        self.render(record, &record.messages[&id], false)
    }

    fn render(&self, chat: &ChatRecord, m: &StoredMessage, nested: bool) -> Message {
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

/// What a send attaches besides its content: an inline keyboard, or a reply keyboard (shown or
/// removed); force-reply attaches neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Markup {
    /// Buttons under the message.
    pub inline: Option<InlineKeyboardMarkup>,
    /// A keyboard in place of the user's.
    pub reply: Option<ReplyKeyboardView>,
}

/// The file of a sendDocument call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Upload {
    /// A file sent before, by its `file_id`.
    Existing(Document),
    /// A new file, uploaded with the request.
    New {
        /// The name it was uploaded with.
        file_name: String,
        /// Its MIME type, given or detected.
        mime_type: String,
        /// Its bytes.
        bytes: Vec<u8>,
    },
}

/// A stable `chat_instance` for callback queries from a chat.
fn chat_instance(chat_id: i64) -> String {
    let mixed = (chat_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as i64;
    mixed.to_string()
}
