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
    /// of one serial key run in that order: `jsonb_array_elements` and `ROWS FROM` yield the rows
    /// in the arrays' order, an INSERT is never run in parallel, so each row takes its id as it
    /// comes and `RETURNING` hands them on in that order (no sort needed). The ids come back as
    /// one array, not a row each: decoding thousands of rows would cost more than writing them.
    /// One job of a kind of another queue refuses them all ([`QueueError::OtherQueue`]), before
    /// anything is written.
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
        // jsonb values costs a parse per element. A column that every job leaves at its default
        // (due now, the queue's attempts, no serial key, priority 0) travels as a null array,
        // which `unnest` turns into no rows and `rows from` pads with nulls: a batch of plain
        // jobs costs no array to encode, send and unnest per column.
        let payloads = Json(jobs.iter().map(|j| &j.payload).collect::<Vec<_>>());
        let run_ats = column(jobs, |j| j.run_at.is_some(), |j| j.run_at);
        let attempts = column(jobs, |j| j.max_attempts.is_some(), |j| j.max_attempts);
        let serial_keys = column(jobs, |j| j.serial_key.is_some(), |j| j.serial_key.clone());
        let priorities = column(jobs, |j| j.priority != 0, |j| j.priority);
        // Without dedupe keys the statement needs no ON CONFLICT: its speculative insertion
        // costs every row a lock and a WAL record more than a plain insert.
        //
        // In every shape the ids are read with `array(select id from inserted)` and the NOTIFY
        // is sent by the one row the statement selects from (`from pg_notify(…)`, run once): a
        // cross join of the inserted rows with a CTE of the NOTIFY and `array_agg(id order by
        // id)` cost every row a join, a sort and an aggregate step (docs/benchmarks.md, "The
        // bulk enqueue's statement reshaped").
        let plain = jobs.iter().all(|j| j.dedupe_key.is_none());
        let ids = if plain
            && run_ats.is_none()
            && attempts.is_none()
            && serial_keys.is_none()
            && priorities.is_none()
        {
            // Every optional column at its default: one set-returning function, no `rows from`.
            sqlx::query_scalar!(
                r#"with inserted as (
                       insert into jobs (queue, payload, max_attempts)
                       select $1, value, $3 from jsonb_array_elements($2)
                       returning id)
                   select array(select id from inserted) as "ids!" from pg_notify($4, $1)"#,
                self.config.name,
                payloads as _,
                self.config.max_attempts,
                super::NOTIFY_CHANNEL,
            )
            .fetch_one(conn)
            .await?
        } else if plain {
            sqlx::query_scalar!(
                r#"with inserted as (
                       insert into jobs (queue, payload, run_at, max_attempts, serial_key,
                                         priority)
                       select $1, payload, coalesce(run_at, now()), coalesce(max_attempts, $8),
                              serial_key, coalesce(priority, 0)
                       from rows from (jsonb_array_elements($2), unnest($3::timestamptz[]),
                                       unnest($4::int[]), unnest($6::text[]),
                                       unnest($7::smallint[]))
                           as j(payload, run_at, max_attempts, serial_key, priority)
                       returning id)
                   select array(select id from inserted) as "ids!" from pg_notify($5, $1)"#,
                self.config.name,
                payloads as _,
                run_ats.as_deref() as Option<&[Option<DateTime<Utc>>]>,
                attempts.as_deref() as Option<&[Option<i32>]>,
                super::NOTIFY_CHANNEL,
                serial_keys.as_deref() as Option<&[Option<String>]>,
                priorities.as_deref() as Option<&[i16]>,
                self.config.max_attempts,
            )
            .fetch_one(conn)
            .await?
        } else {
            let keys: Vec<Option<String>> = jobs.iter().map(|j| j.dedupe_key.clone()).collect();
            sqlx::query_scalar!(
                r#"with inserted as (
                       insert into jobs (queue, payload, run_at, dedupe_key, max_attempts,
                                         serial_key, priority)
                       select $1, payload, coalesce(run_at, now()), dedupe_key,
                              coalesce(max_attempts, $9), serial_key, coalesce(priority, 0)
                       from rows from (jsonb_array_elements($2), unnest($3::timestamptz[]),
                                       unnest($4::text[]), unnest($5::int[]),
                                       unnest($7::text[]), unnest($8::smallint[]))
                           as j(payload, run_at, dedupe_key, max_attempts, serial_key, priority)
                       on conflict (queue, dedupe_key)
                           where dedupe_key is not null and state in ('pending', 'running')
                           do nothing
                       returning id)
                   select array(select id from inserted) as "ids!" from pg_notify($6, $1)"#,
                self.config.name,
                payloads as _,
                run_ats.as_deref() as Option<&[Option<DateTime<Utc>>]>,
                &keys as &[Option<String>],
                attempts.as_deref() as Option<&[Option<i32>]>,
                super::NOTIFY_CHANNEL,
                serial_keys.as_deref() as Option<&[Option<String>]>,
                priorities.as_deref() as Option<&[i16]>,
                self.config.max_attempts,
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

/// One column of a batch of jobs for `enqueue_many`: every job's value, or `None` (sent as a
/// null array) when no job sets it (`is_set`), so the statement takes the column's default.
fn column<T>(
    jobs: &[NewJob],
    is_set: impl Fn(&NewJob) -> bool,
    value: impl Fn(&NewJob) -> T,
) -> Option<Vec<T>> {
    jobs.iter()
        .any(is_set)
        .then(|| jobs.iter().map(value).collect())
}
