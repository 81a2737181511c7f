//! `/export`: a chat's open tasks as files other programs read. A calendar ([`ics`], RFC 5545:
//! one VEVENT per task at its due time in its zone, RRULE for repeats, VALARM for the lead) and a
//! table ([`csv`], RFC 4180, safe to open in a spreadsheet). Pure functions of the tasks, so tests
//! read them back with real parsers; [`file`] builds them when their outbox job is sent. The
//! calendar's writer also serves `/calendar`'s subscribed feed ([`crate::feed`]).

pub mod csv;
pub mod file;
pub mod ics;

/// How long a chat waits between two exports (each costs reading up to [`MAX_EXPORT_TASKS`]
/// tasks and uploading two files).
pub const EXPORT_COOLDOWN: std::time::Duration = std::time::Duration::from_secs(60);

/// The most tasks one export holds (the soonest first): a thousand tasks of the longest text stay
/// near 2 MB a file.
pub const MAX_EXPORT_TASKS: i64 = 1000;

/// The calendar file's name.
pub const ICS_FILE_NAME: &str = "tasks.ics";

/// The table file's name.
pub const CSV_FILE_NAME: &str = "tasks.csv";
