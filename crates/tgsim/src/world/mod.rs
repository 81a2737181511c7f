//! The simulated Telegram: the bot, users in every state, private chats and groups with their
//! messages, callback queries, command menus, the webhook, plus the clock, limits, faults and
//! statistics. One value behind one lock; every operation is synchronous and short.
//!
//! [`World`] and the lookups every part uses are here; its operations are in one file per concern:
//! - `status`: where each party stands (a user with the bot, the bot in a group, anyone in a group);
//! - `records`: how a chat and its messages are stored;
//! - `people`: creating users and changing their state;
//! - `chats`: creating groups, the bot's membership, upgrades to supergroups;
//! - `members`: statuses in a group, getChatMember, `my_chat_member` updates;
//! - `access`: whether the bot may act in a chat, refused with Telegram's own errors;
//! - `messages`: numbering, storing and rendering messages as the Bot API shows them;
//! - `incoming`: users writing and sharing locations;
//! - `forwards`: users forwarding messages;
//! - `outgoing`: the bot sending, editing and deleting messages;
//! - `documents`: the bot's documents and the files kept by `file_id`;
//! - `keyboards`: inline and reply keyboards;
//! - `callbacks`: button taps and their answers;
//! - `transcript`: a chat as its user sees it.

mod access;
mod callbacks;
mod chats;
mod documents;
mod forwards;
mod incoming;
mod keyboards;
mod members;
mod messages;
mod outgoing;
mod people;
mod records;
mod status;
mod transcript;

use std::collections::{BTreeMap, HashMap};

use crate::clock::Clock;
use crate::config::SimConfig;
use crate::error::SimError;
use crate::faults::Faults;
use crate::limits::Limiter;
use crate::paid::PaidBroadcast;
use crate::stats::Stats;
use crate::types::{BotCommand, BotUser, MenuButton, User};
use crate::updates::UpdateQueue;
use records::ChatRecord;

pub use callbacks::{CallbackAnswer, CallbackStatus};
pub use chats::{ChatInfo, NewGroup};
pub use documents::StoredFile;
pub(crate) use documents::Upload;
pub use forwards::Forward;
pub(crate) use keyboards::Markup;
pub use keyboards::{ButtonView, KeyboardButtonView, ReplyKeyboardView};
pub use people::{NewUser, UserInfo};
pub use status::{BotMembership, MemberStatus, UserState};
pub use transcript::TranscriptEntry;

/// A webhook as set by setWebhook.
#[derive(Clone, Debug)]
pub(crate) struct Webhook {
    pub url: String,
    pub secret_token: Option<String>,
    pub max_connections: u32,
    pub last_error_date: Option<i64>,
    pub last_error_message: Option<String>,
}

/// Id of the service account that kicks the bot or upgrades a group when no user is named.
const SERVICE_USER_ID: i64 = 777_000;

/// The whole simulated state.
#[derive(Debug)]
pub(crate) struct World {
    /// The simulated time every date, bucket and timeout reads.
    pub clock: Clock,
    /// The bot, as getMe reports it.
    pub bot: BotUser,
    /// Flood control.
    pub limiter: Limiter,
    /// The bot's Stars, spent on paid broadcasts.
    pub paid: PaidBroadcast,
    /// Fault rules.
    pub faults: Faults,
    /// Counters, rate meters and the call log.
    pub stats: Stats,
    /// Updates waiting for the bot.
    pub updates: UpdateQueue,
    /// The webhook, while one is set.
    pub webhook: Option<Webhook>,
    /// Command menus by (scope, language code), as setMyCommands left them.
    pub commands: BTreeMap<(String, String), Vec<BotCommand>>,
    /// Menu buttons chosen with setChatMenuButton: for one private chat (`Some(chat id)`) or
    /// for every chat without a choice of its own (`None`). `MenuButtonDefault` is never kept.
    pub menu_buttons: BTreeMap<Option<i64>, MenuButton>,
    /// Telegram's test environment: Mini App URLs may be plain HTTP.
    pub test_environment: bool,
    /// How long after a tap a callback query can still be answered.
    callback_timeout_ms: i64,
    users: HashMap<i64, UserInfo>,
    /// Every chat by id: private chats (the user's id) and groups.
    chats: HashMap<i64, ChatRecord>,
    /// Callback queries by id.
    callbacks: HashMap<String, CallbackStatus>,
    /// Files by `file_id`.
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
            paid: PaidBroadcast::new(config.stars_balance_tenths),
            faults: Faults::new(config.seed),
            stats: Stats::new(config.call_log_capacity),
            updates: UpdateQueue::new(config.first_update_id),
            webhook: None,
            commands: BTreeMap::new(),
            menu_buttons: BTreeMap::new(),
            test_environment: config.test_environment,
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

    /// A chat by id, for control operations: an unknown id is the test's mistake, not an answer
    /// of Telegram's.
    fn chat(&self, chat_id: i64) -> Result<&ChatRecord, SimError> {
        self.chats
            .get(&chat_id)
            .ok_or(SimError::UnknownChat(chat_id))
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
}
