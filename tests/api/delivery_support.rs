//! Shared set-up of the delivery tests: a scratch database, the simulator, and `remindbot run`'s
//! subsystems started in-process (or the built binary) against both.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use devdb::ScratchDatabase;
use pgqueue::{JobState, Queue, QueueConfig};
use remindbot::app::{self, Running};
use remindbot::config::{DeliveryArgs, RunConfig, TelegramArgs};
use remindbot::db::DatabaseArgs;
use remindbot::store::{REMINDER_QUEUE, reminder_queue};
use secrecy::SecretString;
use sqlx::PgPool;
use tgsim::{SimConfig, SimHandle, Simulator};

use crate::support::server_url;

/// A database, a simulator and a queue handle for seeding.
pub struct Setup {
    /// Pool on the scratch database.
    pub pool: PgPool,
    /// The reminders queue.
    pub queue: Queue,
    /// The simulator.
    pub sim: SimHandle,
    /// The scratch database (dropped last).
    pub database: ScratchDatabase,
}

impl Setup {
    /// A fresh database on the tests' server and a simulator with `sim`.
    pub async fn new(sim: SimConfig) -> Self {
        Self::on_server(&server_url().await, sim).await
    }

    /// A fresh database on the server at `server` and a simulator with `sim`.
    pub async fn on_server(server: &str, sim: SimConfig) -> Self {
        let database = remindbot::db::scratch(server)
            .await
            .expect("a scratch database");
        let pool = database.pool(10).await.expect("a pool");
        let queue = reminder_queue(pool.clone(), QueueConfig::new(REMINDER_QUEUE));
        let sim = Simulator::start(sim).await.expect("the simulator");
        Self {
            pool,
            queue,
            sim,
            database,
        }
    }

    /// `run`'s settings against this database and simulator: fast reaper, the given rates.
    pub fn config(&self, global_per_sec: u32, chat_per_sec: u32) -> RunConfig {
        RunConfig {
            db: DatabaseArgs {
                database_url: Some(self.database.url().to_owned()),
                pgdata: PathBuf::from(".pgdata"),
                pg_port: 0,
            },
            telegram: TelegramArgs {
                token: remindbot::config::BotToken::from(SecretString::from(
                    self.sim.token().to_owned(),
                )),
                api_url: Some(self.sim.url()),
                http_timeout_secs: 5,
            },
            delivery: DeliveryArgs {
                workers: 64,
                rate_per_sec: global_per_sec,
                rate_per_chat_per_sec: chat_per_sec,
                rate_per_group_per_min: 20,
                lease_secs: Some(8),
                max_attempts: 10,
                late_threshold_secs: 300,
                shutdown_deadline_secs: 5,
                reaper_interval_secs: 1,
                keep_finished_hours: 24,
                flood_pause_cap_secs: 60,
            },
            bot: remindbot::bot::BotSettings::default(),
            admin: remindbot::config::AdminArgs::default(),
            http_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            db_max_connections: 10,
            retention_days: 90,
        }
    }

    /// Starts the delivery subsystems in-process.
    pub async fn start(&self, config: RunConfig) -> Running {
        app::start(config).await.expect("remindbot run starts")
    }

    /// Creates `n` started users in the simulator with ids from `first`; returns their ids.
    pub fn users(&self, first: i64, n: i64) -> Vec<i64> {
        (first..first + n)
            .map(|id| {
                self.sim
                    .create_user(tgsim::NewUser::new("user").id(id))
                    .expect("a new user")
                    .user
                    .id
            })
            .collect()
    }

    /// Seeds one reminder per `(chat, due)`.
    pub async fn seed(&self, reminders: &[(i64, DateTime<Utc>)]) -> Vec<i64> {
        remindbot::bench::delivery::seed(&self.pool, &self.queue, reminders)
            .await
            .expect("seeding reminders")
    }

    /// Waits until `n` reminders are sent; panics after `timeout`.
    pub async fn wait_sent(&self, n: i64, timeout: Duration) {
        let done = remindbot::bench::delivery::wait_for_sent(&self.pool, n, timeout)
            .await
            .expect("counting sent reminders");
        assert!(
            done,
            "{n} reminders not sent within {timeout:?}: {:?}",
            self.job_states().await
        );
    }

    /// Jobs by state (the states that have any).
    pub async fn job_states(&self) -> Vec<(JobState, i64)> {
        crate::support::job_states(&self.pool).await
    }

    /// Messages the bot sent to `chat_id`, by the simulator's transcript.
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

/// The state, attempts and last error of the job of the reminder of task `task_id`, and in how
/// many seconds it is due (by the database's clock).
pub async fn job_of_task(pool: &PgPool, task_id: i64) -> (JobState, i32, Option<String>, f64) {
    let job = crate::support::job_of_task(pool, task_id).await;
    let due_in = (job.run_at - crate::support::db_now(pool).await).num_microseconds();
    let due_in = due_in.expect("a due time within centuries") as f64 / 1e6;
    (job.state, job.attempts, job.last_error, due_in)
}
