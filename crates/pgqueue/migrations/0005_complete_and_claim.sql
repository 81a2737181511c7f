-- One round trip, one commit per job for a worker that takes one job at a time: record that the
-- job it ran is done (fenced by its claim, as `Queue::complete` is) and claim the next due job of
-- the queue, in one transaction. The claim is a second statement of the function, so it sees the
-- completion: the next job of the finished job's serial key can be the one it takes.
--
-- Always returns one row: `completed` says whether the finished job's lease still held (false:
-- nothing was recorded, another worker has it now), and the other columns are the next job's,
-- all null when none is due.
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
    recorded boolean;
begin
    update jobs j
    set state = 'done', locked_until = null, finished_at = now(), updated_at = now()
    where j.id = done_id and j.state = 'running' and j.claims = done_claim;
    recorded := found;
    return query
    select recorded, next.*
    from (select) one
    left join claim_jobs(q, 1, lease, worker) next on true;
end
$$;
