//! Enqueueing inside the caller's transaction.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use sqlx::types::Json;

use super::{JobId, NewJob, Queue, QueueError};

impl Queue {
    /// Writes `job` through `conn` (pass `&mut *tx` to enqueue inside a transaction) and sends the
    /// NOTIFY that wakes workers, which PostgreSQL delivers only if the transaction commits.
    /// Returns `None` when a pending or running job with the same dedupe key exists: that enqueue is
    /// a no-op, race-free across connections (a partial unique index decides). A job of a kind
    /// of another queue ([`NewJob::of`]) is refused with [`QueueError::OtherQueue`], unwritten.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name))]
    pub async fn enqueue(
        &self,
        conn: &mut PgConnection,
        job: NewJob,
    ) -> Result<Option<JobId>, QueueError> {
        self.admits(&job)?;
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
        Ok(id.map(JobId))
    }

    /// Writes many jobs in one statement (and one NOTIFY); returns the ids of those inserted
    /// (jobs whose dedupe key is live are skipped). Ids are given in the order of `jobs`, so jobs
    /// of one serial key run in that order: `ROWS FROM` yields the rows in the arrays' order and
    /// an INSERT is never run in parallel, so each row takes its id as it comes (no sort needed). The ids come back as one array, not a row each:
    /// decoding thousands of rows would cost more than writing them. One job of a kind of another
    /// queue refuses them all ([`QueueError::OtherQueue`]), before anything is written.
    #[tracing::instrument(skip_all, fields(queue = %self.config.name, jobs = jobs.len()))]
    pub async fn enqueue_many(
        &self,
        conn: &mut PgConnection,
        jobs: &[NewJob],
    ) -> Result<Vec<JobId>, QueueError> {
        for job in jobs {
            self.admits(job)?;
        }
        // The payloads travel as one JSON array: PostgreSQL parses it once, where an array of
        // jsonb values costs a parse per element.
        let payloads = Json(jobs.iter().map(|j| &j.payload).collect::<Vec<_>>());
        let run_ats: Vec<Option<DateTime<Utc>>> = jobs.iter().map(|j| j.run_at).collect();
        let keys: Vec<Option<String>> = jobs.iter().map(|j| j.dedupe_key.clone()).collect();
        let attempts: Vec<i32> = jobs
            .iter()
            .map(|j| j.max_attempts.unwrap_or(self.config.max_attempts))
            .collect();
        let serial_keys: Vec<Option<String>> = jobs.iter().map(|j| j.serial_key.clone()).collect();
        let priorities: Vec<i16> = jobs.iter().map(|j| j.priority).collect();
        // Without dedupe keys the statement needs no ON CONFLICT: its speculative insertion
        // costs every row a lock and a WAL record more than a plain insert.
        let ids = if keys.iter().all(Option::is_none) {
            sqlx::query_scalar!(
                r#"with inserted as (
                       insert into jobs (queue, payload, run_at, max_attempts, serial_key,
                                         priority)
                       select $1, payload, coalesce(run_at, now()), max_attempts, serial_key,
                              priority
                       from rows from (jsonb_array_elements($2), unnest($3::timestamptz[]),
                                       unnest($4::int[]), unnest($6::text[]),
                                       unnest($7::smallint[]))
                           as j(payload, run_at, max_attempts, serial_key, priority)
                       returning id),
                   notified as (select pg_notify($5, $1))
                   select coalesce(array_agg(id order by id), '{}') as "ids!"
                   from inserted, notified"#,
                self.config.name,
                payloads as _,
                &run_ats as &[Option<DateTime<Utc>>],
                &attempts,
                super::NOTIFY_CHANNEL,
                &serial_keys as &[Option<String>],
                &priorities,
            )
            .fetch_one(conn)
            .await?
        } else {
            sqlx::query_scalar!(
                r#"with inserted as (
                       insert into jobs (queue, payload, run_at, dedupe_key, max_attempts,
                                         serial_key, priority)
                       select $1, payload, coalesce(run_at, now()), dedupe_key, max_attempts,
                              serial_key, priority
                       from rows from (jsonb_array_elements($2), unnest($3::timestamptz[]),
                                       unnest($4::text[]), unnest($5::int[]),
                                       unnest($7::text[]), unnest($8::smallint[]))
                           as j(payload, run_at, dedupe_key, max_attempts, serial_key, priority)
                       on conflict (queue, dedupe_key)
                           where dedupe_key is not null and state in ('pending', 'running')
                           do nothing
                       returning id),
                   notified as (select pg_notify($6, $1))
                   select coalesce(array_agg(id order by id), '{}') as "ids!"
                   from inserted, notified"#,
                self.config.name,
                payloads as _,
                &run_ats as &[Option<DateTime<Utc>>],
                &keys as &[Option<String>],
                &attempts,
                super::NOTIFY_CHANNEL,
                &serial_keys as &[Option<String>],
                &priorities,
            )
            .fetch_one(conn)
            .await?
        };
        Ok(ids.into_iter().map(JobId).collect())
    }

    /// Whether this queue takes `job`: any job from a bare payload, a kind's job only if the kind
    /// is this queue's.
    fn admits(&self, job: &NewJob) -> Result<(), QueueError> {
        match job.kind_queue() {
            Some(kind_queue) if kind_queue != self.config.name => Err(QueueError::OtherQueue {
                queue: self.config.name.clone(),
                kind_queue,
            }),
            _ => Ok(()),
        }
    }
}
