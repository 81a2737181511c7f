//! Pacing every message the bot sends under one budget kept in PostgreSQL ([`crate::store::budget`]),
//! so that all replicas together stay within Telegram's limits: overall, per chat and per group,
//! plus the pauses Telegram asks for with 429.
//!
//! A worker holding a claimed message asks [`Pacer::admit`]:
//! 1. Is its chat free? If not (spaced or paused by a 429), the job comes back when it is, and
//!    holds no worker meanwhile. Jobs that may leave in any order (reminders) take a place in the
//!    chat's line, so that many of them come back one per slot rather than all at once.
//! 2. An overall slot. One task per process asks the database for slots, one at a time and at
//!    most a short horizon ahead, and hands each to the most urgent waiting worker (replies before
//!    reminders, then first come): the process's priority order holds within its share, and no
//!    replica books more than a few slots ahead of the others.
//! 3. The chat is booked at that slot; the worker sleeps until it and sends.
//!
//! Overall and per-chat slots are spaced at exactly the configured rates: Telegram's overall and
//! per-chat limits are rates that allow short bursts (the Bot API FAQ; the simulator's token
//! buckets), so the jitter between a slot and the moment Telegram counts the message costs
//! nothing, and a backlog drains at the full budget (a fixed margin would make every large
//! backlog that much longer: 7 % of 55 minutes for 100,000 reminders at 30/s). A group's limit is
//! a window ("20 messages per minute"), which jitter can overfill, so group slots keep
//! [`GROUP_MARGIN`]. A replica that dies holds at most the slots of its horizon: its share is
//! free again at once, and its claimed jobs return to the queue with their leases.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::metrics;
use crate::domain::ids::ChatId;
use crate::store::StoreError;
use crate::store::budget::{self, PauseScope, Slots};

/// The rates to keep to, and how 429s pause sending.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateConfig {
    /// Messages per second over all chats, all replicas together (0: no limit).
    pub global_per_sec: u32,
    /// Messages per second to one chat (0: no limit).
    pub chat_per_sec: u32,
    /// Messages per minute to one group or supergroup (0: no limit).
    pub group_per_min: u32,
    /// The longest bot-wide pause after 429s from several chats (Telegram's flood limit).
    pub flood_pause_cap: Duration,
}

impl RateConfig {
    /// The spacing of overall slots, `None` without a limit.
    fn global_interval(&self) -> Option<Duration> {
        spacing(Duration::from_secs(1), self.global_per_sec, 1.0)
    }

    /// The spacing of messages to one chat, `None` without a limit.
    fn chat_interval(&self, is_group: bool) -> Option<Duration> {
        let chat = spacing(Duration::from_secs(1), self.chat_per_sec, 1.0);
        let group =
            spacing(Duration::from_secs(60), self.group_per_min, GROUP_MARGIN).filter(|_| is_group);
        chat.max(group)
    }
}

/// A group's messages are this fraction of its per-minute limit apart: its limit is a window, and
/// 7 % absorbs the jitter between a slot and the moment Telegram counts the message (measured at
/// 30/s with three replicas: 2 % let 33 land in one second, 5 % 31).
pub const GROUP_MARGIN: f64 = 0.93;

/// The spacing of `n` messages per `unit` at `share` of that rate.
fn spacing(unit: Duration, n: u32, share: f64) -> Option<Duration> {
    (n > 0).then(|| unit.div_f64(f64::from(n) * share))
}

/// Overall slots are booked at most this many intervals ahead (and at least [`MIN_HORIZON`]).
const HORIZON_INTERVALS: u32 = 2;
/// The shortest horizon: the round trip of one booking.
const MIN_HORIZON: Duration = Duration::from_millis(20);
/// A worker waits this long at most for an overall slot; then its job goes back to the queue
/// (keeping its place by due time) rather than holding a worker and its lease.
const MAX_SLOT_WAIT: Duration = Duration::from_secs(10);
/// After a database error, the slot task waits this long before asking again.
const ERROR_PAUSE: Duration = Duration::from_millis(500);

/// Where a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipient {
    /// The chat.
    pub chat_id: ChatId,
    /// Whether it is a group or supergroup (20 messages a minute).
    pub is_group: bool,
}

impl Recipient {
    /// `chat_id`, a group when its id is negative (as Telegram numbers groups) or `is_group`.
    pub fn new(chat_id: ChatId, is_group: bool) -> Self {
        Self {
            chat_id,
            is_group: is_group || chat_id.0 < 0,
        }
    }
}

/// Why a message may not leave now, and when to come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deferral {
    /// The chat has had its share (or another message took its slot): come back then.
    Spacing(Duration),
    /// All sending is paused after a flood of 429s, or the overall budget is busy: come back.
    Busy(Duration),
}

impl Deferral {
    /// How long until the job should come back.
    pub fn wait(self) -> Duration {
        match self {
            Self::Spacing(d) | Self::Busy(d) => d,
        }
    }

    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Spacing(_) => "spacing",
            Self::Busy(_) => "busy",
        }
    }
}

/// What became of a request to send.
#[derive(Debug)]
pub enum Admission {
    /// Send at the booked slot (the worker has slept until it).
    Send,
    /// Not now.
    Defer(Deferral),
}

/// What a worker waiting for an overall slot is told.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slot {
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

/// The pacing of one process: cheap to clone, shared by its egress workers.
#[derive(Clone, Debug)]
pub struct Pacer {
    pool: PgPool,
    config: RateConfig,
    requests: mpsc::UnboundedSender<(i16, oneshot::Sender<Slot>)>,
    recent: Arc<Mutex<VecDeque<Instant>>>,
}

impl Pacer {
    /// Starts the process's slot task (it stops with `shutdown`) and returns the pacer.
    pub fn start(pool: PgPool, config: RateConfig, shutdown: CancellationToken) -> Self {
        let (requests, incoming) = mpsc::unbounded_channel();
        if let Some(interval) = config.global_interval() {
            let horizon = (interval * HORIZON_INTERVALS).max(MIN_HORIZON);
            tokio::spawn(hand_out_slots(
                pool.clone(),
                interval,
                horizon,
                incoming,
                shutdown,
            ));
        }
        Self {
            pool,
            config,
            requests,
            recent: Arc::default(),
        }
    }

    /// The rates kept to.
    pub fn config(&self) -> RateConfig {
        self.config
    }

    /// Waits for a message to `to`, of `priority` (lower first), to be allowed out; on
    /// [`Admission::Send`] the caller sends at once. `in_line`: the message may leave in any order
    /// relative to others for the chat (see the module's documentation).
    #[tracing::instrument(skip_all, fields(chat_id = to.chat_id.0, priority))]
    pub async fn admit(
        &self,
        to: Recipient,
        priority: i16,
        in_line: bool,
    ) -> Result<Admission, StoreError> {
        let chat_interval = self.config.chat_interval(to.is_group);
        if let Some(interval) = chat_interval {
            let mut conn = self.pool.acquire().await?;
            if let Some(wait) = budget::chat_wait(&mut conn, to.chat_id, interval, in_line).await? {
                return Ok(Admission::Defer(Deferral::Spacing(secs(wait))));
            }
        }
        let at = match self.slot(priority).await {
            Some(Slot::Granted { at }) => Some(at),
            Some(Slot::Wait { in_secs }) => {
                return Ok(Admission::Defer(Deferral::Busy(secs(in_secs))));
            }
            None => None,
        };
        if let Some(interval) = chat_interval {
            let at = at.unwrap_or_else(Utc::now);
            if !budget::book_chat(&self.pool, to.chat_id, at, interval).await? {
                return Ok(Admission::Defer(Deferral::Spacing(interval)));
            }
        }
        // The send leaves at its slot's instant on the database's clock (the same clock as
        // ours, or NTP-close): neither the slot's round trip nor the booking above shifts it,
        // so replicas' sends do not bunch beyond the budget.
        if let Some(wait) = at.and_then(|at| (at - Utc::now()).to_std().ok()) {
            tokio::time::sleep(wait).await;
        }
        self.count_send();
        Ok(Admission::Send)
    }

    /// An overall slot from the slot task; `None` without an overall limit.
    async fn slot(&self, priority: i16) -> Option<Slot> {
        self.config.global_interval()?;
        let (reply, answer) = oneshot::channel();
        if self.requests.send((priority, reply)).is_err() {
            return Some(Slot::Wait { in_secs: 1.0 });
        }
        match tokio::time::timeout(MAX_SLOT_WAIT, answer).await {
            Ok(Ok(slot)) => Some(slot),
            // The slot task stopped (shutdown), or the wait was too long: come back shortly.
            Ok(Err(_)) | Err(_) => Some(Slot::Wait { in_secs: 0.0 }),
        }
    }

    /// Records a 429 for the chat of `to` (see [`budget::throttled`]) and says what it paused.
    pub async fn too_many_requests(
        &self,
        to: Recipient,
        retry_after: Duration,
    ) -> Result<PauseScope, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let scope = budget::throttled(
            &mut conn,
            to.chat_id,
            retry_after,
            self.config.flood_pause_cap,
        )
        .await?;
        metrics::too_many_requests(scope);
        Ok(scope)
    }

    /// Counts a send for the "budget in use" gauge: this process's sends of the last second.
    fn count_send(&self) {
        let now = Instant::now();
        let mut recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        recent.push_back(now);
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            recent.pop_front();
        }
        metrics::budget_in_use(recent.len());
    }
}

/// Seconds as a duration (negative: zero).
fn secs(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::ZERO)
}

/// The slot task: takes overall slots from the database, a batch at a time (as many as workers
/// wait, at most `horizon` ahead), and hands them to the waiting workers, most urgent first.
/// When all sending is paused, every waiting worker is told at once (their jobs come back when
/// the pause ends).
async fn hand_out_slots(
    pool: PgPool,
    interval: Duration,
    horizon: Duration,
    mut incoming: mpsc::UnboundedReceiver<(i16, oneshot::Sender<Slot>)>,
    shutdown: CancellationToken,
) {
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
        let pause = match budget::take_slots(&pool, interval, horizon, wanted).await {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overall_and_chat_slots_follow_the_rates_and_groups_keep_a_margin() {
        let rates = RateConfig {
            global_per_sec: 30,
            chat_per_sec: 1,
            group_per_min: 20,
            flood_pause_cap: Duration::from_secs(60),
        };
        let global = rates.global_interval().unwrap();
        assert!(
            (global.as_secs_f64() - 1.0 / 30.0).abs() < 1e-6,
            "{global:?}"
        );
        let private = rates.chat_interval(false).unwrap();
        assert!((private.as_secs_f64() - 1.0).abs() < 1e-6);
        let group = rates.chat_interval(true).unwrap();
        assert!(
            (group.as_secs_f64() - 3.0 / GROUP_MARGIN).abs() < 1e-6,
            "{group:?}"
        );
        let off = RateConfig {
            global_per_sec: 0,
            chat_per_sec: 0,
            group_per_min: 0,
            ..rates
        };
        assert_eq!(off.global_interval(), None);
        assert_eq!(off.chat_interval(true), None);
    }

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
