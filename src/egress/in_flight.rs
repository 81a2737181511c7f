//! How many messages this replica keeps in flight: enough to fill the send budget at the time each
//! send holds a handler, and no more than its bound on connections.
//!
//! By Little's law the sends in flight are the rate times the time each takes: 30 messages a
//! second answered in 2 s need about 60 requests open at once, while a fixed handful of workers
//! would cap the rate at their number over the latency (16 workers at 1.6 s: 10 a second). The
//! time that counts is the whole of a handler's run per message it sends ([`InFlight::measure`]):
//! the Bot API round trip, and also the statements that read, book and record the message, which
//! at a fast Telegram and a high rate (paid broadcast, 1,000/s) take longer than the request
//! itself. Its wait for a slot under the budget is left out ([`waited_for_slot`]): a handler
//! that waits for its turn is one more than the budget needs, and counting that wait would raise
//! the limit to the bound whenever the budget is full. The handler-seconds per send feed a
//! moving average ([`SMOOTHING`]); the egress runner's [`ConcurrencyLimit`] follows the rate times
//! that average, with [`HEADROOM`] and [`SPARE`] for the variation. Handlers beyond what the
//! budget needs only wait for a slot, so the limit keeps a replica from claiming (and leasing)
//! more messages than it can send, while every send still waits for its turn under the shared
//! budget ([`super::pacing`]).
//!
//! The bound (`DELIVERY_WORKERS`) caps the limit: it is the most HTTP connections the egress
//! opens to Telegram at once. Handlers hold no database connection while their request is under
//! way (each takes one from the pool for a statement at a time), so the pool's size is never
//! exceeded, however many are in flight.

use std::cell::Cell;
use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pgqueue::ConcurrencyLimit;
use tokio::time::Instant;

use super::metrics;

/// The time per send assumed before the first: a slow Telegram's, so that the first burst after
/// a start is not held to a fast one's few workers.
const INITIAL_HOLD: Duration = Duration::from_secs(1);
/// The weight of each new handler run in the moving average (about the last 20 count).
const SMOOTHING: f64 = 0.05;
/// The handlers kept beyond Little's law, as a share of it: the time per send varies about its
/// mean, and the runner's claim and completion fall outside a handler's measured run.
const HEADROOM: f64 = 1.25;
/// Handlers kept beyond that, whatever the rate: an answer waiting for its chat's spacing or a
/// slot does not hold back the next.
const SPARE: usize = 8;

tokio::task_local! {
    /// What the handler run being measured by [`InFlight::measure`] spent waiting for slots, and
    /// the Bot API requests it made.
    static RUN: Cell<RunTally>;
}

/// A handler run's tally, kept while [`InFlight::measure`] times it.
#[derive(Clone, Copy, Debug, Default)]
struct RunTally {
    waited: Duration,
    requests: u32,
}

/// The handler being measured waited `wait` for its slot under the budget (time that does not
/// count towards its hold, see the module docs). Outside a measured run it does nothing.
pub(super) fn waited_for_slot(wait: Duration) {
    let _ = RUN.try_with(|tally| {
        let mut now = tally.get();
        now.waited += wait;
        tally.set(now);
    });
}

/// The handler being measured made one Bot API request. Outside a measured run it does nothing.
fn requested() {
    let _ = RUN.try_with(|tally| {
        let mut now = tally.get();
        now.requests += 1;
        tally.set(now);
    });
}

/// The moving sums behind the average hold per send: handler-seconds and sends, each decayed by
/// [`SMOOTHING`] per run, so that a run which sent nothing (a message put back for its chat's
/// spacing) adds its time without a send, and the average is the handlers' time per send.
#[derive(Debug)]
struct Holds {
    busy_secs: f64,
    sends: f64,
}

impl Holds {
    /// As if the last runs had each sent one message in `hold`.
    fn new(hold: Duration) -> Self {
        Self {
            busy_secs: hold.as_secs_f64() / SMOOTHING,
            sends: 1.0 / SMOOTHING,
        }
    }

    fn add(&mut self, busy: Duration, sends: u32) {
        self.busy_secs = self.busy_secs * (1.0 - SMOOTHING) + busy.as_secs_f64();
        self.sends = self.sends * (1.0 - SMOOTHING) + f64::from(sends);
    }

    /// Handler-seconds per send.
    fn per_send(&self) -> f64 {
        self.busy_secs / self.sends.max(f64::MIN_POSITIVE)
    }
}

/// The measured time per send and Bot API latency, and the egress runner's limit that follows
/// them; cheap to clone, shared by the egress handlers.
#[derive(Clone, Debug)]
pub struct InFlight {
    limit: ConcurrencyLimit,
    holds: Arc<Mutex<Holds>>,
    latency: Arc<Mutex<f64>>,
    rate_per_sec: Arc<AtomicU32>,
    bound: usize,
}

impl InFlight {
    /// The limit for a budget of `rate_per_sec` messages a second (0: no budget, so always
    /// `bound`), at most `bound`.
    pub fn new(rate_per_sec: u32, bound: usize) -> Self {
        let bound = bound.max(1);
        let hold = INITIAL_HOLD.as_secs_f64();
        let limit = ConcurrencyLimit::new(target(rate_per_sec, hold, bound));
        metrics::in_flight_limit(limit.get(), hold);
        Self {
            limit,
            holds: Arc::new(Mutex::new(Holds::new(INITIAL_HOLD))),
            latency: Arc::new(Mutex::new(hold)),
            rate_per_sec: Arc::new(AtomicU32::new(rate_per_sec)),
            bound,
        }
    }

    /// The runner's limit, for [`pgqueue::RunnerConfig::limit`].
    pub fn limit(&self) -> ConcurrencyLimit {
        self.limit.clone()
    }

    /// Runs one handler's work (`run`) and measures it: its time, less its waits for slots, per
    /// Bot API request it made moves the average, and the limit follows.
    pub async fn measure<T>(&self, run: impl Future<Output = T>) -> T {
        let started = Instant::now();
        let (output, tally) = RUN
            .scope(Cell::new(RunTally::default()), async {
                let output = run.await;
                (output, RUN.with(Cell::get))
            })
            .await;
        let busy = started.elapsed().saturating_sub(tally.waited);
        let hold = {
            let mut holds = self.holds.lock().unwrap_or_else(|p| p.into_inner());
            holds.add(busy, tally.requests);
            holds.per_send()
        };
        self.follow(hold);
        output
    }

    /// A Bot API request took `round_trip` (answered, refused or timed out): counted as a send of
    /// the run being measured, and reported as Telegram's latency.
    pub fn observe_request(&self, round_trip: Duration) {
        requested();
        let latency = {
            let mut average = self.latency.lock().unwrap_or_else(|p| p.into_inner());
            *average += SMOOTHING * (round_trip.as_secs_f64() - *average);
            *average
        };
        metrics::telegram_latency(latency);
    }

    /// The budget's rate became `rate_per_sec` (paid broadcast adds its paid slots while it
    /// pays, see [`super::paid`]): the limit follows at once.
    pub fn set_rate(&self, rate_per_sec: u32) {
        if self.rate_per_sec.swap(rate_per_sec, Ordering::Relaxed) != rate_per_sec {
            let hold = self
                .holds
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .per_send();
            self.follow(hold);
        }
    }

    fn follow(&self, hold_secs: f64) {
        let rate = self.rate_per_sec.load(Ordering::Relaxed);
        let limit = target(rate, hold_secs, self.bound);
        self.limit.set(limit);
        metrics::in_flight_limit(limit, hold_secs);
    }

    /// The sends allowed in flight now.
    pub fn current(&self) -> usize {
        self.limit.get()
    }
}

/// Sends in flight to keep `rate_per_sec` at `hold_secs` each, within `1..=bound`.
fn target(rate_per_sec: u32, hold_secs: f64, bound: usize) -> usize {
    if rate_per_sec == 0 {
        return bound;
    }
    let needed = (f64::from(rate_per_sec) * hold_secs * HEADROOM).ceil();
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
    fn the_limit_is_the_rate_times_the_hold_with_headroom_within_the_bound() {
        // 30/s at 2 s: 60 in flight by Little's law, 75 with headroom, plus the spare.
        assert_eq!(target(30, 2.0, 200), 75 + SPARE);
        // A fast Telegram needs only a few.
        assert_eq!(target(30, 0.05, 200), 2 + SPARE);
        // Paid broadcast's 1,000/s at 20 ms a send (the statements around the request): 25.
        assert_eq!(target(1000, 0.02, 200), 25 + SPARE);
        // Never past the bound on connections, nor below one.
        assert_eq!(target(30, 20.0, 100), 100);
        assert_eq!(target(30, 0.0, 1), 1);
        // Without a budget, the bound.
        assert_eq!(target(0, 2.0, 64), 64);
    }

    #[test]
    fn the_hold_is_the_handlers_time_per_send() {
        let mut holds = Holds::new(INITIAL_HOLD);
        for _ in 0..200 {
            holds.add(Duration::from_secs(2), 1);
        }
        assert!(
            (holds.per_send() - 2.0).abs() < 0.01,
            "{}",
            holds.per_send()
        );
        // A run put back for its chat's spacing costs its time and sends nothing: every other
        // run of 1 s sending nothing makes 2 s per send.
        for n in 0..400 {
            holds.add(Duration::from_secs(1), n % 2);
        }
        assert!((holds.per_send() - 2.0).abs() < 0.1, "{}", holds.per_send());
        // Two requests in one run of 1 s: half a second each.
        for _ in 0..200 {
            holds.add(Duration::from_secs(1), 2);
        }
        assert!(
            (holds.per_send() - 0.5).abs() < 0.01,
            "{}",
            holds.per_send()
        );
    }

    #[tokio::test]
    async fn a_runs_wait_for_its_slot_does_not_count_and_its_requests_do() {
        // Two replicas' limits at 1,000/s, fed the same runs of 30 ms with one request each,
        // interleaved so that the machine's hiccups meet both: in one the run spends its 30 ms
        // waiting for its slot, in the other sending.
        let (waiting, sending) = (InFlight::new(1000, 10_000), InFlight::new(1000, 10_000));
        let run = Duration::from_millis(30);
        for _ in 0..40 {
            waiting
                .measure(async {
                    tokio::time::sleep(run).await;
                    waited_for_slot(run);
                    waiting.observe_request(Duration::from_millis(1));
                })
                .await;
            sending
                .measure(async {
                    tokio::time::sleep(run).await;
                    sending.observe_request(run);
                })
                .await;
        }
        // 30 ms a send more is 1,000 × 0.03 × 1.25 = 37 handlers more.
        let (w, s) = (waiting.current(), sending.current());
        assert!(s >= w + 30, "sending {s}, waiting {w}");
        // A run outside `measure` is not counted, nor is a wait reported there.
        waited_for_slot(Duration::from_secs(60));
        sending.observe_request(Duration::from_millis(1));
        assert_eq!(sending.current(), s);
    }
}
