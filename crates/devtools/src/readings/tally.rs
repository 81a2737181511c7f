//! The counts `remindbot-dev readings` prints, per file and for all.

use std::ops::AddAssign;

use super::verdict::{DueVerdict, Verdict};

/// Counts of one file's (or all files') verdicts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Messages read.
    pub messages: usize,
    /// Due as expected.
    pub due_agrees: usize,
    /// The expected due one button away.
    pub due_on_a_button: usize,
    /// The repeat as expected.
    pub repeat_agrees: usize,
    /// The text as expected.
    pub text_agrees: usize,
    /// Due or repeat not as expected, known and left so (counted in the figures above too).
    pub known: usize,
}

impl Tally {
    /// Counts one message's verdict; `known` when the corpus says why its reading is left so.
    pub fn add(&mut self, verdict: Verdict, known: bool) {
        self.messages += 1;
        match verdict.due {
            DueVerdict::Agrees => self.due_agrees += 1,
            DueVerdict::OnAButton => self.due_on_a_button += 1,
            DueVerdict::Differs => {}
        }
        self.repeat_agrees += usize::from(verdict.repeat_agrees);
        self.text_agrees += usize::from(verdict.text_agrees);
        self.known += usize::from(known && !verdict.reads_right());
    }

    /// One parseable line: `readings: <what> messages=N due=N (P %) due_on_a_button=N repeat=N
    /// (P %) text=N (P %) known=N`.
    pub fn line(&self, what: &str) -> String {
        let percent = |n: usize| 100.0 * n as f64 / self.messages.max(1) as f64;
        format!(
            "readings: {what} messages={} due={} ({:.1} %) due_on_a_button={} repeat={} ({:.1} %) text={} ({:.1} %) known={}",
            self.messages,
            self.due_agrees,
            percent(self.due_agrees),
            self.due_on_a_button,
            self.repeat_agrees,
            percent(self.repeat_agrees),
            self.text_agrees,
            percent(self.text_agrees),
            self.known,
        )
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.messages += other.messages;
        self.due_agrees += other.due_agrees;
        self.due_on_a_button += other.due_on_a_button;
        self.repeat_agrees += other.repeat_agrees;
        self.text_agrees += other.text_agrees;
        self.known += other.known;
    }
}
