-- Cards that stay true (issue 24): whether a sent reminder's message still shows its buttons. Done,
-- Snooze, Delete, a pause and every newer card of the task take them away, so that one card of a
-- task is live at a time. Expand-only: the previous release never reads it.
alter table reminders add column if not exists card_live boolean not null default true;
