//! The tasks as an iCalendar file (RFC 5545) a calendar app imports ([`calendar`], `/export`) or
//! subscribes to ([`feed`], `/calendar`): one VEVENT per task at its
//! due time, written in the task's zone (`DTSTART;TZID=Asia/Tashkent:20261231T100000`, with a
//! VTIMEZONE for each zone, so a repeat stays at its wall-clock time across DST changes; UTC
//! tasks in UTC), lasting [`EVENT_LENGTH`] (a `DURATION`: calendars show an event without an end
//! oddly or not at all), its repeat as an RRULE, its reminder as a VALARM `lead` before.
//! Text is escaped and lines are folded at 75 octets, as the RFC says. A feed's events also carry
//! a `SEQUENCE` and `LAST-MODIFIED` ([`Revision`]), and its calendar a name and how often to read
//! it again.
//!
//! The RRULE is the task's rule as RFC 5545 writes it
//! ([`Recurrence::to_rfc5545_rrule`](crate::domain::recurrence::Recurrence::to_rfc5545_rrule)):
//! `INTERVAL`, `BYDAY` with an ordinal for a weekday of the month (`1MO`, `-1FR`), an end date as
//! `UNTIL` at the last second of that day in UTC, a count as `COUNT` (counted from the event's
//! DTSTART, the task's current deadline). A repeat counted from when it was done ("3 days after
//! done") has no RRULE equivalent: its next time depends on a completion no calendar knows, so
//! the event is written once, at the deadline the task has now, without an RRULE.

use std::collections::BTreeSet;

use chrono::{DateTime, Datelike, Duration, NaiveDateTime, Offset, TimeZone, Utc, Weekday};
use chrono_tz::{OffsetComponents, OffsetName, Tz};

use crate::domain::lead::Lead;
use crate::domain::timezone::{is_fixed_offset, to_local};
use crate::store::tasks::Task;

/// How long each event lasts in the calendar: a reminder is a moment, shown as a short event.
pub const EVENT_LENGTH: &str = "PT15M";

/// The product identifier written into the one-off export.
const PRODID: &str = "-//remindbot//task export//EN";

/// The product identifier written into a subscribed feed.
const FEED_PRODID: &str = "-//remindbot//task feed//EN";

/// How often a subscribed feed asks to be read again (RFC 7986 `REFRESH-INTERVAL`, and Outlook's
/// and Google's `X-PUBLISHED-TTL`): hourly, well within the feed's rate limit.
pub const FEED_REFRESH: &str = "PT1H";

/// Years of time-zone rules written before the earliest and after the latest task (repeats beyond
/// them follow a zone's yearly rule, which the VTIMEZONE carries as an RRULE).
const ZONE_YEARS_BEFORE: i32 = 1;
const ZONE_YEARS_AFTER: i32 = 4;

/// One task as an event, with what the calendar says about its version.
#[derive(Clone, Copy, Debug)]
pub struct Event<'a> {
    /// The task.
    pub task: &'a Task,
    /// Its `DTSTAMP`: when the export was made, or (in a feed, whose bytes must not change while
    /// the task does not) when the task last changed.
    pub stamp: DateTime<Utc>,
    /// Its `SEQUENCE` and `LAST-MODIFIED`, in a feed: a calendar that reads the feed again
    /// replaces the events whose version grew.
    pub revision: Option<Revision>,
}

/// The version of a task's event in a feed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Revision {
    /// `SEQUENCE`: grows with every change of the task.
    pub sequence: u32,
    /// `LAST-MODIFIED`: when the task last changed.
    pub last_modified: DateTime<Utc>,
}

/// The calendar of `tasks`, stamped `now` (the one-off export).
pub fn calendar(tasks: &[Task], now: DateTime<Utc>) -> String {
    let events: Vec<Event<'_>> = tasks
        .iter()
        .map(|task| Event {
            task,
            stamp: now,
            revision: None,
        })
        .collect();
    write(vec![format!("PRODID:{PRODID}")], &events)
}

/// A calendar people subscribe to, named `name`, of `events`: it asks to be read again every
/// [`FEED_REFRESH`]. The same events give the same bytes.
pub fn feed(name: &str, events: &[Event<'_>]) -> String {
    let name = escape_text(name);
    let head = vec![
        format!("PRODID:{FEED_PRODID}"),
        format!("NAME:{name}"),
        format!("X-WR-CALNAME:{name}"),
        format!("REFRESH-INTERVAL;VALUE=DURATION:{FEED_REFRESH}"),
        format!("X-PUBLISHED-TTL:{FEED_REFRESH}"),
    ];
    write(head, events)
}

/// The calendar of `events` with `head` (its PRODID and what else describes it) after VERSION:
/// a VTIMEZONE for each zone the events are in, then the events.
fn write(head: Vec<String>, events: &[Event<'_>]) -> String {
    let mut lines = vec!["BEGIN:VCALENDAR".to_owned(), "VERSION:2.0".to_owned()];
    lines.extend(head);
    lines.extend(["CALSCALE:GREGORIAN".to_owned(), "METHOD:PUBLISH".to_owned()]);
    let tasks = || events.iter().map(|event| event.task);
    let zones: BTreeSet<&str> = tasks()
        .map(|t| t.zone)
        .filter(|tz| !is_utc(*tz))
        .map(|tz| tz.name())
        .collect();
    if let (Some(first), Some(last)) = (
        tasks().map(|t| t.due_at).min(),
        tasks().map(|t| t.due_at).max(),
    ) {
        for zone in zones.into_iter().filter_map(|name| name.parse::<Tz>().ok()) {
            lines.extend(vtimezone(zone, first, last));
        }
    }
    for event in events {
        lines.extend(vevent(event));
    }
    lines.push("END:VCALENDAR".to_owned());
    let mut out = String::new();
    for line in lines {
        out.push_str(&fold(&line));
    }
    out
}

/// Whether times in `tz` are UTC times (written with `Z`, no VTIMEZONE).
fn is_utc(tz: Tz) -> bool {
    is_fixed_offset(tz)
        && Utc::now()
            .with_timezone(&tz)
            .offset()
            .fix()
            .local_minus_utc()
            == 0
}

/// A task's VEVENT.
fn vevent(event: &Event<'_>) -> Vec<String> {
    let task = event.task;
    let mut lines = vec![
        "BEGIN:VEVENT".to_owned(),
        format!("UID:task-{}@remindbot", task.id),
        format!("DTSTAMP:{}", utc_stamp(event.stamp)),
    ];
    if let Some(revision) = event.revision {
        lines.extend([
            format!("SEQUENCE:{}", revision.sequence),
            format!("LAST-MODIFIED:{}", utc_stamp(revision.last_modified)),
        ]);
    }
    lines.extend([
        dtstart(task),
        format!("DURATION:{EVENT_LENGTH}"),
        format!("SUMMARY:{}", escape_text(&task.text)),
    ]);
    if let Some(rrule) = task
        .recurrence
        .as_ref()
        .and_then(|rule| rule.to_rfc5545_rrule(task.zone))
    {
        lines.push(format!("RRULE:{rrule}"));
    }
    lines.extend([
        "BEGIN:VALARM".to_owned(),
        "ACTION:DISPLAY".to_owned(),
        format!("DESCRIPTION:{}", escape_text(&alarm_text(&task.text))),
        format!("TRIGGER:{}", trigger(task.lead)),
        "END:VALARM".to_owned(),
        "END:VEVENT".to_owned(),
    ]);
    lines
}

/// The alarm's text: the task's, cut to 100 characters (the summary carries all of it).
fn alarm_text(text: &str) -> String {
    match text.char_indices().nth(100) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// `DTSTART` in the task's zone (a local time with its TZID), or in UTC.
fn dtstart(task: &Task) -> String {
    if is_utc(task.zone) {
        format!("DTSTART:{}", utc_stamp(task.due_at))
    } else {
        format!(
            "DTSTART;TZID={}:{}",
            task.zone.name(),
            local_stamp(to_local(task.zone, task.due_at))
        )
    }
}

/// `20261231T050000Z`.
fn utc_stamp(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// `20261231T100000`.
fn local_stamp(t: NaiveDateTime) -> String {
    t.format("%Y%m%dT%H%M%S").to_string()
}

/// The alarm's trigger: the lead before the start (`-PT30M`, `-PT2H`, `-P1D`), or at it (`PT0S`).
pub fn trigger(lead: Lead) -> String {
    let secs = i64::from(lead.secs());
    if secs == 0 {
        return "PT0S".to_owned();
    }
    if secs % 86_400 == 0 {
        format!("-P{}D", secs / 86_400)
    } else if secs % 3600 == 0 {
        format!("-PT{}H", secs / 3600)
    } else if secs % 60 == 0 {
        format!("-PT{}M", secs / 60)
    } else {
        format!("-PT{secs}S")
    }
}

/// A TEXT value escaped (RFC 5545 §3.3.11): backslash, semicolon, comma, and line breaks as `\n`.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// A content line folded (RFC 5545 §3.1): at most 75 octets a line, never inside a character,
/// continuation lines starting with a space; each line ends in CRLF.
pub fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3 + 2);
    let mut width = 0;
    for c in line.chars() {
        let len = c.len_utf8();
        if width + len > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += len;
    }
    out.push_str("\r\n");
    out
}

/// One change of a zone's offset.
#[derive(Clone, Debug, PartialEq)]
struct Transition {
    /// When (UTC).
    at: DateTime<Utc>,
    /// The offset before, in seconds east of UTC.
    from: i32,
    /// The offset after.
    to: i32,
    /// Whether daylight saving time is in force after it.
    dst: bool,
    /// The zone's abbreviation after it (`CEST`, `+05`).
    name: String,
}

impl Transition {
    /// The wall-clock time at which it happens, read in the offset before it (as DTSTART of an
    /// observance is written).
    fn local(&self) -> NaiveDateTime {
        self.at.naive_utc() + Duration::seconds(i64::from(self.from))
    }
}

/// The offset of `tz` at `t`: seconds east of UTC, whether DST is on, and its abbreviation.
fn offset_at(tz: Tz, t: DateTime<Utc>) -> (i32, bool, String) {
    let offset = tz.offset_from_utc_datetime(&t.naive_utc());
    (
        offset.fix().local_minus_utc(),
        !offset.dst_offset().is_zero(),
        offset.abbreviation().unwrap_or_default().to_owned(),
    )
}

/// The changes of `tz`'s offset between `from` and `to`, found day by day and pinned to the
/// second (chrono-tz does not list transitions).
fn transitions(tz: Tz, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<Transition> {
    let mut found = Vec::new();
    let mut day = from;
    let mut before = offset_at(tz, day);
    while day < to {
        let next = day + Duration::days(1);
        let after = offset_at(tz, next);
        if (after.0, after.1) != (before.0, before.1) {
            let (mut low, mut high) = (day.timestamp(), next.timestamp());
            while high - low > 1 {
                let mid = low + (high - low) / 2;
                let at = DateTime::from_timestamp(mid, 0).unwrap_or(next);
                if (offset_at(tz, at).0, offset_at(tz, at).1) == (before.0, before.1) {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            found.push(Transition {
                at: DateTime::from_timestamp(high, 0).unwrap_or(next),
                from: before.0,
                to: after.0,
                dst: after.1,
                name: after.2.clone(),
            });
        }
        before = after;
        day = next;
    }
    found
}

/// A yearly rule of a transition: in `month`, on the `nth` (`-1`: last) `weekday`, at `time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct YearlyRule {
    month: u32,
    weekday: Weekday,
    nth: i32,
    time: chrono::NaiveTime,
}

impl YearlyRule {
    /// The rules a local date-time fits: its nth weekday of the month, and "last" when it is.
    fn candidates(local: NaiveDateTime) -> Vec<Self> {
        let date = local.date();
        let nth = i32::try_from((date.day() - 1) / 7 + 1).unwrap_or(1);
        let days_in_month = date
            .with_day(1)
            .and_then(|first| first.checked_add_months(chrono::Months::new(1)))
            .map_or(31, |next| (next - Duration::days(1)).day());
        let rule = |nth| Self {
            month: date.month(),
            weekday: date.weekday(),
            nth,
            time: local.time(),
        };
        let mut candidates = vec![rule(nth)];
        if date.day() + 7 > days_in_month {
            candidates.insert(0, rule(-1));
        }
        candidates
    }

    /// The RRULE of the rule.
    fn rrule(self) -> String {
        let day = match self.weekday {
            Weekday::Mon => "MO",
            Weekday::Tue => "TU",
            Weekday::Wed => "WE",
            Weekday::Thu => "TH",
            Weekday::Fri => "FR",
            Weekday::Sat => "SA",
            Weekday::Sun => "SU",
        };
        format!(
            "RRULE:FREQ=YEARLY;BYMONTH={};BYDAY={}{day}",
            self.month, self.nth
        )
    }
}

/// The VTIMEZONE of `tz` for events between `first` and `last` (and repeats after): each kind of
/// change as one observance with its yearly RRULE when it happens every year by one rule, else
/// each change as an observance of its own.
fn vtimezone(tz: Tz, first: DateTime<Utc>, last: DateTime<Utc>) -> Vec<String> {
    let start_year = first.year() - ZONE_YEARS_BEFORE;
    let end_year = last.year() + ZONE_YEARS_AFTER;
    let from = Utc
        .with_ymd_and_hms(start_year, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or(first);
    let to = Utc
        .with_ymd_and_hms(end_year + 1, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or(last);
    let changes = transitions(tz, from, to);
    let mut lines = vec!["BEGIN:VTIMEZONE".to_owned(), format!("TZID:{}", tz.name())];
    if changes.is_empty() {
        let (offset, dst, name) = offset_at(tz, first);
        lines.extend(observance(
            dst,
            "19700101T000000",
            offset,
            offset,
            &name,
            None,
        ));
    }
    let mut kinds: Vec<(i32, i32, bool)> = Vec::new();
    for change in &changes {
        if !kinds.contains(&(change.from, change.to, change.dst)) {
            kinds.push((change.from, change.to, change.dst));
        }
    }
    for kind in kinds {
        let same: Vec<&Transition> = changes
            .iter()
            .filter(|c| (c.from, c.to, c.dst) == kind)
            .collect();
        let every_year = same.len() >= 2
            && same
                .iter()
                .map(|c| c.local().year())
                .eq(start_year..=end_year);
        let rule = every_year
            .then(|| {
                YearlyRule::candidates(same[0].local())
                    .into_iter()
                    .find(|rule| {
                        same.iter()
                            .all(|c| YearlyRule::candidates(c.local()).contains(rule))
                    })
            })
            .flatten();
        match rule {
            Some(rule) => lines.extend(observance(
                kind.2,
                &local_stamp(same[0].local()),
                kind.0,
                kind.1,
                &same[0].name,
                Some(rule.rrule()),
            )),
            None => {
                for change in same {
                    lines.extend(observance(
                        change.dst,
                        &local_stamp(change.local()),
                        change.from,
                        change.to,
                        &change.name,
                        None,
                    ));
                }
            }
        }
    }
    lines.push("END:VTIMEZONE".to_owned());
    lines
}

/// A STANDARD or DAYLIGHT observance.
fn observance(
    dst: bool,
    start: &str,
    from: i32,
    to: i32,
    name: &str,
    rrule: Option<String>,
) -> Vec<String> {
    let kind = if dst { "DAYLIGHT" } else { "STANDARD" };
    let mut lines = vec![
        format!("BEGIN:{kind}"),
        format!("DTSTART:{start}"),
        format!("TZOFFSETFROM:{}", utc_offset(from)),
        format!("TZOFFSETTO:{}", utc_offset(to)),
    ];
    if !name.is_empty() {
        lines.push(format!("TZNAME:{}", escape_text(name)));
    }
    lines.extend(rrule);
    lines.push(format!("END:{kind}"));
    lines
}

/// A UTC offset as RFC 5545 writes it: `+0500`, `-0330`, `+053328`.
fn utc_offset(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let s = seconds.unsigned_abs();
    let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60);
    if sec == 0 {
        format!("{sign}{h:02}{m:02}")
    } else {
        format!("{sign}{h:02}{m:02}{sec:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_lines_folded_at_75_octets() {
        assert_eq!(escape_text("a;b,c\\d\ne\r"), "a\\;b\\,c\\\\d\\ne");
        let line = format!("SUMMARY:{}", "ж".repeat(100));
        let folded = fold(&line);
        for part in folded.split("\r\n").filter(|p| !p.is_empty()) {
            assert!(part.len() <= 75, "{} octets", part.len());
        }
        assert_eq!(folded.replace("\r\n ", ""), format!("{line}\r\n"));
    }

    #[test]
    fn triggers_are_durations_before_the_start() {
        let lead = |secs| Lead::from_secs(secs).unwrap();
        assert_eq!(trigger(lead(0)), "PT0S");
        assert_eq!(trigger(lead(1800)), "-PT30M");
        assert_eq!(trigger(lead(7200)), "-PT2H");
        assert_eq!(trigger(lead(86_400)), "-P1D");
    }

    #[test]
    fn a_zone_with_dst_gets_its_yearly_rules() {
        let first = Utc.with_ymd_and_hms(2026, 12, 31, 5, 0, 0).unwrap();
        let berlin = vtimezone(Tz::Europe__Berlin, first, first).join("\n");
        assert!(berlin.contains(
            "BEGIN:DAYLIGHT\nDTSTART:20250330T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nTZNAME:CEST\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\nEND:DAYLIGHT"
        ), "{berlin}");
        assert!(berlin.contains(
            "BEGIN:STANDARD\nDTSTART:20251026T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nTZNAME:CET\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\nEND:STANDARD"
        ), "{berlin}");
        let new_york = vtimezone(Tz::America__New_York, first, first).join("\n");
        assert!(
            new_york.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"),
            "{new_york}"
        );
        assert!(
            new_york.contains("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"),
            "{new_york}"
        );
        let tashkent = vtimezone(Tz::Asia__Tashkent, first, first).join("\n");
        assert!(tashkent.contains(
            "BEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0500\nTZOFFSETTO:+0500\nEND:STANDARD"
        ), "{tashkent}");
    }
}
