//! What the bot reads from a corpus message: the same steps a chat takes (the "until done" part
//! off, then the due-date parser, then a second time split off), put in the corpus's words.

use chrono::{NaiveDateTime, Weekday};
use remindbot::bot::nag_phrase;
use remindbot::domain::due::{HalfOfDay, ParsedDue, parse_due};
use remindbot::domain::recurrence::{End, Frequency, Recurrence, WeekOfMonth};
use remindbot::domain::timezone::{resolve_local, to_local};

use super::case::Case;

/// The bot's reading of one message.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// It asked when (no date or time found).
    Asks,
    /// It refused the message with this error.
    Refused(String),
    /// It made a task.
    Task(Task),
}

/// A task the bot made from a message, in local times.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// The first reminder's deadline.
    pub due: NaiveDateTime,
    /// The other reading of an ambiguous hour, which the bot offers on a button.
    pub other_reading: Option<NaiveDateTime>,
    /// The second task's deadline (two times joined by "and").
    pub second: Option<NaiveDateTime>,
    /// The repeat in the corpus's words (`-` for none).
    pub repeat: String,
    /// The task text.
    pub text: String,
    /// How long before the deadline it reminds, in minutes, when a lead was said.
    pub lead_minutes: Option<i64>,
    /// What the bot says it assumed or left out, for the report.
    pub said: Vec<String>,
}

impl Task {
    /// When the first reminder goes out ahead of its deadline, when a lead was said ("30 min
    /// before"): a writer may expect either time.
    pub fn reminds_at(&self) -> Option<NaiveDateTime> {
        self.lead_minutes
            .map(|minutes| self.due - chrono::Duration::minutes(minutes))
    }
}

/// Reads `case`'s message as a chat would.
pub fn read(case: &Case) -> Reading {
    let (rest, nag) = match nag_phrase::find(&case.message) {
        Ok(Some(nag)) => (nag.rest, Some(nag.every.num_minutes())),
        Ok(None) => (case.message.clone(), None),
        Err(error) => return Reading::Refused(error.to_string()),
    };
    let now = resolve_local(case.zone, case.now);
    let parsed = match parse_due(&rest, case.lang, now, case.zone) {
        Ok(parsed) => parsed,
        Err(remindbot::domain::due::DueError::NoTime) => return Reading::Asks,
        Err(error) => return Reading::Refused(error.to_string()),
    };
    let local = |at| to_local(case.zone, at);
    let other_reading = parsed.choice.map(|choice| {
        let other = match choice.taken {
            HalfOfDay::Morning => HalfOfDay::Evening,
            HalfOfDay::Evening => HalfOfDay::Morning,
        };
        local(choice.reading(other).due)
    });
    let said = said(&parsed);
    let (first, second) = parsed.split();
    let repeat = match (nag, &first.recurrence) {
        (Some(minutes), _) => format!("nag:{minutes}min"),
        (None, Some(rule)) => describe(rule),
        (None, None) => "-".to_owned(),
    };
    Reading::Task(Task {
        due: local(first.due),
        other_reading,
        second: second.map(|second| local(second.due)),
        repeat,
        lead_minutes: first.lead.map(|lead| lead.duration().num_minutes()),
        text: first.text,
        said,
    })
}

/// The assumptions and left-out words, briefly.
fn said(parsed: &ParsedDue) -> Vec<String> {
    let assumed = parsed.assumptions.iter().map(|a| format!("{a:?}"));
    let left = parsed
        .unplaced
        .iter()
        .map(|unplaced| format!("left out {:?}", unplaced.words));
    assumed.chain(left).collect()
}

/// A rule in the corpus's words: `daily`, `every:2d`, `weekdays`, `weekly:mon,thu`,
/// `every:2w`, `every:3h`, `every:30min`, `monthly:15`, `monthly:last`, `monthly:1st-mon`,
/// `every:3mo`, `yearly`, then `;until:DATE`, `;times:N` and `;after-done` as they apply.
pub fn describe(rule: &Recurrence) -> String {
    let interval = rule.interval();
    let mut words = match (rule.frequency(), interval) {
        (Frequency::Minutely, n) => format!("every:{n}min"),
        (Frequency::Hourly, n) => format!("every:{n}h"),
        (Frequency::Daily, 1) => "daily".to_owned(),
        (Frequency::Daily, n) => format!("every:{n}d"),
        (Frequency::Weekdays, _) => "weekdays".to_owned(),
        (Frequency::Weekly(days), 1) => {
            let days: Vec<String> = days
                .iter(Weekday::Mon)
                .map(|day| day.to_string().to_lowercase())
                .collect();
            format!("weekly:{}", days.join(","))
        }
        (Frequency::Weekly(_), n) => format!("every:{n}w"),
        (Frequency::MonthlyOnDay(day), 1) => format!("monthly:{day}"),
        (Frequency::MonthlyOnLastDay, 1) => "monthly:last".to_owned(),
        (Frequency::MonthlyOnWeekday { week, day }, 1) => {
            format!(
                "monthly:{}-{}",
                week_of_month(week),
                day.to_string().to_lowercase()
            )
        }
        (
            Frequency::MonthlyOnDay(_)
            | Frequency::MonthlyOnLastDay
            | Frequency::MonthlyOnWeekday { .. },
            n,
        ) => format!("every:{n}mo"),
        (Frequency::Yearly { .. }, _) => "yearly".to_owned(),
    };
    match rule.end() {
        Some(End::Until(day)) => words.push_str(&format!(";until:{day}")),
        Some(End::Count(count)) => words.push_str(&format!(";times:{count}")),
        None => {}
    }
    if rule.counts_from_done() {
        words.push_str(";after-done");
    }
    words
}

fn week_of_month(week: WeekOfMonth) -> &'static str {
    match week {
        WeekOfMonth::First => "1st",
        WeekOfMonth::Second => "2nd",
        WeekOfMonth::Third => "3rd",
        WeekOfMonth::Fourth => "4th",
        WeekOfMonth::Last => "last",
    }
}
