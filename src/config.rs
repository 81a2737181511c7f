//! Configuration of `remindbot run`: command-line flags, each also read from the environment
//! (and `.env`). `.env.example` lists every variable with its default.

use std::net::SocketAddr;
use std::time::Duration;

use secrecy::SecretString;

use crate::db::DatabaseArgs;
use crate::telegram::{DeliveryConfig, RateConfig};

/// Everything `remindbot run` needs.
#[derive(Clone, Debug, clap::Args)]
pub struct RunConfig {
    /// Where the database is.
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// How to reach Telegram.
    #[command(flatten)]
    pub telegram: TelegramArgs,
    /// How reminders are sent.
    #[command(flatten)]
    pub delivery: DeliveryArgs,
    /// The chat's limits and its admins.
    #[command(flatten)]
    pub bot: crate::bot::BotSettings,
    /// The token admins sign in with on the side-car's /admin page; the page is off without it.
    #[arg(long, env = "ADMIN_TOKEN", value_parser = parse_secret, hide_env_values = true)]
    pub admin_token: Option<SecretString>,
    /// Where the side-car serves /healthz, /metrics and /admin.
    #[arg(long, env = "HTTP_ADDR", default_value = "127.0.0.1:9090")]
    pub http_addr: SocketAddr,
    /// Connections in the database pool.
    #[arg(long, env = "DB_MAX_CONNECTIONS", default_value_t = 20)]
    pub db_max_connections: u32,
}

/// The Bot API connection.
#[derive(Clone, Debug, clap::Args)]
pub struct TelegramArgs {
    /// The bot token (kept secret: never printed or logged).
    #[arg(long = "token", env = "TELOXIDE_TOKEN", value_parser = parse_secret, hide_env_values = true)]
    pub token: SecretString,
    /// The Bot API base URL, without a trailing path (default Telegram's).
    #[arg(long = "api-url", env = "TELOXIDE_API_URL")]
    pub api_url: Option<String>,
    /// Seconds before a Bot API request times out.
    #[arg(long, env = "TELEGRAM_HTTP_TIMEOUT_SECS", default_value_t = 17)]
    pub http_timeout_secs: u64,
}

/// The delivery workers.
#[derive(Clone, Debug, clap::Args)]
pub struct DeliveryArgs {
    /// Reminders being sent at once (enough to hide Telegram's latency at the overall rate).
    #[arg(long, env = "DELIVERY_WORKERS", default_value_t = 64)]
    pub workers: usize,
    /// Messages per second over all chats (0: no limit).
    #[arg(long, env = "SEND_RATE_PER_SEC", default_value_t = 25)]
    pub rate_per_sec: u32,
    /// Messages per second to one chat (0: no limit).
    #[arg(long, env = "SEND_RATE_PER_CHAT_PER_SEC", default_value_t = 1)]
    pub rate_per_chat_per_sec: u32,
    /// Messages per minute to one group (0: no limit).
    #[arg(long, env = "SEND_RATE_PER_GROUP_PER_MIN", default_value_t = 20)]
    pub rate_per_group_per_min: u32,
    /// Seconds a claimed reminder is leased; unset: the HTTP timeout plus 13 s.
    #[arg(long, env = "DELIVERY_LEASE_SECS")]
    pub lease_secs: Option<u64>,
    /// Attempts before a reminder fails for good.
    #[arg(long, env = "DELIVERY_MAX_ATTEMPTS", default_value_t = 10)]
    pub max_attempts: i32,
    /// A reminder sent more than this many seconds late says how late it is.
    #[arg(long, env = "LATE_THRESHOLD_SECS", default_value_t = 300)]
    pub late_threshold_secs: u64,
    /// Seconds in-flight sends may take to finish after a shutdown signal.
    #[arg(long, env = "SHUTDOWN_DEADLINE_SECS", default_value_t = 20)]
    pub shutdown_deadline_secs: u64,
    /// Seconds between reaper passes (expired leases back to pending).
    #[arg(long, env = "REAPER_INTERVAL_SECS", default_value_t = 5)]
    pub reaper_interval_secs: u64,
    /// Hours finished (done, cancelled) jobs are kept; failed ones stay for admins.
    #[arg(long, env = "KEEP_FINISHED_HOURS", default_value_t = 24)]
    pub keep_finished_hours: u64,
}

impl TelegramArgs {
    /// The Bot API request timeout.
    pub fn http_timeout(&self) -> Duration {
        Duration::from_secs(self.http_timeout_secs)
    }
}

impl DeliveryArgs {
    /// The send rates.
    pub fn rates(&self) -> RateConfig {
        RateConfig {
            global_per_sec: self.rate_per_sec,
            chat_per_sec: self.rate_per_chat_per_sec,
            group_per_min: self.rate_per_group_per_min,
        }
    }

    /// The lease of a claimed reminder: long enough for one request to time out.
    pub fn lease(&self, http_timeout: Duration) -> Duration {
        self.lease_secs
            .map_or(http_timeout + Duration::from_secs(13), Duration::from_secs)
    }

    /// The worker's own settings.
    pub fn worker(&self) -> DeliveryConfig {
        DeliveryConfig {
            late_threshold: Duration::from_secs(self.late_threshold_secs),
            ..DeliveryConfig::default()
        }
    }
}

fn parse_secret(value: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(value.to_owned()))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Probe {
        #[command(flatten)]
        run: RunConfig,
    }

    #[test]
    fn defaults_and_a_token_that_does_not_print() {
        let probe = Probe::parse_from(["probe", "--token", "123:SECRET"]);
        assert_eq!(probe.run.delivery.workers, 64);
        assert_eq!(
            probe.run.delivery.lease(probe.run.telegram.http_timeout()),
            Duration::from_secs(30)
        );
        assert!(!format!("{probe:?}").contains("SECRET"));
    }
}
