//! Fault injection: rules that slow, break or replace answers, chosen by method, chat, count or
//! probability. Random choices use a seeded generator, so a run can be repeated.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::types::ResponseParameters;

/// What a fault does to a request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FaultAction {
    /// Process the request, then hold the answer for a uniform random time in
    /// `min_ms..=max_ms` (beyond the client's timeout: "sent but timed out").
    Delay {
        /// Shortest hold.
        min_ms: u64,
        /// Longest hold.
        max_ms: u64,
    },
    /// Answer with this 5xx status without processing (teloxide sleeps 10 s on any 5xx).
    ServerError {
        /// The status, e.g. 500 or 502.
        status: u16,
    },
    /// Close the connection without any answer, before or after processing the request.
    Drop {
        /// True: the request takes effect (e.g. the message is delivered), only the answer is lost.
        #[serde(default)]
        after_processing: bool,
    },
    /// Answer 429 without processing.
    TooManyRequests {
        /// The reported `retry_after`.
        retry_after: u32,
        /// False omits `parameters`, leaving only the description.
        #[serde(default = "yes")]
        with_parameters: bool,
    },
    /// Answer with any Bot API error without processing.
    ApiError {
        /// HTTP status and `error_code`.
        error_code: u16,
        /// Exact description.
        description: String,
        /// Optional `parameters`.
        #[serde(default)]
        parameters: Option<ResponseParameters>,
    },
    /// Answer with this status and raw body (e.g. invalid JSON, or a newer API shape).
    Raw {
        /// HTTP status.
        status: u16,
        /// Body, sent as `application/json`.
        body: String,
        /// True: process the request first, then replace its answer.
        #[serde(default)]
        after_processing: bool,
    },
}

fn yes() -> bool {
    true
}

/// A fault and the requests it applies to. Every condition that is set must hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultRule {
    /// Only this method (case-insensitive), e.g. "sendMessage".
    #[serde(default)]
    pub method: Option<String>,
    /// Only requests whose `chat_id` is this.
    #[serde(default)]
    pub chat_id: Option<i64>,
    /// Let this many matching requests through first.
    #[serde(default)]
    pub skip: u32,
    /// Apply to at most this many requests, then remove the rule.
    #[serde(default)]
    pub count: Option<u32>,
    /// Apply to each matching request with this probability (default: always).
    #[serde(default)]
    pub probability: Option<f64>,
    /// What happens.
    pub action: FaultAction,
}

impl FaultRule {
    /// A rule applying `action` to every request.
    pub fn new(action: FaultAction) -> Self {
        Self {
            method: None,
            chat_id: None,
            skip: 0,
            count: None,
            probability: None,
            action,
        }
    }

    /// Restricts the rule to one method.
    #[must_use]
    pub fn method(mut self, method: &str) -> Self {
        self.method = Some(method.to_owned());
        self
    }

    /// Restricts the rule to one chat.
    #[must_use]
    pub fn chat(mut self, chat_id: i64) -> Self {
        self.chat_id = Some(chat_id);
        self
    }

    /// Applies the rule `n` times, then removes it.
    #[must_use]
    pub fn times(mut self, n: u32) -> Self {
        self.count = Some(n);
        self
    }

    /// Lets `n` matching requests through before the rule applies.
    #[must_use]
    pub fn skip(mut self, n: u32) -> Self {
        self.skip = n;
        self
    }

    /// Applies the rule to each matching request with probability `p`.
    #[must_use]
    pub fn probability(mut self, p: f64) -> Self {
        self.probability = Some(p);
        self
    }
}

/// A rule as stored, with its id and usage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActiveFault {
    /// Id for removal.
    pub id: u64,
    /// The rule.
    pub rule: FaultRule,
    /// Matching requests seen so far.
    pub matched: u32,
    /// Times it fired.
    pub fired: u32,
}

/// How a request ends when a fault takes over.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// Close the connection silently.
    Drop,
    /// A Bot API error envelope.
    Error(ApiError),
    /// A raw body.
    Raw { status: u16, body: String },
}

/// What the faults decided for one request.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Plan {
    /// Hold the answer this long.
    pub delay_ms: u64,
    /// Replace the request: it is not processed.
    pub before: Option<Outcome>,
    /// Process the request, then replace its answer.
    pub after: Option<Outcome>,
    /// How many rules fired.
    pub fired: u32,
}

/// The rule set; owned by the simulator's state.
#[derive(Debug)]
pub(crate) struct Faults {
    rules: Vec<ActiveFault>,
    next_id: u64,
    rng: StdRng,
}

impl Faults {
    /// No rules; random choices seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            rules: Vec::new(),
            next_id: 1,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Adds a rule and returns its id.
    pub(crate) fn add(&mut self, rule: FaultRule) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.rules.push(ActiveFault {
            id,
            rule,
            matched: 0,
            fired: 0,
        });
        id
    }

    /// Removes a rule; false when there was none with this id.
    pub(crate) fn remove(&mut self, id: u64) -> bool {
        let before = self.rules.len();
        self.rules.retain(|r| r.id != id);
        self.rules.len() != before
    }

    /// Removes every rule.
    pub(crate) fn clear(&mut self) {
        self.rules.clear();
    }

    /// The active rules.
    pub(crate) fn list(&self) -> Vec<ActiveFault> {
        self.rules.clone()
    }

    /// Decides the faults for one request. Rules are consulted in the order they were added:
    /// delays add up, the first outcome wins.
    pub(crate) fn plan(&mut self, method: &str, chat_id: Option<i64>) -> Plan {
        let mut plan = Plan::default();
        if self.rules.is_empty() {
            return plan;
        }
        for active in &mut self.rules {
            let rule = &active.rule;
            let method_ok = rule
                .method
                .as_deref()
                .is_none_or(|m| m.eq_ignore_ascii_case(method));
            let chat_ok = rule.chat_id.is_none_or(|c| chat_id == Some(c));
            if !method_ok || !chat_ok {
                continue;
            }
            active.matched += 1;
            if active.matched <= rule.skip {
                continue;
            }
            if let Some(p) = rule.probability
                && !self.rng.random_bool(p.clamp(0.0, 1.0))
            {
                continue;
            }
            let is_outcome = !matches!(rule.action, FaultAction::Delay { .. });
            if is_outcome && (plan.before.is_some() || plan.after.is_some()) {
                continue;
            }
            active.fired += 1;
            plan.fired += 1;
            match &rule.action {
                FaultAction::Delay { min_ms, max_ms } => {
                    let (lo, hi) = (*min_ms.min(max_ms), *min_ms.max(max_ms));
                    plan.delay_ms += self.rng.random_range(lo..=hi);
                }
                FaultAction::ServerError { status } => {
                    plan.before = Some(Outcome::Error(ApiError::server_error(*status)));
                }
                FaultAction::Drop {
                    after_processing: false,
                } => plan.before = Some(Outcome::Drop),
                FaultAction::Drop {
                    after_processing: true,
                } => plan.after = Some(Outcome::Drop),
                FaultAction::TooManyRequests {
                    retry_after,
                    with_parameters,
                } => {
                    plan.before = Some(Outcome::Error(ApiError::too_many_requests(
                        *retry_after,
                        *with_parameters,
                    )));
                }
                FaultAction::ApiError {
                    error_code,
                    description,
                    parameters,
                } => {
                    plan.before = Some(Outcome::Error(ApiError {
                        error_code: *error_code,
                        description: description.clone(),
                        parameters: parameters.clone(),
                    }));
                }
                FaultAction::Raw {
                    status,
                    body,
                    after_processing,
                } => {
                    let outcome = Outcome::Raw {
                        status: *status,
                        body: body.clone(),
                    };
                    if *after_processing {
                        plan.after = Some(outcome);
                    } else {
                        plan.before = Some(outcome);
                    }
                }
            }
        }
        self.rules
            .retain(|r| r.rule.count.is_none_or(|n| r.fired < n));
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_count_method_and_chat_select_requests() {
        let mut faults = Faults::new(1);
        faults.add(
            FaultRule::new(FaultAction::ServerError { status: 502 })
                .method("SendMessage")
                .chat(7)
                .skip(1)
                .times(2),
        );
        assert_eq!(faults.plan("sendMessage", Some(7)).before, None, "skipped");
        assert_eq!(faults.plan("getMe", None).before, None, "other method");
        assert_eq!(
            faults.plan("sendMessage", Some(8)).before,
            None,
            "other chat"
        );
        assert!(faults.plan("sendmessage", Some(7)).before.is_some());
        assert!(faults.plan("sendMessage", Some(7)).before.is_some());
        assert_eq!(faults.plan("sendMessage", Some(7)).before, None, "used up");
        assert!(faults.list().is_empty());
    }

    #[test]
    fn probability_is_repeatable_for_a_seed() {
        let run = || {
            let mut faults = Faults::new(42);
            faults.add(
                FaultRule::new(FaultAction::Drop {
                    after_processing: false,
                })
                .probability(0.3),
            );
            (0..200)
                .map(|_| faults.plan("getMe", None).before.is_some())
                .collect::<Vec<_>>()
        };
        let first = run();
        assert_eq!(first, run());
        let hits = first.iter().filter(|h| **h).count();
        assert!((30..90).contains(&hits), "about 30% of 200, got {hits}");
    }

    #[test]
    fn delays_add_up_and_first_outcome_wins() {
        let mut faults = Faults::new(1);
        faults.add(FaultRule::new(FaultAction::Delay {
            min_ms: 10,
            max_ms: 10,
        }));
        faults.add(FaultRule::new(FaultAction::TooManyRequests {
            retry_after: 5,
            with_parameters: false,
        }));
        faults.add(FaultRule::new(FaultAction::Drop {
            after_processing: true,
        }));
        faults.add(FaultRule::new(FaultAction::Delay {
            min_ms: 5,
            max_ms: 5,
        }));
        let plan = faults.plan("sendMessage", None);
        assert_eq!(plan.delay_ms, 15);
        assert_eq!(
            plan.before,
            Some(Outcome::Error(ApiError::too_many_requests(5, false)))
        );
        assert_eq!(plan.after, None);
    }
}
