//! The per-user message rate's state, one row per user who wrote lately, shared by every replica
//! (see [`crate::bot::limits`]).

use chrono::{DateTime, TimeDelta, Utc};
use sqlx::{PgConnection, PgPool};

use super::StoreError;
use crate::domain::ids::UserId;

/// A user's rate state as the update's transaction holds it (the row locked until it ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateState {
    /// When the user's next message would arrive at exactly the rate (now for a new user).
    pub tat: DateTime<Utc>,
    /// When they were last told to wait.
    pub warned_at: Option<DateTime<Utc>>,
    /// The database's clock.
    pub now: DateTime<Utc>,
}

/// Counts one message of `user_id` when it fits within the rate, in one statement: their next
/// theoretical arrival moves on by `interval` (from now, for a new user or one whose rate has
/// recovered) as long as it stays within `window` of now. Returns whether it fitted; either way the
/// row is locked for the rest of the transaction (a new user's created), and when it did not fit
/// nothing changed, for [`hold`] and [`set`] to judge.
pub async fn take_within(
    conn: &mut PgConnection,
    user_id: UserId,
    interval: TimeDelta,
    window: TimeDelta,
) -> Result<bool, StoreError> {
    let micros = |delta: TimeDelta| delta.num_microseconds().unwrap_or(i64::MAX);
    let taken = sqlx::query_scalar!(
        "insert into user_rates as r (user_id, tat)
             values ($1, now() + $2::bigint * interval '1 microsecond')
         on conflict (user_id) do update
             set tat = greatest(r.tat, now()) + $2::bigint * interval '1 microsecond'
             where greatest(r.tat, now()) + $2::bigint * interval '1 microsecond' - now()
                   <= $3::bigint * interval '1 microsecond'
         returning r.user_id",
        user_id.0,
        micros(interval),
        micros(window),
    )
    .fetch_optional(conn)
    .await?;
    Ok(taken.is_some())
}

/// Reads `user_id`'s state, locking its row for the rest of the transaction (a new user's is
/// created), so that replicas count one user's messages one at a time.
pub async fn hold(conn: &mut PgConnection, user_id: UserId) -> Result<RateState, StoreError> {
    let row = sqlx::query!(
        r#"insert into user_rates (user_id, tat) values ($1, now())
           on conflict (user_id) do update set user_id = excluded.user_id
           returning tat, warned_at, now() as "now!""#,
        user_id.0,
    )
    .fetch_one(conn)
    .await?;
    Ok(RateState {
        tat: row.tat,
        warned_at: row.warned_at,
        now: row.now,
    })
}

/// Stores `user_id`'s new state.
pub async fn set(
    conn: &mut PgConnection,
    user_id: UserId,
    tat: DateTime<Utc>,
    warned_at: Option<DateTime<Utc>>,
) -> Result<(), StoreError> {
    sqlx::query!(
        "update user_rates set tat = $2, warned_at = $3 where user_id = $1",
        user_id.0,
        tat,
        warned_at,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes the rows of users whose rate has fully recovered (and who could be warned again);
/// returns how many.
pub async fn forget_recovered(pool: &PgPool) -> Result<u64, StoreError> {
    Ok(sqlx::query!(
        "delete from user_rates where tat <= now()
           and (warned_at is null or warned_at <= now() - interval '1 minute')"
    )
    .execute(pool)
    .await?
    .rows_affected())
}
