-- Paid broadcast (PAID_BROADCAST, issue 26): reminders that would otherwise be late go out with
-- allow_paid_broadcast above Telegram's free 30/s, within a daily Stars budget the operator sets.
-- Shared by every replica, like the rest of the send budget.
--
-- send_budget 'paid': the schedule of the paid slots (the same GCRA row as 'telegram', at the rate
-- above the free one). Its `paused_until` stays unused: a refusal is kept below.
insert into send_budget (name) values ('paid') on conflict (name) do nothing;

-- The Stars given to paid sends per UTC day, in tenths of a Star (0.1 Star a message). A slot is
-- counted when it is taken, before its send: an upper bound of what Telegram charges (it charges
-- only messages over the free limit, and a slot left unused is counted too).
create table if not exists paid_broadcast_days (
    day           date   primary key,
    spent_tenths  bigint not null default 0 check (spent_tenths >= 0)
);

-- The last time Telegram refused a paid send (no balance, not eligible): paid sends stop until
-- `until`, on every replica, and `remindbot check` says when and why. One row at most.
create table if not exists paid_broadcast_refusal (
    only_row    boolean     primary key default true check (only_row),
    refused_at  timestamptz not null,
    until       timestamptz not null,
    reason      text        not null
);
