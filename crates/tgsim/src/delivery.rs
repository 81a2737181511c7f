//! Webhook delivery: while a webhook is set, POST each pending update to it in order, with the
//! `X-Telegram-Bot-Api-Secret-Token` header; retry non-2xx answers with a doubling pause and drop
//! the update after the configured number of attempts, recording the error for getWebhookInfo.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::Uri;
use tracing::Instrument;

use super::http_client::HttpConnection;
use super::state::Shared;
use super::types::Update;

/// The header carrying the webhook's secret token.
pub const SECRET_HEADER: &str = "X-Telegram-Bot-Api-Secret-Token";

/// Longest pause between attempts.
const MAX_PAUSE: Duration = Duration::from_secs(30);

/// Runs until the simulator shuts down.
pub(crate) async fn run(shared: Arc<Shared>) {
    let notify = shared.read(|w| w.updates.notifier());
    let settings = shared.webhook.clone();
    let mut failures = 0u32;
    loop {
        let notified = notify.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        let job = shared.read(|w| match (&w.webhook, w.updates.front()) {
            (Some(hook), Some(update)) => {
                Some((hook.url.clone(), hook.secret_token.clone(), update.clone()))
            }
            _ => None,
        });
        let Some((url, secret, update)) = job else {
            tokio::select! {
                () = &mut notified => continue,
                () = shared.shutdown.cancelled() => return,
            }
        };
        let span = tracing::info_span!("sim_webhook_delivery", update_id = update.update_id);
        let outcome = tokio::time::timeout(
            settings.request_timeout,
            deliver(&url, secret.as_deref(), &update),
        )
        .instrument(span)
        .await
        .unwrap_or_else(|_| Err("Connection timed out".to_owned()));
        match outcome {
            Ok(()) => {
                failures = 0;
                shared.with(|w| {
                    w.updates.pop_if(update.update_id);
                    w.stats.counters.webhook_deliveries += 1;
                });
            }
            Err(message) => {
                failures += 1;
                let give_up = failures >= settings.max_attempts.max(1);
                tracing::debug!(%message, failures, give_up, "webhook delivery failed");
                shared.with(|w| {
                    let now = w.clock.unix();
                    if let Some(hook) = &mut w.webhook {
                        hook.last_error_date = Some(now);
                        hook.last_error_message = Some(message);
                    }
                    w.stats.counters.webhook_failures += 1;
                    if give_up {
                        w.updates.pop_if(update.update_id);
                    }
                });
                if give_up {
                    failures = 0;
                } else {
                    let pause = settings
                        .retry_delay
                        .saturating_mul(1 << (failures - 1).min(16))
                        .min(MAX_PAUSE);
                    tokio::select! {
                        () = tokio::time::sleep(pause) => {}
                        () = shared.shutdown.cancelled() => return,
                    }
                }
            }
        }
    }
}

/// One delivery attempt; the error text is what getWebhookInfo reports.
async fn deliver(url: &str, secret: Option<&str>, update: &Update) -> Result<(), String> {
    let uri: Uri = url
        .parse()
        .map_err(|_| "Failed to resolve host: Name or service not known".to_owned())?;
    let host = uri
        .host()
        .ok_or_else(|| "Failed to resolve host: Name or service not known".to_owned())?;
    if uri.scheme_str() == Some("https") {
        return Err("SSL error: the simulator delivers over plain HTTP only".to_owned());
    }
    let authority = format!("{host}:{}", uri.port_u16().unwrap_or(80));
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let body = Bytes::from(serde_json::to_vec(update).map_err(|e| e.to_string())?);
    let headers: Vec<(&str, &str)> = secret.map(|s| (SECRET_HEADER, s)).into_iter().collect();
    let mut connection = HttpConnection::connect(&authority)
        .await
        .map_err(|e| format!("Connection failed: {e}"))?;
    let (status, _) = connection
        .post_json(path, &headers, body)
        .await
        .map_err(|e| format!("Connection failed: {e}"))?;
    if status.is_success() {
        Ok(())
    } else {
        Err(format!(
            "Wrong response from the webhook: {} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("")
        ))
    }
}
