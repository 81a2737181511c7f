//! The reminder message: Telegram HTML from `templates/reminder.html` in the chat's language and
//! time zone, with a "late by" line when it goes out late, and the Done and Snooze buttons. Dates
//! and durations are worded by [`crate::i18n::dates`].

use askama::Template;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use crate::callback::{Action, Snooze};
use crate::i18n::dates::{self, Dates};
use crate::i18n::{Arg, Tr};

/// One reminder, ready to render.
#[derive(Clone, Debug)]
pub struct ReminderView<'a> {
    /// The task's id (for the buttons).
    pub task_id: i64,
    /// The task's text, as the user wrote it.
    pub text: &'a str,
    /// The occurrence's deadline.
    pub due_at: DateTime<Utc>,
    /// The zone to show times in.
    pub zone: Tz,
    /// How late it goes out, when late enough to say so.
    pub late_by: Option<chrono::Duration>,
    /// When it goes out: the deadline reads "today", "tomorrow" or "yesterday" relative to it.
    pub now: DateTime<Utc>,
}

#[derive(Template)]
#[template(path = "reminder.html")]
struct ReminderHtml<'a> {
    title: String,
    text: &'a str,
    due: String,
    late: Option<String>,
}

/// The message text (Telegram HTML, every value escaped).
pub fn reminder_html(tr: Tr, view: &ReminderView<'_>) -> String {
    let when = Dates::new(tr, view.zone, view.now).moment(view.due_at);
    let html = ReminderHtml {
        title: tr.t("reminder-title"),
        text: view.text,
        due: tr.t_with("reminder-due", &[("when", Arg::Text(&when))]),
        late: view.late_by.map(|late| {
            let late = dates::duration(tr, late);
            tr.t_with("reminder-late", &[("late", Arg::Text(&late))])
        }),
    };
    html.render()
        .expect("the reminder template renders from plain strings")
}

/// The buttons under a reminder: Done, then the four snooze choices.
pub fn reminder_keyboard(tr: Tr, task_id: i64) -> InlineKeyboardMarkup {
    let button =
        |key: &str, action: Action| InlineKeyboardButton::callback(tr.t(key), action.encode());
    let snooze = |key: &str, choice| button(key, Action::Snooze { task_id, choice });
    InlineKeyboardMarkup::new(vec![
        vec![button("button-done", Action::Done { task_id })],
        vec![
            snooze("button-snooze-10m", Snooze::TenMinutes),
            snooze("button-snooze-1h", Snooze::OneHour),
        ],
        vec![
            snooze("button-snooze-tomorrow", Snooze::TomorrowMorning),
            snooze("button-snooze-custom", Snooze::Custom),
        ],
    ])
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::domain::lang::Lang;

    #[test]
    fn a_late_reminder_says_how_late_and_escapes_the_text() {
        let view = ReminderView {
            task_id: 5,
            text: "pay <rent> & tax",
            due_at: Utc.with_ymd_and_hms(2026, 12, 31, 6, 0, 0).unwrap(),
            zone: Tz::Asia__Tashkent,
            late_by: Some(chrono::Duration::minutes(65)),
            now: Utc.with_ymd_and_hms(2026, 12, 31, 7, 5, 0).unwrap(),
        };
        let html = reminder_html(Tr::new(Lang::En), &view);
        assert!(html.contains("pay &#60;rent&#62; &#38; tax"), "{html}");
        assert!(html.contains("Due today at 11:00"), "{html}");
        assert!(html.contains("Late by 1 hour 5 minutes"), "{html}");
        let html = reminder_html(
            Tr::new(Lang::Ru),
            &ReminderView {
                late_by: None,
                ..view
            },
        );
        assert!(
            html.contains("Срок: сегодня в 11:00") && !html.contains("опоздан"),
            "{html}"
        );
    }

    #[test]
    fn the_keyboard_has_done_and_four_snoozes() {
        let keyboard = reminder_keyboard(Tr::new(Lang::En), 9);
        let buttons: usize = keyboard.inline_keyboard.iter().map(Vec::len).sum();
        assert_eq!(buttons, 5);
    }
}
