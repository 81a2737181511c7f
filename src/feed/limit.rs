//! The per-URL rate limit of the feeds: each live feed URL may be read so many times a minute, in
//! bursts of up to that many (a governor keyed limiter, per process); past it the side-car
//! answers 429 with `Retry-After`. Calendar apps read a feed every few minutes to hours, so the
//! limit only stops a client gone wrong (or a leaked URL being hammered). Only URLs that exist
//! are counted: an unknown secret is answered 404 before, so nobody can fill the limiter.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::domain::feed_secret::SecretHash;

/// URLs the limiter tracks before it forgets those whose allowance has refilled.
const TRACKED: usize = 10_000;

/// Reads of each feed URL per minute.
#[derive(Clone, Debug)]
pub struct FeedLimits {
    limiter: Arc<DefaultKeyedRateLimiter<SecretHash>>,
}

impl FeedLimits {
    /// Allows `per_minute` reads of each URL a minute, in bursts of up to that many.
    pub fn new(per_minute: NonZeroU32) -> Self {
        Self {
            limiter: Arc::new(RateLimiter::keyed(Quota::per_minute(per_minute))),
        }
    }

    /// Counts one read of the URL whose secret hashes to `hash`: `Ok` within the limit, else how
    /// long until the next read is allowed.
    pub fn check(&self, hash: &SecretHash) -> Result<(), Duration> {
        if self.limiter.len() > TRACKED {
            self.limiter.retain_recent();
        }
        self.limiter
            .check_key(hash)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_url_has_its_own_allowance() {
        let limits = FeedLimits::new(NonZeroU32::new(2).unwrap());
        let (one, other) = (SecretHash([1; 32]), SecretHash([2; 32]));
        assert_eq!(limits.check(&one), Ok(()));
        assert_eq!(limits.check(&one), Ok(()));
        let wait = limits.check(&one).unwrap_err();
        assert!(
            wait > Duration::from_secs(20) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        assert_eq!(limits.check(&other), Ok(()));
    }
}
