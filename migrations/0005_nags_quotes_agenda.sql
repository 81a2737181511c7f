-- What the best reminder bots have: nagging until done, reminders that quote a message, and a
-- morning agenda. Only new tables: the previous release reads and writes nothing of them.

-- A task that is reminded again every `every_secs` after each of its reminders until it is done,
-- at most 12 times (and never beyond 24 hours) after the reminder that starts a round. Each nag
-- is an extra reminder (a `reminders` row of kind 'snooze' with its own job, so that a snooze
-- replaces it and Done, a change or a deletion cancels it like any reminder not yet sent).
create table if not exists task_nags (
    task_id              bigint      primary key references tasks (id) on delete cascade,
    every_secs           integer     not null check (every_secs between 60 and 86400),
    -- The nag waiting to go out, if any.
    pending_reminder_id  bigint      references reminders (id) on delete set null,
    -- Nags sent since the reminder that started the round.
    round_sent           integer     not null default 0 check (round_sent >= 0),
    -- Keep reminding under one reminder: only for the occurrence due then (the row goes when a
    -- later occurrence is reminded of), where "until done" in the task's phrase (null here) nags
    -- after every reminder of the task.
    only_for             timestamptz,
    created_at           timestamptz not null default now(),
    updated_at           timestamptz not null default now()
);
create index if not exists task_nags_pending on task_nags (pending_reminder_id)
    where pending_reminder_id is not null;

-- The message a task reminds of (a reply with only a time to a message): its text, caption or a
-- placeholder for media, and the message's id in the chat, which the reminder replies to.
create table if not exists task_quotes (
    task_id     bigint      primary key references tasks (id) on delete cascade,
    quote       text        not null check (char_length(quote) between 1 and 4096),
    message_id  bigint,
    created_at  timestamptz not null default now()
);

-- A chat's morning agenda: every day at `local_time` in the zone `tz` (the chat's when it was
-- scheduled), the day's tasks. One queue job at a time (`job_id`, due at `next_at`); the next
-- day's is enqueued in the transaction that records one as sent or gives it up, so the series
-- never ends by accident. `sent_for` is the instant of the last agenda sent (the sent flag).
create table if not exists agendas (
    id          bigint      generated always as identity primary key,
    chat_id     bigint      not null unique
                references chats (chat_id) on update cascade on delete cascade,
    local_time  time        not null,
    tz          text        not null,
    next_at     timestamptz not null,
    job_id      bigint,
    sent_for    timestamptz,
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);
