//! The HTTP side-car of `remindbot run`: `/healthz` (is the database reachable), `/metrics`
//! (Prometheus text, with the queue's depth by state read at each scrape) and the admin page
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

/// Serves the side-car on `listener` until `shutdown`; `/admin` only when `admin_token` is set.
pub async fn serve(
    listener: TcpListener,
    pool: PgPool,
    metrics: PrometheusHandle,
    admin_token: Option<&str>,
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
        .with_state(SideCar {
            pool: pool.clone(),
            metrics,
        })
        .merge(crate::admin::web::router(pool, admin_token));
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
