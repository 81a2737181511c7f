//! Running it for real: `remindbot check` says what is wrong in plain words (exit code 0/1), the
//! logs suit a terminal, a file and a log shipper, and the dashboard and alert rules name only
//! metrics the bot exports.

use std::collections::BTreeSet;
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::app::TestApp;
use crate::support::{WAIT, server_url};

/// `remindbot check` with `app`'s settings, changed by `configure`: its exit code and output.
async fn check(
    app: &TestApp,
    configure: impl FnOnce(&mut tokio::process::Command),
) -> (i32, String) {
    let mut command = app.command("check");
    command.stdout(Stdio::piped()).stderr(Stdio::null());
    configure(&mut command);
    let output = command.output().await.expect("remindbot check runs");
    let code = output.status.code().expect("check exits");
    (code, String::from_utf8(output.stdout).expect("UTF-8"))
}

/// The line of `report` about `topic`.
fn line<'a>(report: &'a str, topic: &str) -> &'a str {
    report
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(topic))
        .unwrap_or_else(|| panic!("no {topic} line in:\n{report}"))
}

#[tokio::test]
async fn check_passes_on_a_sound_setup_and_says_what_is_wrong_otherwise() {
    let app = TestApp::start().await;
    let (code, report) = check(&app, |_| {}).await;
    assert_eq!(code, 0, "{report}");
    assert!(line(&report, "token").starts_with("ok"), "{report}");
    assert!(line(&report, "token").contains("@"), "{report}");
    assert!(line(&report, "webhook").contains("long-polls"), "{report}");
    assert!(line(&report, "database").starts_with("ok"), "{report}");
    assert!(
        line(&report, "migrations").contains("all applied"),
        "{report}"
    );
    assert!(line(&report, "clock").starts_with("ok"), "{report}");
    // The tests' private cluster runs autovacuum, as a server for the queue must.
    assert!(line(&report, "vacuum").starts_with("ok"), "{report}");
    assert!(line(&report, "limits").contains("1/s per chat"), "{report}");

    // A token Telegram does not know, and a database that is not there: both fail, in words.
    let (code, report) = check(&app, |c| {
        c.env("TELOXIDE_TOKEN", "123:not-the-token").env(
            "DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/no_such_database_here",
        );
    })
    .await;
    assert_eq!(code, 1, "{report}");
    assert!(line(&report, "token").starts_with("FAIL"), "{report}");
    assert!(line(&report, "token").contains("@BotFather"), "{report}");
    assert!(line(&report, "database").starts_with("FAIL"), "{report}");
    assert!(
        line(&report, "database").contains("cannot connect"),
        "{report}"
    );
    assert!(
        !report.contains("not-the-token"),
        "the token never shows: {report}"
    );

    // A weak admin token is refused outright; a generated one is reported on, never shown.
    let token = "0123456789abcdef0123456789abcdef";
    let (code, report) = check(&app, |c| {
        c.env("ADMIN_TOKEN", token);
    })
    .await;
    assert_eq!(code, 0, "{report}");
    assert!(
        line(&report, "admin").contains("32-character token"),
        "{report}"
    );
    assert!(!report.contains(token), "{report}");
}

#[tokio::test]
async fn check_reports_pending_migrations_without_applying_them() {
    let app = TestApp::builder().prepare().await;
    let empty = devdb::ScratchDatabase::create(&server_url().await, &[])
        .await
        .expect("an empty database");
    let on_empty = |c: &mut tokio::process::Command| {
        c.env("DATABASE_URL", empty.url());
    };
    let (code, report) = check(&app, on_empty).await;
    assert_eq!(code, 0, "pending migrations are applied by run: {report}");
    let migrations = line(&report, "migrations");
    assert!(migrations.starts_with("warn"), "{report}");
    assert!(migrations.contains("pending"), "{report}");
    assert!(
        migrations.contains("remindbot migrate"),
        "it says what to do: {report}"
    );
    let (_, again) = check(&app, on_empty).await;
    assert!(
        line(&again, "migrations").contains("pending"),
        "check changed nothing"
    );
}

/// The first `n` lines `remindbot run` writes to its standard error (piped, as under systemd).
async fn first_log_lines(app: &TestApp, log_format: &str, n: usize) -> Vec<String> {
    let mut child = app
        .run_command()
        .env("LOG_FORMAT", log_format)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("remindbot run starts");
    let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
    let mut read = Vec::new();
    tokio::time::timeout(WAIT, async {
        while read.len() < n {
            match lines.next_line().await.expect("stderr reads") {
                Some(line) => read.push(line),
                None => break,
            }
        }
    })
    .await
    .expect("the bot logs as it starts");
    child.start_kill().expect("the bot stops");
    read
}

#[tokio::test]
async fn logs_carry_no_colour_codes_when_piped_and_are_json_for_shippers() {
    let app = TestApp::builder().prepare().await;
    let pretty = first_log_lines(&app, "pretty", 3).await;
    assert_eq!(pretty.len(), 3, "{pretty:?}");
    for line in &pretty {
        assert!(
            !line.contains('\u{1b}'),
            "an escape code in a piped log: {line:?}"
        );
        assert!(line.contains("INFO") || line.contains("WARN"), "{line:?}");
    }

    let json = first_log_lines(&app, "json", 3).await;
    assert_eq!(json.len(), 3, "{json:?}");
    for line in &json {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(value["timestamp"].is_string(), "{line}");
        assert!(value["level"].is_string(), "{line}");
        assert!(value["fields"]["message"].is_string(), "{line}");
    }
}

/// Every metric the bot exports, by the constants that name them.
fn exported_metrics() -> BTreeSet<&'static str> {
    use remindbot::bot::metrics as bot;
    use remindbot::egress::metrics as egress;
    [
        bot::UPDATES_RECEIVED,
        bot::UPDATES_HANDLED,
        bot::UPDATES_FAILED,
        bot::UPDATE_HANDLING,
        bot::POLLING_LEASE,
        bot::WEBHOOK_REFUSED,
        egress::MESSAGES_SENT,
        egress::EDITS_COALESCED,
        egress::BUDGET_IN_USE,
        egress::SENT,
        egress::RETRIED,
        egress::FAILED,
        egress::ALREADY_SENT,
        egress::DEFERRED,
        egress::TOO_MANY_REQUESTS,
        egress::LATENESS,
        egress::QUEUE_JOBS,
        egress::QUEUE_DUE,
        egress::QUEUE_OLDEST_DUE,
        egress::QUEUE_DUE_BY_PRIORITY,
        egress::QUEUE_OLDEST_DUE_BY_PRIORITY,
        remindbot::http::DATABASE_UP,
    ]
    .into_iter()
    .collect()
}

/// The `remindbot_*` names in `text`, a histogram's `_bucket`, `_sum` and `_count` series under
/// the histogram's own name.
fn metric_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("remindbot_") {
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(tail.len());
        let name = &tail[..end];
        let name = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|suffix| name.strip_suffix(suffix))
            .unwrap_or(name);
        names.insert(name.to_owned());
        rest = &tail[end..];
    }
    names
}

#[test]
fn the_dashboard_and_the_alerts_name_only_exported_metrics() {
    let exported = exported_metrics();
    let root = env!("CARGO_MANIFEST_DIR");
    for file in [
        "deploy/grafana/remindbot-dashboard.json",
        "deploy/prometheus/remindbot-alerts.yml",
    ] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).expect(file);
        if file.ends_with(".json") {
            serde_json::from_str::<serde_json::Value>(&text).expect("the dashboard is JSON");
        }
        let named = metric_names(&text);
        assert!(named.len() >= 5, "{file} names {named:?}");
        let unknown: Vec<&String> = named
            .iter()
            .filter(|n| !exported.contains(n.as_str()))
            .collect();
        assert!(
            unknown.is_empty(),
            "{file} names metrics nobody exports: {unknown:?}"
        );
    }
}
