//! The `remindbot` binary: reads `--env-file` and `.env`, parses the command line and hands over to
//! the library.

use clap::Parser;
use remindbot::cli::{Cli, GlobalArgs};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    GlobalArgs::load_settings(&args)?;
    let cli = Cli::parse_from(args);
    remindbot::telemetry::init(cli.global.log_format);
    remindbot::cli::run(cli).await
}
