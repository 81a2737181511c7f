//! Abuse limits: how many updates a user may send per minute, counted in the database so that
//! every replica shares one count ([`crate::store::user_rates`], a GCRA: bursts of up to the
//! minute's allowance, refilled evenly), and how many open tasks a user may have (counted in the
//! database by the caller). In front of the shared count, each process keeps a flood shield (a
//! governor keyed limiter at [`FLOOD_FACTOR`] times the rate): a user flooding one replica is
//! dropped there without a database round trip each, after the shared count has already warned.

use std::num::NonZeroU32;
use std::sync::Arc;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use chrono::{DateTime, TimeDelta, Utc};
use sqlx::PgConnection;

use crate::domain::ids::UserId;
use crate::store::StoreError;
use crate::store::turns::Rate;
use crate::store::user_rates::{self, RateState};

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

/// How many times the shared rate one process lets a user reach before its flood shield drops
/// their updates unasked: twice, so that the shared count, which warns at once past the rate,
/// always speaks first.
pub const FLOOD_FACTOR: NonZeroU32 = NonZeroU32::new(2).unwrap();

/// Users the flood shield tracks before it forgets those whose allowance has refilled.
const SHIELD_TRACKED: usize = 10_000;

/// Per-user rate limits, shared by all handlers (and, through the database, all replicas).
#[derive(Clone, Debug)]
pub struct UserLimits {
    per_minute: NonZeroU32,
    flood: Arc<DefaultKeyedRateLimiter<UserId>>,
}

/// What one more update does to a user's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Judged {
    verdict: RateVerdict,
    tat: DateTime<Utc>,
    warned_at: Option<DateTime<Utc>>,
}

impl UserLimits {
    /// Allows `per_minute` updates per user per minute, in bursts of up to that many.
    pub fn new(per_minute: NonZeroU32) -> Self {
        let flood = per_minute.saturating_mul(FLOOD_FACTOR);
        Self {
            per_minute,
            flood: Arc::new(RateLimiter::keyed(Quota::per_minute(flood))),
        }
    }

    /// Counts one update of `user_id` in the update's transaction `conn` (holding the user's
    /// row until it ends) and says what to do with it.
    pub async fn check(
        &self,
        conn: &mut PgConnection,
        user_id: UserId,
    ) -> Result<RateVerdict, StoreError> {
        if self.flooding(user_id) {
            return Ok(RateVerdict::Drop);
        }
        // Within the rate (the common case) costs one statement; past it, the state is read
        // and judged.
        let rate = self.rate();
        if user_rates::take_within(conn, user_id, rate.interval, rate.window).await? {
            return Ok(RateVerdict::Allow);
        }
        self.check_past(conn, user_id).await
    }

    /// The verdict on an update of `user_id` that did not fit within [`Self::rate`] when counted
    /// (in the update's transaction `conn`, which holds the user's row): their state is read and
    /// judged, and their warning recorded.
    pub async fn check_past(
        &self,
        conn: &mut PgConnection,
        user_id: UserId,
    ) -> Result<RateVerdict, StoreError> {
        let state = user_rates::hold(conn, user_id).await?;
        let judged = self.judge(state);
        if (judged.tat, judged.warned_at) != (state.tat, state.warned_at) {
            user_rates::set(conn, user_id, judged.tat, judged.warned_at).await?;
        }
        Ok(judged.verdict)
    }

    /// The rate an update is counted against within one statement: a user's allowance may run
    /// up to a minute ahead.
    pub fn rate(&self) -> Rate {
        Rate {
            interval: self.interval(),
            window: TimeDelta::minutes(1),
        }
    }

    /// Counts one update of `user_id` in this process's flood shield: whether it is past it.
    pub fn flooding(&self, user_id: UserId) -> bool {
        if self.flood.len() > SHIELD_TRACKED {
            self.flood.retain_recent();
        }
        self.flood.check_key(&user_id).is_err()
    }

    /// The time one update takes of a user's allowance.
    fn interval(&self) -> TimeDelta {
        TimeDelta::minutes(1) / self.per_minute.get() as i32
    }

    /// The verdict on one more update of a user in `state`, and their state after it.
    fn judge(&self, state: RateState) -> Judged {
        let minute = TimeDelta::minutes(1);
        let interval = self.interval();
        let next = state.tat.max(state.now) + interval;
        if next - state.now <= minute {
            return Judged {
                verdict: RateVerdict::Allow,
                tat: next,
                warned_at: state.warned_at,
            };
        }
        let may_warn = state.warned_at.is_none_or(|at| state.now - at >= minute);
        Judged {
            verdict: if may_warn {
                RateVerdict::Warn
            } else {
                RateVerdict::Drop
            },
            tat: state.tat,
            warned_at: if may_warn {
                Some(state.now)
            } else {
                state.warned_at
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flood_shield_lets_twice_the_rate_through_then_drops_that_user_alone() {
        let limits = UserLimits::new(NonZeroU32::new(30).unwrap());
        for _ in 0..60 {
            assert!(!limits.flooding(UserId(1)));
        }
        assert!(limits.flooding(UserId(1)));
        assert!(!limits.flooding(UserId(2)));
    }

    #[test]
    fn a_burst_over_the_rate_is_warned_once_then_dropped_and_the_rate_refills() {
        let limits = UserLimits::new(NonZeroU32::new(3).unwrap());
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let mut state = RateState {
            tat: start,
            warned_at: None,
            now: start,
        };
        let mut verdicts = Vec::new();
        for _ in 0..6 {
            let judged = limits.judge(state);
            verdicts.push(judged.verdict);
            state.tat = judged.tat;
            state.warned_at = judged.warned_at;
        }
        use RateVerdict::{Allow, Drop, Warn};
        assert_eq!(verdicts, [Allow, Allow, Allow, Warn, Drop, Drop]);
        // A third of a minute later one more fits; a minute after the warning it is warned again.
        state.now = start + TimeDelta::seconds(20);
        let judged = limits.judge(state);
        assert_eq!(judged.verdict, Allow);
        state.tat = judged.tat;
        assert_eq!(limits.judge(state).verdict, Drop);
        state.now = start + TimeDelta::seconds(60);
        state.tat = start + TimeDelta::seconds(120);
        assert_eq!(limits.judge(state).verdict, Warn);
    }
}
