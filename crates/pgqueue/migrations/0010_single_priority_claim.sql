-- A cheaper plan for a single-job worker's claim when the queue's pending jobs share one priority
-- and the first due job has no serial key (the common case), measured with `pgbench` against the
-- seed's loop (docs/benchmarks.md, 2026-12-04). PostgreSQL sets up a statement's whole plan at every
-- execution, even a cached one: the general claim (the loose scan over priorities with its
-- recursive CTE and sort, the lateral scan, the two serial-key subplans) cost about 35 µs per job
-- to set up, more than the index walk it does.
--
-- `complete_and_claim_job` now first reads the queue's highest pending priority and the next
-- lower one (two probes of `jobs_pending_claim` from the top, in one statement). When there is
-- only one, it locks the first due job of that priority in (run_at, id) order, the job the general
-- claim would take first, and takes it when it has no serial key. Otherwise (several priorities, a
-- keyed first job, or no due job) it runs the general claim as before, which sees this
-- transaction's lock on the keyed job as its own and checks it like any other candidate.
--
-- The same guarantees: the completion is fenced as before; the claim takes the same job the general
-- claim takes (a keyless job passes the serial-key checks, and a job of another priority exists
-- only if a second priority does); no read walks a priority's jobs due later (each scan stops at
-- the first job not due yet); the lease, the attempt and the claim count are set as before. Same
-- signature and columns, so the previous release's statements run unchanged against it.
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
declare
    top_priority smallint;
    lower_priority smallint;
begin
    update jobs j
    set state = 'done', locked_until = null, finished_at = now(), updated_at = now()
    where j.id = done_id and j.state = 'running' and j.claims = done_claim;
    completed := found;

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
