//! The command line: one binary, one subcommand per job.

pub mod admin;

use anyhow::Context as _;
use clap::Parser;

use crate::db::{self, DatabaseArgs};
use crate::telemetry::LogFormat;

/// remindbot: a Telegram reminder bot with its own job queue in PostgreSQL.
#[derive(Debug, Parser)]
#[command(name = "remindbot", version, about)]
pub struct Cli {
    /// Where the settings come from and how logs look.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Subcommand,
}

/// The options of every subcommand (of `remindbot` and of the dev tools' `remindbot-dev`).
#[derive(Debug, clap::Args)]
pub struct GlobalArgs {
    /// Read settings from this file (KEY=value lines, as systemd's EnvironmentFile) before the
    /// environment and `.env`; the installed package's is /etc/remindbot/remindbot.env.
    #[arg(long, value_name = "PATH", global = true)]
    pub env_file: Option<std::path::PathBuf>,
    /// How log lines are written.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty, global = true)]
    pub log_format: LogFormat,
}

impl GlobalArgs {
    /// Reads the settings of `--env-file` in the raw command line `args`, then `.env`, into the
    /// environment, before parsing: the settings are defaults of the flags that parsing fills in.
    /// The variables already set win over the files', as with `.env`.
    pub fn load_settings(args: &[std::ffi::OsString]) -> anyhow::Result<()> {
        if let Some(path) = env_file_arg(args) {
            dotenvy::from_path(&path)
                .with_context(|| format!("reading the settings in {}", path.display()))?;
        }
        dotenvy::dotenv().ok();
        Ok(())
    }
}

/// The `--env-file` of the raw command line.
fn env_file_arg(args: &[std::ffi::OsString]) -> Option<std::path::PathBuf> {
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

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
    /// Apply the database migrations and exit.
    Migrate {
        /// Where the database is.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Failed reminders, retry, cancel and queue stats (`--json` for scripts).
    Admin {
        /// Where the database is.
        #[command(flatten)]
        db: DatabaseArgs,
        /// What to do.
        #[command(subcommand)]
        command: admin::AdminSubcommand,
    },
    /// Run the bot: delivery workers, reaper, retention and the HTTP side-car, until SIGTERM or
    /// Ctrl-C.
    Run(Box<crate::config::RunConfig>),
    /// Check, with the settings `run` would use, what would stop the bot or deserves a look: the
    /// token, the webhook, the database (migrations, clock), the admin page, the limits. Changes
    /// nothing; exits 1 when something failed.
    Check(Box<crate::config::RunConfig>),
}

/// Runs the chosen subcommand to completion.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Subcommand::Migrate { db } => {
            let pool = db::connect(db.url()?, 2).await?;
            db::migrate(&pool).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        Subcommand::Admin { db, command } => {
            let pool = db::connect(db.url()?, 2).await?;
            db::migrate(&pool).await?;
            admin::run(command, &pool).await
        }
        Subcommand::Run(config) => crate::app::run(*config).await,
        Subcommand::Check(config) => {
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
    }
}
