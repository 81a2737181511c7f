//! The failed jobs, with the reminder, task and chat they belong to.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use pgqueue::{FailedQuery, JobId};
use serde::Serialize;
use sqlx::{Acquire, PgExecutor, Postgres};

use super::AdminError;
use crate::store::types::{Corrupt, ErrorClass, read};

/// A job that could not be done, and what it was for.
#[derive(Clone, Debug, Serialize)]
pub struct FailedJob {
    /// The job (the id admins retry or cancel).
    pub job_id: JobId,
    /// Its queue.
    pub queue: String,
    /// The task of a reminder job.
    pub task_id: Option<i64>,
    /// The task's text.
    pub task_text: Option<String>,
    /// What the user sent, for an update that could not be handled (a message's text, a
    /// button's data).
    pub user_sent: Option<String>,
    /// The chat the reminder or the update was for.
    pub chat_id: Option<i64>,
    /// When the reminder was due to fire.
    pub due_at: Option<DateTime<Utc>>,
    /// Attempts made.
    pub attempts: i32,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// The kind of that failure (`unreachable`, `rejected`, `transient`, `lease_expired`,
    /// `worker_lost`, …).
    pub class: Option<ErrorClass>,
    /// When it was given up.
    pub failed_at: Option<DateTime<Utc>>,
}

/// Which failed jobs to list.
#[derive(Clone, Debug, Default)]
pub struct FailedFilter {
    /// Only those whose last error contains this text (case-insensitive).
    pub reason: Option<String>,
    /// Only those whose failure is of this kind (see [`FailedJob::class`]).
    pub class: Option<ErrorClass>,
    /// Only those that failed at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only those that failed before this time.
    pub until: Option<DateTime<Utc>>,
    /// At most this many (newest first).
    pub limit: i64,
    /// Skip this many (for paging).
    pub offset: i64,
}

/// Failed jobs matching `filter`, newest first: the queue lists them, and each is matched by its
/// id to the reminder (and so the task and chat) or the update (what the user sent) it was for.
/// A job no reminder points at (of another queue, or whose reminder retention removed) is listed
/// with its queue alone.
#[tracing::instrument(skip_all)]
pub async fn list<'c>(
    conn: impl Acquire<'c, Database = Postgres>,
    filter: &FailedFilter,
) -> Result<Vec<FailedJob>, AdminError> {
    let mut conn = conn.acquire().await?;
    let query = FailedQuery {
        queue: None,
        reason: filter.reason.clone(),
        class: filter.class.map(|class| class.as_str().to_owned()),
        since: filter.since,
        until: filter.until,
        limit: filter.limit,
        offset: filter.offset,
    };
    let jobs = pgqueue::failed_jobs(&mut *conn, &query).await?;
    let ids: Vec<JobId> = jobs.iter().map(|job| job.id).collect();
    let raw_ids: Vec<i64> = ids.iter().map(|id| id.0).collect();
    let reminders = sqlx::query_as!(
        ReminderOfJob,
        r#"select r.job_id as "job_id!", t.id as "task_id?", t.text as "task_text?",
                  t.chat_id as "chat_id?", r.fire_at as "due_at!"
           from reminders r left join tasks t on t.id = r.task_id
           where r.job_id = any($1)"#,
        &raw_ids,
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut by_job: HashMap<JobId, ReminderOfJob> = HashMap::with_capacity(reminders.len());
    for reminder in reminders {
        by_job.entry(reminder.job_id).or_insert(reminder);
    }
    let mut updates: HashMap<JobId, (Option<i64>, String)> =
        crate::store::inbox::sent_by_users(&mut *conn, &raw_ids)
            .await?
            .into_iter()
            .map(|(job_id, chat_id, sent)| (JobId(job_id), (chat_id, sent)))
            .collect();
    let listed = jobs
        .into_iter()
        .map(|job| {
            let reminder = by_job.remove(&job.id);
            let (update_chat, user_sent) = updates.remove(&job.id).unzip();
            Ok(FailedJob {
                job_id: job.id,
                queue: job.queue,
                task_id: reminder.as_ref().and_then(|r| r.task_id),
                task_text: reminder.as_ref().and_then(|r| r.task_text.clone()),
                user_sent,
                chat_id: reminder
                    .as_ref()
                    .and_then(|r| r.chat_id)
                    .or(update_chat.flatten()),
                due_at: reminder.map(|r| r.due_at),
                attempts: job.attempts,
                last_error: job.last_error,
                class: error_class("jobs", job.id, job.error_class.as_deref())?,
                failed_at: job.finished_at,
            })
        })
        .collect::<Result<Vec<_>, Corrupt>>();
    Ok(listed.map_err(crate::store::StoreError::from)?)
}

/// A job's (or an attempt's) stored error class, read as the enum: a word the bot does not know
/// is a [`Corrupt`] value of row `row` of `table`, never a blank.
pub fn error_class(
    table: &'static str,
    row: impl std::fmt::Display,
    class: Option<&str>,
) -> Result<Option<ErrorClass>, Corrupt> {
    class
        .map(|class| read(table, row, "error_class", class, ErrorClass::from_stored))
        .transpose()
}

/// The reminder a failed job was for, with its task.
struct ReminderOfJob {
    job_id: JobId,
    task_id: Option<i64>,
    task_text: Option<String>,
    chat_id: Option<i64>,
    due_at: DateTime<Utc>,
}

/// How many jobs are failed.
pub async fn count<'e>(executor: impl PgExecutor<'e>) -> Result<i64, AdminError> {
    Ok(pgqueue::count_failed(executor, None).await?)
}
