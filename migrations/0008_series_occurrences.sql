-- Where a recurring task's series stands (issue 24): the number of its current occurrence, 1 for
-- the first, so that a counted series ("10 times") ends after its last one.
-- Expand-only: the previous release never writes it, and its default is where every series starts.
alter table tasks add column if not exists occurrence integer not null default 1
    check (occurrence >= 1);
