//! `/export`: a chat's open tasks as files other programs read. A calendar ([`ics`], RFC 5545:
//! one VEVENT per task at its due time in its zone, RRULE for repeats, VALARM for the lead) and a
//! table ([`csv`], RFC 4180, safe to open in a spreadsheet). Pure functions of the tasks, so the
//! handler puts their text into the outbox and tests read them back with real parsers.

pub mod csv;
pub mod ics;

/// The most tasks one export holds (the soonest first): the files travel in the outbox's job
/// payload, and a thousand tasks of the longest text stay near 2 MB each.
pub const MAX_EXPORT_TASKS: i64 = 1000;

/// The calendar file's name.
pub const ICS_FILE_NAME: &str = "tasks.ics";

/// The table file's name.
pub const CSV_FILE_NAME: &str = "tasks.csv";
