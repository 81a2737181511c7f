//! The HTTP side-car of `remindbot run`: `/healthz` (is the database reachable) and `/metrics`
//! (Prometheus text, with the queue's depth by state read at each scrape).

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use sqlx::PgPool;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::telegram::metrics::{LATENESS, LATENESS_BUCKETS, QUEUE_JOBS};

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

static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide Prometheus recorder on first use and returns its handle.
pub fn metrics_handle() -> Result<PrometheusHandle, HttpError> {
    if let Some(handle) = RECORDER.get() {
        return Ok(handle.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(LATENESS.to_owned()), LATENESS_BUCKETS)?
        .install_recorder()?;
    Ok(RECORDER.get_or_init(|| handle).clone())
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

/// Serves the side-car on `listener` until `shutdown`.
pub async fn serve(
    listener: TcpListener,
    pool: PgPool,
    metrics: PrometheusHandle,
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
    let app = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(render_metrics))
        .with_state(SideCar { pool, metrics });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
async fn healthz(State(side_car): State<SideCar>) -> (StatusCode, &'static str) {
    let probe = sqlx::query_scalar::<_, i32>("select 1").fetch_one(&side_car.pool);
    match tokio::time::timeout(Duration::from_secs(2), probe).await {
        Ok(Ok(_)) => (StatusCode::OK, "ok\n"),
        _ => (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n"),
    }
}

#[tracing::instrument(skip_all)]
async fn render_metrics(State(side_car): State<SideCar>) -> String {
    let counts = crate::queue::maintenance::state_counts(&side_car.pool);
    match tokio::time::timeout(Duration::from_secs(2), counts).await {
        Ok(Ok(counts)) => {
            for (state, count) in counts {
                metrics::gauge!(QUEUE_JOBS, "state" => state).set(count as f64);
            }
        }
        Ok(Err(error)) => tracing::warn!(%error, "reading queue depth failed"),
        Err(_) => tracing::warn!("reading queue depth timed out"),
    }
    side_car.metrics.render()
}
