//! A task as the store reads and writes it: its text, what a new one needs, its row and the
//! version an Undo puts back.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::StoreError;
use super::types::{Corrupt, TaskState, read, read_lead};
use crate::domain::ids::{ChatId, TaskId, UserId};
use crate::domain::lead::Lead;
use crate::domain::recurrence::Recurrence;

/// The longest task text, in characters: with the message around it a reminder stays far below
/// Telegram's 4,096.
pub const MAX_TEXT_CHARS: usize = 1000;

/// A task's text: trimmed, not empty, at most [`MAX_TEXT_CHARS`] characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskText(String);

/// Why a text cannot be a task's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TaskTextError {
    /// Nothing but white space.
    #[error("the text is empty")]
    Empty,
    /// Longer than [`MAX_TEXT_CHARS`].
    #[error("the text has {0} characters; at most {MAX_TEXT_CHARS} fit")]
    TooLong(usize),
}

impl TaskText {
    /// Checks and trims `text`; a text of only spaces and invisible characters is empty.
    pub fn parse(text: &str) -> Result<Self, TaskTextError> {
        let trimmed = text.trim_matches(crate::domain::fold::is_space);
        let chars = trimmed.chars().count();
        if chars == 0 {
            Err(TaskTextError::Empty)
        } else if chars > MAX_TEXT_CHARS {
            Err(TaskTextError::TooLong(chars))
        } else {
            Ok(Self(trimmed.to_owned()))
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A task to create.
#[derive(Clone, Debug)]
pub struct NewTask {
    /// Where its reminders go.
    pub chat_id: ChatId,
    /// Who created it.
    pub owner_id: UserId,
    /// What to do.
    pub text: TaskText,
    /// The (first) deadline.
    pub due_at: DateTime<Utc>,
    /// How long before the deadline to remind.
    pub lead: Lead,
    /// The schedule of a recurring task.
    pub recurrence: Option<Recurrence>,
    /// The zone its wall-clock schedule is in.
    pub tz: Tz,
}

/// A stored task, its columns read into their types.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// Its id.
    pub id: TaskId,
    /// Where its reminders go.
    pub chat_id: ChatId,
    /// Who created it.
    pub owner_id: UserId,
    /// What to do.
    pub text: String,
    /// The current deadline.
    pub due_at: DateTime<Utc>,
    /// How long before each deadline to remind.
    pub lead: Lead,
    /// The schedule of a recurring task.
    pub recurrence: Option<Recurrence>,
    /// The zone of its schedule.
    pub zone: Tz,
    /// Where it stands.
    pub state: TaskState,
}

impl Task {
    /// Whether the task recurs.
    pub fn recurs(&self) -> bool {
        self.recurrence.is_some()
    }

    /// Whether it is open (waiting for its deadline).
    pub fn is_open(&self) -> bool {
        self.state == TaskState::Open
    }
}

/// A `tasks` row as stored.
pub(crate) struct TaskRow {
    pub(crate) id: i64,
    pub(crate) chat_id: i64,
    pub(crate) owner_id: i64,
    pub(crate) text: String,
    pub(crate) due_at: DateTime<Utc>,
    pub(crate) lead_secs: i32,
    pub(crate) rule: Option<String>,
    pub(crate) tz: String,
    pub(crate) state: String,
}

impl TryFrom<TaskRow> for Task {
    type Error = Corrupt;

    fn try_from(row: TaskRow) -> Result<Self, Corrupt> {
        let id = row.id;
        Ok(Self {
            lead: read_lead("tasks", id, row.lead_secs)?,
            recurrence: row
                .rule
                .as_deref()
                .map(|rule| {
                    read("tasks", id, "rule", rule, |rule| {
                        Recurrence::parse_rule_string(rule).ok()
                    })
                })
                .transpose()?,
            zone: read("tasks", id, "tz", &row.tz, |tz| tz.parse().ok())?,
            state: read("tasks", id, "state", &row.state, TaskState::from_stored)?,
            id: TaskId(id),
            chat_id: ChatId(row.chat_id),
            owner_id: UserId(row.owner_id),
            text: row.text,
            due_at: row.due_at,
        })
    }
}

/// The [`TaskRow`] of a `query!` record that selects a task's columns under their own names
/// beside others: the queries that read more than a task share this one mapping. It moves the
/// task's fields out of the record, so the record's other fields stay usable.
macro_rules! task_row_of {
    ($record:ident) => {
        $crate::store::task_model::TaskRow {
            id: $record.id,
            chat_id: $record.chat_id,
            owner_id: $record.owner_id,
            text: $record.text,
            due_at: $record.due_at,
            lead_secs: $record.lead_secs,
            rule: $record.rule,
            tz: $record.tz,
            state: $record.state,
        }
    };
}
pub(crate) use task_row_of;

/// Reads a fetched row, if any.
pub(crate) fn read_task(row: Option<TaskRow>) -> Result<Option<Task>, StoreError> {
    Ok(row.map(Task::try_from).transpose()?)
}

/// A task's text and schedule at one moment: what an Undo puts back.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskVersion {
    /// What to do.
    pub text: String,
    /// The deadline.
    pub due_at: DateTime<Utc>,
    /// How long before the deadline to remind.
    pub lead: Lead,
    /// The schedule of a recurring task.
    pub recurrence: Option<Recurrence>,
    /// The number of its occurrence in the series, when known; `None` keeps the task's own.
    pub occurrence: Option<u32>,
}

impl Task {
    /// Its text and schedule as they are now (without its occurrence's number, which
    /// [`crate::store::occurrences`] keeps).
    pub fn version(&self) -> TaskVersion {
        TaskVersion {
            text: self.text.clone(),
            due_at: self.due_at,
            lead: self.lead,
            recurrence: self.recurrence,
            occurrence: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_text_is_trimmed_and_bounded() {
        assert_eq!(
            TaskText::parse("  pay rent \n").unwrap().as_str(),
            "pay rent"
        );
        assert_eq!(TaskText::parse(" \u{3000}\t"), Err(TaskTextError::Empty));
        assert_eq!(
            TaskText::parse("\u{200B}\u{200F} "),
            Err(TaskTextError::Empty)
        );
        assert_eq!(
            TaskText::parse(&"я".repeat(MAX_TEXT_CHARS))
                .unwrap()
                .as_str()
                .chars()
                .count(),
            MAX_TEXT_CHARS
        );
        assert_eq!(
            TaskText::parse(&"x".repeat(MAX_TEXT_CHARS + 1)),
            Err(TaskTextError::TooLong(MAX_TEXT_CHARS + 1))
        );
    }
}
