//! The command line of `remindbot-dev`: one subcommand per tool.

use clap::{Parser, Subcommand};
use remindbot::cli::GlobalArgs;

use crate::bench::BenchCommand;
use crate::database::DevDatabaseArgs;

/// remindbot-dev: remindbot's sandbox, benchmarks, Bot API simulator and private PostgreSQL
/// cluster.
#[derive(Debug, Parser)]
#[command(name = "remindbot-dev", version, about)]
pub struct Cli {
    /// Where the settings come from and how logs look (as for `remindbot`).
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The whole bot offline: PostgreSQL, the simulator, the bot and the workers, with a chat in
    /// the terminal (or driven through standard input).
    Sandbox(Box<crate::sandbox::SandboxArgs>),
    /// The app's benchmarks; each prints one parseable line per run. (The queue's own are
    /// `cargo bench -p pgqueue --bench queue`.)
    Bench {
        /// Where the database server is (each run creates a fresh database on it).
        #[command(flatten)]
        db: DevDatabaseArgs,
        /// Which benchmark.
        #[command(subcommand)]
        bench: BenchCommand,
    },
    /// How often the bot reads a message as a person expects: reads the corpus of realistic
    /// messages with their expected readings (tests/fixtures/readings) and prints the tallies.
    Readings(crate::readings::ReadingsArgs),
    /// Run the Telegram Bot API simulator (for other programs to test against).
    Sim(tgsim::cli::SimArgs),
    /// Manage the private PostgreSQL cluster (used when DATABASE_URL is unset).
    Db {
        /// Where the cluster lives.
        #[command(flatten)]
        db: DevDatabaseArgs,
        /// What to do with it.
        #[command(subcommand)]
        action: DbAction,
    },
}

impl Command {
    /// The log filter when `RUST_LOG` is unset: `warn` for the sandbox, whose terminal is a chat,
    /// `info` for the rest.
    pub fn default_log_filter(&self) -> &'static str {
        match self {
            Self::Sandbox(_) => "warn",
            Self::Bench { .. } | Self::Readings(_) | Self::Sim(_) | Self::Db { .. } => "info",
        }
    }
}

/// What `remindbot-dev db` does.
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
        Command::Sandbox(args) => crate::sandbox::run(*args).await,
        Command::Bench { db, bench } => crate::bench::run(bench, &db).await,
        Command::Readings(args) => crate::readings::run(args),
        Command::Sim(args) => tgsim::cli::run(args).await,
        Command::Db { db, action } => match action {
            DbAction::Start | DbAction::Url => {
                println!("{}", db.resolve_url().await?);
                Ok(())
            }
            DbAction::Stop => Ok(db.cluster().stop()?),
        },
    }
}
