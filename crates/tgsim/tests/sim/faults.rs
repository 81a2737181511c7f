//! Fault injection: slow answers, 5xx, dropped connections and replaced bodies, selected by
//! method, chat, count, skip and probability.

use std::time::{Duration, Instant};

use serde_json::json;
use teloxide::RequestError;
use teloxide::prelude::*;
use tgsim::{FaultAction, FaultRule, SimConfig, SimHandle};

use crate::support::{WAIT, bot, call, start_unlimited, start_with, user};

async fn send_with_timeout(
    sim: &SimHandle,
    chat: i64,
    text: &str,
    timeout: Duration,
) -> Result<u16, reqwest::Error> {
    let client = reqwest::Client::builder().timeout(timeout).build().unwrap();
    let response = client
        .post(format!("{}/sendMessage", sim.api_url()))
        .json(&json!({"chat_id": chat, "text": text}))
        .send()
        .await?;
    Ok(response.status().as_u16())
}

fn texts(sim: &SimHandle, chat: i64) -> Vec<String> {
    sim.transcript(chat)
        .unwrap()
        .into_iter()
        .filter_map(|e| e.text)
        .collect()
}

#[tokio::test]
async fn an_answer_slower_than_the_client_timeout_still_delivers() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 400,
            max_ms: 400,
        })
        .method("sendMessage")
        .times(1),
    );
    let result =
        send_with_timeout(&sim, ann, "sent but timed out", Duration::from_millis(100)).await;
    assert!(result.unwrap_err().is_timeout());
    assert_eq!(
        texts(&sim, ann),
        vec!["sent but timed out"],
        "the message was delivered anyway"
    );

    let started = Instant::now();
    assert_eq!(
        send_with_timeout(&sim, ann, "fast again", WAIT)
            .await
            .unwrap(),
        200
    );
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "the rule was used up"
    );
}

#[tokio::test]
async fn latency_is_uniform_within_its_range() {
    let sim = start_unlimited().await;
    sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 50,
            max_ms: 150,
        })
        .method("getMe"),
    );
    for _ in 0..3 {
        let started = Instant::now();
        assert_eq!(call(&sim, "getMe", json!({})).await.status, 200);
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(50) && took < Duration::from_millis(1000),
            "took {took:?}"
        );
    }
}

#[tokio::test]
async fn server_errors_and_dropped_connections() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    sim.add_fault(
        FaultRule::new(FaultAction::ServerError { status: 502 })
            .method("sendMessage")
            .times(1),
    );
    let answer = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "lost"})).await;
    assert_eq!(
        (answer.status, answer.text.as_str()),
        (
            502,
            r#"{"ok":false,"error_code":502,"description":"Bad Gateway"}"#
        )
    );

    sim.add_fault(
        FaultRule::new(FaultAction::Drop {
            after_processing: false,
        })
        .times(1),
    );
    assert!(
        send_with_timeout(&sim, ann, "never arrives", WAIT)
            .await
            .is_err()
    );
    sim.add_fault(
        FaultRule::new(FaultAction::Drop {
            after_processing: true,
        })
        .times(1),
    );
    assert!(
        send_with_timeout(&sim, ann, "arrives unanswered", WAIT)
            .await
            .is_err()
    );
    assert_eq!(texts(&sim, ann), vec!["arrives unanswered"]);

    let counters = sim.counters();
    assert_eq!(counters.dropped_connections, 2);
    assert_eq!(counters.faults_fired, 3);
    assert_eq!(counters.errors_by_code.get(&502), Some(&1));
    let statuses: Vec<u16> = sim.calls(0).into_iter().map(|c| c.status).collect();
    assert_eq!(statuses, vec![502, 0, 0]);

    let bot = bot(&sim);
    sim.add_fault(
        FaultRule::new(FaultAction::Drop {
            after_processing: false,
        })
        .times(1),
    );
    assert!(matches!(
        bot.send_message(ChatId(ann), "x").await,
        Err(RequestError::Network(_))
    ));
}

#[tokio::test]
async fn raw_bodies_reach_teloxide_as_invalid_json() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let body = r#"{"ok":true,"result":{"message_id":"not a number"}}"#;
    sim.add_fault(
        FaultRule::new(FaultAction::Raw {
            status: 200,
            body: body.into(),
            after_processing: true,
        })
        .times(1),
    );
    let result = bot(&sim)
        .send_message(ChatId(ann), "delivered, answer garbled")
        .await;
    assert!(
        matches!(result, Err(RequestError::InvalidJson { .. })),
        "{result:?}"
    );
    assert_eq!(texts(&sim, ann), vec!["delivered, answer garbled"]);
}

#[tokio::test]
async fn faults_select_by_chat_skip_and_count() {
    let sim = start_unlimited().await;
    let (ann, bob) = (user(&sim, "Ann"), user(&sim, "Bob"));
    let error = FaultAction::ApiError {
        error_code: 400,
        description: "Bad Request: injected".into(),
        parameters: None,
    };
    sim.add_fault(FaultRule::new(error).chat(bob).skip(1).times(2));
    let mut statuses = Vec::new();
    for chat in [ann, bob, ann, bob, bob, bob] {
        statuses.push(
            call(&sim, "sendMessage", json!({"chat_id": chat, "text": "x"}))
                .await
                .status,
        );
    }
    assert_eq!(statuses, vec![200, 200, 200, 400, 400, 200]);
    assert!(sim.faults().is_empty(), "a counted rule removes itself");
}

#[tokio::test]
async fn probabilistic_faults_repeat_for_the_same_seed() {
    async fn run(seed: u64) -> Vec<u16> {
        let sim = start_with(SimConfig {
            seed,
            ..SimConfig::default().without_limits()
        })
        .await;
        sim.add_fault(
            FaultRule::new(FaultAction::ServerError { status: 500 })
                .method("getMe")
                .probability(0.3),
        );
        let mut statuses = Vec::new();
        for _ in 0..40 {
            statuses.push(call(&sim, "getMe", json!({})).await.status);
        }
        statuses
    }
    let first = run(7).await;
    assert_eq!(first, run(7).await);
    let failures = first.iter().filter(|s| **s == 500).count();
    assert!((4..=24).contains(&failures), "about 30% of 40: {failures}");
}

#[tokio::test]
async fn a_poll_abandoned_by_its_client_is_logged_as_499() {
    let sim = start_unlimited().await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let abandoned = client
        .get(format!("{}/getUpdates?timeout=5", sim.api_url()))
        .send()
        .await;
    assert!(abandoned.unwrap_err().is_timeout());
    let calls = sim
        .wait_for_calls(WAIT, |calls| !calls.is_empty())
        .await
        .unwrap();
    assert_eq!(
        (calls[0].method.as_str(), calls[0].status),
        ("getUpdates", 499)
    );
}
