//! How the bot's reading of a message compares with what its writer expected.

use remindbot::domain::fold::fold;

use super::case::{Case, ExpectedDue};
use super::read::Reading;

/// How a reading compares with its expectation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The due time.
    pub due: DueVerdict,
    /// The repeat, in the corpus's words.
    pub repeat_agrees: bool,
    /// The task text, compared without case, punctuation and extra spaces.
    pub text_agrees: bool,
}

/// How the due time compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DueVerdict {
    /// As expected (or the bot asked when, as expected).
    Agrees,
    /// The bot took the other reading of an ambiguous hour and offers the expected one on a
    /// button.
    OnAButton,
    /// Not what the person expected.
    Differs,
}

impl Verdict {
    /// Compares `reading` with what `case` expects.
    pub fn of(case: &Case, reading: &Reading) -> Verdict {
        let due = match (&case.due, reading) {
            (ExpectedDue::Ask, Reading::Asks) => DueVerdict::Agrees,
            (ExpectedDue::At { first, second }, Reading::Task(task)) => {
                let second_agrees = match task.second {
                    Some(at) => second.contains(&at),
                    None => second.is_empty(),
                };
                if !second_agrees {
                    DueVerdict::Differs
                } else if first.contains(&task.due)
                    || task.reminds_at().is_some_and(|at| first.contains(&at))
                {
                    DueVerdict::Agrees
                } else if task
                    .other_reading
                    .is_some_and(|other| first.contains(&other))
                {
                    DueVerdict::OnAButton
                } else {
                    DueVerdict::Differs
                }
            }
            _ => DueVerdict::Differs,
        };
        let (repeat, text) = match reading {
            Reading::Task(task) => (task.repeat.as_str(), task.text.as_str()),
            Reading::Asks | Reading::Refused(_) => ("-", case.text.as_str()),
        };
        Verdict {
            due,
            repeat_agrees: same_repeat(&case.repeat, repeat),
            text_agrees: folded(&case.text) == folded(text),
        }
    }

    /// Whether the due time and the repeat are as expected: what a user would notice first.
    pub fn reads_right(&self) -> bool {
        self.due == DueVerdict::Agrees && self.repeat_agrees
    }

    /// Whether everything is as expected, the task text too.
    pub fn all_agree(&self) -> bool {
        self.reads_right() && self.text_agrees
    }

    /// The parts that differ, as the report marks them (`DUE`, `due-on-a-button`, `REPEAT`,
    /// `text`).
    pub fn marks(&self) -> Vec<&'static str> {
        [
            (self.due == DueVerdict::Differs, "DUE"),
            (self.due == DueVerdict::OnAButton, "due-on-a-button"),
            (!self.repeat_agrees, "REPEAT"),
            (!self.text_agrees, "text"),
        ]
        .into_iter()
        .filter_map(|(on, mark)| on.then_some(mark))
        .collect()
    }
}

/// Whether two repeats in the corpus's words are the same (`every:1d` is `daily`).
fn same_repeat(expected: &str, read: &str) -> bool {
    let canonical = |words: &str| words.trim().to_lowercase().replace("every:1d", "daily");
    canonical(expected) == canonical(read)
}

/// A text folded as the parser folds words (case, `ё`, apostrophes), without punctuation and
/// repeated spaces, for comparing.
fn folded(text: &str) -> String {
    let letters: String = fold(text)
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    letters.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_agree_without_case_punctuation_or_yo() {
        assert_eq!(folded("Позвонить  маме!"), "позвонить маме");
        assert_eq!(folded("Ёлку купить"), "елку купить");
        assert_eq!(folded("o'qish, kitob"), "o qish kitob");
    }

    #[test]
    fn a_lead_agrees_with_its_deadline_or_with_the_reminder_ahead_of_it() {
        let expecting = |due: &str| {
            let line = format!(
                "en|Europe/London|2026-12-07 10:00|meeting friday 15:00 remind 30 min before|{due}|-|meeting"
            );
            Case::parse(&line, "test".to_owned()).expect("a corpus line")
        };
        let at = |time: &str| {
            chrono::NaiveDateTime::parse_from_str(time, super::super::case::TIME_FORMAT)
                .expect("a time")
        };
        let task = |lead_minutes| {
            Reading::Task(super::super::read::Task {
                due: at("2026-12-11 15:00"),
                other_reading: None,
                second: None,
                repeat: "-".to_owned(),
                text: "meeting".to_owned(),
                lead_minutes,
                said: Vec::new(),
            })
        };
        for due in ["2026-12-11 15:00", "2026-12-11 14:30"] {
            assert_eq!(
                Verdict::of(&expecting(due), &task(Some(30))).due,
                DueVerdict::Agrees
            );
        }
        assert_eq!(
            Verdict::of(&expecting("2026-12-11 14:30"), &task(None)).due,
            DueVerdict::Differs
        );
        assert_eq!(
            Verdict::of(&expecting("2026-12-11 14:00"), &task(Some(30))).due,
            DueVerdict::Differs
        );
    }

    #[test]
    fn every_day_is_daily() {
        assert!(same_repeat("daily", "every:1d"));
        assert!(!same_repeat("daily", "weekdays"));
    }
}
