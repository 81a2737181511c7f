//! The command line: one binary, one subcommand per job.

use clap::{Parser, Subcommand};

use crate::telemetry::LogFormat;

/// remindbot: a Telegram reminder bot with its own job queue in PostgreSQL.
#[derive(Debug, Parser)]
#[command(name = "remindbot", version, about)]
pub struct Cli {
    /// How log lines are written.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty, global = true)]
    pub log_format: LogFormat,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply the database migrations and exit.
    Migrate,
}

/// Runs the chosen subcommand to completion.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Migrate => anyhow::bail!("not implemented yet"),
    }
}
