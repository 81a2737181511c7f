//! The load of `bench intake`: the simulated Telegram (the Bot API simulator with its users, and
//! the senders that POST their updates to the bot's webhook). By default it runs in the bench's
//! own process, on the bot's runtime; with `--load-process` it runs in a child process (this
//! binary again, `remindbot-dev bench intake-load`), so that the bot's process is the bot's
//! alone, as in production, where Telegram is another machine. The child speaks JSON lines: it
//! writes [`FromLoad`] on its stdout and reads [`ToLoad`] on its stdin.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tgsim::{NewUser, SimConfig, SimHandle, Simulator};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use remindbot::bot::intake::webhook::SECRET_HEADER;

/// The webhook's secret token in the benchmark.
pub(super) const SECRET: &str = "bench-intake-secret";

/// How the updates are sent: the options of `bench intake-load`, the load of `bench intake
/// --load-process` in a process of its own (started by `bench intake`, not by hand).
#[derive(Clone, Debug, clap::Args)]
pub struct LoadArgs {
    /// Users, each sending two updates.
    #[arg(long)]
    pub users: usize,
    /// Webhook requests in flight at once.
    #[arg(long)]
    pub connections: usize,
    /// Updates offered per second (an open load); unset: a closed load.
    #[arg(long)]
    pub rate: Option<f64>,
}

/// What the load measured.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Sent {
    /// Each POST's round trip in ms, counted from when it was due under an open load.
    pub(super) round_trips_ms: Vec<f64>,
    /// Seconds from the first POST to the last answer.
    pub(super) secs: f64,
}

/// A line the load's child process writes on its stdout.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "load", rename_all = "snake_case")]
enum FromLoad {
    /// The simulator is up with its users: the bot is to call this Bot API with this token.
    Ready { api_url: String, token: String },
    /// Every update was POSTed and answered.
    Sent(Sent),
}

/// A line the bench writes on the child's stdin.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "load", rename_all = "snake_case")]
enum ToLoad {
    /// POST the updates to the bot's webhook.
    Send { webhook_url: String },
    /// The bot has stopped: the simulator may go.
    Stop,
}

/// The load of one run, started before the bot (the bot needs the simulator's address).
pub(super) enum Load {
    /// The simulator and the senders in this process.
    InProcess {
        /// How to send.
        args: LoadArgs,
        /// The simulator.
        sim: SimHandle,
        /// Every update's body, in the order they are sent.
        bodies: Arc<Vec<String>>,
    },
    /// The simulator and the senders in a child process.
    Child(Box<ChildLoad>),
}

/// The child process of a [`Load::Child`], killed if dropped before [`Load::stop`].
pub(super) struct ChildLoad {
    /// The process.
    process: Child,
    /// Where [`ToLoad`] lines go.
    stdin: ChildStdin,
    /// Where [`FromLoad`] lines come from.
    stdout: Lines<BufReader<ChildStdout>>,
    /// The simulator's Bot API and token, from its `Ready` line.
    telegram: (String, String),
}

impl Load {
    /// Starts the simulator and its users, in this process or (`in_child`) in a child process.
    pub(super) async fn start(args: LoadArgs, in_child: bool) -> anyhow::Result<Self> {
        if !in_child {
            let sim = Simulator::start(SimConfig::default().without_limits()).await?;
            let bodies = Arc::new(bodies(&sim, args.users)?);
            return Ok(Self::InProcess { args, sim, bodies });
        }
        let mut command = tokio::process::Command::new(
            std::env::current_exe().context("the bench's own executable")?,
        );
        command
            .args(["bench", "intake-load", "--users"])
            .arg(args.users.to_string())
            .arg("--connections")
            .arg(args.connections.to_string());
        if let Some(rate) = args.rate {
            command.arg("--rate").arg(rate.to_string());
        }
        let mut process = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .context("starting the load's process")?;
        let stdin = process.stdin.take().context("the load's stdin")?;
        let stdout = process.stdout.take().context("the load's stdout")?;
        let mut stdout = BufReader::new(stdout).lines();
        match hear(&mut stdout).await? {
            FromLoad::Ready { api_url, token } => Ok(Self::Child(Box::new(ChildLoad {
                process,
                stdin,
                stdout,
                telegram: (api_url, token),
            }))),
            other => anyhow::bail!("the load's process began with {other:?}"),
        }
    }

    /// The Bot API's base URL and the bot's token.
    pub(super) fn telegram(&self) -> (String, String) {
        match self {
            Self::InProcess { sim, .. } => (sim.url(), sim.token().to_owned()),
            Self::Child(child) => child.telegram.clone(),
        }
    }

    /// POSTs every update to `webhook_url` as [`LoadArgs`] says; returns when each is answered.
    pub(super) async fn send(&mut self, webhook_url: &str) -> anyhow::Result<Sent> {
        match self {
            Self::InProcess { args, bodies, .. } => send(webhook_url, bodies.clone(), args).await,
            Self::Child(child) => {
                let webhook_url = webhook_url.to_owned();
                say(&mut child.stdin, &ToLoad::Send { webhook_url }).await?;
                match hear(&mut child.stdout).await? {
                    FromLoad::Sent(sent) => Ok(sent),
                    other => anyhow::bail!("the load answered {other:?} to its send"),
                }
            }
        }
    }

    /// Stops the simulator (after the bot: the bot sends its replies there).
    pub(super) async fn stop(self) -> anyhow::Result<()> {
        match self {
            Self::InProcess { sim, .. } => sim.shutdown().await,
            Self::Child(mut child) => {
                say(&mut child.stdin, &ToLoad::Stop).await?;
                let status = child.process.wait().await?;
                anyhow::ensure!(status.success(), "the load's process ended with {status}");
            }
        }
        Ok(())
    }
}

/// `bench intake-load`: the load in a process of its own. Starts the simulator, says it is ready,
/// sends when told to and reports, then waits to be told to stop.
pub async fn run_in_child(args: &LoadArgs) -> anyhow::Result<()> {
    let sim = Simulator::start(SimConfig::default().without_limits()).await?;
    let bodies = Arc::new(bodies(&sim, args.users)?);
    let ready = FromLoad::Ready {
        api_url: sim.url(),
        token: sim.token().to_owned(),
    };
    println!("{}", serde_json::to_string(&ready)?);
    // Until told to stop, or the bench's end of the pipe is closed.
    while let Some(ToLoad::Send { webhook_url }) = read_stdin_line().await? {
        let sent = send(&webhook_url, bodies.clone(), args).await?;
        println!("{}", serde_json::to_string(&FromLoad::Sent(sent))?);
    }
    sim.shutdown().await;
    Ok(())
}

/// Reads the next [`ToLoad`] on this process's stdin; `None` at its end.
async fn read_stdin_line() -> anyhow::Result<Option<ToLoad>> {
    tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        if std::io::stdin().read_line(&mut line)? == 0 {
            return Ok(None);
        }
        Ok(Some(serde_json::from_str(&line)?))
    })
    .await?
}

/// Writes `message` as a line on the child's stdin.
async fn say(stdin: &mut ChildStdin, message: &ToLoad) -> anyhow::Result<()> {
    let mut line = serde_json::to_string(message)?;
    line.push('\n');
    stdin.write_all(line.as_bytes()).await?;
    stdin.flush().await?;
    Ok(())
}

/// Reads the child's next line.
async fn hear(stdout: &mut Lines<BufReader<ChildStdout>>) -> anyhow::Result<FromLoad> {
    let line = stdout
        .next_line()
        .await?
        .context("the load's process ended early")?;
    serde_json::from_str(&line).with_context(|| format!("the load's process wrote {line:?}"))
}

/// Creates `users` users in `sim`; the updates they send, in order: each user's `/tz`, then each
/// user's task.
fn bodies(sim: &SimHandle, users: usize) -> anyhow::Result<Vec<String>> {
    let mut user_ids = Vec::with_capacity(users);
    for i in 0..users {
        user_ids.push(sim.create_user(NewUser::new(&format!("Bench{i}")))?.user.id);
    }
    let mut bodies = Vec::with_capacity(users * 2);
    for (i, user) in user_ids.iter().enumerate() {
        let id = 2 * i as i64 + 1;
        bodies.push(message_update(id, *user, "/tz Asia/Tashkent").to_string());
    }
    for (i, user) in user_ids.iter().enumerate() {
        let id = 2 * i as i64 + 2;
        let task = format!("water the plants {i} tomorrow 9:00");
        bodies.push(message_update(id, *user, &task).to_string());
    }
    Ok(bodies)
}

/// A message update as Telegram sends it: `text` from user `user_id` in their private chat (a
/// command's entity marked).
pub fn message_update(update_id: i64, user_id: i64, text: &str) -> serde_json::Value {
    let command = text.starts_with('/').then(|| {
        let length = text.find(' ').unwrap_or(text.len());
        json!([{"type": "bot_command", "offset": 0, "length": length}])
    });
    let mut message = json!({
        "message_id": update_id,
        "date": chrono::Utc::now().timestamp(),
        "chat": {"id": user_id, "type": "private", "first_name": "Bench"},
        "from": {"id": user_id, "is_bot": false, "first_name": "Bench", "language_code": "en"},
        "text": text,
    });
    if let Some(entities) = command {
        message["entities"] = entities;
    }
    json!({"update_id": update_id, "message": message})
}

/// POSTs `bodies` to `url` as `args` says (closed, or open at `args.rate`).
async fn send(url: &str, bodies: Arc<Vec<String>>, args: &LoadArgs) -> anyhow::Result<Sent> {
    let client = reqwest::Client::new();
    let started = Instant::now();
    let round_trips_ms = match args.rate {
        None => post_closed(&client, url, &bodies, args.connections).await?,
        Some(rate) => post_open(&client, url, &bodies, args.connections, rate).await?,
    };
    Ok(Sent {
        round_trips_ms,
        secs: started.elapsed().as_secs_f64(),
    })
}

/// POSTs `bodies` over `connections` connections, each sending its next as soon as the last is
/// answered; the round trip of each.
async fn post_closed(
    client: &reqwest::Client,
    url: &str,
    bodies: &Arc<Vec<String>>,
    connections: usize,
) -> anyhow::Result<Vec<f64>> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut senders = tokio::task::JoinSet::new();
    for _ in 0..connections.max(1) {
        let (bodies, next, client, url) =
            (bodies.clone(), next.clone(), client.clone(), url.to_owned());
        senders.spawn(async move {
            let mut round_trips = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(body) = bodies.get(i) else {
                    return Ok::<_, anyhow::Error>(round_trips);
                };
                let sent = Instant::now();
                post(&client, &url, body).await?;
                round_trips.push(sent.elapsed().as_secs_f64() * 1000.0);
            }
        });
    }
    let mut round_trips = Vec::with_capacity(bodies.len());
    while let Some(joined) = senders.join_next().await {
        round_trips.extend(joined??);
    }
    Ok(round_trips)
}

/// POSTs update `i` of `bodies` when it is due, `i / rate` seconds from now, over at most
/// `connections` connections at once; the time of each from when it was due to its answer.
async fn post_open(
    client: &reqwest::Client,
    url: &str,
    bodies: &Arc<Vec<String>>,
    connections: usize,
    rate: f64,
) -> anyhow::Result<Vec<f64>> {
    anyhow::ensure!(rate > 0.0, "--rate must be above 0");
    let free = Arc::new(tokio::sync::Semaphore::new(connections.max(1)));
    let start = tokio::time::Instant::now();
    let mut senders = tokio::task::JoinSet::new();
    for i in 0..bodies.len() {
        let due = start + Duration::from_secs_f64(i as f64 / rate);
        tokio::time::sleep_until(due).await;
        let (bodies, free, client, url) =
            (bodies.clone(), free.clone(), client.clone(), url.to_owned());
        senders.spawn(async move {
            let _connection = free.acquire_owned().await?;
            post(&client, &url, &bodies[i]).await?;
            Ok::<_, anyhow::Error>(due.elapsed().as_secs_f64() * 1000.0)
        });
    }
    let mut round_trips = Vec::with_capacity(bodies.len());
    while let Some(joined) = senders.join_next().await {
        round_trips.push(joined??);
    }
    Ok(round_trips)
}

/// POSTs one update to the webhook as Telegram does; an error unless it is accepted.
async fn post(client: &reqwest::Client, url: &str, body: &str) -> anyhow::Result<()> {
    let status = client
        .post(url)
        .header(SECRET_HEADER, SECRET)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await?
        .status();
    anyhow::ensure!(status.is_success(), "the webhook answered {status}");
    Ok(())
}
