//! The `remindbot-dev` binary: reads `--env-file` and `.env`, parses the command line and hands
//! over to the library.

use clap::Parser;
use devtools::cli::Cli;
use remindbot::cli::GlobalArgs;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    GlobalArgs::load_settings(&args)?;
    let cli = Cli::parse_from(args);
    remindbot::telemetry::init_with_default(
        cli.global.log_format,
        cli.command.default_log_filter(),
    );
    devtools::cli::run(cli).await
}
