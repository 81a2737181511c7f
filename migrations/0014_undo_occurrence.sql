-- Undoing Done on a recurring task puts its series back where it stood (issue 24): the number of
-- the occurrence before the change. Expand-only: null (as the previous release leaves it) keeps
-- the task's own number.
alter table task_undo add column if not exists before_occurrence integer;
