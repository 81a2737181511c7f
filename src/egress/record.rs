//! The delivery worker's reads and writes: what a reminder job needs to send, and the outcomes
//! recorded together with the job's own transition, in one transaction.

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use pgqueue::{ClaimedJob, Queue, QueueError};

use crate::domain::ids::ChatId;
use crate::store::chats::{Chat, ChatRow};
use crate::store::nags::{Nag, NagRow};
use crate::store::quotes::Quote;
use crate::store::tasks::{Task, TaskRow};
use crate::store::types::{Corrupt, ErrorClass, ReminderKind, TaskState, read};
use crate::store::{StoreError, cards, nags, reachability, tasks};

/// A reminder with its task and chat, as read just before sending.
#[derive(Clone, Debug, PartialEq)]
pub struct DueReminder {
    /// The reminder occurrence.
    pub reminder_id: i64,
    /// Whether it follows the schedule or is a snooze.
    pub kind: ReminderKind,
    /// The occurrence's deadline.
    pub due_at: DateTime<Utc>,
    /// When it was meant to go out.
    pub fire_at: DateTime<Utc>,
    /// Whether it went out already.
    pub sent: bool,
    /// How overdue it is now (database clock), in seconds.
    pub overdue_secs: f64,
    /// Its task, as it is now.
    pub task: Task,
    /// Where it goes.
    pub chat: Chat,
    /// The message the task reminds of, if any.
    pub quote: Option<Quote>,
    /// The task's nagging, if it nags.
    pub nag: Option<Nag>,
    /// The number of the task's current occurrence in its series (1 for a one-off task).
    pub occurrence: u32,
    /// How long until the chat may be sent to, as read (its spacing or 429 pause; `None` when it
    /// has no pacing row yet): see [`crate::store::budget::chat_free`].
    pub chat_wait_secs: Option<f64>,
}

impl DueReminder {
    /// Whether the chat is a group or supergroup (the per-group limit applies).
    pub fn is_group(&self) -> bool {
        self.chat.kind.is_group() || self.chat.chat_id.0 < 0
    }
}

/// A reminder joined with its task and chat, as stored.
struct DueRow {
    reminder_id: i64,
    kind: String,
    due_at: DateTime<Utc>,
    fire_at: DateTime<Utc>,
    sent: bool,
    overdue_secs: f64,
    task_id: i64,
    owner_id: i64,
    text: String,
    task_due_at: DateTime<Utc>,
    lead_secs: i32,
    rule: Option<String>,
    task_tz: String,
    task_state: String,
    chat_id: ChatId,
    chat_kind: String,
    lang: String,
    chat_tz: Option<String>,
    default_lead_secs: i32,
    reachable: bool,
    has_paused_tasks: bool,
    quote: Option<String>,
    quote_message_id: Option<i64>,
    nag_every_secs: Option<i32>,
    nag_pending_reminder_id: Option<i64>,
    nag_round_sent: Option<i32>,
    nag_only_for: Option<DateTime<Utc>>,
    occurrence: i32,
    chat_wait_secs: Option<f64>,
}

impl TryFrom<DueRow> for DueReminder {
    type Error = Corrupt;

    fn try_from(row: DueRow) -> Result<Self, Corrupt> {
        let kind = read(
            "reminders",
            row.reminder_id,
            "kind",
            &row.kind,
            ReminderKind::from_stored,
        )?;
        let task = Task::try_from(TaskRow {
            id: row.task_id,
            chat_id: row.chat_id.0,
            owner_id: row.owner_id,
            text: row.text,
            due_at: row.task_due_at,
            lead_secs: row.lead_secs,
            rule: row.rule,
            tz: row.task_tz,
            state: row.task_state,
        })?;
        let chat = Chat::try_from(ChatRow {
            chat_id: row.chat_id,
            kind: row.chat_kind,
            lang: row.lang,
            tz: row.chat_tz,
            default_lead_secs: row.default_lead_secs,
            reachable: row.reachable,
            has_paused_tasks: row.has_paused_tasks,
        })?;
        let nag = match (row.nag_every_secs, row.nag_round_sent) {
            (Some(every_secs), Some(round_sent)) => Some(Nag::try_from(NagRow {
                task_id: row.task_id,
                every_secs,
                pending_reminder_id: row.nag_pending_reminder_id,
                round_sent,
                only_for: row.nag_only_for,
            })?),
            _ => None,
        };
        Ok(Self {
            reminder_id: row.reminder_id,
            kind,
            due_at: row.due_at,
            fire_at: row.fire_at,
            sent: row.sent,
            overdue_secs: row.overdue_secs,
            task,
            chat,
            quote: row.quote.map(|text| Quote {
                text,
                message_id: row.quote_message_id,
            }),
            nag,
            occurrence: read(
                "tasks",
                row.task_id,
                "occurrence",
                &row.occurrence.to_string(),
                |_| {
                    u32::try_from(row.occurrence)
                        .ok()
                        .filter(|index| *index >= 1)
                },
            )?,
            chat_wait_secs: row.chat_wait_secs,
        })
    }
}

/// Reads reminder `reminder_id` with its task and chat, and what the task quotes and how it
/// nags, and the chat's pacing row (one round trip for everything a reminder shows and for the
/// first step of its pacing); `None` when it is gone.
#[tracing::instrument(skip_all, fields(reminder_id))]
pub async fn load(pool: &PgPool, reminder_id: i64) -> Result<Option<DueReminder>, StoreError> {
    let row = sqlx::query_as!(
        DueRow,
        r#"select r.id as reminder_id, r.kind, r.due_at, r.fire_at, r.sent,
                  extract(epoch from now() - r.fire_at)::float8 as "overdue_secs!",
                  t.id as task_id, t.owner_id, t.text, t.due_at as task_due_at, t.lead_secs,
                  t.rule, t.tz as task_tz, t.state as task_state,
                  c.chat_id as "chat_id: ChatId", c.kind as chat_kind, c.lang, c.tz as chat_tz, c.default_lead_secs,
                  c.reachable,
                  exists (select 1 from tasks p where p.chat_id = c.chat_id and p.state = 'paused')
                      as "has_paused_tasks!",
                  q.quote as "quote?", q.message_id as "quote_message_id?",
                  n.every_secs as "nag_every_secs?",
                  n.pending_reminder_id as "nag_pending_reminder_id?",
                  n.round_sent as "nag_round_sent?", n.only_for as "nag_only_for?",
                  t.occurrence,
                  extract(epoch from greatest(s.next_at, coalesce(s.paused_until, now())) - now())::float8
                      as "chat_wait_secs?"
           from reminders r
           join tasks t on t.id = r.task_id
           join chats c on c.chat_id = t.chat_id
           left join task_quotes q on q.task_id = t.id
           left join task_nags n on n.task_id = t.id
           left join chat_sends s on s.chat_id = c.chat_id
           where r.id = $1"#,
        reminder_id,
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(DueReminder::try_from).transpose()?)
}

/// What recording a sent reminder did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recorded {
    /// The reminder is marked sent.
    Sent {
        /// From due to sent, by the database clock.
        lateness_secs: f64,
        /// False when the job's lease was lost meanwhile (the `sent` flag was still written).
        completed: bool,
    },
    /// The reminder row is gone: its task was changed or deleted while the message was on its
    /// way, which cancelled the job too. Nothing is left to record.
    Gone,
}

/// In one transaction: marks the reminder sent (with Telegram's message id when known), completes
/// the job (fenced), resumes the chat if it was marked unreachable (Telegram just delivered to
/// it), schedules the next occurrence of a recurring task and the next nag of a task that nags
/// until done. A lost lease still commits the `sent` flag, so that whoever holds the job now
/// completes it without sending.
///
/// When the chat was reachable and the task neither nags nor recurs (as read), the usual case is one
/// statement ([`sent_alone`]); a reminder whose task has more to do (older cards to close, a next
/// occurrence) takes the transaction.
#[tracing::instrument(skip_all, fields(job = job.id.0, reminder_id = due.reminder_id))]
pub async fn sent(
    pool: &PgPool,
    queue: &Queue,
    job: &ClaimedJob,
    due: &DueReminder,
    message_id: Option<i64>,
) -> Result<Recorded, StoreError> {
    if due.chat.reachable
        && due.nag.is_none()
        && due.task.recurrence.is_none()
        && let Some(recorded) = sent_alone(pool, job, due, message_id).await?
    {
        return Ok(recorded);
    }
    let mut tx = pool.begin().await?;
    let lateness_secs = sqlx::query_scalar!(
        r#"update reminders set sent = true, sent_at = now(), message_id = $2 where id = $1
           returning extract(epoch from sent_at - fire_at)::float8 as "lateness!""#,
        due.reminder_id,
        message_id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(lateness_secs) = lateness_secs else {
        return Ok(Recorded::Gone);
    };
    let completed = match queue.complete(&mut *tx, job).await {
        Ok(()) => true,
        Err(QueueError::LeaseLost { .. }) => false,
        Err(error) => return Err(error.into()),
    };
    // The new card is the task's live one: older cards lose their buttons.
    let newest = message_id.map_or(cards::Keep::None, cards::Keep::Live);
    cards::close(&mut tx, queue, due.chat.chat_id, due.task.id, newest).await?;
    if !due.chat.reachable {
        reachability::resume(&mut tx, queue, due.chat.chat_id).await?;
    }
    tasks::continue_series(&mut tx, queue, due.reminder_id).await?;
    // A nag starts or goes on only for a task that nags (Keep reminding tapped since it was
    // read schedules its own).
    if due.nag.is_some() {
        nags::after_sent(&mut tx, queue, &due.task, due.reminder_id, due.due_at).await?;
    }
    tx.commit().await?;
    Ok(Recorded::Sent {
        lateness_secs,
        completed,
    })
}

/// [`sent`] in one statement (one round trip, no explicit transaction) for a reminder after which
/// nothing else is to be done: no older card of its task to close ([`cards::close`]) and no next
/// occurrence to schedule ([`tasks::continue_series`]). The statement checks both itself and then
/// marks the reminder sent and completes the job through the queue's `complete_job` (the fence of
/// [`Queue::complete`]: still `running` under the same claim; the queue's table is written by the
/// queue's own function) together, or writes nothing and says `None`: the caller takes the
/// transaction instead.
///
/// The older cards are looked for among the task's reminders (`reminders_by_task`, a handful of
/// rows), their conditions tested on each row rather than in the `where` clause: the partial
/// index `reminders_sent` (every sent reminder) then matches no condition, so the plan cannot
/// become a scan of all sent reminders filtered by task, which statistics made before a herd
/// drains (nothing sent yet) would otherwise choose while the drain fills that index.
async fn sent_alone(
    pool: &PgPool,
    job: &ClaimedJob,
    due: &DueReminder,
    message_id: Option<i64>,
) -> Result<Option<Recorded>, StoreError> {
    let row = sqlx::query!(
        r#"with more as (
               select coalesce((select bool_or(o.sent and o.card_live
                                               and o.message_id is not null
                                               and o.message_id is distinct from $2)
                                from reminders o where o.task_id = $3), false)
                   or exists (select 1 from reminders r join tasks t on t.id = r.task_id
                              where r.id = $1 and r.kind = $6 and r.due_at >= t.due_at
                                and t.state = $7 and t.rule is not null) as needed),
           marked as (
               update reminders set sent = true, sent_at = now(), message_id = $2
                where id = $1 and not (select needed from more)
               returning extract(epoch from sent_at - fire_at)::float8 as lateness),
           done as (
               select complete_job($4, $5) as completed from marked)
           select (select needed from more) as "needed!",
                  (select lateness from marked) as lateness,
                  coalesce((select completed from done), false) as "completed!""#,
        due.reminder_id,
        message_id,
        due.task.id.0,
        job.id.0,
        job.claim,
        ReminderKind::Occurrence.as_str(),
        TaskState::Open.as_str(),
    )
    .fetch_one(pool)
    .await?;
    if row.needed {
        return Ok(None);
    }
    Ok(Some(match row.lateness {
        Some(lateness_secs) => Recorded::Sent {
            lateness_secs,
            completed: row.completed,
        },
        None => Recorded::Gone,
    }))
}

/// In one transaction: fails the job with `reason`, marks the chat unreachable and pauses its
/// recurring tasks.
#[tracing::instrument(skip_all, fields(job = job.id.0, chat_id))]
pub async fn unreachable(
    pool: &PgPool,
    queue: &Queue,
    job: &ClaimedJob,
    chat_id: ChatId,
    reason: &str,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    reachability::mark_unreachable(&mut tx, chat_id, reason, Some(job.id)).await?;
    queue
        .fail(&mut tx, job, ErrorClass::Unreachable.error(reason))
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Moves a migrated group's tasks to the supergroup's id.
#[tracing::instrument(skip_all, fields(old_chat_id, new_chat_id))]
pub async fn migrated(
    pool: &PgPool,
    old_chat_id: ChatId,
    new_chat_id: ChatId,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    reachability::migrate_chat(&mut tx, old_chat_id, new_chat_id).await?;
    tx.commit().await?;
    Ok(())
}
