//! Nagging until done: a task whose reminders repeat every few minutes until it is done
//! (`task_nags`). Each nag is an extra reminder (kind `snooze`, with its own job and `sent` flag),
//! so a snooze replaces it, and Done, a change or a deletion cancels it with the task's other
//! reminders not yet sent. After each reminder of such a task is sent, the next nag is scheduled
//! in the transaction that records the send ([`after_sent`]), until the cap: at most
//! [`MAX_NAGS`] nags after the reminder that starts a round, and none later than
//! [`MAX_ROUND`] after it.

use chrono::{DateTime, TimeDelta, Utc};
use pgqueue::JobId;
use pgqueue::Queue;
use sqlx::PgConnection;

use super::StoreError;
use super::occurrences;
use super::task_model::Task;
use super::types::{TaskState, read};
use crate::domain::ids::TaskId;

/// The most nags after one reminder.
pub const MAX_NAGS: u32 = 12;
/// How long after the reminder that starts them nags may come.
pub const MAX_ROUND: TimeDelta = TimeDelta::hours(24);

/// A task's nagging: how often, and how far the current round is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nag {
    /// The interval between nags.
    pub every: TimeDelta,
    /// The nag waiting to go out, if any.
    pub pending_reminder_id: Option<i64>,
    /// Nags sent since the reminder that started the round.
    pub round_sent: u32,
    /// Keep reminding under one reminder: only for the occurrence due then; `None` for "until
    /// done", which nags after every reminder of the task.
    pub only_for: Option<DateTime<Utc>>,
}

impl Nag {
    /// How many nags a round has at this interval: [`MAX_NAGS`], fewer when they would reach past
    /// [`MAX_ROUND`].
    pub fn round_len(&self) -> u32 {
        round_len(self.every)
    }
}

/// How many nags a round at `every` has (see [`Nag::round_len`]).
pub fn round_len(every: TimeDelta) -> u32 {
    let fit = MAX_ROUND.num_seconds() / every.num_seconds().max(1);
    u32::try_from(fit).unwrap_or(MAX_NAGS).min(MAX_NAGS)
}

/// Where a reminder stands in its task's nagging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NagProgress {
    /// This reminder is nag number `ordinal` of the round (from 1).
    pub ordinal: u32,
    /// Of that many.
    pub of: u32,
    /// The interval between nags.
    pub every: TimeDelta,
}

impl NagProgress {
    /// Whether this is the round's last nag (none follows it).
    pub fn is_last(&self) -> bool {
        self.ordinal >= self.of
    }
}

/// The columns of a `task_nags` row, read into a [`Nag`] with `try_from`.
pub struct NagRow {
    /// The task.
    pub task_id: i64,
    /// The interval in seconds.
    pub every_secs: i32,
    /// The nag waiting to go out.
    pub pending_reminder_id: Option<i64>,
    /// Nags sent in the current round.
    pub round_sent: i32,
    /// The occurrence Keep reminding is for.
    pub only_for: Option<DateTime<Utc>>,
}

impl TryFrom<NagRow> for Nag {
    type Error = super::types::Corrupt;

    fn try_from(row: NagRow) -> Result<Self, Self::Error> {
        let every = read(
            "task_nags",
            row.task_id,
            "every_secs",
            &row.every_secs.to_string(),
            |_| {
                (60..=86_400)
                    .contains(&row.every_secs)
                    .then(|| TimeDelta::seconds(row.every_secs.into()))
            },
        )?;
        Ok(Self {
            every,
            pending_reminder_id: row.pending_reminder_id,
            round_sent: u32::try_from(row.round_sent).unwrap_or(0),
            only_for: row.only_for,
        })
    }
}

/// The task's nagging, locked for the rest of the transaction; `None` when it does not nag.
async fn lock(conn: &mut PgConnection, task_id: TaskId) -> Result<Option<Nag>, StoreError> {
    let row = sqlx::query_as!(
        NagRow,
        "select task_id, every_secs, pending_reminder_id, round_sent, only_for from task_nags
         where task_id = $1 for update",
        task_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(Nag::try_from).transpose()?)
}

/// Makes the task nag every `every` after each of its reminders (a new task's "until done"). The
/// first nag follows its next reminder.
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn enable(
    conn: &mut PgConnection,
    task_id: TaskId,
    every: TimeDelta,
) -> Result<(), StoreError> {
    sqlx::query!(
        "insert into task_nags (task_id, every_secs) values ($1, $2)
         on conflict (task_id) do update set every_secs = excluded.every_secs, updated_at = now()",
        task_id.0,
        secs(every),
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Keep reminding, from now on (the button under the reminder message `message_id`): the task
/// nags (every `every`, unless it nags already at its own interval), and a new round starts with
/// its first nag `every` from now, replacing a nag still waiting. The nags belong to the
/// occurrence that message announced (a recurring task may have moved on since). Returns the
/// interval in force.
#[tracing::instrument(skip_all, fields(task = %task.id))]
pub async fn start_now(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    message_id: i64,
    every: TimeDelta,
) -> Result<TimeDelta, StoreError> {
    let announced = sqlx::query_scalar!(
        "select due_at from reminders where task_id = $1 and message_id = $2 and sent
         order by id desc limit 1",
        task.id.0,
        message_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let occurrence = announced.unwrap_or(task.due_at);
    // A task that nags already ("until done") keeps doing so after every reminder; otherwise
    // the nags are for this occurrence only.
    sqlx::query!(
        "insert into task_nags (task_id, every_secs, only_for) values ($1, $2, $3)
         on conflict (task_id) do update set only_for = excluded.only_for
             where task_nags.only_for is not null",
        task.id.0,
        secs(every),
        occurrence,
    )
    .execute(&mut *conn)
    .await?;
    let Some(nag) = lock(conn, task.id).await? else {
        return Ok(every);
    };
    schedule(conn, queue, task.id, occurrence, &nag, 0).await?;
    Ok(nag.every)
}

/// Reminder `reminder_id` of the task, for the occurrence due at `occurrence`, was just sent (in
/// the transaction that records it): schedules the round's next nag, or none when the cap is
/// reached. A reminder that is not the pending nag (the task's deadline, a snooze) starts a new
/// round. Nothing when the task does not nag or is no longer open.
#[tracing::instrument(skip_all, fields(task = %task.id, reminder_id))]
pub async fn after_sent(
    conn: &mut PgConnection,
    queue: &Queue,
    task: &Task,
    reminder_id: i64,
    occurrence: DateTime<Utc>,
) -> Result<(), StoreError> {
    if !task.is_open() {
        return Ok(());
    }
    // Done may have come meanwhile (the reminder is on the user's screen): read the task again,
    // locked, as Done locks it.
    let open = sqlx::query_scalar!(
        r#"select state = $2 as "open!" from tasks where id = $1 for update"#,
        task.id.0,
        TaskState::Open.as_str(),
    )
    .fetch_optional(&mut *conn)
    .await?;
    if open != Some(true) {
        return Ok(());
    }
    let Some(nag) = lock(conn, task.id).await? else {
        return Ok(());
    };
    let sent = if nag.pending_reminder_id == Some(reminder_id) {
        nag.round_sent.saturating_add(1)
    } else {
        0
    };
    // Keep reminding was for one occurrence: a later one's reminder does not nag.
    if nag.only_for.is_some_and(|only_for| occurrence > only_for) {
        cancel_pending(conn, &nag).await?;
        return forget(conn, task.id).await;
    }
    if sent >= nag.round_len() {
        sqlx::query!(
            "update task_nags set round_sent = $2, pending_reminder_id = null, updated_at = now()
             where task_id = $1",
            task.id.0,
            i32::try_from(sent).unwrap_or(i32::MAX),
        )
        .execute(&mut *conn)
        .await?;
        return Ok(());
    }
    schedule(conn, queue, task.id, occurrence, &nag, sent).await
}

/// Where reminder `reminder_id` stands in the task's nagging: `None` unless it is the nag waiting
/// to go out.
pub fn progress(nag: &Nag, reminder_id: i64) -> Option<NagProgress> {
    (nag.pending_reminder_id == Some(reminder_id)).then(|| NagProgress {
        ordinal: nag.round_sent + 1,
        of: nag.round_len(),
        every: nag.every,
    })
}

/// Done for the current occurrence of a recurring task (whose task stays open): its nag waiting
/// to go out is cancelled; the task keeps nagging after its next reminders.
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn stop_round(conn: &mut PgConnection, task_id: TaskId) -> Result<(), StoreError> {
    let Some(nag) = lock(conn, task_id).await? else {
        return Ok(());
    };
    cancel_pending(conn, &nag).await?;
    if nag.only_for.is_some() {
        forget(conn, task_id).await?;
    }
    Ok(())
}

/// The task nags no more (the occurrence Keep reminding was for is over).
async fn forget(conn: &mut PgConnection, task_id: TaskId) -> Result<(), StoreError> {
    sqlx::query!("delete from task_nags where task_id = $1", task_id.0)
        .execute(conn)
        .await?;
    Ok(())
}

/// Cancels the nag waiting to go out, if it has not gone yet.
async fn cancel_pending(conn: &mut PgConnection, nag: &Nag) -> Result<(), StoreError> {
    let Some(reminder_id) = nag.pending_reminder_id else {
        return Ok(());
    };
    let job = sqlx::query_scalar!(
        "delete from reminders where id = $1 and not sent returning job_id",
        reminder_id,
    )
    .fetch_optional(&mut *conn)
    .await?
    .flatten();
    if let Some(job_id) = job {
        pgqueue::maintenance::cancel_job(&mut *conn, JobId(job_id)).await?;
    }
    Ok(())
}

/// Replaces the pending nag with nag number `sent + 1` of the round, `nag.every` from now, for
/// the occurrence due at `occurrence`.
async fn schedule(
    conn: &mut PgConnection,
    queue: &Queue,
    task_id: TaskId,
    occurrence: DateTime<Utc>,
    nag: &Nag,
    sent: u32,
) -> Result<(), StoreError> {
    cancel_pending(conn, nag).await?;
    let now: DateTime<Utc> = sqlx::query_scalar!(r#"select now() as "now!""#)
        .fetch_one(&mut *conn)
        .await?;
    let fire_at = now + nag.every;
    let reminder_id =
        occurrences::add_extra_reminder(conn, queue, task_id, occurrence, fire_at).await?;
    sqlx::query!(
        "update task_nags set pending_reminder_id = $2, round_sent = $3, updated_at = now()
         where task_id = $1",
        task_id.0,
        reminder_id,
        i32::try_from(sent).unwrap_or(i32::MAX),
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// An interval as stored, in seconds.
fn secs(every: TimeDelta) -> i32 {
    i32::try_from(every.num_seconds()).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_twelve_nags_within_a_day() {
        assert_eq!(round_len(TimeDelta::minutes(10)), 12);
        assert_eq!(round_len(TimeDelta::minutes(1)), 12);
        assert_eq!(round_len(TimeDelta::hours(2)), 12);
        assert_eq!(round_len(TimeDelta::hours(3)), 8);
        assert_eq!(round_len(TimeDelta::hours(24)), 1);
        let nag = Nag {
            every: TimeDelta::minutes(10),
            pending_reminder_id: Some(7),
            round_sent: 11,
            only_for: None,
        };
        let last = progress(&nag, 7).unwrap();
        assert_eq!((last.ordinal, last.of, last.is_last()), (12, 12, true));
        assert_eq!(progress(&nag, 8), None);
    }
}
