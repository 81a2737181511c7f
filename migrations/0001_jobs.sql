-- The job queue (src/queue). It knows nothing about Telegram: a job is a queue name, a JSON payload
-- and a due time. State machine:
--   pending --claim--> running --complete--> done
--   running --retry--> pending (run_at in the future)      running --fail / out of attempts--> failed
--   running --lease expired (reaper)--> pending or failed   pending/running --cancel--> cancelled
--   failed --admin retry--> pending
create table jobs (
    id            bigint generated always as identity primary key,
    queue         text        not null,
    payload       jsonb       not null default '{}',
    state         text        not null default 'pending'
                  check (state in ('pending', 'running', 'done', 'failed', 'cancelled')),
    run_at        timestamptz not null default now(),
    -- Tries counted against max_attempts (a snooze or a release gives one back).
    attempts      integer     not null default 0,
    -- Incremented by every claim and never decreased: the fence of every result.
    claims        integer     not null default 0,
    max_attempts  integer     not null default 5 check (max_attempts > 0),
    -- Set while running: the lease. The reaper returns jobs whose lease expired.
    locked_until  timestamptz,
    locked_by     text,
    -- Unique among pending and running jobs of a queue: a second enqueue of the key is a no-op.
    dedupe_key    text,
    last_error    text,
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    finished_at   timestamptz,
    check ((state = 'running') = (locked_until is not null))
);

-- The claim: due pending jobs of a queue in order.
create index jobs_pending_due on jobs (queue, run_at, id) where state = 'pending';
-- The reaper: running jobs by lease expiry.
create index jobs_running_lease on jobs (locked_until) where state = 'running';
-- Dedupe among live jobs.
create unique index jobs_live_dedupe on jobs (queue, dedupe_key)
    where dedupe_key is not null and state in ('pending', 'running');
-- No index serves retention: it scans this small table once a minute, while an index on
-- finished_at would cost every completion an insertion.

-- The queue table is small and hot: vacuum it eagerly.
alter table jobs set (
    autovacuum_vacuum_scale_factor = 0.02,
    autovacuum_vacuum_threshold = 200,
    autovacuum_analyze_scale_factor = 0.05
);
