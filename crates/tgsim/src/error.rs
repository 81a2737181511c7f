//! Errors: the Bot API error answers (with Telegram's exact descriptions) and the simulator's own
//! errors for control operations.

use serde::{Deserialize, Serialize};

use super::types::ResponseParameters;

/// Telegram's error descriptions, byte for byte (see `shared/reference/telegram-bot-api.md` §3).
/// They live in one place so that the fixture test can check them all.
pub mod descriptions {
    /// 401 for a token the simulator does not know.
    pub const UNAUTHORIZED: &str = "Unauthorized";
    /// 404 for an unknown method or a malformed path.
    pub const NOT_FOUND: &str = "Not Found";
    /// 403 when the user blocked the bot.
    pub const BOT_BLOCKED: &str = "Forbidden: bot was blocked by the user";
    /// 403 when the user never pressed /start.
    pub const CANT_INITIATE: &str = "Forbidden: bot can't initiate conversation with a user";
    /// 403 when the user deleted their account.
    pub const USER_DEACTIVATED: &str = "Forbidden: user is deactivated";
    /// 403 when the bot was removed from a basic group.
    pub const KICKED_FROM_GROUP: &str = "Forbidden: bot was kicked from the group chat";
    /// 403 when the bot was removed from a supergroup.
    pub const KICKED_FROM_SUPERGROUP: &str = "Forbidden: bot was kicked from the supergroup chat";
    /// 403 when the bot left a basic group.
    pub const NOT_MEMBER_OF_GROUP: &str = "Forbidden: bot is not a member of the group chat";
    /// 403 when the bot left a supergroup.
    pub const NOT_MEMBER_OF_SUPERGROUP: &str =
        "Forbidden: bot is not a member of the supergroup chat";
    /// 400 for a chat the simulator does not know.
    pub const CHAT_NOT_FOUND: &str = "Bad Request: chat not found";
    /// 400 for a basic group that became a supergroup (with `migrate_to_chat_id`).
    pub const GROUP_UPGRADED: &str = "Bad Request: group chat was upgraded to a supergroup chat";
    /// 400 for a text longer than 4096 characters (sendMessage).
    pub const MESSAGE_TOO_LONG: &str = "Bad Request: message is too long";
    /// 400 for a text longer than 4096 characters (editMessageText; as Telegram answers edits).
    pub const EDITED_MESSAGE_TOO_LONG: &str = "Bad Request: MESSAGE_TOO_LONG";
    /// 400 for an empty text.
    pub const MESSAGE_TEXT_EMPTY: &str = "Bad Request: message text is empty";
    /// Prefix of the 400 answer for bad markup; the parser's detail follows.
    pub const CANT_PARSE_ENTITIES: &str = "Bad Request: can't parse entities: ";
    /// 400 for an edit that changes nothing.
    pub const MESSAGE_NOT_MODIFIED: &str = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
    /// 400 for an edit of a message that does not exist.
    pub const MESSAGE_TO_EDIT_NOT_FOUND: &str = "Bad Request: message to edit not found";
    /// 400 for an edit of a message the bot may not edit (e.g. the user's own).
    pub const MESSAGE_CANT_BE_EDITED: &str = "Bad Request: message can't be edited";
    /// 400 for a delete of a message that does not exist.
    pub const MESSAGE_TO_DELETE_NOT_FOUND: &str = "Bad Request: message to delete not found";
    /// 400 for an edit without `message_id`.
    pub const MESSAGE_ID_MISSING: &str = "Bad Request: message identifier is not specified";
    /// 400 for a reply to a message that does not exist.
    pub const REPLY_NOT_FOUND: &str = "Bad Request: message to be replied not found";
    /// 400 for an unknown, already answered or expired callback query.
    pub const QUERY_TOO_OLD: &str =
        "Bad Request: query is too old and response timeout expired or query id is invalid";
    /// 400 for `callback_data` outside 1–64 bytes.
    pub const BUTTON_DATA_INVALID: &str = "Bad Request: BUTTON_DATA_INVALID";
    /// 400 for a button URL that is not an http(s)/tg URL.
    pub const BUTTON_URL_INVALID: &str = "Bad Request: BUTTON_URL_INVALID";
    /// 400 for an inline button without any action.
    pub const TEXT_BUTTONS_UNALLOWED: &str = "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard";
    /// 400 for a `reply_markup` that is not one of the four markup objects.
    pub const BAD_REPLY_MARKUP: &str = "Bad Request: can't parse reply keyboard markup JSON object";
    /// 400 for a `user_id` the simulator does not know (getChatMember).
    pub const USER_NOT_FOUND: &str = "Bad Request: user not found";
    /// 400 for a `user_id` that is missing or not a number (getChatMember).
    pub const USER_ID_INVALID: &str = "Bad Request: invalid user_id specified";
    /// 400 for a `chat_id` that is missing.
    pub const CHAT_ID_EMPTY: &str = "Bad Request: chat_id is empty";
    /// 409 when a second getUpdates overtakes a waiting one.
    pub const TERMINATED_BY_OTHER_GET_UPDATES: &str = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
    /// 409 for getUpdates while a webhook is set.
    pub const WEBHOOK_ACTIVE: &str = "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
    /// 400 for a malformed command in setMyCommands.
    pub const BOT_COMMAND_INVALID: &str = "Bad Request: BOT_COMMAND_INVALID";
    /// 400 for a command description outside 1–256 characters.
    pub const BOT_COMMAND_DESCRIPTION_INVALID: &str =
        "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID";
    /// 400 for a `menu_button` that is not JSON (setChatMenuButton).
    pub const BAD_MENU_BUTTON_JSON: &str = "Bad Request: can't parse menu button JSON object";
    /// Prefix of the 400 answer for a `menu_button` of the wrong shape; the detail follows.
    pub const CANT_PARSE_MENU_BUTTON: &str = "Bad Request: can't parse menu button: ";
    /// 400 for a Web App menu button with an empty label.
    pub const MENU_BUTTON_TEXT_EMPTY: &str = "Bad Request: menu button text must be non-empty";
    /// 400 for a menu button `chat_id` that is not a private chat's (a positive user id).
    pub const CHAT_ID_INVALID: &str = "Bad Request: invalid chat_id specified";
    /// 400 for a `web_app` inline button outside a private chat.
    pub const BUTTON_TYPE_INVALID: &str = "Bad Request: BUTTON_TYPE_INVALID";
    /// 400 for a malformed `scope`.
    pub const BAD_COMMAND_SCOPE: &str = "Bad Request: can't parse BotCommandScope JSON object";
    /// 400 for a callback answer text over 200 characters (not verified against Telegram).
    pub const ANSWER_TEXT_TOO_LONG: &str = "Bad Request: MESSAGE_TOO_LONG";
    /// 400 for a `parse_mode` the simulator does not implement.
    pub const UNSUPPORTED_PARSE_MODE: &str = "Bad Request: unsupported parse_mode";
    /// 400 for a webhook secret with characters outside `A-Z a-z 0-9 _ -` or a bad length.
    pub const BAD_SECRET_TOKEN: &str =
        "Bad Request: bad webhook: secret token contains unallowed characters";
    /// 400 for a webhook URL that is not HTTPS (strict mode only).
    pub const WEBHOOK_NEEDS_HTTPS: &str =
        "Bad Request: bad webhook: HTTPS url must be provided for webhook";
    /// 400 for a webhook on a port Telegram does not call (strict mode only).
    pub const WEBHOOK_BAD_PORT: &str =
        "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443";
    /// 400 for a webhook URL that cannot be parsed.
    pub const WEBHOOK_BAD_URL: &str =
        "Bad Request: bad webhook: Failed to resolve host: Name or service not known";
    /// 400 for `max_connections` outside 1–100.
    pub const WEBHOOK_BAD_MAX_CONNECTIONS: &str =
        "Bad Request: bad webhook: max_connections must be between 1 and 100";
    /// 400 for editMessageText on a message without text (a document).
    pub const NO_TEXT_TO_EDIT: &str = "Bad Request: there is no text in the message to edit";
    /// 400 for sendDocument without a `document`.
    pub const NO_DOCUMENT: &str = "Bad Request: there is no document in the request";
    /// 400 for an uploaded file of no bytes.
    pub const FILE_EMPTY: &str = "Bad Request: file must be non-empty";
    /// 400 for a `document` string that names no file the bot sent and is no URL.
    pub const WRONG_FILE_ID: &str = "Bad Request: wrong file identifier/HTTP URL specified";
    /// 400 for a `document` URL, which the simulator (offline) cannot fetch.
    pub const URL_UNREACHABLE: &str = "Bad Request: failed to get HTTP URL content";
    /// 400 for a caption over 1024 characters.
    pub const CAPTION_TOO_LONG: &str = "Bad Request: message caption is too long";
    /// 400 for a send with `allow_paid_broadcast` that the bot cannot pay for (its Stars balance
    /// is short) or may not make (not eligible for paid broadcasts). A guess: the Bot API
    /// documents no error for either, so this is the MTProto error Telegram lists for a Stars
    /// balance too low to pay (`BALANCE_TOO_LOW`, e.g. on messages.sendPaidReaction), in the
    /// form the Bot API gives MTProto errors ("Bad Request: BUTTON_DATA_INVALID").
    pub const BALANCE_TOO_LOW: &str = "Bad Request: BALANCE_TOO_LOW";
}

/// An error answer of the Bot API, as Telegram sends it: `error_code` (also the HTTP status),
/// `description` and optional `parameters`. Serialises in Telegram's field order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{error_code} {description}")]
pub struct ApiError {
    /// The HTTP status and `error_code`.
    pub error_code: u16,
    /// The exact description text.
    pub description: String,
    /// `retry_after` or `migrate_to_chat_id`, when Telegram sends them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<ResponseParameters>,
}

impl ApiError {
    /// An answer with the given code and exact description.
    pub fn new(error_code: u16, description: impl Into<String>) -> Self {
        Self {
            error_code,
            description: description.into(),
            parameters: None,
        }
    }

    /// A 400 answer; `description` must already carry the "Bad Request: " prefix.
    pub fn bad_request(description: impl Into<String>) -> Self {
        Self::new(400, description)
    }

    /// A 403 answer; `description` must already carry the "Forbidden: " prefix.
    pub fn forbidden(description: impl Into<String>) -> Self {
        Self::new(403, description)
    }

    /// 401 "Unauthorized": the token is wrong.
    pub fn unauthorized() -> Self {
        Self::new(401, descriptions::UNAUTHORIZED)
    }

    /// 404 "Not Found": no such method.
    pub fn not_found() -> Self {
        Self::new(404, descriptions::NOT_FOUND)
    }

    /// 429 "Too Many Requests: retry after N", with `parameters.retry_after` unless
    /// `with_parameters` is false (the variant some fakes and proxies send).
    pub fn too_many_requests(retry_after: u32, with_parameters: bool) -> Self {
        Self {
            error_code: 429,
            description: format!("Too Many Requests: retry after {retry_after}"),
            parameters: with_parameters.then_some(ResponseParameters {
                retry_after: Some(retry_after),
                migrate_to_chat_id: None,
            }),
        }
    }

    /// 400 "group chat was upgraded to a supergroup chat" with `parameters.migrate_to_chat_id`.
    pub fn migrated(new_chat_id: i64) -> Self {
        Self {
            error_code: 400,
            description: descriptions::GROUP_UPGRADED.to_owned(),
            parameters: Some(ResponseParameters {
                retry_after: None,
                migrate_to_chat_id: Some(new_chat_id),
            }),
        }
    }

    /// 400 "can't parse entities: <detail>".
    pub fn cant_parse_entities(detail: impl std::fmt::Display) -> Self {
        Self::bad_request(format!("{}{detail}", descriptions::CANT_PARSE_ENTITIES))
    }

    /// A 5xx answer with the status's reason phrase as description.
    pub fn server_error(status: u16) -> Self {
        let reason = axum::http::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Internal Server Error");
        Self::new(status, reason)
    }
}

/// Errors of the simulator's control operations (the typed handle and `/__sim`).
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The token does not look like `<bot id>:<secret>`.
    #[error("the bot token must look like <numeric bot id>:<secret>")]
    BadToken,
    /// No user with this id.
    #[error("no user with id {0}")]
    UnknownUser(i64),
    /// No chat with this id.
    #[error("no chat with id {0}")]
    UnknownChat(i64),
    /// No message with this id in the chat.
    #[error("no message {message_id} in chat {chat_id}")]
    UnknownMessage {
        /// The chat.
        chat_id: i64,
        /// The missing message.
        message_id: i64,
    },
    /// An id that is already taken.
    #[error("id {0} is already taken")]
    IdTaken(i64),
    /// No button with this callback data (or text) on the message.
    #[error("message {message_id} has no button {button:?}")]
    NoSuchButton {
        /// The message.
        message_id: i64,
        /// The callback data or text that was looked for.
        button: String,
    },
    /// The operation is impossible in the current state (e.g. a blocked user sends a message).
    #[error("{0}")]
    InvalidState(String),
    /// A wait ran out before its condition held.
    #[error("timed out after {0:?} waiting for the simulator")]
    Timeout(std::time::Duration),
    /// Binding the listener failed.
    #[error("cannot listen: {0}")]
    Io(#[from] std::io::Error),
}
