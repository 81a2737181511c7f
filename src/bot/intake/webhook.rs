//! The webhook endpoint: Telegram POSTs each update here. The request is answered 200 only once
//! the update is committed to the inbox, so an update Telegram was told about is never lost:
//! - no `X-Telegram-Bot-Api-Secret-Token`, or a wrong one (compared in constant time): 401,
//!   nothing stored;
//! - a body over the limit: 413;
//! - the database down: 503, and Telegram sends the update again later;
//! - a body that is no update (not JSON, no `update_id`): stored as unreadable (its job fails at
//!   once, for admins to see) and answered 200, so that Telegram does not send it forever;
//! - a body PostgreSQL refuses to store as it is (U+0000): stored as unreadable, answered 200;
//! - an update seen before: 200, stored once.
//!
//! Every replica serves the endpoint; whichever receives an update, any replica handles it. The
//! updates of requests in flight together are committed together ([`super::group_commit`]).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use secrecy::{ExposeSecret, SecretString};

use super::group_commit::GroupCommit;
use crate::bot::metrics;
use crate::store::inbox::Incoming;

/// The header Telegram sends the secret in.
pub const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";
/// How long storing one update may take before the request is answered 503.
const STORE_TIMEOUT: Duration = Duration::from_secs(5);
/// How much of an unreadable body is kept for admins, in bytes.
const KEEP_UNREADABLE: usize = 4096;

/// What the endpoint needs.
#[derive(Clone)]
pub struct WebhookEndpoint {
    /// The inbox, committing the updates of concurrent requests together.
    pub inbox: GroupCommit,
    /// The secret Telegram sends with every request (shared by all replicas).
    pub secret: SecretString,
    /// The largest body accepted, in bytes.
    pub max_body_bytes: usize,
    /// The path it is served at (the path of WEBHOOK_URL).
    pub path: String,
}

impl std::fmt::Debug for WebhookEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookEndpoint")
            .field("path", &self.path)
            .field("max_body_bytes", &self.max_body_bytes)
            .finish_non_exhaustive()
    }
}

/// The endpoint's routes.
pub fn router(endpoint: WebhookEndpoint) -> Router {
    let path = endpoint.path.clone();
    Router::new()
        .route(&path, post(receive))
        .with_state(endpoint)
}

/// One webhook request.
#[tracing::instrument(skip_all)]
async fn receive(
    State(endpoint): State<WebhookEndpoint>,
    headers: HeaderMap,
    body: Body,
) -> StatusCode {
    let given = headers
        .get(SECRET_HEADER)
        .map(|value| value.as_bytes())
        .unwrap_or_default();
    if !constant_time_eq(given, endpoint.secret.expose_secret().as_bytes()) {
        return refuse(StatusCode::UNAUTHORIZED);
    }
    let Ok(bytes) = to_bytes(body, endpoint.max_body_bytes).await else {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE);
    };
    let incoming = match serde_json::from_slice(&bytes) {
        Ok(json) => Incoming::from_json(json),
        Err(_) => {
            let kept = &bytes[..bytes.len().min(KEEP_UNREADABLE)];
            Incoming::unreadable(String::from_utf8_lossy(kept).into_owned())
        }
    };
    match tokio::time::timeout(STORE_TIMEOUT, endpoint.inbox.commit(incoming)).await {
        Ok(Ok(())) => StatusCode::OK,
        Ok(Err(error)) => {
            tracing::warn!(%error, "storing a webhook update failed");
            refuse(StatusCode::SERVICE_UNAVAILABLE)
        }
        Err(_) => {
            tracing::warn!("storing a webhook update timed out");
            refuse(StatusCode::SERVICE_UNAVAILABLE)
        }
    }
}

/// Why the start-up self-test of the endpoint failed.
#[derive(Debug, thiserror::Error)]
pub enum SelfTestError {
    /// Nothing answered at the address.
    #[error("POST {url} got no answer: {reason}")]
    NoAnswer {
        /// Where it was sent.
        url: String,
        /// What failed.
        reason: String,
    },
    /// Something answered, but not the endpoint (which refuses a request without the secret).
    #[error("POST {url} answered {status}, not 401: the webhook is not served there")]
    NotServed {
        /// Where it was sent.
        url: String,
        /// What it answered.
        status: u16,
    },
}

/// POSTs once, without the secret, to the endpoint at `path` on `addr` (its loopback when it
/// listens on every address): only the endpoint answers 401, so anything else means Telegram's
/// updates would go nowhere.
pub async fn self_test(addr: SocketAddr, path: &str) -> Result<(), SelfTestError> {
    let reachable = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port())
        }
        _ => addr,
    };
    let url = format!("http://{reachable}{path}");
    // A client of its own without a proxy: an ALL_PROXY set to reach Telegram must not carry a
    // request to this host's own listener.
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .map_err(|error| SelfTestError::NoAnswer {
            url: url.clone(),
            reason: error.to_string(),
        })?;
    let answer = client
        .post(&url)
        .timeout(STORE_TIMEOUT)
        .body("{}")
        .send()
        .await
        .map_err(|error| SelfTestError::NoAnswer {
            url: url.clone(),
            reason: error.to_string(),
        })?;
    match answer.status() {
        reqwest::StatusCode::UNAUTHORIZED => Ok(()),
        status => Err(SelfTestError::NotServed {
            url,
            status: status.as_u16(),
        }),
    }
}

/// Counts a refusal and returns its status.
fn refuse(status: StatusCode) -> StatusCode {
    metrics::webhook_refused(status.as_u16());
    status
}

/// Whether `a` equals `b`, in a time that depends on their lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = u8::from(a.len() != b.len());
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        difference |= x ^ y;
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use super::constant_time_eq;

    #[test]
    fn secrets_compare_whole() {
        assert!(constant_time_eq(b"abc-123", b"abc-123"));
        assert!(!constant_time_eq(b"abc-124", b"abc-123"));
        assert!(!constant_time_eq(b"abc", b"abc-123"));
        assert!(!constant_time_eq(b"", b"abc"));
        assert!(!constant_time_eq(b"abc-1234", b"abc-123"));
    }
}
