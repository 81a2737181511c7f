//! Paid broadcast (PAID_BROADCAST): a herd of reminders that would be late at Telegram's free
//! 30/s leaves above it with `allow_paid_broadcast`, within the daily Stars budget, then falls back
//! to the free rate; a refusal (no Stars, not eligible) falls back too, losing and doubling
//! nothing, while a chat's own rejection of a paid send fails that reminder alone; replies never pay; off, nothing does. Every assertion is on what the simulator saw
//! (which sends carried the flag, what it charged) and what the database holds.

use std::time::Duration;

use chrono::Utc;
use pgqueue::JobState;
use remindbot::check::Severity;
use remindbot::config::RunConfig;
use remindbot::egress::{PaidSettings, Stars};
use serde_json::Value;
use tgsim::{CallRecord, FaultAction, FaultRule, PaidBroadcastUpdate};

use crate::app::TestApp;
use crate::support::{WAIT, eventually, jobs_in};

/// The bot's daily budget in these tests: 10 Stars, 100 paid messages.
const BUDGET_TENTHS: i64 = 100;

/// Paid broadcast on: a reminder pays once the reminders due would be more than 2 s late.
fn paid_on(config: &mut RunConfig) {
    config.paid_broadcast.settings = Some(PaidSettings {
        after: Duration::from_secs(2),
        per_day: Stars {
            tenths: BUDGET_TENTHS,
        },
    });
}

/// Whether a call carried `allow_paid_broadcast=true`.
fn flagged(call: &CallRecord) -> bool {
    match call.params.get("allow_paid_broadcast") {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(flag)) => flag == "true",
        _ => false,
    }
}

/// The bot's sendMessage calls so far.
fn sends(app: &TestApp) -> Vec<CallRecord> {
    app.sim
        .calls(0)
        .into_iter()
        .filter(|c| c.method == "sendMessage")
        .collect()
}

/// The Stars the bot counted against today's budget, in tenths.
async fn spent_today(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "select coalesce(sum(spent_tenths), 0)::int8 from paid_broadcast_days \
         where day = (now() at time zone 'utc')::date",
    )
    .fetch_one(&app.pool)
    .await
    .expect("today's spending")
}

/// An app under Telegram's limits with paid broadcast on, and a simulated bot with 1,000 Stars
/// whose paid broadcast is otherwise as `paid` says.
async fn paying_app(paid: PaidBroadcastUpdate) -> TestApp {
    let app = TestApp::builder()
        .telegram_limits()
        .config(paid_on)
        .prepare()
        .await;
    app.sim.set_paid_broadcast(PaidBroadcastUpdate {
        balance_tenths: Some(10_000),
        ..paid
    });
    app
}

/// `n` users with one reminder each, due now; returns their chats.
async fn herd(app: &TestApp, first: i64, n: i64) -> Vec<i64> {
    let chats = app.users(first, n);
    let now = Utc::now();
    let seeded: Vec<_> = chats.iter().map(|c| (*c, now)).collect();
    app.seed(&seeded).await;
    chats
}

/// Every chat got exactly one message: nothing lost, nothing sent twice.
fn once_each(app: &TestApp, chats: &[i64]) {
    for chat in chats {
        assert_eq!(app.bot_messages(*chat).len(), 1, "chat {chat}");
    }
}

#[tokio::test]
async fn a_herd_leaves_above_the_free_rate_within_the_stars_budget_then_at_the_free_rate() {
    let _timing = crate::support::TIMING.lock().await;
    let mut app = paying_app(PaidBroadcastUpdate::default()).await;
    let chats = herd(&app, 3_100_000, 300).await;
    app.run().await;
    app.wait_sent(300, WAIT * 4).await;

    once_each(&app, &chats);
    let sends = sends(&app);
    let paid: Vec<_> = sends.iter().filter(|c| flagged(c)).collect();
    assert!(
        paid.iter().all(|c| c.status == 200),
        "the simulator refused paid sends: {:?}",
        paid.iter().find(|c| c.status != 200)
    );
    let charged = app.sim.paid_broadcast();
    let spent = spent_today(&app).await;
    assert!(
        !paid.is_empty() && paid.len() as i64 <= spent,
        "{} paid sends, {spent} tenths counted",
        paid.len()
    );
    assert!(spent <= BUDGET_TENTHS, "{spent} tenths of {BUDGET_TENTHS}");
    assert!(
        charged.charged_tenths <= BUDGET_TENTHS,
        "Telegram charged {} tenths",
        charged.charged_tenths
    );
    let counters = app.sim.counters();
    assert!(
        counters.max_global_rate_per_s > 30 && charged.charged_tenths > 0,
        "the herd left above the free rate: at most {}/s, {} tenths charged",
        counters.max_global_rate_per_s,
        charged.charged_tenths
    );
    // The budget spent, the rest left at the free rate: the last sends carry no flag, and the
    // free limit was kept.
    let free = sends
        .iter()
        .filter(|c| c.status == 200 && !flagged(c))
        .count();
    assert_eq!(free + paid.len(), 300);
    assert!(free >= 200, "{free} free sends");
    assert!(!flagged(sends.last().expect("sends")), "the last send paid");
    assert_eq!(counters.too_many_requests.global, 0);

    let metrics = reqwest::get(format!("http://{}/metrics", app.http_addr()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("remindbot_paid_broadcast_sends_total"),
        "{metrics}"
    );
    let report = remindbot::check::run(app.config()).await;
    let line = report
        .findings
        .iter()
        .find(|f| f.topic == "paid")
        .expect("check reports paid broadcast");
    assert_eq!(line.verdict, Severity::Warn, "{line}");
    assert!(line.detail.contains("10 of 10 Stars spent"), "{line}");
    app.stop().await;
}

#[tokio::test]
async fn a_refused_paid_send_falls_back_to_the_free_rate_and_nothing_is_lost_or_sent_twice() {
    let _timing = crate::support::TIMING.lock().await;
    let mut app = paying_app(PaidBroadcastUpdate {
        eligible: Some(false),
        ..PaidBroadcastUpdate::default()
    })
    .await;
    let chats = herd(&app, 3_200_000, 150).await;
    app.run().await;
    app.wait_sent(150, WAIT * 3).await;

    once_each(&app, &chats);
    let sends = sends(&app);
    let paid: Vec<_> = sends.iter().filter(|c| flagged(c)).collect();
    assert!(!paid.is_empty(), "the herd tried to pay");
    assert!(
        paid.iter().all(|c| c.status == 400),
        "Telegram refused every paid send"
    );
    let accepted = sends.iter().filter(|c| c.status == 200).count();
    assert_eq!(
        accepted, 150,
        "each reminder accepted once, without the flag"
    );
    assert_eq!(app.sim.paid_broadcast().charged_tenths, 0);
    assert_eq!(app.sim.counters().too_many_requests.global, 0);
    // The refused reminders went back to the queue: no attempt used, none failed.
    assert_eq!(jobs_in(&app.pool, JobState::Failed).await, 0);

    let metrics = reqwest::get(format!("http://{}/metrics", app.http_addr()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("remindbot_paid_broadcast_refusals_total"),
        "{metrics}"
    );
    let report = remindbot::check::run(app.config()).await;
    let line = report
        .findings
        .iter()
        .find(|f| f.topic == "paid")
        .expect("check reports paid broadcast");
    assert_eq!(line.verdict, Severity::Warn, "{line}");
    assert!(
        line.detail.contains("refused a paid send at") && line.detail.contains("BALANCE_TOO_LOW"),
        "{line}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_chat_rejecting_a_paid_send_fails_alone_and_paid_broadcast_stays_on() {
    let _timing = crate::support::TIMING.lock().await;
    let mut app = paying_app(PaidBroadcastUpdate::default()).await;
    let chats = herd(&app, 3_300_000, 300).await;
    // Every tenth chat's message is rejected for a reason of its own (not about paying).
    let rejecting: Vec<i64> = chats.iter().copied().step_by(10).collect();
    for chat in &rejecting {
        app.sim.add_fault(
            FaultRule::new(FaultAction::ApiError {
                error_code: 400,
                description: "Bad Request: message thread not found".to_owned(),
                parameters: None,
            })
            .method("sendMessage")
            .chat(*chat)
            .times(1),
        );
    }
    app.run().await;
    app.wait_sent(270, WAIT * 4).await;
    eventually(WAIT, "the rejected reminders failed", || async {
        jobs_in(&app.pool, JobState::Failed).await == 30
    })
    .await;

    // The rejected chats got nothing (their reminders failed as any rejected one does); the
    // others one each, and the herd went on paying until the day's budget was spent.
    let others: Vec<i64> = chats
        .iter()
        .copied()
        .filter(|c| !rejecting.contains(c))
        .collect();
    once_each(&app, &others);
    assert!(rejecting.iter().all(|c| app.bot_messages(*c).is_empty()));
    let report = remindbot::check::run(app.config()).await;
    let line = report
        .findings
        .iter()
        .find(|f| f.topic == "paid")
        .expect("check reports paid broadcast");
    assert!(!line.detail.contains("refused"), "{line}");
    assert!(line.detail.contains("10 of 10 Stars spent"), "{line}");
    app.stop().await;
}

#[tokio::test]
async fn replies_never_pay_even_while_reminders_do() {
    let _timing = crate::support::TIMING.lock().await;
    let mut app = paying_app(PaidBroadcastUpdate::default()).await;
    // Twenty reminders each for 12 chats: at one message a second per chat they take about twenty
    // seconds, paying all along (the reminders due would be late), while Ann writes; long enough
    // that paid reminders still leave after her answer on a loaded machine.
    let chats = app.users(3_300_000, 12);
    let now = Utc::now();
    let seeded: Vec<_> = chats
        .iter()
        .flat_map(|c| std::iter::repeat_n((*c, now), 20))
        .collect();
    app.seed(&seeded).await;
    let ann = app.user("Ann", "en");
    app.run().await;
    eventually(WAIT, "a paid reminder", || async {
        sends(&app).iter().any(flagged)
    })
    .await;
    app.say(ann, "/start").await;
    let replied = sends(&app)
        .into_iter()
        .filter(|c| c.chat_id == Some(ann))
        .map(|c| c.seq)
        .collect::<Vec<_>>();
    assert!(!replied.is_empty());
    app.wait_sent(240, WAIT * 6).await;

    let sends = sends(&app);
    for call in sends.iter().filter(|c| c.chat_id == Some(ann)) {
        assert!(!flagged(call), "a reply paid: {call:?}");
    }
    let first_reply = replied[0];
    assert!(
        sends.iter().any(|c| flagged(c) && c.seq > first_reply),
        "reminders still paid after the reply"
    );
    assert!(
        sends.iter().filter(|c| flagged(c)).count() as i64 <= spent_today(&app).await,
        "every paid send was counted"
    );
    app.stop().await;
}

#[tokio::test]
async fn with_paid_broadcast_off_no_send_carries_the_flag() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    app.sim.set_paid_broadcast(PaidBroadcastUpdate {
        balance_tenths: Some(10_000),
        ..PaidBroadcastUpdate::default()
    });
    let chats = herd(&app, 3_400_000, 60).await;
    app.run().await;
    app.wait_sent(60, WAIT * 3).await;

    once_each(&app, &chats);
    assert!(
        app.sim.calls(0).iter().all(|c| !flagged(c)),
        "a send carried allow_paid_broadcast"
    );
    assert_eq!(app.sim.paid_broadcast().sent, 0);
    assert_eq!(spent_today(&app).await, 0);
    let report = remindbot::check::run(app.config()).await;
    let line = report
        .findings
        .iter()
        .find(|f| f.topic == "paid")
        .expect("check reports paid broadcast");
    assert!(line.detail.contains("off"), "{line}");
    app.stop().await;
}
