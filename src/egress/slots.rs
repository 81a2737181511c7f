//! The overall slots of one budget in one process: the workers waiting for a slot, most urgent
//! first, and the task that takes slots from the database a batch at a time and hands them out
//! ([`SlotLine`]). The free budget ([`super::pacing`]) and the paid one ([`super::paid`]) each
//! have a line.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::future::Future;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::store::StoreError;
use crate::store::budget::Slots;

/// Overall slots are booked at most this many intervals ahead (and at least [`MIN_HORIZON`]).
const HORIZON_INTERVALS: u32 = 2;
/// The shortest horizon: the round trip of one booking.
const MIN_HORIZON: Duration = Duration::from_millis(20);
/// A worker waits this long at most for an overall slot; then its job goes back to the queue
/// (keeping its place by due time) rather than holding a worker and its lease.
const MAX_SLOT_WAIT: Duration = Duration::from_secs(10);
/// After a database error, the slot task waits this long before asking again.
const ERROR_PAUSE: Duration = Duration::from_millis(500);

/// What a worker waiting for an overall slot is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Slot {
    /// Send at `at` (by the database clock).
    Granted {
        /// The slot's instant.
        at: DateTime<Utc>,
    },
    /// No slot now: the job comes back in `in_secs`.
    Wait {
        /// When to come back, in seconds.
        in_secs: f64,
    },
}

/// A worker's request for an overall slot, most urgent first.
#[derive(Debug)]
struct Waiter {
    rank: Reverse<(i16, u64)>,
    reply: oneshot::Sender<Slot>,
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}

impl Eq for Waiter {}

impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Waiter {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank.cmp(&other.rank)
    }
}

/// The horizon of a budget whose slots are `interval` apart.
pub(super) fn horizon(interval: Duration) -> Duration {
    (interval * HORIZON_INTERVALS).max(MIN_HORIZON)
}

/// A request for a slot: the worker's priority, and where to answer.
type SlotRequest = (i16, oneshot::Sender<Slot>);

/// The workers of this process waiting for slots of one budget, and the task that serves them
/// ([`hand_out_slots`]); cheap to clone.
#[derive(Clone, Debug)]
pub(super) struct SlotLine {
    requests: mpsc::UnboundedSender<SlotRequest>,
}

impl SlotLine {
    /// Starts the task serving the line: `take(n)` takes up to `n` slots `interval` apart (at
    /// most [`horizon`] ahead); it stops with `shutdown`.
    pub(super) fn start<F, Fut>(take: F, interval: Duration, shutdown: CancellationToken) -> Self
    where
        F: FnMut(u32) -> Fut + Send + 'static,
        Fut: Future<Output = Result<Slots, StoreError>> + Send + 'static,
    {
        let (requests, incoming) = mpsc::unbounded_channel();
        tokio::spawn(hand_out_slots(
            take,
            interval,
            horizon(interval),
            incoming,
            shutdown,
        ));
        Self { requests }
    }

    /// Waits (at most [`MAX_SLOT_WAIT`]) for a slot for a message of `priority`.
    pub(super) async fn slot(&self, priority: i16) -> Slot {
        let (reply, answer) = oneshot::channel();
        if self.requests.send((priority, reply)).is_err() {
            return Slot::Wait { in_secs: 1.0 };
        }
        match tokio::time::timeout(MAX_SLOT_WAIT, answer).await {
            Ok(Ok(slot)) => slot,
            // The slot task stopped (shutdown), or the wait was too long: come back shortly.
            Ok(Err(_)) | Err(_) => Slot::Wait { in_secs: 0.0 },
        }
    }
}

/// The slot task: takes slots (`take`, a batch at a time: as many as workers wait, at most
/// `horizon` ahead), and hands them to the waiting workers, most urgent first. When the budget
/// is paused (all sending, after a flood; or paid slots closed), every waiting worker is told at
/// once (their jobs come back when the pause ends, or take a free slot instead).
async fn hand_out_slots<F, Fut>(
    mut take: F,
    interval: Duration,
    horizon: Duration,
    mut incoming: mpsc::UnboundedReceiver<SlotRequest>,
    shutdown: CancellationToken,
) where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<Slots, StoreError>>,
{
    let mut waiting: BinaryHeap<Waiter> = BinaryHeap::new();
    let mut arrivals = 0u64;
    let mut enqueue = |waiting: &mut BinaryHeap<Waiter>, (priority, reply)| {
        arrivals += 1;
        waiting.push(Waiter {
            rank: Reverse((priority, arrivals)),
            reply,
        });
    };
    loop {
        while let Ok(request) = incoming.try_recv() {
            enqueue(&mut waiting, request);
        }
        waiting.retain(|w| !w.reply.is_closed());
        if waiting.is_empty() {
            tokio::select! {
                request = incoming.recv() => match request {
                    Some(request) => enqueue(&mut waiting, request),
                    None => return,
                },
                () = shutdown.cancelled() => return,
            }
            continue;
        }
        let wanted = u32::try_from(waiting.len()).unwrap_or(u32::MAX);
        let pause = match take(wanted).await {
            Ok(Slots::Granted { first, count, .. }) => {
                for n in 0..count {
                    // A worker that gave up meanwhile leaves its slot unused.
                    if let Some(waiter) = waiting.pop() {
                        let at = first + TimeDelta::from_std(interval * n).unwrap_or_default();
                        let _ = waiter.reply.send(Slot::Granted { at });
                    }
                }
                continue;
            }
            Ok(Slots::Wait {
                in_secs,
                paused: true,
            }) => {
                for waiter in waiting.drain() {
                    let _ = waiter.reply.send(Slot::Wait { in_secs });
                }
                continue;
            }
            Ok(Slots::Wait { in_secs, .. }) => secs(in_secs).min(horizon),
            Err(error) => {
                // The workers' jobs come back shortly; the database may be back by then.
                tracing::warn!(%error, "taking send slots failed");
                for waiter in waiting.drain() {
                    let _ = waiter.reply.send(Slot::Wait {
                        in_secs: ERROR_PAUSE.as_secs_f64(),
                    });
                }
                ERROR_PAUSE
            }
        };
        let until = Instant::now() + pause;
        loop {
            tokio::select! {
                request = incoming.recv() => match request {
                    Some(request) => enqueue(&mut waiting, request),
                    None => return,
                },
                () = tokio::time::sleep_until(until) => break,
                () = shutdown.cancelled() => return,
            }
        }
    }
}

/// Seconds as a duration (negative: zero).
pub(super) fn secs(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiters_are_served_by_priority_then_arrival() {
        let mut heap = BinaryHeap::new();
        for (priority, seq) in [(1, 1), (0, 3), (1, 2), (0, 4)] {
            let (reply, _) = oneshot::channel();
            heap.push(Waiter {
                rank: Reverse((priority, seq)),
                reply,
            });
        }
        let order: Vec<(i16, u64)> = std::iter::from_fn(|| heap.pop().map(|w| w.rank.0)).collect();
        assert_eq!(order, [(0, 3), (0, 4), (1, 1), (1, 2)]);
    }
}
