//! A recurring task never stops by accident: whatever becomes of one occurrence's job on its way
//! out of `running` (sent, failed, failed when its attempts run out or its handler panics,
//! cancelled, failed by the reaper, cancelled by an admin), the task's next occurrence is pending.
//! Recording a sent reminder in one statement (a task read as one-off, in a reachable chat) still
//! finds a series and an older card to close when the task has them.

use pgqueue::JobId;
use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;
use pgqueue::{
    ClaimedJob, JobHandler, JobState, Outcome, Queue, QueueConfig, Runner, RunnerConfig, Wakeups,
    reaper,
};
use remindbot::admin::actions::{self, ActionResult};
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::egress::record;
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

use crate::support::{TestDb, reminders_with_jobs};

/// What the scripted handler does with every job.
#[derive(Clone)]
enum Script {
    Answer(Outcome),
    Panic,
}

impl JobHandler for Script {
    async fn handle(&self, _job: ClaimedJob) -> Outcome {
        match self {
            Self::Answer(outcome) => outcome.clone(),
            Self::Panic => panic!("the handler broke"),
        }
    }
}

/// A daily task of chat 600 whose current occurrence fell due a minute ago (its reminder job is
/// due now) and whose next one is tomorrow; returns its id and that occurrence's deadline.
async fn daily_task_due_now(pool: &sqlx::PgPool, queue: &Queue) -> (i64, DateTime<Utc>) {
    chats::upsert(
        pool,
        ChatId(600),
        remindbot::store::types::ChatKind::Private,
        remindbot::domain::lang::Lang::En,
    )
    .await
    .unwrap();
    let due = (Utc::now() - chrono::Duration::minutes(1))
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap();
    let rule = Recurrence::new(Frequency::Daily, due.time()).unwrap();
    let new = NewTask {
        chat_id: ChatId(600),
        owner_id: UserId(600),
        text: TaskText::parse("stretch").unwrap(),
        due_at: due,
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: Some(rule),
        tz: Tz::UTC,
    };
    let mut tx = pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, queue, &new).await.unwrap();
    tx.commit().await.unwrap();
    (task.id.0, due)
}
/// Claims the queue's next job, as a delivery worker does, and reads its reminder as the worker
/// reads it before sending.
async fn claim_and_load(pool: &sqlx::PgPool, queue: &Queue) -> (ClaimedJob, record::DueReminder) {
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    let reminder: i64 = sqlx::query_scalar("select id from reminders where job_id = $1")
        .bind(job.id)
        .fetch_one(pool)
        .await
        .unwrap();
    let loaded = record::load(pool, reminder).await.unwrap().unwrap();
    (job, loaded)
}

/// The deadlines of the task's occurrences whose reminder job is pending.
async fn pending_occurrences(pool: &sqlx::PgPool, task_id: i64) -> Vec<DateTime<Utc>> {
    let mut due: Vec<DateTime<Utc>> = reminders_with_jobs(pool, task_id)
        .await
        .into_iter()
        .filter(|r| r.kind == "occurrence" && r.job.state == JobState::Pending)
        .map(|r| r.due_at)
        .collect();
    due.sort();
    due
}

/// Runs the task's due job once through a runner whose handler follows `script`; asserts that
/// the job left `running` as `expected` and that tomorrow's occurrence is pending.
async fn assert_series_survives(script: Script, max_attempts: i32, expected: &str) {
    let db = TestDb::new().await;
    let queue = outbox_queue(
        db.pool.clone(),
        QueueConfig {
            max_attempts,
            ..QueueConfig::new(OUTBOX_QUEUE)
        },
    );
    let (task, due) = daily_task_due_now(&db.pool, &queue).await;
    let runner = Runner::new(
        queue.clone(),
        script,
        RunnerConfig::default(),
        Wakeups::poll_only(),
    );
    assert_eq!(runner.run_once().await.unwrap(), 1);
    let state = reminders_with_jobs(&db.pool, task)
        .await
        .into_iter()
        .find(|r| r.due_at == due)
        .expect("the occurrence's reminder")
        .job
        .state;
    assert_eq!(state.as_str(), expected);
    assert_eq!(
        pending_occurrences(&db.pool, task).await,
        vec![due + chrono::Duration::days(1)],
        "the next occurrence after a job that ended {expected}"
    );
}

#[tokio::test]
async fn a_failed_occurrence_keeps_the_series() {
    let fail = Outcome::Fail {
        error: "Bad Request: can't parse entities".into(),
    };
    assert_series_survives(Script::Answer(fail), 5, "failed").await;
}

#[tokio::test]
async fn an_occurrence_out_of_attempts_keeps_the_series() {
    let retry = Outcome::Retry {
        error: "Bad Gateway".into(),
        floor: None,
    };
    assert_series_survives(Script::Answer(retry), 1, "failed").await;
}

#[tokio::test]
async fn an_occurrence_whose_handler_panicked_on_its_last_attempt_keeps_the_series() {
    assert_series_survives(Script::Panic, 1, "failed").await;
}

#[tokio::test]
async fn a_cancelled_occurrence_keeps_the_series() {
    assert_series_survives(Script::Answer(Outcome::Cancel), 5, "cancelled").await;
}

#[tokio::test]
async fn an_occurrence_the_reaper_fails_keeps_the_series() {
    let db = TestDb::new().await;
    let queue = outbox_queue(
        db.pool.clone(),
        QueueConfig {
            lease: Duration::ZERO,
            max_attempts: 1,
            ..QueueConfig::new(OUTBOX_QUEUE)
        },
    );
    let (task, due) = daily_task_due_now(&db.pool, &queue).await;
    // A worker claims the job and dies: its lease expires with no attempt left.
    assert_eq!(queue.claim("dead", 1).await.unwrap().len(), 1);
    tokio::time::sleep(Duration::from_millis(20)).await;
    let reaped = reaper::reap_expired(&db.pool, std::slice::from_ref(&queue), 10)
        .await
        .unwrap();
    assert_eq!(reaped.failed, 1);
    assert_eq!(
        pending_occurrences(&db.pool, task).await,
        vec![due + chrono::Duration::days(1)]
    );
}

#[tokio::test]
async fn a_sent_occurrence_keeps_the_series_and_so_does_an_admin_cancel() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let (task, due) = daily_task_due_now(&db.pool, &queue).await;
    let (job, loaded) = claim_and_load(&db.pool, &queue).await;
    record::sent(&db.pool, &queue, &job, &loaded, Some(1))
        .await
        .unwrap();
    let tomorrow = due + chrono::Duration::days(1);
    assert_eq!(pending_occurrences(&db.pool, task).await, vec![tomorrow]);

    // An admin cancels tomorrow's reminder: the day after is scheduled instead.
    let next_job: i64 =
        sqlx::query_scalar("select job_id from reminders where task_id = $1 and due_at = $2")
            .bind(task)
            .bind(tomorrow)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        actions::cancel(&queue, "admin:test", JobId(next_job))
            .await
            .unwrap(),
        ActionResult::Cancelled(JobId(next_job))
    );
    assert_eq!(
        pending_occurrences(&db.pool, task).await,
        vec![tomorrow + chrono::Duration::days(1)]
    );
}

#[tokio::test]
async fn a_task_read_as_one_off_that_recurs_after_all_keeps_its_series_when_sent() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let (task, due) = daily_task_due_now(&db.pool, &queue).await;
    let (job, mut loaded) = claim_and_load(&db.pool, &queue).await;
    // As if the task had been read before it was made to repeat: the one-statement path is
    // tried, and the statement itself sees the series.
    loaded.task.recurrence = None;
    let recorded = record::sent(&db.pool, &queue, &job, &loaded, Some(1))
        .await
        .unwrap();
    assert!(
        matches!(
            recorded,
            record::Recorded::Sent {
                completed: true,
                ..
            }
        ),
        "{recorded:?}"
    );
    assert_eq!(
        pending_occurrences(&db.pool, task).await,
        vec![due + chrono::Duration::days(1)]
    );
    assert_eq!(
        pgqueue::inspect(&db.pool, job.id)
            .await
            .unwrap()
            .map(|j| j.state),
        Some(JobState::Done)
    );
}

#[tokio::test]
async fn a_sent_reminder_of_a_one_off_task_closes_its_older_card() {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let (task, due) = daily_task_due_now(&db.pool, &queue).await;
    sqlx::query("update tasks set rule = null where id = $1")
        .bind(task)
        .execute(&db.pool)
        .await
        .unwrap();
    // An earlier reminder of the task went out as message 77 and its card is still live.
    sqlx::query(
        "insert into reminders (task_id, due_at, fire_at, kind, sent, sent_at, message_id)
         values ($1, $2, $2, 'snooze', true, now(), 77)",
    )
    .bind(task)
    .bind(due)
    .execute(&db.pool)
    .await
    .unwrap();
    let (job, loaded) = claim_and_load(&db.pool, &queue).await;
    assert!(loaded.task.recurrence.is_none());
    record::sent(&db.pool, &queue, &job, &loaded, Some(88))
        .await
        .unwrap();
    let cards: Vec<(i64, bool, bool)> = sqlx::query_as(
        "select message_id, sent, card_live from reminders where task_id = $1 order by message_id",
    )
    .bind(task)
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(cards, vec![(77, true, false), (88, true, true)]);
    let edits: i64 = sqlx::query_scalar(
        "select count(*) from jobs where state = 'pending' and payload::text like '%77%'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(edits, 1, "the old card's buttons are taken off by an edit");
    assert_eq!(
        pgqueue::inspect(&db.pool, job.id)
            .await
            .unwrap()
            .map(|j| j.state),
        Some(JobState::Done)
    );
}

#[tokio::test]
async fn occurrences_still_under_way_are_not_doubled() {
    // A retry with attempts left, a snooze and a throttle leave the occurrence pending: the
    // series goes on through it, so no second occurrence is scheduled.
    for outcome in [
        Outcome::Retry {
            error: "Bad Gateway".into(),
            floor: None,
        },
        Outcome::Snooze(Duration::from_secs(60)),
        Outcome::Throttle {
            error: "Too Many Requests: retry after 60".into(),
            delay: Duration::from_secs(60),
        },
    ] {
        let db = TestDb::new().await;
        let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
        let (task, due) = daily_task_due_now(&db.pool, &queue).await;
        let runner = Runner::new(
            queue.clone(),
            Script::Answer(outcome.clone()),
            RunnerConfig::default(),
            Wakeups::poll_only(),
        );
        runner.run_once().await.unwrap();
        assert_eq!(
            pending_occurrences(&db.pool, task).await,
            vec![due],
            "{outcome:?}"
        );
    }
}
