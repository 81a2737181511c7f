//! An admin's Retry puts a failed reminder back, and the delivery worker sends it through the
//! simulator; Cancel stops one for good.

use chrono::Utc;
use pgqueue::JobState;
use remindbot::admin::actions::{self, ActionResult};
use tgsim::UserState;

use crate::app::TestApp;
use crate::support::{WAIT, eventually, job_of_task, reminder_jobs};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_reminder_is_delivered_and_a_cancelled_one_is_not() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let users = app.users(5_100_000, 2);
    for user in &users {
        app.sim.set_user_state(*user, UserState::Blocked).unwrap();
    }
    let tasks = app
        .seed(&[(users[0], Utc::now()), (users[1], Utc::now())])
        .await;
    app.run().await;
    eventually(WAIT, "both reminders to fail", || async {
        let jobs = reminder_jobs(&app.pool).await;
        jobs.len() == 2 && jobs.iter().all(|job| job.state == JobState::Failed)
    })
    .await;
    assert!(app.bot_messages(users[0]).is_empty());

    // Both users unblock the bot; the admin retries one reminder and cancels the other.
    for user in &users {
        app.sim.set_user_state(*user, UserState::Started).unwrap();
    }
    let (first, second) = (
        job_of_task(&app.pool, tasks[0]).await.id,
        job_of_task(&app.pool, tasks[1]).await.id,
    );
    assert_eq!(
        actions::retry(&app.queue, "admin:test", first)
            .await
            .unwrap(),
        ActionResult::Retried(vec![first])
    );
    assert_eq!(
        actions::cancel(&app.queue, "admin:test", second)
            .await
            .unwrap(),
        ActionResult::Cancelled(second)
    );
    app.wait_sent(1, WAIT).await;
    assert_eq!(
        app.bot_messages(users[0]).len(),
        1,
        "the retried reminder arrives once"
    );
    assert!(
        app.bot_messages(users[1]).is_empty(),
        "the cancelled one never does"
    );
    assert_eq!(job_of_task(&app.pool, tasks[0]).await.state, JobState::Done);
    app.stop().await;
}
