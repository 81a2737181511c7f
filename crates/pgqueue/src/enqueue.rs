//! Enqueueing inside the caller's transaction.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;

use super::{JobId, NewJob, Queue, QueueError};

impl Queue {
    /// Writes `job` through `conn` (pass `&mut *tx` to enqueue inside a transaction) and sends the
    /// NOTIFY that wakes workers, which PostgreSQL delivers only if the transaction commits.
    /// Returns `None` when a pending or running job with the same dedupe key exists: that enqueue is
    /// a no-op, race-free across connections (a partial unique index decides).
    #[tracing::instrument(skip_all, fields(queue = %self.config.name))]
    pub async fn enqueue(
        &self,
        conn: &mut PgConnection,
        job: NewJob,
    ) -> Result<Option<JobId>, QueueError> {
        let id = sqlx::query_scalar!(
            r#"with inserted as (
                   insert into jobs (queue, payload, run_at, dedupe_key, max_attempts,
                                     serial_key, priority)
                   values ($1, $2, coalesce($3, now()), $4, $5, $7, $8)
                   on conflict (queue, dedupe_key)
                       where dedupe_key is not null and state in ('pending', 'running')
                       do nothing
                   returning id)
               select id as "id!" from inserted, pg_notify($6, $1)"#,
            self.config.name,
            job.payload,
            job.run_at,
            job.dedupe_key,
            job.max_attempts.unwrap_or(self.config.max_attempts),
            super::NOTIFY_CHANNEL,
            job.serial_key,
            job.priority,
        )
        .fetch_optional(conn)
        .await?;
        Ok(id)
    }

    /// Writes many jobs in one statement (and one NOTIFY); returns the ids of those inserted
    /// (jobs whose dedupe key is live are skipped). Ids are given in the order of `jobs`, so jobs
    /// of one serial key run in that order.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name, jobs = jobs.len()))]
    pub async fn enqueue_many(
        &self,
        conn: &mut PgConnection,
        jobs: &[NewJob],
    ) -> Result<Vec<JobId>, QueueError> {
        let payloads: Vec<Value> = jobs.iter().map(|j| j.payload.clone()).collect();
        let run_ats: Vec<Option<DateTime<Utc>>> = jobs.iter().map(|j| j.run_at).collect();
        let keys: Vec<Option<String>> = jobs.iter().map(|j| j.dedupe_key.clone()).collect();
        let attempts: Vec<i32> = jobs
            .iter()
            .map(|j| j.max_attempts.unwrap_or(self.config.max_attempts))
            .collect();
        let serial_keys: Vec<Option<String>> = jobs.iter().map(|j| j.serial_key.clone()).collect();
        let priorities: Vec<i16> = jobs.iter().map(|j| j.priority).collect();
        let ids = sqlx::query_scalar!(
            r#"with inserted as (
                   insert into jobs (queue, payload, run_at, dedupe_key, max_attempts,
                                     serial_key, priority)
                   select $1, payload, coalesce(run_at, now()), dedupe_key, max_attempts,
                          serial_key, priority
                   from unnest($2::jsonb[], $3::timestamptz[], $4::text[], $5::int[],
                               $7::text[], $8::smallint[])
                       with ordinality
                       as j(payload, run_at, dedupe_key, max_attempts, serial_key, priority, n)
                   order by n
                   on conflict (queue, dedupe_key)
                       where dedupe_key is not null and state in ('pending', 'running')
                       do nothing
                   returning id),
               notified as (select pg_notify($6, $1))
               select id as "id!" from inserted, notified order by id"#,
            self.config.name,
            &payloads,
            &run_ats as &[Option<DateTime<Utc>>],
            &keys as &[Option<String>],
            &attempts,
            super::NOTIFY_CHANNEL,
            &serial_keys as &[Option<String>],
            &priorities,
        )
        .fetch_all(conn)
        .await?;
        Ok(ids)
    }
}
