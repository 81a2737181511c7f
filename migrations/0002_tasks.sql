-- Chats, their tasks, and each reminder occurrence.

-- A Telegram chat that uses the bot: a private chat with a user, or a group. Reminders go to it.
create table chats (
    chat_id             bigint primary key,
    kind                text        not null default 'private'
                        check (kind in ('private', 'group', 'supergroup', 'channel')),
    lang                text        not null default 'en' check (lang in ('en', 'ru', 'uz')),
    -- IANA zone; null until the user has chosen one.
    tz                  text,
    -- Remind this long before a task's deadline unless the task says otherwise.
    default_lead_secs   integer     not null default 0 check (default_lead_secs >= 0),
    -- False once Telegram said the chat cannot be reached (blocked, deactivated, not found,
    -- kicked); recurring tasks pause until the user writes again.
    reachable           boolean     not null default true,
    unreachable_reason  text,
    created_at          timestamptz not null default now(),
    updated_at          timestamptz not null default now()
);

-- A task: a text with a deadline, optionally recurring (a rule in local wall-clock terms, in the
-- zone `tz`), reminded `lead_secs` before each deadline.
create table tasks (
    id          bigint generated always as identity primary key,
    -- ON UPDATE CASCADE: a group upgraded to a supergroup moves with its tasks.
    chat_id     bigint      not null references chats (chat_id) on update cascade,
    -- The Telegram user who created it (in a group, one of its members).
    owner_id    bigint      not null,
    text        text        not null check (char_length(text) between 1 and 1000),
    due_at      timestamptz not null,
    lead_secs   integer     not null default 0 check (lead_secs >= 0),
    rule        text,
    tz          text        not null,
    state       text        not null default 'open'
                check (state in ('open', 'paused', 'done', 'deleted')),
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);
create index tasks_open_by_chat on tasks (chat_id, due_at) where state in ('open', 'paused');
-- Moving a migrated group's tasks (the cascade) and admin look-ups by chat.
create index tasks_by_chat on tasks (chat_id);

-- One reminder occurrence: when it fires, its queue job, and whether it went out. `sent` is written
-- in the transaction that completes the job, so a re-run job skips a reminder already sent.
create table reminders (
    id          bigint generated always as identity primary key,
    task_id     bigint      not null references tasks (id) on delete cascade,
    -- The deadline of this occurrence, and when its reminder fires (deadline − lead, or a snooze).
    due_at      timestamptz not null,
    fire_at     timestamptz not null,
    -- 'occurrence' follows the task's schedule; 'snooze' is an extra one the user asked for.
    kind        text        not null default 'occurrence' check (kind in ('occurrence', 'snooze')),
    job_id      bigint,
    sent        boolean     not null default false,
    sent_at     timestamptz,
    message_id  bigint,
    created_at  timestamptz not null default now()
);
-- One reminder per occurrence: enqueueing the next occurrence twice is a no-op.
create unique index reminders_one_per_occurrence on reminders (task_id, due_at)
    where kind = 'occurrence';
create index reminders_by_task on reminders (task_id);
