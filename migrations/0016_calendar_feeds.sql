-- /calendar: each chat's one live calendar-feed URL (issue 27). Only the SHA-256 of the URL's
-- random secret is kept, so neither a database dump nor a log of this table opens a feed; a new
-- URL replaces the row, and the old one answers 404 at once.
create table if not exists calendar_feeds (
    chat_id     bigint      primary key references chats (chat_id) on update cascade on delete cascade,
    secret_hash bytea       not null unique check (octet_length(secret_hash) = 32),
    created_at  timestamptz not null default now()
);

-- A task's revision: 0 when created, one more with every update that changes the row, whichever
-- statement (or release) makes it. The feed's events carry it as their SEQUENCE, and the feed's
-- ETag is made of the tasks' ids and revisions, so a calendar app sees every change. Kept by a
-- trigger rather than by each statement, so that no change can forget it. Expand-only: the
-- previous release neither reads nor writes the column, and its updates bump it too.
alter table tasks add column if not exists revision integer not null default 0;

create or replace function tasks_next_revision() returns trigger
    language plpgsql as $$
begin
    new.revision := old.revision + 1;
    return new;
end
$$;

drop trigger if exists tasks_revision on tasks;
create trigger tasks_revision before update on tasks
    for each row when (old.* is distinct from new.*)
    execute function tasks_next_revision();
