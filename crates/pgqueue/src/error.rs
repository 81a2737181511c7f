//! Why an attempt did not succeed: a short class that programs count and filter by, and a text
//! for people. Both are kept with the job (`error_class`, `last_error`) and in its attempt
//! history.

use std::borrow::Cow;
use std::fmt;

/// An attempt's error: its class (`"transient"`, `"unreachable"`, ...; the queue itself uses
/// [`JobError::PANIC`], [`JobError::LEASE_EXPIRED`] and [`JobError::WORKER_LOST`]) and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobError {
    /// The kind of failure, a short lowercase word chosen by the handler.
    pub class: Cow<'static, str>,
    /// What happened, for people.
    pub message: String,
}

impl JobError {
    /// The class of errors given as plain text, without a class of their own.
    pub const UNCLASSIFIED: &'static str = "error";
    /// The class the runner gives a handler that panicked.
    pub const PANIC: &'static str = "panic";
    /// The class the reaper gives a job whose worker stopped answering.
    pub const LEASE_EXPIRED: &'static str = "lease_expired";
    /// The class the reaper gives a job whose worker's process died (its presence lock is free).
    pub const WORKER_LOST: &'static str = "worker_lost";

    /// An error of class `class`.
    pub fn new(class: &'static str, message: impl Into<String>) -> Self {
        Self {
            class: Cow::Borrowed(class),
            message: message.into(),
        }
    }
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<&str> for JobError {
    /// A message without a class ([`JobError::UNCLASSIFIED`]).
    fn from(message: &str) -> Self {
        Self::new(Self::UNCLASSIFIED, message)
    }
}

impl From<String> for JobError {
    /// A message without a class ([`JobError::UNCLASSIFIED`]).
    fn from(message: String) -> Self {
        Self::new(Self::UNCLASSIFIED, message)
    }
}
