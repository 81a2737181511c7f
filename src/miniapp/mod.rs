//! The Mini App's server side: who is asking (Telegram's signed launch data, [`init_data`]), the
//! page itself ([`page`]) and its settings ([`MiniAppSettings`]).

pub mod init_data;
pub mod page;

use std::time::Duration;

/// The Mini App's settings (MINIAPP_INIT_DATA_MAX_AGE_SECS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::Args)]
pub struct MiniAppSettings {
    /// Seconds after Telegram signed a Mini App's launch data (`auth_date`) that the app still
    /// accepts it; the user reopens the app after that.
    #[arg(long = "miniapp-init-data-max-age-secs", env = "MINIAPP_INIT_DATA_MAX_AGE_SECS",
          default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub init_data_max_age_secs: u64,
}

impl MiniAppSettings {
    /// How old launch data may be.
    pub fn init_data_max_age(&self) -> Duration {
        Duration::from_secs(self.init_data_max_age_secs)
    }
}

impl Default for MiniAppSettings {
    /// Launch data accepted for an hour.
    fn default() -> Self {
        Self {
            init_data_max_age_secs: 3600,
        }
    }
}
