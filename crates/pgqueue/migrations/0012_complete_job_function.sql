-- `complete_job`: the fenced completion of `Queue::complete` as a function, for a program that
-- records a job's own effects and its completion in one statement (one round trip, no explicit
-- transaction) without writing the queue's table itself. True when the job was still `running`
-- under claim `job_claim` and is now `done`; false when its lease was lost, and nothing is written.
create or replace function complete_job(job_id bigint, job_claim integer) returns boolean
language sql volatile
as $$
    with done as (
        update jobs set state = 'done', locked_until = null, finished_at = now(),
                        updated_at = now()
        where id = job_id and state = 'running' and claims = job_claim
        returning 1)
    select exists (select from done)
$$;
