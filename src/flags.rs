//! The defaults of a group of command-line flags, read from their clap definitions: a default is
//! written once, in its `#[arg]`, and the `Default` of the settings it fills is derived from it.

/// `T` as clap fills it from an empty command line, the environment ignored (a variable set in
/// the caller's shell does not leak into a default).
pub fn defaults<T: clap::Args + clap::FromArgMatches>() -> T {
    let command = T::augment_args(clap::Command::new("remindbot")).mut_args(|arg| arg.env(None));
    let matches = command
        .try_get_matches_from(["remindbot"])
        .expect("every flag has a default or is optional");
    T::from_arg_matches(&matches).expect("the flags' defaults hold together")
}

#[cfg(test)]
mod tests {
    use crate::bot::BotSettings;
    use crate::bot::intake::IntakeMode;
    use crate::config::{DeliveryArgs, IntakeArgs, PaidBroadcastArgs};

    #[test]
    fn the_defaults_are_the_flags_defaults() {
        let intake = IntakeArgs::default();
        assert!(matches!(intake.mode, IntakeMode::Polling));
        assert_eq!(intake.update_workers, 16);
        assert_eq!(intake.update_batch, 16);
        assert_eq!(intake.webhook_max_body_bytes, 1 << 20);
        assert_eq!(intake.inbox_retention_days, 7);
        let bot = BotSettings::default();
        assert_eq!(bot.max_open_tasks, 200);
        assert_eq!(bot.user_updates_per_minute.get(), 30);
        assert!(bot.admin_ids.is_empty());
        let delivery = DeliveryArgs::default();
        assert_eq!(delivery.workers, 128);
        assert_eq!(delivery.rate_per_sec, 30);
        assert_eq!(delivery.lease_secs, None);
        assert_eq!(
            PaidBroadcastArgs::default().settings,
            None,
            "paid broadcast is off"
        );
    }
}
