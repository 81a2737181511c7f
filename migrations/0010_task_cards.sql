-- Cards that stay true (issue 24): whether a sent reminder's message still shows its buttons. Done,
-- Snooze, Delete, a pause and every newer card of the task take them away, so that one card of a
-- task is live at a time. Cards sent before this release count as closed (they keep the buttons
-- they had, as before): otherwise the first change of each task would edit every card it ever
-- had, a flood of edits ahead of everyone's reminders. Expand-only: the previous release never
-- reads it.
alter table reminders add column if not exists card_live boolean not null default false;
alter table reminders alter column card_live set default true;
