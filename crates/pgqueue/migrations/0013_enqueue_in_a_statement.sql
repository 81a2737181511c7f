-- `reserve_job_id` and `enqueue_reserved_jobs`: enqueueing from inside a statement of the program's
-- own, for a program that writes its rows and the jobs that handle them in one statement (one
-- round trip, no explicit transaction) without writing the queue's table itself, each row keeping
-- its job's id. A row and its job point at each other, and the sub-statements of one statement
-- cannot see each other's rows; so the program reserves the job's id while it writes its row
-- (`reserve_job_id()` in the row's values), and the job is then written under that id from what
-- the row's insert returned (`enqueue_reserved_jobs`), in the same statement: both or neither.
-- Rows the program's insert skips (ON CONFLICT DO NOTHING) leave their reserved ids unused, a gap
-- in the ids and nothing else.

-- A new job id, for a job written in the same transaction by `enqueue_reserved_jobs`. Ids reserved
-- one after another increase, so jobs of one serial key reserved in their order run in it.
create or replace function reserve_job_id() returns bigint
language sql volatile
as $$
    select nextval(pg_get_serial_sequence('jobs', 'id'))
$$;

-- Writes the jobs `job_ids[i]` (each reserved by `reserve_job_id()`) of queue `job_queue` with the
-- payload `payloads->i` (a JSON array) and the serial key `serial_keys[i]` (a null array: no keys),
-- due now, priority 0, no dedupe key, up to `job_max_attempts` attempts each, and wakes the queue's
-- workers at commit; returns how many it wrote. Null arrays write nothing. Arrays of unequal
-- lengths (a job without its id or payload), a reused id or a refused value fail the whole
-- statement, the caller's rows with it.
create or replace function enqueue_reserved_jobs(
    job_queue text, job_ids bigint[], payloads jsonb, serial_keys text[], job_max_attempts integer)
returns integer
language plpgsql volatile
as $$
declare
    written integer;
begin
    if cardinality(job_ids) is distinct from jsonb_array_length(payloads)
       or cardinality(serial_keys) <> cardinality(job_ids) then
        raise exception 'enqueue_reserved_jobs: % ids, % payloads, % serial keys',
            cardinality(job_ids), jsonb_array_length(payloads), cardinality(serial_keys);
    end if;
    insert into jobs (id, queue, payload, max_attempts, serial_key)
    overriding system value
    select id, job_queue, payload, job_max_attempts, serial_key
    from rows from (unnest(job_ids), jsonb_array_elements(payloads), unnest(serial_keys))
        as j(id, payload, serial_key);
    get diagnostics written = row_count;
    if written > 0 then
        perform pg_notify('pgqueue_jobs', job_queue);
    end if;
    return written;
end
$$;
