//! The chat side of the bot: updates come in through the inbox ([`intake`]: long polling by one
//! replica, or a webhook), are handled through the updates queue in order per chat ([`updates`])
//! by dptree handlers that turn commands, free text and button taps into tasks, their reminder
//! jobs and replies; every reply leaves through the outbox.
//!
//! - [`run`] publishes the command menus, runs the update workers and the intake until its
//!   shutdown token fires.
//! - An update's effects, its replies and its "handled" mark commit in one transaction. Every
//!   change to a task goes through [`crate::store::tasks`] with its reminder job. Snoozing adds a
//!   reminder of kind `snooze` with its own job and never changes a task's deadline or rule; a
//!   second snooze replaces a first one not yet sent.
//! - Questions the bot asks ("when?", a new time, a time zone) are kept in PostgreSQL
//!   ([`crate::store::conversation`]), so a restart loses nothing.
//! - Replies are askama templates with Fluent strings ([`render`]); user text is always escaped.

pub mod assumed;
pub mod commands;
pub mod group_admins;
mod handlers;
pub mod intake;
pub mod limits;
pub mod menu_button;
pub mod metrics;
pub mod nag_phrase;
pub mod render;
pub mod updates;

pub(crate) use handlers::from_app;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;
use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::Me;
use tokio_util::sync::CancellationToken;

use crate::store::{StoreError, user_rates};
use intake::IntakeMode;
use pgqueue::{Queue, Runner, RunnerConfig, Wakeups};

/// The abuse limits of the chat and its public URL, configurable by the operator; flatten it into the `run`
/// command's arguments (`#[command(flatten)]`) to get the flags and environment variables.
#[derive(Clone, Debug, clap::Args)]
pub struct BotSettings {
    /// Messages and button taps one user may send per minute; past that the bot says "wait" once
    /// and ignores the rest until the rate recovers.
    #[arg(
        long = "bot-user-rate-per-min",
        env = "BOT_USER_RATE_PER_MIN",
        default_value = "30"
    )]
    pub user_updates_per_minute: NonZeroU32,
    /// Open tasks one user may have; one more is refused with a message.
    #[arg(
        long = "bot-max-open-tasks",
        env = "BOT_MAX_OPEN_TASKS",
        default_value_t = 200
    )]
    pub max_open_tasks: i64,
    /// Telegram user ids allowed to use the admin commands (/failed, /retry, /stats), comma
    /// separated. To anyone else those commands answer as an unknown command does.
    #[arg(long = "admin-chat-ids", env = "ADMIN_CHAT_IDS", value_delimiter = ',')]
    pub admin_ids: Vec<i64>,
    /// The bot's public base URL (e.g. https://bot.example.org), the one a reverse proxy puts in
    /// front of the side-car: /calendar gives feed URLs under it, and the side-car serves them
    /// under its path. Unset: /calendar says the operator has not set it up.
    #[arg(long = "public-url", env = "PUBLIC_URL")]
    pub public_url: Option<crate::feed::PublicUrl>,
    /// The Bot API is Telegram's test environment, which opens Mini Apps over plain http too
    /// (elsewhere Telegram refuses a Mini App button whose URL is not https).
    #[arg(long = "telegram-test-environment", env = "TELEGRAM_TEST_ENVIRONMENT")]
    pub telegram_test_environment: bool,
}

impl BotSettings {
    /// The public URL the Mini App's buttons open: `PUBLIC_URL` when it is https (or any in
    /// Telegram's test environment); `None` turns the Mini App's buttons off.
    pub fn miniapp_url(&self) -> Option<&crate::feed::PublicUrl> {
        self.public_url
            .as_ref()
            .filter(|url| url.is_https() || self.telegram_test_environment)
    }

    /// Why the Mini App's buttons are off although `PUBLIC_URL` is set, if they are.
    pub fn miniapp_off_reason(&self) -> Option<&'static str> {
        (self.public_url.is_some() && self.miniapp_url().is_none()).then_some(
            "the Mini App is off: PUBLIC_URL is not https, and Telegram opens Mini Apps over \
             https only (TELEGRAM_TEST_ENVIRONMENT=true allows http in its test environment)",
        )
    }
}

impl Default for BotSettings {
    /// The flags' defaults (30 updates per minute, 200 open tasks, no admins).
    fn default() -> Self {
        crate::flags::defaults()
    }
}

/// What the chat needs from the rest of the program.
#[derive(Clone, Debug)]
pub struct BotDeps {
    /// The database.
    pub pool: PgPool,
    /// The outbox ([`crate::store::OUTBOX_QUEUE`]): replies, and the reminder jobs of tasks.
    pub queue: Queue,
    /// The updates queue ([`crate::store::inbox::UPDATE_QUEUE`]), with its apology hook.
    pub updates: Queue,
    /// Limits and defaults.
    pub settings: BotSettings,
    /// How updates come in.
    pub intake: IntakeMode,
    /// Transactions handling updates at once (each a batch, of different chats).
    pub update_workers: usize,
    /// The most updates one of those transactions handles (1: one transaction per update).
    pub update_batch: usize,
    /// NOTIFY-fed wake-ups of the update workers.
    pub wakeups: Wakeups,
    /// The id written to the update jobs this process claims ([`pgqueue::presence`]).
    pub worker_id: String,
    /// Whether this process's presence holds its lock: no update is claimed while not.
    pub presence: Option<pgqueue::presence::PresenceStatus>,
}

/// What can go wrong while handling an update; the user is told "try again", the details logged.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// Telegram refused or could not be reached (shown without the token, which is in every
    /// request URL).
    #[error("telegram request failed: {}", crate::egress::classify::redact(&.0.to_string()))]
    Telegram(#[from] teloxide::RequestError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The database failed (a transaction's begin or commit).
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// A template failed.
    #[error(transparent)]
    Render(#[from] render::RenderError),
    /// An admin view or action failed.
    #[error(transparent)]
    Admin(#[from] crate::admin::AdminError),
    /// A handler kept the update's context after it returned (a bug): nothing is committed.
    #[error("a handler kept the update's context")]
    ContextShared,
    /// A handler needs to know whether a group member administers the group, and that is not
    /// remembered: the attempt stops and is rolled back, Telegram is asked with no transaction
    /// open, and the update is handled again with the answer ([`updates`]).
    #[error("the rights of user {} in chat {} are to be looked up", .0.user_id, .0.chat_id)]
    NeedsLookUp(group_admins::GroupMember),
}

/// Runs the chat until `shutdown` fires: waits until Telegram answers getMe (retrying while it
/// cannot be reached, so the rest of the process keeps working), publishes the command menus,
/// then runs the update workers and the intake (polling, or registering the webhook the side-car
/// serves). Errors are logged without the token.
#[tracing::instrument(skip_all)]
pub async fn run(bot: Bot, deps: BotDeps, shutdown: CancellationToken) -> Result<(), BotError> {
    let Some(me) = wait_for_me(&bot, &shutdown).await else {
        return Ok(());
    };
    if let Err(error) = commands::publish(&bot).await {
        tracing::warn!(error = %BotError::from(error), "publishing the command menus failed");
    }
    if let Some(reason) = deps.settings.miniapp_off_reason() {
        tracing::warn!("{reason}");
    }
    if let Some(public_url) = deps.settings.miniapp_url()
        && let Err(error) = menu_button::publish(&bot, public_url).await
    {
        tracing::warn!(error = %BotError::from(error), "setting the Mini App's menu button failed");
    }
    let limits = limits::UserLimits::new(deps.settings.user_updates_per_minute);
    let shared = Arc::new(handlers::Shared {
        bot: bot.clone(),
        username: me.username.clone().unwrap_or_default(),
        bot_id: me.id,
        deps: deps.clone(),
        limits,
        admins: group_admins::GroupAdmins::default(),
    });
    let worker = updates::UpdateWorker::new(
        shared,
        deps.updates.clone(),
        schema(),
        deps.update_workers,
        deps.update_batch,
    );
    let runner = Runner::new(
        deps.updates.clone(),
        worker,
        RunnerConfig {
            concurrency: deps.update_workers * deps.update_batch,
            batch: deps.update_batch.max(32),
            worker_id: deps.worker_id.clone(),
            presence: deps.presence.clone(),
            ..RunnerConfig::default()
        },
        deps.wakeups.clone(),
    );
    let forget = async {
        let mut idle = tokio::time::interval(Duration::from_secs(60));
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                _ = idle.tick() => {
                    if let Err(error) = user_rates::forget_recovered(&deps.pool).await {
                        tracing::warn!(%error, "forgetting recovered message rates failed");
                    }
                }
            }
        }
    };
    let intake = async {
        match &deps.intake {
            IntakeMode::Polling => {
                intake::poll::Poller::new(
                    bot.clone(),
                    me.id.0,
                    deps.pool.clone(),
                    deps.updates.clone(),
                )
                .run(shutdown.clone())
                .await;
            }
            IntakeMode::Webhook {
                url,
                secret,
                max_connections,
            } => {
                intake::set_webhook(&bot, url, secret, *max_connections, &shutdown).await;
                shutdown.cancelled().await;
            }
        }
    };
    tracing::info!(bot = %me.username(), "chat started");
    tokio::join!(runner.run(shutdown.clone()), intake, forget);
    tracing::info!("chat stopped");
    Ok(())
}

/// Asks getMe until Telegram answers (backing off up to a minute); `None` on shutdown.
async fn wait_for_me(bot: &Bot, shutdown: &CancellationToken) -> Option<Me> {
    let mut delay = Duration::from_secs(1);
    loop {
        match bot.get_me().await {
            Ok(me) => return Some(me),
            Err(error) => {
                tracing::warn!(error = %BotError::from(error), ?delay, "Telegram does not answer getMe; retrying");
            }
        }
        tokio::select! {
            _ = shutdown.cancelled() => return None,
            _ = tokio::time::sleep(delay) => {}
        }
        delay = (delay * 2).min(Duration::from_secs(60));
    }
}

/// The update handler: messages and button taps (admin ones first, for admins), and changes of
/// the bot's membership in a chat; everything else is ignored.
fn schema() -> UpdateHandler<BotError> {
    dptree::entry()
        .branch(
            Update::filter_message()
                .branch(handlers::admin::commands())
                .branch(dptree::filter(handlers::is_forward).endpoint(handlers::on_forward))
                .branch(dptree::filter(handlers::is_media).endpoint(handlers::on_media))
                .branch(dptree::endpoint(handlers::on_message)),
        )
        .branch(
            Update::filter_callback_query()
                .branch(handlers::admin::taps())
                .branch(dptree::endpoint(handlers::on_callback)),
        )
        .branch(Update::filter_my_chat_member().endpoint(handlers::on_membership))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::BotSettings;

    #[derive(Parser)]
    struct Args {
        #[command(flatten)]
        bot: BotSettings,
    }

    #[test]
    fn flag_defaults_equal_the_default_settings() {
        let parsed = Args::parse_from(["remindbot"]).bot;
        let default = BotSettings::default();
        assert_eq!(
            parsed.user_updates_per_minute,
            default.user_updates_per_minute
        );
        assert_eq!(parsed.max_open_tasks, default.max_open_tasks);
        let custom = Args::parse_from(["remindbot", "--bot-max-open-tasks", "5"]).bot;
        assert_eq!(custom.max_open_tasks, 5);
    }
}
