//! The intake metrics (Prometheus names): updates received, handled and failed, and the time from
//! receipt to handled. The inbox's depth and the age of its oldest unhandled update are the
//! updates queue's gauges (see `src/http`).

use std::time::Duration;

/// Updates written to the inbox, by how they came: `polling` or `webhook` (counter).
pub const UPDATES_RECEIVED: &str = "remindbot_updates_received_total";
/// Updates handled: their effects and replies committed (counter).
pub const UPDATES_HANDLED: &str = "remindbot_updates_handled_total";
/// Updates given up: unreadable, or their handler kept failing (counter).
pub const UPDATES_FAILED: &str = "remindbot_updates_failed_total";
/// From an update's receipt to its handled mark, in seconds (histogram).
pub const UPDATE_HANDLING: &str = "remindbot_update_handling_seconds";
/// 1 while this replica holds the polling lease, else 0; in polling mode only (gauge). Summed
/// over replicas it is 1, and 0 means nobody polls: no update comes in.
pub const POLLING_LEASE: &str = "remindbot_polling_lease_held";
/// Webhook requests refused, by status: `401`, `413`, `503` (counter).
pub const WEBHOOK_REFUSED: &str = "remindbot_webhook_refused_total";

/// Buckets of the handling histogram, in seconds: 1 ms to a minute.
pub const UPDATE_HANDLING_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// How updates reach the inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// getUpdates, by the replica holding the polling lease.
    Polling,
    /// A webhook request.
    Webhook,
}

impl Via {
    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Polling => "polling",
            Self::Webhook => "webhook",
        }
    }
}

/// This replica took (`true`) or lost (`false`) the polling lease.
pub fn polling_lease(held: bool) {
    metrics::gauge!(POLLING_LEASE).set(if held { 1.0 } else { 0.0 });
}

/// `count` new updates were written to the inbox.
pub fn updates_received(via: Via, count: usize) {
    metrics::counter!(UPDATES_RECEIVED, "via" => via.label()).increment(count as u64);
}

/// An update was handled `since_receipt` after it arrived.
pub fn update_handled(since_receipt: Duration) {
    metrics::counter!(UPDATES_HANDLED).increment(1);
    metrics::histogram!(UPDATE_HANDLING).record(since_receipt.as_secs_f64());
}

/// An update was given up.
pub fn update_failed() {
    metrics::counter!(UPDATES_FAILED).increment(1);
}

/// A webhook request was refused with `status`.
pub fn webhook_refused(status: u16) {
    metrics::counter!(WEBHOOK_REFUSED, "status" => status.to_string()).increment(1);
}
