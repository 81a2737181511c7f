-- `enqueue_reserved_job`: the one-job form of `enqueue_reserved_jobs` (0013) with what a scheduled
-- job needs: a due time, a priority and a dedupe key. For a program that writes its row and the job
-- that acts on it at a time of its own in one statement (one round trip, no explicit transaction),
-- each pointing at the other: the row's insert reserves the job's id (`reserve_job_id()`), and the
-- job is written under that id from what the insert returned. Without it such a row costs three
-- statements: the row's insert, the enqueue, and an update of the row with the job's id.

-- Writes the job `job_id` (reserved by `reserve_job_id()`) of queue `job_queue` with `job_payload`,
-- due at `job_run_at` (null: now), of priority `job_priority`, with the dedupe key `job_dedupe_key`
-- (may be null) and up to `job_max_attempts` attempts, and wakes the queue's workers at commit.
-- Returns `job_id`. A live job (pending or running) of the same dedupe key fails the statement, the
-- caller's row with it: the caller's row would otherwise point at a job that was never written, so
-- a key given here must be one that no live job can hold (derived from the new row's own id). A
-- reused id or a refused value fails it too.
create or replace function enqueue_reserved_job(
    job_queue text, job_id bigint, job_payload jsonb, job_run_at timestamptz,
    job_priority smallint, job_dedupe_key text, job_max_attempts integer)
returns bigint
language plpgsql volatile
as $$
begin
    insert into jobs (id, queue, payload, run_at, priority, dedupe_key, max_attempts)
    overriding system value
    values (job_id, job_queue, job_payload, coalesce(job_run_at, now()), job_priority,
            job_dedupe_key, job_max_attempts);
    perform pg_notify('pgqueue_jobs', job_queue);
    return job_id;
end
$$;
