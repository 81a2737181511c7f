//! How delivery reacts to Telegram's errors: flood control, unreachable recipients, migrated
//! groups, unreadable answers.
//!
//! Every kind of outbox job (a message, a reminder, an agenda) meets every way a send fails
//! ([`Failure`]) with the same next step. The cells, and the test that covers each:
//!
//! | Failure | Message | Reminder | Agenda |
//! |---|---|---|---|
//! | flood (429) | [`every_failure_of_a_message`] | `a_429_with_parameters_…`, `a_429_without_…` | [`every_failure_of_an_agenda_but_an_unreachable_chat`] |
//! | transient | table | [`a_reminder_after_a_transient_error_or_a_rejection`] | table |
//! | unreachable | table | `a_blocked_user_and_a_missing_chat_…` | `reachability::an_agenda_pauses_with_its_chat_…` |
//! | migrated | table | `a_reminder_for_a_migrated_group_…` | table |
//! | rejected | table (and /failed) | table | table |
//! | unreadable success | table | `an_unreadable_answer_after_delivery_…` | table |

use pgqueue::JobId;
use std::time::{Duration, Instant};

use chrono::{NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::maintenance::AttemptOutcome;
use pgqueue::{JobInfo, JobState};
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::outbox::{self, MessageOp, OutboxJob, OutgoingMessage};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::{ChatKind, ErrorClass};
use remindbot::store::{OUTBOX_QUEUE, agenda, chats, reachability};
use tgsim::types::ResponseParameters;
use tgsim::{FaultAction, FaultRule, NewGroup, UserState, descriptions};

use crate::app::{TestApp, text};
use crate::bot_admin::{ADMIN, app_with_admin};
use crate::support::{
    WAIT, attempt_outcomes, db_now, due_in_secs, eventually, job_by_id, job_of_task, job_states,
    jobs_in, reminders_with_jobs,
};

async fn flood_once(with_parameters: bool) {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_000_000, 1)[0];
    app.sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 2,
            with_parameters,
        })
        .method("sendMessage")
        .times(1),
    );
    let task = app.seed(&[(chat, Utc::now())]).await[0];
    let started = Instant::now();
    app.run().await;
    app.wait_sent(1, WAIT).await;
    let waited = started.elapsed();
    let job = job_of_task(&app.pool, task).await;
    eprintln!(
        "429 (parameters: {with_parameters}): sent after {waited:?}, {:?}",
        job.last_error
    );
    assert!(waited >= Duration::from_secs(2), "{waited:?}");
    // The 429 used up no attempt, but it is on record.
    assert_eq!((job.state, job.attempts), (JobState::Done, 1));
    assert_eq!(job.throttles, 1);
    assert!(
        job.last_error
            .is_some_and(|e| e.to_lowercase().contains("retry after"))
    );
    assert_eq!(
        attempt_outcomes(&app.pool, job.id).await,
        [AttemptOutcome::Throttled, AttemptOutcome::Done]
    );
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 2);
    app.stop().await;
}

/// Seconds from each sent reminder's fire time to its sending, for the tasks `tasks`.
async fn lateness(pool: &sqlx::PgPool, tasks: &[i64]) -> Vec<f64> {
    sqlx::query_scalar(
        "select extract(epoch from sent_at - fire_at)::float8 from reminders
         where task_id = any($1) and sent order by task_id",
    )
    .bind(tasks)
    .fetch_all(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_429_with_parameters_is_honoured_and_no_attempt_is_used() {
    flood_once(true).await;
}

#[tokio::test]
async fn a_429_without_parameters_is_read_from_the_description() {
    flood_once(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_chats_hour_long_429_delays_only_that_chat() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chats = app.users(3_100_000, 6);
    app.sim.add_fault(
        FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 3600,
            with_parameters: true,
        })
        .method("sendMessage")
        .chat(chats[0])
        .times(1),
    );
    let parked = app.seed(&[(chats[0], Utc::now())]).await[0];
    app.run().await;
    eventually(WAIT, "the 429", || async {
        app.sim.counters().requests >= 1 && job_of_task(&app.pool, parked).await.throttles == 1
    })
    .await;
    // Five other users' reminders fall due after the 429: each goes out on time.
    let soon = Utc::now() + chrono::Duration::seconds(1);
    let due: Vec<_> = chats[1..].iter().map(|chat| (*chat, soon)).collect();
    let others = app.seed(&due).await;
    app.wait_sent(5, WAIT).await;
    for late in lateness(&app.pool, &others).await {
        assert!(late < 2.0, "another chat's reminder went out {late} s late");
    }
    let job = job_of_task(&app.pool, parked).await;
    let due_in = due_in_secs(&app.pool, &job).await;
    assert_eq!((job.state, job.attempts), (JobState::Pending, 0));
    assert!(due_in > 3500.0, "due in {due_in} s");
    assert!(job.last_error.is_some());
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 6);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_429s_from_many_chats_pauses_everyone_for_at_most_the_cap() {
    let mut app = TestApp::builder()
        .telegram_limits()
        .config(|c| c.delivery.flood_pause_cap_secs = 3)
        .prepare()
        .await;
    let chats = app.users(3_150_000, 4);
    for chat in &chats[..3] {
        app.sim.add_fault(
            FaultRule::new(FaultAction::TooManyRequests {
                retry_after: 3600,
                with_parameters: true,
            })
            .method("sendMessage")
            .chat(*chat)
            .times(1),
        );
    }
    let flooded = app
        .seed(&[
            (chats[0], Utc::now()),
            (chats[1], Utc::now()),
            (chats[2], Utc::now()),
        ])
        .await;
    let bystander = app
        .seed(&[(chats[3], Utc::now() + chrono::Duration::milliseconds(1500))])
        .await[0];
    app.run().await;
    app.wait_sent(1, WAIT).await;
    let calls = app.sim.calls(0);
    let last_refusal = calls
        .iter()
        .filter(|c| c.status == 429)
        .map(|c| c.at_ms)
        .max()
        .unwrap();
    let delivered = calls
        .iter()
        .find(|c| c.status == 200 && c.method == "sendMessage")
        .unwrap();
    assert_eq!(delivered.chat_id, Some(chats[3]));
    let paused_ms = delivered.at_ms - last_refusal;
    assert!(
        (2000..=5000).contains(&paused_ms),
        "the bystander's reminder went out {paused_ms} ms after the flood"
    );
    assert!(lateness(&app.pool, &[bystander]).await[0] < 5.0);
    // The chats that got the 429s wait their own retry_after.
    for task in flooded {
        let job = job_of_task(&app.pool, task).await;
        let due_in = due_in_secs(&app.pool, &job).await;
        assert_eq!((job.state, job.attempts), (JobState::Pending, 0));
        assert!(due_in > 3500.0, "due in {due_in} s");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absurd_retry_after_neither_panics_nor_parks_anything_beyond_the_cap() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chats = app.users(3_180_000, 3);
    let bodies = [
        r#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 10000000000000","parameters":{"retry_after":10000000000000}}"#,
        r#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 99999999999999999999999999"}"#,
    ];
    for (chat, body) in chats.iter().zip(bodies) {
        app.sim.add_fault(
            FaultRule::new(FaultAction::Raw {
                status: 429,
                body: body.into(),
                after_processing: false,
            })
            .method("sendMessage")
            .chat(*chat)
            .times(1),
        );
    }
    let absurd = app
        .seed(&[(chats[0], Utc::now()), (chats[1], Utc::now())])
        .await;
    app.run().await;
    eventually(WAIT, "both 429s", || async {
        let mut throttled = 0;
        for task in &absurd {
            throttled += job_of_task(&app.pool, *task).await.throttles;
        }
        throttled == 2
    })
    .await;
    let other = app.seed(&[(chats[2], Utc::now())]).await;
    app.wait_sent(1, WAIT).await;
    assert!(lateness(&app.pool, &other).await[0] < 2.0);
    for task in absurd {
        let job = job_of_task(&app.pool, task).await;
        let due_in = due_in_secs(&app.pool, &job).await;
        assert_eq!((job.state, job.attempts), (JobState::Pending, 0));
        assert!(
            due_in > 3500.0 && due_in <= 3601.0,
            "clamped to an hour: due in {due_in} s"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn a_blocked_user_and_a_missing_chat_fail_at_once_and_pause_recurring_tasks() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let blocked = app.users(3_200_000, 1)[0];
    app.sim.set_user_state(blocked, UserState::Blocked).unwrap();
    let missing = 3_200_777; // never known to the simulator: "chat not found"
    let tasks = app
        .seed(&[(blocked, Utc::now()), (missing, Utc::now())])
        .await;
    // A recurring task of each chat, due tomorrow: paused, its pending reminder cancelled.
    for chat in [blocked, missing] {
        let daily = NewTask {
            chat_id: ChatId(chat),
            owner_id: UserId(chat),
            text: TaskText::parse("daily").unwrap(),
            due_at: Utc::now() + chrono::Duration::days(1),
            lead: remindbot::domain::lead::Lead::ZERO,
            recurrence: Some(
                Recurrence::new(Frequency::Daily, NaiveTime::from_hms_opt(9, 0, 0).unwrap())
                    .unwrap(),
            ),
            tz: Tz::UTC,
        };
        let mut tx = app.pool.begin().await.unwrap();
        tasks::create(&mut tx, &app.queue, &daily).await.unwrap();
        tx.commit().await.unwrap();
    }
    app.run().await;
    eventually(WAIT, "both failed", || async {
        let failed = jobs_in(&app.pool, JobState::Failed).await;
        failed == 2
    })
    .await;
    for (task, reason) in [(tasks[0], "blocked"), (tasks[1], "chat not found")] {
        let job = job_of_task(&app.pool, task).await;
        assert_eq!((job.state, job.attempts), (JobState::Failed, 1));
        let last_error = job.last_error.unwrap_or_default();
        assert!(last_error.contains(reason), "{last_error:?}");
    }
    let chats: Vec<(i64, bool, String)> = sqlx::query_as(
        "select c.chat_id, c.reachable, t.state from chats c join tasks t using (chat_id)
         where t.rule is not null order by c.chat_id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(
        chats,
        vec![
            (blocked, false, "paused".into()),
            (missing, false, "paused".into())
        ]
    );
    let pending = jobs_in(&app.pool, JobState::Pending).await;
    assert_eq!(pending, 0, "{:?}", job_states(&app.pool).await);
    assert_eq!(app.sim.counters().requests_by_method["sendMessage"], 2);

    // The blocked user writes again: the daily task resumes at its next occurrence.
    let mut tx = app.pool.begin().await.unwrap();
    let resumed = reachability::resume(&mut tx, &app.queue, ChatId(blocked))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(resumed, 1);
    let (reachable, state, task): (bool, String, i64) = sqlx::query_as(
        "select c.reachable, t.state, t.id from chats c join tasks t using (chat_id)
         where c.chat_id = $1 and t.rule is not null",
    )
    .bind(blocked)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let pending: Vec<_> = reminders_with_jobs(&app.pool, task)
        .await
        .into_iter()
        .filter(|r| r.job.state == JobState::Pending)
        .collect();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let due_in = pending[0].job.run_at - db_now(&app.pool).await;
    assert!(reachable);
    assert_eq!(state, "open");
    assert!(due_in > chrono::Duration::zero());
    app.stop().await;
}

#[tokio::test]
async fn a_reminder_for_a_migrated_group_reaches_the_supergroup() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let group = app.sim.create_group(NewGroup::new("team")).unwrap().chat.id;
    let supergroup = app.sim.upgrade_group(group, None).unwrap();
    let task = app.seed(&[(group, Utc::now())]).await[0];
    app.run().await;
    app.wait_sent(1, WAIT).await;
    assert_eq!(app.bot_messages(supergroup).len(), 1);
    let chat: i64 = sqlx::query_scalar("select chat_id from tasks where id = $1")
        .bind(task)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(chat, supergroup);
    app.stop().await;
}

#[tokio::test]
async fn an_unreadable_answer_after_delivery_counts_as_sent_and_is_not_sent_again() {
    let mut app = TestApp::builder().telegram_limits().prepare().await;
    let chat = app.users(3_300_000, 1)[0];
    app.sim.add_fault(
        FaultRule::new(FaultAction::Raw {
            status: 200,
            body: r#"{"ok":true,"result":{"message_id":"not a number"}}"#.into(),
            after_processing: true,
        })
        .method("sendMessage")
        .times(1),
    );
    let task = app.seed(&[(chat, Utc::now())]).await[0];
    app.run().await;
    app.wait_sent(1, WAIT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.bot_messages(chat).len(), 1);
    let job = job_of_task(&app.pool, task).await;
    assert_eq!((job.state, job.attempts), (JobState::Done, 1));
    app.stop().await;
}

/// One way a send fails, as the simulator plays it for the next sendMessage to a chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    /// 429, retry after a second.
    Flood,
    /// The connection drops before Telegram reads the request.
    Transient,
    /// "Forbidden: bot was blocked by the user".
    Unreachable,
    /// "Bad Request: group chat was upgraded to a supergroup chat", with the supergroup's id.
    Migrated,
    /// "Bad Request: can't parse entities": our own mistake.
    Rejected,
    /// Delivered, but the answer does not read.
    UnreadableSuccess,
}

impl Failure {
    const ALL: [Failure; 6] = [
        Failure::Flood,
        Failure::Transient,
        Failure::Unreachable,
        Failure::Migrated,
        Failure::Rejected,
        Failure::UnreadableSuccess,
    ];

    /// The fault that makes the next sendMessage to `chat` fail this way (a migration to
    /// `supergroup`).
    fn fault(self, chat: i64, supergroup: i64) -> FaultRule {
        let api_error = |error_code, description: String, parameters| FaultAction::ApiError {
            error_code,
            description,
            parameters,
        };
        let action = match self {
            Failure::Flood => FaultAction::TooManyRequests {
                retry_after: 1,
                with_parameters: true,
            },
            Failure::Transient => FaultAction::Drop {
                after_processing: false,
            },
            Failure::Unreachable => api_error(403, descriptions::BOT_BLOCKED.into(), None),
            Failure::Migrated => api_error(
                400,
                descriptions::GROUP_UPGRADED.into(),
                Some(ResponseParameters {
                    migrate_to_chat_id: Some(supergroup),
                    retry_after: None,
                }),
            ),
            Failure::Rejected => api_error(
                400,
                format!(
                    "{}Unsupported start tag \"x\" at byte offset 3",
                    descriptions::CANT_PARSE_ENTITIES
                ),
                None,
            ),
            Failure::UnreadableSuccess => FaultAction::Raw {
                status: 200,
                body: r#"{"ok":true,"result":{"message_id":"not a number"}}"#.into(),
                after_processing: true,
            },
        };
        FaultRule::new(action)
            .method("sendMessage")
            .chat(chat)
            .times(1)
    }
}

/// A chat whose next message meets `failure` (a group, for a migration to `supergroup`).
struct Cell {
    failure: Failure,
    chat: i64,
    supergroup: i64,
}

/// A chat per failure, each known to the simulator and to the bot (in `lang`, without a zone),
/// with its fault set.
async fn cells(app: &TestApp, failures: &[Failure]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for failure in failures {
        let (chat, kind, supergroup) = if *failure == Failure::Migrated {
            let supergroup = app
                .sim
                .create_group(NewGroup::new("moved").supergroup())
                .unwrap()
                .chat
                .id;
            (app.group("team"), ChatKind::Group, supergroup)
        } else {
            (app.user("Cy", "en"), ChatKind::Private, 0)
        };
        chats::upsert(&app.pool, ChatId(chat), kind, Lang::En)
            .await
            .unwrap();
        app.sim.add_fault(failure.fault(chat, supergroup));
        cells.push(Cell {
            failure: *failure,
            chat,
            supergroup,
        });
    }
    cells
}

/// Waits until job `id` is in `state`.
async fn settled(app: &TestApp, id: i64, state: JobState) -> JobInfo {
    eventually(WAIT, &format!("job {id} {state}"), || async {
        job_by_id(&app.pool, JobId(id)).await.state == state
    })
    .await;
    job_by_id(&app.pool, JobId(id)).await
}

/// Checks what a user (and an admin) notices after `cell`'s send, carried by job `id`, failed:
/// the message arrives once (after the wait a 429 asks for, without an attempt used; after a
/// retry; at the supergroup), or the job fails with its class, the chat marked unreachable.
async fn noticed(app: &TestApp, cell: &Cell, id: i64) {
    let what = format!("{:?}", cell.failure);
    let arrived = |chat| app.bot_messages(chat).len();
    match cell.failure {
        Failure::Flood | Failure::Transient | Failure::UnreadableSuccess => {
            let job = settled(app, id, JobState::Done).await;
            assert_eq!(arrived(cell.chat), 1, "{what}: delivered once");
            let (attempts, throttles, outcomes) = match cell.failure {
                Failure::Flood => (1, 1, vec![AttemptOutcome::Throttled, AttemptOutcome::Done]),
                Failure::Transient => (2, 0, vec![AttemptOutcome::Retry, AttemptOutcome::Done]),
                _ => (1, 0, vec![]),
            };
            assert_eq!(
                (job.attempts, job.throttles),
                (attempts, throttles),
                "{what}"
            );
            assert_eq!(
                attempt_outcomes(&app.pool, JobId(id)).await,
                outcomes,
                "{what}"
            );
        }
        Failure::Migrated => {
            eventually(WAIT, "the message at the supergroup", || async {
                arrived(cell.supergroup) == 1
            })
            .await;
            settled(app, id, JobState::Done).await;
            assert_eq!(arrived(cell.chat), 0, "{what}");
        }
        Failure::Unreachable | Failure::Rejected => {
            let job = settled(app, id, JobState::Failed).await;
            let class = job.error_class.as_deref().and_then(ErrorClass::from_stored);
            let expected = if cell.failure == Failure::Rejected {
                ErrorClass::Rejected
            } else {
                ErrorClass::Unreachable
            };
            assert_eq!(class, Some(expected), "{what}: {:?}", job.last_error);
            assert_eq!(job.attempts, 1, "{what}: failed at once");
            assert_eq!(arrived(cell.chat), 0, "{what}");
            let reachable: bool =
                sqlx::query_scalar("select reachable from chats where chat_id = $1")
                    .bind(cell.chat)
                    .fetch_one(&app.pool)
                    .await
                    .unwrap();
            assert_eq!(reachable, expected == ErrorClass::Rejected, "{what}");
        }
    }
}

/// The outbox job of the message to `chat`.
async fn message_job(app: &TestApp, chat: i64) -> i64 {
    pgqueue::list(&app.pool, OUTBOX_QUEUE, None, i64::MAX)
        .await
        .unwrap()
        .into_iter()
        .find(
            |job| matches!(job.args::<OutboxJob>(), Ok(OutboxJob::Message(m)) if m.chat_id == ChatId(chat)),
        )
        .expect("the message's job")
        .id
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_failure_of_a_message() {
    let mut app = app_with_admin().await;
    let cells = cells(&app, &Failure::ALL).await;
    for cell in &cells {
        let message = OutgoingMessage {
            chat_id: ChatId(cell.chat),
            op: MessageOp::Send {
                text: format!("an answer meeting {:?}", cell.failure),
                keyboard: None,
                force_reply: false,
                asks: None,
            },
        };
        let mut tx = app.pool.begin().await.unwrap();
        outbox::enqueue(&mut tx, &app.queue, &message)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    for cell in &cells {
        noticed(&app, cell, message_job(&app, cell.chat).await).await;
    }
    // The admin sees the two that failed, each with its kind.
    let failed = text(&app.say(ADMIN, "/failed").await).to_owned();
    assert!(failed.contains("Failed reminders: 2"), "{failed}");
    assert!(
        failed.contains("Reason (rejected): Bad Request: can't parse entities"),
        "{failed}"
    );
    assert!(
        failed.contains("Reason (unreachable): Forbidden: bot was blocked by the user"),
        "{failed}"
    );
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_after_a_transient_error_or_a_rejection() {
    let mut app = TestApp::start().await;
    let cells = cells(&app, &[Failure::Transient, Failure::Rejected]).await;
    let due: Vec<_> = cells.iter().map(|cell| (cell.chat, Utc::now())).collect();
    let tasks = app.seed(&due).await;
    for (cell, task) in cells.iter().zip(tasks) {
        noticed(&app, cell, job_of_task(&app.pool, task).await.id.0).await;
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_failure_of_an_agenda_but_an_unreachable_chat() {
    let mut app = TestApp::start().await;
    let failures: Vec<Failure> = Failure::ALL
        .into_iter()
        .filter(|f| *f != Failure::Unreachable)
        .collect();
    let cells = cells(&app, &failures).await;
    let mut jobs = Vec::new();
    let mut set_ids = std::collections::HashMap::new();
    let now = db_now(&app.pool).await;
    let mut tx = app.pool.begin().await.unwrap();
    for cell in &cells {
        let eight = NaiveTime::from_hms_opt(8, 0, 0).unwrap();
        let set = agenda::set(&mut tx, &app.queue, ChatId(cell.chat), eight, Tz::UTC)
            .await
            .unwrap();
        let job = set.job_id.expect("the agenda's job");
        set_ids.insert(cell.chat, set.id);
        // Due now, for the morning it was set for.
        pgqueue::maintenance::reschedule_job(&mut tx, job, now)
            .await
            .unwrap();
        jobs.push(job);
    }
    tx.commit().await.unwrap();
    for (cell, job) in cells.iter().zip(jobs) {
        noticed(&app, cell, job.0).await;
        // The agenda arrived where its chat now is (a migrated group's moved with it).
        let now_in = if cell.failure == Failure::Migrated {
            cell.supergroup
        } else {
            cell.chat
        };
        let mut conn = app.pool.acquire().await.unwrap();
        let moved = agenda::find(&mut conn, ChatId(now_in)).await.unwrap();
        assert_eq!(
            moved.map(|a| a.id),
            Some(set_ids[&cell.chat]),
            "{:?}",
            cell.failure
        );
        if cell.failure != Failure::Rejected {
            let sent = app.bot_messages(now_in).remove(0);
            assert!(sent.contains("today's tasks"), "{sent}");
        }
    }
    app.stop().await;
}
