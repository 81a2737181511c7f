//! Every listener serves within its limits: connections that never finish their headers are
//! closed, and no more are served at once than the cap, so they cannot take the file descriptors
//! a real update needs.

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::process::Command;

use crate::app::text;
use crate::intake::SECRET;
use crate::support::{WAIT, eventually};

/// The file descriptors the bot's process may hold (a unit's LimitNOFILE, made small).
const NOFILE: u32 = 256;
/// More half-open connections than the process has file descriptors.
const HALF_OPEN: usize = 300;

/// `command` run under `prlimit`, with at most `nofile` file descriptors.
fn with_nofile(command: &Command, nofile: u32) -> Command {
    let std = command.as_std();
    let mut limited = Command::new("prlimit");
    limited
        .arg(format!("--nofile={nofile}:{nofile}"))
        .arg("--")
        .arg(std.get_program())
        .args(std.get_args())
        .env_clear()
        .envs(
            std.get_envs()
                .filter_map(|(key, value)| Some((key.to_owned(), value?.to_owned()))),
        )
        .kill_on_drop(true);
    limited
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_never_send_their_headers_do_not_keep_an_update_out() {
    let _timing = crate::support::TIMING.lock().await;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let (builder, hook) = crate::intake::webhook_builder(addr);
    let app = builder
        .config(|c| {
            c.listeners.header_timeout_secs = 1;
            c.listeners.max_connections = 100;
        })
        .prepare()
        .await;
    let mut command = app.run_command();
    command
        .env("WEBHOOK_URL", &hook)
        .env("WEBHOOK_SECRET", SECRET)
        .env("WEBHOOK_LISTEN", addr.to_string());
    let mut bot = with_nofile(&command, NOFILE)
        .spawn()
        .expect("prlimit runs remindbot");
    eventually(WAIT * 3, "the webhook to be set", || async {
        app.sim
            .calls(0)
            .iter()
            .any(|c| c.method == "setWebhook" && c.status == 200)
    })
    .await;

    // Each sends the start of a request, never its end.
    let mut half_open = Vec::with_capacity(HALF_OPEN);
    for _ in 0..HALF_OPEN {
        let mut stream = TcpStream::connect(addr).await.expect("a connection");
        stream
            .write_all(b"POST /telegram/hook HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        half_open.push(stream);
    }
    let ann = app.user("Ann", "en");
    let zone = app.say(ann, "/tz Asia/Tashkent").await;
    assert!(text(&zone).contains("Asia/Tashkent"), "{zone:?}");
    drop(half_open);
    bot.start_kill().unwrap();
    bot.wait().await.unwrap();
}
