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
//! A reminder that would otherwise be late may take a paid slot instead of a free one, when paid
//! broadcast is on ([`super::paid`]: a second schedule served the same way, [`SlotLine`]); it then
//! leaves with `allow_paid_broadcast` ([`Fare::Paid`]).
//!
//! Overall and per-chat slots are spaced at exactly the configured rates: Telegram's overall and
//! per-chat limits are rates that allow short bursts (the Bot API FAQ; the simulator's token
//! buckets), so the jitter between a slot and the moment Telegram counts the message costs
//! nothing, and a backlog drains at the full budget (a fixed margin would make every large
//! backlog that much longer: 7 % of 55 minutes for 100,000 reminders at 30/s). A group's limit is
//! a window ("20 messages per minute"), which jitter can overfill, so group slots keep
//! [`GROUP_MARGIN`]. A replica that dies holds at most the slots of its horizon: its share is
//! free again at once, and its claimed jobs return to the queue with their leases.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use sqlx::PgPool;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::in_flight;
use super::metrics;
use super::paid::PaidBroadcast;
use super::slots::{Slot, SlotLine, horizon, secs};
use crate::domain::ids::ChatId;
use crate::store::StoreError;
use crate::store::budget::{self, Booking, Budget, PauseScope};
use pgqueue::{ClaimedJob, Queue, QueueError};

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
    /// Send at the booked slot (the worker has slept until it), with `allow_paid_broadcast` when
    /// the slot is a paid one.
    Send(Fare),
    /// Not now.
    Defer(Deferral),
    /// Never by this worker: its claim on the job is not confirmed (the job was taken back, or
    /// the worker is marked missing). Nothing was booked.
    NotConfirmed,
}

/// Whether a message may take a paid slot (see [`super::paid`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Payment {
    /// Never: replies, edits, files and agendas.
    Never,
    /// A reminder, this many seconds past its time: it pays when it (or the line of reminders
    /// due) would otherwise be late by more than PAID_BROADCAST_AFTER_SECS.
    IfLate {
        /// How late it is already.
        overdue_secs: f64,
    },
}

/// The slot a message was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fare {
    /// Within Telegram's free limit.
    Free,
    /// Above it: sent with `allow_paid_broadcast`.
    Paid,
}

/// The pacing of one process: cheap to clone, shared by its egress workers.
#[derive(Clone, Debug)]
pub struct Pacer {
    pool: PgPool,
    config: RateConfig,
    free: Option<SlotLine>,
    paid: Option<PaidBroadcast>,
    recent: Arc<Mutex<VecDeque<Instant>>>,
}

impl Pacer {
    /// Starts the process's slot task (it stops with `shutdown`) and returns the pacer.
    pub fn start(pool: PgPool, config: RateConfig, shutdown: CancellationToken) -> Self {
        let free = config.global_interval().map(|interval| {
            let pool = pool.clone();
            SlotLine::start(
                move |wanted| {
                    let pool = pool.clone();
                    async move {
                        budget::take_slots(&pool, Budget::Free, interval, horizon(interval), wanted)
                            .await
                    }
                },
                interval,
                shutdown,
            )
        });
        Self {
            pool,
            config,
            free,
            paid: None,
            recent: Arc::default(),
        }
    }

    /// The same pacer, giving reminders that would otherwise be late the paid slots of `paid`.
    #[must_use]
    pub fn with_paid_broadcast(mut self, paid: PaidBroadcast) -> Self {
        self.paid = Some(paid);
        self
    }

    /// The rates kept to.
    pub fn config(&self) -> RateConfig {
        self.config
    }

    /// Paid broadcast, when on.
    pub fn paid_broadcast(&self) -> Option<&PaidBroadcast> {
        self.paid.as_ref()
    }

    /// Waits for the message of `job` (of `job.priority`, lower first) to `to` to be allowed out;
    /// on [`Admission::Send`] its claim is confirmed (see [`Queue::recheck`]: no other replica can
    /// take the job while the request is under way) and the caller sends at once, with
    /// `allow_paid_broadcast` when its fare is [`Fare::Paid`] (only a message that may pay,
    /// [`Payment::IfLate`], gets a paid slot, when [`PaidBroadcast::pays`] says so and one is to be
    /// had; otherwise it waits for a free one). `in_line`: the message may leave in any order
    /// relative to others for the chat (see the module's documentation). `free_as_read`: the
    /// caller read the chat's pacing row just now and found the chat free
    /// ([`budget::chat_free`]), so step 1 is not asked again (the booking in step 3 still checks
    /// it).
    ///
    /// Where the chat has a limit, the claim is confirmed in the statement that books the chat
    /// ([`budget::book_chat`], the queue's `confirm_job`): a lost claim books nothing. That is up
    /// to a slot's horizon before the slot, a few tens of milliseconds of a lease of seconds.
    #[tracing::instrument(skip_all, fields(chat_id = to.chat_id.0, priority = job.priority))]
    pub async fn admit(
        &self,
        queue: &Queue,
        job: &ClaimedJob,
        to: Recipient,
        in_line: bool,
        payment: Payment,
        free_as_read: bool,
    ) -> Result<Admission, StoreError> {
        let chat_interval = self.config.chat_interval(to.is_group);
        if let Some(interval) = chat_interval.filter(|_| !free_as_read) {
            let mut conn = self.pool.acquire().await?;
            if let Some(wait) = budget::chat_wait(&mut conn, to.chat_id, interval, in_line).await? {
                return Ok(Admission::Defer(Deferral::Spacing(secs(wait))));
            }
        }
        // The waits for a slot and then for its instant are the budget's queue, not work: they
        // do not count towards the time a send holds a handler (`in_flight`).
        let waiting_since = Instant::now();
        let paid_slot = match (payment, &self.paid) {
            (Payment::IfLate { overdue_secs }, Some(paid)) if paid.pays(overdue_secs) => {
                paid.slot().await
            }
            _ => None,
        };
        let slot = match paid_slot {
            Some(at) => Ok((Some(at), Fare::Paid)),
            None => match self.slot(job.priority).await {
                Some(Slot::Granted { at }) => Ok((Some(at), Fare::Free)),
                Some(Slot::Wait { in_secs }) => Err(in_secs),
                None => Ok((None, Fare::Free)),
            },
        };
        in_flight::waited_for_slot(waiting_since.elapsed());
        let (at, fare) = match slot {
            Ok(granted) => granted,
            Err(in_secs) => return Ok(Admission::Defer(Deferral::Busy(secs(in_secs)))),
        };
        let lease = queue.config().lease;
        let confirmed_at_booking = match chat_interval {
            Some(interval) => {
                let at = at.unwrap_or_else(Utc::now);
                match budget::book_chat(&self.pool, to.chat_id, at, interval, job, lease).await? {
                    Booking::Booked => true,
                    Booking::ChatBusy => return Ok(Admission::Defer(Deferral::Spacing(interval))),
                    Booking::NotConfirmed => return Ok(Admission::NotConfirmed),
                }
            }
            None => false,
        };
        // The send leaves at its slot's instant on the database's clock (the same clock as
        // ours, or NTP-close): neither the slot's round trip nor the booking above shifts it,
        // so replicas' sends do not bunch beyond the budget.
        if let Some(wait) = at.and_then(|at| (at - Utc::now()).to_std().ok()) {
            tokio::time::sleep(wait).await;
            in_flight::waited_for_slot(wait);
        }
        if !confirmed_at_booking {
            match queue.recheck(job).await {
                Ok(_) => {}
                Err(QueueError::NotConfirmed { .. }) => return Ok(Admission::NotConfirmed),
                Err(error) => return Err(error.into()),
            }
        }
        self.count_send();
        Ok(Admission::Send(fare))
    }

    /// An overall slot from the slot task; `None` without an overall limit.
    async fn slot(&self, priority: i16) -> Option<Slot> {
        Some(self.free.as_ref()?.slot(priority).await)
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
}
