//! A time corrected as it is typed: "call the vet at 5, no wait, 6", "soat 5 da, yo'q, 6 da", "в 5,
//! нет, в 6". The later hour takes the earlier one's place and the words between go, before the
//! message is read, so that the task is at the hour meant and its text keeps neither.

use std::borrow::Cow;

use crate::domain::fold::{FoldedWord as Word, folded_words};
use crate::domain::lang::Lang;

use super::keys::Key;
use super::vocab::meanings_in;

/// Words that take back the hour before them, folded, each a sequence of words.
/// The longer ones first ("no sorry make it" before "no").
const TAKEN_BACK: &[&[&str]] = &[
    &["no", "sorry", "make", "it"],
    &["no", "make", "it"],
    &["sorry", "make", "it"],
    &["no", "wait"],
    &["no", "sorry"],
    &["no", "actually"],
    &["make", "it"],
    &["no"],
    &["sorry"],
    &["i", "mean"],
    &["actually"],
    &["хотя", "нет", "лучше"],
    &["нет", "давай", "лучше"],
    &["хотя", "нет"],
    &["нет", "лучше"],
    &["нет", "давай"],
    &["ой", "давай"],
    &["нет"],
    &["лучше"],
    &["вернее"],
    &["точнее"],
    &["ой"],
    &["yo'q", "yaxshisi"],
    &["yo'q"],
    &["yaxshisi"],
    &["йўқ"],
    &["йук"],
];

/// Words that mark an hour: "at 5", "в 5", "soat 5".
const HOUR_MARKS: &[&str] = &["at", "@", "в", "во", "к", "soat", "соат"];

/// Words after an hour that belong to it: "5 pm", "soat 5 da", "в 5 вечера".
const HOUR_ENDINGS: &[&str] = &["am", "pm", "da", "да", "утра", "дня", "вечера", "ночи"];

/// Day words that may follow the corrected hour: "4pm tomorrow".
const DAY_WORDS: &[&str] = &[
    "today",
    "tomorrow",
    "tonight",
    "сегодня",
    "завтра",
    "bugun",
    "ertaga",
    "бугун",
    "эртага",
];

/// Whether a comma, semicolon or dash closes `word` in `input` ("5," sets the hour off from what
/// follows; a full stop ends a sentence instead).
fn closed(input: &str, word: &Word) -> bool {
    input[word.start..word.end].ends_with([',', ';', '—', '-'])
}

/// Where the clause of the hour ending at word `first_end` ends: that word itself when a comma
/// or a dash closes it ("at 5, no, 6") or two words taking it back follow it, or up to ten of
/// the task's words later ("в 6 встреча с Олегом в кафе, нет, в 7"), none of them a number or
/// a marked hour.
fn clause_end(input: &str, words: &[Word], first_end: usize) -> Option<usize> {
    const MAX_WORDS_BETWEEN: usize = 10;
    // "at 4 no wait 4:30": two words or more take it back without a comma ("at 5 no 6" is
    // left alone).
    let unmistakable = TAKEN_BACK
        .iter()
        .any(|seq| seq.len() > 1 && matches_at(words, first_end + 1, seq));
    if unmistakable {
        return Some(first_end);
    }
    let number = |i: usize| {
        words
            .get(i)
            .is_some_and(|w| w.folded.chars().any(|c| c.is_ascii_digit()))
    };
    (first_end..words.len())
        .take(MAX_WORDS_BETWEEN + 1)
        .take_while(|&i| {
            let marks_an_hour = HOUR_MARKS.contains(&words[i].folded.as_str()) && number(i + 1);
            i == first_end || !(number(i) || marks_an_hour)
        })
        .find(|&i| closed(input, &words[i]))
}

/// Whether `word` is an hour as typed: "5", "17", "5:30", "5pm", "5:30pm".
fn is_hour(word: &str) -> bool {
    let (hour, minutes) = bare(word).split_once(':').unwrap_or((bare(word), "00"));
    let digits = |s: &str, max: u32| {
        (1..=2).contains(&s.len())
            && s.chars().all(|c| c.is_ascii_digit())
            && s.parse::<u32>().is_ok_and(|n| n <= max)
    };
    digits(hour, 24) && minutes.len() == 2 && digits(minutes, 59)
}

/// Whether `word` is an hour in words, which a correction may say after its own "at" or "в" ("…,
/// хотя нет, лучше в полшестого", "at 5, no, at six"): a count from one to twelve, noon or
/// midnight in English or Russian, "час", or "пол" before an hour's ordinal, as the grammar's word
/// lists have them.
fn is_hour_in_words(word: &str) -> bool {
    let means = |word: &str, fits: fn(Key) -> bool| {
        [Lang::En, Lang::Ru]
            .into_iter()
            .any(|lang| meanings_in(word, lang).into_iter().any(fits))
    };
    let hour = |key: Key| {
        matches!(key, Key::Noon | Key::Midnight)
            || matches!(key, Key::Count(n) if (1..=12).contains(&n))
    };
    let half_before = |key: Key| matches!(key, Key::HourOrdinal(_));
    word == "час"
        || means(word, hour)
        || word
            .strip_prefix("пол")
            .is_some_and(|ordinal| means(ordinal, half_before))
}

/// An hour without an am/pm typed onto it.
fn bare(word: &str) -> &str {
    word.strip_suffix("am")
        .or_else(|| word.strip_suffix("pm"))
        .unwrap_or(word)
}

/// Whether the words from `at` are `seq`.
fn matches_at(words: &[Word], at: usize, seq: &[&str]) -> bool {
    seq.iter()
        .enumerate()
        .all(|(i, want)| words.get(at + i).is_some_and(|w| w.folded == *want))
}

/// The word after the hour at `at` that belongs to it ("pm", "da", "вечера"), if any.
fn ending_after(words: &[Word], at: usize) -> Option<usize> {
    let next = at + 1;
    words
        .get(next)
        .is_some_and(|w| HOUR_ENDINGS.contains(&w.folded.as_str()))
        .then_some(next)
}

/// `input` with a marked hour that is taken back, set off by a comma or a dash (at once or after
/// a few of the task's words, which stay), replaced by the
/// hour that follows the words taking it back, when that hour plainly is one (marked again, or
/// it ends the message or its clause, has its own "pm" or "da", or a day follows: not "at 9,
/// actually 15 min earlier", "at 8, no, 2 tablets"). The first hour's am/pm or part of the day goes with the
/// second when it has none ("at 9pm, no, 10 tomorrow" is 22:00). `input` itself when it has none.
pub(super) fn corrected(input: &str) -> Cow<'_, str> {
    let words = folded_words(input);
    for at in 1..words.len() {
        let marked = HOUR_MARKS.contains(&words[at - 1].folded.as_str());
        if !marked || !is_hour(&words[at].folded) {
            continue;
        }
        let first_ending = ending_after(&words, at);
        let first_end = first_ending.unwrap_or(at);
        let Some(clause_end) = clause_end(input, &words, first_end) else {
            continue;
        };
        let Some(taken_back) = TAKEN_BACK
            .iter()
            .find(|seq| matches_at(&words, clause_end + 1, seq))
        else {
            continue;
        };
        let after = clause_end + 1 + taken_back.len();
        let own_mark = words
            .get(after)
            .is_some_and(|w| HOUR_MARKS.contains(&w.folded.as_str()));
        let hour = if own_mark { after + 1 } else { after };
        let is_said_hour =
            |w: &Word| is_hour(&w.folded) || (own_mark && is_hour_in_words(&w.folded));
        if !words.get(hour).is_some_and(is_said_hour) {
            continue;
        }
        let second_ending = ending_after(&words, hour);
        let second_end = second_ending.unwrap_or(hour);
        let next = words.get(second_end + 1);
        // "купить 3 билета в 19, нет, лучше 4": after a count in the text a bare number may
        // correct the count.
        let counted_before = words[..at - 1]
            .iter()
            .any(|w| w.folded.chars().all(|c| c.is_ascii_digit()));
        // After the task's words a marked number may be a place ("…, нет, в 3 корпусе", "…, no,
        // at 3 Elm Road"): there the hour must end its clause or have its own ending.
        let across_words = clause_end > first_end;
        let ends_clause = closed(input, &words[second_end])
            || next.is_none_or(|w| DAY_WORDS.contains(&w.folded.as_str()));
        let plainly = if across_words {
            second_ending.is_some() || (ends_clause && (own_mark || !counted_before))
        } else {
            own_mark || second_ending.is_some() || (!counted_before && ends_clause)
        };
        // An hour in words must end its clause or have its own ending ("at 5, no, at one point
        // …" is no hour).
        let in_words = !is_hour(&words[hour].folded);
        if !plainly || (in_words && second_ending.is_none() && !ends_clause) {
            continue;
        }
        // "в 5, нет, в 6" keeps the second "в"; "at 5, no wait, 6" the first "at".
        let cut_from = if own_mark {
            words[at - 1].start
        } else {
            words[at].start
        };
        let first_said_half = first_ending
            .map(|i| input[words[i].start..words[i].end].trim_end_matches([',', ';', '—', '-']))
            .or_else(|| {
                let typed = &words[at].folded;
                (bare(typed) != typed).then(|| &typed[bare(typed).len()..])
            });
        let second_has_half =
            second_ending.is_some() || bare(&words[hour].folded) != words[hour].folded;
        let carried = match first_said_half {
            Some(half) if !second_has_half => {
                let joiner = if first_ending.is_some() { " " } else { "" };
                format!("{joiner}{half}")
            }
            _ => String::new(),
        };
        // "в 6 встреча с Олегом, нет, в 7": the task's words stay after the hour.
        let between = if across_words {
            let words_between = &input[words[first_end + 1].start..words[clause_end].end];
            format!(" {}", words_between.trim_end_matches([',', ';', '—', '-']))
        } else {
            String::new()
        };
        return Cow::Owned(format!(
            "{}{}{}{}{}",
            &input[..cut_from],
            &input[words[after].start..words[second_end].end],
            carried,
            between,
            &input[words[second_end].end..]
        ));
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
            (
                "call dad at 9pm, no, 10 tomorrow",
                "call dad at 10pm tomorrow",
            ),
            (
                "в 5 вечера, нет, в 6 позвонить маме",
                "в 6 вечера позвонить маме",
            ),
            ("в 6 встреча с Олегом, нет, в 7", "в 7 встреча с Олегом"),
            (
                "завтра в 5 встреча с Олегом в кафе у метро на Тверской, нет, в 6",
                "завтра в 6 встреча с Олегом в кафе у метро на Тверской",
            ),
            (
                "pick up the suit from the tailor at 4 no wait 4:30",
                "pick up the suit from the tailor at 4:30",
            ),
            (
                "soat 5 da Dilnoza bilan uchrashuv, yo'q, 6 da",
                "soat 6 da Dilnoza bilan uchrashuv",
            ),
            (
                "завтра в 5, хотя нет, лучше в полшестого",
                "завтра в полшестого",
            ),
            ("call mum at 5, no, at six", "call mum at six"),
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
            "at 5, no, at one point call her",
            "buy 5, no wait, 6 eggs",
            "at 5, no wait, 60 people",
            "standup at 9, actually 15 min earlier",
            "give the dog 1 tablet at 8, no, 2 tablets",
            "в 19, ой 2 пакета молока купить",
            "soat 5 da, yo'q 2 ta non olish",
            "call the school at 9. sorry 2 kids sick today",
            "at 5, no",
            "at 3 pick up the kids, no wait, 3 kids and their bags",
            "в 6 встреча с Олегом, нет, с Петей",
            "в 5 встреча с Олегом, нет, в 3 корпусе",
            "at 5 meet Ann, no, at 3 Elm Road",
        ] {
            assert!(matches!(corrected(input), Cow::Borrowed(_)), "{input}");
        }
    }
}
