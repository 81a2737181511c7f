//! The HTTP side-car of `remindbot run`: `/healthz` (is the database reachable), `/metrics`
//! (Prometheus text, with the queue's depth refreshed in the background) and the admin page
//! `/admin` ([`crate::admin::web`], when an admin token is set).

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

use crate::telegram::metrics::{
    LATENESS, LATENESS_BUCKETS, QUEUE_DUE, QUEUE_JOBS, QUEUE_OLDEST_DUE,
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

/// Serves the side-car on `listener` until `shutdown`; `/admin` (over the reminder queue
/// `reminders`) only with `admin` settings.
pub async fn serve(
    listener: TcpListener,
    reminders: Queue,
    metrics: PrometheusHandle,
    admin: Option<crate::admin::web::AdminWebSettings>,
    shutdown: CancellationToken,
) -> Result<(), HttpError> {
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
        reminders.clone(),
        QUEUE_GAUGES_EVERY,
        shutdown.clone(),
    ));
    let app = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(render_metrics))
        .with_state(SideCar {
            pool: reminders.pool().clone(),
            metrics,
        })
        .merge(crate::admin::web::router(reminders, admin));
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown.cancelled_owned())
    .await?;
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

/// Keeps the queue's gauges fresh in the background, so a scrape costs no query: jobs by state
/// (estimated on a large table), and the queue's due backlog and the wait of its oldest due job.
async fn refresh_queue_gauges(queue: Queue, every: Duration, shutdown: CancellationToken) {
    loop {
        let depth = pgqueue::maintenance::depth(queue.pool(), queue.name());
        match tokio::time::timeout(Duration::from_secs(5), depth).await {
            Ok(Ok(depth)) => {
                for (state, count) in depth.states {
                    metrics::gauge!(QUEUE_JOBS, "state" => state.as_str()).set(count as f64);
                }
                let name = queue.name().to_owned();
                metrics::gauge!(QUEUE_DUE, "queue" => name.clone()).set(depth.due_now as f64);
                metrics::gauge!(QUEUE_OLDEST_DUE, "queue" => name)
                    .set(depth.oldest_due_secs.unwrap_or(0.0));
            }
            Ok(Err(error)) => tracing::warn!(%error, "reading queue depth failed"),
            Err(_) => tracing::warn!("reading queue depth timed out"),
        }
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tokio::time::sleep(every) => {}
        }
    }
}
