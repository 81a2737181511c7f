//! Pure domain logic of remindbot: languages, time zones, lead times, recurrence
//! rules and the due-date parser. Nothing here does I/O, so all of it is unit-testable.

pub mod due;
pub mod feed_secret;
pub mod fold;
pub mod ids;
pub mod lang;
pub mod lead;
pub mod recurrence;
pub mod script;
pub mod stored;
pub mod timezone;
