-- The inbox: every update Telegram sends, written (with the job that handles it) and committed
-- before Telegram is told it arrived. `update_id` is Telegram's and unique, so an update received
-- twice (a webhook retried, a poller that restarted before confirming) is stored once. A body
-- that could not be read as an update is kept too (without an update_id), for admins.
create table if not exists updates (
    id           bigint generated always as identity primary key,
    update_id    bigint unique,
    -- The chat it comes from, when it has one: its updates are handled one at a time, in order.
    chat_id      bigint,
    kind         text        not null,
    raw          jsonb,
    -- What arrived, when it was no update (not JSON, no update_id).
    body         text,
    received_at  timestamptz not null default now(),
    -- The queue job that handles it.
    job_id       bigint,
    handled_at   timestamptz
);
-- Retention of handled updates, and the admin's look-up of a failed update's job.
create index if not exists updates_received on updates (received_at);
create index if not exists updates_by_job on updates (job_id);
