-- Per-key serial execution and priorities.
--
-- A job may carry a serial key: jobs of one queue that share a key run one at a time, oldest (by
-- id) first. A keyed pending job is claimable only when no job of its queue and key is running
-- and no older one is pending, whatever that one's run_at: a job being retried or snoozed holds
-- back the ones after it (head-of-line blocking per key). Jobs of different keys, and jobs
-- without one, run in parallel.
--
-- A job has a priority (lower runs first, 0 by default): the claim takes due jobs by
-- (priority, run_at, id).

alter table jobs add column if not exists serial_key text;
alter table jobs add column if not exists priority smallint not null default 0;

-- The claim: due pending jobs of a queue in (priority, run_at, id) order. It replaces
-- jobs_pending_due (queue, run_at, id). The reads that want the earliest due jobs (the claim, the
-- next due time, the depth's due count and oldest due job) take the queue's priorities from
-- jobs_pending_priorities below and read each priority's range of this index in run_at order,
-- stopping at the first job not due yet, so no read walks the jobs due later.
create index if not exists jobs_pending_claim on jobs (queue, priority, run_at, id)
    where state = 'pending';
drop index if exists jobs_pending_due;

-- The claim's first check on a keyed candidate: an older pending job of its key.
create index if not exists jobs_serial_pending on jobs (queue, serial_key, id)
    where serial_key is not null and state = 'pending';
-- Its second check, a running job of its key; and, being unique, the guarantee that two jobs of
-- one key never run at once even if a claim raced with an admin's retry of a failed job of the
-- key (that claim fails instead, and is tried again).
create unique index if not exists jobs_serial_running on jobs (queue, serial_key)
    where serial_key is not null and state = 'running';

-- A key's next job becomes claimable when the job ahead of it is done, failed or cancelled,
-- which no enqueue announces: wake the queue's workers then (a NOTIFY on the queue's channel,
-- `pgqueue::NOTIFY_CHANNEL`, delivered at commit), when a job of the key is pending. A hint like
-- every NOTIFY (workers also poll); the WHEN clause keeps it off the path of keyless jobs.
create or replace function notify_key_released() returns trigger language plpgsql as $$
begin
    if exists (select from jobs
               where queue = new.queue and serial_key = new.serial_key and state = 'pending') then
        perform pg_notify('pgqueue_jobs', new.queue);
    end if;
    return null;
end
$$;

drop trigger if exists jobs_key_released on jobs;
create trigger jobs_key_released
    after update of state on jobs
    for each row
    when (new.serial_key is not null and old.state in ('pending', 'running')
          and new.state in ('done', 'failed', 'cancelled'))
    execute function notify_key_released();

-- The priorities of a queue's pending jobs, ascending: a loose index scan of jobs_pending_claim,
-- one probe per priority (a queue has few), from the highest down, so that no probe walks the
-- entries of jobs claimed a moment ago that the start of the index holds until vacuum. A set of
-- one SELECT, STABLE: the planner inlines it into the query that calls it.
create or replace function jobs_pending_priorities(q text) returns table (priority smallint)
language sql stable as $$
    with recursive found as (
        (select j.priority from jobs j
         where j.queue = q and j.state = 'pending'
         order by j.priority desc limit 1)
        union all
        select (select j.priority from jobs j
                where j.queue = q and j.state = 'pending' and j.priority < found.priority
                order by j.priority desc limit 1)
        from found where found.priority is not null)
    select found.priority from found where found.priority is not null order by found.priority
$$;

-- The claim (see `Queue::claim`): up to `lim` due jobs of queue `q` go to `running` under a lease
-- for `worker`, by (priority, run_at, id). A keyed candidate is taken only when no job of its
-- queue and key is running and no older one is pending; both checks read the statement's snapshot,
-- not the row locks, so a claimer that skips a locked older job of the key still sees it pending.
-- (`r.id <> c.id` is always true; it keeps the running check a probe of jobs_serial_running per
-- candidate instead of a hash of every running job.) The priorities are walked in ascending order
-- by a nested loop and the outer LIMIT takes the first `lim`, so rows are locked only as they are
-- taken; `= any(array(...))` runs the candidates' subquery once.
--
-- A function so that its plan is made once per connection: a statement with a LIMIT parameter is
-- otherwise planned anew at every call (PostgreSQL's estimate of a generic plan for it is far off,
-- so it keeps choosing custom plans), and planning would cost the claim more than it runs. JIT is
-- off because that estimate would otherwise compile the plan at every call.
create or replace function claim_jobs(q text, lim bigint, lease float8, worker text)
returns table (id bigint, queue text, payload jsonb, attempt integer, max_attempts integer,
               claim integer, throttles integer, serial_key text, priority smallint,
               run_at timestamptz, locked_until timestamptz)
language plpgsql volatile
set plan_cache_mode = force_generic_plan
set jit = off
as $$
#variable_conflict use_column
begin
    return query
    update jobs j
    set state = 'running', attempts = j.attempts + 1, claims = j.claims + 1,
        locked_until = now() + make_interval(secs => lease), locked_by = worker,
        claimed_at = now(), updated_at = now()
    where j.id = any(array(
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
            limit lim
            for update of c skip locked) due
        limit lim))
    returning j.id, j.queue, j.payload, j.attempts, j.max_attempts, j.claims, j.throttles,
              j.serial_key, j.priority, j.run_at, j.locked_until;
end
$$;
