//! The evening that the event a task names puts an hour in: an office party at 7 is at 19:00, a
//! night shift at 11 at 23:00, bedtime pills at 10 at 22:00. Only when the task is the event
//! itself, in a few words ("office christmas party", "ночная смена", "таблетки перед сном"),
//! not when it is about one ("party planning meeting", "обсудить ночную смену", "buy a
//! bedtime story book").

use crate::domain::fold::folded_words;

use super::keys::Period;

/// The most words a task may have and still be the event itself.
const MOST_WORDS: usize = 3;

/// Nouns of a party, which is in the evening from 5 to 8.
const PARTIES: &[&str] = &[
    "party",
    "вечеринка",
    "вечеринку",
    "корпоратив",
    "ziyofat",
    "ziyofatga",
    "зиёфат",
    "зиёфатга",
];

/// A shift's noun, which a word of the night before it makes a night shift ("night shift",
/// "ночная смена", "tungi smena").
const SHIFTS: &[&str] = &["shift", "смена", "смену", "smena", "smenaga", "сменага"];

/// Words of the night before a shift.
const NIGHTS: &[&str] = &["night", "ночная", "ночную", "tungi", "тунги"];

/// Words that say the time before going to sleep, one word or two (a task of them and at most
/// [`MOST_WORDS`] others' worth is at that time: "таблетки перед сном", "uxlashdan oldin dori
/// ichish"; "спать хочется, позвонить" is not).
const BEDTIMES: &[&[&str]] = &[
    &["bedtime"],
    &["before", "bed"],
    &["to", "bed"],
    &["перед", "сном"],
    &["лечь", "спать"],
    &["ложиться", "спать"],
    &["пора", "спать"],
    &["uxlashdan", "oldin"],
    &["ухлашдан", "олдин"],
];

/// The evening, for an hour said without am/pm (`hour`, 1–12) that the event the task `text`
/// is happens at: 5 to 8 for a party ("office christmas party friday at 7"), 8 to 11 for a
/// night shift or bedtime ("night shift tmrw at 11", "bedtime pills at 10").
pub(super) fn event_cue(text: &str, hour: u32) -> Option<Period> {
    let words: Vec<String> = folded_words(text).into_iter().map(|w| w.folded).collect();
    if words.is_empty() || words.len() > MOST_WORDS + 1 {
        return None;
    }
    let is = |i: usize, list: &[&str]| words.get(i).is_some_and(|w| list.contains(&w.as_str()));
    let last = words.len() - 1;
    let party = words.len() <= MOST_WORDS && is(last, PARTIES);
    let night_shift =
        words.len() <= MOST_WORDS && is(last, SHIFTS) && last > 0 && is(last - 1, NIGHTS);
    let bedtime = BEDTIMES.iter().any(|said| {
        let said_in = words
            .windows(said.len())
            .any(|run| run.iter().zip(said.iter()).all(|(w, s)| w == s));
        said_in && words.len() + 1 - said.len() <= MOST_WORDS
    });
    let evening = (party && (5..=8).contains(&hour))
        || ((night_shift || bedtime) && (8..=11).contains(&hour));
    evening.then_some(Period::Evening)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_itself_cues_the_evening() {
        for (text, hour) in [
            ("office christmas party", 7),
            ("корпоратив", 7),
            ("ziyofat", 6),
            ("night shift", 11),
            ("ночная смена", 11),
            ("tungi smena", 11),
            ("bedtime pills", 10),
            ("таблетки перед сном", 10),
            ("uxlashdan oldin dori ichish", 10),
            ("go to bed", 11),
        ] {
            assert_eq!(
                event_cue(text, hour),
                Some(Period::Evening),
                "{text} at {hour}"
            );
        }
    }

    #[test]
    fn a_task_about_an_event_or_another_hour_is_no_cue() {
        for (text, hour) in [
            ("party planning meeting", 8),
            ("third party audit call", 8),
            ("send the party invitations", 8),
            ("забронировать ресторан на корпоратив", 8),
            ("обсудить ночную смену с начальником", 9),
            ("ask boss to swap my night shift", 9),
            ("buy a bedtime story book", 10),
            ("uxlash xonasini tozalash", 10),
            ("спать хочется, позвонить", 10),
            ("night shift ends", 7),
            ("office party", 10),
            ("bedtime pills", 7),
        ] {
            assert_eq!(event_cue(text, hour), None, "{text} at {hour}");
        }
    }
}
