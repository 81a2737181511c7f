//! "Until done" in a task phrase: `call mom tomorrow 9:00 every 10 min until done`, `каждые 10
//! минут пока не сделаю`, `bajarilmaguncha har 10 daqiqada`. The bot takes this suffix (or infix)
//! off the text before the due-date parser reads the rest, so the parser never mistakes it for a
//! repeat rule: nagging is not a schedule, it follows each reminder until the task is done.
//!
//! The marker ("until done", "пока не сделаю", "bajarilmaguncha", Uzbek Cyrillic too) is what
//! makes a phrase a nag; an interval right before or after it ("every 10 min", "каждые 2 часа",
//! "har soatda") says how often, else it is every [`DEFAULT_EVERY_MINUTES`] minutes.

use chrono::TimeDelta;

use crate::domain::fold::{FoldedWord as Word, folded_words, is_space};

/// How often an "until done" without an interval (and the Keep reminding button) repeats.
pub const DEFAULT_EVERY_MINUTES: i64 = 10;
/// The shortest interval between nags.
pub const MIN_EVERY: TimeDelta = TimeDelta::minutes(1);
/// The longest interval between nags.
pub const MAX_EVERY: TimeDelta = TimeDelta::hours(24);

/// A task phrase with its "until done" part taken off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NagPhrase {
    /// The rest of the phrase (text and time), for the due-date parser.
    pub rest: String,
    /// How often to repeat the reminder until the task is done.
    pub every: TimeDelta,
}

/// An "until done" whose interval cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a nag interval must be between {MIN_EVERY} and {MAX_EVERY}")]
pub struct NagIntervalError;

/// The words that make a phrase a nag, folded (see [`fold`]), each a sequence of words.
const MARKERS: &[&[&str]] = &[
    &["until", "done"],
    &["till", "done"],
    &["until", "it's", "done"],
    &["until", "it", "is", "done"],
    &["till", "it's", "done"],
    &["пока", "не", "сделаю"],
    &["пока", "не", "выполню"],
    &["пока", "не", "сделаем"],
    &["пока", "не", "будет", "сделано"],
    &["до", "выполнения"],
    &["bajarilmaguncha"],
    &["bajarmagunimcha"],
    &["bajarmaguncha"],
    &["qilmagunimcha"],
    &["бажарилмагунча"],
    &["бажармагунимча"],
    &["бажармагунча"],
    &["қилмагунимча"],
];

/// Words that open an interval: "every", "каждые", "har", "раз в".
const EVERY_WORDS: &[&[&str]] = &[
    &["every"],
    &["each"],
    &["каждые"],
    &["каждую"],
    &["каждый"],
    &["каждое"],
    &["раз", "в"],
    &["har"],
    &["ҳар"],
    &["хар"],
];

/// Words asking to be reminded again, right before the interval or the marker ("и напоминай
/// каждые 10 минут", "and keep reminding me every 5 min"): part of the nag, not of the task.
const REMIND_AGAIN: &[&str] = &[
    "remind",
    "reminding",
    "bugging",
    "nagging",
    "keep",
    "me",
    "напоминай",
    "напоминайте",
    "напоминать",
    "мне",
    "eslatib",
    "eslat",
    "tur",
    "эслатиб",
    "эслат",
    "тур",
];

/// The verbs among [`REMIND_AGAIN`]: without one, the words before the interval are the task's
/// ("call me every 10 min until done" keeps "call me").
const REMIND_VERBS: &[&str] = &[
    "remind",
    "reminding",
    "bugging",
    "nagging",
    "напоминай",
    "напоминайте",
    "напоминать",
    "eslatib",
    "eslat",
    "эслатиб",
    "эслат",
];

/// What I do to acknowledge a reminder, after "until I" ("keep reminding me every 5 min until i
/// reply"): the nag's words, not the task's.
const ACKNOWLEDGING: &[&str] = &["reply", "respond", "answer", "confirm", "acknowledge"];

/// Uzbek "until I reply": the nag's words, after a request to be reminded again.
const UNTIL_I_REPLY_UZ: &[&[&str]] = &[&["javob", "bermagunimcha"], &["жавоб", "бермагунимча"]];

/// "and" before a request to be reminded again.
const AND_WORDS: &[&str] = &["and", "и", "va", "ва"];

/// A unit of an interval and its length in minutes.
fn unit_minutes(word: &str) -> Option<i64> {
    Some(match word {
        "m" | "min" | "mins" | "minute" | "minutes" | "мин" | "минуту" | "минуты" | "минут"
        | "минутку" | "daqiqa" | "daqiqada" | "minut" | "minutda" | "дақиқа" | "дақиқада"
        | "дакика" | "дакикада" | "минутда" => 1,
        "h" | "hr" | "hrs" | "hour" | "hours" | "ч" | "час" | "часа" | "часов" | "soat"
        | "soatda" | "соат" | "соатда" => 60,
        "полчаса" | "yarim" => 30,
        _ => return None,
    })
}

/// Whether `seq` is at word `at` of `words`.
fn matches_at(words: &[Word], at: usize, seq: &[&str]) -> bool {
    seq.iter()
        .enumerate()
        .all(|(i, want)| words.get(at + i).is_some_and(|w| w.folded == *want))
}

/// The interval starting at word `at` ("every 10 min", "каждые 2 часа", "har soatda", "every
/// 10min"): its length and how many words it takes.
fn interval_at(words: &[Word], at: usize) -> Option<(TimeDelta, usize)> {
    let opener = EVERY_WORDS.iter().find(|seq| matches_at(words, at, seq))?;
    let mut next = at + opener.len();
    let word = &words.get(next)?.folded;
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    // A count too large for any clock is still an interval (out of bounds, so the user hears
    // the limits), never an overflow.
    let count = |digits: &str| digits.parse::<i64>().unwrap_or(i64::MAX);
    let (count, unit) = if digits.is_empty() {
        (1, word.clone())
    } else if digits.len() < word.len() {
        // "10min", "2h", "10-daqiqada".
        (
            count(&digits),
            word[digits.len()..].trim_start_matches('-').to_owned(),
        )
    } else {
        next += 1;
        (count(&digits), words.get(next)?.folded.clone())
    };
    let minutes = unit_minutes(&unit)?.saturating_mul(count);
    let every = TimeDelta::try_minutes(minutes).unwrap_or(TimeDelta::MAX);
    Some((every, next + 1 - at))
}

/// The interval that ends right before word `end` (an interval before the marker).
fn interval_ending_at(words: &[Word], end: usize) -> Option<(usize, TimeDelta)> {
    (end.saturating_sub(4)..end).find_map(|at| {
        interval_at(words, at)
            .filter(|(_, len)| at + len == end)
            .map(|(every, _)| (at, every))
    })
}

/// "напоминай пока не позвоню", "keep bugging me till i do (it)", "keep reminding me every 5 min
/// until i reply", "javob bermagunimcha har 5 daqiqada eslatib tur": "until I" and a verb of mine
/// (in Russian a word ending as a verb of the first person does), at word `at`, right after a
/// request to be reminded again or after its interval ("напоминай каждые 15 минут пока не
/// выпью"), or before an interval and the request (Uzbek); alone, "пока не знаю когда", "wait
/// till i do the laundry" are the task's words, and so is any other deed ("remind me every 2
/// hours until i finish the report" repeats). Its length in words.
fn until_i_do_at(words: &[Word], at: usize) -> Option<usize> {
    let request_end = interval_ending_at(words, at).map_or(at, |(start, _)| start);
    let asked_before = (request_end.saturating_sub(2)..request_end)
        .any(|i| REMIND_VERBS.contains(&words[i].folded.as_str()));
    if let Some(marker) = UNTIL_I_REPLY_UZ
        .iter()
        .find(|seq| matches_at(words, at, seq))
    {
        let after = at + marker.len();
        let request_from = interval_at(words, after).map_or(after, |(_, len)| after + len);
        let asked_after = (request_from..(request_from + 2).min(words.len()))
            .any(|i| REMIND_VERBS.contains(&words[i].folded.as_str()));
        return (asked_before || asked_after).then_some(marker.len());
    }
    if !asked_before {
        return None;
    }
    let russian_first_person =
        |verb: &str| verb.chars().count() >= 4 && (verb.ends_with('ю') || verb.ends_with('у'));
    if matches_at(words, at, &["пока", "не"])
        && words
            .get(at + 2)
            .is_some_and(|w| russian_first_person(&w.folded))
    {
        return Some(3);
    }
    let until = matches_at(words, at, &["till"]) || matches_at(words, at, &["until"]);
    if !(until && matches_at(words, at + 1, &["i"])) {
        return None;
    }
    if matches_at(words, at + 2, &["do", "it"]) {
        return Some(4);
    }
    let verb = words.get(at + 2).map(|w| w.folded.as_str());
    verb.is_some_and(|verb| verb == "do" || ACKNOWLEDGING.contains(&verb))
        .then_some(3)
}

/// Where the nag starts when words asking to be reminded again, and an "and", come right
/// before word `first` ("выгулять собаку и напоминай каждые 10 минут пока не сделаю"); they may
/// open the message when the task follows the nag (`task_after`: "keep bugging me every 15 min
/// till i call the garage").
fn with_remind_again(words: &[Word], first: usize, task_after: bool) -> usize {
    let is = |list: &[&str], at: usize| list.contains(&words[at].folded.as_str());
    let mut at = first;
    while at > 0 && is(REMIND_AGAIN, at - 1) {
        at -= 1;
    }
    // Not without a verb, nor when they open the message with nothing after: nothing of the
    // task would be left.
    if (at == 0 && !task_after) || !(at..first).any(|i| is(REMIND_VERBS, i)) {
        return first;
    }
    if at > 0 && is(AND_WORDS, at - 1) {
        at -= 1;
    }
    at
}

/// Finds "until done" with its interval in `input`. `Ok(None)`: no nag in it, the input is as it
/// was; an interval outside [`MIN_EVERY`]..=[`MAX_EVERY`] is an error.
pub fn find(input: &str) -> Result<Option<NagPhrase>, NagIntervalError> {
    let words = folded_words(input);
    let Some((marker_at, marker)) = (0..words.len()).find_map(|at| {
        MARKERS
            .iter()
            .find(|seq| matches_at(&words, at, seq))
            .map(|seq| seq.len())
            .or_else(|| until_i_do_at(&words, at))
            .map(|len| (at, len))
    }) else {
        return Ok(None);
    };
    let marker_end = marker_at + marker;
    let (first, last, every) = if let Some((every, len)) = interval_at(&words, marker_end) {
        (marker_at, marker_end + len, every)
    } else if let Some((at, every)) = interval_ending_at(&words, marker_at) {
        (at, marker_end, every)
    } else {
        (
            marker_at,
            marker_end,
            TimeDelta::minutes(DEFAULT_EVERY_MINUTES),
        )
    };
    if every < MIN_EVERY || every > MAX_EVERY {
        return Err(NagIntervalError);
    }
    // "… har 5 daqiqada eslatib tur": the request after the interval is the nag's too.
    let mut last = last;
    if (last..(last + 2).min(words.len())).any(|i| REMIND_VERBS.contains(&words[i].folded.as_str()))
    {
        while last < words.len() && REMIND_AGAIN.contains(&words[last].folded.as_str()) {
            last += 1;
        }
    }
    let first = with_remind_again(&words, first, last < words.len());
    let cut_from = words[first].start;
    let cut_to = words[last - 1].end;
    let rest = format!("{} {}", &input[..cut_from], &input[cut_to..]);
    let rest = rest
        .split(is_space)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let rest = rest.trim_matches(|c: char| matches!(c, ',' | ';' | '-' | '—') || is_space(c));
    Ok(Some(NagPhrase {
        rest: rest.to_owned(),
        every,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nag(input: &str) -> (String, i64) {
        let found = find(input)
            .unwrap()
            .unwrap_or_else(|| panic!("a nag in {input:?}"));
        (found.rest, found.every.num_minutes())
    }

    #[test]
    fn until_i_do_is_a_nag_only_after_a_request_to_be_reminded() {
        for input in [
            "wait till i do the laundry tomorrow",
            "tell kids not to eat till i do at 6pm",
            "позвонить маме завтра в 10, пока не знаю когда точно",
            "в 19 напоминать детям про уроки пока не приду",
            "wait till i call you tomorrow",
            "don't send it until i reply",
            "javob bermagunimcha kutish",
            "remind me every 2 hours until i finish the report",
        ] {
            assert_eq!(find(input), Ok(None), "{input}");
        }
    }

    #[test]
    fn the_three_languages_and_both_orders() {
        let cases = [
            (
                "take the chicken out of the freezer at 5 and keep reminding me every 5 min until i reply",
                "take the chicken out of the freezer at 5",
                5,
            ),
            (
                "soat 17:00 da go'shtni muzlatgichdan olish, javob bermagunimcha har 5 daqiqada eslatib tur",
                "soat 17:00 da go'shtni muzlatgichdan olish",
                5,
            ),
            (
                "call mom tomorrow 9:00 every 10 min until done",
                "call mom tomorrow 9:00",
                10,
            ),
            (
                "call mom in 1 hour, until done every 5 minutes",
                "call mom in 1 hour",
                5,
            ),
            (
                "take pills at 8 every hour till done",
                "take pills at 8",
                60,
            ),
            (
                "выгулять собаку через 15 минут и напоминай каждые 10 минут пока не сделаю",
                "выгулять собаку через 15 минут",
                10,
            ),
            (
                "позвонить Ивану в 16:00 и напоминай пока не позвоню",
                "позвонить Ивану в 16:00",
                10,
            ),
            (
                "take the bins out at 8 tonight and keep bugging me till i do",
                "take the bins out at 8 tonight",
                10,
            ),
            (
                "в 22:00 выпить таблетку и напоминай каждые 15 минут пока не выпью",
                "в 22:00 выпить таблетку",
                15,
            ),
            (
                "call me in 1 hour every 10 min until done",
                "call me in 1 hour",
                10,
            ),
            (
                "water plants in 2 hours until done",
                "water plants in 2 hours",
                10,
            ),
            (
                "every 2h until it's done pay rent tomorrow",
                "pay rent tomorrow",
                120,
            ),
            (
                "позвонить маме завтра в 9 каждые 10 минут пока не сделаю",
                "позвонить маме завтра в 9",
                10,
            ),
            (
                "выпить таблетки через час каждую минуту пока не выполню",
                "выпить таблетки через час",
                1,
            ),
            (
                "пока не сделаю каждые 2 часа отчёт завтра в 10",
                "отчёт завтра в 10",
                120,
            ),
            (
                "сдать отчёт в 18:00 раз в полчаса пока не сделаю",
                "сдать отчёт в 18:00",
                30,
            ),
            (
                "ertaga 9:00 onamga qo'ng'iroq bajarilmaguncha har 10 daqiqada",
                "ertaga 9:00 onamga qo'ng'iroq",
                10,
            ),
            (
                "dori ichish 2 soatdan keyin har soatda bajarilmaguncha",
                "dori ichish 2 soatdan keyin",
                60,
            ),
            ("ertaga 9:00 sport bajarilmaguncha", "ertaga 9:00 sport", 10),
            (
                "эртага 9:00 спорт бажарилмагунча ҳар 15 дақиқада",
                "эртага 9:00 спорт",
                15,
            ),
            (
                "Call Bob in 10 minutes EVERY 10MIN UNTIL DONE!",
                "Call Bob in 10 minutes",
                10,
            ),
        ];
        for (input, rest, minutes) in cases {
            assert_eq!(nag(input), (rest.to_owned(), minutes), "{input}");
        }
    }

    #[test]
    fn a_phrase_without_the_marker_is_left_alone() {
        for input in [
            "every monday 10:00 standup",
            "каждые 10 минут",
            "har kuni 8:00 sport",
            "done by friday",
            "",
        ] {
            assert_eq!(find(input), Ok(None), "{input}");
        }
    }

    #[test]
    fn intervals_outside_a_minute_to_a_day_are_refused() {
        assert_eq!(
            find("x in 1 hour every 0 min until done"),
            Err(NagIntervalError)
        );
        assert_eq!(
            find("x in 1 hour every 25 hours until done"),
            Err(NagIntervalError)
        );
        assert_eq!(nag("x in 1 hour every 24 hours until done").1, 24 * 60);
        // Counts too large for any clock are refused like any interval out of bounds, with no
        // overflow on the way (1e15 minutes once panicked in chrono).
        for huge in [
            "99999999999999999999",
            "1000000000000000",
            "9223372036854775807",
        ] {
            for phrase in [
                format!("x every {huge} min until done"),
                format!("x until done every {huge}min"),
                format!("x every {huge} hours until done"),
            ] {
                assert_eq!(find(&phrase), Err(NagIntervalError), "{phrase}");
            }
        }
    }
}
