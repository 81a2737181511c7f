-- The overall send slots as functions, so that the paid slots (issue 26) are taken in one round
-- trip instead of a transaction of six (BEGIN, today's row, the stops, the slots, the count,
-- COMMIT): at the paid rate of about 1,000 messages a second the paid slot task runs that
-- transaction hundreds of times a second, one after another. plpgsql, so that each statement's plan
-- is made once per connection; each statement inside sees what committed before it (READ
-- COMMITTED), as the transaction's statements did.

-- take_budget_slots: up to `max_slots` consecutive slots of the send_budget row `budget`, as many as
-- fall within `horizon_secs` from now (at least one when the next one does), `interval_secs`
-- apart: the row's next_at moves on by one interval per slot. `first`, `count` and `in_secs` are
-- null when none is granted; then `retry_secs` says when to ask again and `paused` whether a
-- bot-wide pause is why.
create or replace function take_budget_slots(budget text, interval_secs float8,
                                             horizon_secs float8, max_slots int4)
returns table (first timestamptz, count int4, in_secs float8, retry_secs float8, paused boolean)
language plpgsql volatile
as $$
#variable_conflict use_column
begin
    return query
    with current as (
        select greatest(next_at, now()) as start
        from send_budget
        where name = budget
          and greatest(next_at, now()) <= now() + make_interval(secs => horizon_secs)
          and (paused_until is null or paused_until <= now())
        for update),
    batch as (
        select start,
               least(max_slots,
                     floor(extract(epoch from now() + make_interval(secs => horizon_secs) - start)
                           / interval_secs)::int4 + 1) as n
        from current),
    taken as (
        update send_budget
           set next_at = batch.start + make_interval(secs => interval_secs * batch.n)
          from batch
         where name = budget
        returning batch.start, batch.n)
    select (select start from taken),
           (select n from taken),
           (select extract(epoch from start - now())::float8 from taken),
           extract(epoch from greatest(b.next_at - make_interval(secs => horizon_secs),
                                       coalesce(b.paused_until, now()), now())
                              - now())::float8,
           coalesce(b.paused_until > now(), false)
    from send_budget b where b.name = budget;
end
$$;

-- take_paid_slots: paid slots (the send_budget row 'paid') as take_budget_slots gives them, no
-- more than today's budget of `tenths_per_day` has left at `tenths_per_slot` each, counted against
-- it (paid_broadcast_days, today by UTC, locked first so that replicas taking slots at once count
-- them together). None are taken while a refusal's pause runs (`refused`), while all sending is
-- paused after a flood (`flood`, the send_budget row `free_budget`) or once today's budget is
-- spent (`spent_tenths` as read before taking).
create or replace function take_paid_slots(interval_secs float8, horizon_secs float8,
                                           max_slots int4, tenths_per_day int8,
                                           tenths_per_slot int8, free_budget text)
returns table (refused boolean, flood boolean, spent_tenths int8, first timestamptz, count int4,
               in_secs float8, retry_secs float8, paused boolean)
language plpgsql volatile
as $$
#variable_conflict use_column
declare
    spent int8;
    is_refused boolean;
    is_flood boolean;
    slots_left int8;
    slots record;
begin
    insert into paid_broadcast_days as d (day) values ((now() at time zone 'utc')::date)
    on conflict (day) do update set spent_tenths = d.spent_tenths
    returning d.spent_tenths into spent;
    select exists (select 1 from paid_broadcast_refusal where until > now()),
           exists (select 1 from send_budget where name = free_budget and paused_until > now())
      into is_refused, is_flood;
    slots_left := (tenths_per_day - spent) / tenths_per_slot;
    if is_refused or is_flood or slots_left <= 0 then
        return query select is_refused, is_flood, spent, null::timestamptz, null::int4,
                            null::float8, null::float8, null::boolean;
        return;
    end if;
    select * into slots
    from take_budget_slots('paid', interval_secs, horizon_secs,
                           least(max_slots::int8, slots_left)::int4);
    if slots.count is not null then
        update paid_broadcast_days as d set spent_tenths = d.spent_tenths + slots.count * tenths_per_slot
        where d.day = (now() at time zone 'utc')::date;
    end if;
    return query select false, false, spent, slots.first, slots.count, slots.in_secs,
                        slots.retry_secs, slots.paused;
end
$$;
