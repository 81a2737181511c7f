//! How many messages this replica keeps in flight: enough to fill the send budget at Telegram's
//! measured latency, and no more than its bound on connections.
//!
//! By Little's law the sends in flight are the rate times the time each takes: 30 messages a
//! second answered in 2 s need about 60 requests open at once, while a fixed handful of workers
//! would cap the rate at their number over the latency (16 workers at 1.6 s: 10 a second). Each
//! Bot API request's round trip feeds a moving average ([`SMOOTHING`]); the egress runner's
//! [`ConcurrencyLimit`] follows the rate times that average, with [`HEADROOM`] and [`SPARE`]
//! for the moments a handler spends on the database and waiting for its slot. Handlers beyond
//! what the budget needs only wait for a slot, so the limit keeps a replica from claiming (and
//! leasing) more messages than it can send, while every send still waits for its turn under the
//! shared budget ([`super::pacing`]).
//!
//! The bound (`DELIVERY_WORKERS`) caps the limit: it is the most HTTP connections the egress
//! opens to Telegram at once. Handlers hold no database connection while their request is under
//! way (each takes one from the pool for a statement at a time), so the pool's size is never
//! exceeded, however many are in flight.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pgqueue::ConcurrencyLimit;

use super::metrics;

/// The latency assumed before the first answer: a slow Telegram's, so that the first burst after
/// a start is not held to a fast one's few workers.
const INITIAL_LATENCY: Duration = Duration::from_secs(1);
/// The weight of each new round trip in the moving average (about the last 20 count).
const SMOOTHING: f64 = 0.05;
/// The handlers kept beyond Little's law, as a share of it: requests in flight vary about their
/// mean, and a handler also spends a little time on the database and on its slot.
const HEADROOM: f64 = 1.25;
/// Handlers kept beyond that, whatever the rate: an answer waiting for its chat's spacing or a
/// slot does not hold back the next.
const SPARE: usize = 8;

/// The measured Bot API latency and the egress runner's limit that follows it; cheap to clone,
/// shared by the egress handlers.
#[derive(Clone, Debug)]
pub struct InFlight {
    limit: ConcurrencyLimit,
    latency: Arc<Mutex<f64>>,
    rate_per_sec: Arc<AtomicU32>,
    bound: usize,
}

impl InFlight {
    /// The limit for a budget of `rate_per_sec` messages a second (0: no budget, so always
    /// `bound`), at most `bound`.
    pub fn new(rate_per_sec: u32, bound: usize) -> Self {
        let bound = bound.max(1);
        let latency = INITIAL_LATENCY.as_secs_f64();
        let limit = ConcurrencyLimit::new(target(rate_per_sec, latency, bound));
        metrics::in_flight_limit(limit.get(), latency);
        Self {
            limit,
            latency: Arc::new(Mutex::new(latency)),
            rate_per_sec: Arc::new(AtomicU32::new(rate_per_sec)),
            bound,
        }
    }

    /// The runner's limit, for [`pgqueue::RunnerConfig::limit`].
    pub fn limit(&self) -> ConcurrencyLimit {
        self.limit.clone()
    }

    /// A Bot API request took `round_trip` (answered, refused or timed out): the average moves
    /// and the limit follows.
    pub fn observe(&self, round_trip: Duration) {
        let latency = {
            let mut average = self.latency.lock().unwrap_or_else(|p| p.into_inner());
            *average += SMOOTHING * (round_trip.as_secs_f64() - *average);
            *average
        };
        self.follow(latency);
    }

    /// The budget's rate became `rate_per_sec` (paid broadcast adds its paid slots while it
    /// pays, see [`super::paid`]): the limit follows at once.
    pub fn set_rate(&self, rate_per_sec: u32) {
        if self.rate_per_sec.swap(rate_per_sec, Ordering::Relaxed) != rate_per_sec {
            let latency = *self.latency.lock().unwrap_or_else(|p| p.into_inner());
            self.follow(latency);
        }
    }

    fn follow(&self, latency: f64) {
        let rate = self.rate_per_sec.load(Ordering::Relaxed);
        let limit = target(rate, latency, self.bound);
        self.limit.set(limit);
        metrics::in_flight_limit(limit, latency);
    }

    /// The sends allowed in flight now.
    pub fn current(&self) -> usize {
        self.limit.get()
    }
}

/// Sends in flight to keep `rate_per_sec` at `latency_secs` each, within `1..=bound`.
fn target(rate_per_sec: u32, latency_secs: f64, bound: usize) -> usize {
    if rate_per_sec == 0 {
        return bound;
    }
    let needed = (f64::from(rate_per_sec) * latency_secs * HEADROOM).ceil();
    let needed = if needed.is_finite() && needed < bound as f64 {
        needed as usize
    } else {
        bound
    };
    (needed + SPARE).clamp(1, bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_the_rate_times_the_latency_with_headroom_within_the_bound() {
        // 30/s at 2 s: 60 in flight by Little's law, 75 with headroom, plus the spare.
        assert_eq!(target(30, 2.0, 200), 75 + SPARE);
        // A fast Telegram needs only a few.
        assert_eq!(target(30, 0.05, 200), 2 + SPARE);
        // Never past the bound on connections, nor below one.
        assert_eq!(target(30, 20.0, 100), 100);
        assert_eq!(target(30, 0.0, 1), 1);
        // Without a budget, the bound.
        assert_eq!(target(0, 2.0, 64), 64);
    }

    #[test]
    fn the_limit_follows_the_measured_latency() {
        let in_flight = InFlight::new(30, 200);
        let at_start = in_flight.current();
        for _ in 0..200 {
            in_flight.observe(Duration::from_millis(2_000));
        }
        let slow = in_flight.current();
        assert!(
            slow > at_start,
            "{slow} after 2 s answers, {at_start} at start"
        );
        assert!((80..=83).contains(&slow), "{slow}");
        for _ in 0..200 {
            in_flight.observe(Duration::from_millis(100));
        }
        let fast = in_flight.current();
        assert!(fast < 16, "{fast} after 100 ms answers");
        in_flight.set_rate(1000);
        assert!(
            in_flight.current() > 100,
            "1000/s at 100 ms: {}",
            in_flight.current()
        );
    }
}
