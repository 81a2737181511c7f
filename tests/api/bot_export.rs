//! `/export` through the chat: two documents through the outbox, a calendar a calendar library
//! reads back into the same tasks (text, due time in the task's zone, repeat rule, lead) and a
//! table a CSV reader reads back the same way, formulas defused wherever a spreadsheet with `,`
//! or `;` as its separator could start a field.

use chrono::{DateTime, NaiveDateTime, Utc};
use chrono_tz::Tz;
use proptest::prelude::*;
use remindbot::domain::ids::{ChatId, TaskId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::lead::Lead;
use remindbot::domain::recurrence::Recurrence;
use remindbot::domain::timezone::resolve_local;
use remindbot::export::{csv::header, ics::trigger};
use remindbot::i18n::repeats::repeats_text;
use remindbot::i18n::{Arg, Tr};
use remindbot::store::tasks::{self, Task};
use remindbot::store::types::TaskState;

use crate::app::{TestApp, text};

/// The chat's open tasks as the bot stores them.
async fn open_tasks(app: &TestApp, chat: i64) -> Vec<Task> {
    let mut conn = app.pool.acquire().await.unwrap();
    tasks::list_open(&mut conn, ChatId(chat), 100, 0)
        .await
        .unwrap()
        .into_iter()
        .map(|listed| listed.task)
        .collect()
}

/// `user` writes each of `phrases` (each a task with its time); returns the chat's open tasks.
async fn save_tasks(app: &TestApp, user: i64, tr: Tr, phrases: &[&str]) -> Vec<Task> {
    for phrase in phrases {
        let card = app.say(user, phrase).await;
        assert!(
            text(&card).contains(&tr.t("task-saved")),
            "{phrase}: {card:?}"
        );
    }
    let tasks = open_tasks(app, user).await;
    assert_eq!(tasks.len(), phrases.len());
    tasks
}

/// The bytes of a document message.
fn file_of(app: &TestApp, entry: &tgsim::TranscriptEntry) -> String {
    let document = entry.document.as_ref().expect("a document");
    let stored = app.sim.file(&document.file_id).expect("the uploaded file");
    String::from_utf8(stored.bytes).expect("UTF-8")
}

/// A `DTSTART` as an instant: a local time with its TZID, or a UTC time.
fn instant(value: &str, tzid: Option<&str>) -> DateTime<Utc> {
    match tzid {
        Some(tzid) => {
            let local = NaiveDateTime::parse_from_str(value, "%Y%m%dT%H%M%S").unwrap();
            resolve_local(tzid.parse::<Tz>().unwrap(), local)
        }
        None => NaiveDateTime::parse_from_str(value, "%Y%m%dT%H%M%SZ")
            .unwrap()
            .and_utc(),
    }
}

#[tokio::test]
async fn bot_export_sends_a_calendar_and_a_table_that_read_back_as_the_tasks() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    let empty = app.say(ann, "/export").await;
    assert_eq!(text(&empty), tr.t("export-empty"));
    let phrases = [
        "pay rent tomorrow 9:00",
        "every monday 10:00 standup",
        "meeting friday 15:00 remind 30 min before",
        "=HYPERLINK(x), \"quoted\"; back\\slash tomorrow 12:00",
        "купить подарок маме, цветы и открытку к празднику, не забыть про торт tomorrow 13:00",
        "every 2 weeks on monday 9:00 retro",
        "every 3 hours drink water",
    ];
    let tasks = save_tasks(&app, ann, tr, &phrases).await;

    let files = app.say_expecting(ann, ann, "/export", 2).await;
    let calendar = files[0].document.as_ref().expect("the calendar");
    assert_eq!(calendar.file_name.as_deref(), Some("tasks.ics"));
    assert_eq!(calendar.mime_type.as_deref(), Some("text/calendar"));
    let count = tr.t_with("export-calendar", &[("count", Arg::Number(7))]);
    assert_eq!(files[0].caption.as_deref(), Some(count.as_str()));
    let table = files[1].document.as_ref().expect("the table");
    assert_eq!(table.file_name.as_deref(), Some("tasks.csv"));
    assert_eq!(table.mime_type.as_deref(), Some("text/csv"));

    // The calendar: lines of at most 75 octets ending in CRLF, read by a calendar parser.
    let ics = file_of(&app, &files[0]);
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    for line in ics.split("\r\n") {
        assert!(line.len() <= 75, "{line:?}");
        assert!(!line.contains('\n'), "{line:?}");
    }
    let unfolded = icalendar::parser::unfold(&ics);
    let parsed = icalendar::parser::read_calendar(&unfolded).expect("a valid calendar");
    let zones: Vec<&str> = parsed
        .components
        .iter()
        .filter(|c| c.name == "VTIMEZONE")
        .filter_map(|c| c.find_prop("TZID").map(|p| p.val.as_str()))
        .collect();
    assert_eq!(zones, ["Europe/Berlin"]);
    let events: Vec<_> = parsed
        .components
        .iter()
        .filter(|c| c.name == "VEVENT")
        .collect();
    assert_eq!(events.len(), tasks.len());
    for task in &tasks {
        let uid = format!("task-{}@remindbot", task.id);
        let event = events
            .iter()
            .find(|e| e.find_prop("UID").is_some_and(|p| p.val.as_str() == uid))
            .unwrap_or_else(|| panic!("an event for {uid}"));
        let prop = |name: &str| event.find_prop(name).map(|p| p.val.as_str().to_owned());
        assert_eq!(
            prop("SUMMARY").as_deref(),
            Some(task.text.as_str()),
            "{uid}"
        );
        let start = event.find_prop("DTSTART").expect("DTSTART");
        let tzid = start
            .params
            .iter()
            .find(|p| p.key == "TZID")
            .and_then(|p| p.val.as_ref().map(|v| v.as_str().to_owned()));
        assert_eq!(tzid.as_deref(), Some("Europe/Berlin"), "{uid}");
        assert_eq!(
            instant(start.val.as_str(), tzid.as_deref()),
            task.due_at,
            "{uid}"
        );
        // Every event has an end: calendars show it as a short event.
        assert_eq!(prop("DURATION").as_deref(), Some("PT15M"), "{uid}");
        // The standard rule: its start is the event's DTSTART, never a part of the RRULE.
        assert_eq!(
            prop("RRULE"),
            task.recurrence
                .as_ref()
                .and_then(|r| r.to_rfc5545_rrule(task.zone)),
            "{uid}"
        );
        assert!(
            !prop("RRULE").unwrap_or_default().contains("DTSTART"),
            "{uid}"
        );
        let alarm = event
            .components
            .iter()
            .find(|c| c.name == "VALARM")
            .expect("a VALARM");
        assert_eq!(
            alarm
                .find_prop("TRIGGER")
                .map(|p| p.val.as_str().to_owned()),
            Some(trigger(task.lead)),
            "{uid}"
        );
    }
    let leads: Vec<i32> = tasks.iter().map(|t| t.lead.secs()).collect();
    assert!(leads.contains(&1800), "{leads:?}");
    assert!(tasks.iter().any(|t| t.recurrence.is_some()));

    // The table: a header and one row per task, the same tasks.
    let csv_text = file_of(&app, &files[1]);
    assert!(
        csv_text.starts_with('\u{feff}'),
        "a byte-order mark for spreadsheets"
    );
    let mut reader = csv::Reader::from_reader(csv_text.trim_start_matches('\u{feff}').as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header, remindbot::export::csv::header(tr));
    assert_eq!(header[5], "repeats");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), tasks.len());
    for (row, task) in rows.iter().zip(&tasks) {
        assert_eq!(row[0], task.id.to_string());
        let text = if task.text.starts_with('=') {
            format!("'{}", task.text)
        } else {
            task.text.clone()
        };
        assert_eq!(row[1], text, "formulas are defused, the rest as written");
        assert_eq!(row[3], *"Europe/Berlin");
        assert_eq!(DateTime::parse_from_rfc3339(&row[4]).unwrap(), task.due_at);
        assert_eq!(
            row[5],
            task.recurrence
                .as_ref()
                .map(|r| repeats_text(tr, r))
                .unwrap_or_default()
        );
        assert_eq!(
            row[6],
            task.recurrence
                .as_ref()
                .map(|r| r.to_rule_string())
                .unwrap_or_default()
        );
        assert_eq!(row[7], (task.lead.secs() / 60).to_string());
    }
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

/// What a spreadsheet runs as a formula when a field starts with it (past spaces and quotes):
/// OWASP's list, with the full-width forms.
fn runs_as_formula(field: &str) -> bool {
    field.trim_start_matches([' ', '"']).starts_with([
        '=', '+', '-', '@', '\t', '\r', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}',
    ])
}

/// Every field of `table` as a reader with `delimiter` cuts it, honouring quotes or not.
fn fields(table: &str, delimiter: u8, quoting: bool) -> Vec<String> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .quoting(quoting)
        .from_reader(table.as_bytes())
        .records()
        .flat_map(|record| {
            let record = record.expect("a readable row");
            record.iter().map(str::to_owned).collect::<Vec<_>>()
        })
        .collect()
}

/// Panics if a reader with `;`, `,` or a tab, honouring quotes or not, reads a field of `table`
/// that a spreadsheet would run.
fn assert_no_formula(table: &str) {
    for delimiter in [b';', b',', b'\t'] {
        for quoting in [true, false] {
            for field in fields(table, delimiter, quoting) {
                assert!(
                    !runs_as_formula(&field),
                    "read with {:?} (quotes honoured: {quoting}): {field:?} runs, in {table:?}",
                    delimiter as char
                );
            }
        }
    }
}

/// Whether `safe` is `original` with only `'` put in.
fn only_apostrophes_added(original: &str, safe: &str) -> bool {
    let mut rest = original.chars().peekable();
    for c in safe.chars() {
        if rest.peek() == Some(&c) {
            rest.next();
        } else if c != '\'' {
            return false;
        }
    }
    rest.next().is_none()
}

#[tokio::test]
async fn bot_export_table_starts_no_formula_with_a_comma_or_a_semicolon_as_separator() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Anna", "ru");
    app.say(ann, "/tz Europe/Moscow").await;
    let hostile = [
        "молоко;=HYPERLINK(\"http://evil.example\";\"жми\") завтра 9:00",
        "отчёт; =cmd|' /C calc'!A0 завтра 10:00",
        "хлеб,-2+3 завтра 11:00",
        "сыр, @SUM(1;2) завтра 12:00",
        "чай\t+1 завтра 13:00",
        "список покупок:\n=1+1\n-яйца\n@дом завтра 14:00",
        "кофе;\"=1+1\" завтра 15:00",
    ];
    let tasks = save_tasks(&app, ann, tr, &hostile).await;
    let files = app.say_expecting(ann, ann, "/export", 2).await;
    let table = file_of(&app, &files[1]);
    let table = table.trim_start_matches('\u{feff}');
    assert_no_formula(table);
    // Read as RFC 4180 says, each text is the task's, with at most a `'` in front of a formula.
    let mut reader = csv::Reader::from_reader(table.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), tasks.len());
    for (row, task) in rows.iter().zip(&tasks) {
        assert_eq!(row[0], task.id.to_string());
        assert!(only_apostrophes_added(&task.text, &row[1]), "{:?}", &row[1]);
        assert_ne!(row[1], task.text, "every text here holds a formula");
    }
    let raw_rows: Vec<&str> = table.split("\r\n").filter(|r| r.contains(';')).collect();
    assert!(
        raw_rows.iter().all(|row| row.contains(",\"")),
        "cells holding `;` are quoted: {raw_rows:?}"
    );
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

/// A task saying `text`, as the table gets it.
fn task_saying(text: &str) -> Task {
    Task {
        id: TaskId(7),
        chat_id: ChatId(1),
        owner_id: UserId(1),
        text: text.to_owned(),
        due_at: chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 12, 31, 9, 0, 0).unwrap(),
        lead: Lead::from_secs(0).unwrap(),
        recurrence: Some(
            Recurrence::parse_rule_string("FREQ=WEEKLY;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0")
                .unwrap(),
        ),
        zone: chrono_tz::Tz::Europe__Berlin,
        state: TaskState::Open,
    }
}

/// Panics unless the table of a task saying `text` starts no formula when read with `;`, `,` or
/// a tab, and reads back as RFC 4180 says as `text` with only `'` put in.
fn assert_table_defuses(text: &str) {
    let table = remindbot::export::csv::table(&[task_saying(text)], Tr::new(Lang::En));
    let table = table.trim_start_matches('\u{feff}');
    assert_no_formula(table);
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(table.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 1, "{table:?}");
    assert_eq!(rows[0].len(), header(Tr::new(Lang::En)).len(), "{table:?}");
    assert!(
        only_apostrophes_added(text, &rows[0][1]),
        "{:?}",
        &rows[0][1]
    );
}

#[test]
fn export_table_of_hostile_texts_starts_no_formula_with_either_separator() {
    for text in [
        "=1+1",
        "+1",
        "-1",
        "@SUM(A1)",
        "\tx",
        "\r=x",
        "buy milk;=HYPERLINK(\"http://evil\";\"x\")",
        "a; =cmd|' /C calc'!A0",
        "a,-2+3",
        "a, @SUM(1)",
        "a\t+1",
        "first line\n=1+1",
        "x;\"=1+1\"",
        "tea;\u{ff1d}1",
    ] {
        assert_table_defuses(text);
    }
}

proptest! {
    #[test]
    fn export_table_of_any_text_starts_no_formula_with_either_separator(
        text in proptest::collection::vec(
            prop::sample::select(vec![
                'a', ' ', ';', ',', '\t', '\r', '\n', '"', '\'', '=', '+', '-', '@', '\u{ff1d}',
            ]),
            0..24,
        )
        .prop_map(String::from_iter)
    ) {
        assert_table_defuses(&text);
    }
}

#[tokio::test]
async fn bot_export_table_speaks_the_users_language_with_the_repeat_in_words() {
    let mut app = TestApp::start().await;
    for (code, lang, first, repeat) in [
        ("ru", Lang::Ru, "номер", "повтор"),
        ("uz", Lang::Uz, "raqam", "takrorlanish"),
    ] {
        let tr = Tr::new(lang);
        let ann = app.user("Ann", code);
        app.say(ann, "/tz Europe/Berlin").await;
        let tasks = save_tasks(&app, ann, tr, &["every monday 10:00 standup"]).await;
        let files = app.say_expecting(ann, ann, "/export", 2).await;
        let csv_text = file_of(&app, &files[1]);
        let mut reader =
            csv::Reader::from_reader(csv_text.trim_start_matches('\u{feff}').as_bytes());
        let header: Vec<String> = reader
            .headers()
            .unwrap()
            .iter()
            .map(str::to_owned)
            .collect();
        assert_eq!((header[0].as_str(), header[5].as_str()), (first, repeat));
        let row = reader.records().next().unwrap().unwrap();
        let words = repeats_text(tr, tasks[0].recurrence.as_ref().unwrap());
        assert_eq!(&row[5], words.as_str());
        assert!(row[6].starts_with("FREQ=WEEKLY"), "{row:?}");
    }
    app.stop().await;
}

#[test]
fn bot_export_header_in_every_script() {
    let lines: Vec<String> = Lang::CHOICES
        .into_iter()
        .map(|lang| header(Tr::new(lang)).join(" | "))
        .collect();
    insta::assert_snapshot!("export_header", lines.join("\n"));
}
