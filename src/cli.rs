//! The command line: one binary, one subcommand per job.

use clap::{Parser, Subcommand};

#[cfg(feature = "dev")]
use crate::bench::BenchCommand;
use crate::db::{self, DatabaseArgs};
use crate::telemetry::LogFormat;

/// remindbot: a Telegram reminder bot with its own job queue in PostgreSQL.
#[derive(Debug, Parser)]
#[command(name = "remindbot", version, about)]
pub struct Cli {
    /// Read settings from this file (KEY=value lines, as systemd's EnvironmentFile) before the
    /// environment and `.env`; the installed package's is /etc/remindbot/remindbot.env.
    #[arg(long, value_name = "PATH", global = true)]
    pub env_file: Option<std::path::PathBuf>,
    /// How log lines are written.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty, global = true)]
    pub log_format: LogFormat,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The `--env-file` of the raw command line, read before parsing: the settings it holds are
    /// defaults of the flags that parsing fills in.
    pub fn env_file_arg(args: &[std::ffi::OsString]) -> Option<std::path::PathBuf> {
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let arg = arg.to_string_lossy();
            if arg == "--env-file" {
                return args.next().map(std::path::PathBuf::from);
            }
            if let Some(path) = arg.strip_prefix("--env-file=") {
                return Some(path.into());
            }
        }
        None
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply the database migrations and exit.
    Migrate {
        /// Where the database is.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Manage the private PostgreSQL cluster (used when DATABASE_URL is unset).
    #[cfg(feature = "dev")]
    Db {
        /// Where the cluster lives.
        #[command(flatten)]
        db: DatabaseArgs,
        /// What to do with it.
        #[command(subcommand)]
        action: DbAction,
    },
    /// Failed reminders, retry, cancel and queue stats (`--json` for scripts).
    Admin {
        /// Where the database is.
        #[command(flatten)]
        db: DatabaseArgs,
        /// What to do.
        #[command(subcommand)]
        command: crate::admin::cli::AdminCommand,
    },
    /// Run the bot: delivery workers, reaper, retention and the HTTP side-car, until SIGTERM or
    /// Ctrl-C.
    Run(Box<crate::config::RunConfig>),
    /// Check, with the settings `run` would use, what would stop the bot or deserves a look: the
    /// token, the webhook, the database (migrations, clock), the admin page, the limits. Changes
    /// nothing; exits 1 when something failed.
    Check(Box<crate::config::RunConfig>),
    /// Run the Telegram Bot API simulator (for tests, the sandbox and other programs).
    #[cfg(feature = "dev")]
    Sim(tgsim::cli::SimArgs),
    /// The whole bot offline: PostgreSQL, the simulator, the bot and the workers, with a chat in
    /// the terminal (or driven through standard input).
    #[cfg(feature = "dev")]
    Sandbox(Box<crate::sandbox::SandboxArgs>),
    /// Benchmarks; each prints one parseable line per run.
    #[cfg(feature = "dev")]
    Bench {
        /// Where the database server is (each run creates a fresh database on it).
        #[command(flatten)]
        db: DatabaseArgs,
        /// Which benchmark.
        #[command(subcommand)]
        bench: BenchCommand,
    },
}

impl Command {
    /// The log filter when `RUST_LOG` is unset: `warn` for the sandbox, whose terminal is a chat,
    /// `info` for the rest.
    pub fn default_log_filter(&self) -> &'static str {
        match self {
            #[cfg(feature = "dev")]
            Self::Sandbox(_) => "warn",
            _ => "info",
        }
    }
}

/// What `remindbot db` does.
#[cfg(feature = "dev")]
#[derive(Debug, Subcommand)]
pub enum DbAction {
    /// Start the private cluster (initialising it on first use) and print its URL.
    Start,
    /// Stop the private cluster.
    Stop,
    /// Print the URL the other commands would use.
    Url,
}

/// Runs the chosen subcommand to completion.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Migrate { db } => {
            let pool = db::connect(&db.resolve_url().await?, 2).await?;
            db::migrate(&pool).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        #[cfg(feature = "dev")]
        Command::Db { db, action } => match action {
            DbAction::Start | DbAction::Url => {
                println!("{}", db.resolve_url().await?);
                Ok(())
            }
            DbAction::Stop => Ok(devdb::LocalCluster::new(&db.pgdata, db.pg_port).stop()?),
        },
        Command::Admin { db, command } => {
            let pool = db::connect(&db.resolve_url().await?, 2).await?;
            db::migrate(&pool).await?;
            crate::admin::cli::run(command, &pool).await
        }
        Command::Run(config) => crate::app::run(*config).await,
        Command::Check(config) => {
            let report = crate::check::run(&config).await;
            for finding in &report.findings {
                println!("{finding}");
            }
            if report.passed() {
                Ok(())
            } else {
                std::process::exit(1)
            }
        }
        #[cfg(feature = "dev")]
        Command::Sim(args) => tgsim::cli::run(args).await,
        #[cfg(feature = "dev")]
        Command::Sandbox(args) => crate::sandbox::run(*args).await,
        #[cfg(feature = "dev")]
        Command::Bench { db, bench } => crate::bench::run(bench, &db).await,
    }
}
