//! Zones as people read them: an offset is "UTC+5" (never the POSIX `Etc/GMT-5`, whose sign is
//! inverted), a named zone is its IANA name with its offset at the moment shown.

use chrono::{DateTime, Offset, Utc};
use chrono_tz::Tz;

/// The zone's offset from UTC at `at`: `UTC+5`, `UTC-3`, `UTC+5:30`, `UTC+0`.
pub fn utc_offset(tz: Tz, at: DateTime<Utc>) -> String {
    let seconds = at.with_timezone(&tz).offset().fix().local_minus_utc();
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = seconds.abs() / 60;
    match minutes % 60 {
        0 => format!("UTC{sign}{}", minutes / 60),
        part => format!("UTC{sign}{}:{part:02}", minutes / 60),
    }
}

/// Whether the zone is a bare offset (`Etc/GMT-5`, `Etc/UTC`, `UTC`, `GMT`) rather than a place.
pub fn is_fixed_offset(tz: Tz) -> bool {
    let name = tz.name();
    name.starts_with("Etc/") || matches!(name, "UTC" | "GMT" | "UCT" | "Universal" | "Zulu")
}

/// The zone as shown to users at `at`: a bare offset as `UTC+5` (`UTC` for UTC itself), a place
/// as `Asia/Tashkent (UTC+5)`.
pub fn zone_label(tz: Tz, at: DateTime<Utc>) -> String {
    let offset = utc_offset(tz, at);
    if !is_fixed_offset(tz) {
        return format!("{} ({offset})", tz.name());
    }
    if offset == "UTC+0" {
        "UTC".to_owned()
    } else {
        offset
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(month: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, month, 15, 12, 0, 0).unwrap()
    }

    #[test]
    fn offsets_read_as_utc_plus_or_minus() {
        assert_eq!(utc_offset(Tz::Etc__GMTMinus5, at(1)), "UTC+5");
        assert_eq!(utc_offset(Tz::Etc__GMTPlus3, at(1)), "UTC-3");
        assert_eq!(utc_offset(Tz::Asia__Kolkata, at(1)), "UTC+5:30");
        assert_eq!(utc_offset(Tz::America__St_Johns, at(1)), "UTC-3:30");
        assert_eq!(utc_offset(Tz::Europe__Berlin, at(1)), "UTC+1");
        assert_eq!(utc_offset(Tz::Europe__Berlin, at(7)), "UTC+2");
    }

    #[test]
    fn fixed_zones_show_their_offset_and_places_their_name() {
        assert_eq!(zone_label(Tz::Etc__GMTMinus5, at(1)), "UTC+5");
        assert_eq!(zone_label(Tz::Etc__GMTPlus4, at(1)), "UTC-4");
        assert_eq!(zone_label(Tz::Etc__UTC, at(1)), "UTC");
        assert_eq!(zone_label(Tz::UTC, at(1)), "UTC");
        assert_eq!(
            zone_label(Tz::Asia__Tashkent, at(1)),
            "Asia/Tashkent (UTC+5)"
        );
        assert_eq!(
            zone_label(Tz::America__New_York, at(7)),
            "America/New_York (UTC-4)"
        );
    }
}
