//! Start-up settings of the simulator.

use std::net::SocketAddr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::clock::ClockMode;
use super::limits::LimitsConfig;

/// The bot the simulator pretends to be; `getMe` returns these fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotProfile {
    /// Display name.
    pub first_name: String,
    /// Username without `@`; Telegram requires it to end in "bot".
    pub username: String,
    /// `can_join_groups`.
    pub can_join_groups: bool,
    /// `can_read_all_group_messages` (privacy mode off).
    pub can_read_all_group_messages: bool,
    /// `supports_inline_queries`.
    pub supports_inline_queries: bool,
    /// `can_connect_to_business`.
    pub can_connect_to_business: bool,
    /// `has_main_web_app`.
    pub has_main_web_app: bool,
}

impl Default for BotProfile {
    fn default() -> Self {
        Self {
            first_name: "Remind Bot".to_owned(),
            username: "remindbot_sim_bot".to_owned(),
            can_join_groups: true,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
            can_connect_to_business: false,
            has_main_web_app: false,
        }
    }
}

/// How webhook deliveries behave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookSettings {
    /// Enforce Telegram's rules: HTTPS and ports 80, 88, 443 or 8443. Off by default because the
    /// simulator delivers over plain HTTP to local test servers.
    pub require_https: bool,
    /// Delivery attempts per update before it is dropped.
    pub max_attempts: u32,
    /// Pause after a failed delivery, doubled on each further failure.
    pub retry_delay: Duration,
    /// How long one delivery may take.
    pub request_timeout: Duration,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            require_https: false,
            max_attempts: 5,
            retry_delay: Duration::from_millis(100),
            request_timeout: Duration::from_secs(10),
        }
    }
}

/// Everything `Simulator::start` needs. `SimConfig::default()` listens on a free loopback port with
/// Telegram-like limits and the real clock. `Debug` hides the token.
#[derive(Clone)]
pub struct SimConfig {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// The only token the simulator accepts, `<bot id>:<secret>`; the bot's id is the number.
    pub token: String,
    /// The bot's profile.
    pub bot: BotProfile,
    /// Flood-control settings.
    pub limits: LimitsConfig,
    /// Real or manual clock.
    pub clock: ClockMode,
    /// Seed of the random choices (fault probabilities, latencies), for repeatable runs.
    pub seed: u64,
    /// How long after a tap a callback query can still be answered.
    pub callback_answer_timeout: Duration,
    /// How many calls the call log keeps (oldest dropped first).
    pub call_log_capacity: usize,
    /// Webhook delivery behaviour.
    pub webhook: WebhookSettings,
    /// The id of the first update. Telegram numbers a bot's updates from wherever it last was, and
    /// after a week without updates from a random number, so a bot must not assume where they
    /// start; a simulator in front of a database that outlives it starts after the ids stored
    /// there. Below 2^31 (teloxide keeps offsets in an `i32`).
    pub first_update_id: i64,
    /// The bot's Stars balance at start, in tenths of a Star: what paid broadcasts
    /// (`allow_paid_broadcast`) above the free rate are paid from.
    pub stars_balance_tenths: i64,
    /// Telegram's test environment, where Mini App URLs (`web_app` buttons, the menu button) may
    /// be plain `http://` links, IP addresses included, for a Mini App on a developer's machine;
    /// the production environment takes HTTPS links only.
    pub test_environment: bool,
}

impl std::fmt::Debug for SimConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimConfig")
            .field("addr", &self.addr)
            .field("token", &"[redacted]")
            .field("bot", &self.bot)
            .field("limits", &self.limits)
            .field("clock", &self.clock)
            .field("seed", &self.seed)
            .field("callback_answer_timeout", &self.callback_answer_timeout)
            .field("call_log_capacity", &self.call_log_capacity)
            .field("webhook", &self.webhook)
            .field("first_update_id", &self.first_update_id)
            .field("stars_balance_tenths", &self.stars_balance_tenths)
            .field("test_environment", &self.test_environment)
            .finish()
    }
}

/// The first update id when none is given.
pub const FIRST_UPDATE_ID: i64 = 700_000_001;

/// The token used when none is given.
pub const DEFAULT_TOKEN: &str = "7000000001:AAE-simulated-remindbot-token";

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            token: DEFAULT_TOKEN.to_owned(),
            bot: BotProfile::default(),
            limits: LimitsConfig::default(),
            clock: ClockMode::Real,
            seed: 0x5EED,
            callback_answer_timeout: Duration::from_secs(30),
            call_log_capacity: 100_000,
            webhook: WebhookSettings::default(),
            first_update_id: FIRST_UPDATE_ID,
            stars_balance_tenths: 0,
            test_environment: false,
        }
    }
}

impl SimConfig {
    /// The same settings with flood control switched off.
    #[must_use]
    pub fn without_limits(mut self) -> Self {
        self.limits = LimitsConfig::off();
        self
    }

    /// The same settings with the given flood-control settings.
    #[must_use]
    pub fn with_limits(mut self, limits: LimitsConfig) -> Self {
        self.limits = limits;
        self
    }

    /// The same settings with a clock that moves only when told to.
    #[must_use]
    pub fn with_manual_clock(mut self) -> Self {
        self.clock = ClockMode::Manual;
        self
    }
}
