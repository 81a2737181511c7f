//! Delivery at volume: many chats at once, and one busy chat among others.

use std::time::{Duration, Instant};

use chrono::Utc;
use tgsim::{LimitsConfig, Rate, SimConfig};

use crate::app::TestApp;
use crate::support::{WAIT, eventually};

/// The simulator's overall limit and the bot's, scaled together by 10 (Telegram: 30/s and 25/s).
const SIM_RATE: u32 = 300;
const BOT_RATE: u32 = 250;

#[tokio::test]
async fn a_thousand_reminders_for_a_thousand_chats_go_out_once_each_within_the_rate_limit() {
    let _timing = crate::support::TIMING.lock().await;
    let limits = LimitsConfig {
        global: Rate::per_second(SIM_RATE, SIM_RATE),
        ..LimitsConfig::default()
    };
    let mut app = TestApp::builder()
        .simulator(SimConfig::default().with_limits(limits))
        .config(|c| c.delivery.rate_per_sec = BOT_RATE)
        .prepare()
        .await;
    let chats = app.users(1_000_000, 1000);
    let now = Utc::now();
    let seeded: Vec<_> = chats.iter().map(|c| (*c, now)).collect();
    app.seed(&seeded).await;

    let started = Instant::now();
    app.run().await;
    // 1000 sends at 250/s take 4 s at the least, and far more on a busy machine.
    app.wait_sent(1000, WAIT * 6).await;
    let elapsed = started.elapsed().as_secs_f64();

    let counters = app.sim.counters();
    let rate = 1000.0 / elapsed;
    eprintln!(
        "1000 reminders in {elapsed:.2} s: {rate:.0}/s (bot limit {BOT_RATE}/s), 429s: {:?}, max {}/s",
        counters.too_many_requests, counters.max_global_rate_per_s
    );
    assert_eq!(counters.messages_sent, 1000);
    for chat in &chats {
        assert_eq!(app.bot_messages(*chat).len(), 1, "chat {chat}");
    }
    let throttled = counters.too_many_requests;
    assert_eq!(throttled.global + throttled.per_chat, 0, "{throttled:?}");
    // How fast is a benchmark's to say (`remindbot-dev bench delivery`), not a test's: this one
    // runs beside others on a shared machine.

    let metrics = reqwest::get(format!("http://{}/metrics", app.http_addr()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("remindbot_reminders_sent_total"),
        "{metrics}"
    );
    assert!(
        metrics.contains("remindbot_queue_jobs{state=\"done\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains("remindbot_reminder_lateness_seconds_bucket"),
        "{metrics}"
    );
    let debug = format!("{:?}", app.running());
    assert!(
        !debug.contains(app.sim.token()),
        "the token leaks into Debug: {debug}"
    );
    let health = reqwest::get(format!("http://{}/healthz", app.http_addr()))
        .await
        .unwrap();
    assert!(health.status().is_success());
    app.stop().await;
}

#[tokio::test]
async fn fifty_reminders_for_one_chat_keep_its_rate_and_do_not_delay_other_chats() {
    // Per-chat limits scaled: the simulator's bucket 10/s (bursts of 3), the bot 8/s (a margin, as
    // 29/s against 30/s overall: arrivals bunch up when the machine is busy).
    let limits = LimitsConfig {
        per_chat: Rate::per_second(10, 3),
        ..LimitsConfig::default()
    };
    let mut app = TestApp::builder()
        .simulator(SimConfig::default().with_limits(limits))
        .config(|c| c.delivery.rate_per_chat_per_sec = 8)
        .prepare()
        .await;
    let busy = app.users(2_000_000, 1)[0];
    let others = app.users(2_100_000, 50);
    let now = Utc::now();
    let mut seeded: Vec<_> = (0..50).map(|_| (busy, now)).collect();
    seeded.extend(others.iter().map(|c| (*c, now)));
    app.seed(&seeded).await;

    let started = Instant::now();
    app.run().await;
    eventually(WAIT, "the other chats served", || async {
        others.iter().all(|c| !app.bot_messages(*c).is_empty())
    })
    .await;
    let others_done = started.elapsed();
    // The busy chat's 50 reminders at 8/s take 6 s at the least.
    app.wait_sent(100, WAIT * 2).await;
    let all_done = started.elapsed();
    let counters = app.sim.counters();
    eprintln!(
        "other chats done after {others_done:?}, busy chat after {all_done:?}; max chat rate {}/s; 429s {:?}",
        counters.max_chat_rate_per_s, counters.too_many_requests
    );
    assert_eq!(app.bot_messages(busy).len(), 50);
    assert!(counters.max_chat_rate_per_s <= 10);
    assert_eq!(counters.too_many_requests.per_chat, 0);
    assert_eq!(counters.too_many_requests.global, 0);
    assert!(
        others_done < Duration::from_secs(5) && others_done * 2 < all_done,
        "{others_done:?} vs {all_done:?}"
    );
    assert!(
        all_done >= Duration::from_millis(49 * 1000 / 8),
        "{all_done:?}"
    );
    app.stop().await;
}
