//! Webhooks: setWebhook validation, delivery by POST with the secret-token header, retries on
//! non-2xx answers, and getWebhookInfo.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::{Value, json};
use tgsim::{SECRET_HEADER, SimHandle, descriptions};

use crate::support::{WAIT, call, start_unlimited, user};

/// One delivery: the secret-token header and the update.
type Delivery = (Option<String>, Value);

#[derive(Clone, Default)]
struct Received {
    deliveries: Arc<Mutex<Vec<Delivery>>>,
}

/// A webhook endpoint that fails its first answer with 500, then accepts.
async fn endpoint() -> (String, Received) {
    async fn hook(
        State(received): State<Received>,
        headers: HeaderMap,
        body: axum::Json<Value>,
    ) -> StatusCode {
        let secret = headers
            .get(SECRET_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let mut deliveries = received.deliveries.lock().unwrap();
        deliveries.push((secret, body.0));
        if deliveries.len() == 1 {
            StatusCode::INTERNAL_SERVER_ERROR
        } else {
            StatusCode::OK
        }
    }
    let received = Received::default();
    let app = Router::new()
        .route("/hook", post(hook))
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, received)
}

async fn info(sim: &SimHandle) -> Value {
    call(sim, "getWebhookInfo", json!({})).await.json["result"].clone()
}

#[tokio::test]
async fn updates_are_posted_with_the_secret_and_retried() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let (url, received) = endpoint().await;
    let set = call(
        &sim,
        "setWebhook",
        json!({"url": url, "secret_token": "s3cr3t_-X"}),
    )
    .await;
    assert_eq!(
        set.text,
        r#"{"ok":true,"result":true,"description":"Webhook was set"}"#
    );

    sim.user_says(ann, "via webhook").unwrap();
    sim.wait_for_calls(WAIT, |_| received.deliveries.lock().unwrap().len() >= 2)
        .await
        .unwrap();
    let deliveries = received.deliveries.lock().unwrap().clone();
    assert_eq!(
        deliveries[0], deliveries[1],
        "the failed delivery is retried with the same update"
    );
    assert_eq!(deliveries[0].0.as_deref(), Some("s3cr3t_-X"));
    assert_eq!(deliveries[0].1["message"]["text"], json!("via webhook"));

    let webhook = info(&sim).await;
    assert_eq!(webhook["url"], json!(url));
    assert_eq!(webhook["pending_update_count"], json!(0));
    assert_eq!(
        webhook["last_error_message"],
        json!("Wrong response from the webhook: 500 Internal Server Error")
    );
    assert!(webhook["last_error_date"].as_i64().unwrap() > 0);
    let counters = sim.counters();
    assert_eq!(
        (counters.webhook_deliveries, counters.webhook_failures),
        (1, 1)
    );

    let deleted = call(&sim, "deleteWebhook", json!({})).await;
    assert_eq!(
        deleted.text,
        r#"{"ok":true,"result":true,"description":"Webhook was deleted"}"#
    );
    assert_eq!(
        info(&sim).await,
        json!({"url": "", "has_custom_certificate": false, "pending_update_count": 0})
    );
}

#[tokio::test]
async fn bad_settings_are_refused_and_pending_updates_can_be_dropped() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let bad_secret = call(
        &sim,
        "setWebhook",
        json!({"url": "http://127.0.0.1:9/", "secret_token": "no spaces"}),
    )
    .await;
    assert_eq!(bad_secret.description(), descriptions::BAD_SECRET_TOKEN);
    let bad_max = call(
        &sim,
        "setWebhook",
        json!({"url": "http://127.0.0.1:9/", "max_connections": 0}),
    )
    .await;
    assert_eq!(
        bad_max.description(),
        descriptions::WEBHOOK_BAD_MAX_CONNECTIONS
    );

    sim.user_says(ann, "queued").unwrap();
    assert_eq!(info(&sim).await["pending_update_count"], json!(1));
    call(&sim, "deleteWebhook", json!({"drop_pending_updates": true})).await;
    assert!(sim.pending_updates().is_empty());
}

#[tokio::test]
async fn https_rules_apply_in_strict_mode() {
    let mut config = tgsim::SimConfig::default();
    config.webhook.require_https = true;
    let sim = crate::support::start_with(config).await;
    let http = call(
        &sim,
        "setWebhook",
        json!({"url": "http://example.com/hook"}),
    )
    .await;
    assert_eq!(http.description(), descriptions::WEBHOOK_NEEDS_HTTPS);
    let port = call(
        &sim,
        "setWebhook",
        json!({"url": "https://example.com:8080/hook"}),
    )
    .await;
    assert_eq!(port.description(), descriptions::WEBHOOK_BAD_PORT);
    assert_eq!(
        call(
            &sim,
            "setWebhook",
            json!({"url": "https://example.com:8443/hook"})
        )
        .await
        .status,
        200
    );
}
