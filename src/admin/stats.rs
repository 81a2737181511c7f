//! The queue's health at a glance: jobs per state, the oldest due job, and the last hour's
//! deliveries, failures, 429s and lateness.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgPool;

use super::AdminError;
use crate::store::OUTBOX_QUEUE;
use pgqueue::{JobId, JobState, maintenance};

/// A snapshot of the queue and of the last hour.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Jobs per state, all queues (an estimate on a large table, see `states_estimated`).
    pub states: Vec<(JobState, i64)>,
    /// Whether `states` is the planner's estimate rather than an exact count.
    pub states_estimated: bool,
    /// The pending reminder job that has waited longest since it fell due.
    pub oldest_due: Option<OldestDue>,
    /// Reminders sent in the last hour.
    pub sent_last_hour: i64,
    /// Jobs that failed for good in the last hour.
    pub failed_last_hour: i64,
    /// Attempts retried in the last hour.
    pub retried_last_hour: i64,
    /// Sends Telegram turned away with 429 in the last hour (not counted as attempts).
    pub too_many_requests_last_hour: i64,
    /// Median delay from a reminder's fire time to its sending, last hour, in seconds.
    pub lateness_p50_secs: Option<f64>,
    /// 99th percentile of that delay, in seconds.
    pub lateness_p99_secs: Option<f64>,
}

/// The oldest job that is due and still waits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OldestDue {
    /// The job.
    pub job_id: JobId,
    /// When it fell due.
    pub run_at: DateTime<Utc>,
    /// How long it has waited since, in seconds.
    pub waiting_secs: f64,
}

/// Reads the stats; every statement is served by an index, so it stays cheap on large tables.
#[tracing::instrument(skip_all)]
pub async fn read(pool: &PgPool) -> Result<Stats, AdminError> {
    let depth = maintenance::depth(pool, OUTBOX_QUEUE).await?;
    let oldest_due = depth
        .oldest_due
        .zip(depth.oldest_due_secs)
        .map(|(job, waiting_secs)| OldestDue {
            job_id: job.id,
            run_at: job.run_at,
            waiting_secs,
        });
    let sent = sqlx::query!(
        r#"select count(*) as "count!",
                  percentile_cont(0.5) within group
                      (order by extract(epoch from sent_at - fire_at)) as p50,
                  percentile_cont(0.99) within group
                      (order by extract(epoch from sent_at - fire_at)) as p99
           from reminders where sent and sent_at > now() - interval '1 hour'"#
    )
    .fetch_one(pool)
    .await?;
    let outcomes = pgqueue::recent_outcomes(pool, HOUR).await?;
    Ok(Stats {
        states: depth.states,
        states_estimated: depth.estimated,
        oldest_due,
        sent_last_hour: sent.count,
        failed_last_hour: outcomes.failed,
        retried_last_hour: outcomes.retried,
        too_many_requests_last_hour: outcomes.throttled,
        lateness_p50_secs: sent.p50,
        lateness_p99_secs: sent.p99,
    })
}

/// The window of the "last hour" figures.
const HOUR: Duration = Duration::from_secs(3600);
