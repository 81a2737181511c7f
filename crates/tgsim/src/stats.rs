//! What the simulator observed: counters, the highest send rates, and the call log. The bot token
//! never appears here: calls are recorded by method name and parameters only.

use std::collections::{BTreeMap, HashMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::limits::LimitKind;

/// 429 answers by cause.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThrottleCounters {
    /// Refused by a chat's own bucket.
    pub per_chat: u64,
    /// Refused by a group's per-minute bucket.
    pub per_group: u64,
    /// Refused by the overall bucket.
    pub global: u64,
    /// Injected by a fault rule.
    pub injected: u64,
}

/// Counters since start (or the last reset).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Bot API requests, whatever their outcome.
    pub requests: u64,
    /// Requests by method name (as the spec spells it; unknown names as sent).
    pub requests_by_method: BTreeMap<String, u64>,
    /// Error answers by `error_code` (including injected ones).
    pub errors_by_code: BTreeMap<u16, u64>,
    /// Messages the bot delivered (sendMessage and sendDocument successes).
    pub messages_sent: u64,
    /// 429 answers by cause.
    pub too_many_requests: ThrottleCounters,
    /// Highest number of messages delivered to one chat within one second.
    pub max_chat_rate_per_s: u64,
    /// Highest number of messages delivered overall within one second.
    pub max_global_rate_per_s: u64,
    /// Highest number of messages delivered to one group within one minute.
    pub max_group_rate_per_min: u64,
    /// Fault rules that fired.
    pub faults_fired: u64,
    /// Connections closed without an answer by a fault.
    pub dropped_connections: u64,
    /// Updates created (user messages, taps, membership changes).
    pub updates_created: u64,
    /// Webhook deliveries answered with 2xx.
    pub webhook_deliveries: u64,
    /// Webhook deliveries that failed (each attempt).
    pub webhook_failures: u64,
}

/// One Bot API call as the simulator saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    /// Position in the log, from 1.
    pub seq: u64,
    /// Simulated Unix time in milliseconds when the request arrived.
    pub at_ms: i64,
    /// Method name as the spec spells it (or as sent, when unknown).
    pub method: String,
    /// HTTP status of the answer; 0 when a fault dropped the connection, 499 when the client
    /// went away first.
    pub status: u16,
    /// Error description, for error answers.
    pub description: Option<String>,
    /// The `chat_id` parameter, when numeric.
    pub chat_id: Option<i64>,
    /// All parameters.
    pub params: Value,
    /// Real time from arrival to answer (including an injected delay), in milliseconds.
    pub duration_ms: u64,
}

/// Sliding-window counts of delivered messages.
#[derive(Debug, Default)]
struct Window {
    times: VecDeque<i64>,
}

impl Window {
    fn record(&mut self, now_ms: i64, width_ms: i64) -> u64 {
        self.times.push_back(now_ms);
        while self.times.front().is_some_and(|t| *t <= now_ms - width_ms) {
            self.times.pop_front();
        }
        self.times.len() as u64
    }
}

/// Counters, rate meters and call log; owned by the simulator's state.
#[derive(Debug)]
pub(crate) struct Stats {
    pub counters: Counters,
    global: Window,
    chats: HashMap<i64, Window>,
    groups: HashMap<i64, Window>,
    log: VecDeque<CallRecord>,
    log_capacity: usize,
    next_seq: u64,
}

impl Stats {
    /// Empty statistics keeping up to `log_capacity` calls.
    pub(crate) fn new(log_capacity: usize) -> Self {
        Self {
            counters: Counters::default(),
            global: Window::default(),
            chats: HashMap::new(),
            groups: HashMap::new(),
            log: VecDeque::new(),
            log_capacity,
            next_seq: 1,
        }
    }

    /// Counts a delivered message and updates the highest rates.
    pub(crate) fn message_sent(&mut self, chat_id: i64, is_group: bool, now_ms: i64) {
        let c = &mut self.counters;
        c.messages_sent += 1;
        c.max_global_rate_per_s = c
            .max_global_rate_per_s
            .max(self.global.record(now_ms, 1000));
        let chat = self.chats.entry(chat_id).or_default().record(now_ms, 1000);
        c.max_chat_rate_per_s = c.max_chat_rate_per_s.max(chat);
        if is_group {
            let group = self
                .groups
                .entry(chat_id)
                .or_default()
                .record(now_ms, 60_000);
            c.max_group_rate_per_min = c.max_group_rate_per_min.max(group);
        }
    }

    /// Counts a 429 from a limit.
    pub(crate) fn throttled(&mut self, kind: LimitKind) {
        let t = &mut self.counters.too_many_requests;
        match kind {
            LimitKind::Chat => t.per_chat += 1,
            LimitKind::Group => t.per_group += 1,
            LimitKind::Global => t.global += 1,
        }
    }

    /// Records a finished call in the counters and the log.
    pub(crate) fn record_call(&mut self, mut record: CallRecord) {
        let c = &mut self.counters;
        c.requests += 1;
        *c.requests_by_method
            .entry(record.method.clone())
            .or_default() += 1;
        if record.status == 0 {
            c.dropped_connections += 1;
        } else if record.status != 200 {
            *c.errors_by_code.entry(record.status).or_default() += 1;
        }
        record.seq = self.next_seq;
        self.next_seq += 1;
        if self.log_capacity > 0 {
            if self.log.len() == self.log_capacity {
                self.log.pop_front();
            }
            self.log.push_back(record);
        }
    }

    /// Calls with `seq >= since`, oldest first.
    pub(crate) fn calls(&self, since: u64) -> Vec<CallRecord> {
        let start = self.log.partition_point(|r| r.seq < since);
        self.log.range(start..).cloned().collect()
    }

    /// Zeroes the counters and rate meters and empties the log (sequence numbers keep growing).
    pub(crate) fn reset(&mut self) {
        let (capacity, next) = (self.log_capacity, self.next_seq);
        *self = Self::new(capacity);
        self.next_seq = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highest_rates_use_sliding_windows() {
        let mut stats = Stats::new(10);
        for t in [0, 100, 200, 1100, 1150] {
            stats.message_sent(1, false, t);
        }
        stats.message_sent(2, false, 1160);
        assert_eq!(
            stats.counters.max_chat_rate_per_s, 3,
            "0,100,200 or 200,1100,1150"
        );
        assert_eq!(
            stats.counters.max_global_rate_per_s, 4,
            "200,1100,1150,1160"
        );
    }
}
