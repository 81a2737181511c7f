//! Send-rate limits, applied before every reminder: overall, per chat and per group (governor),
//! plus the pauses Telegram asks for with 429.
//!
//! A chat that is not ready must not hold a worker: [`RateLimits::admit`] answers at once with the
//! delay after which the job should come back. To keep many jobs for one chat from coming back
//! together and being turned away again, each refused job gets a slot of its own in the chat's
//! reservation book (one per period, in claim order); it is admitted when it returns at its slot.
//! governor stays the gate: a job is sent only when the chat's (and group's) bucket has a token.
//! The overall limit is a short wait on the shared bucket (its refill is fast); its burst is a
//! fifth of a second's worth, so a backlog goes out at the rate rather than in one spike.
//!
//! A 429 pauses the chat that got it for its `retry_after` ([`RateLimits::too_many_requests`]):
//! that chat's jobs come back exactly when the pause ends, and other chats are not touched. Only
//! when 429s come from several chats within a short window (Telegram's flood limit over the whole
//! bot) is all sending paused, and never for longer than the flood cap; jobs turned away by such a
//! pause come back after a short recheck delay rather than being re-dated by the whole pause.

use std::collections::{HashMap, VecDeque};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use pgqueue::JobId;

/// The rates to keep to, and how 429s pause sending.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateConfig {
    /// Messages per second over all chats.
    pub global_per_sec: u32,
    /// Messages per second to one chat.
    pub chat_per_sec: u32,
    /// Messages per minute to one group or supergroup.
    pub group_per_min: u32,
    /// The longest bot-wide pause after 429s from several chats (Telegram's flood limit).
    pub flood_pause_cap: Duration,
}

impl Default for RateConfig {
    /// 25/s overall (Telegram's FAQ says "30 or so"), 1/s per chat, 20/min per group, bot-wide
    /// pauses of at most 60 s.
    fn default() -> Self {
        Self {
            global_per_sec: 25,
            chat_per_sec: 1,
            group_per_min: 20,
            flood_pause_cap: Duration::from_secs(60),
        }
    }
}

/// Why a job may not send now, and when to come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deferral {
    /// The chat (or group) has had its share: come back at the job's reserved slot.
    Spacing(Duration),
    /// Telegram asked this chat to wait (429): come back when the pause ends.
    ChatPaused(Duration),
    /// All sending is paused after a flood of 429s: look again after a short while.
    FloodPaused(Duration),
}

impl Deferral {
    /// How long until the job should come back.
    pub fn wait(self) -> Duration {
        match self {
            Self::Spacing(d) | Self::ChatPaused(d) | Self::FloodPaused(d) => d,
        }
    }
}

/// What a 429 paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseScope {
    /// Only the chat that got it.
    Chat,
    /// All sending, after 429s from several chats at once.
    Flood,
}

impl PauseScope {
    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Chat => "chat",
            Self::Flood => "flood",
        }
    }
}

/// 429s from this many different chats within [`FLOOD_WINDOW`] are a flood over the whole bot.
const FLOOD_CHATS: usize = 3;
/// The window in which 429s of different chats count as one flood.
const FLOOD_WINDOW: Duration = Duration::from_secs(2);
/// A job turned away by a bot-wide pause looks again after at most this long.
const FLOOD_RECHECK: Duration = Duration::from_secs(1);

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

/// Recent 429s and the bot-wide pause they caused.
#[derive(Debug, Default)]
struct Flood {
    /// When each recent 429 came, and for which chat.
    recent: VecDeque<(Instant, i64)>,
    /// The end of the bot-wide pause, if one is on.
    paused_until: Option<Instant>,
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
    chat_pauses: Mutex<HashMap<i64, Instant>>,
    flood: Mutex<Flood>,
    flood_pause_cap: Duration,
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
            chat_pauses: Mutex::default(),
            flood: Mutex::default(),
            flood_pause_cap: config.flood_pause_cap,
            admissions: AtomicU64::new(0),
        }
    }

    /// No limits at all (benchmarks of the pipeline's headroom).
    pub fn off() -> Self {
        Self::new(RateConfig {
            global_per_sec: 0,
            chat_per_sec: 0,
            group_per_min: 0,
            ..RateConfig::default()
        })
    }

    /// Telegram answered 429 with `retry_after` (already bounded) for a message to `chat_id`: the
    /// chat waits that long. When 429s have come from several chats within a short window, all
    /// sending pauses too, for `retry_after` but at most the flood cap. Says which it was.
    pub fn too_many_requests(&self, chat_id: i64, retry_after: Duration) -> PauseScope {
        let now = Instant::now();
        let mut pauses = self.chat_pauses.lock().expect("pause lock poisoned");
        let until = now + retry_after;
        pauses
            .entry(chat_id)
            .and_modify(|at| *at = (*at).max(until))
            .or_insert(until);
        drop(pauses);
        let mut flood = self.flood.lock().expect("flood lock poisoned");
        flood
            .recent
            .retain(|(at, _)| now.saturating_duration_since(*at) < FLOOD_WINDOW);
        flood.recent.push_back((now, chat_id));
        let mut chats: Vec<i64> = flood.recent.iter().map(|(_, chat)| *chat).collect();
        chats.sort_unstable();
        chats.dedup();
        if chats.len() < FLOOD_CHATS {
            return PauseScope::Chat;
        }
        let until = now + retry_after.min(self.flood_pause_cap);
        flood.paused_until = Some(flood.paused_until.map_or(until, |p| p.max(until)));
        PauseScope::Flood
    }

    /// How long all sending is still paused after a flood, if it is.
    pub fn flood_paused_for(&self) -> Option<Duration> {
        let flood = self.flood.lock().expect("flood lock poisoned");
        flood
            .paused_until
            .map(|until| until.saturating_duration_since(Instant::now()))
            .filter(|d| !d.is_zero())
    }

    /// How long `chat_id` is still paused after a 429, if it is.
    pub fn chat_paused_for(&self, chat_id: i64) -> Option<Duration> {
        let pauses = self.chat_pauses.lock().expect("pause lock poisoned");
        pauses
            .get(&chat_id)
            .map(|until| until.saturating_duration_since(Instant::now()))
            .filter(|d| !d.is_zero())
    }

    /// Whether job `job` may send to `chat_id` now (`is_group`: a group or supergroup), or why
    /// not and when to come back (the job keeps its reserved slot). `Ok` may wait briefly for the
    /// overall bucket.
    pub async fn admit(&self, job: JobId, chat_id: i64, is_group: bool) -> Result<(), Deferral> {
        self.check_pauses(chat_id)?;
        self.maybe_clean_up();
        let spacing = if is_group {
            self.chat_period.max(self.group_period)
        } else {
            self.chat_period
        };
        if !spacing.is_zero() {
            self.reserve(job, chat_id, spacing)
                .map_err(Deferral::Spacing)?;
            self.gate(job, chat_id, is_group)
                .map_err(Deferral::Spacing)?;
        }
        if let Some(global) = &self.global {
            global.until_ready().await;
        }
        // A 429 may have paused sending while this job waited for the overall bucket.
        self.check_pauses(chat_id)
    }

    /// The pauses 429s put on the chat and on all sending.
    fn check_pauses(&self, chat_id: i64) -> Result<(), Deferral> {
        if let Some(wait) = self.chat_paused_for(chat_id) {
            return Err(Deferral::ChatPaused(wait));
        }
        match self.flood_paused_for() {
            Some(wait) => Err(Deferral::FloodPaused(wait.min(FLOOD_RECHECK))),
            None => Ok(()),
        }
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
        self.chat_pauses
            .lock()
            .expect("pause lock poisoned")
            .retain(|_, until| *until > now);
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
        let second = limits.admit(2, 7, false).await.unwrap_err().wait();
        let third = limits.admit(3, 7, false).await.unwrap_err().wait();
        assert!(second > Duration::from_millis(900) && second <= Duration::from_secs(1));
        assert!(third > second + Duration::from_millis(900), "{third:?}");
        // The same job asking again keeps its slot.
        let again = limits.admit(3, 7, false).await.unwrap_err().wait();
        assert!(again <= third && again + Duration::from_millis(50) > third);
        // Other chats are not delayed.
        assert_eq!(limits.admit(4, 8, false).await, Ok(()));
    }

    #[tokio::test]
    async fn a_429_pauses_only_its_chat() {
        let limits = RateLimits::new(RateConfig::default());
        let scope = limits.too_many_requests(9, Duration::from_secs(3600));
        assert_eq!(scope, PauseScope::Chat);
        let wait = limits.admit(1, 9, false).await.unwrap_err();
        assert!(
            matches!(wait, Deferral::ChatPaused(d) if d > Duration::from_secs(3500)),
            "{wait:?}"
        );
        assert_eq!(limits.admit(2, 10, false).await, Ok(()));
    }

    #[tokio::test]
    async fn refusals_from_several_chats_pause_everyone_for_at_most_the_cap() {
        let limits = RateLimits::new(RateConfig {
            flood_pause_cap: Duration::from_secs(30),
            ..RateConfig::default()
        });
        assert_eq!(
            limits.too_many_requests(1, Duration::from_secs(3600)),
            PauseScope::Chat
        );
        assert_eq!(
            limits.too_many_requests(2, Duration::from_secs(3600)),
            PauseScope::Chat
        );
        assert_eq!(
            limits.too_many_requests(3, Duration::from_secs(3600)),
            PauseScope::Flood
        );
        let paused = limits.flood_paused_for().unwrap();
        assert!(paused <= Duration::from_secs(30) && paused > Duration::from_secs(29));
        // Another chat comes back after a short recheck, not after the whole pause.
        assert_eq!(
            limits.admit(7, 4, false).await,
            Err(Deferral::FloodPaused(FLOOD_RECHECK))
        );
    }

    #[tokio::test]
    async fn repeated_refusals_of_one_chat_are_not_a_flood() {
        let limits = RateLimits::new(RateConfig::default());
        for _ in 0..10 {
            assert_eq!(
                limits.too_many_requests(5, Duration::from_secs(1)),
                PauseScope::Chat
            );
        }
        assert_eq!(limits.flood_paused_for(), None);
    }

    #[tokio::test]
    async fn groups_are_spaced_by_the_group_rate() {
        let limits = RateLimits::new(RateConfig::default());
        assert_eq!(limits.admit(1, -5, true).await, Ok(()));
        let wait = limits.admit(2, -5, true).await.unwrap_err().wait();
        assert!(wait > Duration::from_millis(2900), "{wait:?}");
    }
}
