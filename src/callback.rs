//! The data carried by inline buttons: compact, at most 64 bytes (Telegram's limit), never any
//! user text. Reminders (sent by the delivery worker) and chat messages (sent by the bot) share it,
//! and the bot decodes every tap with [`Action::decode`].

use std::fmt;

use crate::domain::due::HalfOfDay;
use crate::domain::ids::{TaskId, UserId};
use pgqueue::JobId;

/// Snooze choices offered under a reminder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snooze {
    /// 10 minutes from now.
    TenMinutes,
    /// An hour from now.
    OneHour,
    /// Tomorrow at the start of the user's morning.
    TomorrowMorning,
    /// Ask the user when.
    Custom,
}

/// Which question a Cancel button closes: only that one, so that the Cancel button under an old
/// question never closes a newer one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// "When?" for a task text given without a time.
    NewTaskTime,
    /// "New time?" for a task.
    EditTask {
        /// The task.
        task_id: TaskId,
    },
    /// "Snooze until when?" for a task.
    SnoozeTime {
        /// The task.
        task_id: TaskId,
    },
    /// "Which time zone?".
    TimeZone,
    /// "When?" about a forwarded message.
    QuoteTime,
}

/// What a button asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Mark the task done.
    Done {
        /// The task.
        task_id: TaskId,
    },
    /// Snooze the task's reminder.
    Snooze {
        /// The task.
        task_id: TaskId,
        /// Until when.
        choice: Snooze,
    },
    /// Change the task (its text or time).
    Edit {
        /// The task.
        task_id: TaskId,
    },
    /// Delete the task.
    Delete {
        /// The task.
        task_id: TaskId,
    },
    /// Undo the task's creation.
    Undo {
        /// The task.
        task_id: TaskId,
    },
    /// Show a page of the task list.
    ListPage {
        /// The page, from 0.
        page: u32,
    },
    /// Admin: return a failed job to the queue.
    AdminRetry {
        /// The failed job.
        job_id: JobId,
    },
    /// Admin: cancel a failed job.
    AdminCancel {
        /// The failed job.
        job_id: JobId,
    },
    /// Choose the time zone at this index of the bot's list of common zones.
    Zone {
        /// The index in the list of common zones.
        index: u8,
    },
    /// Set the chat's default lead time (`/settings`' buttons).
    Lead {
        /// The lead, in minutes.
        minutes: u32,
    },
    /// Choose the language at this index of [`Lang::CHOICES`](crate::domain::lang::Lang::CHOICES).
    Language {
        /// The index in `Lang::CHOICES`.
        index: u8,
    },
    /// Take back a change to a task (creating, editing, finishing or deleting it), as recorded
    /// on the server under this id (`store::undo`).
    UndoChange {
        /// The recorded change.
        undo_id: i64,
    },
    /// Close a question the bot asked.
    Cancel {
        /// Which question.
        question: Question,
        /// Whom it asks, in a group (nobody else may close it); `None` in a private chat, and on
        /// buttons made before the asker was written (`q:w` rather than `q:w:<user>`).
        asker: Option<UserId>,
    },
    /// Keep reminding of the task until it is done (the button under a reminder).
    Nag {
        /// The task.
        task_id: TaskId,
    },
    /// Pause a recurring task's repeat (the button under its reminder).
    Pause {
        /// The task.
        task_id: TaskId,
    },
    /// Resume a paused repeat (the button under the word that it is paused).
    Resume {
        /// The task.
        task_id: TaskId,
    },
    /// Read the hour of a new task, said without am/pm on a named day ("tomorrow at 6") or first
    /// read in the night ("at 1" at 13:40), in this half of the day (the 06:00 and 18:00 buttons
    /// under its card).
    PickHour {
        /// The task.
        task_id: TaskId,
        /// The half of the day tapped.
        half: HalfOfDay,
    },
    /// Replace the chat's calendar-feed URL with a new one (the button under `/calendar`).
    CalendarNew,
}

impl Snooze {
    fn code(self) -> &'static str {
        match self {
            Self::TenMinutes => "10m",
            Self::OneHour => "1h",
            Self::TomorrowMorning => "tm",
            Self::Custom => "c",
        }
    }

    fn from_code(code: &str) -> Option<Self> {
        Some(match code {
            "10m" => Self::TenMinutes,
            "1h" => Self::OneHour,
            "tm" => Self::TomorrowMorning,
            "c" => Self::Custom,
            _ => return None,
        })
    }
}

impl Action {
    /// The button data for this action.
    pub fn encode(&self) -> String {
        self.to_string()
    }

    /// Reads button data; anything malformed or unknown (an old or forged button) is `None`.
    pub fn decode(data: &str) -> Option<Self> {
        let mut parts = data.split(':');
        let kind = parts.next()?;
        let id = |part: Option<&str>| part.and_then(|p| p.parse::<i64>().ok()).filter(|n| *n > 0);
        let action = match kind {
            "d" => Self::Done {
                task_id: TaskId(id(parts.next())?),
            },
            "s" => Self::Snooze {
                task_id: TaskId(id(parts.next())?),
                choice: Snooze::from_code(parts.next()?)?,
            },
            "e" => Self::Edit {
                task_id: TaskId(id(parts.next())?),
            },
            "x" => Self::Delete {
                task_id: TaskId(id(parts.next())?),
            },
            "u" => Self::Undo {
                task_id: TaskId(id(parts.next())?),
            },
            "p" => Self::ListPage {
                page: parts.next()?.parse().ok()?,
            },
            "ar" => Self::AdminRetry {
                job_id: JobId(id(parts.next())?),
            },
            "ac" => Self::AdminCancel {
                job_id: JobId(id(parts.next())?),
            },
            "z" => Self::Zone {
                index: parts.next()?.parse().ok()?,
            },
            "l" => Self::Language {
                index: parts.next()?.parse().ok()?,
            },
            "v" => Self::UndoChange {
                undo_id: id(parts.next())?,
            },
            "q" => Self::Cancel {
                question: match parts.next()? {
                    "w" => Question::NewTaskTime,
                    "e" => Question::EditTask {
                        task_id: TaskId(id(parts.next())?),
                    },
                    "s" => Question::SnoozeTime {
                        task_id: TaskId(id(parts.next())?),
                    },
                    "z" => Question::TimeZone,
                    "f" => Question::QuoteTime,
                    _ => return None,
                },
                asker: match parts.next() {
                    Some(asker) => Some(UserId(id(Some(asker))?)),
                    None => None,
                },
            },
            "n" => Self::Nag {
                task_id: TaskId(id(parts.next())?),
            },
            "ld" => Self::Lead {
                minutes: parts.next()?.parse().ok()?,
            },
            "hp" => Self::Pause {
                task_id: TaskId(id(parts.next())?),
            },
            "hr" => Self::Resume {
                task_id: TaskId(id(parts.next())?),
            },
            "h" => Self::PickHour {
                task_id: TaskId(id(parts.next())?),
                half: match parts.next()? {
                    "m" => HalfOfDay::Morning,
                    "e" => HalfOfDay::Evening,
                    _ => return None,
                },
            },
            "cal" => Self::CalendarNew,
            _ => return None,
        };
        parts.next().is_none().then_some(action)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Done { task_id } => write!(f, "d:{task_id}"),
            Self::Snooze { task_id, choice } => write!(f, "s:{task_id}:{}", choice.code()),
            Self::Edit { task_id } => write!(f, "e:{task_id}"),
            Self::Delete { task_id } => write!(f, "x:{task_id}"),
            Self::Undo { task_id } => write!(f, "u:{task_id}"),
            Self::ListPage { page } => write!(f, "p:{page}"),
            Self::AdminRetry { job_id } => write!(f, "ar:{job_id}"),
            Self::AdminCancel { job_id } => write!(f, "ac:{job_id}"),
            Self::Zone { index } => write!(f, "z:{index}"),
            Self::Language { index } => write!(f, "l:{index}"),
            Self::UndoChange { undo_id } => write!(f, "v:{undo_id}"),
            Self::Cancel { question, asker } => {
                match question {
                    Question::NewTaskTime => write!(f, "q:w"),
                    Question::EditTask { task_id } => write!(f, "q:e:{task_id}"),
                    Question::SnoozeTime { task_id } => write!(f, "q:s:{task_id}"),
                    Question::TimeZone => write!(f, "q:z"),
                    Question::QuoteTime => write!(f, "q:f"),
                }?;
                match asker {
                    Some(asker) => write!(f, ":{asker}"),
                    None => Ok(()),
                }
            }
            Self::Nag { task_id } => write!(f, "n:{task_id}"),
            Self::Lead { minutes } => write!(f, "ld:{minutes}"),
            Self::Pause { task_id } => write!(f, "hp:{task_id}"),
            Self::Resume { task_id } => write!(f, "hr:{task_id}"),
            Self::PickHour { task_id, half } => {
                let half = match half {
                    HalfOfDay::Morning => "m",
                    HalfOfDay::Evening => "e",
                };
                write!(f, "h:{task_id}:{half}")
            }
            Self::CalendarNew => write!(f, "cal"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_round_trips_within_64_bytes() {
        let max = i64::MAX;
        let actions = [
            Action::Done {
                task_id: TaskId(max),
            },
            Action::Snooze {
                task_id: TaskId(max),
                choice: Snooze::TomorrowMorning,
            },
            Action::Snooze {
                task_id: TaskId(1),
                choice: Snooze::Custom,
            },
            Action::Edit {
                task_id: TaskId(max),
            },
            Action::Delete {
                task_id: TaskId(max),
            },
            Action::Undo {
                task_id: TaskId(max),
            },
            Action::ListPage { page: u32::MAX },
            Action::AdminRetry { job_id: JobId(max) },
            Action::AdminCancel { job_id: JobId(max) },
            Action::Zone { index: u8::MAX },
            Action::Language { index: 2 },
            Action::UndoChange { undo_id: max },
            Action::Cancel {
                question: Question::NewTaskTime,
                asker: None,
            },
            Action::Cancel {
                question: Question::NewTaskTime,
                asker: Some(UserId(max)),
            },
            Action::Cancel {
                question: Question::EditTask {
                    task_id: TaskId(max),
                },
                asker: Some(UserId(max)),
            },
            Action::Cancel {
                question: Question::SnoozeTime {
                    task_id: TaskId(max),
                },
                asker: Some(UserId(max)),
            },
            Action::Cancel {
                question: Question::SnoozeTime {
                    task_id: TaskId(max),
                },
                asker: None,
            },
            Action::Cancel {
                question: Question::TimeZone,
                asker: Some(UserId(1)),
            },
            Action::Cancel {
                question: Question::QuoteTime,
                asker: None,
            },
            Action::Nag {
                task_id: TaskId(max),
            },
            Action::Lead { minutes: u32::MAX },
            Action::Pause {
                task_id: TaskId(max),
            },
            Action::Resume {
                task_id: TaskId(max),
            },
            Action::PickHour {
                task_id: TaskId(max),
                half: HalfOfDay::Morning,
            },
            Action::PickHour {
                task_id: TaskId(1),
                half: HalfOfDay::Evening,
            },
            Action::CalendarNew,
        ];
        for action in actions {
            let data = action.encode();
            assert!(data.len() <= 64, "{data}");
            assert_eq!(Action::decode(&data), Some(action));
        }
    }

    #[test]
    fn forged_or_stale_data_is_rejected() {
        for data in [
            "", "d", "d:", "d:-1", "d:0", "d:1:2", "s:1:5m", "zz:1", "d:1;drop", "p:-1", "z:256",
            "l:", "v:0", "v:", "q", "q:x", "q:e", "q:s:-2", "q:w:0", "q:w:1:2", "q:z:x",
            "q:e:1:-3", "n:", "n:0", "n:1:2", "ld:", "ld:-5", "ld:5:1", "q:f:1:1", "h:1", "h:1:x",
            "h:0:m", "h:1:m:2", "cal:1",
        ] {
            assert_eq!(Action::decode(data), None, "{data}");
        }
    }
}
