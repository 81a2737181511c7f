-- The bot's tables: chats, their tasks, each reminder occurrence, the questions the bot waits to
-- have answered, and the admin log. The job queue's tables are the queue's own (crates/pgqueue,
-- applied first by `remindbot migrate`); nothing here reads or writes them.
--
-- Written so that it also adopts a database made by the single-crate releases (whose migrations
-- created these same tables and recorded themselves in `_sqlx_migrations`, which is left as it
-- was): every statement leaves what exists alone and brings it to this shape.

-- A Telegram chat that uses the bot: a private chat with a user, or a group. Reminders go to it.
create table if not exists chats (
    chat_id             bigint primary key,
    kind                text        not null default 'private'
                        check (kind in ('private', 'group', 'supergroup', 'channel')),
    lang                text        not null default 'en' check (lang in ('en', 'ru', 'uz')),
    -- IANA zone; null until the user has chosen one.
    tz                  text,
    -- Remind this long before a task's deadline unless the task says otherwise.
    default_lead_secs   integer     not null default 0 check (default_lead_secs >= 0),
    -- False once Telegram said the chat cannot be reached (blocked, deactivated, not found,
    -- kicked); recurring tasks pause until the chat is back.
    reachable           boolean     not null default true,
    unreachable_reason  text,
    created_at          timestamptz not null default now(),
    updated_at          timestamptz not null default now()
);

-- A task: a text with a deadline, optionally recurring (a rule in local wall-clock terms, in the
-- zone `tz`), reminded `lead_secs` before each deadline.
create table if not exists tasks (
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
create index if not exists tasks_open_by_chat on tasks (chat_id, due_at)
    where state in ('open', 'paused');
-- Moving a migrated group's tasks (the cascade) and admin look-ups by chat.
create index if not exists tasks_by_chat on tasks (chat_id);
-- The open-task limit counts a user's open tasks at every new task.
create index if not exists tasks_open_by_owner on tasks (owner_id) where state = 'open';
-- Retention deletes finished tasks (their reminders go with them) after the retention period.
create index if not exists tasks_finished on tasks (updated_at) where state in ('done', 'deleted');

-- One reminder occurrence: when it fires, its queue job, and whether it went out. `sent` is written
-- in the transaction that completes the job, so a re-run job skips a reminder already sent.
create table if not exists reminders (
    id          bigint generated always as identity primary key,
    task_id     bigint      not null references tasks (id) on delete cascade,
    -- The deadline of this occurrence, and when its reminder fires (deadline − lead, or a snooze).
    due_at      timestamptz not null,
    fire_at     timestamptz not null,
    -- 'occurrence' follows the task's schedule; 'snooze' is an extra one the user asked for.
    kind        text        not null default 'occurrence' check (kind in ('occurrence', 'snooze')),
    -- The queue job that delivers it (the queue's id; no foreign key across the boundary).
    job_id      bigint,
    sent        boolean     not null default false,
    sent_at     timestamptz,
    message_id  bigint,
    created_at  timestamptz not null default now()
);
-- One reminder per occurrence: enqueueing the next occurrence twice is a no-op.
create unique index if not exists reminders_one_per_occurrence on reminders (task_id, due_at)
    where kind = 'occurrence';
create index if not exists reminders_by_task on reminders (task_id);
-- Admin views and actions find a job's reminder.
create index if not exists reminders_by_job on reminders (job_id);
-- The last hour's deliveries, and retention of old sent reminders.
create index if not exists reminders_sent on reminders (sent_at) where sent;

-- What the bot is waiting for from a user in a chat (the answer to "when?", a new time for a task,
-- a custom snooze, a time zone). One open question per user and chat; it survives restarts.
create table if not exists conversations (
    chat_id     bigint      not null references chats (chat_id) on update cascade on delete cascade,
    user_id     bigint      not null,
    kind        text        not null
                check (kind in ('new_task_time', 'edit_task', 'snooze_time', 'time_zone')),
    -- The task being edited or snoozed.
    task_id     bigint      references tasks (id) on delete cascade,
    -- The text of a task still waiting for its time.
    text        text        check (char_length(text) <= 1000),
    created_at  timestamptz not null default now(),
    primary key (chat_id, user_id)
);
create index if not exists conversations_created on conversations (created_at);

-- Who did what to which job, and when.
create table if not exists admin_actions (
    id      bigint generated always as identity primary key,
    at      timestamptz not null default now(),
    actor   text        not null,
    action  text        not null,
    job_id  bigint,
    detail  text
);
create index if not exists admin_actions_at on admin_actions (at);
