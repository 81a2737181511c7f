//! The delivery worker: the [`JobHandler`] of the `reminders` queue. For each claimed job it reads
//! the reminder, skips what must not be sent, waits its turn under the rate limits (or gives the
//! job back), sends the reminder with its buttons, and records the result with the job's
//! transition in one transaction.

use std::sync::Arc;
use std::time::Duration;

use teloxide::prelude::*;
use teloxide::types::ParseMode;

use super::classify::{SendFailure, class, classify};
use super::limits::RateLimits;
use super::metrics;
use super::record::{self, DueReminder, Recorded};
use super::render::{ReminderView, reminder_html, reminder_keyboard};
use crate::i18n::Tr;
use crate::store::ReminderJob;
use pgqueue::{ClaimedJob, JobError, JobHandler, Outcome, Queue};

/// Settings of the delivery worker.
#[derive(Clone, Copy, Debug)]
pub struct DeliveryConfig {
    /// A reminder sent later than this after its time says how late it is.
    pub late_threshold: Duration,
    /// How long to keep trying to record a sent reminder while the database is unreachable
    /// (giving up means the job is re-run and the reminder may go out twice).
    pub record_patience: Duration,
}

impl Default for DeliveryConfig {
    /// A 5-minute "late" threshold, 60 s of patience with the database.
    fn default() -> Self {
        Self {
            late_threshold: Duration::from_secs(300),
            record_patience: Duration::from_secs(60),
        }
    }
}

/// Sends due reminders; one per process, shared by the runner's workers. Its `Debug` leaves out
/// the bot, whose own `Debug` shows the token.
#[derive(Clone)]
pub struct Delivery {
    bot: Bot,
    queue: Queue,
    limits: Arc<RateLimits>,
    config: DeliveryConfig,
}

impl std::fmt::Debug for Delivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delivery")
            .field("queue", &self.queue.name())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// What the handler decided before sending.
enum Verdict {
    Send(Box<DueReminder>),
    Skip(Outcome),
}

impl Delivery {
    /// A worker sending with `bot`, recording through `queue` (the `reminders` queue).
    pub fn new(bot: Bot, queue: Queue, limits: Arc<RateLimits>, config: DeliveryConfig) -> Self {
        Self {
            bot,
            queue,
            limits,
            config,
        }
    }

    /// Delivers the reminder of `job` and says what became of the job.
    #[tracing::instrument(skip_all, fields(job = job.id, attempt = job.attempt))]
    pub async fn deliver(&self, job: ClaimedJob) -> Outcome {
        let due = match self.check(&job).await {
            Verdict::Send(due) => due,
            Verdict::Skip(outcome) => return outcome,
        };
        let chat_id = due.chat.chat_id;
        if let Err(deferral) = self.limits.admit(job.id, chat_id, due.is_group()).await {
            metrics::deferred(deferral);
            return Outcome::Snooze(deferral.wait());
        }
        let tr = Tr::new(due.chat.lang);
        let html = reminder_html(tr, &self.view(&due));
        let sent = self
            .bot
            .send_message(ChatId(chat_id), html)
            .parse_mode(ParseMode::Html)
            .reply_markup(reminder_keyboard(tr, due.task.id))
            .await;
        match sent {
            Ok(message) => {
                self.record_sent(&job, &due, Some(i64::from(message.id.0)))
                    .await
            }
            Err(error) => self.failed(&job, &due, classify(&error)).await,
        }
    }

    /// Reads the reminder and decides whether it is still to be sent. A chat marked unreachable
    /// is still tried: Telegram's answer decides, not a flag that may be stale.
    async fn check(&self, job: &ClaimedJob) -> Verdict {
        let Ok(reminder) = job.args::<ReminderJob>() else {
            metrics::failed("bad_payload");
            return Verdict::Skip(Outcome::Fail {
                error: JobError::new(
                    class::BAD_PAYLOAD,
                    format!("not a reminder job's payload: {}", job.payload),
                ),
            });
        };
        let due = match record::load(self.queue.pool(), reminder.reminder_id).await {
            Ok(Some(due)) => due,
            Ok(None) => return Verdict::Skip(Outcome::Cancel),
            Err(error) => {
                metrics::retried("database");
                return Verdict::Skip(Outcome::Retry {
                    error: JobError::new(
                        class::DATABASE,
                        format!("reading the reminder failed: {error}"),
                    ),
                    floor: None,
                });
            }
        };
        if due.sent {
            metrics::already_sent();
            return Verdict::Skip(Outcome::Done);
        }
        if !due.task.is_open() {
            return Verdict::Skip(Outcome::Cancel);
        }
        Verdict::Send(Box::new(due))
    }

    fn view<'a>(&self, due: &'a DueReminder) -> ReminderView<'a> {
        let zone = due.chat.zone.unwrap_or(due.task.zone);
        let overdue = Duration::from_secs_f64(due.overdue_secs.max(0.0));
        ReminderView {
            task_id: due.task.id,
            text: &due.task.text,
            due_at: due.due_at,
            zone,
            late_by: (overdue > self.config.late_threshold)
                .then(|| chrono::Duration::seconds(overdue.as_secs() as i64)),
            now: chrono::Utc::now(),
        }
    }

    /// Records a sent reminder, retrying while the database is away (a give-up means a re-run).
    async fn record_sent(
        &self,
        job: &ClaimedJob,
        due: &DueReminder,
        message_id: Option<i64>,
    ) -> Outcome {
        let started = tokio::time::Instant::now();
        let mut pause = Duration::from_millis(100);
        loop {
            match record::sent(self.queue.pool(), &self.queue, job, due, message_id).await {
                Ok(Recorded::Sent {
                    lateness_secs,
                    completed,
                }) => {
                    metrics::sent(Duration::from_secs_f64(lateness_secs.max(0.0)));
                    if !completed {
                        tracing::warn!("lease lost before the send was recorded; sent flag kept");
                    }
                    return Outcome::Recorded;
                }
                Ok(Recorded::Gone) => {
                    tracing::info!("the reminder was changed or deleted while it was sent");
                    return Outcome::Recorded;
                }
                Err(error) if started.elapsed() < self.config.record_patience => {
                    tracing::warn!(%error, "recording a sent reminder failed; retrying");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(2));
                }
                Err(error) => {
                    tracing::error!(%error, "could not record a sent reminder; it may be sent again");
                    return Outcome::Recorded;
                }
            }
        }
    }

    /// Acts on a failed send.
    async fn failed(&self, job: &ClaimedJob, due: &DueReminder, failure: SendFailure) -> Outcome {
        match failure {
            SendFailure::Flood { retry_after, error } => {
                let scope = self.limits.too_many_requests(due.chat.chat_id, retry_after);
                metrics::too_many_requests(scope);
                tracing::warn!(
                    retry_after = retry_after.as_secs(),
                    scope = scope.label(),
                    "Telegram answered 429; pausing"
                );
                Outcome::Throttle {
                    error: JobError::new(class::FLOOD, error),
                    delay: retry_after,
                }
            }
            SendFailure::Transient(error) => {
                count_retry(job, "transient");
                Outcome::Retry {
                    error: JobError::new(class::TRANSIENT, error),
                    floor: None,
                }
            }
            SendFailure::Unreachable(reason) => {
                metrics::failed("unreachable");
                match record::unreachable(
                    self.queue.pool(),
                    &self.queue,
                    job,
                    due.chat.chat_id,
                    &reason,
                )
                .await
                {
                    Ok(()) => Outcome::Recorded,
                    Err(error) => {
                        tracing::warn!(%error, "marking the chat unreachable failed");
                        Outcome::Fail {
                            error: JobError::new(class::UNREACHABLE, reason),
                        }
                    }
                }
            }
            SendFailure::Migrated(new_chat_id) => {
                match record::migrated(self.queue.pool(), due.chat.chat_id, new_chat_id).await {
                    Ok(()) => {
                        metrics::retried("migrated");
                        Outcome::Snooze(Duration::ZERO)
                    }
                    Err(error) => {
                        metrics::retried("database");
                        Outcome::Retry {
                            error: JobError::new(
                                class::DATABASE,
                                format!("moving the chat to {new_chat_id} failed: {error}"),
                            ),
                            floor: None,
                        }
                    }
                }
            }
            SendFailure::Rejected(error) => {
                metrics::failed("rejected");
                tracing::error!(%error, "Telegram rejected a reminder");
                Outcome::Fail {
                    error: JobError::new(class::REJECTED, error),
                }
            }
            SendFailure::AcceptedUnreadable(error) => {
                tracing::warn!(%error, "unreadable answer to a send; counting it as sent");
                self.record_sent(job, due, None).await
            }
        }
    }
}

/// Counts a retry, or a failure when the attempts are used up (the queue then fails the job).
fn count_retry(job: &ClaimedJob, reason: &'static str) {
    if job.is_last_attempt() {
        metrics::failed(reason);
    } else {
        metrics::retried(reason);
    }
}

impl JobHandler for Delivery {
    async fn handle(&self, job: ClaimedJob) -> Outcome {
        self.deliver(job).await
    }
}
