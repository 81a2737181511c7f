//! Throttling of wrong admin tokens, in memory: each client address has a few free failures, then
//! a lockout that doubles with every further failure up to a cap; and a budget of failures per
//! minute over all addresses, past which everyone is locked out for a while that doubles with each
//! overrun. While locked out the token is not checked at all, and the check and its bookkeeping
//! happen under one lock, so concurrent guesses cannot slip past a lockout.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Addresses tracked at most; past that the one whose last failure is oldest is forgotten.
const MAX_TRACKED: usize = 10_000;
/// The window of the global budget.
const GLOBAL_WINDOW: Duration = Duration::from_secs(60);

/// The numbers of the lockouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockoutPolicy {
    /// Failures an address may have without a lockout.
    pub free_failures: u32,
    /// The lockout after the first failure past the free ones; each further failure doubles it.
    pub address_base: Duration,
    /// The longest lockout of one address.
    pub address_cap: Duration,
    /// Failures per minute over all addresses; one more locks everyone out.
    pub global_failures_per_minute: u32,
    /// The first lockout of everyone; each further overrun doubles it.
    pub global_base: Duration,
    /// The longest lockout of everyone.
    pub global_cap: Duration,
    /// An address without a failure for this long, and the global budget this long after its
    /// last lockout ended, start afresh.
    pub forget_after: Duration,
}

impl Default for LockoutPolicy {
    /// 5 free failures per address, then 1 s, 2 s, 4 s … up to 15 min; 100 failures per minute
    /// over all addresses, then everyone 1 min, 2 min … up to 15 min; forgotten after 1 h.
    fn default() -> Self {
        Self {
            free_failures: 5,
            address_base: Duration::from_secs(1),
            address_cap: Duration::from_secs(15 * 60),
            global_failures_per_minute: 100,
            global_base: Duration::from_secs(60),
            global_cap: Duration::from_secs(15 * 60),
            forget_after: Duration::from_secs(3600),
        }
    }
}

/// What a token check came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The token was right; the address's failures are forgotten.
    Passed,
    /// The token was wrong.
    Failed(Failure),
    /// The token was not checked: the address, or everyone, is locked out this long yet.
    LockedOut(Duration),
}

/// What one wrong token cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The address's failures since it was last forgotten or signed in, this one included.
    pub failures: u32,
    /// The lockout of the address this failure started, if any.
    pub address_lockout: Option<Duration>,
    /// The lockout of everyone this failure started, if any.
    pub global_lockout: Option<Duration>,
}

/// The failures of every address and of all of them together.
#[derive(Debug)]
pub struct Throttle {
    policy: LockoutPolicy,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    addresses: HashMap<IpAddr, Strikes>,
    global: Global,
}

#[derive(Debug)]
struct Strikes {
    failures: u32,
    last_failure: Instant,
    locked_until: Option<Instant>,
}

#[derive(Debug, Default)]
struct Global {
    recent: VecDeque<Instant>,
    lockouts: u32,
    locked_until: Option<Instant>,
}

impl Throttle {
    /// An empty throttle applying `policy`.
    pub fn new(policy: LockoutPolicy) -> Self {
        Self {
            policy,
            state: Mutex::default(),
        }
    }

    /// Runs the token check `check` for `client` at `now`, unless it is locked out, and records
    /// the outcome.
    pub fn attempt(&self, client: IpAddr, now: Instant, check: impl FnOnce() -> bool) -> Attempt {
        let key = client_key(client);
        let mut state = self.state.lock().expect("throttle poisoned");
        if let Some(wait) = state.wait(key, now) {
            return Attempt::LockedOut(wait);
        }
        if check() {
            state.addresses.remove(&key);
            return Attempt::Passed;
        }
        Attempt::Failed(state.fail(key, now, &self.policy))
    }
}

impl State {
    /// How long `key` must wait yet, if it is locked out (alone or with everyone).
    fn wait(&self, key: IpAddr, now: Instant) -> Option<Duration> {
        let address = self.addresses.get(&key).and_then(|s| s.locked_until);
        [self.global.locked_until, address]
            .into_iter()
            .flatten()
            .filter(|until| *until > now)
            .max()
            .map(|until| until - now)
    }

    fn fail(&mut self, key: IpAddr, now: Instant, policy: &LockoutPolicy) -> Failure {
        self.make_room(key, now, policy);
        let strikes = self.addresses.entry(key).or_insert(Strikes {
            failures: 0,
            last_failure: now,
            locked_until: None,
        });
        if now.duration_since(strikes.last_failure) >= policy.forget_after {
            strikes.failures = 0;
        }
        strikes.failures = strikes.failures.saturating_add(1);
        strikes.last_failure = now;
        let address_lockout = strikes
            .failures
            .checked_sub(policy.free_failures.saturating_add(1))
            .map(|step| doubling(policy.address_base, policy.address_cap, step));
        if let Some(lockout) = address_lockout {
            strikes.locked_until = Some(now + lockout);
        }
        Failure {
            failures: strikes.failures,
            address_lockout,
            global_lockout: self.global.fail(now, policy),
        }
    }

    /// When the table is full and `key` is new: drops the addresses without a failure for
    /// `forget_after` and, if none was, the one quiet longest.
    fn make_room(&mut self, key: IpAddr, now: Instant, policy: &LockoutPolicy) {
        if self.addresses.len() < MAX_TRACKED || self.addresses.contains_key(&key) {
            return;
        }
        self.addresses
            .retain(|_, s| now.duration_since(s.last_failure) < policy.forget_after);
        if self.addresses.len() < MAX_TRACKED {
            return;
        }
        let quietest = self
            .addresses
            .iter()
            .min_by_key(|(_, s)| s.last_failure)
            .map(|(address, _)| *address);
        if let Some(address) = quietest {
            self.addresses.remove(&address);
        }
    }
}

impl Global {
    /// Counts a failure; returns the lockout of everyone it starts, if the budget is overrun.
    fn fail(&mut self, now: Instant, policy: &LockoutPolicy) -> Option<Duration> {
        while self
            .recent
            .front()
            .is_some_and(|at| now.duration_since(*at) >= GLOBAL_WINDOW)
        {
            self.recent.pop_front();
        }
        self.recent.push_back(now);
        if self.recent.len() <= policy.global_failures_per_minute as usize {
            return None;
        }
        self.recent.clear();
        if self
            .locked_until
            .is_some_and(|until| now.saturating_duration_since(until) >= policy.forget_after)
        {
            self.lockouts = 0;
        }
        let lockout = doubling(policy.global_base, policy.global_cap, self.lockouts);
        self.lockouts = self.lockouts.saturating_add(1);
        self.locked_until = Some(now + lockout);
        Some(lockout)
    }
}

/// `base · 2^step`, at most `cap`.
fn doubling(base: Duration, cap: Duration, step: u32) -> Duration {
    base.saturating_mul(2_u32.saturating_pow(step)).min(cap)
}

/// The key an address is counted under: IPv4 as it is, IPv6 by its /64 (one host usually has a
/// whole /64, so counting single IPv6 addresses would be no limit).
fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn address(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + n))
    }

    fn fail(throttle: &Throttle, client: IpAddr, now: Instant) -> Attempt {
        throttle.attempt(client, now, || false)
    }

    fn lockout_of(attempt: Attempt) -> Option<Duration> {
        match attempt {
            Attempt::Failed(failure) => failure.address_lockout,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn free_failures_then_a_doubling_lockout_up_to_the_cap() {
        let throttle = Throttle::new(LockoutPolicy::default());
        let start = Instant::now();
        let mut now = start;
        let mut lockouts = Vec::new();
        for _ in 0..16 {
            lockouts.push(lockout_of(fail(&throttle, address(1), now)));
            now += throttle
                .state
                .lock()
                .unwrap()
                .wait(address(1), now)
                .unwrap_or_default();
        }
        let secs: Vec<_> = lockouts.iter().map(|l| l.map(|d| d.as_secs())).collect();
        assert_eq!(
            secs,
            [
                None,
                None,
                None,
                None,
                None,
                Some(1),
                Some(2),
                Some(4),
                Some(8),
                Some(16),
                Some(32),
                Some(64),
                Some(128),
                Some(256),
                Some(512),
                Some(900)
            ]
        );
    }

    #[test]
    fn a_locked_out_address_is_not_checked_and_others_are() {
        let policy = LockoutPolicy {
            free_failures: 1,
            ..LockoutPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let now = Instant::now();
        fail(&throttle, address(1), now);
        assert_eq!(lockout_of(fail(&throttle, address(1), now)), Some(SECOND));
        let mut checked = false;
        let attempt = throttle.attempt(address(1), now + SECOND / 2, || {
            checked = true;
            true
        });
        assert_eq!(attempt, Attempt::LockedOut(SECOND / 2));
        assert!(!checked, "the token is not checked while locked out");
        assert_eq!(throttle.attempt(address(2), now, || true), Attempt::Passed);
        assert_eq!(
            throttle.attempt(address(1), now + SECOND, || true),
            Attempt::Passed
        );
    }

    #[test]
    fn a_right_token_forgets_the_failures_and_so_does_time() {
        let policy = LockoutPolicy {
            free_failures: 2,
            ..LockoutPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let now = Instant::now();
        fail(&throttle, address(1), now);
        fail(&throttle, address(1), now);
        assert_eq!(throttle.attempt(address(1), now, || true), Attempt::Passed);
        assert_eq!(lockout_of(fail(&throttle, address(1), now)), None);
        fail(&throttle, address(1), now);
        let later = now + policy.forget_after;
        assert_eq!(lockout_of(fail(&throttle, address(1), later)), None);
    }

    #[test]
    fn past_the_global_budget_everyone_is_locked_out_for_longer_each_time() {
        let policy = LockoutPolicy {
            global_failures_per_minute: 10,
            ..LockoutPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let mut now = Instant::now();
        let mut overruns = Vec::new();
        for round in 0..3 {
            for n in 0..11 {
                if let Attempt::Failed(failure) = fail(&throttle, address(round * 100 + n), now) {
                    overruns.extend(failure.global_lockout);
                }
            }
            let stranger = throttle.attempt(address(9999), now, || true);
            assert!(matches!(stranger, Attempt::LockedOut(_)), "{stranger:?}");
            now += overruns.last().copied().unwrap();
        }
        assert_eq!(overruns, [60 * SECOND, 120 * SECOND, 240 * SECOND]);
        assert_eq!(
            throttle.attempt(address(9999), now, || true),
            Attempt::Passed
        );
        for n in 0..11 {
            fail(&throttle, address(500 + n), now + policy.forget_after);
        }
        let wait = throttle.state.lock().unwrap().global.locked_until.unwrap()
            - (now + policy.forget_after);
        assert_eq!(wait, 60 * SECOND, "an hour later it starts afresh");
    }

    #[test]
    fn failures_spread_over_more_than_a_minute_stay_within_the_budget() {
        let policy = LockoutPolicy {
            global_failures_per_minute: 10,
            ..LockoutPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let start = Instant::now();
        for n in 0..30 {
            let attempt = fail(&throttle, address(n), start + n * 7 * SECOND);
            assert!(
                matches!(attempt, Attempt::Failed(f) if f.global_lockout.is_none()),
                "{attempt:?}"
            );
        }
    }

    #[test]
    fn the_table_of_addresses_is_bounded() {
        let policy = LockoutPolicy {
            global_failures_per_minute: u32::MAX,
            ..LockoutPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let now = Instant::now();
        for n in 0..(MAX_TRACKED as u32 + 50) {
            fail(
                &throttle,
                address(n),
                now + Duration::from_millis(u64::from(n)),
            );
        }
        {
            let state = throttle.state.lock().unwrap();
            assert_eq!(state.addresses.len(), MAX_TRACKED);
            assert!(
                !state.addresses.contains_key(&address(0)),
                "the oldest went"
            );
        }
        let an_hour_on = now + policy.forget_after + Duration::from_secs(60);
        fail(&throttle, address(u32::MAX / 2), an_hour_on);
        assert_eq!(throttle.state.lock().unwrap().addresses.len(), 1);
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_bit_prefix() {
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_host: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(client_key(one), client_key(same_host));
        assert_ne!(client_key(one), client_key(other));
        assert_eq!(client_key(mapped), address(1));
    }
}
