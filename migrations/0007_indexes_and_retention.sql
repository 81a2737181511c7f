-- Indexes for the look-ups that ran as full scans on tables that grow with every user: the
-- open-task limit per user, the admin's failed list and its join to reminders, the last hour's
-- figures, and the retention passes that keep these tables from growing forever.

-- The open-task limit counts a user's open tasks at every new task.
create index tasks_open_by_owner on tasks (owner_id) where state = 'open';
-- Retention deletes finished tasks (their reminders go with them) after the retention period.
create index tasks_finished on tasks (updated_at) where state in ('done', 'deleted');
-- Admin views and actions find a job's reminder.
create index reminders_by_job on reminders (job_id);
-- The last hour's deliveries, and retention of old sent reminders.
create index reminders_sent on reminders (sent_at) where sent;
-- The failed list, newest first, and its count.
create index jobs_failed on jobs (finished_at desc nulls last, id desc) where state = 'failed';
-- The last hour's retries and 429s.
create index job_attempts_finished on job_attempts (finished_at);
-- Retention of lapsed questions and of the admin log.
create index conversations_created on conversations (created_at);
create index admin_actions_at on admin_actions (at);
