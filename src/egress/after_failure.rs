//! What happens after a failed send, decided once for every kind of outbox job (replies and
//! edits, reminders, agendas) by [`Egress::after_failure`]: one exhaustive `match` over
//! [`SendFailure`], so that a new way to fail does not compile until it is given a next step. The
//! steps that are the same for every kind are taken here; a kind says what it does at the steps
//! where kinds differ ([`KindSteps`]).
//!
//! | Failure | Next step | Error class |
//! |---|---|---|
//! | flood control (429) | the chat (in a flood, everyone) pauses; the job comes back then, no attempt used | `flood` |
//! | transient (5xx, network) | retried with backoff, failed when out of attempts | `transient` |
//! | unreachable chat | the job fails at once; the chat is marked unreachable, its recurring tasks and agenda pause | `unreachable` |
//! | group migrated | the chat's tasks move to the supergroup; the kind follows them there | — |
//! | rejected request | the job fails at once, for admins | `rejected` |
//! | unreadable success | counted as sent, as the kind records a send | — |

use std::future::Future;
use std::time::Duration;

use super::classify::SendFailure;
use super::metrics;
use super::pacing::Recipient;
use super::record;
use super::worker::{Egress, database_retry};
use crate::domain::ids::ChatId;
use crate::store::types::ErrorClass;
use pgqueue::{ClaimedJob, Outcome};

/// What one kind of outbox job does at the steps of [`Egress::after_failure`] where kinds differ.
pub(super) trait KindSteps: Sync {
    /// The chat the send went to: the one marked unreachable, or moved when it migrated.
    fn chat_id(&self) -> ChatId;

    /// Telegram answered something unreadable that was no error: the message most likely went
    /// out, so it is recorded as this kind records a send (a missing message id is better than a
    /// second copy).
    fn count_as_sent(
        &self,
        egress: &Egress,
        job: &ClaimedJob,
    ) -> impl Future<Output = Outcome> + Send;

    /// The group became the supergroup `new_chat_id` and its tasks have moved there: what else
    /// moves, and how this job reaches the new chat.
    fn follow_migration(
        &self,
        egress: &Egress,
        job: &ClaimedJob,
        new_chat_id: ChatId,
    ) -> impl Future<Output = Outcome> + Send;
}

impl Egress {
    /// What becomes of `job` (of the kind `kind`, sent to `to`) after its send failed with
    /// `failure`: the one mapping for every kind (see the module docs).
    pub(super) async fn after_failure(
        &self,
        job: &ClaimedJob,
        kind: &impl KindSteps,
        to: Recipient,
        failure: SendFailure,
    ) -> Outcome {
        match failure {
            SendFailure::Flood { retry_after, error } => {
                self.throttled(to, retry_after, error).await
            }
            SendFailure::Transient(error) => {
                if job.is_last_attempt() {
                    metrics::failed(ErrorClass::Transient);
                } else {
                    metrics::retried(ErrorClass::Transient);
                }
                Outcome::Retry {
                    error: ErrorClass::Transient.error(error),
                    floor: None,
                }
            }
            SendFailure::Unreachable(reason) => self.unreachable(job, kind.chat_id(), reason).await,
            SendFailure::Migrated(new_chat_id) => {
                let old_chat_id = kind.chat_id();
                match record::migrated(self.queue.pool(), old_chat_id, new_chat_id).await {
                    Ok(()) => {
                        metrics::migrated();
                        kind.follow_migration(self, job, new_chat_id).await
                    }
                    Err(error) => {
                        database_retry(format!("moving the chat to {new_chat_id} failed: {error}"))
                    }
                }
            }
            SendFailure::Rejected(error) => {
                metrics::failed(ErrorClass::Rejected);
                tracing::error!(%error, "Telegram rejected a message");
                Outcome::Fail {
                    error: ErrorClass::Rejected.error(error),
                }
            }
            SendFailure::AcceptedUnreadable(error) => {
                tracing::warn!(%error, "unreadable answer to a send; counting it as sent");
                kind.count_as_sent(self, job).await
            }
        }
    }

    /// The chat cannot be reached (blocked, deactivated, not found, kicked): the job fails at
    /// once and the chat is marked unreachable (pausing its recurring tasks and its agenda), in
    /// one transaction.
    async fn unreachable(&self, job: &ClaimedJob, chat_id: ChatId, reason: String) -> Outcome {
        metrics::failed(ErrorClass::Unreachable);
        match record::unreachable(self.queue.pool(), &self.queue, job, chat_id, &reason).await {
            Ok(()) => Outcome::Recorded,
            Err(error) => {
                tracing::warn!(%error, "marking the chat unreachable failed");
                Outcome::Fail {
                    error: ErrorClass::Unreachable.error(reason),
                }
            }
        }
    }

    /// A 429 for `to`: its chat pauses (everyone, in a flood) and the job comes back when the
    /// pause ends, without using up an attempt.
    async fn throttled(&self, to: Recipient, retry_after: Duration, error: String) -> Outcome {
        match self.pacer.too_many_requests(to, retry_after).await {
            Ok(scope) => tracing::warn!(
                retry_after = retry_after.as_secs(),
                scope = scope.label(),
                "Telegram answered 429; pausing"
            ),
            Err(failure) => tracing::warn!(%failure, "recording a 429 failed"),
        }
        Outcome::Throttle {
            error: ErrorClass::Flood.error(error),
            delay: retry_after,
        }
    }
}
