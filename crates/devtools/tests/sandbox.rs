//! `remindbot-dev sandbox` driven through standard input like a script would: set the zone, create
//! a reminder due in seconds, see it arrive, press Done by number, find the list empty, quit; and
//! several users, switching between them, and end of input as a way out.

use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use devdb::ScratchDatabase;
use remindbot::domain::lang::Lang;
use remindbot::i18n::{Arg, Tr};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long to wait for what normally happens within milliseconds (the product's tests' bound).
const WAIT: Duration = Duration::from_secs(10);

/// A fresh, migrated database for one sandbox, on `DATABASE_URL`'s server or the workspace's
/// private cluster; dropped with the handle.
async fn scratch_database() -> ScratchDatabase {
    let workspace_pgdata = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.pgdata"));
    let server = devdb::server_url_from_env(workspace_pgdata)
        .await
        .expect("a PostgreSQL server for the tests");
    ScratchDatabase::create(&server, &remindbot::db::migrators())
        .await
        .expect("a scratch database")
}

/// The sandbox binary with pipes on both ends.
struct Sandbox {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines<BufReader<ChildStdout>>,
    seen: Vec<String>,
}

impl Sandbox {
    fn start(db: &ScratchDatabase, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_remindbot-dev"))
            .arg("sandbox")
            .args(args)
            .env("DATABASE_URL", db.url())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("the sandbox starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
        Self {
            child,
            stdin,
            stdout,
            seen: Vec::new(),
        }
    }

    /// Reads lines until one starts with `prefix` and contains `text`; returns it. Each line may
    /// take twice [`WAIT`]: it may wait for the start-up (with migrations) or for a reminder due in
    /// 3 s.
    async fn expect(&mut self, prefix: &str, text: &str) -> String {
        let within = WAIT * 2;
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = tokio::time::timeout(left, self.stdout.next_line())
                .await
                .unwrap_or_else(|_| {
                    panic!("no {prefix}…{text:?} within {within:?}: {:#?}", self.seen)
                })
                .expect("reading stdout")
                .unwrap_or_else(|| {
                    panic!("stdout ended before {prefix}…{text:?}: {:#?}", self.seen)
                });
            self.seen.push(line.clone());
            if line.starts_with(prefix) && line.contains(text) {
                return line;
            }
        }
    }

    /// Reads lines until each of `lines` (prefix, text) has shown, in whatever order.
    async fn expect_in_any_order(&mut self, lines: &[(&str, &str)]) {
        let from = self.seen.len();
        for (prefix, text) in lines {
            let shown = self.seen[from..]
                .iter()
                .any(|l| l.starts_with(prefix) && l.contains(text));
            if !shown {
                self.expect(prefix, text).await;
            }
        }
    }

    async fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("writing stdin");
        stdin.flush().await.expect("flushing stdin");
    }

    /// Closes standard input and waits for the exit; everything printed must be token-free.
    /// A piped script's end waits for every answer to leave (one message a second per chat, after
    /// the start-up), so the exit may take a script's length in seconds: the bound only catches a
    /// sandbox that never stops.
    async fn finish(mut self) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let status = tokio::time::timeout(WAIT * 6, self.child.wait())
            .await
            .expect("the sandbox exits in time")
            .expect("waiting for the sandbox");
        while let Ok(Some(line)) = self.stdout.next_line().await {
            self.seen.push(line);
        }
        let secret = tgsim::DEFAULT_TOKEN.split_once(':').unwrap().1;
        assert!(
            !self.seen.iter().any(|l| l.contains(secret)),
            "the bot token was printed: {:#?}",
            self.seen
        );
        (status, self.seen)
    }
}

#[tokio::test]
async fn a_reminder_arrives_is_pressed_done_and_leaves_the_list() {
    let db = scratch_database().await;
    let tr = Tr::new(Lang::En);
    let mut sandbox = Sandbox::start(&db, &["--tz", "Asia/Tashkent"]);
    sandbox
        .expect("sandbox> admin page: http://", "/admin")
        .await;
    sandbox
        .expect("sandbox> metrics: http://", "/metrics")
        .await;
    sandbox.expect("bot> ", "Asia/Tashkent").await;

    // Seconds enough for the greeting's last messages and the saved card to leave first (one
    // message a second per chat), so that the reminder's buttons are the latest.
    sandbox.send("buy milk in 6 seconds").await;
    sandbox.expect("bot> ", &tr.t("task-saved")).await;
    sandbox.expect("bot> ", &tr.t("reminder-title")).await;
    sandbox.expect("bot> ", "buy milk").await;
    let buttons = sandbox.expect("bot> [1] ", &tr.t("button-done")).await;
    assert!(buttons.contains("[2] "), "{buttons}");

    // The tap is answered once handled; the message leaves through the outbox: either may
    // show first.
    sandbox.send("1").await;
    sandbox
        .expect_in_any_order(&[
            (
                "bot> ",
                &tr.t_with("done-ok", &[("text", Arg::Text("buy milk"))]),
            ),
            ("bot> (popup) ", &tr.t("callback-done")),
        ])
        .await;

    sandbox.send("/list").await;
    sandbox.expect("bot> ", &tr.t("list-empty")).await;

    sandbox.send("/quit").await;
    sandbox.expect("sandbox> ", "stopped").await;
    let (status, seen) = sandbox.finish().await;
    assert!(status.success(), "{status}");
    // Done took the buttons off the reminder: it is shown again, edited, without them.
    let reminder = tr.t("reminder-title");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("bot> (edited #") && l.contains(&reminder)),
        "{seen:#?}"
    );
}

#[tokio::test]
async fn several_users_take_turns_and_end_of_input_quits() {
    let db = scratch_database().await;
    let ru = Tr::new(Lang::Ru);
    let mut sandbox = Sandbox::start(&db, &["--users", "2", "--lang", "ru"]);
    sandbox.expect("sandbox> ", "user 2: Bob").await;
    sandbox.expect("bot[2]> ", &ru.t("start-welcome")).await;

    sandbox.send("/as 2").await;
    sandbox.expect("sandbox> ", "you are user 2: Bob").await;
    sandbox.send("/tz Tashkent").await;
    sandbox.expect("bot[2]> ", "Asia/Tashkent").await;
    sandbox.send("/press 1 #999").await;
    sandbox
        .expect("sandbox> ", "no message with buttons with id #999")
        .await;

    let (status, lines) = sandbox.finish().await;
    assert!(status.success(), "{status}");
    assert!(
        lines.iter().any(|l| l == "sandbox> end of input"),
        "{lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("bot[1]> ") && l.contains("Asia/Tashkent")),
        "user 1's zone was not set: {lines:#?}"
    );
}

#[tokio::test]
async fn a_location_sets_the_zone_a_forward_becomes_a_reminder_and_files_are_shown() {
    let db = scratch_database().await;
    let tr = Tr::new(Lang::En);
    let mut sandbox = Sandbox::start(&db, &[]);
    sandbox.expect("bot> ", &tr.t("tz-share-location")).await;

    sandbox.send("/location 95 10").await;
    sandbox.expect("sandbox> ", "usage: /location").await;
    sandbox.send("/location 41.31 69.28").await;
    sandbox.expect("you> ", "/location 41.31 69.28").await;
    sandbox
        .expect("bot> ", "Time zone: Asia/Tashkent (UTC+5).")
        .await;

    sandbox
        .send("/forward the <b>wifi</b> password is hunter2")
        .await;
    sandbox.expect("bot> ", &tr.t("ask-quote-when")).await;
    sandbox
        .expect("bot> ", "the <b>wifi</b> password is hunter2")
        .await;
    sandbox.send("in 2 hours").await;
    sandbox.expect("bot> ", &tr.t("task-saved")).await;

    sandbox.send("/export").await;
    let calendar = sandbox.expect("bot> 📎 ", "tasks.ics").await;
    assert!(
        calendar.contains("(text/calendar, ") && calendar.ends_with(" bytes)"),
        "{calendar}"
    );
    sandbox.expect("bot> 📎 ", "tasks.csv").await;

    sandbox.send("/quit").await;
    let (status, _) = sandbox.finish().await;
    assert!(status.success(), "{status}");
}

/// A whole script piped at once, with `/quit` as its last line: the sandbox shows the answer to
/// every line before it stops. Twice on one database, as a user reruns a script: the second
/// simulator numbers its updates after those the database holds, so the bot does not skip them
/// as already received.
#[tokio::test]
async fn a_piped_script_is_answered_to_its_last_line_on_every_run() {
    let db = scratch_database().await;
    let tr = Tr::new(Lang::En);
    for run in 1..=2 {
        let mut sandbox = Sandbox::start(&db, &["--tz", "Asia/Tashkent"]);
        for line in [
            "/start",
            &format!("buy milk tomorrow 10:0{run}"),
            "/list",
            "/quit",
        ] {
            sandbox.send(line).await;
        }
        let (status, seen) = sandbox.finish().await;
        assert!(status.success(), "run {run}: {status}");
        let stopping = seen
            .iter()
            .position(|l| l == "sandbox> stopping…")
            .unwrap_or_else(|| panic!("run {run} did not stop: {seen:#?}"));
        let answered = |text: &str| {
            seen[..stopping]
                .iter()
                .any(|l| l.starts_with("bot> ") && l.contains(text))
        };
        assert!(answered(&tr.t("task-saved")), "run {run}: {seen:#?}");
        assert!(answered(&format!("10:0{run}")), "run {run}: {seen:#?}");
    }
}

/// `/app` prints a local link that opens the Mini App as the active user: the side-car, on the
/// free port the sandbox chose, answers the app's API with the launch data in the link's fragment,
/// as the page sends it; and the chat's /list offers the app.
#[tokio::test]
async fn app_prints_a_link_whose_launch_data_the_mini_app_accepts() {
    let db = scratch_database().await;
    let tr = Tr::new(Lang::En);
    let mut sandbox = Sandbox::start(&db, &["--tz", "Asia/Tashkent"]);
    sandbox.expect("bot> ", "Asia/Tashkent").await;
    sandbox.send("buy milk tomorrow 10:00").await;
    sandbox.expect("bot> ", &tr.t("task-saved")).await;
    sandbox.send("/list").await;
    sandbox
        .expect(
            "bot> ",
            &format!("{} <Mini App: /app>", tr.t("button-open-app")),
        )
        .await;

    sandbox.send("/app").await;
    let line = sandbox
        .expect("sandbox> the Mini App as user 1 (Ann)", "http://127.0.0.1:")
        .await;
    let link = line.rsplit(' ').next().expect("a link at the end");
    let (page, fragment) = link.split_once('#').expect("launch data in the fragment");
    assert!(page.ends_with("/app/"), "{link}");
    let params: Vec<(String, String)> = form_urlencoded::parse(fragment.as_bytes())
        .into_owned()
        .collect();
    let init_data = params
        .iter()
        .find_map(|(key, value)| (key == "tgWebAppData").then_some(value))
        .unwrap_or_else(|| panic!("no tgWebAppData in {link}"));
    assert!(
        params.iter().any(|(key, _)| key == "tgWebAppVersion"),
        "{link}"
    );

    let client = reqwest::Client::new();
    let answer = client
        .get(format!("{page}api/tasks"))
        .header("Authorization", format!("tma {init_data}"))
        .send()
        .await
        .expect("the side-car answers");
    assert_eq!(answer.status(), 200, "{link}");
    let body = answer.text().await.expect("a body");
    assert!(body.contains("buy milk"), "{body}");
    let forged = client
        .get(format!("{page}api/tasks"))
        .header("Authorization", format!("tma {init_data}0"))
        .send()
        .await
        .expect("the side-car answers");
    assert_eq!(forged.status(), 401);

    sandbox.send("/quit").await;
    let (status, _) = sandbox.finish().await;
    assert!(status.success(), "{status}");
}
