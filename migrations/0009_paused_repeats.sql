-- A repeat its user paused (issue 24): the task stays open but nothing of it is scheduled until
-- it is resumed. Expand-only: the previous release never writes it, and its tasks are not paused.
alter table tasks add column if not exists on_hold boolean not null default false;
