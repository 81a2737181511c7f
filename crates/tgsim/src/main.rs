//! The `tgsim` binary: the Bot API simulator as a standalone server for other programs to test
//! against (the same as `remindbot-dev sim`).

use clap::Parser;

/// A Telegram Bot API simulator with a control API under `/__sim`.
#[derive(Debug, Parser)]
#[command(name = "tgsim", version, about)]
struct Cli {
    #[command(flatten)]
    args: tgsim::cli::SimArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    tgsim::cli::run(Cli::parse().args).await
}
