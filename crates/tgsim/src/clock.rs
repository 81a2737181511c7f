//! The simulator's clock: message dates, rate-limit buckets, rate meters and callback-query expiry
//! all read it, so tests can freeze it and step it instead of waiting in real time.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// How the clock moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockMode {
    /// Follows real time (plus any offset added with `advance`).
    #[default]
    Real,
    /// Stands still; only `advance` moves it.
    Manual,
}

/// What the clock reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockReading {
    /// How the clock moves.
    pub mode: ClockMode,
    /// Simulated Unix time in milliseconds.
    pub unix_ms: i64,
}

/// The clock itself; owned by the simulator's state.
#[derive(Debug)]
pub(crate) struct Clock {
    mode: ClockMode,
    anchor_real: Instant,
    anchor_ms: i64,
}

impl Clock {
    /// A clock in `mode`, starting at the current Unix time.
    pub(crate) fn new(mode: ClockMode) -> Self {
        let unix_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Self {
            mode,
            anchor_real: Instant::now(),
            anchor_ms: unix_ms,
        }
    }

    /// Simulated Unix time in milliseconds.
    pub(crate) fn now_ms(&self) -> i64 {
        match self.mode {
            ClockMode::Manual => self.anchor_ms,
            ClockMode::Real => {
                let elapsed =
                    i64::try_from(self.anchor_real.elapsed().as_millis()).unwrap_or(i64::MAX);
                self.anchor_ms.saturating_add(elapsed)
            }
        }
    }

    /// Simulated Unix time in seconds, as message dates use it.
    pub(crate) fn unix(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Moves the clock forward.
    pub(crate) fn advance(&mut self, by: Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.anchor_ms = self.anchor_ms.saturating_add(by);
    }

    /// Sets the mode, keeping the current reading.
    pub(crate) fn set_mode(&mut self, mode: ClockMode) {
        self.anchor_ms = self.now_ms();
        self.anchor_real = Instant::now();
        self.mode = mode;
    }

    /// The current reading.
    pub(crate) fn reading(&self) -> ClockReading {
        ClockReading {
            mode: self.mode,
            unix_ms: self.now_ms(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_advanced() {
        let mut clock = Clock::new(ClockMode::Manual);
        let start = clock.now_ms();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(clock.now_ms(), start);
        clock.advance(Duration::from_millis(1500));
        assert_eq!(clock.now_ms(), start + 1500);
    }

    #[test]
    fn switching_mode_keeps_the_reading() {
        let mut clock = Clock::new(ClockMode::Manual);
        clock.advance(Duration::from_secs(3600));
        let before = clock.now_ms();
        clock.set_mode(ClockMode::Real);
        assert!(clock.now_ms() - before < 1000);
    }
}
