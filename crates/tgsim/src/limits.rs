//! Flood control on the simulator's clock: token buckets per chat and overall (and for paid
//! broadcasts), and a sliding window per group ("20 messages per minute"). Deterministic: the same
//! calls at the same simulated times get the same answers.

use std::collections::{HashMap, VecDeque};

use serde::{Deserialize, Serialize};

/// A rate: `count` messages per `period_ms`, with bursts of up to `burst` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rate {
    /// Messages per period.
    pub count: u32,
    /// Period length in milliseconds.
    pub period_ms: u64,
    /// Bucket size: how many messages may go at once after a quiet spell.
    pub burst: u32,
}

impl Rate {
    /// `count` per second, bursts of `burst`.
    pub const fn per_second(count: u32, burst: u32) -> Self {
        Self {
            count,
            period_ms: 1000,
            burst,
        }
    }

    /// `count` per minute, bursts of `burst`.
    pub const fn per_minute(count: u32, burst: u32) -> Self {
        Self {
            count,
            period_ms: 60_000,
            burst,
        }
    }

    /// Tokens regained per millisecond.
    fn per_ms(self) -> f64 {
        f64::from(self.count) / self.period_ms.max(1) as f64
    }
}

/// At most `max` messages in any window of `period_ms` (a sliding window, no bursts beyond it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// Messages allowed per window.
    pub max: u32,
    /// Window length in milliseconds.
    pub period_ms: u64,
}

/// Flood-control settings. Defaults follow Telegram's FAQ: about 1 message per second per chat
/// (bursts of 3), at most 20 in any minute per group, 30 per second overall; paid broadcasts
/// (`allow_paid_broadcast`) use their own 1000 per second instead of the overall limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LimitsConfig {
    /// False switches all flood control off.
    pub enabled: bool,
    /// Every chat (private or group).
    pub per_chat: Rate,
    /// Groups and supergroups, on top of `per_chat`.
    pub per_group: Window,
    /// All chats together.
    pub global: Rate,
    /// All chats together, for sends with `allow_paid_broadcast=true` (replaces `global`).
    pub paid_broadcast: Rate,
    /// Answer 429 without `parameters` (only the description says how long to wait).
    pub omit_parameters: bool,
    /// Report this `retry_after` instead of the computed one (e.g. 3600 for "an hour").
    pub retry_after_override: Option<u32>,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            per_chat: Rate::per_second(1, 3),
            per_group: Window {
                max: 20,
                period_ms: 60_000,
            },
            global: Rate::per_second(30, 30),
            paid_broadcast: Rate::per_second(1000, 1000),
            omit_parameters: false,
            retry_after_override: None,
        }
    }
}

impl LimitsConfig {
    /// No flood control at all.
    pub fn off() -> Self {
        Self {
            enabled: false,
            ..Self::default()
        }
    }
}

/// Which limit refused a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LimitKind {
    /// The chat's own bucket.
    Chat,
    /// The group's window.
    Group,
    /// The overall (or paid-broadcast) bucket.
    Global,
}

/// A refusal: which limit, and the `retry_after` to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Throttled {
    /// The limit that ran dry (the one with the longest wait).
    pub kind: LimitKind,
    /// Whole seconds to wait, at least 1.
    pub retry_after: u32,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at_ms: i64,
}

impl Bucket {
    fn full(rate: Rate, now_ms: i64) -> Self {
        Self {
            tokens: f64::from(rate.burst.max(1)),
            at_ms: now_ms,
        }
    }

    fn refill(&mut self, rate: Rate, now_ms: i64) {
        let elapsed = (now_ms - self.at_ms).max(0) as f64;
        self.tokens = (self.tokens + elapsed * rate.per_ms()).min(f64::from(rate.burst.max(1)));
        self.at_ms = self.at_ms.max(now_ms);
    }

    /// Milliseconds until one token is available (0 when one is).
    fn wait_ms(&self, rate: Rate) -> f64 {
        if self.tokens >= 1.0 - 1e-9 {
            0.0
        } else {
            (1.0 - self.tokens) / rate.per_ms()
        }
    }
}

/// The buckets; owned by the simulator's state.
#[derive(Debug)]
pub(crate) struct Limiter {
    config: LimitsConfig,
    chats: HashMap<i64, Bucket>,
    groups: HashMap<i64, VecDeque<i64>>,
    global: Option<Bucket>,
    paid: Option<Bucket>,
}

impl Limiter {
    /// Buckets for `config`, all full.
    pub(crate) fn new(config: LimitsConfig) -> Self {
        Self {
            config,
            chats: HashMap::new(),
            groups: HashMap::new(),
            global: None,
            paid: None,
        }
    }

    /// The current settings.
    pub(crate) fn config(&self) -> &LimitsConfig {
        &self.config
    }

    /// Replaces the settings and refills every bucket.
    pub(crate) fn set_config(&mut self, config: LimitsConfig) {
        *self = Self::new(config);
    }

    /// Takes one message for `chat_id` at `now_ms`, or says which limit refuses it. Nothing is
    /// taken from any bucket when one refuses.
    pub(crate) fn admit(
        &mut self,
        chat_id: i64,
        is_group: bool,
        paid: bool,
        now_ms: i64,
    ) -> Result<(), Throttled> {
        if !self.config.enabled {
            return Ok(());
        }
        let c = self.config.clone();
        let chat = Self::bucket(
            self.chats
                .entry(chat_id)
                .or_insert_with(|| Bucket::full(c.per_chat, now_ms)),
            c.per_chat,
            now_ms,
        );
        let mut waits = vec![(LimitKind::Chat, chat.wait_ms(c.per_chat))];
        if is_group {
            let period = i64::try_from(c.per_group.period_ms).unwrap_or(i64::MAX);
            let sent = self.groups.entry(chat_id).or_default();
            while sent.front().is_some_and(|t| *t <= now_ms - period) {
                sent.pop_front();
            }
            let full = sent.len() >= usize::try_from(c.per_group.max).unwrap_or(usize::MAX);
            let wait = match sent.front() {
                Some(oldest) if full => (oldest + period - now_ms) as f64,
                _ => 0.0,
            };
            waits.push((LimitKind::Group, wait));
        }
        let global_rate = if paid { c.paid_broadcast } else { c.global };
        let slot = if paid {
            &mut self.paid
        } else {
            &mut self.global
        };
        let global = Self::bucket(
            slot.get_or_insert_with(|| Bucket::full(global_rate, now_ms)),
            global_rate,
            now_ms,
        );
        waits.push((LimitKind::Global, global.wait_ms(global_rate)));

        let (kind, wait) = waits
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((LimitKind::Global, 0.0));
        if wait > 0.0 {
            let computed = u32::try_from((wait / 1000.0).ceil() as u64)
                .unwrap_or(u32::MAX)
                .max(1);
            return Err(Throttled {
                kind,
                retry_after: c.retry_after_override.unwrap_or(computed),
            });
        }
        if let Some(bucket) = self.chats.get_mut(&chat_id) {
            bucket.tokens -= 1.0;
        }
        if is_group {
            self.groups.entry(chat_id).or_default().push_back(now_ms);
        }
        let slot = if paid {
            &mut self.paid
        } else {
            &mut self.global
        };
        if let Some(bucket) = slot {
            bucket.tokens -= 1.0;
        }
        Ok(())
    }

    fn bucket(bucket: &mut Bucket, rate: Rate, now_ms: i64) -> Bucket {
        bucket.refill(rate, now_ms);
        *bucket
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat_only(rate: Rate) -> LimitsConfig {
        LimitsConfig {
            per_chat: rate,
            global: Rate::per_second(1_000_000, 1_000_000),
            ..LimitsConfig::default()
        }
    }

    #[test]
    fn burst_then_refusal_with_retry_after() {
        let mut limiter = Limiter::new(chat_only(Rate::per_second(1, 3)));
        for _ in 0..3 {
            assert_eq!(limiter.admit(1, false, false, 0), Ok(()));
        }
        let refused = limiter.admit(1, false, false, 0).unwrap_err();
        assert_eq!(
            refused,
            Throttled {
                kind: LimitKind::Chat,
                retry_after: 1
            }
        );
        assert_eq!(
            limiter.admit(1, false, false, 999).unwrap_err().kind,
            LimitKind::Chat
        );
        assert_eq!(limiter.admit(1, false, false, 1000), Ok(()));
        assert_eq!(
            limiter.admit(2, false, false, 1000),
            Ok(()),
            "other chats have their own bucket"
        );
    }

    #[test]
    fn group_limit_is_per_minute() {
        let mut limiter = Limiter::new(LimitsConfig::default());
        for i in 0..20 {
            assert_eq!(
                limiter.admit(-5, true, false, i * 1000),
                Ok(()),
                "message {i}"
            );
        }
        let refused = limiter.admit(-5, true, false, 20_000).unwrap_err();
        assert_eq!(refused.kind, LimitKind::Group);
        assert_eq!(
            refused.retry_after, 40,
            "the first message leaves the window at 60 s"
        );
        assert_eq!(limiter.admit(-5, true, false, 60_000), Ok(()));
    }

    #[test]
    fn override_and_off() {
        let mut limiter = Limiter::new(LimitsConfig {
            retry_after_override: Some(3600),
            ..chat_only(Rate::per_second(1, 1))
        });
        limiter.admit(1, false, false, 0).unwrap();
        assert_eq!(
            limiter.admit(1, false, false, 0).unwrap_err().retry_after,
            3600
        );
        let mut off = Limiter::new(LimitsConfig::off());
        assert!((0..1000).all(|_| off.admit(1, false, false, 0).is_ok()));
    }

    #[test]
    fn paid_broadcast_uses_its_own_overall_bucket() {
        let config = LimitsConfig {
            per_chat: Rate::per_second(1000, 1000),
            global: Rate::per_second(2, 2),
            paid_broadcast: Rate::per_second(5, 5),
            ..LimitsConfig::default()
        };
        let mut limiter = Limiter::new(config);
        assert!((0..2).all(|i| limiter.admit(i, false, false, 0).is_ok()));
        assert_eq!(
            limiter.admit(9, false, false, 0).unwrap_err().kind,
            LimitKind::Global
        );
        assert!((0..5).all(|i| limiter.admit(i, false, true, 0).is_ok()));
        assert!(limiter.admit(9, false, true, 0).is_err());
    }
}
