-- What the bot is waiting for from a user in a chat (the answer to "when?", a new time for a task,
-- a custom snooze, a time zone). One open question per user and chat; it survives restarts.
create table conversations (
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
