//! Shared test set-up: a fresh, migrated database per test on real PostgreSQL, the one wait bound
//! ([`WAIT`]) with the one polling helper ([`eventually`]), and the queue probes every test reads
//! the queue through (tests never query the queue's tables themselves).
//!
//! The server is `DATABASE_URL` when set, otherwise the project's private cluster in `.pgdata`
//! (started on first use). Each test gets its own database, dropped when the test ends.

use pgqueue::JobId;
use std::path::Path;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use devdb::ScratchDatabase;
use pgqueue::maintenance::AttemptOutcome;
use pgqueue::{JobInfo, JobState};
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::store::OUTBOX_QUEUE;
use remindbot::store::outbox::OutboxJob;
use sqlx::PgPool;
use tokio::sync::OnceCell;

/// How long to wait for what normally happens within milliseconds (a reply, a sent reminder, a
/// job changing state) before failing. Waits that genuinely take longer use a multiple of it and
/// say why.
pub const WAIT: Duration = Duration::from_secs(10);

static TRACING: LazyLock<()> = LazyLock::new(|| {
    if std::env::var_os("TEST_LOG").is_some() {
        remindbot::telemetry::init(remindbot::telemetry::LogFormat::Pretty);
    }
});

static SERVER_URL: OnceCell<String> = OnceCell::const_new();

/// The URL of the PostgreSQL server the tests use, starting the private cluster if needed.
pub async fn server_url() -> String {
    LazyLock::force(&TRACING);
    SERVER_URL
        .get_or_init(|| async {
            let workspace_pgdata = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.pgdata"));
            devdb::server_url_from_env(workspace_pgdata)
                .await
                .expect("a PostgreSQL server for the tests")
        })
        .await
        .clone()
}

/// A fresh, migrated database and a pool on it.
pub struct TestDb {
    /// A pool on the database.
    pub pool: PgPool,
    /// Dropping it drops the database.
    database: ScratchDatabase,
}

impl TestDb {
    /// A new database on the tests' server, with a pool of 10 connections.
    pub async fn new() -> Self {
        Self::on_server(&server_url().await).await
    }

    /// A new database on the server at `server`, with a pool of 10 connections.
    pub async fn on_server(server: &str) -> Self {
        let database = ScratchDatabase::create(server, &remindbot::db::migrators())
            .await
            .expect("a scratch database");
        let pool = database
            .pool(10)
            .await
            .expect("a pool on the scratch database");
        Self { pool, database }
    }

    /// The database's URL, for a child process.
    pub fn url(&self) -> &str {
        self.database.url()
    }
}

/// Waits until `condition` holds, checking every 10 ms; panics with `what` after `timeout`
/// ([`WAIT`], or a multiple of it for what genuinely takes longer).
pub async fn eventually<F, Fut>(timeout: Duration, what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !condition().await {
        assert!(started.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Creates chat `chat_id` (if new) and a one-off task of it due a minute ago, with its reminder
/// job, in one transaction; returns the task's id.
pub async fn task_due_now(pool: &PgPool, queue: &pgqueue::Queue, chat_id: i64, text: &str) -> i64 {
    use remindbot::store::tasks::{self, NewTask, TaskText};
    remindbot::store::chats::upsert(
        pool,
        ChatId(chat_id),
        remindbot::store::types::ChatKind::Private,
        remindbot::domain::lang::Lang::En,
    )
    .await
    .expect("the chat is stored");
    let task = NewTask {
        chat_id: ChatId(chat_id),
        owner_id: UserId(chat_id),
        text: TaskText::parse(text).expect("a valid task text"),
        due_at: chrono::Utc::now() - chrono::Duration::minutes(1),
        lead: remindbot::domain::lead::Lead::ZERO,
        recurrence: None,
        tz: chrono_tz::Tz::Asia__Tashkent,
    };
    let mut tx = pool.begin().await.expect("a transaction");
    let task = tasks::create(&mut tx, queue, &task)
        .await
        .expect("the task is created");
    tx.commit().await.expect("the task commits");
    task.id.0
}

/// A reminder of a task with its job, as the queue reports the job.
#[derive(Clone, Debug)]
pub struct ReminderWithJob {
    /// The occurrence's deadline.
    pub due_at: chrono::DateTime<chrono::Utc>,
    /// `occurrence` or `snooze`.
    pub kind: String,
    /// Its job.
    pub job: JobInfo,
}

/// The reminders of task `task_id` whose job still exists, oldest first, each with its job: the
/// bot's rows point at jobs by id, and the queue says what became of them.
pub async fn reminders_with_jobs(pool: &PgPool, task_id: i64) -> Vec<ReminderWithJob> {
    let reminders: Vec<(chrono::DateTime<chrono::Utc>, String, JobId)> = sqlx::query_as(
        "select due_at, kind, job_id from reminders
         where task_id = $1 and job_id is not null order by id",
    )
    .bind(task_id)
    .fetch_all(pool)
    .await
    .expect("the task's reminders");
    let ids: Vec<JobId> = reminders.iter().map(|r| r.2).collect();
    let jobs = pgqueue::inspect_many(pool, &ids)
        .await
        .expect("the reminders' jobs");
    reminders
        .into_iter()
        .filter_map(|(due_at, kind, job_id)| {
            let job = jobs.iter().find(|j| j.id == job_id)?.clone();
            Some(ReminderWithJob { due_at, kind, job })
        })
        .collect()
}

/// The job of reminder `reminder_id`.
pub async fn job_of_reminder(pool: &PgPool, reminder_id: i64) -> JobInfo {
    let job_id: JobId = sqlx::query_scalar("select job_id from reminders where id = $1")
        .bind(reminder_id)
        .fetch_one(pool)
        .await
        .expect("the reminder has a job");
    job_by_id(pool, job_id).await
}

/// The job of task `task_id`'s newest reminder.
pub async fn job_of_task(pool: &PgPool, task_id: i64) -> JobInfo {
    let reminder_id: i64 =
        sqlx::query_scalar("select id from reminders where task_id = $1 order by id desc limit 1")
            .bind(task_id)
            .fetch_one(pool)
            .await
            .expect("the task has a reminder");
    job_of_reminder(pool, reminder_id).await
}

/// The job `id`.
pub async fn job_by_id(pool: &PgPool, id: JobId) -> JobInfo {
    pgqueue::inspect(pool, id)
        .await
        .expect("the job is readable")
        .expect("the job exists")
}

/// How many jobs are in each state that has any, all queues together, by state.
pub async fn job_states(pool: &PgPool) -> Vec<(JobState, i64)> {
    pgqueue::maintenance::state_counts(pool)
        .await
        .expect("job states")
        .into_iter()
        .filter(|(_, count)| *count > 0)
        .collect()
}

/// How many reminder jobs are in `state`.
pub async fn jobs_in(pool: &PgPool, state: JobState) -> i64 {
    pgqueue::count(pool, OUTBOX_QUEUE, state)
        .await
        .expect("a count of jobs")
}

/// The outcome of each attempt of job `id`, oldest first.
pub async fn attempt_outcomes(pool: &PgPool, id: JobId) -> Vec<AttemptOutcome> {
    pgqueue::maintenance::attempts(pool, id)
        .await
        .expect("the job's attempts")
        .into_iter()
        .map(|attempt| attempt.outcome)
        .collect()
}

/// One reminder job as the queue reports it, with the kind of the reminder it delivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRow {
    /// Its id.
    pub id: JobId,
    /// Pending, cancelled, …
    pub state: JobState,
    /// When it is due.
    pub run_at: chrono::DateTime<chrono::Utc>,
    /// The reminder it delivers.
    pub reminder_id: i64,
    /// The reminder's kind: `occurrence` or `snooze`.
    pub kind: Option<String>,
}

/// Every reminder job of the outbox, oldest first (also those whose reminder is gone: `kind` is `None`).
pub async fn reminder_jobs(pool: &PgPool) -> Vec<JobRow> {
    let jobs = pgqueue::list(pool, OUTBOX_QUEUE, None, i64::MAX)
        .await
        .expect("jobs are readable");
    let ids: Vec<JobId> = jobs.iter().map(|j| j.id).collect();
    let kinds: Vec<(JobId, String)> =
        sqlx::query_as("select job_id, kind from reminders where job_id = any($1)")
            .bind(&ids)
            .fetch_all(pool)
            .await
            .expect("reminders are readable");
    // The outbox holds the bot's replies too: only reminder jobs are listed.
    jobs.into_iter()
        .filter_map(|job| {
            let Ok(OutboxJob::Reminder(reminder)) = job.args::<OutboxJob>() else {
                return None;
            };
            Some(JobRow {
                id: job.id,
                state: job.state,
                run_at: job.run_at,
                reminder_id: reminder.reminder_id,
                kind: kinds
                    .iter()
                    .find(|(id, _)| *id == job.id)
                    .map(|(_, kind)| kind.clone()),
            })
        })
        .collect()
}

/// The pending reminder jobs, soonest first.
pub async fn pending_reminder_jobs(pool: &PgPool) -> Vec<JobRow> {
    let mut jobs: Vec<JobRow> = reminder_jobs(pool)
        .await
        .into_iter()
        .filter(|j| j.state == JobState::Pending)
        .collect();
    jobs.sort_by_key(|j| j.run_at);
    jobs
}

/// The database's clock, which the queue's due times follow.
pub async fn db_now(pool: &PgPool) -> chrono::DateTime<chrono::Utc> {
    sqlx::query_scalar("select now()")
        .fetch_one(pool)
        .await
        .expect("the database's clock")
}

/// In how many seconds `job` is due, by the database's clock (negative: overdue).
pub async fn due_in_secs(pool: &PgPool, job: &JobInfo) -> f64 {
    let due_in = (job.run_at - db_now(pool).await).num_microseconds();
    due_in.expect("a due time within centuries") as f64 / 1e6
}

/// Taken by the tests that measure rates or latencies under load, so that no two of them share
/// the machine's two cores (their figures would be each other's noise).
pub static TIMING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Whether "tomorrow" said now in `zone` means today's date: after midnight and before
/// [`NIGHT_ENDS`](remindbot::domain::due::NIGHT_ENDS) the bot reads it as the coming day, so a
/// test that says "tomorrow" on the real clock expects what the bot says at that hour.
pub fn tomorrow_is_today(zone: chrono_tz::Tz) -> bool {
    remindbot::domain::timezone::to_local(zone, chrono::Utc::now()).time()
        < remindbot::domain::due::NIGHT_ENDS
}

/// The date that "tomorrow" at a time still ahead, said now in `zone`, means.
pub fn said_tomorrow(zone: chrono_tz::Tz) -> chrono::NaiveDate {
    let today = remindbot::domain::timezone::to_local(zone, chrono::Utc::now()).date();
    if tomorrow_is_today(zone) {
        today
    } else {
        today.succ_opt().expect("a date after today")
    }
}

/// The Mini App section of a task said "tomorrow" at a time still ahead, said now in `zone`.
pub fn tomorrow_section(zone: chrono_tz::Tz) -> &'static str {
    if tomorrow_is_today(zone) {
        "today"
    } else {
        "tomorrow"
    }
}
