//! What the chat says about a time it read with a guess, so that nothing is misread in silence:
//! one short line per thing the parser assumed ([`Assumption`]: "I took 3 as 15:00. If you
//! meant 03:00, tap Change time and send 03:00."; "I read “tomorow” as “tomorrow”."; next
//! week's Friday with its date) and per time word it left in the task text ([`Unplaced`]).
//!
//! A repeat that could not be made ("every 10 minutes", or "every friday" beside a time that
//! won) is not asked about before saving: the task is saved once, at the time that was
//! understood, and a ⚠️ line says that it will not repeat and how to make it repeat (Change time
//! under the same message). Asking first would hold back a reminder the user surely wants in
//! order to settle one they may not; this way nothing is lost, nothing is silent, and the fix is
//! one tap away. Day or time words kept in the text get a line saying so.
//!
//! An hour from 7 to 12 taken as written ("tomorrow 9:00" at 09:00, "at 12" at noon) is what
//! nearly everyone means and is not mentioned; every other hour without am/pm is (3 as 15:00, 3
//! as 03:00, 9 as 21:00).
//!
//! The lines are plain text (the user's words in them are escaped by the template that shows
//! them); every line starts with its icon.

use chrono::{DateTime, NaiveDate, NaiveTime, Offset, TimeDelta, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

use crate::bot::render::{RenderError, notice, shorten};
use crate::domain::due::{Assumption, ParsedDue, Unplaced, UnplacedKind, daytime_reading};
use crate::domain::script::cyrillic::to_cyrillic;
use crate::domain::script::is_cyrillic;
use crate::domain::timezone::{resolve_local, to_local};
use crate::i18n::dates::Dates;
use crate::i18n::{Arg, Tr};

/// At most this many lines: with the card and a task text of 1,000 characters they stay far
/// below Telegram's 4,096 (a text full of weekday names leaves every one of them unplaced).
pub const MAX_NOTES: usize = 5;

/// The longest run of the user's words quoted in a line, in characters.
const WORDS_CHARS: usize = 40;

/// The icon of a line about a guess.
const ASSUMED: &str = "ℹ️";

/// The icon of a line about a repeat that was not made.
const NOT_REPEATING: &str = "⚠️";

/// The lines that tell what was assumed and which time words stayed in the text, in `tr`'s
/// language; dates in `zone` as seen at `now`; at most [`MAX_NOTES`], a repeat that was not
/// made first among the words left. Empty when nothing was assumed or left.
pub fn notes(
    tr: Tr,
    zone: Tz,
    now: DateTime<Utc>,
    assumptions: &[Assumption],
    unplaced: &[Unplaced],
) -> Vec<String> {
    let dates = Dates::new(tr, zone, now);
    let assumed = assumptions
        .iter()
        .filter(|assumption| worth_saying(assumption))
        .map(|assumption| {
            format!(
                "{ASSUMED} {}",
                assumption_line(tr, &dates, zone, assumption)
            )
        });
    let repeats = unplaced
        .iter()
        .filter(|words| words.kind == UnplacedKind::Repeat);
    let others = unplaced
        .iter()
        .filter(|words| words.kind != UnplacedKind::Repeat);
    let kept = repeats.chain(others).map(|words| {
        let quoted = shorten(&words.words, WORDS_CHARS);
        let quoted = Arg::Text(&quoted);
        match words.kind {
            UnplacedKind::Repeat => format!(
                "{NOT_REPEATING} {}",
                tr.t_with("unplaced-repeat", &[("words", quoted)])
            ),
            UnplacedKind::Day | UnplacedKind::Time => {
                format!(
                    "{ASSUMED} {}",
                    tr.t_with("unplaced-kept", &[("words", quoted)])
                )
            }
            UnplacedKind::SecondTime => format!(
                "{ASSUMED} {}",
                tr.t_with("unplaced-second-time", &[("words", quoted)])
            ),
        }
    });
    let mut lines: Vec<String> = Vec::new();
    for line in assumed.chain(kept) {
        if lines.len() == MAX_NOTES {
            break;
        }
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

/// A task's confirmation `card` with `notes` ([`notes`]) under it, after a blank line; the card
/// alone when there are none.
pub fn under_card(card: String, notes: &[String]) -> Result<String, RenderError> {
    if notes.is_empty() {
        return Ok(card);
    }
    Ok(format!("{card}\n\n{}", notice(None, notes)?))
}

/// The question "when?" (rendered) with `loose` ([`loose_repeat`] lines) above it.
pub fn above_question(question: String, loose: &[String]) -> Result<String, RenderError> {
    if loose.is_empty() {
        return Ok(question);
    }
    Ok(format!("{}\n\n{question}", notice(None, loose)?))
}

/// The line saying that `words` could not be made a repeat, for a message that had no time
/// the bot could use (it asks when) or an edit that changed nothing.
pub fn loose_repeat(tr: Tr, words: &str) -> String {
    format!(
        "{NOT_REPEATING} {}",
        tr.t_with(
            "unplaced-repeat-loose",
            &[("words", Arg::Text(&shorten(words, WORDS_CHARS)))]
        )
    )
}

/// The line about an hour typed without am/pm that is either side of noon on a named day ("tomorrow
/// at 6") or first read in the night ("at 1" at 13:40), read as `chosen` and asked with two buttons ([`crate::bot::render::hour_choice_row`]):
/// it names the button that gives the other reading, which gives just that.
pub fn hour_choice(tr: Tr, chosen: NaiveTime) -> String {
    let other = chosen + TimeDelta::hours(12);
    format!(
        "{ASSUMED} {}",
        tr.t_with(
            "assumed-hour-choice",
            &[
                ("typed", Arg::Text(&as_typed(chosen))),
                ("chosen", Arg::Text(&clock(chosen))),
                ("other", Arg::Text(&clock(other))),
            ],
        )
    )
}

/// The notes of a new task's card: [`notes`], with the line of an hour asked with two buttons
/// ([`hour_choice`]) in place of the usual line about it. A parse with a second time (a preview
/// that has not been split by [`ParsedDue::split`]) says the notes of its first reminder and
/// when the second one will be.
pub fn notes_of(tr: Tr, zone: Tz, now: DateTime<Utc>, parsed: &ParsedDue) -> Vec<String> {
    let Some(second) = &parsed.second else {
        return notes_of_one(tr, zone, now, parsed);
    };
    let first = ParsedDue {
        second: None,
        unplaced: second.unplaced.clone(),
        ..parsed.clone()
    };
    let when = Dates::new(tr, zone, now).moment_with_weekday(second.due);
    let mut lines = notes_of_one(tr, zone, now, &first);
    lines.insert(
        0,
        format!(
            "{ASSUMED} {}",
            tr.t_with("assumed-second-time", &[("when", Arg::Text(&when))])
        ),
    );
    lines.truncate(MAX_NOTES);
    lines
}

/// The notes of one reminder's card (see [`notes_of`]).
fn notes_of_one(tr: Tr, zone: Tz, now: DateTime<Utc>, parsed: &ParsedDue) -> Vec<String> {
    let Some(choice) = parsed.choice else {
        return notes(tr, zone, now, &parsed.assumptions, &parsed.unplaced);
    };
    let others: Vec<Assumption> = parsed
        .assumptions
        .iter()
        .filter(|assumption| !matches!(assumption, Assumption::HourWithoutAmPm { .. }))
        .cloned()
        .collect();
    let mut lines = vec![hour_choice(tr, choice.reading(choice.taken).time)];
    lines.extend(notes(tr, zone, now, &others, &parsed.unplaced));
    lines.truncate(MAX_NOTES);
    lines
}

/// Whether the user would want to hear of `assumption`: not of an hour from 7 to 12 taken as
/// written, the reading nearly everyone means.
fn worth_saying(assumption: &Assumption) -> bool {
    match assumption {
        Assumption::HourWithoutAmPm { typed, chosen } => {
            !(chosen == typed && daytime_reading(*typed) == *typed)
        }
        _ => true,
    }
}

fn assumption_line(tr: Tr, dates: &Dates, zone: Tz, assumption: &Assumption) -> String {
    let noon = NaiveTime::from_hms_opt(12, 0, 0).unwrap_or(NaiveTime::MIN);
    let day = |date: NaiveDate| dates.day(resolve_local(zone, date.and_time(noon)));
    match assumption {
        Assumption::HourWithoutAmPm { typed, chosen } => {
            let other = *chosen + TimeDelta::hours(12);
            tr.t_with(
                "assumed-hour",
                &[
                    ("typed", Arg::Text(&as_typed(*typed))),
                    ("chosen", Arg::Text(&clock(*chosen))),
                    ("other", Arg::Text(&clock(other))),
                ],
            )
        }
        Assumption::TimeNotSaid { chosen } => tr.t_with(
            "assumed-time-not-said",
            &[("chosen", Arg::Text(&clock(*chosen)))],
        ),
        Assumption::NextWeekday { date } => {
            tr.t_with("assumed-next-weekday", &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::NextWeekMonday { date } => {
            tr.t_with("assumed-next-week", &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::TonightAfterMidnight { date } => tr.t_with(
            "assumed-tonight-after-midnight",
            &[("date", Arg::Text(&day(*date)))],
        ),
        Assumption::WeekEndFriday { date } => {
            tr.t_with("assumed-week-end", &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::NextMonthFirst { date } => {
            tr.t_with("assumed-next-month", &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::ComingNight { date } => {
            tr.t_with("assumed-coming-night", &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::NightAfterDay { date } => {
            tr.t_with("assumed-night-after", &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::OtherZone { zone: theirs, due } => tr.t_with(
            "assumed-other-zone",
            &[
                ("theirs", Arg::Text(&clock(to_local(*theirs, *due).time()))),
                ("offset", Arg::Text(&utc_offset(*theirs, *due))),
                ("yours", Arg::Text(&clock(to_local(zone, *due).time()))),
            ],
        ),
        Assumption::TomorrowAfterMidnight { date, day_after } => {
            let key = if *day_after {
                "assumed-day-after-tomorrow-after-midnight"
            } else {
                "assumed-tomorrow-after-midnight"
            };
            tr.t_with(key, &[("date", Arg::Text(&day(*date)))])
        }
        Assumption::WeekdayOfDate { said, date } => tr.t_with(
            "assumed-weekday-of-date",
            &[
                ("said", Arg::Text(&dates.weekday(*said))),
                ("date", Arg::Text(&day(*date))),
            ],
        ),
        Assumption::ClockSkipped { said, chosen, date } => tr.t_with(
            "assumed-clock-skipped",
            &[
                ("said", Arg::Text(&clock(*said))),
                ("chosen", Arg::Text(&clock(*chosen))),
                ("date", Arg::Text(&day(*date))),
            ],
        ),
        Assumption::MinutesUnsaid { minutes } => tr.t_with(
            "assumed-minutes-unsaid",
            &[("minutes", Arg::Number(i64::from(*minutes)))],
        ),
        Assumption::InADay { date, time } => tr.t_with(
            "assumed-in-a-day",
            &[
                ("date", Arg::Text(&day(*date))),
                ("time", Arg::Text(&clock(*time))),
            ],
        ),
        Assumption::Typo { typed, read } => {
            let read = in_script_of(typed, read);
            tr.t_with(
                "assumed-typo",
                &[("typed", Arg::Text(typed)), ("read", Arg::Text(&read))],
            )
        }
    }
}

/// The word a typo was read as, in the script it was typed in: an Uzbek key word typed in
/// Cyrillic ("эртга") is shown in Cyrillic ("эртага"), not as the Latin word it was read as.
fn in_script_of(typed: &str, read: &str) -> String {
    if typed.chars().any(is_cyrillic) && !read.chars().any(is_cyrillic) {
        to_cyrillic(read)
    } else {
        read.to_owned()
    }
}

/// An hour as typed without am/pm: "3", "9:30".
fn as_typed(typed: NaiveTime) -> String {
    let hour = match typed.hour() % 12 {
        0 => 12,
        hour => hour,
    };
    match typed.minute() {
        0 => hour.to_string(),
        minute => format!("{hour}:{minute:02}"),
    }
}

/// The offset from UTC of `zone` at `at`, as every language of the bot writes it: "UTC+3",
/// "UTC+5:30", "UTC−4", "UTC".
fn utc_offset(zone: Tz, at: DateTime<Utc>) -> String {
    let seconds = zone
        .offset_from_utc_datetime(&at.naive_utc())
        .fix()
        .local_minus_utc();
    let sign = if seconds < 0 { '−' } else { '+' };
    let (hours, minutes) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
    match (hours, minutes) {
        (0, 0) => "UTC".to_owned(),
        (hours, 0) => format!("UTC{sign}{hours}"),
        (hours, minutes) => format!("UTC{sign}{hours}:{minutes:02}"),
    }
}

/// A time of day on the 24-hour clock, as every language of the bot writes it: "15:00".
fn clock(time: NaiveTime) -> String {
    time.format("%H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::domain::lang::Lang;

    const TASHKENT: Tz = chrono_tz::Asia::Tashkent;

    fn time(hour: u32, minute: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(hour, minute, 0).unwrap()
    }

    #[test]
    fn an_hour_names_the_other_reading_to_send() {
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 7, 48, 0).unwrap();
        let line = |typed, chosen| {
            notes(
                Tr::new(Lang::En),
                TASHKENT,
                now,
                &[Assumption::HourWithoutAmPm { typed, chosen }],
                &[],
            )
        };
        assert_eq!(
            line(time(3, 0), time(15, 0)),
            ["ℹ️ I took 3 as 15:00. If you meant 03:00, tap Change time and send 03:00."]
        );
        let evening = line(time(9, 30), time(21, 30)).concat();
        assert!(
            evening.contains("9:30 as 21:30") && evening.contains("send 09:30"),
            "{evening}"
        );
        let night = line(time(3, 0), time(3, 0)).concat();
        assert!(
            night.contains("3 as 03:00") && night.contains("send 15:00"),
            "{night}"
        );
        let midnight = line(time(12, 0), time(0, 0)).concat();
        assert!(
            midnight.contains("12 as 00:00") && midnight.contains("send 12:00"),
            "{midnight}"
        );
        // As written, in the daytime: not worth a line.
        assert!(line(time(9, 30), time(9, 30)).is_empty());
        assert!(line(time(12, 0), time(12, 0)).is_empty());
    }

    #[test]
    fn a_time_the_clocks_skip_says_the_time_taken() {
        let berlin = chrono_tz::Europe::Berlin;
        let now = Utc.with_ymd_and_hms(2026, 3, 27, 9, 0, 0).unwrap();
        let at = |h, m| NaiveTime::from_hms_opt(h, m, 0).unwrap();
        let skipped = Assumption::ClockSkipped {
            said: at(2, 30),
            chosen: at(3, 0),
            date: chrono::NaiveDate::from_ymd_opt(2026, 3, 29).unwrap(),
        };
        let lines = notes(Tr::new(Lang::En), berlin, now, &[skipped], &[]);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("There is no 02:30 on Sun 29 Mar")
                && lines[0].contains("I took 03:00"),
            "{lines:?}"
        );
    }

    #[test]
    fn an_uzbek_typo_in_cyrillic_is_answered_in_cyrillic() {
        assert_eq!(in_script_of("эртга", "ertaga"), "эртага");
        assert_eq!(in_script_of("ertga", "ertaga"), "ertaga");
        assert_eq!(in_script_of("завтро", "завтра"), "завтра");
    }

    #[test]
    fn a_text_full_of_time_words_gets_a_few_lines() {
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 7, 48, 0).unwrap();
        let monday = |kind| Unplaced {
            words: "monday".repeat(20),
            kind,
        };
        let mut unplaced = vec![monday(UnplacedKind::Day); 300];
        unplaced.push(monday(UnplacedKind::Time));
        unplaced.push(monday(UnplacedKind::Repeat));
        let lines = notes(Tr::new(Lang::En), TASHKENT, now, &[], &unplaced);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("⚠️"), "{lines:?}");
        assert!(
            lines.iter().all(|line| line.chars().count() < 300),
            "{lines:?}"
        );
    }
}
