-- `confirm_job`: the confirmation of `Queue::recheck` as a function, for a program that confirms a
-- claim right before an act that must not happen twice inside a statement of its own (the act's
-- booking, one round trip) without writing the queue's table itself. The job must still be
-- `running` under claim `job_claim`, and its worker not marked missing (see the reaper); its lease
-- is then extended by `lease_secs` from now and the new deadline returned. Null when the claim is
-- not confirmed, and nothing is written: the caller must not act.
--
-- plpgsql, so that the update's plan is made once per connection rather than at every call.
create or replace function confirm_job(job_id bigint, job_claim integer, lease_secs float8)
returns timestamptz
language plpgsql volatile
as $$
declare
    until timestamptz;
begin
    update jobs j set locked_until = now() + make_interval(secs => lease_secs), updated_at = now()
    where j.id = job_id and j.state = 'running' and j.claims = job_claim
      and not exists (select 1 from queue_workers w
                      where w.worker_id = j.locked_by and w.missing_since is not null)
    returning j.locked_until into until;
    return until;
end
$$;
