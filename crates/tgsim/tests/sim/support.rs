//! Shared helpers for the simulator's own tests: the one wait bound ([`WAIT`]), starting a
//! simulator, pointing teloxide or a raw HTTP client at it, creating users.

use std::time::Duration;

use serde_json::Value;
use teloxide::Bot;
use tgsim::{LimitsConfig, NewUser, SimConfig, SimHandle, Simulator};

/// How long to wait for what normally happens within milliseconds (an update reaching a poll, a
/// webhook delivery, a reply) before failing.
pub const WAIT: Duration = Duration::from_secs(10);

/// A simulator with default settings (Telegram-like limits, real clock).
pub async fn start() -> SimHandle {
    start_with(SimConfig::default()).await
}

/// A simulator with flood control off.
pub async fn start_unlimited() -> SimHandle {
    start_with(SimConfig::default().with_limits(LimitsConfig::off())).await
}

/// A simulator with the given settings.
pub async fn start_with(config: SimConfig) -> SimHandle {
    Simulator::start(config).await.expect("simulator starts")
}

/// A teloxide bot pointed at the simulator, as `TELOXIDE_API_URL` would point it.
pub fn bot(sim: &SimHandle) -> Bot {
    Bot::new(sim.token()).set_api_url(sim.url().parse().expect("simulator URL parses"))
}

/// A started user; returns their id (= their private chat's id).
pub fn user(sim: &SimHandle, name: &str) -> i64 {
    sim.create_user(NewUser::new(name))
        .expect("user is created")
        .user
        .id
}

/// A raw HTTP answer: status and JSON body (and the body text, for byte comparisons).
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub text: String,
    pub json: Value,
}

impl Raw {
    /// `description` of an error answer.
    pub fn description(&self) -> &str {
        self.json["description"].as_str().unwrap_or_default()
    }
}

async fn raw(response: reqwest::Response) -> Raw {
    let status = response.status().as_u16();
    let text = response.text().await.expect("body is read");
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Raw { status, text, json }
}

/// POSTs a JSON body to `/bot<token>/<method>`.
pub async fn call(sim: &SimHandle, method: &str, body: Value) -> Raw {
    let url = format!("{}/{method}", sim.api_url());
    raw(reqwest::Client::new()
        .post(url)
        .json(&body)
        .send()
        .await
        .expect("request is sent"))
    .await
}

/// POSTs a form-encoded body to `/bot<token>/<method>`.
pub async fn call_form(sim: &SimHandle, method: &str, form: &[(&str, &str)]) -> Raw {
    let url = format!("{}/{method}", sim.api_url());
    raw(reqwest::Client::new()
        .post(url)
        .form(form)
        .send()
        .await
        .expect("request is sent"))
    .await
}

/// GETs `url` (query parameters included).
pub async fn get(url: &str) -> Raw {
    raw(reqwest::get(url).await.expect("request is sent")).await
}

/// Sends a control request (`/__sim/<path>`) with an optional JSON body.
pub async fn control(
    sim: &SimHandle,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> Raw {
    let url = format!("{}/{path}", sim.control_url());
    let mut request = reqwest::Client::new().request(method, url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    raw(request.send().await.expect("request is sent")).await
}
