//! The zone of a place on the map, found offline (a shared location sets the chat's zone): the
//! time-zone boundaries embedded in the binary (tzf-rs's lite data, about 4 MB, queried in place),
//! and at sea, where no boundary applies, the nautical zone of the longitude.

use std::sync::OnceLock;

use chrono_tz::Tz;
use tzf_rs::EmbeddedFinder;

use super::offset::zone_for_offset;

/// Why a location names no place.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("not a place on Earth: latitude {latitude}, longitude {longitude}")]
pub struct NoSuchPlace {
    /// The latitude given.
    pub latitude: f64,
    /// The longitude given.
    pub longitude: f64,
}

/// The finder, opened on first use (a few milliseconds; it reads the embedded data in place).
fn finder() -> &'static EmbeddedFinder {
    static FINDER: OnceLock<EmbeddedFinder> = OnceLock::new();
    FINDER.get_or_init(EmbeddedFinder::new)
}

/// The IANA zone at `latitude`, `longitude` (degrees, as Telegram's `Location` gives them).
/// Where no zone's boundary covers the point (the open sea), the nautical zone of the longitude
/// (`Etc/GMT-5` east of 67.5°E…): an offset that matches the sun.
pub fn zone_at(latitude: f64, longitude: f64) -> Result<Tz, NoSuchPlace> {
    let on_earth = latitude.is_finite()
        && longitude.is_finite()
        && (-90.0..=90.0).contains(&latitude)
        && (-180.0..=180.0).contains(&longitude);
    if !on_earth {
        return Err(NoSuchPlace {
            latitude,
            longitude,
        });
    }
    let name = finder().get_tz_name(longitude, latitude);
    Ok(name
        .parse::<Tz>()
        .unwrap_or_else(|_| nautical_zone(longitude)))
}

/// The zone whose offset is the longitude's in whole hours (15° an hour), −12…+12.
fn nautical_zone(longitude: f64) -> Tz {
    // In −180…180 the rounded hours fit easily; the cast cannot truncate.
    let hours = (longitude / 15.0).round().clamp(-12.0, 12.0) as i32;
    zone_for_offset(hours * 60).unwrap_or(Tz::UTC)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cities_get_their_zones() {
        let cases = [
            (41.3111, 69.2797, Tz::Asia__Tashkent),
            (39.6542, 66.9597, Tz::Asia__Samarkand),
            (55.7558, 37.6173, Tz::Europe__Moscow),
            (52.52, 13.405, Tz::Europe__Berlin),
            (40.7128, -74.006, Tz::America__New_York),
            (-33.8688, 151.2093, Tz::Australia__Sydney),
        ];
        for (latitude, longitude, zone) in cases {
            assert_eq!(
                zone_at(latitude, longitude),
                Ok(zone),
                "{latitude},{longitude}"
            );
        }
    }

    #[test]
    fn the_open_sea_gets_its_nautical_zone() {
        // The middle of the Indian Ocean, 75°E: five hours east of UTC.
        assert_eq!(zone_at(-30.0, 75.0), Ok(Tz::Etc__GMTMinus5));
        // The middle of the Atlantic, 30°W.
        assert_eq!(zone_at(0.0, -30.0), Ok(Tz::Etc__GMTPlus2));
    }

    #[test]
    fn impossible_places_are_refused() {
        for (latitude, longitude) in [(91.0, 0.0), (0.0, 180.5), (f64::NAN, 0.0)] {
            assert!(
                zone_at(latitude, longitude).is_err(),
                "{latitude},{longitude}"
            );
        }
    }
}
