//! The reminder queue as the store uses it: the job's payload, the queue handle with its give-up
//! hook, and the hook itself, which keeps a recurring task's series going whatever became of one
//! occurrence's job (failed for good, cancelled by a handler, failed by the reaper).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};

use super::tasks;
use pgqueue::{GiveUpHook, GivenUpJob, JobKind, Queue, QueueConfig, hook::HookFuture};

/// The queue that reminder jobs go to.
pub const REMINDER_QUEUE: &str = "reminders";

/// What a reminder job carries: the reminder occurrence it delivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReminderJob {
    /// The `reminders` row.
    pub reminder_id: i64,
}

impl JobKind for ReminderJob {
    const QUEUE: &'static str = REMINDER_QUEUE;
}

/// The `reminders` queue with `config` (its name is forced to [`REMINDER_QUEUE`]) and the hook
/// that keeps series going. Every handle on the reminder queue must come from here.
pub fn reminder_queue(pool: PgPool, config: QueueConfig) -> Queue {
    let config = QueueConfig {
        name: REMINDER_QUEUE.to_owned(),
        ..config
    };
    Queue::new(pool, config).with_give_up_hook(Arc::new(KeepSeries))
}

/// The give-up hook of the reminder queue: the next occurrence of the job's task is scheduled in
/// the transaction that gives the job up (see [`tasks::continue_series`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct KeepSeries;

impl GiveUpHook for KeepSeries {
    fn gave_up<'a>(
        &'a self,
        queue: &'a Queue,
        conn: &'a mut PgConnection,
        job: &'a GivenUpJob,
    ) -> HookFuture<'a> {
        Box::pin(async move {
            if let Ok(reminder) = job.args::<ReminderJob>() {
                tasks::continue_series(conn, queue, reminder.reminder_id).await?;
            }
            Ok(())
        })
    }
}
