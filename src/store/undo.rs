//! What an Undo button puts back (`task_undo`): the task as it was before its user's last change
//! (creating, editing, finishing or deleting it), kept on the server and found by the short id in
//! the button's data. One entry per task (a newer change replaces it), usable once, and only while
//! the task is still as that change left it.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::StoreError;
use super::task_model::TaskVersion;
use super::types::{Corrupt, read, read_lead};
use crate::domain::ids::{ChatId, TaskId, UserId};
use crate::domain::recurrence::Recurrence;
use crate::domain::stored::text_column;

/// The change an Undo takes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The task was created: Undo removes it.
    Create,
    /// Its text or schedule changed: Undo puts the old ones back.
    Edit,
    /// It was marked done: Undo reopens it.
    Done,
    /// It was deleted: Undo brings it back.
    Delete,
}

text_column!(Change { Create => "create", Edit => "edit", Done => "done", Delete => "delete" });

/// An Undo as found for a tap.
#[derive(Clone, Debug, PartialEq)]
pub struct Undo {
    /// Its id (in the button's data).
    pub id: i64,
    /// The task it belongs to.
    pub task_id: TaskId,
    /// Who created the task (who, besides a group's admins, may undo).
    pub owner_id: UserId,
    /// What it takes back.
    pub change: Change,
    /// The task before the change; `None` for a creation.
    pub before: Option<TaskVersion>,
    /// Whether it was used already.
    pub used: bool,
    /// Whether the task changed again since (then it no longer applies).
    pub outdated: bool,
}

/// Records that task `task_id` (as it is now, after `change`) can be taken back to `before`
/// (`None` for a creation), replacing the task's earlier Undo. Returns the Undo's id for the
/// button.
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn record(
    conn: &mut PgConnection,
    task_id: TaskId,
    change: Change,
    before: Option<&TaskVersion>,
) -> Result<i64, StoreError> {
    // One statement: the earlier Undo is deleted first (the insert waits for the count of the
    // rows it deleted), so the new one takes a new id and an older button finds nothing.
    Ok(sqlx::query_scalar!(
        "with replaced as (delete from task_undo where task_id = $1 returning id)
         insert into task_undo (task_id, change, before_text, before_due_at, before_lead_secs,
                                before_rule, before_occurrence, after_updated_at)
         select id, $2, $3, $4, $5, $6, $7, updated_at from tasks
         where id = $1 and (select count(*) from replaced) >= 0
         returning id",
        task_id.0,
        change.as_str(),
        before.map(|version| version.text.as_str()),
        before.map(|version| version.due_at),
        before.map(|version| version.lead.secs()),
        before.and_then(|version| version.recurrence.as_ref().map(Recurrence::to_rule_string)),
        before
            .and_then(|version| version.occurrence)
            .map(|index| i32::try_from(index).unwrap_or(i32::MAX)),
    )
    .fetch_one(conn)
    .await?)
}

/// A `task_undo` row with its task's owner, as stored.
struct UndoRow {
    id: i64,
    task_id: i64,
    owner_id: i64,
    change: String,
    before_text: Option<String>,
    before_due_at: Option<DateTime<Utc>>,
    before_lead_secs: Option<i32>,
    before_rule: Option<String>,
    before_occurrence: Option<i32>,
    used: bool,
    outdated: bool,
}

impl TryFrom<UndoRow> for Undo {
    type Error = Corrupt;

    fn try_from(row: UndoRow) -> Result<Self, Corrupt> {
        let id = row.id;
        let change = read("task_undo", id, "change", &row.change, Change::from_stored)?;
        let before = match (row.before_text, row.before_due_at, row.before_lead_secs) {
            (Some(text), Some(due_at), Some(lead_secs)) => Some(TaskVersion {
                text,
                due_at,
                lead: read_lead("task_undo", id, lead_secs)?,
                recurrence: row
                    .before_rule
                    .as_deref()
                    .map(|rule| {
                        read("task_undo", id, "before_rule", rule, |rule| {
                            Recurrence::parse_rule_string(rule).ok()
                        })
                    })
                    .transpose()?,
                occurrence: row
                    .before_occurrence
                    .map(|index| {
                        read(
                            "task_undo",
                            id,
                            "before_occurrence",
                            &index.to_string(),
                            |_| u32::try_from(index).ok().filter(|index| *index >= 1),
                        )
                    })
                    .transpose()?,
            }),
            _ if change == Change::Create => None,
            _ => {
                return Err(Corrupt {
                    table: "task_undo",
                    row: id.to_string(),
                    column: "before_text",
                    value: "null".to_owned(),
                });
            }
        };
        Ok(Self {
            id,
            task_id: TaskId(row.task_id),
            owner_id: UserId(row.owner_id),
            change,
            before,
            used: row.used,
            outdated: row.outdated,
        })
    }
}

/// Reads Undo `undo_id` of a task of `chat_id` and locks it and its task for the rest of the
/// transaction; `None` when there is none (replaced by a newer change, or another chat's).
#[tracing::instrument(skip_all, fields(chat_id, undo_id))]
pub async fn find_for_update(
    conn: &mut PgConnection,
    chat_id: ChatId,
    undo_id: i64,
) -> Result<Option<Undo>, StoreError> {
    let row = sqlx::query_as!(
        UndoRow,
        r#"select u.id, u.task_id, t.owner_id, u.change, u.before_text, u.before_due_at,
                  u.before_lead_secs, u.before_rule, u.before_occurrence, u.used_at is not null as "used!",
                  t.updated_at <> u.after_updated_at as "outdated!"
           from task_undo u join tasks t on t.id = u.task_id
           where u.id = $1 and t.chat_id = $2
           for update of u, t"#,
        undo_id,
        chat_id.0,
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(Undo::try_from).transpose()?)
}

/// Marks Undo `undo_id` used: it works once.
#[tracing::instrument(skip_all, fields(undo_id))]
pub async fn mark_used(conn: &mut PgConnection, undo_id: i64) -> Result<(), StoreError> {
    sqlx::query!(
        "update task_undo set used_at = now() where id = $1",
        undo_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The id of task `task_id`'s Undo (that of its last change), if it has one.
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn of_task(conn: &mut PgConnection, task_id: TaskId) -> Result<Option<i64>, StoreError> {
    Ok(sqlx::query_scalar!(
        "select id from task_undo where task_id = $1 and used_at is null",
        task_id.0
    )
    .fetch_optional(conn)
    .await?)
}
