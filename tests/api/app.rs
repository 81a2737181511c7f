//! The one harness of the chat and delivery tests: [`TestApp`] runs `remindbot run`'s wiring
//! (`remindbot::app::start`: the chat, the delivery workers, the reaper, retention and the HTTP
//! side-car) against a fresh scratch database and a fresh simulator, and acts as users do.
//!
//! [`TestApp::builder`] sets what tests vary: the simulator, the run's settings, the server, and
//! whether to start at once. By default the simulator's limits are off and the bot has its default
//! settings; a test that seeds no reminders has the chat alone, the delivery workers idle.

use std::net::SocketAddr;

use chrono::{DateTime, Utc};
use pgqueue::{Queue, QueueConfig};
use remindbot::app::{self, Running};
use remindbot::bot::intake::IntakeMode;
use remindbot::config::{AdminArgs, BotToken, DeliveryArgs, RunConfig, TelegramArgs};
use remindbot::db::DatabaseArgs;
use remindbot::store::{OUTBOX_QUEUE, outbox_queue};
use secrecy::{ExposeSecret, SecretString};
use sqlx::PgPool;
use teloxide::Bot;
use tgsim::{
    CallbackStatus, LimitsConfig, NewGroup, NewUser, SimConfig, SimHandle, Simulator,
    TranscriptEntry,
};
use tokio::process::Command;

use crate::support::{JobRow, TestDb, WAIT, eventually};

/// A change to the run's settings, applied once the database and the simulator exist.
type Configure = Box<dyn FnOnce(&mut RunConfig) + Send>;

/// What a test varies before its [`TestApp`] exists.
pub struct TestAppBuilder {
    sim: SimConfig,
    server: Option<String>,
    configure: Vec<Configure>,
}

impl TestAppBuilder {
    /// The simulator's settings (default: `SimConfig::default().without_limits()`).
    pub fn simulator(mut self, sim: SimConfig) -> Self {
        self.sim = sim;
        self
    }

    /// The simulator enforces Telegram's flood limits (30/s overall, 1/s per chat, 20/min per
    /// group), as the delivery tests want it.
    pub fn telegram_limits(mut self) -> Self {
        self.sim = self.sim.with_limits(LimitsConfig::default());
        self
    }

    /// Changes the run's settings (the defaults: `TestApp::defaults`); later calls apply
    /// after earlier ones.
    pub fn config(mut self, configure: impl FnOnce(&mut RunConfig) + Send + 'static) -> Self {
        self.configure.push(Box::new(configure));
        self
    }

    /// Creates the database on the PostgreSQL server at `url` instead of the tests' server.
    pub fn server(mut self, url: &str) -> Self {
        self.server = Some(url.to_owned());
        self
    }

    /// The database, the simulator and the settings, with nothing running yet: seed, then
    /// [`TestApp::run`] (or [`TestApp::run_command`] for the built binary).
    pub async fn prepare(self) -> TestApp {
        let db = match &self.server {
            Some(url) => TestDb::on_server(url).await,
            None => TestDb::new().await,
        };
        let sim = Simulator::start(self.sim)
            .await
            .expect("the simulator starts");
        let mut config = TestApp::defaults(db.url(), &sim);
        for configure in self.configure {
            configure(&mut config);
        }
        TestApp {
            running: None,
            config,
            queue: outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE)),
            pool: db.pool.clone(),
            sim,
            db,
        }
    }

    /// Prepares, then runs `remindbot run` in-process; returns once the bot polls.
    pub async fn start(self) -> TestApp {
        let mut app = self.prepare().await;
        app.run().await;
        app
    }
}

/// A scratch database, a simulator and (once [`run`](Self::run)) `remindbot run` on both.
pub struct TestApp {
    /// The running app, if it runs (dropped first: dropping it aborts every subsystem).
    running: Option<Running>,
    /// The settings every [`run`](Self::run) and [`run_command`](Self::run_command) uses.
    config: RunConfig,
    /// The simulator.
    pub sim: SimHandle,
    /// The reminders queue (default settings), for seeding and admin actions.
    pub queue: Queue,
    /// A pool on the database.
    pub pool: PgPool,
    /// Dropped last: dropping it drops the database.
    db: TestDb,
}

impl TestApp {
    /// What a test can vary; `start` or `prepare` it.
    pub fn builder() -> TestAppBuilder {
        TestAppBuilder {
            sim: SimConfig::default().without_limits(),
            server: None,
            configure: Vec::new(),
        }
    }

    /// Starts everything with the defaults: Telegram's limits off, the bot's default settings.
    pub async fn start() -> Self {
        Self::builder().start().await
    }

    /// The run's settings against `database_url` and `sim`: production's defaults, except that
    /// Bot API requests time out after 5 s, a lease lasts 8 s, the reaper passes every second,
    /// shutdown waits at most 5 s for sends in flight, the side-car takes a free port and the
    /// pool has 10 connections.
    fn defaults(database_url: &str, sim: &SimHandle) -> RunConfig {
        RunConfig {
            db: DatabaseArgs {
                database_url: Some(database_url.to_owned()),
            },
            telegram: TelegramArgs {
                token: BotToken::from(SecretString::from(sim.token().to_owned())),
                api_url: Some(sim.url()),
                http_timeout_secs: 5,
            },
            delivery: DeliveryArgs {
                workers: 64,
                rate_per_sec: 25,
                rate_per_chat_per_sec: 1,
                rate_per_group_per_min: 20,
                lease_secs: Some(8),
                max_attempts: 10,
                late_threshold_secs: 300,
                shutdown_deadline_secs: 5,
                reaper_interval_secs: 1,
                keep_finished_hours: 24,
                flood_pause_cap_secs: 60,
                max_document_bytes: remindbot::store::outbox::MAX_DOCUMENT_BYTES,
            },
            bot: remindbot::bot::BotSettings::default(),
            admin: AdminArgs::default(),
            http_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            calendar_feed_rate_per_min: std::num::NonZeroU32::new(6).expect("not zero"),
            listeners: remindbot::http::ListenerLimits::default(),
            miniapp: remindbot::miniapp::MiniAppSettings::default(),
            db_max_connections: 10,
            retention_days: 90,
            intake: remindbot::config::IntakeArgs::default(),
            paid_broadcast: remindbot::config::PaidBroadcastArgs::default(),
        }
    }

    // ----- the app -----

    /// Runs `remindbot run` in-process (`remindbot::app::start`); returns once the bot polls
    /// (or, in webhook mode, has set its webhook).
    pub async fn run(&mut self) {
        assert!(self.running.is_none(), "remindbot run is already running");
        let polls = self.sim.polls_started();
        let calls = self.sim.calls(0).len();
        let running = self.start_when_ports_are_free().await;
        self.running = Some(running);
        if matches!(self.config.intake.mode, IntakeMode::Polling) {
            self.sim
                .wait_for_polls_started(polls + 1, WAIT)
                .await
                .expect("the bot polls");
        } else {
            eventually(WAIT, "the webhook to be set", || async {
                self.sim.calls(0)[calls..]
                    .iter()
                    .any(|c| c.method == "setWebhook" && c.status == 200)
            })
            .await;
        }
    }

    /// Stops the app as SIGTERM would and checks that every subsystem stopped cleanly; the
    /// database and the simulator stay for inspection (and [`run`](Self::run)).
    pub async fn stop(&mut self) {
        let running = self.running.take().expect("remindbot run is running");
        tokio::time::timeout(WAIT, running.stop())
            .await
            .expect("remindbot run stops in time")
            .expect("every subsystem stops cleanly");
    }

    /// Ends the app at once, as a crash would: every subsystem aborted, nothing cleaned up (its
    /// connections close; its claimed jobs wait for the reaper).
    pub fn crash(&mut self) {
        drop(self.running.take().expect("remindbot run is running"));
    }

    /// `app::start` with this app's settings. After [`TestApp::crash`] the old run's listeners
    /// close when the runtime drops its aborted tasks, which a busy machine may do a moment after
    /// the restart begins (a process killed by the kernel frees them at once): binding an address
    /// still in use is tried again for a while, as a service manager restarting it would.
    async fn start_when_ports_are_free(&self) -> Running {
        let started = std::time::Instant::now();
        loop {
            match app::start(self.config.clone()).await {
                Ok(running) => return running,
                Err(error) if address_in_use(&error) && started.elapsed() < WAIT => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                Err(error) => panic!("remindbot run starts: {error:?}"),
            }
        }
    }

    /// Starts another replica of `remindbot run` on the same database and simulator, with the
    /// same settings changed by `configure`.
    pub async fn replica(&self, configure: impl FnOnce(&mut RunConfig)) -> Running {
        let mut config = self.config.clone();
        configure(&mut config);
        app::start(config).await.expect("the replica starts")
    }

    /// Stops the app and runs a new one on the same database and simulator.
    pub async fn restart(&mut self) {
        self.stop().await;
        self.run().await;
    }

    /// The running app: its context, its side-car's address, its subsystems.
    pub fn running(&self) -> &Running {
        self.running.as_ref().expect("remindbot run is running")
    }

    /// Where the running app's side-car serves /healthz, /metrics and /admin.
    pub fn http_addr(&self) -> SocketAddr {
        self.running().http_addr
    }

    /// The built `remindbot run` with these settings in its environment (all but the admin
    /// token, which cannot be read back), logging warnings; killed when dropped. Add or
    /// override variables before spawning it.
    pub fn run_command(&self) -> Command {
        self.command("run")
    }

    /// The built binary's `subcommand` (`run`, `check`) with the environment of
    /// [`TestApp::run_command`].
    pub fn command(&self, subcommand: &str) -> Command {
        let RunConfig {
            telegram,
            delivery,
            bot,
            admin,
            ..
        } = &self.config;
        assert!(
            admin.token.is_none(),
            "a child process cannot be given the admin token"
        );
        let mut env = vec![
            ("DATABASE_URL", self.db.url().to_owned()),
            ("TELOXIDE_TOKEN", telegram.token.expose_secret().to_owned()),
            (
                "TELEGRAM_HTTP_TIMEOUT_SECS",
                telegram.http_timeout_secs.to_string(),
            ),
            ("DELIVERY_WORKERS", delivery.workers.to_string()),
            ("SEND_RATE_PER_SEC", delivery.rate_per_sec.to_string()),
            (
                "SEND_RATE_PER_CHAT_PER_SEC",
                delivery.rate_per_chat_per_sec.to_string(),
            ),
            (
                "SEND_RATE_PER_GROUP_PER_MIN",
                delivery.rate_per_group_per_min.to_string(),
            ),
            ("DELIVERY_MAX_ATTEMPTS", delivery.max_attempts.to_string()),
            (
                "LATE_THRESHOLD_SECS",
                delivery.late_threshold_secs.to_string(),
            ),
            (
                "SHUTDOWN_DEADLINE_SECS",
                delivery.shutdown_deadline_secs.to_string(),
            ),
            (
                "REAPER_INTERVAL_SECS",
                delivery.reaper_interval_secs.to_string(),
            ),
            (
                "KEEP_FINISHED_HOURS",
                delivery.keep_finished_hours.to_string(),
            ),
            (
                "FLOOD_PAUSE_CAP_SECS",
                delivery.flood_pause_cap_secs.to_string(),
            ),
            (
                "BOT_USER_RATE_PER_MIN",
                bot.user_updates_per_minute.to_string(),
            ),
            ("BOT_MAX_OPEN_TASKS", bot.max_open_tasks.to_string()),
            ("HTTP_ADDR", self.config.http_addr.to_string()),
            (
                "HTTP_HEADER_TIMEOUT_SECS",
                self.config.listeners.header_timeout_secs.to_string(),
            ),
            (
                "HTTP_IDLE_TIMEOUT_SECS",
                self.config.listeners.idle_timeout_secs.to_string(),
            ),
            (
                "HTTP_MAX_CONNECTIONS",
                self.config.listeners.max_connections.to_string(),
            ),
            (
                "MINIAPP_INIT_DATA_MAX_AGE_SECS",
                self.config.miniapp.init_data_max_age_secs.to_string(),
            ),
            (
                "DB_MAX_CONNECTIONS",
                self.config.db_max_connections.to_string(),
            ),
            ("RETENTION_DAYS", self.config.retention_days.to_string()),
            ("RUST_LOG", "warn".to_owned()),
        ];
        if let Some(url) = &telegram.api_url {
            env.push(("TELOXIDE_API_URL", url.clone()));
        }
        if let Some(lease) = delivery.lease_secs {
            env.push(("DELIVERY_LEASE_SECS", lease.to_string()));
        }
        if let Some(paid) = self.config.paid_broadcast.settings {
            env.push(("PAID_BROADCAST", "true".to_owned()));
            env.push((
                "PAID_BROADCAST_AFTER_SECS",
                paid.after.as_secs().to_string(),
            ));
            env.push(("PAID_BROADCAST_STARS_PER_DAY", paid.per_day.to_string()));
        }
        if !bot.admin_ids.is_empty() {
            let ids: Vec<String> = bot.admin_ids.iter().map(i64::to_string).collect();
            env.push(("ADMIN_CHAT_IDS", ids.join(",")));
        }
        let mut command = Command::new(env!("CARGO_BIN_EXE_remindbot"));
        command
            .arg(subcommand)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(env)
            .kill_on_drop(true);
        command
    }

    /// The settings every run uses.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// The URL of the test's database.
    pub fn database_url(&self) -> &str {
        self.db.url()
    }

    /// The running app's Bot API client, for tests that forge what the bot could send.
    pub fn bot(&self) -> Bot {
        self.running().context.bot.clone()
    }

    // ----- chat -----

    /// Creates a started user with this Telegram language code; returns their id (= chat id).
    pub fn user(&self, name: &str, language_code: &str) -> i64 {
        self.sim
            .create_user(NewUser::new(name).language(language_code))
            .expect("user is created")
            .user
            .id
    }

    /// Creates a group with the bot in it; returns its chat id.
    pub fn group(&self, title: &str) -> i64 {
        self.sim
            .create_group(NewGroup::new(title))
            .expect("group is created")
            .chat
            .id
    }

    /// The user writes `text` in their private chat; returns the bot's first reply.
    pub async fn say(&self, user: i64, text: &str) -> TranscriptEntry {
        self.say_in(user, user, text).await
    }

    /// The user writes `text` in `chat`; returns the bot's first reply.
    pub async fn say_in(&self, chat: i64, user: i64, text: &str) -> TranscriptEntry {
        self.say_expecting(chat, user, text, 1).await.remove(0)
    }

    /// The user writes `text` in `chat`; returns the bot's first `n` replies.
    pub async fn say_expecting(
        &self,
        chat: i64,
        user: i64,
        text: &str,
        n: usize,
    ) -> Vec<TranscriptEntry> {
        let sent = self
            .sim
            .user_says_in(chat, user, text, None)
            .expect("the message is delivered");
        self.replies_after(chat, sent.message_id, n).await
    }

    /// The first `n` bot messages in `chat` after `message_id`, waiting up to [`WAIT`].
    pub async fn replies_after(
        &self,
        chat: i64,
        message_id: i64,
        n: usize,
    ) -> Vec<TranscriptEntry> {
        let transcript = self
            .sim
            .wait_for_transcript(chat, WAIT, |t| {
                t.iter()
                    .filter(|e| e.from_bot && e.message_id > message_id)
                    .count()
                    >= n
            })
            .await
            .unwrap_or_else(|_| panic!("{n} bot replies in chat {chat} after {message_id}"));
        transcript
            .into_iter()
            .filter(|e| e.from_bot && e.message_id > message_id)
            .take(n)
            .collect()
    }

    /// The first bot message in `chat` after `message_id` whose text contains `needle`, waiting
    /// up to [`WAIT`].
    pub async fn reply_containing(
        &self,
        chat: i64,
        message_id: i64,
        needle: &str,
    ) -> TranscriptEntry {
        let matches = |e: &TranscriptEntry| {
            e.from_bot
                && e.message_id > message_id
                && e.text.as_deref().is_some_and(|t| t.contains(needle))
        };
        let transcript = self
            .sim
            .wait_for_transcript(chat, WAIT, |t| t.iter().any(matches))
            .await
            .unwrap_or_else(|_| {
                panic!("a bot reply with {needle:?} in chat {chat} after {message_id}")
            });
        transcript.into_iter().find(matches).expect("it was there")
    }

    /// Message `message_id` of `chat` once `changed` holds for it (an edit leaves through the
    /// outbox after the tap that asked for it is answered), waiting up to [`WAIT`].
    pub async fn message_once(
        &self,
        chat: i64,
        message_id: i64,
        changed: impl Fn(&TranscriptEntry) -> bool,
    ) -> TranscriptEntry {
        let find = |t: &[TranscriptEntry]| t.iter().find(|e| e.message_id == message_id).cloned();
        let transcript = self
            .sim
            .wait_for_transcript(chat, WAIT, |t| find(t).is_some_and(|e| changed(&e)))
            .await
            .unwrap_or_else(|_| {
                let now = self.sim.transcript(chat).ok().and_then(|t| find(&t));
                panic!("message {message_id} in chat {chat} did not change as expected: {now:?}")
            });
        find(&transcript).expect("the message exists")
    }

    /// The newest message id in `chat`.
    pub fn last_message_id(&self, chat: i64) -> i64 {
        self.sim
            .transcript(chat)
            .expect("the chat exists")
            .last()
            .map_or(0, |e| e.message_id)
    }

    /// `user` taps the button with `data` under message `message_id` in `chat`; returns the
    /// answer to the tap once given.
    pub async fn tap(&self, chat: i64, message_id: i64, user: i64, data: &str) -> CallbackStatus {
        let id = self
            .sim
            .tap(chat, message_id, Some(user), data)
            .expect("the button exists");
        self.sim
            .wait_for_answer(&id, WAIT)
            .await
            .expect("every tap is answered")
    }

    /// Taps, then returns the bot's first reply after the tap.
    pub async fn tap_reply(
        &self,
        chat: i64,
        message_id: i64,
        user: i64,
        data: &str,
    ) -> (CallbackStatus, TranscriptEntry) {
        let before = self.last_message_id(chat);
        let answer = self.tap(chat, message_id, user, data).await;
        let reply = self.replies_after(chat, before, 1).await.remove(0);
        (answer, reply)
    }

    /// SendMessage, editMessageText or answerCallbackQuery calls the simulator refused (bad
    /// HTML, too long, …).
    pub fn refused_sends(&self) -> Vec<String> {
        self.sim
            .calls(0)
            .into_iter()
            .filter(|c| {
                matches!(
                    c.method.as_str(),
                    "sendMessage" | "editMessageText" | "answerCallbackQuery"
                ) && c.status >= 400
            })
            .map(|c| format!("{} {}: {:?}", c.method, c.status, c.description))
            .collect()
    }

    /// The reminder jobs, oldest first ([`crate::support::reminder_jobs`]).
    pub async fn jobs(&self) -> Vec<JobRow> {
        crate::support::reminder_jobs(&self.pool).await
    }

    /// The pending reminder jobs, soonest first ([`crate::support::pending_reminder_jobs`]).
    pub async fn pending_jobs(&self) -> Vec<JobRow> {
        crate::support::pending_reminder_jobs(&self.pool).await
    }

    // ----- delivery -----

    /// Creates `n` started users in the simulator with ids from `first`; returns their ids.
    pub fn users(&self, first: i64, n: i64) -> Vec<i64> {
        (first..first + n)
            .map(|id| {
                self.sim
                    .create_user(NewUser::new("user").id(id))
                    .expect("a new user")
                    .user
                    .id
            })
            .collect()
    }

    /// Seeds one one-off reminder per `(chat, due)` (chats created as needed; negative ids are
    /// groups); returns the task ids in order.
    pub async fn seed(&self, reminders: &[(i64, DateTime<Utc>)]) -> Vec<i64> {
        devtools::bench::delivery::seed(&self.pool, &self.queue, reminders)
            .await
            .expect("seeding reminders")
    }

    /// Waits until `n` reminders are marked sent; panics after `timeout`.
    pub async fn wait_sent(&self, n: i64, timeout: std::time::Duration) {
        eventually(timeout, &format!("{n} reminders sent"), || async {
            let sent: i64 = sqlx::query_scalar("select count(*) from reminders where sent")
                .fetch_one(&self.pool)
                .await
                .expect("a count of sent reminders");
            sent >= n
        })
        .await;
    }

    /// The texts of the messages the bot sent to `chat_id`, by the simulator's transcript.
    pub fn bot_messages(&self, chat_id: i64) -> Vec<String> {
        self.sim
            .transcript(chat_id)
            .unwrap_or_default()
            .into_iter()
            .filter(|m| m.from_bot && m.service.is_none())
            .filter_map(|m| m.text)
            .collect()
    }
}

/// The text of a message.
pub fn text(entry: &TranscriptEntry) -> &str {
    entry.text.as_deref().unwrap_or_default()
}

/// The callback data of every button under a message.
pub fn buttons(entry: &TranscriptEntry) -> Vec<String> {
    entry
        .buttons
        .iter()
        .flatten()
        .filter_map(|b| b.callback_data.clone())
        .collect()
}

/// Whether `error` is a listener's address still being in use.
fn address_in_use(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse)
    })
}
