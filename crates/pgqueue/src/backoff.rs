//! Retry delays: `min(cap, base · 2^attempt)` with jitter, never below a caller's floor.

use std::time::Duration;

/// Exponential backoff with jitter.
///
/// The delay after attempt `n` (1 for the first run) is `d = min(cap, base · 2^n)`, drawn uniformly
/// from `[d · (1 − jitter), d]` so that jobs failing together do not retry together, and then raised
/// to the caller's floor (Telegram's `retry_after`) when one is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backoff {
    /// The delay unit.
    pub base: Duration,
    /// The longest delay backoff alone produces.
    pub cap: Duration,
    /// The share of the delay that is random, 0.0 to 1.0.
    pub jitter: f64,
}

impl Default for Backoff {
    /// 1 s base (2 s after the first attempt), a 1 h cap, 20 % jitter.
    fn default() -> Self {
        Self {
            base: Duration::from_secs(1),
            cap: Duration::from_secs(3600),
            jitter: 0.2,
        }
    }
}

impl Backoff {
    /// The un-jittered delay after attempt `attempt`: `min(cap, base · 2^attempt)`.
    pub fn ceiling(&self, attempt: i32) -> Duration {
        let exponent = attempt.clamp(0, 62) as u32;
        let factor = 2u64.checked_pow(exponent).unwrap_or(u64::MAX);
        let nanos = self.base.as_nanos().saturating_mul(u128::from(factor));
        let cap = self.cap.as_nanos();
        Duration::from_nanos(nanos.min(cap).min(u128::from(u64::MAX)) as u64)
    }

    /// The delay after attempt `attempt`, jittered with `unit` (a number in `[0, 1)`), and at
    /// least `floor`.
    pub fn delay_with(&self, attempt: i32, floor: Option<Duration>, unit: f64) -> Duration {
        let ceiling = self.ceiling(attempt);
        let jitter = self.jitter.clamp(0.0, 1.0) * unit.clamp(0.0, 1.0);
        let jittered = ceiling.mul_f64(1.0 - jitter);
        jittered.max(floor.unwrap_or_default())
    }

    /// The delay after attempt `attempt`, randomly jittered, and at least `floor`.
    pub fn delay(&self, attempt: i32, floor: Option<Duration>) -> Duration {
        self.delay_with(attempt, floor, rand::random_range(0.0..1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_per_attempt_up_to_the_cap() {
        let b = Backoff {
            base: Duration::from_millis(100),
            cap: Duration::from_secs(1),
            jitter: 0.0,
        };
        assert_eq!(b.ceiling(0), Duration::from_millis(100));
        assert_eq!(b.ceiling(1), Duration::from_millis(200));
        assert_eq!(b.ceiling(3), Duration::from_millis(800));
        assert_eq!(b.ceiling(4), Duration::from_secs(1));
        assert_eq!(b.ceiling(1000), Duration::from_secs(1));
    }

    #[test]
    fn jitter_stays_within_its_share() {
        let b = Backoff {
            jitter: 0.25,
            ..Backoff::default()
        };
        assert_eq!(b.delay_with(2, None, 0.0), Duration::from_secs(4));
        assert_eq!(b.delay_with(2, None, 1.0), Duration::from_secs(3));
        for _ in 0..1000 {
            let d = b.delay(2, None);
            assert!(
                d >= Duration::from_secs(3) && d <= Duration::from_secs(4),
                "{d:?}"
            );
        }
    }

    #[test]
    fn the_floor_wins_when_larger() {
        let b = Backoff::default();
        let floor = Some(Duration::from_secs(3600));
        assert_eq!(b.delay_with(1, floor, 0.5), Duration::from_secs(3600));
        assert_eq!(
            b.delay_with(1, Some(Duration::from_millis(1)), 0.0),
            Duration::from_secs(2)
        );
    }
}
