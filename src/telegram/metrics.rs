//! The delivery metrics (Prometheus names), recorded through the `metrics` facade; the side-car
//! in `src/http` exports them.

use std::time::Duration;

use super::limits::{Deferral, PauseScope};

/// Reminders delivered (counter).
pub const SENT: &str = "remindbot_reminders_sent_total";
/// Reminders put back for another attempt, by reason (counter).
pub const RETRIED: &str = "remindbot_reminders_retried_total";
/// Reminders failed for good, by reason (counter).
pub const FAILED: &str = "remindbot_reminders_failed_total";
/// Jobs whose reminder had been sent already: completed without a second send (counter).
pub const ALREADY_SENT: &str = "remindbot_reminders_already_sent_total";
/// Jobs put back because their chat (or all sending) was not ready (counter).
pub const DEFERRED: &str = "remindbot_reminders_deferred_total";
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

/// A reminder will be tried again.
pub fn retried(reason: &'static str) {
    metrics::counter!(RETRIED, "reason" => reason).increment(1);
}

/// A reminder failed for good.
pub fn failed(reason: &'static str) {
    metrics::counter!(FAILED, "reason" => reason).increment(1);
}

/// A re-run job found its reminder sent already.
pub fn already_sent() {
    metrics::counter!(ALREADY_SENT).increment(1);
}

/// A job was put back until its chat (or all sending) is ready, labelled by why: `spacing`,
/// `chat_paused` or `flood_paused`.
pub fn deferred(deferral: Deferral) {
    let reason = match deferral {
        Deferral::Spacing(_) => "spacing",
        Deferral::ChatPaused(_) => "chat_paused",
        Deferral::FloodPaused(_) => "flood_paused",
    };
    metrics::counter!(DEFERRED, "reason" => reason).increment(1);
}

/// Telegram answered 429; `scope` says whether it paused one chat or, as part of a flood, all.
pub fn too_many_requests(scope: PauseScope) {
    metrics::counter!(TOO_MANY_REQUESTS, "scope" => scope.label()).increment(1);
}
