-- When a reaper first found a registered worker's lock free (its presence connection gone): the
-- reaper takes the worker's jobs only when it is still missing a grace period later, so a live
-- process whose connection broke in a database blip has time to take its lock again and record
-- what it did meanwhile. Taking the lock again clears it. `started_at` is now when the worker
-- last took its lock (at registration, or again after a blip).
alter table queue_workers add column if not exists missing_since timestamptz;
