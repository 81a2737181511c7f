//! What admins see and do: the reminders that could not be delivered (with why), retry and cancel,
//! and the queue's health. The bot commands, the CLI and the web page all go through these
//! functions, and every action is recorded in `admin_actions` (who, what, when).

pub mod actions;
pub mod client;
pub mod failed;
pub mod lang;
pub mod session;
pub mod stats;
pub mod web;

/// What can go wrong in an admin view or action.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// The database failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The queue refused.
    #[error(transparent)]
    Queue(#[from] pgqueue::QueueError),
    /// The store failed (resuming a chat, continuing a series).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}
