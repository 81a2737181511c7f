//! The morning agenda (`/agenda 8:00`): every day at a local time a chat gets the tasks due that
//! local day. One outbox job at a time ([`AgendaJob`], due at the next local time, DST-correct);
//! the next day's is enqueued in the transaction that records one as sent, skipped or given up
//! (the outbox's give-up hook), so the series never ends by accident, and a job that is no longer
//! the agenda's own (the setting changed or was turned off) continues nothing.

use chrono::{DateTime, Days, NaiveTime, Utc};
use chrono_tz::Tz;
use pgqueue::{ClaimedJob, JobId, NewJob, Queue, QueueError};
use sqlx::{PgConnection, PgPool};

use super::StoreError;
use super::chats::{Chat, ChatRow};
pub use super::jobs::AgendaJob;
use super::jobs::{OutboxJob, REMINDER_PRIORITY};
use super::task_model::{Task, TaskRow};
use super::types::{Corrupt, read};
use crate::domain::ids::ChatId;
use crate::domain::timezone::{resolve_local, to_local};

/// The most tasks an agenda lists; it says how many more there are.
pub const MAX_LISTED: i64 = 20;

/// A chat's agenda setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agenda {
    /// Its id.
    pub id: i64,
    /// The chat it goes to.
    pub chat_id: ChatId,
    /// The local time of day it comes at.
    pub time: NaiveTime,
    /// The zone the next one was scheduled in.
    pub zone: Tz,
    /// When the next one comes.
    pub next_at: DateTime<Utc>,
    /// The job that sends the next one.
    pub job_id: Option<JobId>,
    /// The instant of the last one sent.
    pub sent_for: Option<DateTime<Utc>>,
}

struct AgendaRow {
    id: i64,
    chat_id: ChatId,
    local_time: NaiveTime,
    tz: String,
    next_at: DateTime<Utc>,
    job_id: Option<i64>,
    sent_for: Option<DateTime<Utc>>,
}

impl TryFrom<AgendaRow> for Agenda {
    type Error = Corrupt;

    fn try_from(row: AgendaRow) -> Result<Self, Corrupt> {
        Ok(Self {
            zone: read("agendas", row.id, "tz", &row.tz, |tz| tz.parse().ok())?,
            id: row.id,
            chat_id: row.chat_id,
            time: row.local_time,
            next_at: row.next_at,
            job_id: row.job_id.map(JobId),
            sent_for: row.sent_for,
        })
    }
}

pub use crate::domain::recurrence::next_time_of_day as next_at;

/// The local day that the agenda due at `at` lists, as instants: `[start, end)` in `zone`.
pub fn day_of(at: DateTime<Utc>, zone: Tz) -> (DateTime<Utc>, DateTime<Utc>) {
    let day = to_local(zone, at).date();
    let next = day.checked_add_days(Days::new(1)).unwrap_or(day);
    (
        resolve_local(zone, day.and_time(NaiveTime::MIN)),
        resolve_local(zone, next.and_time(NaiveTime::MIN)),
    )
}

/// The chat's agenda, if it has one.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn find(conn: &mut PgConnection, chat_id: ChatId) -> Result<Option<Agenda>, StoreError> {
    let row = sqlx::query_as!(
        AgendaRow,
        r#"select id, chat_id as "chat_id: ChatId", local_time, tz, next_at, job_id, sent_for
           from agendas where chat_id = $1"#,
        chat_id.0,
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(Agenda::try_from).transpose()?)
}

/// Sets the chat's agenda to `time` in `zone` (replacing the setting it had, and its job) and
/// schedules the next one. Returns the agenda.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn set(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    time: NaiveTime,
    zone: Tz,
) -> Result<Agenda, StoreError> {
    let now = db_now(conn).await?;
    let next = next_at(time, zone, now);
    let old_job = sqlx::query_scalar!(
        "select job_id from agendas where chat_id = $1 for update",
        chat_id.0
    )
    .fetch_optional(&mut *conn)
    .await?
    .flatten();
    if let Some(job_id) = old_job {
        pgqueue::maintenance::cancel_job(&mut *conn, JobId(job_id)).await?;
    }
    let id = sqlx::query_scalar!(
        "insert into agendas (chat_id, local_time, tz, next_at) values ($1, $2, $3, $4)
         on conflict (chat_id) do update set local_time = excluded.local_time, tz = excluded.tz,
             next_at = excluded.next_at, job_id = null, paused = false, updated_at = now()
         returning id",
        chat_id.0,
        time,
        zone.name(),
        next,
    )
    .fetch_one(&mut *conn)
    .await?;
    enqueue(conn, queue, id, next).await?;
    find(conn, chat_id)
        .await?
        .ok_or_else(|| StoreError::Sql(sqlx::Error::RowNotFound))
}

/// Turns the chat's agenda off and cancels its job. Returns whether it had one.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn off(conn: &mut PgConnection, chat_id: ChatId) -> Result<bool, StoreError> {
    let deleted = sqlx::query_scalar!(
        "delete from agendas where chat_id = $1 returning job_id",
        chat_id.0
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(Some(job_id)) = deleted {
        pgqueue::maintenance::cancel_job(&mut *conn, JobId(job_id)).await?;
    }
    Ok(deleted.is_some())
}

/// An agenda as its job reads it just before sending: the setting and the chat it goes to.
#[derive(Clone, Debug, PartialEq)]
pub struct DueAgenda {
    /// The setting.
    pub agenda: Agenda,
    /// The chat, as it is now (its language and zone).
    pub chat: Chat,
}

impl DueAgenda {
    /// The zone the agenda is shown in: the chat's, or the one it was scheduled in.
    pub fn zone(&self) -> Tz {
        self.chat.zone.unwrap_or(self.agenda.zone)
    }
}

struct DueRow {
    id: i64,
    chat_id: ChatId,
    local_time: NaiveTime,
    tz: String,
    next_at: DateTime<Utc>,
    job_id: Option<i64>,
    sent_for: Option<DateTime<Utc>>,
    kind: String,
    lang: String,
    chat_tz: Option<String>,
    default_lead_secs: i32,
    reachable: bool,
}

/// Reads agenda `agenda_id` with its chat; `None` when it was turned off.
#[tracing::instrument(skip_all, fields(agenda_id))]
pub async fn load(pool: &PgPool, agenda_id: i64) -> Result<Option<DueAgenda>, StoreError> {
    let row = sqlx::query_as!(
        DueRow,
        r#"select a.id, a.chat_id as "chat_id: ChatId", a.local_time, a.tz, a.next_at, a.job_id,
                  a.sent_for, c.kind, c.lang, c.tz as chat_tz, c.default_lead_secs, c.reachable
           from agendas a join chats c on c.chat_id = a.chat_id
           where a.id = $1"#,
        agenda_id,
    )
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let chat = Chat::try_from(ChatRow {
        chat_id: row.chat_id,
        kind: row.kind,
        lang: row.lang,
        tz: row.chat_tz,
        default_lead_secs: row.default_lead_secs,
        reachable: row.reachable,
        has_paused_tasks: false,
    })?;
    let agenda = Agenda::try_from(AgendaRow {
        id: row.id,
        chat_id: row.chat_id,
        local_time: row.local_time,
        tz: row.tz,
        next_at: row.next_at,
        job_id: row.job_id,
        sent_for: row.sent_for,
    })?;
    Ok(Some(DueAgenda { agenda, chat }))
}

/// The chat's open tasks due in `[from, to)`, soonest first (at most [`MAX_LISTED`]), and how
/// many there are in all. A recurring task counts with the day's occurrence even when its
/// reminder has gone out and the task has moved on to its next one (a lead, an early agenda):
/// each task is listed at that day's deadline.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn day_tasks(
    pool: &PgPool,
    chat_id: ChatId,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<(Vec<Task>, i64), StoreError> {
    let rows = sqlx::query_as!(
        TaskRow,
        r#"select t.id, t.chat_id, t.owner_id, t.text, d.due_at as "due_at!", t.lead_secs,
                  t.rule, t.tz, t.state
           from tasks t
           cross join lateral (
               select min(due_at) as due_at
               from (select t.due_at
                     union all
                     select r.due_at from reminders r
                     where r.task_id = t.id and r.kind = 'occurrence') occurrences
               where due_at >= $2 and due_at < $3) d
           where t.chat_id = $1 and t.state = 'open' and d.due_at is not null
           order by d.due_at, t.id limit $4"#,
        chat_id.0,
        from,
        to,
        MAX_LISTED,
    )
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar!(
        r#"select count(*) as "count!" from tasks t
           where t.chat_id = $1 and t.state = 'open'
             and ((t.due_at >= $2 and t.due_at < $3)
                  or exists (select 1 from reminders r
                             where r.task_id = t.id and r.kind = 'occurrence'
                               and r.due_at >= $2 and r.due_at < $3))"#,
        chat_id.0,
        from,
        to,
    )
    .fetch_one(pool)
    .await?;
    let tasks = rows
        .into_iter()
        .map(Task::try_from)
        .collect::<Result<Vec<_>, _>>()?;
    Ok((tasks, total))
}

/// In one transaction: marks the agenda due at `agenda_at` sent, completes its job (fenced) and
/// schedules the next day's. A lost lease still records the send, so whoever holds the job now
/// completes it without sending.
#[tracing::instrument(skip_all, fields(job = job.id.0, agenda_id = payload.agenda_id))]
pub async fn sent(
    pool: &PgPool,
    queue: &Queue,
    job: &ClaimedJob,
    payload: AgendaJob,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query!(
        "update agendas set sent_for = $2, updated_at = now() where id = $1 and job_id = $3",
        payload.agenda_id,
        payload.agenda_at,
        job.id.0,
    )
    .execute(&mut *tx)
    .await?;
    match queue.complete(&mut *tx, job).await {
        Ok(()) | Err(QueueError::LeaseLost { .. }) => {}
        Err(error) => return Err(error.into()),
    }
    continue_series(&mut tx, queue, job.id, payload).await?;
    tx.commit().await?;
    Ok(())
}

/// In one transaction: completes the job without sending (its day is over, or the chat's zone
/// changed since it was scheduled) and schedules the next one in the chat's zone.
#[tracing::instrument(skip_all, fields(job = job.id.0, agenda_id = payload.agenda_id))]
pub async fn skip(
    pool: &PgPool,
    queue: &Queue,
    job: &ClaimedJob,
    payload: AgendaJob,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    queue.complete(&mut *tx, job).await?;
    continue_series(&mut tx, queue, job.id, payload).await?;
    tx.commit().await?;
    Ok(())
}

/// The agenda job `job_id` is over, whatever became of it (sent, skipped, failed, cancelled):
/// when it is still the agenda's own job, the next one is scheduled, at the agenda's time in the
/// chat's zone after both the job's instant and now, in the caller's transaction.
#[tracing::instrument(skip_all, fields(job = job_id.0, agenda_id = payload.agenda_id))]
pub async fn continue_series(
    conn: &mut PgConnection,
    queue: &Queue,
    job_id: JobId,
    payload: AgendaJob,
) -> Result<(), StoreError> {
    let current = sqlx::query!(
        r#"select a.local_time, coalesce(c.tz, a.tz) as "tz!" from agendas a
           join chats c on c.chat_id = a.chat_id
           where a.id = $1 and a.job_id = $2 for update of a"#,
        payload.agenda_id,
        job_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(current) = current else {
        return Ok(());
    };
    let zone: Tz = read("agendas", payload.agenda_id, "tz", &current.tz, |tz| {
        tz.parse().ok()
    })?;
    let now = db_now(conn).await?;
    let next = next_at(current.local_time, zone, payload.agenda_at.max(now));
    sqlx::query!(
        "update agendas set next_at = $2, tz = $3, job_id = null, updated_at = now() where id = $1",
        payload.agenda_id,
        next,
        zone.name(),
    )
    .execute(&mut *conn)
    .await?;
    enqueue(conn, queue, payload.agenda_id, next).await
}

/// The chat became unreachable (see [`super::reachability::mark_unreachable`]): its agenda
/// pauses instead of failing every morning. Its pending job is cancelled, except `running_job`
/// (the caller's own, which it records itself; with the agenda's job gone, that one continues no
/// series), and none is scheduled until [`resume`]. In the caller's transaction; returns whether
/// the chat had an agenda to pause.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn pause(
    conn: &mut PgConnection,
    chat_id: ChatId,
    running_job: Option<JobId>,
) -> Result<bool, StoreError> {
    let paused = sqlx::query_scalar!(
        "update agendas a set paused = true, job_id = null, updated_at = now()
         from (select id, job_id from agendas where chat_id = $1 and not paused for update) old
         where a.id = old.id
         returning old.job_id",
        chat_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(job) = paused else {
        return Ok(false);
    };
    if let Some(job_id) = job.filter(|job_id| Some(JobId(*job_id)) != running_job) {
        pgqueue::cancel_pending(&mut *conn, &[JobId(job_id)]).await?;
    }
    Ok(true)
}

/// The chat is back (see [`super::reachability::resume`]): a paused agenda is scheduled again,
/// at its time in the chat's zone after now (the mornings missed meanwhile are not sent). In the
/// caller's transaction; returns whether one resumed.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn resume(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
) -> Result<bool, StoreError> {
    let paused = sqlx::query!(
        r#"select a.id, a.local_time, coalesce(c.tz, a.tz) as "tz!" from agendas a
           join chats c on c.chat_id = a.chat_id
           where a.chat_id = $1 and a.paused for update of a"#,
        chat_id.0,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(paused) = paused else {
        return Ok(false);
    };
    let zone: Tz = read("agendas", paused.id, "tz", &paused.tz, |tz| tz.parse().ok())?;
    let next = next_at(paused.local_time, zone, db_now(conn).await?);
    sqlx::query!(
        "update agendas set paused = false, next_at = $2, tz = $3, job_id = null,
             updated_at = now()
         where id = $1",
        paused.id,
        next,
        zone.name(),
    )
    .execute(&mut *conn)
    .await?;
    enqueue(conn, queue, paused.id, next).await?;
    Ok(true)
}

/// The chats of the agendas that the jobs `job_ids` send (those of them that are agenda jobs).
pub async fn chats_of_jobs(
    conn: &mut PgConnection,
    job_ids: &[JobId],
) -> Result<Vec<ChatId>, StoreError> {
    let agenda_ids: Vec<i64> = pgqueue::inspect_many(&mut *conn, job_ids)
        .await?
        .into_iter()
        .filter_map(|job| match job.args::<OutboxJob>() {
            Ok(OutboxJob::Agenda(agenda)) => Some(agenda.agenda_id),
            _ => None,
        })
        .collect();
    Ok(sqlx::query_scalar!(
        r#"select chat_id as "chat_id: ChatId" from agendas where id = any($1)"#,
        &agenda_ids
    )
    .fetch_all(conn)
    .await?)
}

/// A group that became a supergroup: its agenda moves with it (unless the supergroup has its
/// own, which then stays and this one goes).
#[tracing::instrument(skip_all, fields(old_chat_id, new_chat_id))]
pub async fn move_chat(
    pool: &PgPool,
    old_chat_id: ChatId,
    new_chat_id: ChatId,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    let moved = sqlx::query!(
        "update agendas set chat_id = $2, updated_at = now()
         where chat_id = $1 and not exists (select 1 from agendas where chat_id = $2)",
        old_chat_id.0,
        new_chat_id.0,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if moved == 0 {
        off(&mut tx, old_chat_id).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Enqueues the job of agenda `agenda_id` due at `at` and links it.
async fn enqueue(
    conn: &mut PgConnection,
    queue: &Queue,
    agenda_id: i64,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let job = NewJob::of(&OutboxJob::Agenda(AgendaJob {
        agenda_id,
        agenda_at: at,
    }))
    .run_at(at)
    .priority(REMINDER_PRIORITY)
    .dedupe_key(format!("agenda:{agenda_id}:{}", at.timestamp()));
    let job_id = queue.enqueue(&mut *conn, job).await?;
    sqlx::query!(
        "update agendas set job_id = $2 where id = $1",
        agenda_id,
        job_id.map(|id| id.0),
    )
    .execute(conn)
    .await?;
    Ok(())
}

async fn db_now(conn: &mut PgConnection) -> Result<DateTime<Utc>, StoreError> {
    Ok(sqlx::query_scalar!(r#"select now() as "now!""#)
        .fetch_one(conn)
        .await?)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }

    #[test]
    fn eight_oclock_stays_eight_oclock_across_dst() {
        let eight = NaiveTime::from_hms_opt(8, 0, 0).unwrap();
        let berlin = chrono_tz::Europe::Berlin;
        // Berlin moves to summer time on 28 March 2027.
        let first = next_at(eight, berlin, utc(2027, 3, 26, 12, 0));
        assert_eq!(first, utc(2027, 3, 27, 7, 0));
        let second = next_at(eight, berlin, first);
        assert_eq!(second, utc(2027, 3, 28, 6, 0));
        let tashkent = chrono_tz::Asia::Tashkent;
        assert_eq!(next_at(eight, tashkent, first), utc(2027, 3, 28, 3, 0));
    }

    #[test]
    fn the_day_of_an_agenda_is_its_local_day() {
        let berlin = chrono_tz::Europe::Berlin;
        // The day of the change has 23 hours.
        let (from, to) = day_of(utc(2027, 3, 28, 6, 0), berlin);
        assert_eq!(
            (from, to),
            (utc(2027, 3, 27, 23, 0), utc(2027, 3, 28, 22, 0))
        );
    }
}
