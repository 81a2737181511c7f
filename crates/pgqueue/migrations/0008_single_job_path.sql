-- A cheaper single-job path: what a worker that takes one job at a time pays per job, cut where
-- `cargo bench -p pgqueue --bench queue -- --batch 1 --side-by-side` showed it going. Nothing a
-- job guarantees changes, and the previous release's statements run unchanged against it.

-- 1. One trigger with a short WHEN instead of two with long ones. PostgreSQL reads a trigger's
-- WHEN clause back from its stored text in every statement that updates the table, before the
-- first row; the two clauses (about 1,800 characters each) cost every claim and every completion
-- more than the rest of their trigger work. The clause now only tells apart the rows that may need
-- the work (an error on record, or a serial key), and the function checks the rest: the same
-- attempt history and the same wake-up as before, for every writer (this release's statements,
-- the previous release's, an admin's).
create or replace function jobs_after_transition() returns trigger language plpgsql as $$
begin
    -- A running job with an error on record finished an attempt or was throttled: keep it in the
    -- history (newest 20 per job).
    if old.state = 'running' and new.state <> 'running' and new.last_error is not null
       and (new.attempts = old.attempts or new.throttles > old.throttles) then
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
    end if;
    -- A keyed job is done, failed or cancelled while a job of its key waits: wake the queue's
    -- workers at commit (a hint, as every NOTIFY).
    if new.serial_key is not null and old.state in ('pending', 'running')
       and new.state in ('done', 'failed', 'cancelled')
       and exists (select from jobs
                   where queue = new.queue and serial_key = new.serial_key
                     and state = 'pending') then
        perform pg_notify('pgqueue_jobs', new.queue);
    end if;
    return null;
end
$$;

drop trigger if exists jobs_record_attempt on jobs;
drop trigger if exists jobs_key_released on jobs;
drop trigger if exists jobs_after_transition on jobs;
create trigger jobs_after_transition
    after update of state on jobs
    for each row
    when (new.last_error is not null or new.serial_key is not null)
    execute function jobs_after_transition();
drop function if exists record_job_attempt();
drop function if exists notify_key_released();

-- 2. Complete-and-claim in one function, without calling `claim_jobs`: the completion, then the
-- claim of one job written out (`limit 1`), each a statement of its own so that the claim sees
-- the completion (the next job of the finished job's serial key can be the one it takes). Calling
-- the set-returning `claim_jobs` from a query cost a second function call with its own settings
-- and a materialised result per job. The claim is `claim_jobs`'s with `lim` = 1: the same order,
-- the same serial-key checks, the same lease. Same signature and columns as before.
create or replace function complete_and_claim_job(done_id bigint, done_claim integer, q text,
                                                  lease float8, worker text)
returns table (completed boolean, id bigint, queue text, payload jsonb, attempt integer,
               max_attempts integer, claim integer, throttles integer, serial_key text,
               priority smallint, run_at timestamptz, locked_until timestamptz)
language plpgsql volatile
set plan_cache_mode = force_generic_plan
set jit = off
as $$
#variable_conflict use_column
begin
    update jobs j
    set state = 'done', locked_until = null, finished_at = now(), updated_at = now()
    where j.id = done_id and j.state = 'running' and j.claims = done_claim;
    completed := found;
    return query
    update jobs j
    set state = 'running', attempts = j.attempts + 1, claims = j.claims + 1,
        locked_until = now() + make_interval(secs => lease), locked_by = worker,
        claimed_at = now(), updated_at = now()
    where j.id = (
        select due.id
        from jobs_pending_priorities(q) p
        cross join lateral (
            select c.id from jobs c
            where c.queue = q and c.state = 'pending' and c.priority = p.priority
              and c.run_at <= now()
              and (c.serial_key is null
                   or not exists (select from jobs r
                                  where r.queue = c.queue and r.serial_key = c.serial_key
                                    and r.state = 'running' and r.id <> c.id)
                      and not exists (select from jobs o
                                      where o.queue = c.queue and o.serial_key = c.serial_key
                                        and o.state = 'pending' and o.id < c.id))
            order by c.run_at, c.id
            limit 1
            for update of c skip locked) due
        limit 1)
    returning completed, j.id, j.queue, j.payload, j.attempts, j.max_attempts, j.claims,
              j.throttles, j.serial_key, j.priority, j.run_at, j.locked_until;
    if not found then
        -- No job is due: one row saying whether the completion was recorded, the rest null.
        return next;
    end if;
end
$$;
