//! An admin's Retry puts a failed reminder back, and the delivery worker sends it through the
//! simulator; Cancel stops one for good.

use std::time::Duration;

use chrono::Utc;
use pgqueue::JobState;
use remindbot::admin::actions::{self, ActionResult};
use tgsim::{SimConfig, UserState};

use crate::delivery_support::{Setup, job_of_task};
use crate::support::eventually;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_reminder_is_delivered_and_a_cancelled_one_is_not() {
    let setup = Setup::new(SimConfig::default()).await;
    let users = setup.users(5_100_000, 2);
    for user in &users {
        setup.sim.set_user_state(*user, UserState::Blocked).unwrap();
    }
    let tasks = setup
        .seed(&[(users[0], Utc::now()), (users[1], Utc::now())])
        .await;
    let running = setup.start(setup.config(25, 1)).await;
    eventually(
        Duration::from_secs(10),
        "both reminders to fail",
        || async {
            let states = setup.job_states().await;
            states == vec![(JobState::Failed, 2)]
        },
    )
    .await;
    assert!(setup.bot_messages(users[0]).is_empty());

    // Both users unblock the bot; the admin retries one reminder and cancels the other.
    for user in &users {
        setup.sim.set_user_state(*user, UserState::Started).unwrap();
    }
    let (first, second) = (
        job_id(&setup, tasks[0]).await,
        job_id(&setup, tasks[1]).await,
    );
    assert_eq!(
        actions::retry(&setup.queue, "admin:test", first)
            .await
            .unwrap(),
        ActionResult::Retried(vec![first])
    );
    assert_eq!(
        actions::cancel(&setup.queue, "admin:test", second)
            .await
            .unwrap(),
        ActionResult::Cancelled(second)
    );
    setup.wait_sent(1, Duration::from_secs(10)).await;
    assert_eq!(
        setup.bot_messages(users[0]).len(),
        1,
        "the retried reminder arrives once"
    );
    assert!(
        setup.bot_messages(users[1]).is_empty(),
        "the cancelled one never does"
    );
    let (state, _, _, _) = job_of_task(&setup.pool, tasks[0]).await;
    assert_eq!(state, JobState::Done);
    running.stop().await.unwrap();
}

async fn job_id(setup: &Setup, task_id: i64) -> i64 {
    sqlx::query_scalar("select job_id from reminders where task_id = $1")
        .bind(task_id)
        .fetch_one(&setup.pool)
        .await
        .unwrap()
}
