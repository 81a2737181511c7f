//! Flood control: bursts beyond a limit get 429 with `retry_after`, the same traffic paced at the
//! limit gets none. The manual clock makes pacing exact and the tests fast.

use std::time::Duration;

use serde_json::json;
use tgsim::{LimitsConfig, NewGroup, PaidBroadcastUpdate, Rate, SimConfig, SimHandle};

use crate::support::{call, start_with, user};

async fn manual_clock_sim(limits: LimitsConfig) -> SimHandle {
    start_with(SimConfig::default().with_limits(limits).with_manual_clock()).await
}

/// Sends one message per chat in `chats`, advancing the clock by `pace` after each; returns the
/// `retry_after` of every 429.
async fn send_all(sim: &SimHandle, chats: &[i64], pace: Duration, paid: bool) -> Vec<u64> {
    let mut refused = Vec::new();
    for (i, chat) in chats.iter().enumerate() {
        let answer = call(
            sim,
            "sendMessage",
            json!({"chat_id": chat, "text": format!("reminder {i}"), "allow_paid_broadcast": paid}),
        )
        .await;
        match answer.status {
            200 => {}
            429 => {
                assert_eq!(
                    answer.description(),
                    format!(
                        "Too Many Requests: retry after {}",
                        answer.json["parameters"]["retry_after"]
                    )
                );
                refused.push(answer.json["parameters"]["retry_after"].as_u64().unwrap());
            }
            other => panic!("unexpected status {other}: {}", answer.text),
        }
        sim.advance_clock(pace);
    }
    refused
}

#[tokio::test]
async fn one_chat_burst_is_refused_beyond_the_limit_and_paced_sends_pass() {
    let sim = manual_clock_sim(LimitsConfig::default()).await;
    let ann = user(&sim, "Ann");
    let refused = send_all(&sim, &[ann; 100], Duration::ZERO, false).await;
    assert_eq!(refused.len(), 97, "a burst of 3, then 429s");
    assert!(
        refused.iter().all(|r| *r >= 1),
        "every 429 says how long to wait"
    );
    let counters = sim.counters();
    assert_eq!(counters.too_many_requests.per_chat, 97);
    assert_eq!(counters.max_chat_rate_per_s, 3);

    let bob = user(&sim, "Bob");
    sim.reset_counters();
    assert_eq!(
        send_all(&sim, &[bob; 100], Duration::from_secs(1), false).await,
        Vec::<u64>::new()
    );
    assert_eq!(sim.counters().max_chat_rate_per_s, 1);
    assert_eq!(sim.counters().messages_sent, 100);
}

#[tokio::test]
async fn the_global_limit_refuses_bursts_across_chats_and_passes_paced_ones() {
    let sim = manual_clock_sim(LimitsConfig::default()).await;
    let chats: Vec<i64> = (0..100).map(|i| user(&sim, &format!("U{i}"))).collect();
    let refused = send_all(&sim, &chats, Duration::ZERO, false).await;
    assert_eq!(refused.len(), 70, "30 per second overall");
    assert_eq!(sim.counters().too_many_requests.global, 70);
    assert_eq!(sim.counters().max_global_rate_per_s, 30);

    sim.advance_clock(Duration::from_secs(2));
    sim.reset_counters();
    let pace = Duration::from_millis(34);
    assert_eq!(
        send_all(&sim, &chats, pace, false).await,
        Vec::<u64>::new(),
        "30/s paced passes"
    );
    assert!(sim.counters().max_global_rate_per_s <= 30);
}

#[tokio::test]
async fn paid_broadcasts_raise_the_overall_cap_and_cost_a_tenth_of_a_star_above_the_free_rate() {
    let sim = manual_clock_sim(LimitsConfig::default()).await;
    sim.set_paid_broadcast(PaidBroadcastUpdate {
        balance_tenths: Some(1000),
        ..PaidBroadcastUpdate::default()
    });
    let chats: Vec<i64> = (0..100).map(|i| user(&sim, &format!("U{i}"))).collect();
    assert_eq!(
        send_all(&sim, &chats, Duration::ZERO, true).await,
        Vec::<u64>::new()
    );
    assert_eq!(sim.counters().max_global_rate_per_s, 100);
    let paid = sim.paid_broadcast();
    assert_eq!(paid.sent, 100);
    assert_eq!(
        paid.charged_tenths, 70,
        "the first 30 of the second are within the free limit, the other 70 cost 0.1 Star each"
    );
    assert_eq!(paid.balance_tenths, 930);

    // A quiet second later, a paid broadcast within the free rate costs nothing.
    sim.advance_clock(Duration::from_secs(2));
    send_all(&sim, &chats[..10], Duration::ZERO, true).await;
    assert_eq!(sim.paid_broadcast().charged_tenths, 70);
}

#[tokio::test]
async fn a_paid_broadcast_the_bot_cannot_pay_for_is_refused_and_costs_nothing() {
    let sim = manual_clock_sim(LimitsConfig::default()).await;
    sim.set_paid_broadcast(PaidBroadcastUpdate {
        balance_tenths: Some(5),
        ..PaidBroadcastUpdate::default()
    });
    let chats: Vec<i64> = (0..40).map(|i| user(&sim, &format!("U{i}"))).collect();
    let mut statuses = Vec::new();
    for chat in &chats {
        let answer = call(
            &sim,
            "sendMessage",
            json!({"chat_id": chat, "text": "herd", "allow_paid_broadcast": true}),
        )
        .await;
        if answer.status == 400 {
            assert_eq!(
                answer.text,
                r#"{"ok":false,"error_code":400,"description":"Bad Request: BALANCE_TOO_LOW"}"#
            );
        }
        statuses.push(answer.status);
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        35,
        "30 free, 5 paid"
    );
    assert_eq!(statuses.iter().filter(|s| **s == 400).count(), 5);
    let paid = sim.paid_broadcast();
    assert_eq!(
        (paid.balance_tenths, paid.charged_tenths, paid.refused),
        (0, 5, 5)
    );
    assert_eq!(sim.counters().messages_sent, 35);

    sim.advance_clock(Duration::from_secs(2));
    sim.set_paid_broadcast(PaidBroadcastUpdate {
        balance_tenths: Some(1000),
        eligible: Some(false),
    });
    let answer = call(
        &sim,
        "sendMessage",
        json!({"chat_id": chats[0], "text": "x", "allow_paid_broadcast": true}),
    )
    .await;
    assert_eq!(
        answer.status, 400,
        "not eligible: refused even within the free rate"
    );
    assert_eq!(answer.description(), "Bad Request: BALANCE_TOO_LOW");
    let free = call(
        &sim,
        "sendMessage",
        json!({"chat_id": chats[0], "text": "x"}),
    )
    .await;
    assert_eq!(free.status, 200, "sends without the flag are not affected");
    assert_eq!(sim.paid_broadcast().balance_tenths, 1000);
}

#[tokio::test]
async fn per_chat_limits_still_apply_to_paid_broadcasts() {
    let sim = manual_clock_sim(LimitsConfig::default()).await;
    sim.set_paid_broadcast(PaidBroadcastUpdate {
        balance_tenths: Some(1000),
        ..PaidBroadcastUpdate::default()
    });
    let ann = user(&sim, "Ann");
    let refused = send_all(&sim, &[ann; 5], Duration::ZERO, true).await;
    assert_eq!(refused.len(), 2, "a burst of 3 to one chat, then 429s");
    assert_eq!(sim.counters().too_many_requests.per_chat, 2);
    assert_eq!(sim.paid_broadcast().sent, 3);
}

#[tokio::test]
async fn a_group_takes_twenty_messages_a_minute() {
    let sim = manual_clock_sim(LimitsConfig::default()).await;
    let group = sim.create_group(NewGroup::new("Family")).unwrap().chat.id;
    let refused = send_all(&sim, &[group; 21], Duration::from_secs(1), false).await;
    assert_eq!(
        refused,
        vec![40],
        "the 21st at 20 s waits until the first leaves the minute"
    );
    assert_eq!(sim.counters().too_many_requests.per_group, 1);
    assert_eq!(sim.counters().max_group_rate_per_min, 20);

    sim.advance_clock(Duration::from_secs(60));
    let refused = send_all(&sim, &[group; 20], Duration::from_secs(3), false).await;
    assert_eq!(refused, Vec::<u64>::new(), "20 per minute, paced, pass");
}

#[tokio::test]
async fn scaled_limits_work_on_the_real_clock() {
    let limits = LimitsConfig {
        per_chat: Rate::per_second(100, 2),
        ..LimitsConfig::default()
    };
    let sim = start_with(SimConfig::default().with_limits(limits)).await;
    let ann = user(&sim, "Ann");
    let url = format!("{}/sendMessage", sim.api_url());
    let client = reqwest::Client::new();
    let mut burst = tokio::task::JoinSet::new();
    for _ in 0..20 {
        let request = client
            .post(&url)
            .json(&json!({"chat_id": ann, "text": "burst"}));
        burst.spawn(async move { request.send().await.unwrap().status().as_u16() });
    }
    let statuses = burst.join_all().await;
    assert!(
        statuses.iter().filter(|s| **s == 429).count() >= 10,
        "20 at once at 100/s, burst 2: {statuses:?}"
    );

    let mut interval = tokio::time::interval(Duration::from_millis(20));
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    interval.tick().await;
    for _ in 0..20 {
        interval.tick().await;
        let answer = call(
            &sim,
            "sendMessage",
            json!({"chat_id": ann, "text": "paced"}),
        )
        .await;
        assert_eq!(
            answer.status, 200,
            "paced at half the limit: {}",
            answer.text
        );
    }
}

#[tokio::test]
async fn switches_for_429_without_parameters_and_for_an_hour_and_off() {
    let omit = LimitsConfig {
        omit_parameters: true,
        ..LimitsConfig::default()
    };
    let sim = manual_clock_sim(omit).await;
    let ann = user(&sim, "Ann");
    for _ in 0..3 {
        call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"})).await;
    }
    let answer = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"})).await;
    assert_eq!(
        answer.text,
        r#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1"}"#
    );

    sim.set_limits(LimitsConfig {
        retry_after_override: Some(3600),
        ..LimitsConfig::default()
    });
    for _ in 0..3 {
        call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"})).await;
    }
    let answer = call(&sim, "sendMessage", json!({"chat_id": ann, "text": "x"})).await;
    assert_eq!(answer.json["parameters"]["retry_after"], json!(3600));

    sim.set_limits(LimitsConfig::off());
    assert_eq!(
        send_all(&sim, &[ann; 200], Duration::ZERO, false).await,
        Vec::<u64>::new()
    );
}
