//! `Simulator::start` and the `SimHandle` it returns: the server's address and token, and typed
//! control operations for tests (the same operations as the `/__sim` routes, without JSON).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tracing::Instrument;

use super::clock::{ClockMode, ClockReading};
use super::config::SimConfig;
use super::delivery;
use super::error::SimError;
use super::faults::{ActiveFault, FaultRule};
use super::limits::LimitsConfig;
use super::methods::{resolve_commands, resolve_menu_button};
use super::paid::{PaidBroadcastState, PaidBroadcastUpdate};
use super::server;
use super::state::Shared;
use super::stats::{CallRecord, Counters};
use super::types::{BotCommand, MenuButton, Message, Update};
use super::world::{
    BotMembership, CallbackStatus, ChatInfo, Forward, MemberStatus, NewGroup, NewUser, StoredFile,
    TranscriptEntry, UserInfo, UserState, World,
};

/// Starts simulators.
#[derive(Debug)]
pub struct Simulator;

impl Simulator {
    /// Binds `config.addr` (port 0 picks a free port), starts serving and returns the handle.
    pub async fn start(config: SimConfig) -> Result<SimHandle, SimError> {
        let bot_id = config
            .token
            .split_once(':')
            .and_then(|(id, secret)| {
                (!secret.is_empty())
                    .then(|| id.parse::<i64>().ok())
                    .flatten()
            })
            .filter(|id| *id > 0)
            .ok_or(SimError::BadToken)?;
        let listener = TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        let world = World::new(&config, bot_id);
        let shared = Arc::new(Shared::new(
            config.token.clone(),
            config.webhook.clone(),
            world,
        ));
        let span = tracing::info_span!("sim", %addr);
        let server =
            tokio::spawn(server::serve(listener, Arc::clone(&shared)).instrument(span.clone()));
        let delivery = tokio::spawn(delivery::run(Arc::clone(&shared)).instrument(span));
        tracing::info!(%addr, "Bot API simulator listening");
        Ok(SimHandle {
            shared,
            addr,
            tasks: vec![server, delivery],
        })
    }
}

/// A running simulator. Dropping it stops the server; `shutdown` also waits for it.
#[derive(Debug)]
pub struct SimHandle {
    shared: Arc<Shared>,
    addr: SocketAddr,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for SimHandle {
    fn drop(&mut self) {
        self.shared.shutdown.cancel();
    }
}

impl SimHandle {
    /// The listening address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Base URL, `http://host:port`: the value for `TELOXIDE_API_URL` / `Bot::set_api_url`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Method prefix for raw HTTP clients, `http://host:port/bot<token>`; append `/<method>`.
    pub fn api_url(&self) -> String {
        format!("{}/bot{}", self.url(), self.shared.token)
    }

    /// Base URL of the control API, `http://host:port/__sim`.
    pub fn control_url(&self) -> String {
        format!("{}/__sim", self.url())
    }

    /// The bot token the simulator accepts.
    pub fn token(&self) -> &str {
        &self.shared.token
    }

    /// The bot's user id (the number before `:` in the token).
    pub fn bot_id(&self) -> i64 {
        self.shared.read(|w| w.bot.user.id)
    }

    /// Stops serving and waits for the server and webhook tasks to end.
    pub async fn shutdown(mut self) {
        self.shared.shutdown.cancel();
        for task in self.tasks.drain(..) {
            if let Err(error) = task.await {
                tracing::warn!(%error, "simulator task failed");
            }
        }
    }

    // ----- people and chats -----

    /// Creates a user (and their private chat, whose id is the user's id).
    pub fn create_user(&self, new: NewUser) -> Result<UserInfo, SimError> {
        self.shared.with(|w| w.create_user(new))
    }

    /// Creates a group or supergroup with the bot as a member.
    pub fn create_group(&self, new: NewGroup) -> Result<ChatInfo, SimError> {
        self.shared.with(|w| w.create_group(new))
    }

    /// All users.
    pub fn users(&self) -> Vec<UserInfo> {
        self.shared.read(World::users)
    }

    /// All chats.
    pub fn chats(&self) -> Vec<ChatInfo> {
        self.shared.read(World::chats)
    }

    /// Changes a user's state; blocking and unblocking send the bot a `my_chat_member` update.
    pub fn set_user_state(&self, user_id: i64, state: UserState) -> Result<(), SimError> {
        self.shared.with(|w| w.set_user_state(user_id, state))
    }

    /// Changes the bot's membership in a group (by `by_user`, else Telegram's service account);
    /// the bot gets a `my_chat_member` update.
    pub fn set_membership(
        &self,
        chat_id: i64,
        membership: BotMembership,
        by_user: Option<i64>,
    ) -> Result<(), SimError> {
        self.shared
            .with(|w| w.set_membership(chat_id, membership, by_user))
    }

    /// Sets a user's status in a group (creator, administrator, member, left, kicked), as
    /// getChatMember will report it. Making a user the creator demotes the previous one to
    /// administrator.
    pub fn set_member_status(
        &self,
        chat_id: i64,
        user_id: i64,
        status: MemberStatus,
    ) -> Result<(), SimError> {
        self.shared
            .with(|w| w.set_member_status(chat_id, user_id, status))
    }

    /// Upgrades a basic group to a supergroup; returns the new chat id.
    pub fn upgrade_group(&self, chat_id: i64, by_user: Option<i64>) -> Result<i64, SimError> {
        self.shared.with(|w| w.upgrade_group(chat_id, by_user))
    }

    // ----- acting as users -----

    /// The user writes `text` (a message or a command such as "/start") in their private chat.
    pub fn user_says(&self, user_id: i64, text: &str) -> Result<Message, SimError> {
        self.shared
            .with(|w| w.inject_message(user_id, user_id, text, None))
    }

    /// The user writes `text` in a chat, optionally replying to a message.
    pub fn user_says_in(
        &self,
        chat_id: i64,
        user_id: i64,
        text: &str,
        reply_to: Option<i64>,
    ) -> Result<Message, SimError> {
        self.shared
            .with(|w| w.inject_message(chat_id, user_id, text, reply_to))
    }

    /// The user shares a location in their private chat (as tapping a `request_location` button
    /// does); the bot gets a message with `location`.
    pub fn user_shares_location(
        &self,
        user_id: i64,
        latitude: f64,
        longitude: f64,
    ) -> Result<Message, SimError> {
        self.shared
            .with(|w| w.inject_location(user_id, user_id, latitude, longitude))
    }

    /// The user shares a location in a chat (a group, or their private chat).
    pub fn user_shares_location_in(
        &self,
        chat_id: i64,
        user_id: i64,
        latitude: f64,
        longitude: f64,
    ) -> Result<Message, SimError> {
        self.shared
            .with(|w| w.inject_location(chat_id, user_id, latitude, longitude))
    }

    /// The user forwards a message into their private chat; the bot gets a `message` with
    /// `forward_origin` (Bot API 7.0: the origin's `type`, its `date` and who sent it).
    pub fn user_forwards(&self, user_id: i64, forward: Forward) -> Result<Message, SimError> {
        self.shared
            .with(|w| w.inject_forward(user_id, user_id, forward))
    }

    /// The user forwards a message into a chat (a group, or their private chat).
    pub fn user_forwards_in(
        &self,
        chat_id: i64,
        user_id: i64,
        forward: Forward,
    ) -> Result<Message, SimError> {
        self.shared
            .with(|w| w.inject_forward(chat_id, user_id, forward))
    }

    /// The user taps the button with this callback data (or label); returns the callback query
    /// id. In private chats `user_id` may be `None`.
    pub fn tap(
        &self,
        chat_id: i64,
        message_id: i64,
        user_id: Option<i64>,
        button: &str,
    ) -> Result<String, SimError> {
        self.shared
            .with(|w| w.tap(chat_id, message_id, user_id, button))
    }

    // ----- what the user sees -----

    /// The chat as its user sees it now (edits applied, deletions gone).
    pub fn transcript(&self, chat_id: i64) -> Result<Vec<TranscriptEntry>, SimError> {
        self.shared.read(|w| w.transcript(chat_id))
    }

    /// Waits until `check` accepts the chat's transcript, for at most `timeout`.
    pub async fn wait_for_transcript(
        &self,
        chat_id: i64,
        timeout: Duration,
        mut check: impl FnMut(&[TranscriptEntry]) -> bool,
    ) -> Result<Vec<TranscriptEntry>, SimError> {
        self.shared
            .wait_for(timeout, |w| match w.transcript(chat_id) {
                Ok(t) if check(&t) => Some(Ok(t)),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            })
            .await?
    }

    /// Waits for the next message from the bot in the chat after `after_message_id`.
    pub async fn wait_for_bot_message(
        &self,
        chat_id: i64,
        after_message_id: i64,
        timeout: Duration,
    ) -> Result<TranscriptEntry, SimError> {
        let transcript = self
            .wait_for_transcript(chat_id, timeout, |t| {
                t.iter()
                    .any(|e| e.from_bot && e.message_id > after_message_id)
            })
            .await?;
        transcript
            .into_iter()
            .find(|e| e.from_bot && e.message_id > after_message_id)
            .ok_or(SimError::Timeout(timeout))
    }

    /// A file the bot uploaded (sendDocument), by its `file_id`: how the Bot API describes it and
    /// its bytes.
    pub fn file(&self, file_id: &str) -> Option<StoredFile> {
        self.shared.read(|w| w.file(file_id).cloned())
    }

    /// A callback query and how it was answered.
    pub fn callback(&self, callback_query_id: &str) -> Option<CallbackStatus> {
        self.shared.read(|w| w.callback(callback_query_id))
    }

    /// Waits until the callback query is answered.
    pub async fn wait_for_answer(
        &self,
        callback_query_id: &str,
        timeout: Duration,
    ) -> Result<CallbackStatus, SimError> {
        self.shared
            .wait_for(timeout, |w| {
                w.callback(callback_query_id).filter(|c| c.answer.is_some())
            })
            .await
    }

    /// The command menu the user sees in the chat (scope and language resolved).
    pub fn commands_for(&self, chat_id: i64, user_id: Option<i64>) -> Vec<BotCommand> {
        self.shared.read(|w| resolve_commands(w, chat_id, user_id))
    }

    /// The menu button a private chat shows (`None`: the button chosen for every chat).
    pub fn menu_button(&self, chat_id: Option<i64>) -> MenuButton {
        self.shared.read(|w| resolve_menu_button(w, chat_id))
    }

    /// The `initData` a Mini App receives when this user opens it now (by the simulator's
    /// clock), signed with the bot's token exactly as Telegram signs it.
    pub fn init_data(&self, user_id: i64) -> Result<String, SimError> {
        let data = self.shared.read(|w| w.init_data(user_id))?;
        Ok(data.sign(&self.shared.token))
    }

    /// getUpdates calls received so far; each counts on arrival, before it waits.
    pub fn polls_started(&self) -> u64 {
        self.shared.read(|w| w.updates.poll_generation)
    }

    /// Waits until at least `n` getUpdates calls have arrived (e.g. "the bot is polling").
    pub async fn wait_for_polls_started(&self, n: u64, timeout: Duration) -> Result<u64, SimError> {
        self.shared
            .wait_for(timeout, |w| {
                (w.updates.poll_generation >= n).then_some(w.updates.poll_generation)
            })
            .await
    }

    /// Updates queued for the bot and not yet confirmed.
    pub fn pending_updates(&self) -> Vec<Update> {
        self.shared.read(|w| w.updates.peek(usize::MAX))
    }

    // ----- observation -----

    /// Logged calls with `seq >= since` (0 for all), oldest first.
    pub fn calls(&self, since: u64) -> Vec<CallRecord> {
        self.shared.read(|w| w.stats.calls(since))
    }

    /// Waits until the call log satisfies `check`.
    pub async fn wait_for_calls(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&[CallRecord]) -> bool,
    ) -> Result<Vec<CallRecord>, SimError> {
        self.shared
            .wait_for(timeout, |w| {
                let calls = w.stats.calls(0);
                check(&calls).then_some(calls)
            })
            .await
    }

    /// The counters.
    pub fn counters(&self) -> Counters {
        self.shared.read(|w| w.stats.counters.clone())
    }

    /// Zeroes the counters (also the Stars charged for paid broadcasts; the balance stays) and
    /// empties the call log.
    pub fn reset_counters(&self) {
        self.shared.with(|w| {
            w.stats.reset();
            w.paid.reset_counts();
        });
    }

    // ----- paid broadcasts -----

    /// The bot's Stars balance, whether it may use paid broadcasts, and what they cost so far.
    pub fn paid_broadcast(&self) -> PaidBroadcastState {
        self.shared.read(|w| w.paid.state())
    }

    /// Sets the bot's Stars balance and/or its eligibility for paid broadcasts.
    pub fn set_paid_broadcast(&self, update: PaidBroadcastUpdate) -> PaidBroadcastState {
        self.shared.with(|w| {
            w.paid.update(update);
            w.paid.state()
        })
    }

    // ----- limits, faults, clock -----

    /// The flood-control settings.
    pub fn limits(&self) -> LimitsConfig {
        self.shared.read(|w| w.limiter.config().clone())
    }

    /// Replaces the flood-control settings (all buckets start full).
    pub fn set_limits(&self, limits: LimitsConfig) {
        self.shared.with(|w| w.limiter.set_config(limits));
    }

    /// Adds a fault rule; returns its id.
    pub fn add_fault(&self, rule: FaultRule) -> u64 {
        self.shared.with(|w| w.faults.add(rule))
    }

    /// Removes a fault rule; false when it was already gone.
    pub fn remove_fault(&self, id: u64) -> bool {
        self.shared.with(|w| w.faults.remove(id))
    }

    /// Removes every fault rule.
    pub fn clear_faults(&self) {
        self.shared.with(|w| w.faults.clear());
    }

    /// The active fault rules.
    pub fn faults(&self) -> Vec<ActiveFault> {
        self.shared.read(|w| w.faults.list())
    }

    /// What the simulator's clock reads.
    pub fn clock(&self) -> ClockReading {
        self.shared.read(|w| w.clock.reading())
    }

    /// Moves the simulator's clock forward (in either mode).
    pub fn advance_clock(&self, by: Duration) {
        self.shared.with(|w| w.clock.advance(by));
    }

    /// Switches between the real and the manual clock, keeping the reading.
    pub fn set_clock_mode(&self, mode: ClockMode) {
        self.shared.with(|w| w.clock.set_mode(mode));
    }
}
