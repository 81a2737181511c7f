//! Paid broadcast (PAID_BROADCAST, off by default): reminders that would otherwise be late go out
//! with `allow_paid_broadcast`, above Telegram's free limit, within a daily Stars budget.
//!
//! The Bot API lets a bot send "up to 1000 messages per second, ignoring broadcasting limits for a
//! fee of 0.1 Telegram Stars per message", taken from the bot's balance. Here:
//! - **Who pays.** Only reminders ([`super::pacing::Payment::IfLate`]); replies, edits, files and
//!   agendas never do. A reminder pays when it is already later than PAID_BROADCAST_AFTER_SECS,
//!   or when the reminders due now would take longer than that to leave at the free rate (the
//!   oldest one's wait plus their number over the free rate: a 09:00 herd pays from its first
//!   message, a normal minute never does). [`PaidBroadcast::pays`] decides, per send, from what
//!   the watch ([`watch`], every second) last read.
//! - **How fast.** The paid slots are a second schedule of the shared budget (the `send_budget`
//!   row `paid`), at [`PAID_MAX_PER_SEC`] minus the free rate, so free and paid together stay
//!   within Telegram's 1000/s; while paying, the sends in flight follow that rate
//!   ([`InFlight::set_rate`]). Per-chat and per-group limits apply as to every message.
//! - **How much.** Each paid slot counts 0.1 Star against today's budget (UTC) when it is taken,
//!   in the database, by every replica together ([`crate::store::paid_broadcast`]): an upper
//!   bound of what Telegram charges. Once it is spent, reminders wait for free slots until
//!   midnight UTC.
//! - **Refusals.** A paid send that Telegram refuses with an error about the request rather than
//!   the chat (no balance, not eligible: the Bot API documents no text for either, so any such
//!   error counts, see [`refusal`]) stops paid sends on every replica for [`REFUSAL_PAUSE`]; the
//!   reminder goes back to the queue, unsent, and leaves in a free slot. It is logged (warn),
//!   counted (`remindbot_paid_broadcast_refusals_total`) and shown by `remindbot check`.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::classify::SendFailure;
use super::in_flight::InFlight;
use super::metrics;
use super::slots::{Slot, SlotLine, horizon};
use crate::store::OUTBOX_QUEUE;
use crate::store::budget::Slots;
use crate::store::paid_broadcast::{self, Closed, PaidSlots};

/// Telegram's overall cap with `allow_paid_broadcast`, free messages included.
pub const PAID_MAX_PER_SEC: u32 = 1000;
/// How long paid sends stop after Telegram refused one.
pub const REFUSAL_PAUSE: Duration = Duration::from_secs(600);
/// How often the watch reads the reminders due and the shared state.
const WATCH_EVERY: Duration = Duration::from_secs(1);
/// The priority of reminders in the outbox.
const REMINDER_PRIORITY: i16 = 1;

/// An amount of Telegram Stars, in tenths (what one paid message costs). Reads and prints as
/// Stars with at most one decimal: `250`, `12.5`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stars {
    /// Tenths of a Star.
    pub tenths: i64,
}

impl fmt::Display for Stars {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, tenth) = (self.tenths / 10, (self.tenths % 10).abs());
        if tenth == 0 {
            write!(f, "{whole}")
        } else {
            write!(f, "{whole}.{tenth}")
        }
    }
}

/// Why a text is no amount of Stars.
#[derive(Debug, thiserror::Error)]
#[error(
    "{0:?} is no amount of Stars: write a number with at most one decimal, such as 250 or 12.5"
)]
pub struct BadStars(String);

impl FromStr for Stars {
    type Err = BadStars;

    fn from_str(text: &str) -> Result<Self, BadStars> {
        let bad = || BadStars(text.to_owned());
        let (whole, tenth) = text.trim().split_once('.').unwrap_or((text.trim(), "0"));
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || !digits(tenth) || tenth.len() > 1 {
            return Err(bad());
        }
        let whole: i64 = whole.parse().map_err(|_| bad())?;
        let tenth: i64 = tenth.parse().map_err(|_| bad())?;
        let tenths = whole
            .checked_mul(10)
            .and_then(|t| t.checked_add(tenth))
            .ok_or_else(bad)?;
        Ok(Self { tenths })
    }
}

/// Paid broadcast's settings (when PAID_BROADCAST is on).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaidSettings {
    /// A reminder that would leave later than this after its time pays.
    pub after: Duration,
    /// The most Stars paid sends may take in a UTC day (more than zero).
    pub per_day: Stars,
}

/// What the watch and the slot task last learned, shared by the workers.
#[derive(Debug, Default)]
struct Seen {
    /// How late the last reminder due now would leave at the free rate, in seconds.
    backlog_secs: f64,
    /// Why paid slots are closed, and until when (this process's clock).
    closed: Option<(Closed, Instant)>,
}

/// Paid broadcast in one process: the decision to pay, the paid slots, the refusals; cheap to
/// clone.
#[derive(Clone, Debug)]
pub struct PaidBroadcast {
    settings: PaidSettings,
    pool: PgPool,
    line: SlotLine,
    seen: Arc<Mutex<Seen>>,
}

impl PaidBroadcast {
    /// Starts the paid slot task and the watch (both stop with `shutdown`): paid slots above
    /// `free_per_sec` (the free budget, all replicas), `in_flight` following the rate while
    /// paying.
    pub fn start(
        pool: PgPool,
        settings: PaidSettings,
        free_per_sec: u32,
        in_flight: InFlight,
        shutdown: CancellationToken,
    ) -> Self {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let paid_per_sec = PAID_MAX_PER_SEC.saturating_sub(free_per_sec).max(1);
        let interval = Duration::from_secs(1) / paid_per_sec;
        let line = {
            let (pool, seen) = (pool.clone(), seen.clone());
            SlotLine::start(
                move |wanted| {
                    let (pool, seen) = (pool.clone(), seen.clone());
                    async move {
                        let horizon = horizon(interval);
                        let taken = paid_broadcast::take_slots(
                            &pool,
                            interval,
                            horizon,
                            wanted,
                            settings.per_day.tenths,
                        )
                        .await?;
                        Ok(match taken {
                            PaidSlots::Open(slots) => slots,
                            PaidSlots::Closed(why) => {
                                close(&seen, why, WATCH_EVERY);
                                Slots::Wait {
                                    in_secs: WATCH_EVERY.as_secs_f64(),
                                    paused: true,
                                }
                            }
                        })
                    }
                },
                interval,
                shutdown.clone(),
            )
        };
        let paid = Self {
            settings,
            pool,
            line,
            seen,
        };
        tokio::spawn(watch(paid.clone(), free_per_sec, in_flight, shutdown));
        paid
    }

    /// The settings.
    pub fn settings(&self) -> PaidSettings {
        self.settings
    }

    /// Whether a reminder `overdue_secs` past its time should pay: paid slots are open (as far
    /// as this process knows) and it, or the line of reminders due, is later than the threshold.
    pub fn pays(&self, overdue_secs: f64) -> bool {
        let seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        let open = seen.closed.is_none_or(|(_, until)| until <= Instant::now());
        let after = self.settings.after.as_secs_f64();
        open && (overdue_secs > after || seen.backlog_secs > after)
    }

    /// A paid slot, `None` when none is to be had now (closed, or not within the wait): the
    /// message then takes a free one.
    pub(super) async fn slot(&self) -> Option<DateTime<Utc>> {
        match self.line.slot(REMINDER_PRIORITY).await {
            Slot::Granted { at } => Some(at),
            Slot::Wait { .. } => None,
        }
    }

    /// Telegram refused a paid send with `reason`: paid sends stop here at once and, through the
    /// database, on every replica for [`REFUSAL_PAUSE`].
    pub(super) async fn refused(&self, reason: &str) {
        close(&self.seen, Closed::Refused, REFUSAL_PAUSE);
        metrics::paid_refused();
        match paid_broadcast::refused(&self.pool, reason, REFUSAL_PAUSE).await {
            Ok(until) => tracing::warn!(
                %reason,
                %until,
                "Telegram refused a paid broadcast; sending at the free rate until then"
            ),
            Err(error) => tracing::warn!(
                %reason,
                %error,
                "Telegram refused a paid broadcast (not recorded); sending at the free rate"
            ),
        }
    }
}

/// Closes paid slots in this process for `pause` (a longer closure already there stays).
fn close(seen: &Mutex<Seen>, why: Closed, pause: Duration) {
    let until = Instant::now() + pause;
    let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
    if seen.closed.is_none_or(|(_, current)| current < until) {
        seen.closed = Some((why, until));
    }
}

/// Whether a failed paid send was Telegram refusing the payment (no Stars, not eligible): a
/// rejection that names the bot's balance or paid broadcasting. The Bot API documents no error for
/// either; the simulator answers `Bad Request: BALANCE_TOO_LOW`, the MTProto error Telegram lists
/// for a Stars balance too low (see its `descriptions::BALANCE_TOO_LOW`). Any other rejection is
/// about the message or its chat (a bad request, no right to post there) and is handled as a
/// rejected reminder is, leaving paid broadcast on for the other chats; a 429, an unreachable or
/// migrated chat, a server or network failure keep their meaning too.
pub fn refusal(failure: &SendFailure) -> Option<&str> {
    match failure {
        SendFailure::Rejected(reason) if names_payment(reason) => Some(reason),
        _ => None,
    }
}

/// Whether Telegram's description is about paying for the send.
fn names_payment(description: &str) -> bool {
    let upper = description.to_ascii_uppercase();
    ["BALANCE", "STARS", "PAID_BROADCAST", "PAID BROADCAST"]
        .iter()
        .any(|word| upper.contains(word))
}

/// Every [`WATCH_EVERY`]: how late the reminders due now would leave at the free rate, and
/// whether paid slots are open (a refusal on any replica, today's budget); the sends in flight
/// follow the rate in use, and the metrics say where paid broadcast stands.
async fn watch(
    paid: PaidBroadcast,
    free_per_sec: u32,
    in_flight: InFlight,
    shutdown: CancellationToken,
) {
    let mut every = tokio::time::interval(WATCH_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = every.tick() => {}
        }
        let backlog = pgqueue::maintenance::due_by_priority(&paid.pool, OUTBOX_QUEUE).await;
        let state = paid_broadcast::state(&paid.pool).await;
        let (backlog, state) = match (backlog, state) {
            (Ok(backlog), Ok(state)) => (backlog, state),
            (Err(error), _) => {
                tracing::warn!(%error, "reading the reminders due failed");
                continue;
            }
            (_, Err(error)) => {
                tracing::warn!(%error, "reading paid broadcast's state failed");
                continue;
            }
        };
        let backlog_secs = backlog
            .iter()
            .find(|level| level.priority == REMINDER_PRIORITY)
            .map_or(0.0, |level| {
                level.oldest_due_secs.unwrap_or(0.0)
                    + level.due_now as f64 / f64::from(free_per_sec.max(1))
            });
        let refused_for = state
            .refusal
            .as_ref()
            .filter(|refusal| refusal.current)
            .and_then(|refusal| (refusal.until - Utc::now()).to_std().ok());
        let spent = state.spent_today_tenths >= paid.settings.per_day.tenths;
        let paying = {
            let mut seen = paid.seen.lock().unwrap_or_else(|p| p.into_inner());
            seen.backlog_secs = backlog_secs;
            seen.closed = match (refused_for, spent) {
                (Some(pause), _) => Some((Closed::Refused, Instant::now() + pause)),
                (None, true) => Some((Closed::Spent, Instant::now() + WATCH_EVERY)),
                (None, false) => seen
                    .closed
                    .filter(|(why, until)| *why == Closed::Refused && *until > Instant::now()),
            };
            seen.closed.is_none() && backlog_secs > paid.settings.after.as_secs_f64()
        };
        in_flight.set_rate(if paying {
            PAID_MAX_PER_SEC
        } else {
            free_per_sec
        });
        metrics::paid_state(
            paying,
            refused_for.is_some(),
            state.spent_today_tenths as f64 / 10.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_read_and_print_with_one_decimal_at_most() {
        for (text, tenths) in [("250", 2500), ("12.5", 125), ("0.1", 1), (" 7 ", 70)] {
            let stars: Stars = text.parse().unwrap();
            assert_eq!(stars.tenths, tenths, "{text}");
        }
        assert_eq!(Stars { tenths: 125 }.to_string(), "12.5");
        assert_eq!(Stars { tenths: 2500 }.to_string(), "250");
        for bad in [
            "",
            "-1",
            "1.25",
            "1.",
            ".5",
            "ten",
            "1e3",
            "99999999999999999999",
        ] {
            assert!(bad.parse::<Stars>().is_err(), "{bad}");
        }
    }

    #[test]
    fn only_errors_about_paying_are_refusals() {
        let refused = SendFailure::Rejected("Bad Request: BALANCE_TOO_LOW".to_owned());
        assert_eq!(refusal(&refused), Some("Bad Request: BALANCE_TOO_LOW"));
        for other in [
            SendFailure::Rejected("Bad Request: message thread not found".to_owned()),
            SendFailure::Rejected("Bad Request: can't parse entities".to_owned()),
            SendFailure::Unreachable("Forbidden: bot was blocked by the user".to_owned()),
            SendFailure::Transient("502".to_owned()),
            SendFailure::Flood {
                retry_after: Duration::from_secs(1),
                error: "429".to_owned(),
            },
        ] {
            assert_eq!(refusal(&other), None, "{other:?}");
        }
    }
}
