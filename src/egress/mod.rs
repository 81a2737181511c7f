//! Everything that leaves for Telegram: the egress worker that sends what the outbox holds
//! (replies, edits, reminders and morning agendas), the shared budget that paces it, error
//! classification and the rendering of reminders and agendas.

mod after_failure;
pub mod agenda;
pub mod classify;
mod delivery;
mod export;
pub mod extras;
pub mod in_flight;
pub mod metrics;
mod outgoing;
pub mod pacing;
pub mod paid;
pub mod record;
pub mod render;
mod slots;
pub mod worker;

pub use in_flight::InFlight;
pub use pacing::{Pacer, RateConfig};
pub use paid::{PaidBroadcast, PaidSettings, Stars};
pub use worker::{Egress, EgressConfig};
