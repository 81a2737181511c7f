-- /export: when each chat last asked for its files. The files are built when they are sent, from
-- the chat's tasks at that moment (the outbox's job carries only which file); this row makes a
-- chat wait a while between two exports.
create table if not exists export_requests (
    chat_id      bigint      primary key references chats (chat_id) on update cascade on delete cascade,
    requested_at timestamptz not null
);
