//! Behind PgBouncer (Debian's package), as most managed PostgreSQL offers run it: in session mode
//! the bot works as on PostgreSQL itself; in transaction mode `remindbot check` and `remindbot
//! run` refuse at once and say what to change, instead of failing later on a prepared statement
//! or a replica wrongly declared dead.
//!
//! Without a `pgbouncer` binary these tests say so and pass, unless `REMINDBOT_REQUIRE_PGBOUNCER`
//! is set, as CI sets it (`.ci/run` installs the package).

use std::process::Stdio;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use devdb::{PoolMode, Pooler, PoolerError};
use sqlx::postgres::PgConnectOptions;

use crate::app::{TestApp, text};
use crate::support::server_url;

/// PgBouncer in `mode` in front of the tests' server, or `None` (with a note) where it is not
/// installed and not required.
async fn pgbouncer(mode: PoolMode) -> Option<Arc<Pooler>> {
    let server = server_url().await;
    let user = PgConnectOptions::from_str(&server)
        .expect("the server URL")
        .get_username()
        .to_owned();
    match Pooler::start(&server, mode, &[&user]).await {
        Ok(pooler) => Some(Arc::new(pooler)),
        Err(PoolerError::NotInstalled)
            if std::env::var_os("REMINDBOT_REQUIRE_PGBOUNCER").is_none() =>
        {
            eprintln!("pgbouncer is not installed: the test of the bot behind it did not run");
            None
        }
        Err(error) => panic!("pgbouncer starts: {error}"),
    }
}

#[tokio::test]
async fn behind_pgbouncer_in_transaction_mode_check_and_run_refuse_and_say_why() {
    let Some(pooler) = pgbouncer(PoolMode::Transaction).await else {
        return;
    };
    let app = TestApp::builder().prepare().await;
    let through = pooler
        .url_for(app.database_url())
        .expect("the pooler's URL");

    let output = app
        .command("check")
        .env("DATABASE_URL", &through)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .await
        .expect("remindbot check runs");
    let report = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(output.status.code(), Some(1), "{report}");
    let sessions = report
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("sessions"))
        .unwrap_or_else(|| panic!("a sessions line in:\n{report}"));
    assert!(sessions.starts_with("FAIL"), "{report}");
    assert!(sessions.contains("pool_mode = session"), "{report}");

    let run = app
        .command("run")
        .env("DATABASE_URL", &through)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let output = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("remindbot run stops at once")
        .expect("remindbot run runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(said.contains("transaction (or statement) mode"), "{said}");
    assert!(said.contains("pool_mode = session"), "{said}");

    // The same database straight, as the message advises: check passes.
    let output = app
        .command("check")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .await
        .expect("remindbot check runs");
    let report = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(output.status.code(), Some(0), "{report}");
}

#[tokio::test]
async fn behind_pgbouncer_in_session_mode_the_bot_answers_and_reminds() {
    let Some(pooler) = pgbouncer(PoolMode::Session).await else {
        return;
    };
    let through = Arc::clone(&pooler);
    let mut app = TestApp::builder()
        .config(move |config| {
            let direct = config.db.database_url.take().expect("the test database");
            config.db.database_url = Some(through.url_for(&direct).expect("the pooler's URL"));
        })
        .start()
        .await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    let card = app.say(ann, "water the plants in 2 seconds").await;
    assert!(text(&card).contains("water the plants"), "{card:?}");
    let reminder = app
        .reply_containing(ann, card.message_id, "water the plants")
        .await;
    assert!(text(&reminder).contains("⏰"), "{reminder:?}");
    app.stop().await;
    drop(pooler);
}
