//! Paid broadcast's settings (PAID_BROADCAST, off by default): reminders that would otherwise be
//! late go out with `allow_paid_broadcast` above Telegram's free 30/s, within a daily Stars budget
//! that must be given when it is on. See [`crate::egress::paid`].

use std::time::Duration;

use crate::egress::{PaidSettings, Stars};

/// Paid broadcast: off, or on with its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct PaidBroadcastArgs {
    /// `None` while PAID_BROADCAST is off.
    pub settings: Option<PaidSettings>,
}

impl Default for PaidBroadcastArgs {
    /// The flags' defaults: off.
    fn default() -> Self {
        crate::flags::defaults()
    }
}

#[derive(clap::Args)]
struct PaidBroadcastFlags {
    /// Send reminders that would otherwise be late with allow_paid_broadcast: above Telegram's
    /// free 30/s, up to 1000/s, for 0.1 Star a message from the bot's balance (needs
    /// PAID_BROADCAST_STARS_PER_DAY). Replies never pay.
    #[arg(long = "paid-broadcast", env = "PAID_BROADCAST")]
    paid_broadcast: bool,
    /// A reminder pays when it (or the reminders due with it) would leave later than this many
    /// seconds after its time at the free rate.
    #[arg(
        long = "paid-broadcast-after-secs",
        env = "PAID_BROADCAST_AFTER_SECS",
        default_value_t = 60
    )]
    after_secs: u64,
    /// The most Stars paid sends may take in a UTC day, all replicas together (more than 0;
    /// one decimal at most: 0.1 Star is one message).
    #[arg(
        long = "paid-broadcast-stars-per-day",
        env = "PAID_BROADCAST_STARS_PER_DAY",
        value_name = "STARS"
    )]
    stars_per_day: Option<Stars>,
}

/// Why paid broadcast's settings do not hold together.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PaidBroadcastError {
    /// On without a budget, or with a budget of nothing.
    #[error(
        "PAID_BROADCAST is on: set PAID_BROADCAST_STARS_PER_DAY to the most Stars it may spend in \
         a day (more than 0, e.g. 500)"
    )]
    NoBudget,
}

/// The settings of `enabled`, `after_secs` and `stars_per_day`.
pub fn resolve(
    enabled: bool,
    after_secs: u64,
    stars_per_day: Option<Stars>,
) -> Result<PaidBroadcastArgs, PaidBroadcastError> {
    if !enabled {
        return Ok(PaidBroadcastArgs { settings: None });
    }
    let per_day = stars_per_day
        .filter(|stars| stars.tenths > 0)
        .ok_or(PaidBroadcastError::NoBudget)?;
    Ok(PaidBroadcastArgs {
        settings: Some(PaidSettings {
            after: Duration::from_secs(after_secs),
            per_day,
        }),
    })
}

impl clap::FromArgMatches for PaidBroadcastArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let flags = <PaidBroadcastFlags as clap::FromArgMatches>::from_arg_matches(matches)?;
        resolve(flags.paid_broadcast, flags.after_secs, flags.stars_per_day).map_err(|error| {
            clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                error.to_string(),
            )
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for PaidBroadcastArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        <PaidBroadcastFlags as clap::Args>::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        <PaidBroadcastFlags as clap::Args>::augment_args_for_update(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_and_on_only_with_a_budget() {
        assert_eq!(PaidBroadcastArgs::default().settings, None);
        assert_eq!(
            resolve(true, 60, None).unwrap_err(),
            PaidBroadcastError::NoBudget
        );
        assert_eq!(
            resolve(true, 60, Some(Stars { tenths: 0 })).unwrap_err(),
            PaidBroadcastError::NoBudget
        );
        let on = resolve(true, 90, Some(Stars { tenths: 5 })).unwrap();
        assert_eq!(
            on.settings,
            Some(PaidSettings {
                after: Duration::from_secs(90),
                per_day: Stars { tenths: 5 },
            })
        );
        assert_eq!(resolve(false, 60, None).unwrap().settings, None);
    }
}
