//! `tgsim` (and `remindbot-dev sim`): the simulator as a standalone server for other programs to
//! test against.

use std::net::SocketAddr;

use anyhow::Context;

use super::{BotProfile, DEFAULT_TOKEN, LimitsConfig, SimConfig, Simulator};

/// Options of `tgsim` and `remindbot-dev sim`. `Debug` hides the token.
#[derive(Clone, clap::Args)]
pub struct SimArgs {
    /// Address to listen on.
    #[arg(long, env = "SIM_ADDR", default_value = "127.0.0.1:8081")]
    pub addr: SocketAddr,
    /// The bot token to accept (`<bot id>:<secret>`); point the bot at the simulator with the same
    /// token in TELOXIDE_TOKEN.
    #[arg(long, env = "SIM_TOKEN", default_value = DEFAULT_TOKEN, hide_default_value = true)]
    pub token: String,
    /// The bot's username, as getMe reports it.
    #[arg(long, env = "SIM_BOT_USERNAME", default_value = "remindbot_sim_bot")]
    pub bot_username: String,
    /// Switch flood control off (429s only when injected as faults).
    #[arg(long, env = "SIM_NO_LIMITS")]
    pub no_limits: bool,
    /// Seed for random fault choices and latencies.
    #[arg(long, env = "SIM_SEED", default_value_t = 0x5EED)]
    pub seed: u64,
    /// The bot's Stars balance at start, in tenths of a Star: paid broadcasts
    /// (`allow_paid_broadcast`) above the free rate cost one tenth each.
    #[arg(long, env = "SIM_STARS_BALANCE_TENTHS", default_value_t = 0)]
    pub stars_balance_tenths: i64,
}

impl std::fmt::Debug for SimArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimArgs")
            .field("addr", &self.addr)
            .field("token", &"[redacted]")
            .field("bot_username", &self.bot_username)
            .field("no_limits", &self.no_limits)
            .field("seed", &self.seed)
            .field("stars_balance_tenths", &self.stars_balance_tenths)
            .finish()
    }
}

/// Runs the simulator until Ctrl-C or SIGTERM.
pub async fn run(args: SimArgs) -> anyhow::Result<()> {
    let config = SimConfig {
        addr: args.addr,
        token: args.token,
        bot: BotProfile {
            username: args.bot_username,
            ..BotProfile::default()
        },
        limits: if args.no_limits {
            LimitsConfig::off()
        } else {
            LimitsConfig::default()
        },
        seed: args.seed,
        stars_balance_tenths: args.stars_balance_tenths,
        ..SimConfig::default()
    };
    let sim = Simulator::start(config)
        .await
        .context("starting the Bot API simulator")?;
    println!("sim url={} control={}", sim.url(), sim.control_url());
    shutdown_signal().await?;
    sim.shutdown().await;
    Ok(())
}

async fn shutdown_signal() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .context("installing the SIGTERM handler")?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result.context("waiting for Ctrl-C")?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c()
        .await
        .context("waiting for Ctrl-C")?;
    Ok(())
}
