//! Lead times: how long before a deadline its reminder fires. Bounded, so that every lead the bot
//! stores or computes with is one a person could mean and the database column holds.

use chrono::TimeDelta;

/// How long before a deadline its reminder fires: from zero to [`Lead::MAX`], in whole seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lead(u32);

/// Why a duration cannot be a lead time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LeadError {
    /// Negative: a reminder after its deadline is not a lead.
    #[error("a lead time cannot be negative")]
    Negative,
    /// Longer than [`Lead::MAX`].
    #[error("a lead time of more than {max_days} days")]
    TooLong {
        /// The limit, in days.
        max_days: u32,
    },
}

impl Lead {
    /// No lead: the reminder fires at the deadline.
    pub const ZERO: Lead = Lead(0);
    /// The longest lead: 30 days.
    pub const MAX: Lead = Lead(30 * 86_400);

    /// The lead of `duration`, truncated to whole seconds.
    pub fn new(duration: TimeDelta) -> Result<Self, LeadError> {
        Self::from_secs(duration.num_seconds())
    }

    /// The lead of `secs` seconds (as stored).
    pub fn from_secs(secs: i64) -> Result<Self, LeadError> {
        if secs < 0 {
            return Err(LeadError::Negative);
        }
        u32::try_from(secs)
            .ok()
            .filter(|secs| *secs <= Self::MAX.0)
            .map(Self)
            .ok_or(LeadError::TooLong {
                max_days: Self::MAX.0 / 86_400,
            })
    }

    /// Its length in seconds, as the database stores it (always fits an `integer`).
    pub fn secs(self) -> i32 {
        i32::try_from(self.0).unwrap_or(i32::MAX)
    }

    /// Its length.
    pub fn duration(self) -> TimeDelta {
        TimeDelta::seconds(i64::from(self.0))
    }

    /// Whether there is no lead.
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_are_bounded_on_both_sides() {
        assert_eq!(Lead::new(TimeDelta::minutes(30)).unwrap().secs(), 1800);
        assert_eq!(Lead::from_secs(0), Ok(Lead::ZERO));
        assert_eq!(Lead::from_secs(-1), Err(LeadError::Negative));
        assert_eq!(Lead::new(TimeDelta::days(30)), Ok(Lead::MAX));
        assert_eq!(
            Lead::new(TimeDelta::days(30) + TimeDelta::seconds(1)),
            Err(LeadError::TooLong { max_days: 30 })
        );
        assert_eq!(
            Lead::from_secs(i64::MAX),
            Err(LeadError::TooLong { max_days: 30 })
        );
        assert_eq!(Lead::MAX.duration(), TimeDelta::days(30));
    }
}
