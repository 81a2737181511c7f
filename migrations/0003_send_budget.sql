-- One budget for everything the bot sends, shared by every replica (the egress workers pace
-- themselves by these rows, never by process memory).
--
-- send_budget: the overall budget as a virtual schedule (GCRA): `next_at` is the earliest time
-- the next message may leave. A sender takes the slot at greatest(next_at, now()) and moves
-- next_at on by one interval, in one UPDATE of this row; `paused_until` is a bot-wide pause after
-- 429s from several chats at once (Telegram's flood limit).
create table if not exists send_budget (
    name          text primary key,
    next_at       timestamptz not null default now(),
    paused_until  timestamptz
);
insert into send_budget (name) values ('telegram') on conflict (name) do nothing;

-- chat_sends: the same per chat (1 message per second, 20 per minute in a group). `line_at` is
-- the end of the line of messages told to come back later, so that many messages for one chat
-- come back one per slot rather than all together; `paused_until` is the pause of a 429.
create table if not exists chat_sends (
    chat_id       bigint primary key,
    next_at       timestamptz not null default now(),
    line_at       timestamptz not null default now(),
    paused_until  timestamptz
);
-- Retention of chats that have been quiet for a while.
create index if not exists chat_sends_next on chat_sends (next_at);

-- The 429s of the last seconds: 429s from several chats within a short window are a flood over
-- the whole bot, whichever replica got them.
create table if not exists send_throttles (
    chat_id  bigint      not null,
    at       timestamptz not null default now()
);
create index if not exists send_throttles_at on send_throttles (at);

-- Edits of one message coalesce to the newest: the job of the latest edit of each message. An
-- older edit job finds itself superseded here and is done without a request.
create table if not exists message_edits (
    chat_id     bigint  not null,
    message_id  integer not null,
    job_id      bigint  not null,
    primary key (chat_id, message_id)
);
