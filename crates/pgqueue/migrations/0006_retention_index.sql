-- Retention deletes finished jobs by age. Without an index on their finish time it read the whole
-- table on every pass, even when nothing was old enough (1.1 s at 10 million rows). A partial index
-- of exactly the rows it may delete costs one index entry per finished job and makes a pass read
-- only what it deletes.
create index if not exists jobs_finished_purge on jobs (finished_at)
    where state in ('done', 'cancelled');
