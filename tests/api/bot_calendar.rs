//! `/calendar` through the chat and its feed over real HTTP: the link in the bot's answer serves
//! the chat's open tasks as an iCalendar that a calendar library reads back into the same tasks
//! (repeats expanded by an RRULE library into the occurrences the bot itself schedules, alarms at
//! the bot's reminders), never another chat's; an unchanged feed is answered 304 and a changed one
//! gets a new ETag and SEQUENCE; a new link revokes the old one at once; each link has a rate
//! limit; and without PUBLIC_URL the command says the operator has not set it up.

use std::num::NonZeroU32;

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use chrono_tz::Tz;
use icalendar::parser::{Calendar, Component};
use remindbot::domain::ids::ChatId;
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::Occurrence;
use remindbot::domain::timezone::resolve_local;
use remindbot::export::ics::trigger;
use remindbot::i18n::Tr;
use remindbot::store::tasks::{self, ListedTask};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, ETAG, IF_NONE_MATCH, RETRY_AFTER};

use crate::app::{TestApp, buttons, text};

/// The public URL the tests give the bot: a reverse proxy would pass its paths on unchanged.
const PUBLIC_URL: &str = "https://bot.example.org/rb/";

/// Reads of one feed URL a minute in these tests.
const RATE_PER_MIN: u32 = 8;

/// The app with a public URL and the test's rate.
async fn app_with_feed() -> TestApp {
    TestApp::builder()
        .config(|c| {
            c.bot.public_url = Some(PUBLIC_URL.parse().expect("a public URL"));
            c.calendar_feed_rate_per_min = NonZeroU32::new(RATE_PER_MIN).expect("not zero");
        })
        .start()
        .await
}

/// The `https://` and `webcal://` links of a `/calendar` answer.
fn links(answer: &str) -> (String, String) {
    let find = |scheme: &str| {
        answer
            .split_whitespace()
            .find(|word| word.starts_with(scheme))
            .unwrap_or_else(|| panic!("a {scheme} link in {answer:?}"))
            .to_owned()
    };
    (find("https://"), find("webcal://"))
}

/// A feed URL as the side-car serves it: the proxy's part replaced by the side-car's address.
fn local(app: &TestApp, url: &str) -> String {
    let path = url
        .strip_prefix("https://bot.example.org")
        .unwrap_or_else(|| panic!("{url} is under {PUBLIC_URL}"));
    format!("http://{}{path}", app.http_addr())
}

/// GETs `url` (with `If-None-Match` when given).
async fn get(url: &str, etag: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(url);
    if let Some(etag) = etag {
        request = request.header(IF_NONE_MATCH, etag);
    }
    request.send().await.expect("the side-car answers")
}

/// A 200 answer's ETag and body, checked to be a calendar.
async fn calendar(response: reqwest::Response) -> (String, String) {
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[CONTENT_TYPE],
        "text/calendar; charset=utf-8"
    );
    let etag = response.headers()[ETAG].to_str().unwrap().to_owned();
    let body = response.text().await.unwrap();
    assert!(body.ends_with("END:VCALENDAR\r\n"), "{body}");
    (etag, body)
}

/// The chat's open tasks with their next reminders, as the bot stores them.
async fn open_tasks(app: &TestApp, chat: i64) -> Vec<ListedTask> {
    let mut conn = app.pool.acquire().await.unwrap();
    tasks::list_open(&mut conn, ChatId(chat), 100, 0)
        .await
        .unwrap()
}

/// The events of a parsed calendar.
fn events<'a>(parsed: &'a Calendar<'a>) -> Vec<&'a Component<'a>> {
    parsed
        .components
        .iter()
        .filter(|c| c.name == "VEVENT")
        .collect()
}

/// A property's value.
fn prop(component: &Component<'_>, name: &str) -> Option<String> {
    component.find_prop(name).map(|p| p.val.as_str().to_owned())
}

/// The event of task `id`.
fn event_of<'a>(events: &[&'a Component<'a>], id: i64) -> &'a Component<'a> {
    let uid = format!("task-{id}@remindbot");
    events
        .iter()
        .find(|e| prop(e, "UID").as_deref() == Some(uid.as_str()))
        .unwrap_or_else(|| panic!("an event {uid}"))
}

/// The event's DTSTART: its text as written (with `DTSTART;TZID=…:`) and as an instant.
fn start_of(event: &Component<'_>) -> (String, DateTime<Utc>) {
    let start = event.find_prop("DTSTART").expect("DTSTART");
    let tzid = start
        .params
        .iter()
        .find(|p| p.key == "TZID")
        .and_then(|p| p.val.as_ref().map(|v| v.as_str().to_owned()))
        .expect("a local time with its zone");
    let local = NaiveDateTime::parse_from_str(start.val.as_str(), "%Y%m%dT%H%M%S").unwrap();
    let at = resolve_local(tzid.parse::<Tz>().unwrap(), local);
    (format!("DTSTART;TZID={tzid}:{}", start.val.as_str()), at)
}

/// An alarm's `TRIGGER` (`-PT30M`, `-PT2H`, `-P1D`, `PT0S`) as a signed duration.
fn trigger_offset(value: &str) -> Duration {
    let (before, rest) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    let rest = rest.trim_start_matches('P').trim_start_matches('T');
    let (number, unit) = rest.split_at(rest.len() - 1);
    let n: i64 = number.parse().unwrap_or_else(|_| panic!("{value}"));
    let offset = match unit {
        "S" => Duration::seconds(n),
        "M" => Duration::minutes(n),
        "H" => Duration::hours(n),
        "D" => Duration::days(n),
        _ => panic!("{value}"),
    };
    if before { -offset } else { offset }
}

/// The first `n` occurrences of an event, as the RRULE library expands them.
fn expanded(event: &Component<'_>, n: u16) -> Vec<DateTime<Utc>> {
    let (start, _) = start_of(event);
    let rule = prop(event, "RRULE").expect("an RRULE");
    let set: rrule::RRuleSet = format!("{start}\nRRULE:{rule}")
        .parse()
        .unwrap_or_else(|e| panic!("{start} {rule}: {e}"));
    set.all(n)
        .dates
        .into_iter()
        .map(|d| d.with_timezone(&Utc))
        .collect()
}

/// The first `n` occurrences the bot itself schedules for `task`.
fn scheduled(task: &ListedTask, n: usize) -> Vec<DateTime<Utc>> {
    let rule = task.task.recurrence.expect("a repeat");
    let mut at = vec![task.task.due_at];
    let mut previous = Occurrence {
        at: task.task.due_at,
        index: 1,
    };
    while at.len() < n {
        let Some(next) = rule.next_occurrence(previous, previous.at, task.task.zone) else {
            break;
        };
        at.push(next.at);
        previous = next;
    }
    at
}

#[tokio::test]
async fn bot_calendar_feed_serves_the_chats_tasks_and_follows_them() {
    let app = app_with_feed().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    for phrase in [
        "every monday 10:00 standup",
        "meeting tomorrow 15:00 remind 30 min before",
        "pay rent tomorrow 9:00",
    ] {
        let card = app.say(ann, phrase).await;
        assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
    }
    let bob = app.user("Bob", "en");
    app.say(bob, "/tz Asia/Tashkent").await;
    app.say(bob, "bobs surprise party tomorrow 18:00").await;
    let bobs = links(text(&app.say(bob, "/calendar").await));

    let answer = app.say(ann, "/calendar").await;
    assert!(
        text(&answer).contains(&tr.t("calendar-title")),
        "{answer:?}"
    );
    let (https, webcal) = links(text(&answer));
    assert!(https.starts_with("https://bot.example.org/rb/calendar/"));
    assert!(https.ends_with(".ics"));
    assert_eq!(webcal, https.replacen("https://", "webcal://", 1));
    assert_ne!(https, bobs.0);

    // The feed, read as a calendar app reads it.
    let (etag, body) = calendar(get(&local(&app, &https), None).await).await;
    let unfolded = icalendar::parser::unfold(&body);
    let parsed = icalendar::parser::read_calendar(&unfolded).expect("a valid calendar");
    let listed = open_tasks(&app, ann).await;
    let feed_events = events(&parsed);
    assert_eq!(feed_events.len(), listed.len());
    assert!(!body.contains("surprise party"), "another chat's task");
    let zones: Vec<String> = parsed
        .components
        .iter()
        .filter(|c| c.name == "VTIMEZONE")
        .filter_map(|c| prop(c, "TZID"))
        .collect();
    assert_eq!(zones, ["Europe/Berlin"]);
    for task in &listed {
        let event = event_of(&feed_events, task.task.id.0);
        assert_eq!(prop(event, "SUMMARY"), Some(task.task.text.clone()));
        assert_eq!(start_of(event).1, task.task.due_at);
        assert_eq!(prop(event, "DURATION").as_deref(), Some("PT15M"));
        assert_eq!(prop(event, "SEQUENCE").as_deref(), Some("0"));
        assert!(prop(event, "LAST-MODIFIED").is_some());
        // The alarm rings when the bot reminds: the lead before the deadline.
        let alarm = event
            .components
            .iter()
            .find(|c| c.name == "VALARM")
            .expect("a VALARM");
        let fires = prop(alarm, "TRIGGER").expect("a TRIGGER");
        assert_eq!(fires, trigger(task.task.lead));
        assert_eq!(
            Some(task.task.due_at + trigger_offset(&fires)),
            task.next_reminder,
            "{}",
            task.task.text
        );
        match task.task.recurrence {
            // 20 Mondays, across the change to summer time: the same wall-clock hour.
            Some(_) => assert_eq!(expanded(event, 20), scheduled(task, 20)),
            None => assert_eq!(prop(event, "RRULE"), None),
        }
    }
    assert!(
        listed.iter().any(|t| t.task.lead.secs() == 1800),
        "a task with a lead"
    );

    // Unchanged: 304 with the same ETag, and no body.
    let again = get(&local(&app, &https), Some(&etag)).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()[ETAG].to_str().unwrap(), etag);
    assert!(again.text().await.unwrap().is_empty());

    // A change (the standup paused, the rent paid): a new ETag, the paid one gone, the paused
    // one's SEQUENCE grown.
    let standup = listed.iter().find(|t| t.task.recurrence.is_some()).unwrap();
    let rent = listed
        .iter()
        .find(|t| t.task.text.contains("rent"))
        .unwrap();
    app.say(ann, &format!("/pause {}", standup.task.id)).await;
    app.say(ann, &format!("/done {}", rent.task.id)).await;
    let (changed_etag, changed) = calendar(get(&local(&app, &https), Some(&etag)).await).await;
    assert_ne!(changed_etag, etag);
    let unfolded = icalendar::parser::unfold(&changed);
    let parsed = icalendar::parser::read_calendar(&unfolded).unwrap();
    let changed_events = events(&parsed);
    assert_eq!(changed_events.len(), listed.len() - 1);
    assert!(!changed.contains(&rent.task.text));
    let sequence = prop(event_of(&changed_events, standup.task.id.0), "SEQUENCE").unwrap();
    assert!(sequence.parse::<u32>().unwrap() > 0, "{sequence}");

    // A new link: the old one is 404 at once, as an unknown one is; the new one serves.
    let renewed = app.say(ann, "/calendar new").await;
    let (new_https, _) = links(text(&renewed));
    assert_ne!(new_https, https);
    let old = get(&local(&app, &https), None).await;
    assert_eq!(old.status(), StatusCode::NOT_FOUND);
    let old_body = old.text().await.unwrap();
    let unknown = https.replace(&https[https.len() - 52..https.len() - 4], &"0".repeat(48));
    let unknown = get(&local(&app, &unknown), None).await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    assert_eq!(unknown.text().await.unwrap(), old_body, "no hint which");
    let not_a_secret = format!("http://{}/rb/calendar/x.ics", app.http_addr());
    assert_eq!(
        get(&not_a_secret, None).await.status(),
        StatusCode::NOT_FOUND
    );
    let (_, renewed_body) = calendar(get(&local(&app, &new_https), None).await).await;
    assert_eq!(renewed_body, changed, "the same tasks");

    // /calendar again cannot show the link (only its hash is kept): its button makes a new one.
    let exists = app.say(ann, "/calendar").await;
    assert_eq!(text(&exists), tr.t("calendar-exists"));
    assert_eq!(buttons(&exists), ["cal"]);
    let (tapped, reply) = app.tap_reply(ann, exists.message_id, ann, "cal").await;
    assert_eq!(
        tapped.answer.and_then(|a| a.text),
        Some(tr.t("callback-calendar-new"))
    );
    let (newest, _) = links(text(&reply));
    assert_eq!(
        get(&local(&app, &new_https), None).await.status(),
        StatusCode::NOT_FOUND
    );

    // Each link is read at most RATE_PER_MIN times a minute: then 429 with Retry-After, while
    // another chat's link still serves.
    let mut served = 0;
    let limited = loop {
        let response = get(&local(&app, &newest), None).await;
        if response.status() != StatusCode::OK {
            break response;
        }
        served += 1;
        assert!(served <= RATE_PER_MIN + 1, "no limit after {served} reads");
    };
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(served >= RATE_PER_MIN, "limited after {served} reads");
    let retry: u64 = limited.headers()[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let (_, bobs_body) = calendar(get(&local(&app, &bobs.0), None).await).await;
    assert!(bobs_body.contains("surprise party"));
    assert!(!bobs_body.contains("meeting"));
}

#[tokio::test]
async fn bot_calendar_without_a_public_url_says_the_operator_has_not_set_it_up() {
    let app = TestApp::start().await;
    let anna = app.user("Anna", "ru");
    app.say(anna, "/tz Europe/Moscow").await;
    let answer = app.say(anna, "/calendar").await;
    assert_eq!(text(&answer), Tr::new(Lang::Ru).t("calendar-off"));
    let never_served = format!("http://{}/calendar/{}.ics", app.http_addr(), "0".repeat(48));
    assert_eq!(
        get(&never_served, None).await.status(),
        StatusCode::NOT_FOUND
    );
    let rows: i64 = sqlx::query_scalar("select count(*) from calendar_feeds")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0, "no link was made");
}
