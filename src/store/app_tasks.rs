//! The tasks as the Mini App reads them: a chat's open tasks, each with its next reminder, whether
//! its repeat is paused, and its revision (`tasks.revision`, bumped by a trigger on every change),
//! which the app sends back with a change so that one made meanwhile (in the chat or another tab)
//! is not overwritten in silence.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::StoreError;
use super::task_model::{Task, task_row_of};
use super::tasks::ListedTask;
use super::types::TaskState;
use crate::domain::ids::{ChatId, TaskId};

/// An open task with its revision.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionedTask {
    /// The task, its next reminder and whether its repeat is paused.
    pub listed: ListedTask,
    /// Its revision: one more with every change of its row.
    pub revision: i32,
}

/// A row of [`open_tasks`] and [`lock_open`].
struct Row {
    id: i64,
    chat_id: i64,
    owner_id: i64,
    text: String,
    due_at: DateTime<Utc>,
    lead_secs: i32,
    rule: Option<String>,
    tz: String,
    state: String,
    next_reminder: Option<DateTime<Utc>>,
    on_hold: bool,
    revision: i32,
}

impl TryFrom<Row> for VersionedTask {
    type Error = StoreError;

    fn try_from(row: Row) -> Result<Self, StoreError> {
        let task = Task::try_from(task_row_of!(row))?;
        Ok(Self {
            listed: ListedTask {
                task,
                next_reminder: row.next_reminder,
                on_hold: row.on_hold,
            },
            revision: row.revision,
        })
    }
}

/// The chat's open tasks, soonest first (at most `limit`).
#[tracing::instrument(skip_all, fields(chat_id = %chat_id))]
pub async fn open_tasks(
    conn: &mut PgConnection,
    chat_id: ChatId,
    limit: i64,
) -> Result<Vec<VersionedTask>, StoreError> {
    let rows = sqlx::query_as!(
        Row,
        r#"select t.id, t.chat_id, t.owner_id, t.text, t.due_at, t.lead_secs, t.rule, t.tz, t.state,
                  (select min(r.fire_at) from reminders r where r.task_id = t.id and not r.sent)
                      as next_reminder,
                  t.on_hold, t.revision
           from tasks t where t.chat_id = $1 and t.state = $2
           order by t.due_at, t.id limit $3"#,
        chat_id.0,
        TaskState::Open.as_str(),
        limit,
    )
    .fetch_all(conn)
    .await?;
    rows.into_iter().map(VersionedTask::try_from).collect()
}

/// The chat's open task `task_id`, locked for the rest of the transaction; `None` when the chat
/// has no such open task.
#[tracing::instrument(skip_all, fields(chat_id = %chat_id, task_id = %task_id))]
pub async fn lock_open(
    conn: &mut PgConnection,
    chat_id: ChatId,
    task_id: TaskId,
) -> Result<Option<VersionedTask>, StoreError> {
    let row = sqlx::query_as!(
        Row,
        r#"select t.id, t.chat_id, t.owner_id, t.text, t.due_at, t.lead_secs, t.rule, t.tz, t.state,
                  (select min(r.fire_at) from reminders r where r.task_id = t.id and not r.sent)
                      as next_reminder,
                  t.on_hold, t.revision
           from tasks t where t.id = $1 and t.chat_id = $2 and t.state = $3
           for update of t"#,
        task_id.0,
        chat_id.0,
        TaskState::Open.as_str(),
    )
    .fetch_optional(conn)
    .await?;
    row.map(VersionedTask::try_from).transpose()
}
