//! The `remindbot` binary: reads `.env`, parses the command line and hands over to the library.

use clap::Parser;
use remindbot::cli::Cli;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    dotenvy::dotenv().ok();
    let cli = Cli::parse();
    remindbot::telemetry::init_with_default(cli.log_format, cli.command.default_log_filter());
    remindbot::cli::run(cli).await
}
