//! Slowing down wrong admin tokens, in memory, without ever keeping the right token out.
//!
//! The token is checked first, in constant time, before anything else is decided: the right one
//! always passes, however many wrong ones came before it, from the same address or any other. A
//! wrong one is counted per client address (IPv6 by /64) and over all addresses, and its answer
//! is held back ([`Failure::delay`]): after an address's few free failures, for a while that
//! doubles with each further one up to a cap; and while all addresses together fail more often
//! than a budget, for a while that grows with the rate, up to a cap. A guesser thus waits for
//! each answer, and no flood can lock anyone out (a 32-character token is what makes guessing
//! hopeless; the delays keep the guessing slow and the log small).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Addresses tracked at most; past that the one whose last failure is oldest is forgotten.
const MAX_TRACKED: usize = 10_000;
/// The seconds of the global window (a minute).
const WINDOW_SECS: usize = 60;

/// The numbers of the slowdowns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlowdownPolicy {
    /// Wrong tokens an address may send answered at once.
    pub free_failures: u32,
    /// The delay of the first failure past the free ones; each further failure doubles it.
    pub address_base: Duration,
    /// The longest delay of one address's answers.
    pub address_cap: Duration,
    /// Wrong tokens per minute over all addresses answered without a global delay.
    pub global_failures_per_minute: u32,
    /// The global delay per whole multiple of the budget the last minute's failures reach.
    pub global_step: Duration,
    /// The longest global delay.
    pub global_cap: Duration,
    /// An address without a failure for this long starts afresh.
    pub forget_after: Duration,
}

impl Default for SlowdownPolicy {
    /// 5 free failures per address, then 1 s, 2 s, 4 s … up to 10 s; 100 failures per minute
    /// over all addresses, past which every wrong token waits 1 s per multiple of that, up to
    /// 5 s; an address forgotten after 1 h.
    fn default() -> Self {
        Self {
            free_failures: 5,
            address_base: Duration::from_secs(1),
            address_cap: Duration::from_secs(10),
            global_failures_per_minute: 100,
            global_step: Duration::from_secs(1),
            global_cap: Duration::from_secs(5),
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
}

/// What one wrong token cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The address's failures since it was last forgotten or signed in, this one included.
    pub failures: u32,
    /// Wrong tokens over all addresses in the last minute, this one included.
    pub global_failures: u32,
    /// How long the answer is held back (zero: answered at once).
    pub delay: Duration,
}

/// The failures of every address and of all of them together.
#[derive(Debug)]
pub struct Throttle {
    policy: SlowdownPolicy,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    addresses: HashMap<IpAddr, Strikes>,
    global: Window,
}

#[derive(Debug)]
struct Strikes {
    failures: u32,
    last_failure: Instant,
}

/// Failures counted per second over the last minute (bounded memory, whatever the flood).
#[derive(Debug)]
struct Window {
    origin: Option<Instant>,
    seconds: [u64; WINDOW_SECS],
    counts: [u32; WINDOW_SECS],
}

impl Throttle {
    /// An empty throttle applying `policy`.
    pub fn new(policy: SlowdownPolicy) -> Self {
        Self {
            policy,
            state: Mutex::default(),
        }
    }

    /// Runs the token check `check` (constant time) for `client` at `now`, first and always,
    /// and records the outcome: a right token passes whatever came before.
    pub fn attempt(&self, client: IpAddr, now: Instant, check: impl FnOnce() -> bool) -> Attempt {
        let passed = check();
        let key = client_key(client);
        let mut state = self.state.lock().expect("throttle poisoned");
        if passed {
            state.addresses.remove(&key);
            return Attempt::Passed;
        }
        Attempt::Failed(state.fail(key, now, &self.policy))
    }
}

impl State {
    fn fail(&mut self, key: IpAddr, now: Instant, policy: &SlowdownPolicy) -> Failure {
        self.make_room(key, now, policy);
        let strikes = self.addresses.entry(key).or_insert(Strikes {
            failures: 0,
            last_failure: now,
        });
        if now.duration_since(strikes.last_failure) >= policy.forget_after {
            strikes.failures = 0;
        }
        strikes.failures = strikes.failures.saturating_add(1);
        strikes.last_failure = now;
        let address_delay = strikes
            .failures
            .checked_sub(policy.free_failures.saturating_add(1))
            .map_or(Duration::ZERO, |step| {
                doubling(policy.address_base, policy.address_cap, step)
            });
        let global_failures = self.global.add(now);
        let overruns = global_failures.saturating_sub(1) / policy.global_failures_per_minute.max(1);
        let global_delay = policy
            .global_step
            .saturating_mul(overruns)
            .min(policy.global_cap);
        Failure {
            failures: strikes.failures,
            global_failures,
            delay: address_delay.max(global_delay),
        }
    }

    /// When the table is full and `key` is new: drops the addresses without a failure for
    /// `forget_after` and, if none was, the one quiet longest.
    fn make_room(&mut self, key: IpAddr, now: Instant, policy: &SlowdownPolicy) {
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

impl Default for Window {
    fn default() -> Self {
        Self {
            origin: None,
            seconds: [0; WINDOW_SECS],
            counts: [0; WINDOW_SECS],
        }
    }
}

impl Window {
    /// Counts a failure at `now`; returns the failures of the last minute, this one included.
    fn add(&mut self, now: Instant) -> u32 {
        let origin = *self.origin.get_or_insert(now);
        let second = now.saturating_duration_since(origin).as_secs();
        let slot = usize::try_from(second % WINDOW_SECS as u64).unwrap_or_default();
        if self.seconds[slot] != second {
            self.seconds[slot] = second;
            self.counts[slot] = 0;
        }
        self.counts[slot] = self.counts[slot].saturating_add(1);
        self.seconds
            .iter()
            .zip(self.counts)
            // Concurrent callers may pass a second just before the newest counted.
            .filter(|(at, _)| second.abs_diff(**at) < WINDOW_SECS as u64)
            .fold(0_u32, |sum, (_, count)| sum.saturating_add(count))
    }
}

/// `base · 2^step`, at most `cap`.
fn doubling(base: Duration, cap: Duration, step: u32) -> Duration {
    base.saturating_mul(2_u32.saturating_pow(step)).min(cap)
}

/// The key an address is counted under: IPv4 as it is, IPv6 by its /64 (one host usually has a
/// whole /64, so counting single IPv6 addresses would be no limit).
pub(super) fn client_key(ip: IpAddr) -> IpAddr {
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

    fn fail(throttle: &Throttle, client: IpAddr, now: Instant) -> Failure {
        match throttle.attempt(client, now, || false) {
            Attempt::Failed(failure) => failure,
            Attempt::Passed => panic!("a wrong token passed"),
        }
    }

    #[test]
    fn free_failures_then_a_doubling_delay_up_to_the_cap() {
        let throttle = Throttle::new(SlowdownPolicy::default());
        let mut now = Instant::now();
        let mut delays = Vec::new();
        for _ in 0..12 {
            let delay = fail(&throttle, address(1), now).delay;
            delays.push(delay.as_secs());
            now += delay + SECOND;
        }
        assert_eq!(delays, [0, 0, 0, 0, 0, 1, 2, 4, 8, 10, 10, 10]);
    }

    #[test]
    fn the_right_token_passes_after_any_number_of_failures_and_resets_its_address() {
        let throttle = Throttle::new(SlowdownPolicy::default());
        let now = Instant::now();
        for n in 0..500 {
            fail(&throttle, address(n % 25), now);
            fail(&throttle, address(7), now);
        }
        for client in [address(7), address(3), address(9999)] {
            let mut checked = false;
            let attempt = throttle.attempt(client, now, || {
                checked = true;
                true
            });
            assert_eq!(attempt, Attempt::Passed, "{client}");
            assert!(checked);
        }
        assert_eq!(fail(&throttle, address(7), now).failures, 1, "reset");
    }

    #[test]
    fn time_forgets_an_address() {
        let policy = SlowdownPolicy {
            free_failures: 2,
            ..SlowdownPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let now = Instant::now();
        for _ in 0..3 {
            fail(&throttle, address(1), now);
        }
        let later = now + policy.forget_after;
        assert_eq!(fail(&throttle, address(1), later).failures, 1);
    }

    #[test]
    fn past_the_global_budget_every_wrong_token_waits_longer_the_higher_the_rate() {
        let policy = SlowdownPolicy {
            global_failures_per_minute: 10,
            ..SlowdownPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let now = Instant::now();
        let delays: Vec<u64> = (0..70)
            .map(|n| fail(&throttle, address(n), now).delay.as_secs())
            .collect();
        assert_eq!(delays[..10], [0; 10]);
        assert_eq!(delays[10..20], [1; 10]);
        assert_eq!(delays[20], 2);
        assert_eq!(delays[69], 5, "bounded");
        let a_minute_on = now + 60 * SECOND;
        assert_eq!(
            fail(&throttle, address(1000), a_minute_on).delay,
            Duration::ZERO
        );
    }

    #[test]
    fn failures_spread_over_more_than_a_minute_stay_within_the_budget() {
        let policy = SlowdownPolicy {
            global_failures_per_minute: 10,
            ..SlowdownPolicy::default()
        };
        let throttle = Throttle::new(policy);
        let start = Instant::now();
        for n in 0..30 {
            let failure = fail(&throttle, address(n), start + n * 7 * SECOND);
            assert_eq!(failure.delay, Duration::ZERO, "{failure:?}");
            assert!(failure.global_failures <= 9, "{failure:?}");
        }
    }

    #[test]
    fn the_table_of_addresses_is_bounded() {
        let policy = SlowdownPolicy {
            global_failures_per_minute: u32::MAX,
            ..SlowdownPolicy::default()
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
