//! Time zones: resolving what a user types (an IANA name, a city, an offset)
//! to a [`Tz`], and converting local wall-clock times to instants under the
//! bot's DST policy.
//!
//! DST policy (see the project's rust-stack reference, §3.6):
//! - a wall time inside a spring-forward gap does not exist; it becomes the
//!   first valid instant after the gap (02:30 on a 02:00→03:00 day is 03:00);
//! - a wall time inside a fall-back overlap happens twice; the earlier wins.

mod cities;
mod label;
mod locate;
mod offset;

pub use label::{is_fixed_offset, utc_offset, zone_label};
pub use locate::{NoSuchPlace, zone_at};

use chrono::{DateTime, LocalResult, NaiveDateTime, TimeZone, Utc};
use chrono_tz::{TZ_VARIANTS, Tz};

use crate::domain::fold::{fold, is_space};

/// Why a typed time zone could not be resolved; each variant maps to one
/// message the bot can show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    /// Nothing but spaces was typed.
    #[error("no time zone given")]
    Empty,
    /// Not an IANA name, a known city or an offset.
    #[error("unknown time zone")]
    Unknown,
    /// An offset outside UTC−12:00…UTC+14:00, which no place on Earth uses.
    #[error("UTC offset of {minutes} minutes is out of range")]
    OffsetOutOfRange {
        /// The offset east of UTC, in minutes.
        minutes: i32,
    },
    /// An offset with minutes (like +02:15) that no supported zone uses.
    #[error("UTC offset of {minutes} minutes is not supported")]
    UnsupportedOffset {
        /// The offset east of UTC, in minutes.
        minutes: i32,
    },
}

/// Resolves what a user typed to an IANA zone.
///
/// Accepted, in this order: an IANA name in any letter case (`europe/berlin`),
/// a UTC offset (`+5`, `UTC+3`, `GMT-4`, `-04:00`, `+0530`), a common city in
/// English, Russian or Uzbek (`Tashkent`, `Ташкент`, `Toshkent`), or the last
/// part of any IANA name (`Kolkata`). Whole-hour offsets become the fixed
/// `Etc/GMT∓N` zones (whose sign is inverted by POSIX convention); offsets
/// with minutes map to a representative zone without DST (`+5:30` →
/// `Asia/Kolkata`) or are rejected.
pub fn parse_zone(input: &str) -> Result<Tz, ZoneError> {
    let trimmed = input.trim_matches(is_space);
    if trimmed.is_empty() {
        return Err(ZoneError::Empty);
    }
    let folded = fold(trimmed);
    if let Some(tz) = TZ_VARIANTS.iter().find(|tz| fold(tz.name()) == folded) {
        return Ok(*tz);
    }
    if let Some(result) = offset::parse(&folded) {
        return result;
    }
    let key = cities::normalize(&folded);
    cities::lookup(&key)
        .or_else(|| zone_by_last_segment(&key))
        .ok_or(ZoneError::Unknown)
}

/// The zone whose IANA name ends in `key` (`new york` → `America/New_York`).
fn zone_by_last_segment(key: &str) -> Option<Tz> {
    TZ_VARIANTS.iter().copied().find(|tz| {
        tz.name()
            .rsplit('/')
            .next()
            .is_some_and(|leaf| cities::normalize(&fold(leaf)) == key)
    })
}

/// Converts a local wall-clock time in `tz` to an instant, applying the DST
/// policy: a time in a gap becomes the first valid instant after the gap, an
/// ambiguous time takes the earlier of its two instants.
pub fn resolve_local(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    match tz.from_local_datetime(&local) {
        LocalResult::Single(t) => t.with_timezone(&Utc),
        LocalResult::Ambiguous(a, b) => a.min(b).with_timezone(&Utc),
        LocalResult::None => first_instant_after_gap(tz, local),
    }
}

/// The wall-clock time in `tz` at instant `t`.
pub fn to_local(tz: Tz, t: DateTime<Utc>) -> NaiveDateTime {
    t.with_timezone(&tz).naive_local()
}

/// Offsets on Earth stay within ±16 h (historical LMT included), so within
/// this many seconds of `local` read as UTC the wall clock is surely before,
/// respectively after, `local`.
const GAP_SEARCH_WINDOW_SECS: i64 = 2 * 24 * 3600;

/// The first instant whose wall-clock time in `tz` is later than `local`,
/// which lies in a gap: that is the transition instant ending the gap.
/// Found by bisection on whole seconds, since chrono-tz does not expose
/// transitions; all tzdb transitions fall on whole seconds.
fn first_instant_after_gap(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    let is_after =
        |secs: i64| DateTime::from_timestamp(secs, 0).is_none_or(|t| to_local(tz, t) > local);
    let centre = local.and_utc().timestamp();
    let (mut before, mut after) = (
        centre.saturating_sub(GAP_SEARCH_WINDOW_SECS),
        centre.saturating_add(GAP_SEARCH_WINDOW_SECS),
    );
    while after - before > 1 {
        let mid = before + (after - before) / 2;
        if is_after(mid) {
            after = mid;
        } else {
            before = mid;
        }
    }
    DateTime::from_timestamp(after, 0).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn local(y: i32, m: u32, d: u32, h: u32, min: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d)
            .and_then(|date| date.and_hms_opt(h, min, 0))
            .expect("valid test date")
    }

    fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        local(y, m, d, h, min).and_utc()
    }

    #[test]
    fn gap_moves_to_first_instant_after_it() {
        let berlin = chrono_tz::Europe::Berlin;
        assert_eq!(
            resolve_local(berlin, local(2026, 3, 29, 2, 30)),
            utc(2026, 3, 29, 1, 0)
        );
        let new_york = chrono_tz::America::New_York;
        assert_eq!(
            resolve_local(new_york, local(2026, 3, 8, 2, 59)),
            utc(2026, 3, 8, 7, 0)
        );
    }

    #[test]
    fn overlap_takes_the_earlier_instant() {
        let berlin = chrono_tz::Europe::Berlin;
        assert_eq!(
            resolve_local(berlin, local(2026, 10, 25, 2, 30)),
            utc(2026, 10, 25, 0, 30)
        );
        let new_york = chrono_tz::America::New_York;
        assert_eq!(
            resolve_local(new_york, local(2026, 11, 1, 1, 30)),
            utc(2026, 11, 1, 5, 30)
        );
    }

    #[test]
    fn zones_without_dst_are_plain() {
        assert_eq!(
            resolve_local(chrono_tz::Asia::Tashkent, local(2026, 3, 29, 2, 30)),
            utc(2026, 3, 28, 21, 30)
        );
    }

    #[test]
    fn parses_iana_names_cities_and_offsets() {
        use chrono_tz::{America, Asia, Etc, Europe};
        let cases = [
            ("europe/berlin", Europe::Berlin),
            ("Asia/Tashkent", Asia::Tashkent),
            ("Ташкент", Asia::Tashkent),
            ("Toshkent", Asia::Tashkent),
            ("moskva", Europe::Moscow),
            ("МОСКВА", Europe::Moscow),
            ("New York", America::New_York),
            ("нью-йорк", America::New_York),
            ("Samarqand", Asia::Samarkand),
            ("Farg‘ona", Asia::Tashkent),
            ("Kolkata", Asia::Kolkata),
            ("+5", Etc::GMTMinus5),
            ("UTC+3", Etc::GMTMinus3),
            ("-04:00", Etc::GMTPlus4),
            ("gmt", chrono_tz::GMT),
            ("UTC+0", Etc::UTC),
            ("+05:30", Asia::Kolkata),
            ("+0545", Asia::Kathmandu),
        ];
        for (input, want) in cases {
            assert_eq!(parse_zone(input), Ok(want), "{input}");
        }
    }

    #[test]
    fn rejects_bad_zones() {
        assert_eq!(parse_zone("  "), Err(ZoneError::Empty));
        assert_eq!(parse_zone("Atlantis"), Err(ZoneError::Unknown));
        assert_eq!(
            parse_zone("+15"),
            Err(ZoneError::OffsetOutOfRange { minutes: 900 })
        );
        assert_eq!(
            parse_zone("+02:15"),
            Err(ZoneError::UnsupportedOffset { minutes: 135 })
        );
        assert_eq!(parse_zone("+5:99"), Err(ZoneError::Unknown));
    }
}
