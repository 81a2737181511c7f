//! The bot's data in PostgreSQL: chats, tasks and reminder occurrences, the questions the bot is
//! waiting to have answered, and their retention. Every change to a task that affects when it is
//! reminded changes its reminder job in the same transaction, through the queue.

pub mod chats;
pub mod conversation;
pub mod reachability;
pub mod reminders;
pub mod retention;
pub mod tasks;

pub use reminders::{REMINDER_QUEUE, ReminderJob, reminder_queue};

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The queue failed.
    #[error(transparent)]
    Queue(#[from] pgqueue::QueueError),
    /// A lead time that is negative or longer than the store holds (about 68 years).
    #[error("the lead time is negative or too long")]
    InvalidLead,
    /// A stored value no longer parses (a zone or rule written by an older version).
    #[error("stored {what} {value:?} is invalid")]
    Corrupt {
        /// Which value.
        what: &'static str,
        /// Its text.
        value: String,
    },
}
