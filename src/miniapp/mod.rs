//! The Mini App's server side: who is asking (Telegram's signed launch data, [`init_data`]), its
//! JSON API under `<PUBLIC_URL's path>/app/api` ([`api`], routed in [`routes`]), which acts
//! through the chat's own handlers ([`crate::bot::from_app`]) on the tasks of the user's private
//! chat, the page that uses it under `<PUBLIC_URL's path>/app/` ([`page`]), and its settings
//! ([`MiniAppSettings`]). The page and the API are served only when `PUBLIC_URL` is set (as the
//! calendar feeds are): the Mini App's URL is made from it.

mod api;
mod error;
pub mod init_data;
pub mod page;
pub mod routes;
mod state;
mod strings;
mod view;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use secrecy::SecretString;
use teloxide::Bot;

use crate::bot::BotDeps;
use crate::feed::PublicUrl;

/// The Mini App's settings (MINIAPP_INIT_DATA_MAX_AGE_SECS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::Args)]
pub struct MiniAppSettings {
    /// Seconds after Telegram signed a Mini App's launch data (`auth_date`) that the app still
    /// accepts it; the user reopens the app after that.
    #[arg(long = "miniapp-init-data-max-age-secs", env = "MINIAPP_INIT_DATA_MAX_AGE_SECS",
          default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub init_data_max_age_secs: u64,
}

impl MiniAppSettings {
    /// How old launch data may be.
    pub fn init_data_max_age(&self) -> Duration {
        Duration::from_secs(self.init_data_max_age_secs)
    }
}

impl Default for MiniAppSettings {
    /// Launch data accepted for an hour.
    fn default() -> Self {
        Self {
            init_data_max_age_secs: 3600,
        }
    }
}

/// What the side-car needs to serve the Mini App's API.
pub struct MiniAppParts {
    /// The Bot API client (the handlers' shared parts hold one; the API sends nothing itself).
    pub bot: Bot,
    /// The chat's dependencies: the database, the outbox, the limits.
    pub deps: BotDeps,
    /// The bot token, which signs launch data.
    pub token: SecretString,
    /// How old launch data may be.
    pub settings: MiniAppSettings,
    /// The bot's public URL; the API is served under its path.
    pub public_url: PublicUrl,
}

impl std::fmt::Debug for MiniAppParts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniAppParts")
            .field("settings", &self.settings)
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

/// The Mini App's API routes.
pub fn router(parts: MiniAppParts) -> Router {
    let state = state::ApiState {
        shared: crate::bot::from_app::shared(parts.bot, parts.deps),
        token: Arc::new(parts.token),
        max_age: parts.settings.init_data_max_age(),
    };
    let prefix = parts.public_url.prefix();
    routes::router(prefix, state).merge(page::router(prefix))
}
