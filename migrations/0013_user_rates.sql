-- The per-user message rate, shared by every replica: for each user who wrote lately, the
-- theoretical arrival time of their next message (GCRA: `tat` minus now is how much of a minute's
-- burst is used) and when they were last told to wait. A row of a user whose rate has fully
-- recovered says nothing a missing row would not, and is removed.
create table if not exists user_rates (
    user_id   bigint      primary key,
    tat       timestamptz not null,
    warned_at timestamptz
);
