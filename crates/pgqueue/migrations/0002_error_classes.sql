-- A short class for every error on record, next to its text: set by the handler ("transient",
-- "unreachable", "rejected", "flood", ...), by the runner ("panic") or by the reaper
-- ("lease_expired"), so that programs count and filter failures by kind instead of matching text.

alter table jobs add column if not exists error_class text;
alter table job_attempts add column if not exists error_class text;

create or replace function record_job_attempt() returns trigger language plpgsql as $$
begin
    insert into job_attempts (job_id, attempt, worker, started_at, outcome, error, error_class)
    values (new.id, old.attempts, old.locked_by, old.claimed_at,
            case when new.throttles > old.throttles then 'throttled'
                 when new.state = 'pending' then 'retry'
                 else new.state end,
            case when new.state in ('pending', 'failed') then new.last_error end,
            case when new.state in ('pending', 'failed') then new.error_class end);
    delete from job_attempts
    where job_id = new.id
      and id <= (select id from job_attempts where job_id = new.id
                 order by id desc offset 20 limit 1);
    return null;
end
$$;
