//! Paid broadcasts (`allow_paid_broadcast=true` on sendMessage and sendDocument), as the Bot API
//! documents them: "up to 1000 messages per second, ignoring broadcasting limits for a fee of 0.1
//! Telegram Stars per message; the relevant Stars will be withdrawn from the bot's balance".
//!
//! The higher overall cap is flood control's (`LimitsConfig::paid_broadcast`, in `limits`). This
//! module keeps the bot's Stars: a message sent with the flag while the bot is above the free
//! limit (at least the overall free rate of messages delivered within the last second) costs 0.1
//! Star, taken from the balance; within the free limit it costs nothing. Amounts are integers in
//! tenths of a Star. A send that would be charged with the balance short, or any send with the
//! flag from a bot made "not eligible", is refused with [`descriptions::BALANCE_TOO_LOW`] (the
//! Bot API documents no such error; see that constant) and nothing is taken.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::error::{ApiError, descriptions};

/// What a paid broadcast costs, in tenths of a Star per message.
pub const TENTHS_PER_MESSAGE: i64 = 1;

/// The bot's Stars and what paid broadcasts cost it so far, as tests read it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaidBroadcastState {
    /// The bot's balance, in tenths of a Star.
    pub balance_tenths: i64,
    /// False: every send with `allow_paid_broadcast` is refused, whatever the balance.
    pub eligible: bool,
    /// Stars taken for paid broadcasts since start (or since the counters were reset), in
    /// tenths.
    pub charged_tenths: i64,
    /// Messages delivered with `allow_paid_broadcast=true` (charged or not).
    pub sent: u64,
    /// Sends with the flag refused for want of Stars or eligibility.
    pub refused: u64,
}

/// A change made by a test: the fields given replace the current ones.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaidBroadcastUpdate {
    /// The new balance, in tenths of a Star.
    pub balance_tenths: Option<i64>,
    /// Whether the bot may use paid broadcasts.
    pub eligible: Option<bool>,
}

/// The bot's Stars and the sends of the last second; owned by the simulator's state.
#[derive(Debug)]
pub(crate) struct PaidBroadcast {
    state: PaidBroadcastState,
    /// When each message of the last second was delivered (simulated ms), paid or not.
    recent: VecDeque<i64>,
}

impl PaidBroadcast {
    /// A bot with `balance_tenths` and eligible.
    pub(crate) fn new(balance_tenths: i64) -> Self {
        Self {
            state: PaidBroadcastState {
                balance_tenths,
                eligible: true,
                ..PaidBroadcastState::default()
            },
            recent: VecDeque::new(),
        }
    }

    /// The balance and what was charged.
    pub(crate) fn state(&self) -> PaidBroadcastState {
        self.state.clone()
    }

    /// Applies a test's change.
    pub(crate) fn update(&mut self, update: PaidBroadcastUpdate) {
        if let Some(balance) = update.balance_tenths {
            self.state.balance_tenths = balance;
        }
        if let Some(eligible) = update.eligible {
            self.state.eligible = eligible;
        }
    }

    /// Zeroes what was charged, sent and refused (the balance stays).
    pub(crate) fn reset_counts(&mut self) {
        self.state.charged_tenths = 0;
        self.state.sent = 0;
        self.state.refused = 0;
    }

    /// What a send with the flag at `now_ms` would cost: a tenth of a Star when the bot
    /// delivered at least `free_per_sec` messages within the last second, else nothing. Refused
    /// when the bot is not eligible or cannot pay; nothing is taken either way (see
    /// [`Self::charge`]).
    pub(crate) fn quote(&mut self, free_per_sec: u32, now_ms: i64) -> Result<i64, ApiError> {
        self.forget_before(now_ms - 1000);
        let above_free = self.recent.len() >= usize::try_from(free_per_sec).unwrap_or(usize::MAX);
        let cost = if above_free { TENTHS_PER_MESSAGE } else { 0 };
        if !self.state.eligible || self.state.balance_tenths < cost {
            self.state.refused += 1;
            return Err(ApiError::bad_request(descriptions::BALANCE_TOO_LOW));
        }
        Ok(cost)
    }

    /// Takes `cost` (from [`Self::quote`]) for a message sent with the flag.
    pub(crate) fn charge(&mut self, cost: i64) {
        self.state.balance_tenths -= cost;
        self.state.charged_tenths += cost;
        self.state.sent += 1;
    }

    /// Counts a delivered message (with the flag or not) at `now_ms`.
    pub(crate) fn delivered(&mut self, now_ms: i64) {
        self.forget_before(now_ms - 1000);
        self.recent.push_back(now_ms);
    }

    fn forget_before(&mut self, at_ms: i64) {
        while self.recent.front().is_some_and(|t| *t <= at_ms) {
            self.recent.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_within_the_free_rate_then_a_tenth_each_and_refused_when_short() {
        let mut paid = PaidBroadcast::new(2);
        for at in 0..3 {
            assert_eq!(paid.quote(3, at), Ok(0), "within 3 a second");
            paid.charge(0);
            paid.delivered(at);
        }
        for at in 3..5 {
            let cost = paid.quote(3, at).unwrap();
            assert_eq!(cost, TENTHS_PER_MESSAGE);
            paid.charge(cost);
            paid.delivered(at);
        }
        let refused = paid.quote(3, 5).unwrap_err();
        assert_eq!(refused.description, descriptions::BALANCE_TOO_LOW);
        assert_eq!(refused.error_code, 400);
        let state = paid.state();
        assert_eq!(
            (
                state.balance_tenths,
                state.charged_tenths,
                state.sent,
                state.refused
            ),
            (0, 2, 5, 1)
        );
        assert_eq!(
            paid.quote(3, 2000),
            Ok(0),
            "a quiet second later it is free"
        );
    }

    #[test]
    fn a_bot_not_eligible_is_refused_even_within_the_free_rate() {
        let mut paid = PaidBroadcast::new(1000);
        paid.update(PaidBroadcastUpdate {
            eligible: Some(false),
            ..PaidBroadcastUpdate::default()
        });
        assert!(paid.quote(30, 0).is_err());
        assert_eq!(paid.state().balance_tenths, 1000);
    }
}
