//! `remindbot-dev sandbox` (`cargo sandbox`): the whole bot offline in one command. It starts
//! PostgreSQL (the private cluster unless DATABASE_URL is set), the Bot API simulator on a free
//! port and everything of `remindbot run` against it, then lets the terminal type as simulated
//! Telegram users. Its side-car's own address is the bot's `PUBLIC_URL`, so that the Mini App
//! (`/app` prints a link that opens it as the active user) and the calendar feeds are served.
//!
//! - [`terminal`] reads standard input (a TTY or a pipe) and tells sandbox commands from chat.
//! - [`session`] acts as the users through the simulator and collects what they see.
//! - [`printer`] turns transcripts into `bot> ` lines with numbered buttons.

pub mod database;
pub mod printer;
pub mod session;
pub mod terminal;

use std::io::{IsTerminal, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};
use std::time::Duration;

use anyhow::Context as _;
use secrecy::SecretString;
use tokio::time::{Instant, MissedTickBehavior};

use crate::database::DevDatabaseArgs;
use remindbot::app::{self, Running};
use remindbot::bot::BotSettings;
use remindbot::config::{DeliveryArgs, RunConfig, TelegramArgs};
use remindbot::db::DatabaseArgs;
use remindbot::feed::PublicUrl;
use session::Session;
use terminal::Input;
use tgsim::{SimConfig, SimHandle, Simulator};

/// How often the users' chats are looked at.
const POLL_EVERY: Duration = Duration::from_millis(100);
/// How long the bot may take to start polling the simulator.
const STARTUP_WAIT: Duration = Duration::from_secs(30);
/// Before exiting, the chat is shown until the bot has handled everything sent and answered
/// everything due, and then has been quiet this long…
const SETTLE_QUIET: Duration = Duration::from_millis(500);
/// …but no longer than this (a piped script's last answers can take a while on a cold start).
const SETTLE_MAX: Duration = Duration::from_secs(30);
/// Bot API request timeout against the simulator (long polls take 10 s).
const HTTP_TIMEOUT_SECS: u64 = 17;

/// The options of `remindbot-dev sandbox`.
#[derive(Clone, Debug, clap::Args)]
pub struct SandboxArgs {
    /// Where the database is (the private cluster in `--pgdata` unless DATABASE_URL is set).
    #[command(flatten)]
    pub db: DevDatabaseArgs,
    /// Start with an empty sandbox database (the private cluster's; not with DATABASE_URL).
    #[arg(long)]
    pub fresh: bool,
    /// The simulated users' Telegram language (`language_code`).
    #[arg(long, default_value = "en", value_parser = ["en", "ru", "uz"])]
    pub lang: String,
    /// Answer the time-zone question for every user with this zone, e.g. Asia/Tashkent.
    #[arg(long)]
    pub tz: Option<String>,
    /// How many simulated users; `/as <n>` switches between them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=i64::from(session::MAX_USERS)))]
    pub users: u16,
    /// Make user 1 an admin of the bot (/failed, /retry, /stats).
    #[arg(long)]
    pub admin: bool,
    /// Where the side-car serves /healthz, /metrics, /admin, the Mini App and the calendar feeds
    /// (port 0: a free port).
    #[arg(long = "http-addr", default_value = "127.0.0.1:0")]
    pub http_addr: SocketAddr,
    /// How reminders are sent.
    #[command(flatten, next_help_heading = "Delivery")]
    pub delivery: DeliveryArgs,
}

/// Runs the sandbox until `/quit`, end of input or Ctrl-C; then stops everything.
pub async fn run(args: SandboxArgs) -> anyhow::Result<()> {
    say(&["sandbox> starting PostgreSQL, the Bot API simulator and the bot…".to_owned()])?;
    if args.fresh && args.db.explicit_url().is_some() {
        anyhow::bail!(
            "--fresh empties the sandbox's own database; it is not used with DATABASE_URL"
        );
    }
    let database_url = database::resolve(&args.db, args.fresh)
        .await
        .context("preparing the database")?;
    database::ensure_sandbox_only(&database_url, session::all_ids()).await?;
    let first_update_id = database::first_update_id(&database_url).await?;
    let http_addr = with_free_port(args.http_addr).context("finding a free port")?;
    let public_url = public_url(http_addr)?;
    // Telegram's test environment takes the app's plain-HTTP local URL for its buttons.
    let sim = Simulator::start(SimConfig {
        first_update_id,
        test_environment: true,
        ..SimConfig::default()
    })
    .await
    .context("starting the Bot API simulator")?;
    let admin_token = random_token();
    let where_ = Where {
        database_url: &database_url,
        admin_token: &admin_token,
        app_url: public_url.app_url(),
    };
    let config = run_config(&args, &sim, database_url.clone(), &admin_token);
    let running = app::start(RunConfig {
        http_addr,
        bot: BotSettings {
            public_url: Some(public_url),
            telegram_test_environment: true,
            ..config.bot
        },
        ..config
    })
    .await?;
    let chatted = chat(&args, &sim, &running, &where_).await;
    let stopped = running.stop().await;
    sim.shutdown().await;
    chatted?;
    stopped?;
    say(&["sandbox> stopped".to_owned()])?;
    Ok(())
}

/// `addr`, or with port 0 the same address with a port free now: the bot's public URL is made of
/// it before the side-car listens.
fn with_free_port(addr: SocketAddr) -> std::io::Result<SocketAddr> {
    if addr.port() != 0 {
        return Ok(addr);
    }
    let port = TcpListener::bind(addr)?.local_addr()?.port();
    Ok(SocketAddr::new(addr.ip(), port))
}

/// The side-car's own address as the bot's `PUBLIC_URL` (a loopback address when it listens on
/// every interface).
fn public_url(http_addr: SocketAddr) -> anyhow::Result<PublicUrl> {
    let ip = match http_addr.ip() {
        ip if !ip.is_unspecified() => ip,
        ip if ip.is_ipv4() => Ipv4Addr::LOCALHOST.into(),
        _ => Ipv6Addr::LOCALHOST.into(),
    };
    Ok(format!("http://{}", SocketAddr::new(ip, http_addr.port())).parse()?)
}

/// `remindbot run`'s settings against the simulator.
fn run_config(
    args: &SandboxArgs,
    sim: &SimHandle,
    database_url: String,
    admin_token: &str,
) -> RunConfig {
    RunConfig {
        db: DatabaseArgs {
            database_url: Some(database_url),
        },
        telegram: TelegramArgs {
            token: remindbot::config::BotToken::from(SecretString::from(sim.token().to_owned())),
            api_url: Some(sim.url()),
            http_timeout_secs: HTTP_TIMEOUT_SECS,
        },
        delivery: args.delivery.clone(),
        bot: BotSettings {
            admin_ids: if args.admin {
                vec![session::user_id(1)]
            } else {
                Vec::new()
            },
            ..BotSettings::default()
        },
        admin: remindbot::config::AdminArgs::resolve(Some(admin_token.into()), None, false)
            .expect("32 random hex digits are a strong admin token"),
        http_addr: args.http_addr,
        calendar_feed_rate_per_min: std::num::NonZeroU32::new(6).expect("not zero"),
        listeners: remindbot::http::ListenerLimits::default(),
        miniapp: remindbot::miniapp::MiniAppSettings::default(),
        db_max_connections: 10,
        retention_days: 90,
        intake: remindbot::config::IntakeArgs::default(),
        paid_broadcast: remindbot::config::PaidBroadcastArgs::default(),
    }
}

/// The users, the banner, then the loop: input to the bot, the chats to the terminal.
async fn chat(
    args: &SandboxArgs,
    sim: &SimHandle,
    running: &Running,
    where_: &Where<'_>,
) -> anyhow::Result<()> {
    let mut session = Session::create(sim, usize::from(args.users), &args.lang)?;
    sim.wait_for_polls_started(1, STARTUP_WAIT)
        .await
        .context("the bot did not start polling the simulator")?;
    say(&banner(args, sim, running.http_addr, where_))?;
    say(&prefixed(session.describe_users()))?;
    say(&session.start_all(args.tz.as_deref())?)?;
    let echo = !std::io::stdin().is_terminal();
    let mut input = terminal::spawn_reader();
    let mut tick = tokio::time::interval(POLL_EVERY);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let shutdown = running.context.shutdown.clone();
    let mut paused_until = Instant::now();
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(paused_until), if paused_until > Instant::now() => {}
            line = input.recv(), if paused_until <= Instant::now() => {
                let Some(line) = line else {
                    say(&["sandbox> end of input".to_owned()])?;
                    break;
                };
                match terminal::parse(&line) {
                    Ok(Input::Quit) => break,
                    Ok(Input::Wait(pause)) => paused_until = Instant::now() + pause,
                    Ok(command) => say(&act(&mut session, command, &line, echo, where_))?,
                    Err(error) => say(&[format!("sandbox> {error}")])?,
                }
            }
            _ = tick.tick() => say(&session.poll()?)?,
            _ = &mut ctrl_c => {
                say(&["sandbox> Ctrl-C".to_owned()])?;
                break;
            }
            () = shutdown.cancelled() => anyhow::bail!("the bot stopped early; see the log"),
        }
    }
    settle(&mut session, sim, running).await
}

/// Does what one line asks; returns what to print.
fn act(
    session: &mut Session<'_>,
    input: Input,
    line: &str,
    echo: bool,
    where_: &Where<'_>,
) -> Vec<String> {
    let mut lines = Vec::new();
    let result = match input {
        Input::Say(text) => {
            if echo {
                lines.push(format!("{}{text}", session.you(session.active())));
            }
            session.say(&text).map(|()| Vec::new())
        }
        Input::Press { button, message } => {
            if echo {
                lines.push(format!("{}{}", session.you(session.active()), line.trim()));
            }
            session.press(button, message).map(|()| Vec::new())
        }
        Input::Location {
            latitude,
            longitude,
        } => {
            if echo {
                lines.push(format!("{}{}", session.you(session.active()), line.trim()));
            }
            session
                .share_location(latitude, longitude)
                .map(|()| Vec::new())
        }
        Input::Forward(text) => {
            if echo {
                lines.push(format!("{}{}", session.you(session.active()), line.trim()));
            }
            session.forward(&text).map(|()| Vec::new())
        }
        Input::As(n) => session.switch(n).map(|s| vec![format!("sandbox> {s}")]),
        Input::App => session.app_link(&where_.app_url).map(|link| {
            vec![format!(
                "sandbox> the Mini App as user {} ({}), for an hour: {link}",
                session.active() + 1,
                session.active_name()
            )]
        }),
        Input::Users => Ok(prefixed(session.describe_users())),
        Input::Help => Ok(prefixed(terminal::HELP.iter().map(|l| (*l).to_owned()))),
        Input::Nothing | Input::Quit | Input::Wait(_) => Ok(Vec::new()),
    };
    match result {
        Ok(more) => lines.extend(more),
        Err(error) => lines.push(format!("sandbox> {error}")),
    }
    lines
}

/// Shows what is still arriving until the bot has answered everything and the chats have been
/// quiet for a moment, so that a piped script sees the answers to its last lines.
async fn settle(
    session: &mut Session<'_>,
    sim: &SimHandle,
    running: &Running,
) -> anyhow::Result<()> {
    let deadline = Instant::now() + SETTLE_MAX;
    let mut quiet_since = Instant::now();
    while Instant::now() < deadline && quiet_since.elapsed() < SETTLE_QUIET {
        tokio::time::sleep(POLL_EVERY).await;
        let lines = session.poll()?;
        if !lines.is_empty() || bot_is_busy(sim, running).await? {
            quiet_since = Instant::now();
        }
        say(&lines)?;
    }
    say(&["sandbox> stopping…".to_owned()])?;
    Ok(())
}

/// Whether the bot still has work that ends in something a user sees: updates the simulator
/// holds that the bot has not fetched, or updates and messages its queues hold that are due now
/// or being handled. Reminders due later do not count (`/wait` waits for those).
async fn bot_is_busy(sim: &SimHandle, running: &Running) -> anyhow::Result<bool> {
    if !sim.pending_updates().is_empty() {
        return Ok(true);
    }
    let context = &running.context;
    for queue in [context.updates.name(), context.outbox.name()] {
        let due = pgqueue::maintenance::depth(&context.pool, queue)
            .await?
            .due_now;
        let running = pgqueue::count(&context.pool, queue, pgqueue::JobState::Running).await?;
        if due + running > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// What the banner names that the sandbox made at start: the database it connected to, the admin
/// page's token and the Mini App's URL.
struct Where<'a> {
    /// The URL of the sandbox's database (on the private cluster, the port it really listens on,
    /// which is the next free one when `--pg-port` was taken).
    database_url: &'a str,
    /// The admin page's sign-in token.
    admin_token: &'a str,
    /// The Mini App's URL (`http://127.0.0.1:…/app/`).
    app_url: String,
}

/// Where everything is.
fn banner(
    args: &SandboxArgs,
    sim: &SimHandle,
    http_addr: SocketAddr,
    where_: &Where<'_>,
) -> Vec<String> {
    let admin_token = where_.admin_token;
    let database = match args.db.explicit_url() {
        Some(_) => "DATABASE_URL".to_owned(),
        None => format!(
            "{} (the private cluster in {})",
            where_.database_url,
            args.db.pgdata.display(),
        ),
    };
    let lines = [
        "remindbot sandbox is ready".to_owned(),
        format!("database: {database}"),
        format!("Bot API simulator: {}", sim.url()),
        format!("admin page: http://{http_addr}/admin (sign in with token {admin_token})"),
        format!("metrics: http://{http_addr}/metrics  health: http://{http_addr}/healthz"),
        format!(
            "Mini App: {} (/app prints a link that opens it as the active user)",
            where_.app_url
        ),
        "type to chat as the user; a number presses that button of the latest message; \
         /sandbox for help; /quit to leave"
            .to_owned(),
    ];
    prefixed(lines)
}

/// The lines with `sandbox> ` in front.
fn prefixed(lines: impl IntoIterator<Item = String>) -> Vec<String> {
    lines.into_iter().map(|l| format!("sandbox> {l}")).collect()
}

/// A fresh admin token for this run (hex, 128 bits).
fn random_token() -> String {
    rand::random::<[u8; 16]>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Prints `lines` to standard output and flushes (the output may be a pipe).
fn say(lines: &[String]) -> std::io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}
