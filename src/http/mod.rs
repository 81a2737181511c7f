//! The HTTP side-car of `remindbot run`: `/healthz` (is the database reachable), `/metrics`
//! (Prometheus text, with the queues' depth refreshed in the background), the admin page
//! `/admin` ([`crate::admin::web`], when an admin token is set), the calendar feeds
//! ([`crate::feed`], when a public URL is set), the Mini App's page and API ([`crate::miniapp`], likewise)
//! and, in webhook mode, the webhook
//! endpoint ([`crate::bot::intake::webhook`]) unless it has an address of its own. Every listener
//! is served within [`ListenerLimits`] ([`listener`]).

pub mod listener;

pub use listener::ListenerLimits;

use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use sqlx::PgPool;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::bot::metrics::{UPDATE_HANDLING, UPDATE_HANDLING_BUCKETS};
use crate::egress::metrics::{
    LATENESS, LATENESS_BUCKETS, QUEUE_DUE, QUEUE_DUE_BY_PRIORITY, QUEUE_JOBS, QUEUE_OLDEST_DUE,
    QUEUE_OLDEST_DUE_BY_PRIORITY,
};
use pgqueue::Queue;

/// What can go wrong starting the side-car.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// The address could not be bound or served.
    #[error("side-car I/O: {0}")]
    Io(#[from] std::io::Error),
    /// The metrics recorder could not be installed.
    #[error("metrics recorder: {0}")]
    Metrics(#[from] metrics_exporter_prometheus::BuildError),
}

/// 1 while the side-car's last read of the queues' depth succeeded, 0 when the database did not
/// answer within 5 s (gauge).
pub const DATABASE_UP: &str = "remindbot_database_up";

static RECORDER: Mutex<Option<PrometheusHandle>> = Mutex::new(None);

/// Installs the process-wide Prometheus recorder on first use and returns its handle (several
/// `run`s in one process, as in tests, share it).
pub fn metrics_handle() -> Result<PrometheusHandle, HttpError> {
    let mut recorder = RECORDER.lock().expect("recorder lock poisoned");
    if let Some(handle) = recorder.as_ref() {
        return Ok(handle.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(LATENESS.to_owned()), LATENESS_BUCKETS)?
        .set_buckets_for_metric(
            Matcher::Full(UPDATE_HANDLING.to_owned()),
            UPDATE_HANDLING_BUCKETS,
        )?
        .install_recorder()?;
    *recorder = Some(handle.clone());
    Ok(handle)
}

#[derive(Clone)]
struct SideCar {
    pool: PgPool,
    metrics: PrometheusHandle,
}

/// Binds `addr` (port 0 picks one) and returns the listener with its address.
pub async fn bind(addr: SocketAddr) -> Result<(TcpListener, SocketAddr), HttpError> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

/// What the side-car serves.
#[derive(Debug)]
pub struct SideCarParts {
    /// The outbox, whose failed jobs the admin page acts on.
    pub outbox: Queue,
    /// The queues whose depth the metrics show (the outbox and the updates queue).
    pub queues: Vec<Queue>,
    /// The Prometheus recorder.
    pub metrics: PrometheusHandle,
    /// The admin page's settings; the page is off without them.
    pub admin: Option<crate::admin::web::AdminWebSettings>,
    /// The calendar feeds' settings; no feed route without them.
    pub feed: Option<crate::feed::FeedSettings>,
    /// The Mini App's API; no route of it without a public URL.
    pub miniapp: Option<crate::miniapp::MiniAppParts>,
    /// More routes (the webhook endpoint).
    pub extra: Option<Router>,
    /// The listener's timeouts and connection cap.
    pub limits: ListenerLimits,
}

/// Serves `router` alone on `listener` until `shutdown` (the webhook on an address of its own).
pub async fn serve_router(
    listener: TcpListener,
    router: Router,
    limits: ListenerLimits,
    shutdown: CancellationToken,
) -> Result<(), HttpError> {
    listener::serve(listener, router, limits, shutdown).await?;
    Ok(())
}

/// Serves the side-car on `listener` until `shutdown`.
pub async fn serve(
    listener: TcpListener,
    parts: SideCarParts,
    shutdown: CancellationToken,
) -> Result<(), HttpError> {
    let SideCarParts {
        outbox,
        queues,
        metrics,
        admin,
        feed,
        miniapp,
        extra,
        limits,
    } = parts;
    let upkeep = metrics.clone();
    let upkeep_stop = shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = upkeep_stop.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_secs(5)) => upkeep.run_upkeep(),
            }
        }
    });
    tokio::spawn(refresh_queue_gauges(
        queues,
        QUEUE_GAUGES_EVERY,
        shutdown.clone(),
    ));
    let pool = outbox.pool().clone();
    let mut app = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(render_metrics))
        .with_state(SideCar {
            pool: pool.clone(),
            metrics,
        })
        .merge(crate::admin::web::router(outbox, admin));
    if let Some(feed) = feed {
        app = app.merge(crate::feed::router(pool, &feed));
    }
    if let Some(miniapp) = miniapp {
        app = app.merge(crate::miniapp::router(miniapp));
    }
    if let Some(extra) = extra {
        app = app.merge(extra);
    }
    listener::serve(listener, app, limits, shutdown).await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
async fn healthz(State(side_car): State<SideCar>) -> (StatusCode, &'static str) {
    let probe = sqlx::query_scalar!(r#"select 1 as "one!""#).fetch_one(&side_car.pool);
    match tokio::time::timeout(Duration::from_secs(2), probe).await {
        Ok(Ok(_)) => (StatusCode::OK, "ok\n"),
        _ => (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n"),
    }
}

async fn render_metrics(State(side_car): State<SideCar>) -> String {
    side_car.metrics.render()
}

/// How often the queue's gauges are read from the database.
const QUEUE_GAUGES_EVERY: Duration = Duration::from_secs(10);

/// Keeps the queues' gauges fresh in the background, so a scrape costs no query: jobs by state
/// (estimated on a large table), each queue's due backlog and the wait of its oldest due job, in
/// all and by priority (the outbox: replies before reminders; the updates queue: the inbox's
/// depth and the age of its oldest unhandled update).
async fn refresh_queue_gauges(queues: Vec<Queue>, every: Duration, shutdown: CancellationToken) {
    loop {
        for (i, queue) in queues.iter().enumerate() {
            // Jobs by state cover every queue: read once a pass.
            refresh_gauges_of(queue, i == 0).await;
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(every) => {}
        }
    }
}

async fn refresh_gauges_of(queue: &Queue, with_states: bool) {
    let name = queue.name().to_owned();
    let depth = pgqueue::maintenance::depth(queue.pool(), queue.name());
    match tokio::time::timeout(Duration::from_secs(5), depth).await {
        Ok(Ok(depth)) => {
            for (state, count) in depth.states.iter().filter(|_| with_states) {
                metrics::gauge!(QUEUE_JOBS, "state" => state.as_str()).set(*count as f64);
            }
            metrics::gauge!(QUEUE_DUE, "queue" => name.clone()).set(depth.due_now as f64);
            metrics::gauge!(QUEUE_OLDEST_DUE, "queue" => name.clone())
                .set(depth.oldest_due_secs.unwrap_or(0.0));
            metrics::gauge!(DATABASE_UP).set(1.0);
        }
        Ok(Err(error)) => {
            metrics::gauge!(DATABASE_UP).set(0.0);
            tracing::warn!(%error, queue = %name, "reading queue depth failed");
        }
        Err(_) => {
            metrics::gauge!(DATABASE_UP).set(0.0);
            tracing::warn!(queue = %name, "reading queue depth timed out");
        }
    }
    let by_priority = pgqueue::maintenance::due_by_priority(queue.pool(), queue.name());
    match tokio::time::timeout(Duration::from_secs(5), by_priority).await {
        Ok(Ok(levels)) => {
            for level in levels {
                let priority = level.priority.to_string();
                metrics::gauge!(QUEUE_DUE_BY_PRIORITY, "queue" => name.clone(), "priority" => priority.clone())
                    .set(level.due_now as f64);
                metrics::gauge!(QUEUE_OLDEST_DUE_BY_PRIORITY, "queue" => name.clone(), "priority" => priority)
                    .set(level.oldest_due_secs.unwrap_or(0.0));
            }
        }
        Ok(Err(error)) => {
            tracing::warn!(%error, queue = %name, "reading due jobs by priority failed")
        }
        Err(_) => tracing::warn!(queue = %name, "reading due jobs by priority timed out"),
    }
}
