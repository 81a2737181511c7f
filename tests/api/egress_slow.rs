//! The way out when Telegram is slow: the sends in flight follow the budget and the measured
//! latency, so a burst of answers is not held to a fixed handful of workers, and every guarantee
//! holds (one confirmation per user, none twice, Telegram's limits kept).

use chrono_tz::Tz;
use pgqueue::JobState;
use remindbot::domain::lang::Lang;
use remindbot::store::chats;
use remindbot::store::types::ChatKind;
use tgsim::{CallRecord, FaultAction, FaultRule, NewUser};

use crate::app::{TestApp, text};
use crate::support::{TIMING, WAIT, eventually, jobs_in};

const SAVED: &str = "Task saved";

/// How many confirmations of a saved task `user`'s chat shows.
fn confirmations(app: &TestApp, user: i64) -> usize {
    app.sim
        .transcript(user)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.from_bot && text(e).contains(SAVED))
        .count()
}

/// The most `sendMessage` requests that were open at the simulator at one moment.
fn most_sends_open(calls: &[CallRecord]) -> usize {
    let mut edges: Vec<(i64, i32)> = calls
        .iter()
        .filter(|c| c.method == "sendMessage")
        .flat_map(|c| [(c.at_ms, 1), (c.at_ms + c.duration_ms as i64, -1)])
        .collect();
    // An answer at the same millisecond as an arrival closes first.
    edges.sort_unstable();
    let (mut open, mut most) = (0i32, 0i32);
    for (_, step) in edges {
        open += step;
        most = most.max(open);
    }
    most as usize
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_telegram_slow_a_burst_of_300_users_gets_300_confirmations_none_twice() {
    let _timing = TIMING.lock().await;
    const USERS: i64 = 300;
    // Telegram's limits, the bot's default settings, every answer 200 ms to 3 s late.
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    app.sim.add_fault(
        FaultRule::new(FaultAction::Delay {
            min_ms: 200,
            max_ms: 3000,
        })
        .method("sendMessage"),
    );
    let users: Vec<i64> = (0..USERS)
        .map(|i| {
            app.sim
                .create_user(NewUser::new("user").id(7_000_000 + i).language("en"))
                .unwrap()
                .user
                .id
        })
        .collect();
    for user in &users {
        chats::upsert(
            &app.pool,
            remindbot::domain::ids::ChatId(*user),
            ChatKind::Private,
            Lang::En,
        )
        .await
        .unwrap();
        chats::set_tz(
            &app.pool,
            remindbot::domain::ids::ChatId(*user),
            Tz::Asia__Tashkent,
        )
        .await
        .unwrap();
    }
    app.run().await;
    for user in &users {
        app.sim
            .user_says(*user, "water the plants tomorrow 9:00")
            .unwrap();
    }
    eventually(WAIT * 12, "every user's task confirmed", || async {
        users.iter().all(|user| confirmations(&app, *user) >= 1)
    })
    .await;
    // Every send recorded (nothing running), then a graceful stop: a confirmation sent twice
    // would be out by then.
    eventually(WAIT, "no send under way", || async {
        jobs_in(&app.pool, JobState::Running).await == 0
    })
    .await;
    app.stop().await;

    let twice: Vec<i64> = users
        .iter()
        .copied()
        .filter(|user| confirmations(&app, *user) > 1)
        .collect();
    assert!(twice.is_empty(), "confirmed twice: {twice:?}");
    let counters = app.sim.counters();
    assert_eq!(counters.too_many_requests.global, 0);
    assert_eq!(counters.too_many_requests.per_chat, 0);
    // 30 a second at 1.6 s each keep about 48 open: more than the 16 workers of a fixed count.
    let open = most_sends_open(&app.sim.calls(0));
    eprintln!("at most {open} sends open at once");
    assert!(open > 16, "at most {open} sends open at once");
}
