//! The egress worker: the [`JobHandler`] of the outbox queue, the one way out of the bot. Each
//! claimed job is read once as an [`OutboxJob`] and matched once: a reply or edit (sent by
//! [`super::outgoing`]), a reminder (sent by [`super::delivery`]) or a morning agenda (sent by
//! [`super::agenda`]); a payload that is none of these fails as `bad_payload`. All wait for their
//! turn under the shared budget ([`Pacer`]) and meet Telegram's errors with one policy,
//! [`Egress::after_failure`]: a 429 pauses its chat (and, in a flood, everyone) and the message
//! is tried again without using up an attempt; a transient error is retried with backoff; an
//! unreachable chat fails the message and is marked.

use std::future::IntoFuture;
use std::time::Duration;

use teloxide::Bot;
use tokio::time::Instant;

use super::in_flight::InFlight;
use super::metrics;
use super::pacing::{Admission, Fare, Pacer, Payment, Recipient};
use crate::store::outbox::OutboxJob;
use crate::store::types::ErrorClass;
use pgqueue::{ClaimedJob, JobHandler, Outcome, Queue};

/// How long a message not sent because its claim was not confirmed waits: its worker's presence
/// is back within a second or two, or another replica takes the job.
const NOT_CONFIRMED_WAIT: Duration = Duration::from_secs(1);

/// Settings of the egress workers.
#[derive(Clone, Copy, Debug)]
pub struct EgressConfig {
    /// A reminder sent later than this after its time says how late it is.
    pub late_threshold: Duration,
    /// How long to keep trying to record a sent reminder while the database is unreachable
    /// (giving up means the job is re-run and the reminder may go out twice).
    pub record_patience: Duration,
    /// The largest file sent; an export's file over it is replaced by a message saying so.
    pub max_document_bytes: usize,
}

impl EgressConfig {
    /// How long to keep trying to record a sent reminder while the database is unreachable, unless
    /// set otherwise.
    pub const RECORD_PATIENCE: Duration = Duration::from_secs(60);
}

/// Sends what the outbox holds; one per process, shared by the runner's workers. Its `Debug`
/// leaves out the bot, whose own `Debug` shows the token.
#[derive(Clone)]
pub struct Egress {
    pub(super) bot: Bot,
    pub(super) queue: Queue,
    pub(super) pacer: Pacer,
    pub(super) in_flight: InFlight,
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

impl Egress {
    /// A worker sending with `bot` what `queue` (the outbox) holds, paced by `pacer`; the time each
    /// of its sends holds a handler feeds `in_flight`, which sets how many sends its runner keeps
    /// in flight.
    pub fn new(
        bot: Bot,
        queue: Queue,
        pacer: Pacer,
        in_flight: InFlight,
        config: EgressConfig,
    ) -> Self {
        Self {
            bot,
            queue,
            pacer,
            in_flight,
            config,
        }
    }

    /// Makes one Bot API request; it counts as a send of the handler's run, and its round trip
    /// (answered or not) as Telegram's latency ([`InFlight`]).
    pub(super) async fn timed<T>(&self, request: impl IntoFuture<Output = T>) -> T {
        let started = Instant::now();
        let answer = request.await;
        self.in_flight.observe_request(started.elapsed());
        answer
    }

    /// Sends what `job` carries and says what became of the job.
    #[tracing::instrument(skip_all, fields(job = job.id.0, attempt = job.attempt, chat_id))]
    pub async fn send(&self, job: ClaimedJob) -> Outcome {
        match job.args::<OutboxJob>() {
            Ok(OutboxJob::Message(message)) => {
                tracing::Span::current().record("chat_id", message.chat_id.0);
                self.message(&job, &message).await
            }
            Ok(OutboxJob::Reminder(reminder)) => self.reminder(&job, reminder).await,
            Ok(OutboxJob::Agenda(agenda)) => self.agenda(&job, agenda).await,
            Ok(OutboxJob::Export(export)) => {
                tracing::Span::current().record("chat_id", export.chat_id.0);
                self.export(&job, export).await
            }
            Err(error) => {
                metrics::failed(ErrorClass::BadPayload);
                tracing::error!(%error, "an outbox job that does not read");
                Outcome::Fail {
                    error: ErrorClass::BadPayload.error(format!("not an outbox job: {error}")),
                }
            }
        }
    }

    /// Waits for the message's turn, then confirms that the job is still this worker's
    /// ([`Queue::recheck`]: no other replica can take it while the request is under way); `None`
    /// when it may leave now, else what to do with the job (come back later).
    pub(super) async fn turn(
        &self,
        job: &ClaimedJob,
        to: Recipient,
        in_line: bool,
    ) -> Option<Outcome> {
        self.paying_turn(job, to, in_line, Payment::Never, false)
            .await
            .err()
    }

    /// [`Self::turn`] for a message that may take a paid slot (`payment`): when it may leave
    /// now, its fare (with `allow_paid_broadcast` when paid). `free_as_read`: see
    /// [`Pacer::admit`].
    pub(super) async fn paying_turn(
        &self,
        job: &ClaimedJob,
        to: Recipient,
        in_line: bool,
        payment: Payment,
        free_as_read: bool,
    ) -> Result<Fare, Outcome> {
        match self
            .pacer
            .admit(&self.queue, job, to, in_line, payment, free_as_read)
            .await
        {
            Ok(Admission::Send(fare)) => Ok(fare),
            Ok(Admission::NotConfirmed) => {
                tracing::warn!("the job is no longer confirmed as this worker's; not sent");
                Err(Outcome::Snooze(NOT_CONFIRMED_WAIT))
            }
            Ok(Admission::Defer(deferral)) => {
                metrics::deferred(deferral.label());
                Err(Outcome::Snooze(deferral.wait()))
            }
            Err(error) => Err(database_retry(format!("pacing failed: {error}"))),
        }
    }
}

impl JobHandler for Egress {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        self.in_flight.measure(self.send(job)).await
    }
}

/// A retry after a database error (the attempt counts: the database may be away for a while).
pub(super) fn database_retry(error: String) -> Outcome {
    metrics::retried(ErrorClass::Database);
    Outcome::Retry {
        error: ErrorClass::Database.error(error),
        floor: None,
    }
}
