//! The typed values of the bot's columns, and the one policy for a stored value that no longer
//! reads (written by a bug, an older version or by hand): an error that names the table, the row
//! and the column, never a silent default.

use std::fmt;

use crate::domain::lead::Lead;
use crate::domain::stored::text_column;

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskState {
    /// Waiting for its deadline (a recurring one, for its next occurrence).
    Open,
    /// A recurring task whose chat cannot be reached: it resumes when the chat is back.
    Paused,
    /// Finished.
    Done,
    /// Deleted by its user.
    Deleted,
}

/// What kind of chat a chat is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChatKind {
    /// A user's private chat with the bot.
    Private,
    /// A basic group.
    Group,
    /// A supergroup.
    Supergroup,
    /// A channel.
    Channel,
}

/// Why a reminder occurrence exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReminderKind {
    /// It follows the task's schedule.
    Occurrence,
    /// An extra reminder the user asked for.
    Snooze,
}

/// Why a job's attempt did not succeed, as the queue keeps it with the job and its attempts
/// (`error_class`): the classes the bot's handlers give (the outbox's and the updates'), and the
/// queue's own. Written through the queue's [`pgqueue::JobError`] ([`ErrorClass::error`]); read
/// back (admin pages, /failed, `remindbot admin failed`) it is parsed at once, so that admins
/// filter and count failures by kind and no code compares the stored word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// A job's payload is not one of its queue's kind (a bug, or a job written by hand).
    BadPayload,
    /// The database failed while the job ran.
    Database,
    /// Telegram's flood control (429); the job waits without using up an attempt.
    Flood,
    /// Telegram or the network failed for now (5xx, a connection, a timeout).
    Transient,
    /// The chat cannot be reached (blocked, deactivated, never started, not found, kicked).
    Unreachable,
    /// Telegram refused the request itself (bad HTML, too long, …): our bug.
    Rejected,
    /// What arrived is no update Telegram could have sent (not JSON, no update_id, no shape
    /// teloxide reads).
    Unreadable,
    /// An update's handler failed (the database, Telegram, a bug).
    Handler,
    /// An update's handler took longer than allowed.
    Timeout,
    /// The queue's class of an error given as plain text ([`pgqueue::JobError::UNCLASSIFIED`]).
    Unclassified,
    /// The queue's class of a handler that panicked ([`pgqueue::JobError::PANIC`]).
    Panic,
    /// The queue's class of a worker that stopped answering
    /// ([`pgqueue::JobError::LEASE_EXPIRED`]).
    LeaseExpired,
    /// The queue's class of a worker whose process died ([`pgqueue::JobError::WORKER_LOST`]).
    WorkerLost,
}

text_column!(TaskState { Open => "open", Paused => "paused", Done => "done", Deleted => "deleted" });
text_column!(ChatKind {
    Private => "private",
    Group => "group",
    Supergroup => "supergroup",
    Channel => "channel",
});
text_column!(ReminderKind { Occurrence => "occurrence", Snooze => "snooze" });
text_column!(ErrorClass {
    BadPayload => "bad_payload",
    Database => "database",
    Flood => "flood",
    Transient => "transient",
    Unreachable => "unreachable",
    Rejected => "rejected",
    Unreadable => "unreadable",
    Handler => "handler",
    Timeout => "timeout",
    Unclassified => "error",
    Panic => "panic",
    LeaseExpired => "lease_expired",
    WorkerLost => "worker_lost",
});

impl ErrorClass {
    /// An error of this class, as the queue records it.
    pub fn error(self, message: impl Into<String>) -> pgqueue::JobError {
        pgqueue::JobError::new(self.as_str(), message)
    }
}

impl serde::Serialize for ErrorClass {
    /// As stored (`"bad_payload"`), as `remindbot admin failed --json` prints it.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl ChatKind {
    /// The kind of a Telegram chat.
    pub fn of(chat: &teloxide::types::Chat) -> Self {
        if chat.is_private() {
            Self::Private
        } else if chat.is_group() {
            Self::Group
        } else if chat.is_supergroup() {
            Self::Supergroup
        } else {
            Self::Channel
        }
    }

    /// Whether Telegram's per-group limit applies (a group or supergroup).
    pub fn is_group(self) -> bool {
        matches!(self, Self::Group | Self::Supergroup)
    }
}

/// A stored value that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{table} row {row}: the stored {column} {value:?} is not valid")]
pub struct Corrupt {
    /// The table.
    pub table: &'static str,
    /// The row's key (its id, or the columns of its primary key).
    pub row: String,
    /// The column.
    pub column: &'static str,
    /// What is stored.
    pub value: String,
}

/// Reads column `column` of row `row` (its key) of `table` with `parse`, or says which value
/// does not read.
pub(crate) fn read<T>(
    table: &'static str,
    row: impl fmt::Display,
    column: &'static str,
    value: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<T, Corrupt> {
    parse(value).ok_or_else(|| Corrupt {
        table,
        row: row.to_string(),
        column,
        value: value.to_owned(),
    })
}

/// Reads a lead time stored in seconds (column `lead_secs` or `default_lead_secs`).
pub(crate) fn read_lead(
    table: &'static str,
    id: impl fmt::Display,
    secs: i32,
) -> Result<Lead, Corrupt> {
    read(table, id, "lead", &secs.to_string(), |_| {
        Lead::from_secs(i64::from(secs)).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_and_a_stranger_names_its_row() {
        for state in [
            TaskState::Open,
            TaskState::Paused,
            TaskState::Done,
            TaskState::Deleted,
        ] {
            assert_eq!(TaskState::from_stored(state.as_str()), Some(state));
        }
        for kind in [
            ChatKind::Private,
            ChatKind::Group,
            ChatKind::Supergroup,
            ChatKind::Channel,
        ] {
            assert_eq!(ChatKind::from_stored(kind.as_str()), Some(kind));
        }
        for class in ErrorClass::STORED {
            assert_eq!(ErrorClass::from_stored(class.as_str()), Some(*class));
        }
        let corrupt = read("tasks", 12, "state", "archived", TaskState::from_stored).unwrap_err();
        assert_eq!(
            corrupt.to_string(),
            "tasks row 12: the stored state \"archived\" is not valid"
        );
    }

    #[test]
    fn the_queues_own_error_classes_are_the_words_it_writes() {
        use pgqueue::JobError;
        for (class, word) in [
            (ErrorClass::Unclassified, JobError::UNCLASSIFIED),
            (ErrorClass::Panic, JobError::PANIC),
            (ErrorClass::LeaseExpired, JobError::LEASE_EXPIRED),
            (ErrorClass::WorkerLost, JobError::WORKER_LOST),
        ] {
            assert_eq!(class.as_str(), word);
        }
    }
}
