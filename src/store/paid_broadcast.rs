//! Paid broadcast's rows, shared by every replica: the paid slots (the `send_budget` row `paid`),
//! the Stars given to them per UTC day (`paid_broadcast_days`, in tenths of a Star) and the last
//! refusal (`paid_broadcast_refusal`). The decision to pay is [`crate::egress::paid`].
//!
//! A slot is counted as spent when it is taken, before its message leaves, in the transaction that
//! takes it: the count is an upper bound of what Telegram charges (it charges only messages over
//! the free limit; a slot left unused counts too), so Telegram never takes more than the budget.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};

use super::StoreError;
use super::budget::{Budget, Slots};

/// What a paid message costs, in tenths of a Star (the Bot API: 0.1 Star a message).
pub const TENTHS_PER_MESSAGE: i64 = 1;

/// Why no paid slot is to be had for now, whatever the wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Telegram refused a paid send lately: none until the refusal's pause ends.
    Refused,
    /// Today's budget (UTC) is spent.
    Spent,
    /// All sending is paused after a flood of 429s.
    Flood,
}

/// The answer to a request for paid slots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PaidSlots {
    /// Slots as [`super::budget::take_slots`] gives them (granted, or the paid schedule is full
    /// for the horizon), each counted against today's budget.
    Open(Slots),
    /// None for now.
    Closed(Closed),
}

/// Takes up to `max` paid slots `interval` apart within `horizon` (see
/// [`super::budget::take_slots`]), no more than today's budget of `tenths_per_day` has left, and
/// counts them against it. One statement, the SQL function `take_paid_slots` (migration 0018),
/// whose statements run as the transaction did: today's row is locked first, so that replicas
/// taking slots at once count them together.
#[tracing::instrument(skip_all)]
pub async fn take_slots(
    pool: &PgPool,
    interval: Duration,
    horizon: Duration,
    max: u32,
    tenths_per_day: i64,
) -> Result<PaidSlots, StoreError> {
    let row = sqlx::query!(
        r#"select refused as "refused!", flood as "flood!", spent_tenths as "spent_tenths!",
                  first, count, in_secs, retry_secs, paused
           from take_paid_slots($1, $2, $3, $4, $5, $6)"#,
        interval.as_secs_f64(),
        horizon.as_secs_f64(),
        i32::try_from(max.max(1)).unwrap_or(i32::MAX),
        tenths_per_day,
        TENTHS_PER_MESSAGE,
        Budget::Free.name(),
    )
    .fetch_one(pool)
    .await?;
    let left = (tenths_per_day - row.spent_tenths) / TENTHS_PER_MESSAGE;
    let closed = if row.refused {
        Some(Closed::Refused)
    } else if row.flood {
        Some(Closed::Flood)
    } else if left <= 0 {
        Some(Closed::Spent)
    } else {
        None
    };
    Ok(match closed {
        Some(closed) => PaidSlots::Closed(closed),
        None => PaidSlots::Open(Slots::read(
            row.first,
            row.count,
            row.in_secs,
            row.retry_secs.unwrap_or_default(),
            row.paused.unwrap_or_default(),
        )),
    })
}

/// Records that Telegram refused a paid send with `reason`: no replica takes paid slots for
/// `pause`. Returns when the pause ends.
#[tracing::instrument(skip_all)]
pub async fn refused<'e>(
    executor: impl PgExecutor<'e>,
    reason: &str,
    pause: Duration,
) -> Result<DateTime<Utc>, StoreError> {
    let until = sqlx::query_scalar!(
        "insert into paid_broadcast_refusal (refused_at, until, reason)
             values (now(), now() + make_interval(secs => $1), $2)
         on conflict (only_row) do update
             set refused_at = excluded.refused_at, until = excluded.until,
                 reason = excluded.reason
         returning until",
        pause.as_secs_f64(),
        reason,
    )
    .fetch_one(executor)
    .await?;
    Ok(until)
}

/// Telegram's last refusal of a paid send.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// When.
    pub at: DateTime<Utc>,
    /// Until when paid sends stop.
    pub until: DateTime<Utc>,
    /// What Telegram said.
    pub reason: String,
    /// Whether the pause still runs.
    pub current: bool,
}

/// Where paid broadcast stands, as every replica sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct PaidState {
    /// The Stars given to paid slots today (UTC), in tenths.
    pub spent_today_tenths: i64,
    /// The last refusal, if any.
    pub refusal: Option<Refusal>,
}

/// Reads today's spending and the last refusal.
#[tracing::instrument(skip_all)]
pub async fn state<'e>(executor: impl PgExecutor<'e>) -> Result<PaidState, StoreError> {
    let row = sqlx::query!(
        r#"select coalesce((select spent_tenths from paid_broadcast_days
                            where day = (now() at time zone 'utc')::date), 0) as "spent!",
                  r.refused_at as "refused_at?", r.until as "until?", r.reason as "reason?",
                  coalesce(r.until > now(), false) as "current!"
           from (select 1) one
           left join paid_broadcast_refusal r on true"#,
    )
    .fetch_one(executor)
    .await?;
    let refusal = match (row.refused_at, row.until, row.reason) {
        (Some(at), Some(until), Some(reason)) => Some(Refusal {
            at,
            until,
            reason,
            current: row.current,
        }),
        _ => None,
    };
    Ok(PaidState {
        spent_today_tenths: row.spent,
        refusal,
    })
}
