//! Configuration of `remindbot run`: command-line flags, each also read from the environment
//! (and `.env`). `.env.example` lists every variable with its default. Secrets are read from the
//! environment or a file, never from a flag's value ([`SecretSource`]).

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};

use crate::admin::client::{ProxyNet, TrustedProxies};
use crate::admin::session::{AdminToken, WeakToken};
use crate::admin::web::AdminWebSettings;
use crate::db::DatabaseArgs;
use crate::egress::{EgressConfig, RateConfig};

mod intake;
mod paid;

pub use intake::{IntakeArgs, IntakeError, WEBHOOK_SECRET};
pub use paid::{PaidBroadcastArgs, PaidBroadcastError};

/// Everything `remindbot run` needs.
#[derive(Clone, Debug, clap::Args)]
pub struct RunConfig {
    /// Where the database is.
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// How to reach Telegram.
    #[command(flatten)]
    pub telegram: TelegramArgs,
    /// How updates come in: long polling, or a webhook.
    #[command(flatten)]
    pub intake: IntakeArgs,
    /// How messages and reminders are sent.
    #[command(flatten)]
    pub delivery: DeliveryArgs,
    /// Paid broadcast for reminders that would otherwise be late (off by default).
    #[command(flatten)]
    pub paid_broadcast: PaidBroadcastArgs,
    /// The chat's limits and its admins.
    #[command(flatten)]
    pub bot: crate::bot::BotSettings,
    /// The side-car's /admin page: its token (the page is off without it) and its cookie.
    #[command(flatten)]
    pub admin: AdminArgs,
    /// Where the side-car serves /healthz, /metrics and /admin.
    #[arg(long, env = "HTTP_ADDR", default_value = "127.0.0.1:9090")]
    pub http_addr: SocketAddr,
    /// Reads of each calendar-feed URL a minute (in bursts of up to that many); more are
    /// answered 429.
    #[arg(
        long = "calendar-feed-rate-per-min",
        env = "CALENDAR_FEED_RATE_PER_MIN",
        default_value = "6"
    )]
    pub calendar_feed_rate_per_min: std::num::NonZeroU32,
    /// The timeouts and connection cap of every listener (the side-car, the webhook).
    #[command(flatten)]
    pub listeners: crate::http::ListenerLimits,
    /// The Mini App's settings (how long its signed launch data is accepted).
    #[command(flatten)]
    pub miniapp: crate::miniapp::MiniAppSettings,
    /// Connections in the database pool.
    #[arg(long, env = "DB_MAX_CONNECTIONS", default_value_t = 20)]
    pub db_max_connections: u32,
    /// Days finished tasks (done, deleted) with their reminders, sent reminders, failed jobs and
    /// admin actions are kept before they are purged.
    #[arg(long, env = "RETENTION_DAYS", default_value_t = 90)]
    pub retention_days: u32,
}

/// The Bot API connection.
#[derive(Clone, Debug, clap::Args)]
pub struct TelegramArgs {
    /// The bot token, from TELOXIDE_TOKEN or a file (kept secret: never printed or logged).
    #[command(flatten)]
    pub token: BotToken,
    /// The Bot API base URL, without a trailing path (default Telegram's).
    #[arg(long = "api-url", env = "TELOXIDE_API_URL")]
    pub api_url: Option<String>,
    /// Seconds before a Bot API request times out.
    #[arg(long, env = "TELEGRAM_HTTP_TIMEOUT_SECS", default_value_t = 17)]
    pub http_timeout_secs: u64,
}

/// The egress workers, which send everything the outbox holds (replies, edits, reminders).
#[derive(Clone, Debug, clap::Args)]
pub struct DeliveryArgs {
    /// The most messages being sent at once by this replica: its bound on connections to
    /// Telegram. Below it, the number in flight follows the overall rate times Telegram's
    /// measured latency (see `crate::egress::in_flight`).
    #[arg(long, env = "DELIVERY_WORKERS", default_value_t = 128)]
    pub workers: usize,
    /// Messages per second over all chats, all replicas together (0: no limit).
    #[arg(long, env = "SEND_RATE_PER_SEC", default_value_t = 30)]
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
    /// The longest bot-wide pause, in seconds, after 429s from several chats at once (a 429 for
    /// one chat pauses only that chat).
    #[arg(long, env = "FLOOD_PAUSE_CAP_SECS", default_value_t = 60)]
    pub flood_pause_cap_secs: u64,
    /// The largest file the bot sends (an `/export`); a larger one is replaced by a message
    /// saying so.
    #[arg(long, env = "MAX_DOCUMENT_BYTES", default_value_t = crate::store::outbox::MAX_DOCUMENT_BYTES)]
    pub max_document_bytes: usize,
}

impl RunConfig {
    /// What the side-car needs to serve the calendar feeds; `None` (no feed route) without
    /// PUBLIC_URL.
    pub fn feed(&self) -> Option<crate::feed::FeedSettings> {
        Some(crate::feed::FeedSettings {
            public_url: self.bot.public_url.clone()?,
            per_minute: self.calendar_feed_rate_per_min,
        })
    }
}

impl TelegramArgs {
    /// The Bot API request timeout.
    pub fn http_timeout(&self) -> Duration {
        Duration::from_secs(self.http_timeout_secs)
    }
}

impl Default for DeliveryArgs {
    /// The flags' defaults: 30/s overall, 1/s per chat, 20/min per group, at most 128 sends in
    /// flight.
    fn default() -> Self {
        crate::flags::defaults()
    }
}

impl DeliveryArgs {
    /// The send rates.
    pub fn rates(&self) -> RateConfig {
        RateConfig {
            global_per_sec: self.rate_per_sec,
            chat_per_sec: self.rate_per_chat_per_sec,
            group_per_min: self.rate_per_group_per_min,
            flood_pause_cap: Duration::from_secs(self.flood_pause_cap_secs),
        }
    }

    /// The lease of a claimed reminder: long enough for one request to time out.
    pub fn lease(&self, http_timeout: Duration) -> Duration {
        self.lease_secs
            .map_or(http_timeout + Duration::from_secs(13), Duration::from_secs)
    }

    /// The worker's own settings.
    pub fn worker(&self) -> EgressConfig {
        EgressConfig {
            late_threshold: Duration::from_secs(self.late_threshold_secs),
            record_patience: EgressConfig::RECORD_PATIENCE,
            max_document_bytes: self.max_document_bytes,
        }
    }
}

/// Where one secret may come from: its environment variable, or a file named by a flag or by that
/// flag's variable. Never from a flag's value, which `ps` shows to everyone on the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretSource {
    /// What the secret is, for messages.
    pub what: &'static str,
    /// The variable holding the secret.
    pub env: &'static str,
    /// The flag naming a file that holds it.
    pub file_flag: &'static str,
    /// The variable naming that file.
    pub file_env: &'static str,
}

/// The bot token's sources.
pub const BOT_TOKEN: SecretSource = SecretSource {
    what: "bot token",
    env: "TELOXIDE_TOKEN",
    file_flag: "--token-file",
    file_env: "TELOXIDE_TOKEN_FILE",
};

/// The admin page token's sources.
pub const ADMIN_TOKEN: SecretSource = SecretSource {
    what: "admin token",
    env: "ADMIN_TOKEN",
    file_flag: "--admin-token-file",
    file_env: "ADMIN_TOKEN_FILE",
};

/// Why a secret could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// Given both ways.
    #[error(
        "the {} is given twice: set {} or {} ({}), not both",
        .0.what, .0.env, .0.file_env, .0.file_flag
    )]
    Both(SecretSource),
    /// Required but not given.
    #[error(
        "the {} is missing: set {}, or name a file holding it with {} ({})",
        .0.what, .0.env, .0.file_flag, .0.file_env
    )]
    Missing(SecretSource),
    /// The variable is not UTF-8.
    #[error("{} is not valid UTF-8", .0.env)]
    NotUnicode(SecretSource),
    /// The file could not be read.
    #[error("cannot read the {} from {} ({}): {io}", .secret.what, .path.display(), .secret.file_flag)]
    Unreadable {
        /// Which secret.
        secret: SecretSource,
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        io: std::io::Error,
    },
    /// The file holds nothing but white space.
    #[error("the {} file {} ({}) is empty", .secret.what, .path.display(), .secret.file_flag)]
    EmptyFile {
        /// Which secret.
        secret: SecretSource,
        /// The file.
        path: PathBuf,
    },
    /// The admin token is too short.
    #[error("ADMIN_TOKEN (or ADMIN_TOKEN_FILE): {weak}")]
    Weak {
        /// Why it is too short and how to make one.
        weak: WeakToken,
    },
}

impl SecretError {
    fn into_clap(self) -> clap::Error {
        let kind = match self {
            Self::Missing(_) => clap::error::ErrorKind::MissingRequiredArgument,
            _ => clap::error::ErrorKind::ValueValidation,
        };
        clap::Error::raw(kind, self.to_string())
    }
}

impl SecretSource {
    /// The secret from `env_value` (the variable's value; empty counts as unset) or from the
    /// file `file` names (its contents, trimmed); `None` when neither is given.
    pub fn resolve(
        &self,
        env_value: Option<OsString>,
        file: Option<&Path>,
    ) -> Result<Option<SecretString>, SecretError> {
        let from_env = env_value
            .filter(|value| !value.is_empty())
            .map(|value| {
                value
                    .into_string()
                    .map_err(|_| SecretError::NotUnicode(*self))
            })
            .transpose()?;
        match (from_env, file) {
            (Some(_), Some(_)) => Err(SecretError::Both(*self)),
            (Some(value), None) => Ok(Some(SecretString::from(value))),
            (None, Some(path)) => self.read_file(path).map(Some),
            (None, None) => Ok(None),
        }
    }

    fn read_file(&self, path: &Path) -> Result<SecretString, SecretError> {
        let contents = std::fs::read_to_string(path).map_err(|io| SecretError::Unreadable {
            secret: *self,
            path: path.to_owned(),
            io,
        })?;
        let secret = contents.trim();
        if secret.is_empty() {
            return Err(SecretError::EmptyFile {
                secret: *self,
                path: path.to_owned(),
            });
        }
        Ok(SecretString::from(secret.to_owned()))
    }
}

/// The bot token, read while the command line is parsed from `TELOXIDE_TOKEN` or the file
/// `--token-file` / `TELOXIDE_TOKEN_FILE` names; parsing fails without it. Its `Debug` hides it.
#[derive(Clone, Debug)]
pub struct BotToken(SecretString);

impl From<SecretString> for BotToken {
    fn from(token: SecretString) -> Self {
        Self(token)
    }
}

impl ExposeSecret<str> for BotToken {
    fn expose_secret(&self) -> &str {
        self.0.expose_secret()
    }
}

impl BotToken {
    /// The token from `env_value` (`TELOXIDE_TOKEN`'s value) or `file`.
    pub fn resolve(env_value: Option<OsString>, file: Option<&Path>) -> Result<Self, SecretError> {
        BOT_TOKEN
            .resolve(env_value, file)?
            .map(Self)
            .ok_or(SecretError::Missing(BOT_TOKEN))
    }
}

#[derive(clap::Args)]
struct BotTokenFlags {
    /// A file holding the bot token (trimmed), instead of TELOXIDE_TOKEN. The token itself is
    /// never a flag: `ps` would show it.
    #[arg(long = "token-file", env = "TELOXIDE_TOKEN_FILE", value_name = "PATH")]
    token_file: Option<PathBuf>,
}

impl clap::FromArgMatches for BotToken {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let flags = <BotTokenFlags as clap::FromArgMatches>::from_arg_matches(matches)?;
        Self::resolve(std::env::var_os(BOT_TOKEN.env), flags.token_file.as_deref())
            .map_err(SecretError::into_clap)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for BotToken {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        <BotTokenFlags as clap::Args>::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        <BotTokenFlags as clap::Args>::augment_args_for_update(cmd)
    }
}

/// The admin page's settings, for `remindbot run` and `remindbot admin serve`: the token, read
/// while the command line is parsed from `ADMIN_TOKEN` or the file `--admin-token-file` /
/// `ADMIN_TOKEN_FILE` names (parsing fails if it is shorter than 32 characters), whether the
/// session cookie is `Secure`, and the reverse proxies trusted to name the client.
#[derive(Clone, Debug, Default)]
pub struct AdminArgs {
    /// The token admins sign in with; the page is off without it.
    pub token: Option<AdminToken>,
    /// Whether the session cookie is sent over HTTPS only.
    pub cookie_secure: bool,
    /// The proxies whose `X-Forwarded-For` / `X-Real-IP` name the client; none by default.
    pub trusted_proxies: TrustedProxies,
}

impl AdminArgs {
    /// The settings from `env_value` (`ADMIN_TOKEN`'s value) or `file`, with `cookie_secure`.
    pub fn resolve(
        env_value: Option<OsString>,
        file: Option<&Path>,
        cookie_secure: bool,
    ) -> Result<Self, SecretError> {
        let token = ADMIN_TOKEN
            .resolve(env_value, file)?
            .map(AdminToken::new)
            .transpose()
            .map_err(|weak| SecretError::Weak { weak })?;
        Ok(Self {
            token,
            cookie_secure,
            trusted_proxies: TrustedProxies::default(),
        })
    }

    /// The admin page's settings; `None` without a token (the page is off).
    pub fn web(&self) -> Option<AdminWebSettings> {
        let token = self.token.clone()?;
        Some(AdminWebSettings {
            cookie_secure: self.cookie_secure,
            trusted_proxies: self.trusted_proxies.clone(),
            ..AdminWebSettings::new(token)
        })
    }
}

#[derive(clap::Args)]
struct AdminFlags {
    /// A file holding the admin page's token (trimmed), instead of ADMIN_TOKEN; at least 32
    /// characters (`openssl rand -hex 32`). The token itself is never a flag: `ps` would show it.
    #[arg(
        long = "admin-token-file",
        env = "ADMIN_TOKEN_FILE",
        value_name = "PATH"
    )]
    admin_token_file: Option<PathBuf>,
    /// Mark the admin session cookie `Secure`: turn on when the page is served over HTTPS (e.g.
    /// behind a proxy that terminates TLS).
    #[arg(long = "admin-cookie-secure", env = "ADMIN_COOKIE_SECURE")]
    admin_cookie_secure: bool,
    /// Reverse proxies (addresses or networks, comma separated: 127.0.0.1,10.0.0.0/8) whose
    /// X-Forwarded-For or X-Real-IP names the admin client, so wrong tokens are counted per real
    /// client. Unset: those headers are ignored (anyone can write them).
    #[arg(
        long = "admin-trusted-proxies",
        env = "ADMIN_TRUSTED_PROXIES",
        value_delimiter = ',',
        value_name = "ADDRESS[/BITS]"
    )]
    admin_trusted_proxies: Vec<ProxyNet>,
}

impl clap::FromArgMatches for AdminArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let flags = <AdminFlags as clap::FromArgMatches>::from_arg_matches(matches)?;
        let resolved = Self::resolve(
            std::env::var_os(ADMIN_TOKEN.env),
            flags.admin_token_file.as_deref(),
            flags.admin_cookie_secure,
        )
        .map_err(SecretError::into_clap)?;
        Ok(Self {
            trusted_proxies: TrustedProxies::new(flags.admin_trusted_proxies),
            ..resolved
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for AdminArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        <AdminFlags as clap::Args>::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        <AdminFlags as clap::Args>::augment_args_for_update(cmd)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// These tests parse with `TELOXIDE_TOKEN` and `ADMIN_TOKEN` unset, as in CI.
    #[derive(Debug, Parser)]
    struct Probe {
        #[command(flatten)]
        run: RunConfig,
    }

    /// A file holding `contents`, removed when dropped.
    struct SecretFile(PathBuf);

    impl SecretFile {
        fn new(name: &str, contents: &str) -> Self {
            let path = std::env::temp_dir()
                .join(format!("remindbot-config-{}-{name}", std::process::id()));
            std::fs::write(&path, contents).unwrap();
            Self(path)
        }

        fn arg(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for SecretFile {
        fn drop(&mut self) {
            std::fs::remove_file(&self.0).ok();
        }
    }

    #[test]
    fn defaults_and_a_token_from_a_file_that_does_not_print() {
        let file = SecretFile::new("bot", "123:SECRET\n");
        let probe = Probe::parse_from(["probe", "--token-file", file.arg()]);
        assert_eq!(probe.run.telegram.token.expose_secret(), "123:SECRET");
        assert_eq!(probe.run.delivery.workers, 128);
        assert!(matches!(
            probe.run.intake.mode,
            crate::bot::intake::IntakeMode::Polling
        ));
        assert_eq!(
            probe.run.delivery.lease(probe.run.telegram.http_timeout()),
            Duration::from_secs(30)
        );
        assert!(probe.run.admin.web().is_none(), "no admin token: page off");
        assert!(!format!("{probe:?}").contains("SECRET"));
    }

    #[test]
    fn paid_broadcast_needs_a_daily_budget() {
        let file = SecretFile::new("paid", "123:SECRET");
        let error =
            Probe::try_parse_from(["probe", "--token-file", file.arg(), "--paid-broadcast"])
                .unwrap_err()
                .to_string();
        assert!(error.contains("PAID_BROADCAST_STARS_PER_DAY"), "{error}");
        let probe = Probe::parse_from([
            "probe",
            "--token-file",
            file.arg(),
            "--paid-broadcast",
            "--paid-broadcast-stars-per-day",
            "12.5",
        ]);
        let settings = probe.run.paid_broadcast.settings.expect("on");
        assert_eq!(settings.per_day.tenths, 125);
        assert_eq!(settings.after, Duration::from_secs(60));
        let bad = Probe::try_parse_from([
            "probe",
            "--token-file",
            file.arg(),
            "--paid-broadcast-stars-per-day",
            "1.25",
        ]);
        assert!(bad.is_err(), "two decimals");
    }

    #[test]
    fn secrets_are_no_flags() {
        for flag in ["--token", "--admin-token"] {
            let error = Probe::try_parse_from(["probe", flag, "123:SECRET"]).unwrap_err();
            assert_eq!(error.kind(), clap::error::ErrorKind::UnknownArgument);
        }
    }

    #[test]
    fn a_token_from_the_environment() {
        let token = BotToken::resolve(Some("123:FROM_ENV".into()), None).unwrap();
        assert_eq!(token.expose_secret(), "123:FROM_ENV");
    }

    #[test]
    fn a_missing_token_says_where_to_put_it() {
        for env_value in [None, Some(OsString::new())] {
            let error = BotToken::resolve(env_value, None).unwrap_err().to_string();
            assert!(
                error.contains("TELOXIDE_TOKEN") && error.contains("--token-file"),
                "{error}"
            );
        }
        let error = Probe::try_parse_from(["probe"]).unwrap_err();
        assert_eq!(
            error.kind(),
            clap::error::ErrorKind::MissingRequiredArgument
        );
        assert!(error.to_string().contains("TELOXIDE_TOKEN"), "{error}");
    }

    #[test]
    fn a_token_given_twice_or_in_an_unreadable_or_empty_file_is_an_error() {
        let file = SecretFile::new("twice", "123:SECRET");
        let twice = BotToken::resolve(Some("123:ENV".into()), Some(&file.0)).unwrap_err();
        assert!(matches!(twice, SecretError::Both(BOT_TOKEN)), "{twice}");
        let missing = std::env::temp_dir().join("remindbot-config-no-such-file");
        let unreadable = BotToken::resolve(None, Some(&missing)).unwrap_err();
        assert!(
            unreadable
                .to_string()
                .contains("remindbot-config-no-such-file"),
            "{unreadable}"
        );
        let empty = SecretFile::new("empty", " \n");
        let error = BotToken::resolve(None, Some(&empty.0)).unwrap_err();
        assert!(matches!(error, SecretError::EmptyFile { .. }), "{error}");
    }

    #[test]
    fn the_admin_token_comes_from_a_file_and_must_be_strong() {
        let bot = SecretFile::new("bot-for-admin", "123:SECRET");
        let strong = SecretFile::new("admin", &format!("{}\n", "a1".repeat(16)));
        let probe = Probe::parse_from([
            "probe",
            "--token-file",
            bot.arg(),
            "--admin-token-file",
            strong.arg(),
            "--admin-cookie-secure",
            "--admin-trusted-proxies",
            "127.0.0.1,10.0.0.0/8",
        ]);
        let web = probe.run.admin.web().expect("the page is on");
        assert!(web.cookie_secure);
        let proxies = ["127.0.0.1", "10.0.0.0/8"].map(|net| net.parse().unwrap());
        assert_eq!(web.trusted_proxies, TrustedProxies::new(proxies.to_vec()));
        assert!(!format!("{probe:?}").contains("a1a1"));

        let weak = SecretFile::new("weak", "weakling");
        let error = Probe::try_parse_from([
            "probe",
            "--token-file",
            bot.arg(),
            "--admin-token-file",
            weak.arg(),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("ADMIN_TOKEN") && error.contains("openssl rand -hex 32"),
            "{error}"
        );
        assert!(!error.contains("weakling"), "{error}");
        let from_env = AdminArgs::resolve(Some("too-short".into()), None, false).unwrap_err();
        assert!(matches!(from_env, SecretError::Weak { .. }), "{from_env}");
        let unset = AdminArgs::resolve(Some(OsString::new()), None, false).unwrap();
        assert!(
            unset.web().is_none(),
            "an empty ADMIN_TOKEN leaves the page off"
        );
    }
}
