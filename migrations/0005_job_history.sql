-- Why jobs failed, for admins: each attempt of a job that failed at least once, and every admin
-- action.

alter table jobs add column claimed_at timestamptz;

-- One row per finished attempt of a job that has an error on record: a retry, a failure, a lease
-- the reaper took back, and the final success or cancellation after earlier failures. Snoozes and
-- shutdown releases (which give the attempt back) are not attempts. The newest 20 per job are kept.
create table job_attempts (
    id           bigint generated always as identity primary key,
    job_id       bigint      not null references jobs (id) on delete cascade,
    attempt      integer     not null,
    worker       text,
    started_at   timestamptz,
    finished_at  timestamptz not null default now(),
    outcome      text        not null check (outcome in ('retry', 'failed', 'done', 'cancelled')),
    error        text
);
create index job_attempts_by_job on job_attempts (job_id, id);

create function record_job_attempt() returns trigger language plpgsql as $$
begin
    insert into job_attempts (job_id, attempt, worker, started_at, outcome, error)
    values (new.id, old.attempts, old.locked_by, old.claimed_at,
            case new.state when 'pending' then 'retry' else new.state end,
            case when new.state in ('pending', 'failed') then new.last_error end);
    delete from job_attempts
    where job_id = new.id
      and id <= (select id from job_attempts where job_id = new.id
                 order by id desc offset 20 limit 1);
    return null;
end
$$;

-- Fires only when a running job with an error on record finishes an attempt, so the hot path
-- (a job that succeeds at once) never runs it.
create trigger jobs_record_attempt
    after update on jobs
    for each row
    when (old.state = 'running' and new.state <> 'running'
          and new.last_error is not null and new.attempts = old.attempts)
    execute function record_job_attempt();

-- Who did what to which job, and when.
create table admin_actions (
    id      bigint generated always as identity primary key,
    at      timestamptz not null default now(),
    actor   text        not null,
    action  text        not null,
    job_id  bigint,
    detail  text
);
