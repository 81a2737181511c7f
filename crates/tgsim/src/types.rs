//! JSON shapes of the Bot API objects the simulator sends and receives, written from the spec
//! (https://core.telegram.org/bots/api), not from teloxide. Optional fields are omitted when empty,
//! as Telegram does.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `ResponseParameters`: extra data of an error answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseParameters {
    /// The group was upgraded; this is the new supergroup id (up to 52 bits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migrate_to_chat_id: Option<i64>,
    /// Seconds to wait before repeating the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u32>,
}

/// `User`: a Telegram user or bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    /// Unique identifier.
    pub id: i64,
    /// True for bots.
    pub is_bot: bool,
    /// First name.
    pub first_name: String,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Username, without `@`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// IETF language tag of the user's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language_code: Option<String>,
}

/// The `getMe` result: the bot's `User` with the fields only `getMe` returns. teloxide's
/// dispatcher refuses to start unless all of them are present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotUser {
    /// The bot as a user.
    #[serde(flatten)]
    pub user: User,
    /// The bot can be invited to groups.
    pub can_join_groups: bool,
    /// Privacy mode is off.
    pub can_read_all_group_messages: bool,
    /// The bot supports inline queries.
    pub supports_inline_queries: bool,
    /// The bot can be connected to a Business account.
    pub can_connect_to_business: bool,
    /// The bot has a main Web App.
    pub has_main_web_app: bool,
}

/// `Chat.type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatType {
    /// One user and the bot.
    Private,
    /// A basic group.
    Group,
    /// A supergroup.
    Supergroup,
    /// A channel.
    Channel,
}

/// `Chat`: the short chat object embedded in messages (fields in Telegram's order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chat {
    /// Unique identifier: users positive, groups negative, supergroups `-100…`.
    pub id: i64,
    /// Title of groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// First name of the other party in a private chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name of the other party in a private chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Username of private chats (and public supergroups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// The chat's kind.
    #[serde(rename = "type")]
    pub kind: ChatType,
}

/// `MessageEntity`: a formatted or detected span; `offset` and `length` in UTF-16 code units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageEntity {
    /// `bold`, `italic`, `text_link`, `bot_command`, …
    #[serde(rename = "type")]
    pub kind: String,
    /// Start, in UTF-16 code units.
    pub offset: usize,
    /// Length, in UTF-16 code units.
    pub length: usize,
    /// Target of a `text_link`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Mentioned user of a `text_mention`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<User>,
    /// Programming language of a `pre`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Emoji id of a `custom_emoji`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_emoji_id: Option<String>,
}

impl MessageEntity {
    /// An entity of `kind` over `offset..offset + length` (UTF-16 units) with no extra fields.
    pub fn new(kind: &str, offset: usize, length: usize) -> Self {
        Self {
            kind: kind.to_owned(),
            offset,
            length,
            url: None,
            user: None,
            language: None,
            custom_emoji_id: None,
        }
    }
}

/// `InlineKeyboardButton`. `url` and `callback_data` are modelled; every other action field
/// (web_app, login_url, switch_inline_query, …) is kept as given in `other`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineKeyboardButton {
    /// Label.
    pub text: String,
    /// URL opened by the button.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Data sent back in a callback query, 1–64 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_data: Option<String>,
    /// Other action fields, passed through unchanged.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// `InlineKeyboardMarkup`: rows of buttons under a message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineKeyboardMarkup {
    /// Rows of buttons.
    pub inline_keyboard: Vec<Vec<InlineKeyboardButton>>,
}

/// `Message`: the fields the simulator produces, in Telegram's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Identifier, increasing within the chat.
    pub message_id: i64,
    /// Sender; the bot for messages the bot sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<User>,
    /// The chat it belongs to.
    pub chat: Chat,
    /// Unix time it was sent.
    pub date: i64,
    /// Where a forwarded message came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward_origin: Option<MessageOrigin>,
    /// Unix time of the last edit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit_date: Option<i64>,
    /// The message it replies to (without its own `reply_to_message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to_message: Option<Box<Message>>,
    /// Text, 0–4096 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Entities of the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entities: Option<Vec<MessageEntity>>,
    /// A general file (sendDocument).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<Document>,
    /// Caption of a document, 0–1024 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    /// Entities of the caption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption_entities: Option<Vec<MessageEntity>>,
    /// A shared location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Inline keyboard attached to the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_markup: Option<InlineKeyboardMarkup>,
    /// Service message: the group moved to this supergroup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migrate_to_chat_id: Option<i64>,
    /// Service message: the supergroup was created from this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migrate_from_chat_id: Option<i64>,
}

/// `MessageOrigin`: where a forwarded message came from, one of the spec's four kinds
/// (`MessageOriginUser`, `MessageOriginHiddenUser`, `MessageOriginChat`, `MessageOriginChannel`),
/// told apart by `type`, each with the Unix time the original was sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MessageOrigin {
    /// A user's message.
    User {
        /// When the original was sent.
        date: i64,
        /// Who sent it.
        sender_user: User,
    },
    /// A message of a user who hides their account in forwards.
    HiddenUser {
        /// When the original was sent.
        date: i64,
        /// The name the user goes by.
        sender_user_name: String,
    },
    /// A message sent on behalf of a chat (a group's anonymous administrator).
    Chat {
        /// When the original was sent.
        date: i64,
        /// The chat it was sent on behalf of.
        sender_chat: Chat,
        /// The anonymous administrator's signature.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        author_signature: Option<String>,
    },
    /// A channel post.
    Channel {
        /// When the original was sent.
        date: i64,
        /// The channel.
        chat: Chat,
        /// The post's id in the channel.
        message_id: i64,
        /// The post author's signature.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        author_signature: Option<String>,
    },
}

impl MessageOrigin {
    /// When the original message was sent (Unix time).
    pub fn date(&self) -> i64 {
        match self {
            Self::User { date, .. }
            | Self::HiddenUser { date, .. }
            | Self::Chat { date, .. }
            | Self::Channel { date, .. } => *date,
        }
    }
}

/// `Location`: a point on the map, as a user shares it (fields in the spec's order).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Location {
    /// Latitude as defined by the sender, −90…90.
    pub latitude: f64,
    /// Longitude as defined by the sender, −180…180.
    pub longitude: f64,
    /// The radius of uncertainty, in meters; 0–1500.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizontal_accuracy: Option<f64>,
}

// Coordinates are checked to be finite when a location is made, so equality is total.
impl Eq for Location {}

/// `Document`: a general file as sendDocument answers it (fields in the spec's order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// Identifier for downloading or reusing the file.
    pub file_id: String,
    /// Identifier that stays the same over time and across bots.
    pub file_unique_id: String,
    /// The file name as the sender gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    /// MIME type, as given or detected from the file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_size: Option<u64>,
}

/// `CallbackQuery`: a tap on an inline button.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallbackQuery {
    /// Identifier to pass to answerCallbackQuery.
    pub id: String,
    /// Who tapped.
    pub from: User,
    /// The message the button belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// Stable identifier of the chat the message is in.
    pub chat_instance: String,
    /// The button's `callback_data`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
}

/// `ChatMember`: one user's status in a chat, in the statuses the simulator models. Serialises as
/// the spec's `ChatMemberOwner`, `ChatMemberAdministrator`, `ChatMemberMember`, `ChatMemberLeft`
/// and `ChatMemberBanned`, with `status` first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ChatMember {
    /// `ChatMemberOwner`: the group's owner.
    Creator {
        /// The member.
        user: User,
        /// The owner's presence in the chat is hidden.
        is_anonymous: bool,
    },
    /// `ChatMemberAdministrator`: an administrator and their rights.
    Administrator(ChatMemberAdministrator),
    /// `ChatMemberMember`: an ordinary member.
    Member {
        /// The member.
        user: User,
    },
    /// `ChatMemberLeft`: not in the chat (left, or never joined).
    Left {
        /// The user.
        user: User,
    },
    /// `ChatMemberBanned`: removed and banned.
    Kicked {
        /// The user.
        user: User,
        /// When the ban ends, 0 = forever.
        until_date: i64,
    },
}

/// `ChatMemberAdministrator` without `status` (the enum's tag), fields in the spec's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMemberAdministrator {
    /// The administrator.
    pub user: User,
    /// The bot may edit this administrator's rights.
    pub can_be_edited: bool,
    /// The administrator's presence in the chat is hidden.
    pub is_anonymous: bool,
    /// Can see the event log, statistics and members; implied by every other right.
    pub can_manage_chat: bool,
    /// Can delete other users' messages.
    pub can_delete_messages: bool,
    /// Can manage video chats.
    pub can_manage_video_chats: bool,
    /// Can restrict, ban and unban members.
    pub can_restrict_members: bool,
    /// Can add administrators.
    pub can_promote_members: bool,
    /// Can change the title, photo and other settings.
    pub can_change_info: bool,
    /// Can invite users.
    pub can_invite_users: bool,
    /// Can post stories to the chat.
    pub can_post_stories: bool,
    /// Can edit other users' stories.
    pub can_edit_stories: bool,
    /// Can delete other users' stories.
    pub can_delete_stories: bool,
    /// Can pin messages.
    pub can_pin_messages: bool,
}

impl ChatMemberAdministrator {
    /// An administrator with the rights a group owner grants by default: everything except
    /// adding administrators and managing stories, not anonymous, not editable by the bot.
    pub fn with_default_rights(user: User) -> Self {
        Self {
            user,
            can_be_edited: false,
            is_anonymous: false,
            can_manage_chat: true,
            can_delete_messages: true,
            can_manage_video_chats: true,
            can_restrict_members: true,
            can_promote_members: false,
            can_change_info: true,
            can_invite_users: true,
            can_post_stories: false,
            can_edit_stories: false,
            can_delete_stories: false,
            can_pin_messages: true,
        }
    }
}

/// `ChatMemberUpdated`: the bot's (or a member's) status changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMemberUpdated {
    /// Where.
    pub chat: Chat,
    /// Who made the change.
    pub from: User,
    /// When.
    pub date: i64,
    /// Status before.
    pub old_chat_member: ChatMember,
    /// Status after.
    pub new_chat_member: ChatMember,
}

/// The payload of an `Update`; serialises as the one field Telegram sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UpdateKind {
    /// A new incoming message.
    Message(Message),
    /// A new version of an incoming message.
    EditedMessage(Message),
    /// A button tap.
    CallbackQuery(CallbackQuery),
    /// The bot's own membership changed (blocked, unblocked, kicked).
    MyChatMember(ChatMemberUpdated),
}

impl UpdateKind {
    /// The field name, as used in `allowed_updates`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Message(_) => "message",
            Self::EditedMessage(_) => "edited_message",
            Self::CallbackQuery(_) => "callback_query",
            Self::MyChatMember(_) => "my_chat_member",
        }
    }
}

/// `Update`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Update {
    /// Sequential identifier.
    pub update_id: i64,
    /// The payload.
    #[serde(flatten)]
    pub kind: UpdateKind,
}

/// `BotCommand`: one entry of the bot's command menu.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotCommand {
    /// 1–32 characters: lowercase letters, digits, underscores.
    pub command: String,
    /// 1–256 characters.
    pub description: String,
}

/// `WebAppInfo`: the Mini App a button opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebAppInfo {
    /// An HTTPS URL of the Mini App.
    pub url: String,
}

/// `MenuButton`: the button next to the message field of a private chat with the bot
/// (`MenuButtonCommands`, `MenuButtonWebApp` or `MenuButtonDefault`, told apart by `type`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MenuButton {
    /// Opens the bot's list of commands.
    Commands,
    /// Opens a Mini App.
    WebApp {
        /// The button's label.
        text: String,
        /// The Mini App it opens.
        web_app: WebAppInfo,
    },
    /// No specific value was set.
    Default,
}

/// `WebhookInfo`: the result of getWebhookInfo.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookInfo {
    /// Webhook URL, empty when none is set.
    pub url: String,
    /// Always false: the simulator takes no certificates.
    pub has_custom_certificate: bool,
    /// Updates waiting for delivery.
    pub pending_update_count: usize,
    /// Unix time of the last failed delivery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error_date: Option<i64>,
    /// Why the last delivery failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error_message: Option<String>,
    /// Maximum simultaneous connections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_connections: Option<u32>,
    /// Update types the webhook receives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_updates: Option<Vec<String>>,
}
