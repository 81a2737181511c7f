//! Send-rate limits, applied before every reminder: overall, per chat and per group (governor),
//! plus a global pause after Telegram answered 429.
//!
//! A chat that is not ready must not hold a worker: [`RateLimits::admit`] answers at once with the
//! delay after which the job should come back. To keep many jobs for one chat from coming back
//! together and being turned away again, each refused job gets a slot of its own in the chat's
//! reservation book (one per period, in claim order); it is admitted when it returns at its slot.
//! governor stays the gate: a job is sent only when the chat's (and group's) bucket has a token.
//! The overall limit is a short wait on the shared bucket (its refill is fast); its burst is a
//! fifth of a second's worth, so a backlog goes out at the rate rather than in one spike.

use std::collections::{HashMap, VecDeque};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::queue::JobId;

/// The rates to keep to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateConfig {
    /// Messages per second over all chats.
    pub global_per_sec: u32,
    /// Messages per second to one chat.
    pub chat_per_sec: u32,
    /// Messages per minute to one group or supergroup.
    pub group_per_min: u32,
}

impl Default for RateConfig {
    /// 25/s overall (Telegram's FAQ says "30 or so"), 1/s per chat, 20/min per group.
    fn default() -> Self {
        Self {
            global_per_sec: 25,
            chat_per_sec: 1,
            group_per_min: 20,
        }
    }
}

/// How long a reserved slot is kept for a job that does not come back (another process took it).
const RESERVATION_GRACE: Duration = Duration::from_secs(5);
/// Slots closer than this count as now.
const SLOT_TOLERANCE: Duration = Duration::from_millis(5);
/// Admissions between two clean-ups of idle chats.
const CLEANUP_EVERY: u64 = 4096;

/// Reserved send slots of one chat, in order.
#[derive(Debug, Default)]
struct Book {
    /// Jobs told to come back, with their slots.
    slots: VecDeque<(JobId, Instant)>,
    /// The latest slot handed out (or the latest admission).
    last: Option<Instant>,
}

/// The limiters of one process (governor is in-process: with several processes, divide the rates).
#[derive(Debug)]
pub struct RateLimits {
    global: Option<DefaultDirectRateLimiter>,
    chat: Option<DefaultKeyedRateLimiter<i64>>,
    group: Option<DefaultKeyedRateLimiter<i64>>,
    chat_period: Duration,
    group_period: Duration,
    books: Mutex<HashMap<i64, Book>>,
    paused_until: Mutex<Option<Instant>>,
    admissions: AtomicU64,
}

impl RateLimits {
    /// Limiters keeping to `config`; a rate of 0 switches that limit off.
    pub fn new(config: RateConfig) -> Self {
        let chat_period = period(Duration::from_secs(1), config.chat_per_sec);
        let group_period = period(Duration::from_secs(60), config.group_per_min);
        Self {
            global: NonZeroU32::new(config.global_per_sec).map(|n| {
                let burst = NonZeroU32::new(n.get() / 5).unwrap_or(NonZeroU32::MIN);
                RateLimiter::direct(Quota::per_second(n).allow_burst(burst))
            }),
            chat: NonZeroU32::new(config.chat_per_sec).map(|_| {
                RateLimiter::keyed(Quota::with_period(chat_period).expect("a positive period"))
            }),
            group: NonZeroU32::new(config.group_per_min).map(|_| {
                RateLimiter::keyed(Quota::with_period(group_period).expect("a positive period"))
            }),
            chat_period,
            group_period,
            books: Mutex::default(),
            paused_until: Mutex::default(),
            admissions: AtomicU64::new(0),
        }
    }

    /// No limits at all (benchmarks of the pipeline's headroom).
    pub fn off() -> Self {
        Self::new(RateConfig {
            global_per_sec: 0,
            chat_per_sec: 0,
            group_per_min: 0,
        })
    }

    /// Stops all sending for `d` (Telegram answered 429 with `retry_after`).
    pub fn pause_all(&self, d: Duration) {
        let until = Instant::now() + d;
        let mut paused = self.paused_until.lock().expect("pause lock poisoned");
        *paused = Some(paused.map_or(until, |p| p.max(until)));
    }

    /// How long all sending is still paused, if it is.
    pub fn paused_for(&self) -> Option<Duration> {
        let paused = self.paused_until.lock().expect("pause lock poisoned");
        paused
            .map(|until| until.saturating_duration_since(Instant::now()))
            .filter(|d| !d.is_zero())
    }

    /// Whether job `job` may send to `chat_id` now (`is_group`: a group or supergroup). `Err(d)`:
    /// come back after `d` (the job keeps its reserved slot). `Ok` may wait briefly for the
    /// overall bucket.
    pub async fn admit(&self, job: JobId, chat_id: i64, is_group: bool) -> Result<(), Duration> {
        if let Some(wait) = self.paused_for() {
            return Err(wait);
        }
        self.maybe_clean_up();
        let spacing = if is_group {
            self.chat_period.max(self.group_period)
        } else {
            self.chat_period
        };
        if !spacing.is_zero() {
            self.reserve(job, chat_id, spacing)?;
            self.gate(job, chat_id, is_group)?;
        }
        if let Some(global) = &self.global {
            global.until_ready().await;
        }
        // A 429 may have paused sending while this job waited for the overall bucket.
        self.paused_for().map_or(Ok(()), Err)
    }

    /// Takes (or finds) the job's slot in the chat's book; `Err` while the slot is in the future.
    fn reserve(&self, job: JobId, chat_id: i64, spacing: Duration) -> Result<(), Duration> {
        let now = Instant::now();
        let mut books = self.books.lock().expect("reservation lock poisoned");
        let book = books.entry(chat_id).or_default();
        book.slots.retain(|(_, at)| *at + RESERVATION_GRACE > now);
        if let Some(index) = book.slots.iter().position(|(id, _)| *id == job) {
            let at = book.slots[index].1;
            if at > now + SLOT_TOLERANCE {
                return Err(at - now);
            }
            book.slots.remove(index);
            return Ok(());
        }
        let next = book.last.map_or(now, |last| (last + spacing).max(now));
        if next <= now + SLOT_TOLERANCE {
            book.last = Some(now);
            return Ok(());
        }
        book.slots.push_back((job, next));
        book.last = Some(next);
        Err(next - now)
    }

    /// The governor buckets of the chat (and group): `Err(wait)` when one is empty.
    fn gate(&self, job: JobId, chat_id: i64, is_group: bool) -> Result<(), Duration> {
        let clock = DefaultClock::default();
        let mut limiters = vec![&self.chat];
        if is_group {
            limiters.push(&self.group);
        }
        for limiter in limiters.into_iter().flatten() {
            if let Err(not_until) = limiter.check_key(&chat_id) {
                let wait = not_until.wait_time_from(clock.now());
                return Err(self.refused(job, chat_id, wait));
            }
        }
        Ok(())
    }

    /// Gives a job the bucket turned away a slot, so that the jobs after it queue behind it.
    fn refused(&self, job: JobId, chat_id: i64, wait: Duration) -> Duration {
        let at = Instant::now() + wait;
        let mut books = self.books.lock().expect("reservation lock poisoned");
        let book = books.entry(chat_id).or_default();
        let at = book.last.map_or(at, |last| last.max(at));
        book.slots.push_back((job, at));
        book.last = Some(at);
        at.saturating_duration_since(Instant::now())
    }

    /// Now and then, forgets chats that have been quiet (the keyed buckets and books grow with
    /// every chat ever served).
    fn maybe_clean_up(&self) {
        if !self
            .admissions
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(CLEANUP_EVERY)
        {
            return;
        }
        let now = Instant::now();
        self.books
            .lock()
            .expect("reservation lock poisoned")
            .retain(|_, book| book.last.is_some_and(|at| at + RESERVATION_GRACE > now));
        for limiter in [&self.chat, &self.group].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// `unit / n`, or zero when `n` is 0 (no limit).
fn period(unit: Duration, n: u32) -> Duration {
    if n == 0 { Duration::ZERO } else { unit / n }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_busy_chat_hands_out_one_slot_per_period_in_order() {
        let limits = RateLimits::new(RateConfig::default());
        assert_eq!(limits.admit(1, 7, false).await, Ok(()));
        let second = limits.admit(2, 7, false).await.unwrap_err();
        let third = limits.admit(3, 7, false).await.unwrap_err();
        assert!(second > Duration::from_millis(900) && second <= Duration::from_secs(1));
        assert!(third > second + Duration::from_millis(900), "{third:?}");
        // The same job asking again keeps its slot.
        let again = limits.admit(3, 7, false).await.unwrap_err();
        assert!(again <= third && again + Duration::from_millis(50) > third);
        // Other chats are not delayed.
        assert_eq!(limits.admit(4, 8, false).await, Ok(()));
    }

    #[tokio::test]
    async fn a_pause_turns_everyone_away() {
        let limits = RateLimits::new(RateConfig::default());
        limits.pause_all(Duration::from_secs(3600));
        let wait = limits.admit(1, 9, false).await.unwrap_err();
        assert!(wait > Duration::from_secs(3500));
    }

    #[tokio::test]
    async fn groups_are_spaced_by_the_group_rate() {
        let limits = RateLimits::new(RateConfig::default());
        assert_eq!(limits.admit(1, -5, true).await, Ok(()));
        let wait = limits.admit(2, -5, true).await.unwrap_err();
        assert!(wait > Duration::from_millis(2900), "{wait:?}");
    }
}
