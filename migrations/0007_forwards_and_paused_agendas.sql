-- Remind about a forwarded message, and a morning agenda that pauses with its chat (issue 14).
-- Expand-only: the previous release's statements still run, and what it writes is still allowed.

-- Two more things a user's open question may be: "when?" about a forwarded message (its quote,
-- up to Telegram's 4,096 characters, and the message the reminder replies to), and a time said
-- alone just before a forward (a forward with a comment), waiting for the forward.
alter table conversations drop constraint if exists conversations_kind_check;
alter table conversations add constraint conversations_kind_check
    check (kind in ('new_task_time', 'edit_task', 'snooze_time', 'time_zone',
                    'quote_time', 'time_for_forward'));
alter table conversations add column if not exists quote text
    check (char_length(quote) <= 4096);
alter table conversations add column if not exists message_id bigint;
-- When the user said the time (Telegram's date of their message).
alter table conversations add column if not exists said_at timestamptz;

-- An agenda whose chat became unreachable waits, without a job, until the chat is back.
alter table agendas add column if not exists paused boolean not null default false;

-- A time said alone looks at the chat's next update in the inbox (is it a forward?).
create index if not exists updates_by_chat on updates (chat_id, id);
