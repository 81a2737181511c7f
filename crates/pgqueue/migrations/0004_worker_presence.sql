-- Workers that announce their presence: each holds a session advisory lock on its `lock_key`, on
-- a connection of its own, for as long as its process lives. When the process dies its
-- connection closes and the lock goes with it, so the reaper can tell a dead worker from a busy
-- one at once and return its jobs without waiting for their leases to expire. Workers that do
-- not announce themselves are reaped by their leases only.
create sequence if not exists queue_worker_keys;
create table if not exists queue_workers (
    worker_id   text        primary key,
    -- "PQ" in the high bytes keeps the keys apart from the program's own advisory locks.
    lock_key    bigint      not null unique
                default ((x'5051'::bigint << 48) + nextval('queue_worker_keys')),
    started_at  timestamptz not null default now()
);
