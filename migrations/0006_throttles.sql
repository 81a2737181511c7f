-- Flood control (429) is not a failed attempt: a job Telegram turned away goes back to the queue
-- with its attempt given back, and the refusal is counted here and kept in the attempt history as
-- 'throttled', so admins and dashboards still see it.

alter table jobs add column throttles integer not null default 0;

alter table job_attempts drop constraint job_attempts_outcome_check;
alter table job_attempts add constraint job_attempts_outcome_check
    check (outcome in ('retry', 'throttled', 'failed', 'done', 'cancelled'));

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
drop trigger jobs_record_attempt on jobs;
create trigger jobs_record_attempt
    after update on jobs
    for each row
    when (old.state = 'running' and new.state <> 'running' and new.last_error is not null
          and (new.attempts = old.attempts or new.throttles > old.throttles))
    execute function record_job_attempt();
