//! The send budget in PostgreSQL, shared by every replica: the overall schedule of sends, each
//! chat's spacing and pauses, the recent 429s that make a flood, and which edit of a message is
//! the newest. The pacing that uses these rows is [`crate::egress::pacing`].
//!
//! Times are the database's (`now()`), so replicas whose clocks differ still keep one schedule;
//! a caller gets each answer both as a timestamp (to hand back) and as an offset from the
//! database's now (to sleep on its own clock).

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

use super::StoreError;
use crate::domain::ids::ChatId;
use pgqueue::{ClaimedJob, JobId};

/// The overall budget's row.
const BUDGET: &str = "telegram";

/// A schedule of overall slots (a `send_budget` row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Telegram's free limit, for every message.
    Free,
    /// The paid slots above it (`allow_paid_broadcast`), see [`super::paid_broadcast`].
    Paid,
}

impl Budget {
    /// Its row's name (a `send_budget` row).
    pub fn name(self) -> &'static str {
        match self {
            Self::Free => BUDGET,
            Self::Paid => "paid",
        }
    }
}
/// A slot this close to a chat's next free time counts as free (the statements that read and
/// write the times are a few milliseconds apart).
const TOLERANCE_SECS: f64 = 0.005;
/// 429s from this many different chats within [`FLOOD_WINDOW_SECS`] are a flood over the bot.
const FLOOD_CHATS: i64 = 3;
/// The window in which 429s of different chats count as one flood.
const FLOOD_WINDOW_SECS: f64 = 2.0;
/// How long a 429 is remembered for flood detection.
const THROTTLE_MEMORY_SECS: f64 = 60.0;

/// The answer to a request for overall send slots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slots {
    /// `count` consecutive slots, the first at `first`, `in_secs` from now (zero or a little
    /// ahead), each `interval` after the one before: send then.
    Granted {
        /// When the first slot is, by the database clock.
        first: DateTime<Utc>,
        /// How far ahead the first slot is, in seconds.
        in_secs: f64,
        /// How many slots were taken (at least one).
        count: u32,
    },
    /// No slot within the horizon: ask again in `in_secs`; `paused` when all sending is paused.
    Wait {
        /// When to ask again, in seconds.
        in_secs: f64,
        /// Whether a bot-wide pause (a flood) is the reason.
        paused: bool,
    },
}

/// Takes up to `max` consecutive slots of `budget`, as many as fall within `horizon` from now (at
/// least one when the next one does): the row's `next_at` moves on by one `interval` per slot.
/// One statement, one row (the SQL function `take_budget_slots`, migration 0018): replicas take
/// slots one batch after another, and a batch costs one round trip whatever the rate (at 1,000
/// messages a second, a slot each would be a thousand commits a second on one row).
#[tracing::instrument(skip_all)]
pub async fn take_slots<'e>(
    executor: impl PgExecutor<'e>,
    budget: Budget,
    interval: Duration,
    horizon: Duration,
    max: u32,
) -> Result<Slots, StoreError> {
    let row = sqlx::query!(
        r#"select first, count, in_secs, retry_secs as "retry_secs!", paused as "paused!"
           from take_budget_slots($1, $2, $3, $4)"#,
        budget.name(),
        interval.as_secs_f64(),
        horizon.as_secs_f64(),
        i32::try_from(max.max(1)).unwrap_or(i32::MAX),
    )
    .fetch_one(executor)
    .await?;
    Ok(Slots::read(
        row.first,
        row.count,
        row.in_secs,
        row.retry_secs,
        row.paused,
    ))
}

impl Slots {
    /// The answer as `take_budget_slots` gives it: granted when a first slot, its count and its
    /// offset are there, else a wait of `retry_secs`.
    pub(super) fn read(
        first: Option<DateTime<Utc>>,
        count: Option<i32>,
        in_secs: Option<f64>,
        retry_secs: f64,
        paused: bool,
    ) -> Self {
        match (first, count, in_secs) {
            (Some(first), Some(count), Some(in_secs)) => Self::Granted {
                first,
                in_secs: in_secs.max(0.0),
                count: u32::try_from(count.max(1)).unwrap_or(1),
            },
            _ => Self::Wait {
                in_secs: retry_secs.max(0.0),
                paused,
            },
        }
    }
}

/// Whether a chat whose pacing row says it may be sent to in `wait_secs` (`None`: no row yet, as
/// read with `extract(epoch from greatest(next_at, coalesce(paused_until, now())) - now())`) is
/// free now, as [`chat_wait`] decides; a caller that read the row with its own data (a reminder's
/// one read) skips that statement when it is.
pub fn chat_free(wait_secs: Option<f64>) -> bool {
    wait_secs.is_none_or(|wait| wait <= TOLERANCE_SECS)
}

/// Whether a chat may be sent to now: `None` when it may, else the seconds until it may (its
/// spacing or its 429 pause). With `in_line`, a caller that must wait takes a place in the chat's
/// line and gets the time of its own place, so that many messages for one chat come back one per
/// `interval` instead of all at once.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn chat_wait(
    conn: &mut PgConnection,
    chat_id: ChatId,
    interval: Duration,
    in_line: bool,
) -> Result<Option<f64>, StoreError> {
    let wait = sqlx::query_scalar!(
        r#"select extract(epoch from greatest(next_at, coalesce(paused_until, now())) - now())::float8
               as "wait!"
           from chat_sends where chat_id = $1"#,
        chat_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(wait) = wait.filter(|wait| *wait > TOLERANCE_SECS) else {
        return Ok(None);
    };
    if !in_line {
        return Ok(Some(wait));
    }
    let place = sqlx::query_scalar!(
        r#"update chat_sends
              set line_at = greatest(line_at, next_at, coalesce(paused_until, now()), now())
                            + make_interval(secs => $2)
            where chat_id = $1
           returning extract(epoch from line_at - make_interval(secs => $2) - now())::float8
               as "place!""#,
        chat_id.0,
        interval.as_secs_f64(),
    )
    .fetch_one(conn)
    .await?;
    Ok(Some(place.max(wait)))
}

/// What became of a booking of a chat for a send ([`book_chat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Booking {
    /// The claim is confirmed and the chat booked: send at the slot.
    Booked,
    /// The claim is confirmed but the chat is not free at the slot after all (another message took
    /// it meanwhile, or a 429 paused it): send nothing and come back.
    ChatBusy,
    /// The claim is not confirmed (the job was taken back, or its worker is marked missing):
    /// nothing was booked; send nothing.
    NotConfirmed,
}

/// Confirms `job`'s claim and books the chat for its send at `at` (an overall slot), in one
/// statement: the claim through the queue's `confirm_job` (pgqueue's `Queue::recheck` as a SQL
/// function: still `running` under this claim, its worker not marked missing, the lease extended
/// by `lease` from now), then, only when it is confirmed, the chat, whose next send may follow
/// `interval` later if it is free at `at`. A lost claim books nothing and must not send.
#[tracing::instrument(skip_all, fields(chat_id, job = job.id.0))]
pub async fn book_chat<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    at: DateTime<Utc>,
    interval: Duration,
    job: &ClaimedJob,
    lease: Duration,
) -> Result<Booking, StoreError> {
    let row = sqlx::query!(
        r#"with confirmed as (select confirm_job($5, $6, $7) as until),
           booked as (
               insert into chat_sends as c (chat_id, next_at)
               select $1::int8, $2::timestamptz + make_interval(secs => $3::float8)
               from confirmed where until is not null
               on conflict (chat_id) do update set next_at = excluded.next_at
               where c.next_at <= $2 + make_interval(secs => $4)
                 and (c.paused_until is null or c.paused_until <= $2)
               returning chat_id)
           select (select until is not null from confirmed) as "confirmed!",
                  exists (select from booked) as "booked!""#,
        chat_id.0,
        at,
        interval.as_secs_f64(),
        TOLERANCE_SECS,
        job.id.0,
        job.claim,
        lease.as_secs_f64(),
    )
    .fetch_one(executor)
    .await?;
    Ok(match (row.confirmed, row.booked) {
        (false, _) => Booking::NotConfirmed,
        (true, true) => Booking::Booked,
        (true, false) => Booking::ChatBusy,
    })
}

/// What a 429 paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseScope {
    /// Only the chat that got it.
    Chat,
    /// All sending: 429s came from several chats at once (Telegram's flood limit over the bot).
    Flood,
}

impl PauseScope {
    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Chat => "chat",
            Self::Flood => "flood",
        }
    }
}

/// Records a 429 for `chat_id` asking to wait `retry_after`: the chat pauses that long; when
/// 429s came from several chats within a short window, all sending pauses too, for at most
/// `flood_cap`. In one transaction, so that replicas getting 429s at once count them together.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn throttled(
    conn: &mut PgConnection,
    chat_id: ChatId,
    retry_after: Duration,
    flood_cap: Duration,
) -> Result<PauseScope, StoreError> {
    let pause_secs = retry_after.as_secs_f64();
    sqlx::query!(
        "insert into chat_sends as c (chat_id, paused_until)
             values ($1, now() + make_interval(secs => $2))
         on conflict (chat_id) do update
             set paused_until = greatest(coalesce(c.paused_until, now()), excluded.paused_until)",
        chat_id.0,
        pause_secs,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "with forgotten as (
             delete from send_throttles where at < now() - make_interval(secs => $2))
         insert into send_throttles (chat_id) values ($1)",
        chat_id.0,
        THROTTLE_MEMORY_SECS,
    )
    .execute(&mut *conn)
    .await?;
    let flood = sqlx::query_scalar!(
        r#"update send_budget
              set paused_until = greatest(coalesce(paused_until, now()),
                                          now() + make_interval(secs => $2))
            where name = $1
              and (select count(distinct chat_id) from send_throttles
                   where at >= now() - make_interval(secs => $3)) >= $4
           returning name"#,
        BUDGET,
        pause_secs.min(flood_cap.as_secs_f64()),
        FLOOD_WINDOW_SECS,
        FLOOD_CHATS,
    )
    .fetch_optional(conn)
    .await?;
    Ok(if flood.is_some() {
        PauseScope::Flood
    } else {
        PauseScope::Chat
    })
}

/// Makes job `job_id` the newest edit of message `message_id` in `chat_id`, in the transaction
/// that enqueues it: an older edit job of that message, still waiting, is then superseded.
#[tracing::instrument(skip_all, fields(chat_id, message_id))]
pub async fn newest_edit(
    conn: &mut PgConnection,
    chat_id: ChatId,
    message_id: i32,
    job_id: JobId,
) -> Result<(), StoreError> {
    sqlx::query!(
        "insert into message_edits (chat_id, message_id, job_id) values ($1, $2, $3)
         on conflict (chat_id, message_id) do update set job_id = excluded.job_id",
        chat_id.0,
        message_id,
        job_id.0,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether a newer edit of the message than job `job_id` is waiting (this one need not be sent).
#[tracing::instrument(skip_all, fields(chat_id, message_id))]
pub async fn edit_superseded<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    message_id: i32,
    job_id: JobId,
) -> Result<bool, StoreError> {
    let newest = sqlx::query_scalar!(
        "select job_id from message_edits where chat_id = $1 and message_id = $2",
        chat_id.0,
        message_id,
    )
    .fetch_optional(executor)
    .await?;
    Ok(newest.is_some_and(|newest| newest != job_id.0))
}

/// Forgets the message's newest edit once job `job_id`, that edit, has been sent.
#[tracing::instrument(skip_all, fields(chat_id, message_id))]
pub async fn edit_sent<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    message_id: i32,
    job_id: JobId,
) -> Result<(), StoreError> {
    sqlx::query!(
        "delete from message_edits where chat_id = $1 and message_id = $2 and job_id = $3",
        chat_id.0,
        message_id,
        job_id.0,
    )
    .execute(executor)
    .await?;
    Ok(())
}
