//! A running chat for tests: a fresh database, the simulator, and `remindbot::bot::run` with the
//! real teloxide dispatcher, plus helpers that act as users and read what they would see.

use std::time::Duration;

use chrono::{DateTime, Utc};
use pgqueue::{JobState, QueueConfig};
use remindbot::bot::{self, BotDeps, BotSettings};
use remindbot::store::{REMINDER_QUEUE, ReminderJob, reminder_queue};
use teloxide::Bot;
use tgsim::{CallbackStatus, NewGroup, NewUser, SimConfig, SimHandle, Simulator, TranscriptEntry};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::support::TestDb;

/// Bound for awaited replies; they normally arrive within milliseconds.
pub const WAIT: Duration = Duration::from_secs(10);

/// One reminder job as the queue reports it, with the kind of the reminder it delivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRow {
    /// Its id.
    pub id: i64,
    /// Pending, cancelled, …
    pub state: JobState,
    /// When it is due.
    pub run_at: DateTime<Utc>,
    /// The reminder it delivers.
    pub reminder_id: i64,
    /// The reminder's kind: `occurrence` or `snooze`.
    pub kind: Option<String>,
}

/// The database, the simulator and the bot, running.
pub struct TestApp {
    /// The database.
    pub db: TestDb,
    /// The simulator.
    pub sim: SimHandle,
    deps: BotDeps,
    shutdown: CancellationToken,
    task: JoinHandle<()>,
}

impl TestApp {
    /// Starts everything with the default settings.
    pub async fn start() -> Self {
        Self::with_settings(BotSettings::default()).await
    }

    /// Starts everything with these settings.
    pub async fn with_settings(settings: BotSettings) -> Self {
        let db = TestDb::new().await;
        let sim = Simulator::start(SimConfig::default().without_limits())
            .await
            .expect("simulator starts");
        let deps = BotDeps {
            pool: db.pool.clone(),
            queue: reminder_queue(db.pool.clone(), QueueConfig::new(REMINDER_QUEUE)),
            settings,
        };
        let shutdown = CancellationToken::new();
        let task = spawn_bot(&sim, deps.clone(), shutdown.clone());
        sim.wait_for_polls_started(1, WAIT)
            .await
            .expect("the bot polls");
        Self {
            db,
            sim,
            deps,
            shutdown,
            task,
        }
    }

    /// Stops the bot and starts a new one on the same database and simulator.
    pub async fn restart(&mut self) {
        self.shutdown.cancel();
        let old = std::mem::replace(&mut self.task, tokio::spawn(async {}));
        tokio::time::timeout(WAIT, old)
            .await
            .expect("the bot stops")
            .expect("the bot task ends cleanly");
        let polls = self.sim.polls_started();
        self.shutdown = CancellationToken::new();
        self.task = spawn_bot(&self.sim, self.deps.clone(), self.shutdown.clone());
        self.sim
            .wait_for_polls_started(polls + 1, WAIT)
            .await
            .expect("the new bot polls");
    }

    /// A teloxide bot with the same token, for tests that forge what the bot could send.
    pub fn bot(&self) -> Bot {
        self_bot(&self.sim)
    }

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

    /// The first `n` bot messages in `chat` after `message_id`.
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

    /// The reminder jobs, oldest first (also those whose reminder is gone: `kind` is `None`).
    pub async fn jobs(&self) -> Vec<JobRow> {
        let jobs = pgqueue::list(&self.db.pool, REMINDER_QUEUE, None, i64::MAX)
            .await
            .expect("jobs are readable");
        let ids: Vec<i64> = jobs.iter().map(|j| j.id).collect();
        let kinds: Vec<(i64, String)> =
            sqlx::query_as("select job_id, kind from reminders where job_id = any($1)")
                .bind(&ids)
                .fetch_all(&self.db.pool)
                .await
                .expect("reminders are readable");
        jobs.into_iter()
            .map(|job| JobRow {
                id: job.id,
                state: job.state,
                run_at: job.run_at,
                reminder_id: ReminderJob::from_payload(&job.payload)
                    .expect("a reminder job's payload")
                    .reminder_id,
                kind: kinds
                    .iter()
                    .find(|(id, _)| *id == job.id)
                    .map(|(_, kind)| kind.clone()),
            })
            .collect()
    }

    /// The pending reminder jobs, soonest first.
    pub async fn pending_jobs(&self) -> Vec<JobRow> {
        let mut jobs: Vec<JobRow> = self
            .jobs()
            .await
            .into_iter()
            .filter(|j| j.state == JobState::Pending)
            .collect();
        jobs.sort_by_key(|j| j.run_at);
        jobs
    }

    /// Sendmessage or editMessageText calls the simulator refused (bad HTML, too long, …).
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

    /// Stops the bot and the simulator.
    pub async fn stop(self) {
        self.shutdown.cancel();
        tokio::time::timeout(WAIT, self.task)
            .await
            .expect("the bot stops")
            .expect("the bot task ends cleanly");
        self.sim.shutdown().await;
    }
}

fn self_bot(sim: &SimHandle) -> Bot {
    Bot::new(sim.token()).set_api_url(sim.url().parse().expect("simulator URL parses"))
}

fn spawn_bot(sim: &SimHandle, deps: BotDeps, shutdown: CancellationToken) -> JoinHandle<()> {
    let bot = self_bot(sim);
    tokio::spawn(async move { bot::run(bot, deps, shutdown).await.expect("the bot runs") })
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
