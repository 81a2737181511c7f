//! Sending reminders to Telegram: rate limits, error classification, rendering and the delivery
//! worker that the `reminders` queue runs.

pub mod classify;
pub mod delivery;
pub mod limits;
pub mod metrics;
pub mod record;
pub mod render;

pub use delivery::{Delivery, DeliveryConfig};
pub use limits::{RateConfig, RateLimits};
