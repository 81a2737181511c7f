//! How updates come in (`remindbot run`): long polling by default; a webhook when WEBHOOK_URL is
//! set, with its secret (WEBHOOK_SECRET or a file, never a flag), and the update workers.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use secrecy::{ExposeSecret, SecretString};

use super::{SecretError, SecretSource};
use crate::bot::intake::IntakeMode;

/// The webhook secret's sources.
pub const WEBHOOK_SECRET: SecretSource = SecretSource {
    what: "webhook secret",
    env: "WEBHOOK_SECRET",
    file_flag: "--webhook-secret-file",
    file_env: "WEBHOOK_SECRET_FILE",
};

/// The intake's settings.
#[derive(Clone, Debug)]
pub struct IntakeArgs {
    /// Long polling, or the webhook with its secret.
    pub mode: IntakeMode,
    /// Where the webhook is served: its own address, or (unset) the side-car's.
    pub webhook_listen: Option<SocketAddr>,
    /// The largest webhook body accepted, in bytes (larger ones are answered 413).
    pub webhook_max_body_bytes: usize,
    /// Transactions handling updates at once (of different chats; one chat's are handled one at
    /// a time), each a batch of up to `update_batch` updates.
    pub update_workers: usize,
    /// The most updates one transaction handles, each in a savepoint (1: one per update).
    pub update_batch: usize,
    /// Days handled updates are kept in the inbox.
    pub inbox_retention_days: u32,
}

impl IntakeArgs {
    /// The path the webhook is served at (the path of its URL); `None` when polling.
    pub fn webhook_path(&self) -> Option<String> {
        match &self.mode {
            IntakeMode::Polling => None,
            IntakeMode::Webhook { url, .. } => Some(url.path().to_owned()),
        }
    }

    /// The webhook's secret; `None` when polling.
    pub fn webhook_secret(&self) -> Option<SecretString> {
        match &self.mode {
            IntakeMode::Polling => None,
            IntakeMode::Webhook { secret, .. } => Some(secret.clone()),
        }
    }
}

impl Default for IntakeArgs {
    /// The flags' defaults: polling, 16 update workers of batches of 16, a 1 MiB body limit, 7 days of handled
    /// updates.
    fn default() -> Self {
        crate::flags::defaults()
    }
}

#[derive(clap::Args)]
struct IntakeFlags {
    /// Take updates through a webhook at this URL (every replica serves it) instead of long
    /// polling; needs WEBHOOK_SECRET. Unset: long polling, by one replica at a time.
    #[arg(long = "webhook-url", env = "WEBHOOK_URL")]
    webhook_url: Option<reqwest::Url>,
    /// A file holding the webhook secret (trimmed), instead of WEBHOOK_SECRET: 1-256 characters
    /// of A-Z, a-z, 0-9, _ and -, the same for every replica (`openssl rand -hex 32`).
    #[arg(
        long = "webhook-secret-file",
        env = "WEBHOOK_SECRET_FILE",
        value_name = "PATH"
    )]
    webhook_secret_file: Option<PathBuf>,
    /// Serve the webhook on this address instead of the side-car's (HTTP_ADDR).
    #[arg(long = "webhook-listen", env = "WEBHOOK_LISTEN")]
    webhook_listen: Option<SocketAddr>,
    /// Connections Telegram may open to the webhook at once (1-100).
    #[arg(long = "webhook-max-connections", env = "WEBHOOK_MAX_CONNECTIONS", default_value_t = 40,
          value_parser = clap::value_parser!(u8).range(1..=100))]
    webhook_max_connections: u8,
    /// The largest webhook body accepted, in bytes.
    #[arg(long = "webhook-max-body-bytes", env = "WEBHOOK_MAX_BODY_BYTES", default_value_t = 1 << 20)]
    webhook_max_body_bytes: usize,
    /// Transactions handling updates at once (of different chats), each a batch.
    #[arg(long = "update-workers", env = "UPDATE_WORKERS", default_value_t = 16)]
    update_workers: usize,
    /// The most updates one of those transactions handles, each in a savepoint of its own
    /// (1: a transaction per update; at most 64).
    #[arg(long = "update-batch", env = "UPDATE_BATCH", default_value_t = 16)]
    update_batch: usize,
    /// Days handled updates are kept in the inbox.
    #[arg(
        long = "inbox-retention-days",
        env = "INBOX_RETENTION_DAYS",
        default_value_t = 7
    )]
    inbox_retention_days: u32,
}

/// Why the webhook's settings do not hold together.
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    /// The secret could not be read, or is missing with a webhook URL.
    #[error(transparent)]
    Secret(#[from] SecretError),
    /// The secret has characters Telegram does not allow, or the wrong length.
    #[error(
        "WEBHOOK_SECRET (or WEBHOOK_SECRET_FILE) must be 1-256 characters of A-Z, a-z, 0-9, _ \
         and - (Telegram's rule for secret_token); make one with `openssl rand -hex 32`"
    )]
    BadSecret,
    /// The URL is not http(s).
    #[error("WEBHOOK_URL must be an https:// (or, for a local stand-in, http://) URL")]
    BadUrl,
}

/// Whether `secret` is one Telegram accepts as `secret_token`.
fn valid_secret(secret: &str) -> bool {
    (1..=256).contains(&secret.len())
        && secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The intake mode for `url` with the secret from `env_value` (WEBHOOK_SECRET's value) or `file`.
pub fn resolve_mode(
    url: Option<reqwest::Url>,
    env_value: Option<OsString>,
    file: Option<&Path>,
    max_connections: u8,
) -> Result<IntakeMode, IntakeError> {
    let Some(url) = url else {
        return Ok(IntakeMode::Polling);
    };
    if !matches!(url.scheme(), "https" | "http") {
        return Err(IntakeError::BadUrl);
    }
    let secret = WEBHOOK_SECRET
        .resolve(env_value, file)?
        .ok_or(SecretError::Missing(WEBHOOK_SECRET))?;
    if !valid_secret(secret.expose_secret()) {
        return Err(IntakeError::BadSecret);
    }
    Ok(IntakeMode::Webhook {
        url,
        secret,
        max_connections,
    })
}

impl clap::FromArgMatches for IntakeArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let flags = <IntakeFlags as clap::FromArgMatches>::from_arg_matches(matches)?;
        let mode = resolve_mode(
            flags.webhook_url,
            std::env::var_os(WEBHOOK_SECRET.env),
            flags.webhook_secret_file.as_deref(),
            flags.webhook_max_connections,
        )
        .map_err(|error| {
            let kind = match error {
                IntakeError::Secret(SecretError::Missing(_)) => {
                    clap::error::ErrorKind::MissingRequiredArgument
                }
                _ => clap::error::ErrorKind::ValueValidation,
            };
            clap::Error::raw(kind, error.to_string())
        })?;
        Ok(Self {
            mode,
            webhook_listen: flags.webhook_listen,
            webhook_max_body_bytes: flags.webhook_max_body_bytes,
            update_workers: flags.update_workers.max(1),
            update_batch: flags.update_batch.max(1),
            inbox_retention_days: flags.inbox_retention_days,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for IntakeArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        <IntakeFlags as clap::Args>::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        <IntakeFlags as clap::Args>::augment_args_for_update(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url() -> Option<reqwest::Url> {
        Some("https://bot.example.com/telegram".parse().unwrap())
    }

    #[test]
    fn no_url_means_polling() {
        let mode = resolve_mode(None, Some("s3cret".into()), None, 40).unwrap();
        assert!(matches!(mode, IntakeMode::Polling));
    }

    #[test]
    fn a_webhook_needs_a_secret_telegram_accepts() {
        let missing = resolve_mode(url(), None, None, 40).unwrap_err();
        assert!(missing.to_string().contains("WEBHOOK_SECRET"), "{missing}");
        let bad = resolve_mode(url(), Some("has spaces".into()), None, 40).unwrap_err();
        assert!(matches!(bad, IntakeError::BadSecret), "{bad}");
        let long = resolve_mode(url(), Some("a".repeat(257).into()), None, 40).unwrap_err();
        assert!(matches!(long, IntakeError::BadSecret), "{long}");
        let ftp = resolve_mode(
            Some("ftp://example.com/x".parse().unwrap()),
            Some("ok".into()),
            None,
            40,
        )
        .unwrap_err();
        assert!(matches!(ftp, IntakeError::BadUrl), "{ftp}");
        let good = resolve_mode(url(), Some("A-z_09".into()), None, 7).unwrap();
        match good {
            IntakeMode::Webhook {
                url,
                secret,
                max_connections,
            } => {
                assert_eq!(url.path(), "/telegram");
                assert_eq!(secret.expose_secret(), "A-z_09");
                assert_eq!(max_connections, 7);
            }
            IntakeMode::Polling => panic!("a webhook was configured"),
        }
    }
}
