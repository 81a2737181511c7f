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
use super::budget::{self, Budget, Slots};

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
    /// Slots as [`budget::take_slots`] gives them (granted, or the paid schedule is full for the
    /// horizon), each counted against today's budget.
    Open(Slots),
    /// None for now.
    Closed(Closed),
}

/// Takes up to `max` paid slots `interval` apart within `horizon` (see [`budget::take_slots`]),
/// no more than today's budget of `tenths_per_day` has left, and counts them against it; one
/// transaction, so that replicas taking slots at once count them together (today's row is locked
/// first).
#[tracing::instrument(skip_all)]
pub async fn take_slots(
    pool: &PgPool,
    interval: Duration,
    horizon: Duration,
    max: u32,
    tenths_per_day: i64,
) -> Result<PaidSlots, StoreError> {
    let mut tx = pool.begin().await?;
    let spent = sqlx::query_scalar!(
        "insert into paid_broadcast_days as d (day) values ((now() at time zone 'utc')::date)
         on conflict (day) do update set spent_tenths = d.spent_tenths
         returning spent_tenths",
    )
    .fetch_one(&mut *tx)
    .await?;
    let stops = sqlx::query!(
        r#"select exists (select 1 from paid_broadcast_refusal where until > now()) as "refused!",
                  exists (select 1 from send_budget where name = $1 and paused_until > now())
                      as "flood!""#,
        Budget::Free.name(),
    )
    .fetch_one(&mut *tx)
    .await?;
    let left = (tenths_per_day - spent) / TENTHS_PER_MESSAGE;
    let closed = if stops.refused {
        Some(Closed::Refused)
    } else if stops.flood {
        Some(Closed::Flood)
    } else if left <= 0 {
        Some(Closed::Spent)
    } else {
        None
    };
    if let Some(closed) = closed {
        tx.commit().await?;
        return Ok(PaidSlots::Closed(closed));
    }
    let max = max.min(u32::try_from(left).unwrap_or(u32::MAX));
    let slots = budget::take_slots(&mut *tx, Budget::Paid, interval, horizon, max).await?;
    if let Slots::Granted { count, .. } = slots {
        sqlx::query!(
            "update paid_broadcast_days set spent_tenths = spent_tenths + $1
             where day = (now() at time zone 'utc')::date",
            i64::from(count) * TENTHS_PER_MESSAGE,
        )
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(PaidSlots::Open(slots))
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
