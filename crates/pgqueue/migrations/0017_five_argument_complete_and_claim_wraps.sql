-- The five-argument `complete_and_claim_job` (0010), kept for the previous release's statements,
-- becomes the six-argument form (0016) with `delete_done` false: the same completion (the row is
-- kept as done) and the same claim, written once. Before, 0016 copied the whole body, and a change
-- to the claim would have had to be made twice.
create or replace function complete_and_claim_job(done_id bigint, done_claim integer, q text,
                                                  lease float8, worker text)
returns table (completed boolean, id bigint, queue text, payload jsonb, attempt integer,
               max_attempts integer, claim integer, throttles integer, serial_key text,
               priority smallint, run_at timestamptz, locked_until timestamptz)
language sql volatile
as $$
    select * from complete_and_claim_job(done_id, done_claim, q, lease, worker, false)
$$;
