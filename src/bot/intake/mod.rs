//! How updates reach the inbox: long polling by the one replica that holds the polling lease
//! ([`poll`]), or a webhook every replica serves ([`webhook`]). Either way an update is committed
//! to the inbox before Telegram is told it arrived.

pub mod group_commit;
pub mod poll;
pub mod webhook;

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use teloxide::prelude::*;
use teloxide::types::AllowedUpdate;
use tokio_util::sync::CancellationToken;

use crate::bot::BotError;

/// The kinds of update the bot asks for (and handles).
pub const ALLOWED_UPDATES: [&str; 3] = ["message", "callback_query", "my_chat_member"];

/// How this replica takes updates in.
#[derive(Clone)]
pub enum IntakeMode {
    /// Long polling, by whichever replica holds the lease.
    Polling,
    /// A webhook at `url`, registered by every replica alike (the same settings).
    Webhook {
        /// Where Telegram sends updates.
        url: reqwest::Url,
        /// The secret Telegram sends with each.
        secret: SecretString,
        /// How many connections Telegram may open at once.
        max_connections: u8,
    },
}

impl std::fmt::Debug for IntakeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Polling => f.write_str("Polling"),
            Self::Webhook {
                url,
                max_connections,
                ..
            } => f
                .debug_struct("Webhook")
                .field("url", &url.as_str())
                .field("max_connections", max_connections)
                .finish_non_exhaustive(),
        }
    }
}

/// Registers the webhook (retrying until Telegram agrees, or `shutdown`): its URL, secret, the
/// kinds of update and the connection limit. Every replica does the same, so the last one wins
/// with the same settings.
#[tracing::instrument(skip_all)]
pub async fn set_webhook(
    bot: &Bot,
    url: &reqwest::Url,
    secret: &SecretString,
    max_connections: u8,
    shutdown: &CancellationToken,
) {
    let mut delay = Duration::from_secs(1);
    loop {
        let set = bot
            .set_webhook(url.clone())
            .secret_token(secret.expose_secret().to_owned())
            .allowed_updates([
                AllowedUpdate::Message,
                AllowedUpdate::CallbackQuery,
                AllowedUpdate::MyChatMember,
            ])
            .max_connections(max_connections)
            .await;
        match set {
            Ok(_) => {
                tracing::info!(host = url.host_str(), "webhook set");
                return;
            }
            Err(error) => {
                tracing::warn!(error = %BotError::from(error), ?delay, "setting the webhook failed; retrying");
            }
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(delay) => {}
        }
        delay = (delay * 2).min(Duration::from_secs(60));
    }
}
