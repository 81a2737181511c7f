//! Abuse limits: how many updates a user may send per minute (a governor keyed rate limiter, in
//! this process) and how many open tasks a user may have (counted in the database by the caller).

use std::num::NonZeroU32;
use std::sync::Arc;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Whether a user's update may be handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateVerdict {
    /// Within the rate: handle it.
    Allow,
    /// Over the rate: say so (once a minute at most).
    Warn,
    /// Over the rate and already warned: drop it silently.
    Drop,
}

/// Per-user rate limits, shared by all handlers.
#[derive(Clone)]
pub struct UserLimits {
    updates: Arc<DefaultKeyedRateLimiter<i64>>,
    warnings: Arc<DefaultKeyedRateLimiter<i64>>,
}

impl UserLimits {
    /// Allows `per_minute` updates per user per minute, in bursts of up to that many.
    pub fn new(per_minute: NonZeroU32) -> Self {
        Self {
            updates: Arc::new(RateLimiter::keyed(Quota::per_minute(per_minute))),
            warnings: Arc::new(RateLimiter::keyed(Quota::per_minute(NonZeroU32::MIN))),
        }
    }

    /// Counts one update of `user_id` and says what to do with it.
    pub fn check(&self, user_id: i64) -> RateVerdict {
        if self.updates.check_key(&user_id).is_ok() {
            RateVerdict::Allow
        } else if self.warnings.check_key(&user_id).is_ok() {
            RateVerdict::Warn
        } else {
            RateVerdict::Drop
        }
    }

    /// Forgets users whose limits have fully recovered, so the maps do not grow forever.
    pub fn forget_idle(&self) {
        for limiter in [&self.updates, &self.warnings] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_over_the_rate_is_warned_once_then_dropped() {
        let limits = UserLimits::new(NonZeroU32::new(3).unwrap());
        let verdicts: Vec<RateVerdict> = (0..6).map(|_| limits.check(7)).collect();
        assert_eq!(
            verdicts,
            [
                RateVerdict::Allow,
                RateVerdict::Allow,
                RateVerdict::Allow,
                RateVerdict::Warn,
                RateVerdict::Drop,
                RateVerdict::Drop
            ]
        );
        assert_eq!(
            limits.check(8),
            RateVerdict::Allow,
            "other users are not affected"
        );
    }
}
