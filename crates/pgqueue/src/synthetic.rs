//! Large synthetic queues for benchmarks, written by the database itself (`generate_series`), and
//! the plain INSERT the queue's own enqueue is measured against. Behind the `synthetic` feature:
//! nothing in a running program needs it.

use std::time::Duration;

use sqlx::{PgExecutor, PgPool};

use super::{QueueError, secs};

/// Adds `total` pending jobs to `queue`, `due` of them due already (spread over the last minute)
/// and the rest due over the coming `horizon`, as a reminder queue's backlog is. Each payload is
/// `{"n": k}` with `k` counting from 1. Returns how many were written.
#[tracing::instrument(skip_all, fields(queue, total, due))]
pub async fn fill_backlog(
    pool: &PgPool,
    queue: &str,
    total: i64,
    due: i64,
    horizon: Duration,
) -> Result<u64, QueueError> {
    let due = due.clamp(0, total);
    // Every `every`-th job is a due one, so due and future jobs interleave in id order.
    let every = if due == 0 { total + 1 } else { total / due };
    let result = sqlx::query!(
        "insert into jobs (queue, payload, run_at)
         select $1, jsonb_build_object('n', g),
                case when g % $3 = 0 and g / $3 <= $4
                     then now() - make_interval(secs => (g % 60)::float8)
                     else now() + make_interval(secs => (60 + (g * 7919) % $5)::float8) end
         from generate_series(1::bigint, $2) g",
        queue,
        total,
        every.max(1),
        due,
        horizon.as_secs().max(120) as i64,
    )
    .execute(pool)
    .await?;
    Ok(result.rows_affected())
}

/// Adds `total` jobs to `queue` that finished (`done`) within the last `age`, as a queue holds
/// between retention passes. Returns how many were written.
#[tracing::instrument(skip_all, fields(queue, total))]
pub async fn fill_finished(
    pool: &PgPool,
    queue: &str,
    total: i64,
    age: Duration,
) -> Result<u64, QueueError> {
    let result = sqlx::query!(
        "insert into jobs (queue, payload, state, attempts, claims, run_at, claimed_at,
                           finished_at, updated_at)
         select $1, jsonb_build_object('n', g), 'done', 1, 1, t, t, t, t
         from generate_series(1::bigint, $2) g,
              lateral (select now() - make_interval(secs => $3 * (1 - g::float8 / $2))) f(t)",
        queue,
        total,
        secs(age),
    )
    .execute(pool)
    .await?;
    Ok(result.rows_affected())
}

/// The baseline of the queue's bulk enqueue: the same rows (`payloads`, a JSON array) written by a
/// bare `INSERT … SELECT … jsonb_array_elements` with no dedupe check, no returned ids and no
/// NOTIFY. Returns how many were written.
#[tracing::instrument(skip_all, fields(queue))]
pub async fn raw_insert<'e>(
    executor: impl PgExecutor<'e>,
    queue: &str,
    payloads: &serde_json::Value,
) -> Result<u64, QueueError> {
    let result = sqlx::query!(
        "insert into jobs (queue, payload) select $1, value from jsonb_array_elements($2)",
        queue,
        payloads,
    )
    .execute(executor)
    .await?;
    Ok(result.rows_affected())
}

/// Runs `VACUUM ANALYZE` on the queue's tables: the steady state autovacuum keeps, after a fill.
pub async fn vacuum_analyze(pool: &PgPool) -> Result<(), QueueError> {
    sqlx::query!("vacuum analyze jobs, job_attempts")
        .execute(pool)
        .await?;
    Ok(())
}

/// The on-disk size of the queue's jobs table: heap and TOAST, its indexes, and the dead and live
/// tuples the statistics collector last counted.
#[derive(Clone, Copy, Debug)]
pub struct TableSize {
    /// Bytes of the heap and its TOAST table.
    pub heap_bytes: i64,
    /// Bytes of all its indexes.
    pub index_bytes: i64,
    /// Live tuples (estimated).
    pub live_tuples: i64,
    /// Dead tuples waiting for vacuum (estimated).
    pub dead_tuples: i64,
    /// Autovacuum runs on it so far.
    pub autovacuums: i64,
}

/// Reads [`TableSize`] of `jobs`.
pub async fn jobs_table_size<'e>(executor: impl PgExecutor<'e>) -> Result<TableSize, QueueError> {
    let row = sqlx::query!(
        r#"select pg_table_size('jobs') as "heap!", pg_indexes_size('jobs') as "indexes!",
                  coalesce(s.n_live_tup, 0) as "live!", coalesce(s.n_dead_tup, 0) as "dead!",
                  coalesce(s.autovacuum_count, 0) as "autovacuums!"
           from (select) one left join pg_stat_user_tables s on s.relname = 'jobs'"#,
    )
    .fetch_one(executor)
    .await?;
    Ok(TableSize {
        heap_bytes: row.heap,
        index_bytes: row.indexes,
        live_tuples: row.live,
        dead_tuples: row.dead,
        autovacuums: row.autovacuums,
    })
}

/// Block reads of the jobs table and its indexes since the statistics were reset: `read` came
/// from outside PostgreSQL's shared buffers (the OS cache or the disk), `hit` from within.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableIo {
    /// Heap blocks read from outside the shared buffers.
    pub heap_read: i64,
    /// Heap blocks found in the shared buffers.
    pub heap_hit: i64,
    /// Index blocks read from outside the shared buffers.
    pub index_read: i64,
    /// Index blocks found in the shared buffers.
    pub index_hit: i64,
}

/// Reads [`TableIo`] of `jobs` (as the statistics collector has it: a backend reports its counts
/// when it goes idle, at most once a second).
pub async fn jobs_table_io<'e>(executor: impl PgExecutor<'e>) -> Result<TableIo, QueueError> {
    let row = sqlx::query!(
        r#"select coalesce(s.heap_blks_read, 0) as "heap_read!",
                  coalesce(s.heap_blks_hit, 0) as "heap_hit!",
                  coalesce(s.idx_blks_read, 0) as "index_read!",
                  coalesce(s.idx_blks_hit, 0) as "index_hit!"
           from (select) one left join pg_statio_user_tables s on s.relname = 'jobs'"#,
    )
    .fetch_one(executor)
    .await?;
    Ok(TableIo {
        heap_read: row.heap_read,
        heap_hit: row.heap_hit,
        index_read: row.index_read,
        index_hit: row.index_hit,
    })
}

/// Write-ahead log the whole server has written since its statistics were reset (PostgreSQL 14+'s
/// `pg_stat_wal`): what a queue's updates cost in WAL, and how much of it is full-page images
/// (a page's first change after a checkpoint writes the whole page).
#[derive(Clone, Copy, Debug, Default)]
pub struct WalUsage {
    /// WAL records.
    pub records: i64,
    /// Full-page images among them.
    pub full_page_images: i64,
    /// Bytes of WAL.
    pub bytes: i64,
}

/// Reads the server's [`WalUsage`] (counted per server, not per table: measure on a server the
/// benchmark has to itself).
pub async fn wal_usage<'e>(executor: impl PgExecutor<'e>) -> Result<WalUsage, QueueError> {
    let row = sqlx::query!(
        r#"select wal_records as "records!", wal_fpi as "full_page_images!",
                  wal_bytes::bigint as "bytes!"
           from pg_stat_wal"#,
    )
    .fetch_one(executor)
    .await?;
    Ok(WalUsage {
        records: row.records,
        full_page_images: row.full_page_images,
        bytes: row.bytes,
    })
}

/// The server's WAL insert position, in bytes: the difference of two readings is the WAL written
/// between them, by every backend, without waiting for the statistics to take in their counts
/// (`pg_stat_wal` hears of a backend's WAL only when it reports, up to a second later or at exit).
pub async fn wal_position<'e>(executor: impl PgExecutor<'e>) -> Result<i64, QueueError> {
    Ok(sqlx::query_scalar!(
        r#"select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint as "bytes!""#
    )
    .fetch_one(executor)
    .await?)
}

/// Runs a `CHECKPOINT`, so that the next change to any page writes a full-page image again: the
/// state a backlog written long before it falls due is in, whatever the benchmark did before.
pub async fn checkpoint(pool: &PgPool) -> Result<(), QueueError> {
    sqlx::query!("checkpoint").execute(pool).await?;
    Ok(())
}
