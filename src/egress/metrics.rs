//! The egress metrics (Prometheus names), recorded through the `metrics` facade; the side-car
//! in `src/http` exports them.

use std::time::Duration;

use crate::store::budget::PauseScope;
use crate::store::types::ErrorClass;

/// Messages that left through the outbox, by kind: `reply`, `edit`, `reminder` (counter).
pub const MESSAGES_SENT: &str = "remindbot_messages_sent_total";
/// Edits skipped because a newer edit of the same message was waiting (counter).
pub const EDITS_COALESCED: &str = "remindbot_edits_coalesced_total";
/// This process's sends within the last second: its share of the budget in use (gauge).
pub const BUDGET_IN_USE: &str = "remindbot_send_budget_in_use";
/// The sends this process allows in flight now: the budget's rate times the time a send holds a
/// handler, within DELIVERY_WORKERS (gauge).
pub const IN_FLIGHT_LIMIT: &str = "remindbot_send_in_flight_limit";
/// The moving average of the time a send holds a handler (its statements and its Bot API
/// request, not its wait for a slot), in seconds (gauge).
pub const SEND_HOLD: &str = "remindbot_send_hold_seconds";
/// The moving average of Bot API round trips this process measured, in seconds (gauge).
pub const TELEGRAM_LATENCY: &str = "remindbot_telegram_latency_seconds";
/// Reminders delivered (counter).
pub const SENT: &str = "remindbot_reminders_sent_total";
/// Outbox jobs (reminders, answers, agendas) put back for another attempt, by reason: an error
/// class, or `migrated` (counter).
pub const RETRIED: &str = "remindbot_reminders_retried_total";
/// Outbox jobs (reminders, answers, agendas) failed for good, by reason: an error class
/// (counter).
pub const FAILED: &str = "remindbot_reminders_failed_total";
/// Jobs whose reminder had been sent already: completed without a second send (counter).
pub const ALREADY_SENT: &str = "remindbot_reminders_already_sent_total";
/// Outbox jobs put back because their chat (or all sending) was not ready, by reason (counter).
pub const DEFERRED: &str = "remindbot_outbox_deferred_total";
/// 429 answers from Telegram, by the scope of the pause they caused (counter).
pub const TOO_MANY_REQUESTS: &str = "remindbot_telegram_429_total";
/// From a reminder's due time to Telegram's acceptance, in seconds (histogram).
pub const LATENESS: &str = "remindbot_reminder_lateness_seconds";
/// Jobs by queue state, refreshed every few seconds; an estimate on a large table (gauge).
pub const QUEUE_JOBS: &str = "remindbot_queue_jobs";
/// Pending jobs of a queue that are due now, counted up to 10,000 (gauge).
pub const QUEUE_DUE: &str = "remindbot_queue_due_jobs";
/// How long a queue's oldest due job has waited, in seconds; 0 when none waits (gauge).
pub const QUEUE_OLDEST_DUE: &str = "remindbot_queue_oldest_due_seconds";
/// Due jobs of a queue by priority (the outbox: 0 replies, 1 reminders), up to 10,000 (gauge).
pub const QUEUE_DUE_BY_PRIORITY: &str = "remindbot_queue_due_jobs_by_priority";
/// How long the oldest due job of each priority has waited, in seconds (gauge).
pub const QUEUE_OLDEST_DUE_BY_PRIORITY: &str = "remindbot_queue_oldest_due_seconds_by_priority";

/// Reminders Telegram accepted with `allow_paid_broadcast` (counter).
pub const PAID_SENDS: &str = "remindbot_paid_broadcast_sends_total";
/// Paid sends Telegram refused (no balance, not eligible): each stops paid sends for a while
/// (counter).
pub const PAID_REFUSALS: &str = "remindbot_paid_broadcast_refusals_total";
/// 1 while this process pays for reminders that would otherwise be late (gauge).
pub const PAID_ACTIVE: &str = "remindbot_paid_broadcast_active";
/// 1 while paid sends stop after a refusal, on every replica (gauge).
pub const PAID_REFUSED: &str = "remindbot_paid_broadcast_refused";
/// Stars given to paid slots today (UTC), all replicas: an upper bound of what Telegram charged
/// (gauge).
pub const PAID_SPENT_STARS: &str = "remindbot_paid_broadcast_spent_stars";

/// Buckets of the lateness histogram, in seconds: 10 ms to a day.
pub const LATENESS_BUCKETS: &[f64] = &[
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0,
    21600.0, 86400.0,
];

/// A reminder went out `lateness` after it was due.
pub fn sent(lateness: Duration) {
    metrics::counter!(SENT).increment(1);
    metrics::histogram!(LATENESS).record(lateness.as_secs_f64());
}

/// An outbox job will be tried again after an error of `class`.
pub fn retried(class: ErrorClass) {
    metrics::counter!(RETRIED, "reason" => class.as_str()).increment(1);
}

/// An outbox job's chat became a supergroup: the job goes there instead (counted with the
/// retries, as reason `migrated`).
pub fn migrated() {
    metrics::counter!(RETRIED, "reason" => "migrated").increment(1);
}

/// An outbox job failed for good with an error of `class`.
pub fn failed(class: ErrorClass) {
    metrics::counter!(FAILED, "reason" => class.as_str()).increment(1);
}

/// A re-run job found its reminder sent already.
pub fn already_sent() {
    metrics::counter!(ALREADY_SENT).increment(1);
}

/// A job was put back until its chat (or all sending) is ready, labelled by why
/// ([`super::pacing::Deferral::label`]).
pub fn deferred(reason: &'static str) {
    metrics::counter!(DEFERRED, "reason" => reason).increment(1);
}

/// What kind of message left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An answer to someone (a new message).
    Reply,
    /// A change to a message sent before.
    Edit,
    /// A reminder.
    Reminder,
}

impl Kind {
    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Reply => "reply",
            Self::Edit => "edit",
            Self::Reminder => "reminder",
        }
    }
}

/// A message of `kind` left.
pub fn message_sent(kind: Kind) {
    metrics::counter!(MESSAGES_SENT, "kind" => kind.label()).increment(1);
}

/// An edit was skipped for a newer one.
pub fn edit_coalesced() {
    metrics::counter!(EDITS_COALESCED).increment(1);
}

/// This process sent `sends` messages within the last second.
pub fn budget_in_use(sends: usize) {
    metrics::gauge!(BUDGET_IN_USE).set(sends as f64);
}

/// The sends allowed in flight became `limit`, at an average hold of `hold_secs` a send.
pub fn in_flight_limit(limit: usize, hold_secs: f64) {
    metrics::gauge!(IN_FLIGHT_LIMIT).set(limit as f64);
    metrics::gauge!(SEND_HOLD).set(hold_secs);
}

/// The moving average of Bot API round trips became `latency_secs`.
pub fn telegram_latency(latency_secs: f64) {
    metrics::gauge!(TELEGRAM_LATENCY).set(latency_secs);
}

/// Telegram answered 429; `scope` says whether it paused one chat or, as part of a flood, all.
pub fn too_many_requests(scope: PauseScope) {
    metrics::counter!(TOO_MANY_REQUESTS, "scope" => scope.label()).increment(1);
}

/// A reminder left with `allow_paid_broadcast`.
pub fn paid_sent() {
    metrics::counter!(PAID_SENDS).increment(1);
}

/// Telegram refused a paid send.
pub fn paid_refused() {
    metrics::counter!(PAID_REFUSALS).increment(1);
}

/// Where paid broadcast stands: paying now, stopped by a refusal, and the Stars spent today.
pub fn paid_state(paying: bool, refused: bool, spent_today_stars: f64) {
    metrics::gauge!(PAID_ACTIVE).set(if paying { 1.0 } else { 0.0 });
    metrics::gauge!(PAID_REFUSED).set(if refused { 1.0 } else { 0.0 });
    metrics::gauge!(PAID_SPENT_STARS).set(spent_today_stars);
}
