-- What an Undo button needs to put a task back as it was before a change its user made (creating,
-- editing, finishing or deleting it), kept on the server so that the button's data is only a
-- short id (Telegram allows 64 bytes, and user text never goes into it).
--
-- One row per task: a newer change replaces the row, so an older Undo finds nothing and says the
-- task has changed since. `after_updated_at` is the task's `updated_at` right after the change
-- (every change of a task sets it): an Undo applies only while the task is still as the change
-- left it. `used_at` makes an Undo work once.
create table if not exists task_undo (
    id                  bigint generated always as identity primary key,
    task_id             bigint      not null unique references tasks (id) on delete cascade,
    change              text        not null check (change in ('create', 'edit', 'done', 'delete')),
    -- The task before the change (all null for a creation: undoing it removes the task).
    before_text         text        check (char_length(before_text) between 1 and 1000),
    before_due_at       timestamptz,
    before_lead_secs    integer     check (before_lead_secs >= 0),
    before_rule         text,
    after_updated_at    timestamptz not null,
    used_at             timestamptz,
    created_at          timestamptz not null default now()
);
