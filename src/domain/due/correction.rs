//! A time corrected as it is typed: "call the vet at 5, no wait, 6", "soat 5 da, yo'q, 6 da", "в 5,
//! нет, в 6". The later hour takes the earlier one's place and the words between go, before the
//! message is read, so that the task is at the hour meant and its text keeps neither.

use std::borrow::Cow;

use crate::domain::fold::{fold, is_space};

/// Words that take back the hour before them, folded, each a sequence of words.
const TAKEN_BACK: &[&[&str]] = &[
    &["no", "wait"],
    &["no"],
    &["sorry"],
    &["i", "mean"],
    &["actually"],
    &["нет"],
    &["вернее"],
    &["точнее"],
    &["ой"],
    &["yo'q"],
    &["йўқ"],
    &["йук"],
];

/// Words that mark an hour: "at 5", "в 5", "soat 5".
const HOUR_MARKS: &[&str] = &["at", "@", "в", "во", "к", "soat", "соат"];

/// Words after an hour that belong to it: "5 pm", "soat 5 da".
const HOUR_ENDINGS: &[&str] = &["am", "pm", "da", "да"];

/// One word of the input: where it is, how it reads folded without the punctuation around it,
/// and whether punctuation closes it ("5," sets the hour off from what follows).
struct Word {
    start: usize,
    folded: String,
    closed: bool,
}

fn words(input: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in input.char_indices().chain([(input.len(), ' ')]) {
        match (is_space(c), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let raw = &input[s..i];
                let closed = raw.ends_with([',', ';', '.', '—', '-']);
                let folded = fold(raw)
                    .trim_matches(|c: char| matches!(c, ',' | '.' | '!' | ';' | ':' | '—' | '-'))
                    .to_owned();
                out.push(Word {
                    start: s,
                    folded,
                    closed,
                });
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether `word` is an hour as typed: "5", "17", "5:30", "5pm", "5:30pm".
fn is_hour(word: &str) -> bool {
    let bare = word
        .strip_suffix("am")
        .or_else(|| word.strip_suffix("pm"))
        .unwrap_or(word);
    let (hour, minutes) = bare.split_once(':').unwrap_or((bare, "00"));
    let digits = |s: &str, max: u32| {
        (1..=2).contains(&s.len())
            && s.chars().all(|c| c.is_ascii_digit())
            && s.parse::<u32>().is_ok_and(|n| n <= max)
    };
    digits(hour, 24) && minutes.len() == 2 && digits(minutes, 59)
}

/// Whether the words from `at` are `seq`.
fn matches_at(words: &[Word], at: usize, seq: &[&str]) -> bool {
    seq.iter()
        .enumerate()
        .all(|(i, want)| words.get(at + i).is_some_and(|w| w.folded == *want))
}

/// `input` with a marked hour that is taken back, set off by punctuation, replaced by the hour
/// that follows the words taking it back; `input` itself when it has none.
pub(super) fn corrected(input: &str) -> Cow<'_, str> {
    let words = words(input);
    for at in 1..words.len() {
        let marked = HOUR_MARKS.contains(&words[at - 1].folded.as_str());
        if !marked || !is_hour(&words[at].folded) {
            continue;
        }
        let mut end = at + 1;
        if words
            .get(end)
            .is_some_and(|w| HOUR_ENDINGS.contains(&w.folded.as_str()))
        {
            end += 1;
        }
        if !words[end - 1].closed {
            continue;
        }
        let Some(taken_back) = TAKEN_BACK.iter().find(|seq| matches_at(&words, end, seq)) else {
            continue;
        };
        let after = end + taken_back.len();
        let own_mark = words
            .get(after)
            .is_some_and(|w| HOUR_MARKS.contains(&w.folded.as_str()));
        let hour = if own_mark { after + 1 } else { after };
        if !words.get(hour).is_some_and(|w| is_hour(&w.folded)) {
            continue;
        }
        // "в 5, нет, в 6" keeps the second "в"; "at 5, no wait, 6" the first "at".
        let (cut_from, cut_to) = if own_mark {
            (words[at - 1].start, words[after].start)
        } else {
            (words[at].start, words[hour].start)
        };
        return Cow::Owned(format!("{}{}", &input[..cut_from], &input[cut_to..]));
    }
    Cow::Borrowed(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_later_hour_takes_the_earlier_ones_place() {
        for (input, want) in [
            ("call the vet at 5, no wait, 6", "call the vet at 6"),
            (
                "dentist at 3pm, sorry, 4pm tomorrow",
                "dentist at 4pm tomorrow",
            ),
            (
                "veterinarga soat 5 da, yo'q, 6 da qo'ng'iroq qilish",
                "veterinarga soat 6 da qo'ng'iroq qilish",
            ),
            (
                "стоматологга соат 3 да, йўқ, 4 да бориш",
                "стоматологга соат 4 да бориш",
            ),
            ("созвон завтра в 5, нет, в 6", "созвон завтра в 6"),
        ] {
            assert_eq!(corrected(input), want, "{input}");
        }
    }

    #[test]
    fn nothing_else_is_touched() {
        for input in [
            "call the vet at 5 no 6",
            "room 5, no 6",
            "at 5, no problem",
            "buy 5, no wait, 6 eggs",
            "at 5, no wait, 60 people",
        ] {
            assert!(matches!(corrected(input), Cow::Borrowed(_)), "{input}");
        }
    }
}
