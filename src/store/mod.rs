//! The bot's data in PostgreSQL: chats, tasks and reminder occurrences, the questions the bot is
//! waiting to have answered, and their retention. Every change to a task that affects when it is
//! reminded changes its reminder job in the same transaction, through the queue.

pub mod agenda;
pub mod app_tasks;
pub mod budget;
pub mod calendar_feeds;
pub mod cards;
pub mod chats;
pub mod conversation;
pub mod exports;
pub mod inbox;
pub mod jobs;
pub mod nags;
pub mod occurrences;
pub mod outbox;
pub mod paid_broadcast;
pub mod quotes;
pub mod reachability;
pub mod retention;
pub mod series;
pub mod task_model;
pub mod tasks;
pub mod turns;
pub mod types;
pub mod undo;
pub mod user_rates;

pub use jobs::{OUTBOX_QUEUE, ReminderJob};
pub use outbox::outbox_queue;

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The queue failed.
    #[error(transparent)]
    Queue(#[from] pgqueue::QueueError),
    /// A stored value does not read (see [`types`]).
    #[error(transparent)]
    Corrupt(#[from] types::Corrupt),
}

impl StoreError {
    /// Whether PostgreSQL refused a value as data (SQLSTATE class 22, e.g. U+0000 in jsonb or
    /// text) or over a limit (class 54, e.g. a jsonb too large): storing it again fails the
    /// same way, unlike a database that is unreachable.
    pub fn is_refused_value(&self) -> bool {
        let sql = match self {
            Self::Sql(error) => error,
            Self::Queue(pgqueue::QueueError::Sql(error)) => error,
            _ => return false,
        };
        sql.as_database_error()
            .and_then(|error| error.code())
            .is_some_and(|code| code.starts_with("22") || code.starts_with("54"))
    }
}
