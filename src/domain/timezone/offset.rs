//! UTC offsets typed as a time zone: `+5`, `UTC+3`, `GMT -4`, `-04:00`, `+0530`.

use chrono_tz::Tz;

use super::ZoneError;

/// Westernmost and easternmost offsets in use, in minutes east of UTC.
const MIN_OFFSET_MINUTES: i32 = -12 * 60;
const MAX_OFFSET_MINUTES: i32 = 14 * 60;

/// Zones without DST standing in for offsets that are not whole hours.
const PART_HOUR_ZONES: &[(i32, Tz)] = &[
    (-9 * 60 - 30, Tz::Pacific__Marquesas),
    (3 * 60 + 30, Tz::Asia__Tehran),
    (4 * 60 + 30, Tz::Asia__Kabul),
    (5 * 60 + 30, Tz::Asia__Kolkata),
    (5 * 60 + 45, Tz::Asia__Kathmandu),
    (6 * 60 + 30, Tz::Asia__Yangon),
    (8 * 60 + 45, Tz::Australia__Eucla),
    (9 * 60 + 30, Tz::Australia__Darwin),
];

/// Parses an already folded (lowercased) offset. `None` means the input is
/// not shaped like an offset at all, so other readings should be tried.
pub(super) fn parse(folded: &str) -> Option<Result<Tz, ZoneError>> {
    let rest = ["utc", "gmt"]
        .iter()
        .find_map(|prefix| folded.strip_prefix(prefix))
        .unwrap_or(folded)
        .trim_start();
    let mut chars = rest.chars();
    let sign = match chars.next()? {
        '+' => 1,
        '-' | '\u{2212}' | '\u{2013}' => -1,
        _ => return None,
    };
    let (hours, minutes) = split_hours_minutes(chars.as_str().trim_start())?;
    let total = sign * (hours * 60 + minutes);
    Some(zone_for_offset(total))
}

/// Splits `5`, `05`, `5:30`, `05.30` or `0530` into hours and minutes.
fn split_hours_minutes(s: &str) -> Option<(i32, i32)> {
    let (h, m) = match s.split_once([':', '.']) {
        Some((h, m)) => (h, m),
        None if s.len() > 2 => s.split_at_checked(s.len() - 2)?,
        None => (s, "00"),
    };
    let digits = |part: &str, max_len: usize| {
        (!part.is_empty() && part.len() <= max_len && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<i32>().ok())
            .flatten()
    };
    let hours = digits(h, 2)?;
    let minutes = digits(m, 2).filter(|min| m.len() == 2 && *min < 60)?;
    Some((hours, minutes))
}

/// The zone of a UTC offset in minutes: `Etc/GMT∓N` for whole hours, a representative zone for the
/// part-hour offsets in use.
pub(super) fn zone_for_offset(minutes: i32) -> Result<Tz, ZoneError> {
    if !(MIN_OFFSET_MINUTES..=MAX_OFFSET_MINUTES).contains(&minutes) {
        return Err(ZoneError::OffsetOutOfRange { minutes });
    }
    if minutes % 60 != 0 {
        return PART_HOUR_ZONES
            .iter()
            .find(|(m, _)| *m == minutes)
            .map(|(_, tz)| *tz)
            .ok_or(ZoneError::UnsupportedOffset { minutes });
    }
    let hours = minutes / 60;
    let name = if hours == 0 {
        "Etc/UTC".to_owned()
    } else {
        // POSIX-style names: Etc/GMT-5 is five hours *east* of UTC.
        format!("Etc/GMT{:+}", -hours)
    };
    name.parse::<Tz>()
        .map_err(|_| ZoneError::OffsetOutOfRange { minutes })
}
