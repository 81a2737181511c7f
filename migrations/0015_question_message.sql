-- A question the bot asks with buttons loses them once it is answered or replaced (issue 24),
-- also when the answer is typed: each question asked gets a number of its own, and the egress
-- writes the message that asked it next to it once sent. Expand-only: the previous release
-- leaves both as their defaults and never reads them.
create sequence if not exists conversation_questions;
alter table conversations
    add column if not exists question_id bigint not null default nextval('conversation_questions');
alter table conversations add column if not exists question_message_id bigint;
