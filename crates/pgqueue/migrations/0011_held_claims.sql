-- The transactional (lock-held) claim, an opt-in mode of a runner (`ClaimMode::Transactional`,
-- `Queue::claim_held`): a worker takes a due job's row lock with `FOR UPDATE SKIP LOCKED` in a
-- transaction, runs the job while it holds the lock, and writes the outcome in one update in the same
-- transaction: one row version and one commit per job, as the seed's loop. The lease of such a job
-- is the live transaction; the session ends after the lease of idleness
-- (`idle_in_transaction_session_timeout`, set here for the transaction), which frees the lock.
--
-- `claim_held_job` holds only keyless jobs. A keyed job it finds first (eligible by the same serial-key
-- checks as every claim) it claims under a lease as `claim_jobs` does, in the same transaction, which
-- the caller commits at once: a key's jobs stay one at a time whichever mode claims them, because
-- `jobs_serial_running` and the checks see only `running` jobs, and a held job stays `pending`.
--
-- Order and priorities as the general claim: the highest pending priority first (two probes of
-- `jobs_pending_claim` from the top, as `complete_and_claim_job` of 0010); a one-priority queue takes
-- its first due job in (run_at, id) order that passes the serial-key checks with one index scan; a
-- queue of several priorities walks them with `jobs_pending_priorities`. No scan walks a priority's
-- jobs due later. A keyed job that fails the checks is filtered out before it is locked, so no lock is
-- taken on a job this claim does not take.
--
-- A held job's attempt is counted by its outcome, so an attempt whose worker died (its transaction
-- rolled back) is not. Its row keeps the mark of that: the lock left the dead transaction's id in
-- the row's `xmax`, which the claim reads before it takes its own lock (a held job whose outcome
-- commits is a new row version, with none, or with the key-share lock of its own transaction's
-- attempt history, `xmax` = `xmin`: a holder's claim is a transaction of its own). Such a job is claimed under a lease instead, which
-- counts the attempt and leaves a crash to the reaper: of two runs that kill their process, at
-- least one is counted, so a job that always does is failed after at most twice its attempts.
--
-- A held job's returned `attempt` and `claim` are those its outcome will write (one more than the
-- row's), `locked_until` when the session would be ended.
create or replace function claim_held_job(q text, lease float8, worker text)
returns table (held boolean, id bigint, queue text, payload jsonb, attempt integer,
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
    found_id bigint;
    found_key text;
    found_xmax xid;
    found_xmin xid;
begin
    select h.priority,
           (select l.priority from jobs l
            where l.queue = q and l.state = 'pending' and l.priority < h.priority
            order by l.priority desc limit 1)
    into top_priority, lower_priority
    from (select t.priority from jobs t
          where t.queue = q and t.state = 'pending'
          order by t.priority desc limit 1) h;
    if top_priority is null then
        return;
    end if;

    if lower_priority is null then
        select c.id, c.serial_key, c.xmax, c.xmin into found_id, found_key, found_xmax, found_xmin
        from jobs c
        where c.queue = q and c.state = 'pending' and c.priority = top_priority
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
        for update of c skip locked;
    else
        select due.id, due.serial_key, due.xmax, due.xmin
        into found_id, found_key, found_xmax, found_xmin
        from jobs_pending_priorities(q) p
        cross join lateral (
            select c.id, c.serial_key, c.xmax, c.xmin from jobs c
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
        limit 1;
    end if;
    if found_id is null then
        return;
    end if;

    -- A keyed job, or one whose row carries the mark of a holder that never wrote its outcome (see
    -- above): claimed under a lease, its attempt counted.
    if found_key is not null or (found_xmax <> '0'::xid and found_xmax <> found_xmin) then
        return query
        update jobs j
        set state = 'running', attempts = j.attempts + 1, claims = j.claims + 1,
            locked_until = now() + make_interval(secs => lease), locked_by = worker,
            claimed_at = now(), updated_at = now()
        where j.id = found_id
        returning false, j.id, j.queue, j.payload, j.attempts, j.max_attempts, j.claims,
                  j.throttles, j.serial_key, j.priority, j.run_at, j.locked_until;
        return;
    end if;

    -- The lease of a held job: the session is ended once it has been idle in this transaction
    -- for the lease (a hung or cut-off worker), which rolls the transaction back and frees the lock.
    perform set_config('idle_in_transaction_session_timeout',
                       greatest(1, ceil(lease * 1000))::bigint::text, true);
    return query
    select true, j.id, j.queue, j.payload, j.attempts + 1, j.max_attempts, j.claims + 1,
           j.throttles, j.serial_key, j.priority, j.run_at,
           now() + make_interval(secs => lease)
    from jobs j
    where j.id = found_id;
end
$$;

-- The attempt history also for held jobs. A held job's outcome moves it from `pending` (the state it
-- keeps while held) to its result in one update that increments `claims`; no other transition out
-- of `pending` does. Its attempt is the row's count plus one, its worker and start the outcome's
-- `locked_by` and `claimed_at`. The rest as in 0008.
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
    -- The same for a held job's outcome (a counted attempt or a throttle).
    elsif old.state = 'pending' and new.state <> 'running' and new.claims > old.claims
          and new.last_error is not null
          and (new.attempts > old.attempts or new.throttles > old.throttles) then
        insert into job_attempts (job_id, attempt, worker, started_at, outcome, error, error_class)
        values (new.id, old.attempts + 1, new.locked_by, new.claimed_at,
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
