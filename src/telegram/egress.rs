//! The egress worker: the [`JobHandler`] of the outbox queue, the one way out of the bot. Each
//! claimed job is a reply or edit ([`OutgoingMessage`], sent by [`super::outgoing`]), a reminder
//! ([`ReminderJob`], sent by [`super::delivery`]) or a morning agenda ([`AgendaJob`], sent by
//! [`super::agenda`]); all wait for their turn under the shared budget
//! ([`Pacer`]) and meet Telegram's errors with one policy: a 429 pauses its chat (and, in a flood,
//! everyone) and the message is tried again without using up an attempt; a transient error is
//! retried with backoff; an unreachable chat fails the message and is marked.

use std::time::Duration;

use teloxide::Bot;

use super::classify::{SendFailure, class};
use super::metrics;
use super::pacing::{Admission, Pacer, Recipient};
use super::record;
use crate::store::agenda::AgendaJob;
use crate::store::outbox::{OutgoingMessage, ReminderJob};
use pgqueue::{ClaimedJob, JobError, JobHandler, Outcome, Queue};

/// Settings of the egress workers.
#[derive(Clone, Copy, Debug)]
pub struct EgressConfig {
    /// A reminder sent later than this after its time says how late it is.
    pub late_threshold: Duration,
    /// How long to keep trying to record a sent reminder while the database is unreachable
    /// (giving up means the job is re-run and the reminder may go out twice).
    pub record_patience: Duration,
}

impl Default for EgressConfig {
    /// A 5-minute "late" threshold, 60 s of patience with the database.
    fn default() -> Self {
        Self {
            late_threshold: Duration::from_secs(300),
            record_patience: Duration::from_secs(60),
        }
    }
}

/// Sends what the outbox holds; one per process, shared by the runner's workers. Its `Debug`
/// leaves out the bot, whose own `Debug` shows the token.
#[derive(Clone)]
pub struct Egress {
    pub(super) bot: Bot,
    pub(super) queue: Queue,
    pub(super) pacer: Pacer,
    pub(super) config: EgressConfig,
}

impl std::fmt::Debug for Egress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Egress")
            .field("queue", &self.queue.name())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// What an outbox job carries.
enum OutboxJob {
    Message(OutgoingMessage),
    Reminder(ReminderJob),
    Agenda(AgendaJob),
}

impl OutboxJob {
    /// The payload as one of the outbox's kinds (their fields differ, so only one reads).
    fn of(job: &ClaimedJob) -> Option<Self> {
        job.args::<OutgoingMessage>()
            .map(Self::Message)
            .or_else(|_| job.args::<ReminderJob>().map(Self::Reminder))
            .or_else(|_| job.args::<AgendaJob>().map(Self::Agenda))
            .ok()
    }
}

impl Egress {
    /// A worker sending with `bot` what `queue` (the outbox) holds, paced by `pacer`.
    pub fn new(bot: Bot, queue: Queue, pacer: Pacer, config: EgressConfig) -> Self {
        Self {
            bot,
            queue,
            pacer,
            config,
        }
    }

    /// Sends what `job` carries and says what became of the job.
    #[tracing::instrument(skip_all, fields(job = job.id, attempt = job.attempt, chat_id))]
    pub async fn send(&self, job: ClaimedJob) -> Outcome {
        match OutboxJob::of(&job) {
            Some(OutboxJob::Message(message)) => {
                tracing::Span::current().record("chat_id", message.chat_id);
                self.message(&job, &message).await
            }
            Some(OutboxJob::Reminder(reminder)) => self.reminder(&job, reminder).await,
            Some(OutboxJob::Agenda(agenda)) => self.agenda(&job, agenda).await,
            None => {
                metrics::failed("bad_payload");
                Outcome::Fail {
                    error: JobError::new(
                        class::BAD_PAYLOAD,
                        format!("not an outbox job's payload: {}", job.payload),
                    ),
                }
            }
        }
    }

    /// Waits for the message's turn; `None` when it may leave now, else what to do with the job
    /// (come back later, without using up an attempt).
    pub(super) async fn turn(
        &self,
        job: &ClaimedJob,
        to: Recipient,
        in_line: bool,
    ) -> Option<Outcome> {
        match self.pacer.admit(to, job.priority, in_line).await {
            Ok(Admission::Send) => None,
            Ok(Admission::Defer(deferral)) => {
                metrics::deferred(deferral);
                Some(Outcome::Snooze(deferral.wait()))
            }
            Err(error) => {
                metrics::retried("database");
                Some(Outcome::Retry {
                    error: JobError::new(class::DATABASE, format!("pacing failed: {error}")),
                    floor: None,
                })
            }
        }
    }

    /// The outcome of a send Telegram refused because the chat cannot be reached (blocked,
    /// deactivated, not found, kicked): the job fails at once and the chat is marked unreachable
    /// (pausing its recurring tasks), in one transaction.
    pub(super) async fn unreachable(
        &self,
        job: &ClaimedJob,
        chat_id: i64,
        reason: String,
    ) -> Outcome {
        metrics::failed("unreachable");
        match record::unreachable(self.queue.pool(), &self.queue, job, chat_id, &reason).await {
            Ok(()) => Outcome::Recorded,
            Err(error) => {
                tracing::warn!(%error, "marking the chat unreachable failed");
                Outcome::Fail {
                    error: JobError::new(class::UNREACHABLE, reason),
                }
            }
        }
    }

    /// The outcome of a 429 for `to`: its chat pauses (everyone, in a flood) and the job comes
    /// back when the pause ends, without using up an attempt.
    pub(super) async fn throttled(
        &self,
        to: Recipient,
        retry_after: Duration,
        error: String,
    ) -> Outcome {
        match self.pacer.too_many_requests(to, retry_after).await {
            Ok(scope) => tracing::warn!(
                retry_after = retry_after.as_secs(),
                scope = scope.label(),
                "Telegram answered 429; pausing"
            ),
            Err(failure) => tracing::warn!(%failure, "recording a 429 failed"),
        }
        Outcome::Throttle {
            error: JobError::new(class::FLOOD, error),
            delay: retry_after,
        }
    }

    /// The outcome of a failure that is neither a 429 nor handled by the caller.
    pub(super) fn retry_or_fail(job: &ClaimedJob, failure: SendFailure) -> Outcome {
        match failure {
            SendFailure::Transient(error) => {
                if job.is_last_attempt() {
                    metrics::failed("transient");
                } else {
                    metrics::retried("transient");
                }
                Outcome::Retry {
                    error: JobError::new(class::TRANSIENT, error),
                    floor: None,
                }
            }
            other => {
                metrics::failed("rejected");
                let error = format!("{other:?}");
                tracing::error!(%error, "Telegram rejected a message");
                Outcome::Fail {
                    error: JobError::new(class::REJECTED, error),
                }
            }
        }
    }
}

impl JobHandler for Egress {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        self.send(job).await
    }
}
