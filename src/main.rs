//! The `remindbot` binary: reads `--env-file` and `.env`, parses the command line and hands over to the library.

use anyhow::Context;
use clap::Parser;
use remindbot::cli::Cli;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The variables already set win over the file's, as with `.env`.
    if let Some(path) = Cli::env_file_arg(&args) {
        dotenvy::from_path(&path)
            .with_context(|| format!("reading the settings in {}", path.display()))?;
    }
    dotenvy::dotenv().ok();
    let cli = Cli::parse_from(args);
    remindbot::telemetry::init(cli.log_format);
    remindbot::cli::run(cli).await
}
