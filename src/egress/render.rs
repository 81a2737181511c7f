//! The reminder message: Telegram HTML from `templates/reminder.html` in the chat's language and
//! time zone, with a "late by" line when it goes out late, the message it quotes and a nag's count
//! when it has them, and the Done, Snooze and Keep reminding buttons. Dates and durations are
//! worded by [`crate::i18n::dates`].

use askama::Template;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use crate::callback::{Action, Snooze};
use crate::domain::ids::TaskId;
use crate::i18n::dates::{self, Dates};
use crate::i18n::{Arg, Tr};

/// One reminder, ready to render.
#[derive(Clone, Debug)]
pub struct ReminderView<'a> {
    /// The task's id (for the buttons).
    pub task_id: TaskId,
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

/// What a reminder may carry besides its task.
#[derive(Clone, Debug, Default)]
pub struct ReminderExtras<'a> {
    /// The message the task reminds of (its text, caption or a placeholder), shown as a quote; it
    /// stands in for the task's text while that is the quote's own preview
    /// ([`crate::store::quotes::preview`]).
    pub quote: Option<&'a str>,
    /// A line under the due time (where a nag stands).
    pub note: Option<String>,
}

#[derive(Template)]
#[template(path = "reminder.html")]
struct ReminderHtml<'a> {
    title: String,
    text: Option<&'a str>,
    quote: Option<String>,
    due: String,
    late: Option<String>,
    note: Option<&'a str>,
}

/// The message text (Telegram HTML, every value escaped).
pub fn reminder_html(tr: Tr, view: &ReminderView<'_>) -> String {
    reminder_html_with(tr, view, &ReminderExtras::default())
}

/// The message text with its extras (Telegram HTML, every value escaped). A long quote is cut so
/// that the whole message stays within Telegram's 4,096 characters.
pub fn reminder_html_with(tr: Tr, view: &ReminderView<'_>, extras: &ReminderExtras<'_>) -> String {
    let when = Dates::new(tr, view.zone, view.now).moment(view.due_at);
    let quote_stands_for_text = extras
        .quote
        .is_some_and(|quote| crate::store::quotes::preview(quote) == view.text);
    let mut html = ReminderHtml {
        title: tr.t("reminder-title"),
        text: (!quote_stands_for_text).then_some(view.text),
        quote: None,
        due: tr.t_with("reminder-due", &[("when", Arg::Text(&when))]),
        late: view.late_by.map(|late| {
            let late = dates::duration(tr, late);
            tr.t_with("reminder-late", &[("late", Arg::Text(&late))])
        }),
        note: extras.note.as_deref(),
    };
    if let Some(quote) = extras.quote {
        let rest = [
            Some(html.title.as_str()),
            html.text,
            Some(html.due.as_str()),
            html.late.as_deref(),
            html.note,
        ];
        let used: usize = rest.iter().flatten().map(|part| utf16_len(part)).sum();
        // The clock emoji, the line breaks and a margin.
        let budget = TELEGRAM_MAX_TEXT.saturating_sub(used + 16);
        html.quote = Some(cut_utf16(quote, budget));
    }
    html.render()
        .expect("the reminder template renders from plain strings")
}

/// Telegram's longest message, in UTF-16 code units after entity parsing.
const TELEGRAM_MAX_TEXT: usize = 4096;

fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// `text` cut to at most `max` UTF-16 code units, with an ellipsis when cut.
fn cut_utf16(text: &str, max: usize) -> String {
    if utf16_len(text) <= max {
        return text.to_owned();
    }
    let mut used = 1;
    let mut cut: String = text
        .chars()
        .take_while(|c| {
            used += c.len_utf16();
            used <= max
        })
        .collect();
    cut.push('…');
    cut
}

/// The buttons under a reminder: Done, the four snooze choices, and Keep reminding.
pub fn reminder_keyboard(tr: Tr, task_id: TaskId) -> InlineKeyboardMarkup {
    keyboard(tr, task_id, true)
}

/// The buttons under a nag (a reminder repeated until done): Done and the four snooze choices.
pub fn nag_keyboard(tr: Tr, task_id: TaskId) -> InlineKeyboardMarkup {
    keyboard(tr, task_id, false)
}

fn keyboard(tr: Tr, task_id: TaskId, keep_reminding: bool) -> InlineKeyboardMarkup {
    let button =
        |key: &str, action: Action| InlineKeyboardButton::callback(tr.t(key), action.encode());
    let snooze = |key: &str, choice| button(key, Action::Snooze { task_id, choice });
    let mut rows = vec![
        vec![button("button-done", Action::Done { task_id })],
        vec![
            snooze("button-snooze-10m", Snooze::TenMinutes),
            snooze("button-snooze-1h", Snooze::OneHour),
        ],
        vec![
            snooze("button-snooze-tomorrow", Snooze::TomorrowMorning),
            snooze("button-snooze-custom", Snooze::Custom),
        ],
    ];
    if keep_reminding {
        rows.push(vec![button(
            "button-keep-reminding",
            Action::Nag { task_id },
        )]);
    }
    InlineKeyboardMarkup::new(rows)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::domain::lang::Lang;

    #[test]
    fn a_late_reminder_says_how_late_and_escapes_the_text() {
        let view = ReminderView {
            task_id: TaskId(5),
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
    fn the_keyboard_has_done_four_snoozes_and_keep_reminding() {
        let count = |keyboard: InlineKeyboardMarkup| -> usize {
            keyboard.inline_keyboard.iter().map(Vec::len).sum()
        };
        assert_eq!(count(reminder_keyboard(Tr::new(Lang::En), TaskId(9))), 6);
        assert_eq!(count(nag_keyboard(Tr::new(Lang::En), TaskId(9))), 5);
    }

    #[test]
    fn a_quote_is_cut_to_fit_telegram_and_escaped() {
        let quote = format!("<b>{}", "😀".repeat(5000));
        let view = ReminderView {
            task_id: TaskId(5),
            text: "a long one",
            due_at: Utc.with_ymd_and_hms(2026, 12, 31, 6, 0, 0).unwrap(),
            zone: Tz::Asia__Tashkent,
            late_by: Some(chrono::Duration::minutes(65)),
            now: Utc.with_ymd_and_hms(2026, 12, 31, 7, 5, 0).unwrap(),
        };
        let extras = ReminderExtras {
            quote: Some(&quote),
            note: Some("a note".into()),
        };
        let html = reminder_html_with(Tr::new(Lang::En), &view, &extras);
        assert!(
            html.contains("<blockquote expandable>&#60;b&#62;😀"),
            "{html}"
        );
        assert!(html.contains("a long one") && html.contains("…</blockquote>"));
        let shown = visible(&html);
        assert!(utf16_len(&shown) <= TELEGRAM_MAX_TEXT, "{shown}");
        assert!(utf16_len(&shown) > TELEGRAM_MAX_TEXT - 40, "{shown}");
    }

    /// What Telegram shows of `html`: without its tags, each escape one character.
    fn visible(html: &str) -> String {
        let (mut out, mut in_tag, mut in_escape) = (String::new(), false, false);
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                '&' if !in_tag => {
                    in_escape = true;
                    out.push('&');
                }
                ';' if in_escape => in_escape = false,
                _ if in_tag || in_escape => {}
                c => out.push(c),
            }
        }
        out
    }
}
