-- The job queue's tables. It knows nothing about what a job does: a job is a queue name, a JSON
-- payload and a due time. State machine:
--   pending --claim--> running --complete--> done
--   running --retry--> pending (run_at in the future)      running --fail / out of attempts--> failed
--   running --throttle--> pending (the attempt given back)   running --lease expired (reaper)--> pending or failed
--   pending/running --cancel--> cancelled                    failed --admin retry--> pending
--
-- Written so that it also adopts the tables of a database made before the queue had migrations of
-- its own (the same tables, created by the application's migrations): every statement leaves what
-- exists alone and brings it to this shape.

create table if not exists jobs (
    id            bigint generated always as identity primary key,
    queue         text        not null,
    payload       jsonb       not null default '{}',
    state         text        not null default 'pending'
                  check (state in ('pending', 'running', 'done', 'failed', 'cancelled')),
    run_at        timestamptz not null default now(),
    -- Tries counted against max_attempts (a snooze, a throttle or a release gives one back).
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
-- When the running attempt was claimed (for the attempt history).
alter table jobs add column if not exists claimed_at timestamptz;
-- Times flood control turned the job away (429): not attempts, but kept visible.
alter table jobs add column if not exists throttles integer not null default 0;

-- The claim: due pending jobs of a queue in order.
create index if not exists jobs_pending_due on jobs (queue, run_at, id) where state = 'pending';
-- The reaper: running jobs by lease expiry.
create index if not exists jobs_running_lease on jobs (locked_until) where state = 'running';
-- Dedupe among live jobs.
create unique index if not exists jobs_live_dedupe on jobs (queue, dedupe_key)
    where dedupe_key is not null and state in ('pending', 'running');
-- Failed jobs, newest first (admin views, their count, retention).
create index if not exists jobs_failed on jobs (finished_at desc nulls last, id desc)
    where state = 'failed';

-- The queue table is small and hot: vacuum it eagerly.
alter table jobs set (
    autovacuum_vacuum_scale_factor = 0.02,
    autovacuum_vacuum_threshold = 200,
    autovacuum_analyze_scale_factor = 0.05
);

-- One row per finished attempt of a job that has an error on record: a retry, a throttle, a
-- failure, a lease the reaper took back, and the final success or cancellation after earlier
-- failures. Snoozes and shutdown releases are not attempts. The newest 20 per job are kept.
create table if not exists job_attempts (
    id           bigint generated always as identity primary key,
    job_id       bigint      not null references jobs (id) on delete cascade,
    attempt      integer     not null,
    worker       text,
    started_at   timestamptz,
    finished_at  timestamptz not null default now(),
    outcome      text        not null,
    error        text
);
alter table job_attempts drop constraint if exists job_attempts_outcome_check;
alter table job_attempts add constraint job_attempts_outcome_check
    check (outcome in ('retry', 'throttled', 'failed', 'done', 'cancelled'));
create index if not exists job_attempts_by_job on job_attempts (job_id, id);
create index if not exists job_attempts_finished on job_attempts (finished_at);

create or replace function record_job_attempt() returns trigger language plpgsql as $$
begin
    insert into job_attempts (job_id, attempt, worker, started_at, outcome, error)
    values (new.id, old.attempts, old.locked_by, old.claimed_at,
            case when new.throttles > old.throttles then 'throttled'
                 when new.state = 'pending' then 'retry'
                 else new.state end,
            case when new.state in ('pending', 'failed') then new.last_error end);
    delete from job_attempts
    where job_id = new.id
      and id <= (select id from job_attempts where job_id = new.id
                 order by id desc offset 20 limit 1);
    return null;
end
$$;

-- Fires only when a running job with an error on record finishes an attempt or is throttled, so
-- the hot path (a job that succeeds at once) never runs it.
drop trigger if exists jobs_record_attempt on jobs;
create trigger jobs_record_attempt
    after update on jobs
    for each row
    when (old.state = 'running' and new.state <> 'running' and new.last_error is not null
          and (new.attempts = old.attempts or new.throttles > old.throttles))
    execute function record_job_attempt();
