//! Reminders through the egress worker: it reads the reminder, skips what must not be sent, waits
//! its turn under the shared budget (or gives the job back), sends the reminder with its buttons
//! (and its [`Extras`]: a quote, a nag's count), and records the result with the job's transition
//! in one transaction.

use std::time::Duration;

use teloxide::prelude::*;
use teloxide::types::ParseMode;

use super::after_failure::KindSteps;
use super::classify::classify;
use super::extras::Extras;
use super::metrics;
use super::pacing::{Fare, Payment, Recipient};
use super::paid;
use super::record::{self, DueReminder, Recorded};
use super::render::ReminderView;
use super::worker::{Egress, database_retry};
use crate::domain::ids;
use crate::i18n::Tr;
use crate::store::ReminderJob;
use crate::store::budget;
use pgqueue::{ClaimedJob, Outcome};

/// What the worker decided before sending.
enum BeforeSend {
    Send(Box<DueReminder>),
    Skip(Outcome),
}

impl Egress {
    /// Delivers the reminder of `job` and says what became of the job.
    pub(super) async fn reminder(&self, job: &ClaimedJob, reminder: ReminderJob) -> Outcome {
        let due = match self.check(reminder).await {
            BeforeSend::Send(due) => due,
            BeforeSend::Skip(outcome) => return outcome,
        };
        let extras = Extras::of(&due);
        let to = Recipient::new(due.chat.chat_id, due.is_group());
        // Reminders of one chat may leave in any order: they wait in the chat's line. A reminder
        // that would otherwise be late may pay (see `super::paid`).
        let payment = Payment::IfLate {
            overdue_secs: due.overdue_secs,
        };
        // The chat's pacing was read with the reminder: a free chat is not asked again.
        let free_as_read = budget::chat_free(due.chat_wait_secs);
        let fare = match self.paying_turn(job, to, true, payment, free_as_read).await {
            Ok(fare) => fare,
            Err(outcome) => return outcome,
        };
        let tr = Tr::new(due.chat.lang);
        let html = extras.html(tr, &self.view(&due));
        let mut request = self
            .bot
            .send_message(ChatId(to.chat_id.0), html)
            .parse_mode(ParseMode::Html)
            .reply_markup(extras.keyboard(tr, due.task.id));
        if let Some(reply) = extras.reply() {
            request = request.reply_parameters(reply);
        }
        if fare == Fare::Paid {
            request = request.allow_paid_broadcast(true);
        }
        let sent = self.timed(request).await;
        match sent {
            Ok(message) => {
                metrics::message_sent(metrics::Kind::Reminder);
                if fare == Fare::Paid {
                    metrics::paid_sent();
                }
                self.record_sent(job, &due, Some(i64::from(message.id.0)))
                    .await
            }
            Err(error) => {
                let failure = classify(&error);
                if fare == Fare::Paid
                    && let Some(reason) = paid::refusal(&failure)
                    && let Some(paid) = self.pacer.paid_broadcast()
                {
                    // Not sent: it goes back to the queue and leaves in a free slot.
                    paid.refused(reason).await;
                    return Outcome::Snooze(Duration::ZERO);
                }
                self.after_failure(job, &*due, to, failure).await
            }
        }
    }

    /// Reads the reminder and decides whether it is still to be sent. A chat marked unreachable
    /// is still tried: Telegram's answer decides, not a flag that may be stale.
    async fn check(&self, reminder: ReminderJob) -> BeforeSend {
        let due = match record::load(self.queue.pool(), reminder.reminder_id).await {
            Ok(Some(due)) => due,
            Ok(None) => return BeforeSend::Skip(Outcome::Cancel),
            Err(error) => {
                return BeforeSend::Skip(database_retry(format!(
                    "reading the reminder failed: {error}"
                )));
            }
        };
        if due.sent {
            metrics::already_sent();
            return BeforeSend::Skip(Outcome::Done);
        }
        if !due.task.is_open() {
            return BeforeSend::Skip(Outcome::Cancel);
        }
        BeforeSend::Send(Box::new(due))
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
}

/// A reminder counts an unreadable success as sent (without Telegram's message id), and after a
/// migration it is simply sent again: its task moved with the chat, so it now goes to the
/// supergroup.
impl KindSteps for DueReminder {
    fn chat_id(&self) -> ids::ChatId {
        self.chat.chat_id
    }

    async fn count_as_sent(&self, egress: &Egress, job: &ClaimedJob) -> Outcome {
        egress.record_sent(job, self, None).await
    }

    async fn follow_migration(&self, _: &Egress, _: &ClaimedJob, _: ids::ChatId) -> Outcome {
        Outcome::Snooze(Duration::ZERO)
    }
}
