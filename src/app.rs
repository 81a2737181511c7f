//! `remindbot run`: one process with every long-running subsystem under one shutdown token.
//!
//! [`start`] connects, migrates and builds one [`AppContext`] (pool, bot, the outbox and updates
//! queues, the pacer, settings); then each subsystem is spawned into [`Subsystems`] with a child
//! of the shutdown token: the chat (intake and update workers), the egress workers, the reaper,
//! retention and the HTTP side-car (with the admin page when ADMIN_TOKEN is set, and the webhook
//! endpoint in webhook mode). SIGTERM or Ctrl-C cancels the token; every subsystem stops, the
//! workers finish in-flight jobs within the deadline and return the rest to their queue, so
//! nothing stays `running`.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use secrecy::ExposeSecret;
use sqlx::PgPool;
use teloxide::Bot;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::bot::intake::group_commit::GroupCommit;
use crate::bot::intake::webhook::{self, WebhookEndpoint};
use crate::bot::updates::Apologize;
use crate::config::RunConfig;
use crate::egress::{Egress, InFlight, Pacer, PaidBroadcast};
use crate::store::inbox::{UPDATE_QUEUE, update_queue};
use crate::store::outbox::LEGACY_REMINDER_QUEUE;
use crate::store::retention::Keep;
use crate::store::{OUTBOX_QUEUE, outbox_queue};
use pgqueue::presence::{Presence, PresenceStatus};
use pgqueue::{Queue, QueueConfig, Runner, RunnerConfig, Wakeups, maintenance, reaper};

/// What every subsystem shares. Its `Debug` leaves out the bot, whose own `Debug` shows the token.
#[derive(Clone)]
pub struct AppContext {
    /// The settings.
    pub config: Arc<RunConfig>,
    /// The database.
    pub pool: PgPool,
    /// The Bot API client (token inside; never logged).
    pub bot: Bot,
    /// The outbox: every message the bot sends (replies and reminders).
    pub outbox: Queue,
    /// The updates queue: every update Telegram sent, handled in order per chat.
    pub updates: Queue,
    /// The pacing of sends under the budget all replicas share (and paid broadcast, when on).
    pub pacer: Pacer,
    /// How many sends the egress keeps in flight: the budget's rate times Telegram's latency.
    pub in_flight: InFlight,
    /// NOTIFY-fed wake-ups of the queue runners.
    pub wakeups: Wakeups,
    /// Cancelled to shut everything down.
    pub shutdown: CancellationToken,
    /// The id this process's runners write to the jobs they claim: the reaper returns them
    /// once the process has been missing for its grace ([`pgqueue::presence`]).
    pub worker_id: String,
    /// Whether this process's presence holds its lock: its runners claim nothing while not.
    pub presence: PresenceStatus,
}

impl std::fmt::Debug for AppContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppContext")
            .field("config", &self.config)
            .field("outbox", &self.outbox.name())
            .field("updates", &self.updates.name())
            .field("shutdown", &self.shutdown.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// Long-running tasks, each named; the first to end (or fail) before shutdown stops them all.
#[derive(Debug)]
pub struct Subsystems {
    shutdown: CancellationToken,
    tasks: JoinSet<(&'static str, anyhow::Result<()>)>,
}

impl Subsystems {
    /// An empty set stopped by `shutdown`.
    pub fn new(shutdown: CancellationToken) -> Self {
        Self {
            shutdown,
            tasks: JoinSet::new(),
        }
    }

    /// Spawns `task` as subsystem `name`; it must return once the token it was given is cancelled.
    pub fn spawn<F>(&mut self, name: &'static str, task: F)
    where
        F: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        self.tasks.spawn(async move { (name, task.await) });
    }

    /// Waits for every subsystem; one ending early cancels the others. Returns the first error.
    pub async fn wait(mut self) -> anyhow::Result<()> {
        let mut first_error = None;
        while let Some(joined) = self.tasks.join_next().await {
            let (name, result) = joined.unwrap_or_else(|error| ("(panicked)", Err(error.into())));
            if !self.shutdown.is_cancelled() {
                tracing::warn!(subsystem = name, "a subsystem stopped early; shutting down");
                self.shutdown.cancel();
            }
            match result {
                Ok(()) => tracing::info!(subsystem = name, "stopped"),
                Err(error) => {
                    tracing::error!(subsystem = name, error = format!("{error:#}"), "failed");
                    first_error.get_or_insert(error.context(name));
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// A started process: its context, the side-car's address and its subsystems.
#[derive(Debug)]
pub struct Running {
    /// What the subsystems share.
    pub context: AppContext,
    /// Where /healthz and /metrics are served (and the webhook, without an address of its own).
    pub http_addr: SocketAddr,
    /// Where the webhook is served, in webhook mode.
    pub webhook_addr: Option<SocketAddr>,
    /// The running subsystems (add the bot here).
    pub subsystems: Subsystems,
}

impl Running {
    /// Cancels everything and waits until it has stopped.
    pub async fn stop(self) -> anyhow::Result<()> {
        self.context.shutdown.cancel();
        self.subsystems.wait().await
    }
}

/// Runs until SIGTERM or Ctrl-C, then shuts down gracefully.
pub async fn run(config: RunConfig) -> anyhow::Result<()> {
    let running = start(config).await?;
    let shutdown = running.context.shutdown.clone();
    tokio::spawn(cancel_on_signal(shutdown));
    running.subsystems.wait().await
}

/// Connects, migrates and starts the chat, the egress workers, the reaper, retention and the
/// side-car.
pub async fn start(config: RunConfig) -> anyhow::Result<Running> {
    let (context, presence) = context(config).await?;
    let mut subsystems = Subsystems::new(context.shutdown.clone());
    let token = context.shutdown.child_token();
    subsystems.spawn("presence", async move {
        presence.hold(token).await;
        Ok(())
    });
    let (listener, http_addr) = crate::http::bind(context.config.http_addr)
        .await
        .context("binding the HTTP side-car")?;
    let limits = context.config.listeners;
    let webhook = webhook_router(&context)?;
    let mut webhook_addr = webhook.is_some().then_some(http_addr);
    // The webhook on an address of its own (WEBHOOK_LISTEN), else on the side-car's.
    let extra = match (webhook, context.config.intake.webhook_listen) {
        (Some(router), Some(addr)) => {
            let (listener, addr) = crate::http::bind(addr)
                .await
                .context("binding the webhook's address (WEBHOOK_LISTEN)")?;
            webhook_addr = Some(addr);
            let token = context.shutdown.child_token();
            subsystems.spawn("webhook", async move {
                Ok(crate::http::serve_router(listener, router, limits, token).await?)
            });
            None
        }
        (router, _) => router,
    };
    let parts = crate::http::SideCarParts {
        outbox: context.outbox.clone(),
        queues: vec![context.outbox.clone(), context.updates.clone()],
        metrics: crate::http::metrics_handle()?,
        admin: context.config.admin.web(),
        feed: context.config.feed(),
        miniapp: miniapp_parts(&context),
        extra,
        limits,
    };
    let token = context.shutdown.child_token();
    subsystems.spawn("http", async move {
        Ok(crate::http::serve(listener, parts, token).await?)
    });
    if let (Some(addr), Some(path)) = (webhook_addr, context.config.intake.webhook_path())
        && let Err(error) = webhook::self_test(addr, &path).await
    {
        context.shutdown.cancel();
        return Err(error).context("the webhook endpoint does not answer");
    }
    spawn_egress(&context, &mut subsystems);
    spawn_bot(&context, &mut subsystems);
    spawn_maintenance(&context, &mut subsystems);
    tracing::info!(%http_addr, ?webhook_addr, "remindbot running");
    Ok(Running {
        context,
        http_addr,
        webhook_addr,
        subsystems,
    })
}

/// The Bot API client of `config`: its token, its timeout, its API server.
pub fn bot_client(config: &RunConfig) -> anyhow::Result<Bot> {
    let client = teloxide::net::default_reqwest_settings()
        .timeout(config.telegram.http_timeout())
        .build()
        .context("building the HTTP client")?;
    let mut bot = Bot::with_client(config.telegram.token.expose_secret(), client);
    if let Some(url) = &config.telegram.api_url {
        bot = bot.set_api_url(url.parse().context("TELOXIDE_API_URL is not a URL")?);
    }
    Ok(bot)
}

/// The webhook endpoint's routes, in webhook mode (with its committer started); `None` in
/// polling mode.
fn webhook_router(context: &AppContext) -> anyhow::Result<Option<axum::Router>> {
    let intake = &context.config.intake;
    let (Some(secret), Some(path)) = (intake.webhook_secret(), intake.webhook_path()) else {
        return Ok(None);
    };
    let inbox = GroupCommit::start(&context.pool, context.updates.clone())
        .context("starting the webhook's committer thread")?;
    Ok(Some(webhook::router(WebhookEndpoint {
        inbox,
        secret,
        max_body_bytes: intake.webhook_max_body_bytes,
        path,
    })))
}

/// Builds the shared context: pool (migrated), bot, queue, limits, wake-ups, and this process's
/// presence (which the caller holds while the runners run).
async fn context(config: RunConfig) -> anyhow::Result<(AppContext, Presence)> {
    let pool = crate::db::connect(config.db.url()?, config.db_max_connections).await?;
    crate::db::migrate(&pool).await?;
    let tagged = crate::store::outbox::tag_untagged_jobs(&pool).await?;
    if tagged > 0 {
        tracing::info!(
            tagged,
            "outbox jobs of a previous release tagged with their kind"
        );
    }
    let timeout = config.telegram.http_timeout();
    let bot = bot_client(&config)?;
    let outbox = outbox_queue(
        pool.clone(),
        QueueConfig {
            lease: config.delivery.lease(timeout),
            max_attempts: config.delivery.max_attempts,
            ..QueueConfig::new(OUTBOX_QUEUE)
        },
    );
    // The outbox's lease (the runner extends it while a handler runs, so a short one only
    // shortens how long a dead replica's update waits for the reaper); an update that keeps
    // failing is given up after a few tries (the user is told), not retried for hours.
    let updates = update_queue(
        pool.clone(),
        QueueConfig {
            lease: config.delivery.lease(timeout),
            max_attempts: 5,
            ..QueueConfig::new(UPDATE_QUEUE)
        },
    )
    .with_give_up_hook(Arc::new(Apologize {
        outbox: outbox.clone(),
    }));
    let presence = Presence::register(&pool, "remindbot").await?;
    let shutdown = CancellationToken::new();
    let delivery = &config.delivery;
    let in_flight = InFlight::new(delivery.rate_per_sec, delivery.workers);
    let mut pacer = Pacer::start(pool.clone(), delivery.rates(), shutdown.child_token());
    if let Some(settings) = config.paid_broadcast.settings {
        tracing::info!(
            after_secs = settings.after.as_secs(),
            stars_per_day = %settings.per_day,
            "paid broadcast is on"
        );
        pacer = pacer.with_paid_broadcast(PaidBroadcast::start(
            pool.clone(),
            settings,
            delivery.rate_per_sec,
            in_flight.clone(),
            shutdown.child_token(),
        ));
    }
    let context = AppContext {
        pacer,
        in_flight,
        wakeups: Wakeups::listen(pool.clone(), shutdown.child_token()),
        config: Arc::new(config),
        pool,
        bot,
        outbox,
        updates,
        shutdown,
        worker_id: presence.worker_id().to_owned(),
        presence: presence.status(),
    };
    Ok((context, presence))
}

/// The Mini App's API, when a public URL is set: it acts through the chat's handlers.
fn miniapp_parts(context: &AppContext) -> Option<crate::miniapp::MiniAppParts> {
    let config = &context.config;
    Some(crate::miniapp::MiniAppParts {
        public_url: config.bot.public_url.clone()?,
        bot: context.bot.clone(),
        deps: bot_deps(context),
        token: config.telegram.token.expose_secret().to_owned().into(),
        settings: config.miniapp,
    })
}

/// What the chat's handlers need.
fn bot_deps(context: &AppContext) -> crate::bot::BotDeps {
    crate::bot::BotDeps {
        pool: context.pool.clone(),
        queue: context.outbox.clone(),
        updates: context.updates.clone(),
        settings: context.config.bot.clone(),
        intake: context.config.intake.mode.clone(),
        update_workers: context.config.intake.update_workers,
        update_batch: context.config.intake.update_batch,
        wakeups: context.wakeups.clone(),
        worker_id: context.worker_id.clone(),
        presence: Some(context.presence.clone()),
    }
}

/// The chat: the intake (polling or the webhook's registration) and the update workers.
fn spawn_bot(context: &AppContext, subsystems: &mut Subsystems) {
    let deps = bot_deps(context);
    let (bot, token) = (context.bot.clone(), context.shutdown.child_token());
    subsystems.spawn("bot", async move {
        Ok(crate::bot::run(bot, deps, token).await?)
    });
}

/// The egress workers: every message of the outbox, paced, sent and recorded; as many in flight
/// as the budget needs at Telegram's measured latency, at most `DELIVERY_WORKERS`.
fn spawn_egress(context: &AppContext, subsystems: &mut Subsystems) {
    let delivery = &context.config.delivery;
    let in_flight = context.in_flight.clone();
    let egress = Egress::new(
        context.bot.clone(),
        context.outbox.clone(),
        context.pacer.clone(),
        in_flight.clone(),
        delivery.worker(),
    );
    let runner = Runner::new(
        context.outbox.clone(),
        egress,
        RunnerConfig {
            concurrency: delivery.workers,
            limit: Some(in_flight.limit()),
            // A small prefetch: jobs claimed into the buffer wait there in claim order, so a
            // deep one would hold an answer behind the reminders claimed before it (measured:
            // 32 cost answers about 1 s under a backlog). The budget, not claims, limits sends.
            batch: 4,
            shutdown_deadline: Duration::from_secs(delivery.shutdown_deadline_secs),
            worker_id: context.worker_id.clone(),
            presence: Some(context.presence.clone()),
            ..RunnerConfig::default()
        },
        context.wakeups.clone(),
    );
    let token = context.shutdown.child_token();
    subsystems.spawn("egress", async move {
        runner.run(token).await;
        Ok(())
    });
}

fn spawn_maintenance(context: &AppContext, subsystems: &mut Subsystems) {
    let settings = &context.config.delivery;
    let (pool, token) = (context.pool.clone(), context.shutdown.child_token());
    let interval = Duration::from_secs(settings.reaper_interval_secs.max(1));
    let queues = vec![context.outbox.clone(), context.updates.clone()];
    subsystems.spawn("reaper", async move {
        reaper::run(pool, queues, interval, token).await;
        Ok(())
    });
    let (pool, token) = (context.pool.clone(), context.shutdown.child_token());
    subsystems.spawn("legacy reminders", async move {
        adopt_legacy_reminders(pool, token).await;
        Ok(())
    });
    let (pool, token) = (context.pool.clone(), context.shutdown.child_token());
    let keep = Duration::from_secs(settings.keep_finished_hours * 3600);
    subsystems.spawn("retention", async move {
        maintenance::run_retention(pool, keep, Duration::from_secs(600), token).await;
        Ok(())
    });
    let (pool, token) = (context.pool.clone(), context.shutdown.child_token());
    let keep = Keep {
        data: Duration::from_secs(u64::from(context.config.retention_days) * 86_400),
        updates: Duration::from_secs(
            u64::from(context.config.intake.inbox_retention_days) * 86_400,
        ),
    };
    subsystems.spawn("data retention", async move {
        crate::store::retention::run(pool, keep, Duration::from_secs(3600), token).await;
        Ok(())
    });
}

/// While replicas of the release before the outbox still run (a rolling upgrade), they enqueue
/// reminders into the queue of their time: this moves them into the outbox every few seconds,
/// so none waits for a worker that is gone.
async fn adopt_legacy_reminders(pool: PgPool, shutdown: CancellationToken) {
    let mut every = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = every.tick() => {}
        }
        match maintenance::adopt_pending(&pool, LEGACY_REMINDER_QUEUE, OUTBOX_QUEUE).await {
            Ok(0) => {}
            Ok(moved) => {
                tracing::info!(moved, "reminders of a previous release moved to the outbox")
            }
            Err(error) => tracing::warn!(%error, "moving a previous release's reminders failed"),
        }
    }
}

/// Cancels `shutdown` on Ctrl-C or SIGTERM.
async fn cancel_on_signal(shutdown: CancellationToken) {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => tracing::info!("Ctrl-C: shutting down"),
        () = term => tracing::info!("SIGTERM: shutting down"),
        () = shutdown.cancelled() => {}
    }
    shutdown.cancel();
}
