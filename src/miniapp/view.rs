//! What the API answers with: a task as the page shows it (its times in words, as the chat
//! writes them, in the user's zone), the open tasks by section (overdue, today, tomorrow, this
//! week, later), and the settings.

use chrono::{DateTime, Days, SecondsFormat, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use crate::domain::timezone::to_local;
use crate::i18n::Tr;
use crate::i18n::dates::Dates;
use crate::i18n::repeats::repeats_text;
use crate::store::agenda::Agenda;
use crate::store::app_tasks::VersionedTask;
use crate::store::chats::Chat;

/// A task as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct TaskView {
    /// Its id.
    pub id: i64,
    /// What to do.
    pub text: String,
    /// Its deadline in words ("tomorrow, Wed 2 Dec, 09:00").
    pub due: String,
    /// Its deadline, RFC 3339 in UTC.
    pub due_at: String,
    /// Its repeat in words, if it repeats.
    pub repeat: Option<String>,
    /// Its next reminder in words; `None` when none is to come (or its repeat is paused).
    pub next_reminder: Option<String>,
    /// Minutes before the deadline it reminds (0: at the deadline).
    pub lead_minutes: i64,
    /// Its revision, which a change sends back as `version`.
    pub version: i32,
}

/// The zone a chat's tasks are shown in: the chat's, else the task's own.
pub(crate) fn shown_zone(chat: &Chat, task_zone: Tz) -> Tz {
    chat.zone.unwrap_or(task_zone)
}

impl TaskView {
    /// `versioned` in `tr`'s language and `zone`, as seen at `now`.
    pub fn new(tr: Tr, zone: Tz, now: DateTime<Utc>, versioned: &VersionedTask) -> Self {
        let dates = Dates::new(tr, zone, now);
        let listed = &versioned.listed;
        let task = &listed.task;
        Self {
            id: task.id.0,
            text: task.text.clone(),
            due: dates.moment_with_weekday(task.due_at),
            due_at: task.due_at.to_rfc3339_opts(SecondsFormat::Secs, true),
            repeat: task.recurrence.as_ref().map(|rule| repeats_text(tr, rule)),
            next_reminder: listed
                .next_reminder
                .filter(|_| !listed.on_hold)
                .map(|at| dates.moment_with_weekday(at)),
            lead_minutes: i64::from(task.lead.secs()) / 60,
            version: versioned.revision,
        }
    }
}

/// The sections of the task list, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// Due before now.
    Overdue,
    /// Later today.
    Today,
    /// Tomorrow.
    Tomorrow,
    /// Within the next seven days.
    Week,
    /// After that.
    Later,
}

impl Section {
    /// Every section, in the order shown.
    pub const ALL: [Section; 5] = [
        Section::Overdue,
        Section::Today,
        Section::Tomorrow,
        Section::Week,
        Section::Later,
    ];

    /// Its key in the answer.
    pub fn key(self) -> &'static str {
        match self {
            Self::Overdue => "overdue",
            Self::Today => "today",
            Self::Tomorrow => "tomorrow",
            Self::Week => "week",
            Self::Later => "later",
        }
    }

    /// The section of a task due at `due_at`, seen at `now` in `zone`.
    pub fn of(due_at: DateTime<Utc>, zone: Tz, now: DateTime<Utc>) -> Self {
        if due_at <= now {
            return Self::Overdue;
        }
        let today = to_local(zone, now).date();
        let day = to_local(zone, due_at).date();
        let after = |days: u64| today.checked_add_days(Days::new(days)).unwrap_or(today);
        if day <= today {
            Self::Today
        } else if day == after(1) {
            Self::Tomorrow
        } else if day < after(7) {
            Self::Week
        } else {
            Self::Later
        }
    }
}

/// One section of the list.
#[derive(Debug, Serialize)]
pub(crate) struct SectionView {
    /// `overdue`, `today`, `tomorrow`, `week` or `later`.
    pub key: &'static str,
    /// Its title in the user's language.
    pub title: String,
    /// Its tasks, soonest first.
    pub tasks: Vec<TaskView>,
}

/// The open tasks (soonest first) by section, empty sections left out.
pub(crate) fn sections(
    tr: Tr,
    chat: &Chat,
    now: DateTime<Utc>,
    tasks: &[VersionedTask],
) -> Vec<SectionView> {
    Section::ALL
        .into_iter()
        .filter_map(|section| {
            let shown: Vec<TaskView> = tasks
                .iter()
                .filter(|versioned| {
                    let task = &versioned.listed.task;
                    Section::of(task.due_at, shown_zone(chat, task.zone), now) == section
                })
                .map(|versioned| {
                    let zone = shown_zone(chat, versioned.listed.task.zone);
                    TaskView::new(tr, zone, now, versioned)
                })
                .collect();
            (!shown.is_empty()).then(|| SectionView {
                key: section.key(),
                title: tr.t(&format!("app-section-{}", section.key())),
                tasks: shown,
            })
        })
        .collect()
}

/// The settings as the page shows and changes them.
#[derive(Debug, Serialize)]
pub(crate) struct SettingsView {
    /// The IANA zone, unset until chosen.
    pub zone: Option<String>,
    /// `en`, `ru`, `uz` or `uz-Cyrl`.
    pub lang: &'static str,
    /// The default lead of new tasks, in minutes.
    pub lead_minutes: i64,
    /// The morning agenda's time (`08:00`), unset when off.
    pub agenda: Option<String>,
}

impl SettingsView {
    /// The chat's settings and its agenda.
    pub fn new(chat: &Chat, agenda: Option<&Agenda>) -> Self {
        Self {
            zone: chat.zone.map(|zone| zone.name().to_owned()),
            lang: chat.lang.as_str(),
            lead_minutes: i64::from(chat.default_lead.secs()) / 60,
            agenda: agenda.map(|agenda| agenda.time.format("%H:%M").to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn tasks_fall_into_sections_by_the_local_day() {
        let zone = chrono_tz::Asia::Tashkent;
        // Tuesday 1 December 2026, 23:00 in Tashkent.
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 18, 0, 0).unwrap();
        let local = |d: u32, h: u32| {
            zone.with_ymd_and_hms(2026, 12, d, h, 0, 0)
                .unwrap()
                .with_timezone(&Utc)
        };
        assert_eq!(Section::of(local(1, 22), zone, now), Section::Overdue);
        assert_eq!(
            Section::of(local(1, 23) + chrono::Duration::minutes(30), zone, now),
            Section::Today
        );
        assert_eq!(Section::of(local(2, 1), zone, now), Section::Tomorrow);
        assert_eq!(Section::of(local(7, 9), zone, now), Section::Week);
        assert_eq!(Section::of(local(8, 9), zone, now), Section::Later);
    }
}
