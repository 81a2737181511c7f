-- Done jobs deleted in the lease mode too. A queue whose done jobs are deleted
-- (`DoneJobs::Deleted`) had its successes deleted only in the transactional mode; a success recorded
-- under a lease (`Queue::complete`, `Queue::complete_many`, and here `complete_and_claim_job`) now
-- deletes the row as well, on the same terms: unless the job has a serial key (its key's next job
-- is woken by the trigger of an update to `done`, which a delete would not run) or an error on
-- record (its attempt history then ends with the success, which the update writes).
--
-- `complete_and_claim_job` with a sixth argument, `delete_done`: when true, the fenced completion
-- deletes such a job's row instead of updating it; the claim that follows is 0010's, unchanged.
-- The five-argument form stays as it was, so the previous release's statements run unchanged.
create or replace function complete_and_claim_job(done_id bigint, done_claim integer, q text,
                                                  lease float8, worker text, delete_done boolean)
returns table (completed boolean, id bigint, queue text, payload jsonb, attempt integer,
               max_attempts integer, claim integer, throttles integer, serial_key text,
               priority smallint, run_at timestamptz, locked_until timestamptz)
language plpgsql volatile
set plan_cache_mode = force_generic_plan
set jit = off
as $$
#variable_conflict use_column
declare
    top_priority smallint;
    lower_priority smallint;
begin
    completed := false;
    if delete_done then
        delete from jobs j
        where j.id = done_id and j.state = 'running' and j.claims = done_claim
          and j.serial_key is null and j.last_error is null;
        completed := found;
    end if;
    if not completed then
        update jobs j
        set state = 'done', locked_until = null, finished_at = now(), updated_at = now()
        where j.id = done_id and j.state = 'running' and j.claims = done_claim;
        completed := found;
    end if;

    select h.priority,
           (select l.priority from jobs l
            where l.queue = q and l.state = 'pending' and l.priority < h.priority
            order by l.priority desc limit 1)
    into top_priority, lower_priority
    from (select t.priority from jobs t
          where t.queue = q and t.state = 'pending'
          order by t.priority desc limit 1) h;
    if top_priority is null then
        -- Nothing is pending.
        return next;
        return;
    end if;

    if lower_priority is null then
        return query
        with first_due as (
            select c.id, c.serial_key from jobs c
            where c.queue = q and c.state = 'pending' and c.priority = top_priority
              and c.run_at <= now()
            order by c.run_at, c.id
            limit 1
            for update of c skip locked)
        update jobs j
        set state = 'running', attempts = j.attempts + 1, claims = j.claims + 1,
            locked_until = now() + make_interval(secs => lease), locked_by = worker,
            claimed_at = now(), updated_at = now()
        from first_due
        where j.id = first_due.id and first_due.serial_key is null
        returning completed, j.id, j.queue, j.payload, j.attempts, j.max_attempts, j.claims,
                  j.throttles, j.serial_key, j.priority, j.run_at, j.locked_until;
        if found then
            return;
        end if;
    end if;

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
