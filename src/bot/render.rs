//! What the bot says: askama templates (`templates/*.html`, auto-escaped for Telegram's HTML parse
//! mode) filled with Fluent strings, and the inline keyboards under the messages. Nothing here
//! talks to Telegram or the database, so every message can be snapshot-tested.

use askama::Template;
use chrono::{DateTime, NaiveTime, TimeDelta, Timelike, Utc};
use chrono_tz::Tz;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use crate::callback::{Action, Question, Snooze};
use crate::domain::due::HalfOfDay;
use crate::domain::ids::TaskId;
use crate::domain::lang::Lang;
use crate::domain::lead::Lead;
use crate::domain::timezone::{is_fixed_offset, utc_offset};
use crate::feed::FeedUrls;
use crate::i18n::dates::{self, Dates};
use crate::i18n::repeats::repeats_text;
use crate::i18n::{Arg, Tr};
use crate::store::tasks::{ListedTask, Task};
pub use crate::text::{RenderError, notice, shorten};

/// Zones offered as buttons when the bot asks for a time zone: `(IANA name, key of the city's
/// name)`; a button reads "Tashkent (UTC+5)" in the chat's language, with the offset of the day.
pub const COMMON_ZONES: [(&str, &str); 8] = [
    ("Asia/Tashkent", "zone-tashkent"),
    ("Asia/Samarkand", "zone-samarkand"),
    ("Europe/Moscow", "zone-moscow"),
    ("Asia/Almaty", "zone-almaty"),
    ("Europe/Berlin", "zone-berlin"),
    ("Europe/London", "zone-london"),
    ("America/New_York", "zone-new-york"),
    ("UTC", "zone-utc"),
];

/// Tasks shown per page of `/list`: ten entries of at most two lines and their buttons stay far
/// below Telegram's 4,096 characters and 100 buttons.
pub const PAGE_SIZE: i64 = 10;

/// The longest task text shown in a list entry, in characters.
const LIST_TEXT_CHARS: usize = 120;

/// A message to send: HTML text and an optional inline keyboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// Text in Telegram's HTML parse mode.
    pub text: String,
    /// Buttons under it.
    pub keyboard: Option<InlineKeyboardMarkup>,
    /// A question whose answer is typed: in groups the user's client opens a reply to it, so
    /// that a bot in privacy mode receives the answer.
    pub expects_answer: bool,
}

impl Reply {
    /// A message without buttons.
    pub fn text(text: String) -> Self {
        Self {
            text,
            keyboard: None,
            expects_answer: false,
        }
    }

    /// A question whose answer is typed (see [`Reply::expects_answer`]).
    pub fn question(text: String) -> Self {
        Self {
            expects_answer: true,
            ..Self::text(text)
        }
    }

    /// The same message with buttons.
    #[must_use]
    pub fn with_keyboard(mut self, keyboard: InlineKeyboardMarkup) -> Self {
        self.keyboard = Some(keyboard);
        self
    }
}

#[derive(Template)]
#[template(path = "problem.html")]
struct ProblemHtml<'a> {
    icon: &'a str,
    problem: &'a str,
    hint: Option<&'a str>,
    example_label: &'a str,
    example: &'a str,
}

#[derive(Template)]
#[template(path = "task.html")]
struct TaskHtml<'a> {
    title: &'a str,
    id: TaskId,
    text: &'a str,
    due: &'a str,
    remind: Option<&'a str>,
    repeats: Option<&'a str>,
    paused: Option<&'a str>,
    warning: Option<&'a str>,
}

struct ListItem {
    id: TaskId,
    when: String,
    overdue: bool,
    repeats: bool,
    paused: Option<String>,
    text: String,
    remind: Option<String>,
}

#[derive(Template)]
#[template(path = "list.html")]
struct ListHtml<'a> {
    title: &'a str,
    items: &'a [ListItem],
    page: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "help.html")]
struct HelpHtml<'a> {
    title: &'a str,
    add: &'a str,
    add_example: &'a str,
    lead: &'a str,
    lead_example: &'a str,
    repeat: &'a str,
    repeat_example: &'a str,
    relative: &'a str,
    relative_example: &'a str,
    buttons: &'a str,
    commands: &'a str,
    repeat_more: &'a str,
    nag: &'a str,
    nag_example: &'a str,
    quote: &'a str,
    quote_example: &'a str,
    assumed: &'a str,
    more_commands: &'a str,
    forward: &'a str,
}

#[derive(Template)]
#[template(path = "calendar.html")]
struct CalendarHtml<'a> {
    title: &'a str,
    subscribe: &'a str,
    webcal: &'a str,
    google: &'a str,
    https: &'a str,
    keep_secret: &'a str,
}

fn finish(template: &impl Template) -> Result<String, RenderError> {
    Ok(template.render()?.trim().to_owned())
}

/// A problem with what the user sent: what is wrong, an optional hint, and an example that works.
pub fn problem(
    tr: Tr,
    problem: &str,
    hint: Option<&str>,
    example: &str,
) -> Result<String, RenderError> {
    finish(&ProblemHtml {
        icon: "⚠️",
        problem,
        hint,
        example_label: &tr.t("example-label"),
        example,
    })
}

/// A question (when? which new time?) with the task it is about and an example answer.
pub fn question(
    tr: Tr,
    question: &str,
    about: Option<&str>,
    example: &str,
) -> Result<String, RenderError> {
    finish(&ProblemHtml {
        icon: "❓",
        problem: question,
        hint: about,
        example_label: &tr.t("example-label"),
        example,
    })
}

/// A task card (after creating, changing or restoring a task): text, deadline, the reminder
/// (`next_reminder`, the one waiting to be sent) and the schedule of a recurring task, all in
/// `tz` as seen at `now`, days with their weekday. It says when a lead was cut short because it
/// would have fallen in the past, and when the deadline has passed with no reminder to come; a
/// repeat that is `paused` says so instead of either.
pub fn task_card(
    tr: Tr,
    title_key: &str,
    task: &Task,
    next_reminder: Option<DateTime<Utc>>,
    paused: bool,
    tz: Tz,
    now: DateTime<Utc>,
) -> Result<String, RenderError> {
    let dates = Dates::new(tr, tz, now);
    let due = tr.t_with(
        "task-due",
        &[("when", Arg::Text(&dates.moment_with_weekday(task.due_at)))],
    );
    let lead = dates::lead(tr, task.lead);
    let remind = match next_reminder {
        _ if task.lead.is_zero() || paused => None,
        Some(at) if at == task.due_at - task.lead.duration() => Some(tr.t_with(
            "task-remind",
            &[(
                "when",
                Arg::Text(&format!("{} ({lead})", dates.moment_with_weekday(at))),
            )],
        )),
        // The lead would have fallen in the past: the reminder comes at the deadline.
        Some(at) if at == task.due_at => Some(tr.t_with(
            "task-remind-clamped",
            &[
                ("when", Arg::Text(&dates.moment_with_weekday(at))),
                ("lead", Arg::Text(&lead)),
            ],
        )),
        // A snooze or a nag comes first.
        Some(at) => Some(tr.t_with(
            "task-remind",
            &[("when", Arg::Text(&dates.moment_with_weekday(at)))],
        )),
        None if task.due_at > now => Some(tr.t("task-remind-sent")),
        None => None,
    };
    let warning =
        (next_reminder.is_none() && task.due_at <= now && !paused).then(|| tr.t("task-overdue"));
    let paused = paused.then(|| tr.t_with("task-paused", &[("id", Arg::Number(task.id.0))]));
    let repeats = task.recurrence.as_ref().map(|rule| {
        tr.t_with(
            "task-repeats",
            &[("rule", Arg::Text(&repeats_text(tr, rule)))],
        )
    });
    finish(&TaskHtml {
        title: &tr.t(title_key),
        id: task.id,
        text: &task.text,
        due: &due,
        remind: remind.as_deref(),
        repeats: repeats.as_deref(),
        paused: paused.as_deref(),
        warning: warning.as_deref(),
    })
}

/// One page of the task list (`page` counts from 0) with `total` open tasks in all, due times in
/// `tz` as seen at `now`: each task's deadline (marked when it has passed), whether it repeats
/// (and whether that repeat is paused), and its next reminder when that is not at the deadline
/// (a lead time, a snooze).
pub fn task_list(
    tr: Tr,
    tasks: &[ListedTask],
    page: u32,
    total: i64,
    tz: Tz,
    now: DateTime<Utc>,
) -> Result<String, RenderError> {
    if total == 0 {
        return notice(None, &[tr.t("list-empty")]);
    }
    let pages = page_count(total);
    let dates = Dates::new(tr, tz, now);
    let items: Vec<ListItem> = tasks
        .iter()
        .map(
            |ListedTask {
                 task,
                 next_reminder,
                 on_hold,
             }| {
                // A paused repeat waits for its user, not for its time.
                let overdue = task.due_at <= now && !on_hold;
                let when = dates.moment(task.due_at);
                ListItem {
                    id: task.id,
                    when: if overdue {
                        tr.t_with("list-overdue", &[("when", Arg::Text(&when))])
                    } else {
                        when
                    },
                    overdue,
                    repeats: task.recurs(),
                    paused: on_hold.then(|| tr.t("list-paused")),
                    text: shorten(&task.text, LIST_TEXT_CHARS),
                    remind: next_reminder.filter(|at| *at != task.due_at).map(|at| {
                        tr.t_with("list-remind", &[("when", Arg::Text(&dates.moment(at)))])
                    }),
                }
            },
        )
        .collect();
    let page_line = (pages > 1).then(|| {
        tr.t_with(
            "list-page",
            &[
                ("page", Arg::Number(i64::from(page) + 1)),
                ("pages", Arg::Number(pages)),
            ],
        )
    });
    finish(&ListHtml {
        title: &tr.t_with("list-title", &[("count", Arg::Number(total))]),
        items: &items,
        page: page_line.as_deref(),
    })
}

/// The `/help` text: task phrases, relative times, leads, repeats (the richer ones too),
/// nagging until done, reminders about a message, the buttons, what the bot says when it guesses,
/// the commands (with /agenda and /export) and a location for the zone.
pub fn help(tr: Tr) -> Result<String, RenderError> {
    finish(&HelpHtml {
        title: &tr.t("help-title"),
        add: &tr.t("help-add"),
        add_example: &tr.t("add-example"),
        lead: &tr.t("help-lead"),
        lead_example: &tr.t("lead-example"),
        repeat: &tr.t("help-repeat"),
        repeat_example: &tr.t("repeat-example"),
        relative: &tr.t("help-relative"),
        relative_example: &tr.t("relative-example"),
        buttons: &tr.t("help-buttons"),
        commands: &tr.t("help-commands"),
        repeat_more: &tr.t("help-repeat-more"),
        nag: &tr.t("help-nag"),
        nag_example: &tr.t("nag-example"),
        quote: &tr.t("help-quote"),
        quote_example: &tr.t("quote-example"),
        assumed: &tr.t("help-assumed"),
        more_commands: &tr.t("help-more-commands"),
        forward: &tr.t("help-forward"),
    })
}

/// How to subscribe to the chat's calendar feed at `urls`: the `webcal://` link for Apple
/// Calendar, Outlook and Thunderbird, the `https://` one for Google Calendar, and to keep them
/// secret.
pub fn calendar_links(tr: Tr, urls: &FeedUrls) -> Result<String, RenderError> {
    finish(&CalendarHtml {
        title: &tr.t("calendar-title"),
        subscribe: &tr.t("calendar-subscribe"),
        webcal: &urls.webcal,
        google: &tr.t("calendar-google"),
        https: &urls.https,
        keep_secret: &tr.t("calendar-keep-secret"),
    })
}

/// Under the answer to `/calendar` in a chat that has a feed URL: make a new one.
pub fn calendar_new_keyboard(tr: Tr) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[button(tr.t("button-calendar-new"), Action::CalendarNew)]])
}

/// How many pages `total` tasks fill.
pub fn page_count(total: i64) -> i64 {
    ((total + PAGE_SIZE - 1) / PAGE_SIZE).max(1)
}

fn button(label: String, action: Action) -> InlineKeyboardButton {
    InlineKeyboardButton::callback(label, action.encode())
}

/// Under a new or changed task: undo that (the change recorded as `undo_id`), or change its time.
pub fn confirm_keyboard(tr: Tr, undo_id: i64, task_id: TaskId) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[
        button(tr.t("button-undo"), Action::UndoChange { undo_id }),
        button(tr.t("button-change-time"), Action::Edit { task_id }),
    ]])
}

/// Under the answer to Done or Delete: undo it (the change recorded as `undo_id`).
pub fn undo_keyboard(tr: Tr, undo_id: i64) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[button(tr.t("button-undo"), Action::UndoChange { undo_id })]])
}

/// Under a task put back by Undo: change its time.
pub fn change_time_keyboard(tr: Tr, task_id: TaskId) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[button(tr.t("button-change-time"), Action::Edit { task_id })]])
}

/// Under a question in a private chat: its own buttons (`rows`), then Cancel, which closes
/// `question`.
pub fn question_keyboard(
    tr: Tr,
    question: Question,
    rows: Vec<Vec<InlineKeyboardButton>>,
) -> InlineKeyboardMarkup {
    asking_keyboard(tr, question, None, rows)
}

/// Under a question: its own buttons (`rows`), then Cancel, which closes `question`; in a group
/// the Cancel button names the `asker`, whose question it is, so that nobody else's tap closes
/// it or takes its buttons.
pub fn asking_keyboard(
    tr: Tr,
    question: Question,
    asker: Option<i64>,
    mut rows: Vec<Vec<InlineKeyboardButton>>,
) -> InlineKeyboardMarkup {
    rows.push(vec![button(
        tr.t("button-cancel"),
        Action::Cancel { question, asker },
    )]);
    InlineKeyboardMarkup::new(rows)
}

/// The label of the button that shows (and reloads) list page `page` of `pages`: `2/5`.
fn page_indicator(page: u32, pages: i64) -> String {
    format!("{}/{pages}", i64::from(page) + 1)
}

/// Whether `label` is the indicator of page `page` (so the list message shows that page).
pub fn is_page_indicator(label: &str, page: u32) -> bool {
    label
        .split_once('/')
        .and_then(|(shown, _)| shown.parse::<i64>().ok())
        .is_some_and(|shown| shown == i64::from(page) + 1)
}

/// Under a list page: per task Done, Snooze, Edit and Delete, then back, the page indicator
/// (which reloads the page) and next.
pub fn list_keyboard(tr: Tr, tasks: &[ListedTask], page: u32, total: i64) -> InlineKeyboardMarkup {
    let mut rows: Vec<Vec<InlineKeyboardButton>> = tasks
        .iter()
        .map(|listed| {
            let task_id = listed.task.id;
            vec![
                button(format!("✅ {task_id}"), Action::Done { task_id }),
                button(
                    format!("💤 {task_id}"),
                    Action::Snooze {
                        task_id,
                        choice: Snooze::Custom,
                    },
                ),
                button(format!("✏️ {task_id}"), Action::Edit { task_id }),
                button(format!("🗑 {task_id}"), Action::Delete { task_id }),
            ]
        })
        .collect();
    let mut paging = Vec::new();
    if page > 0 {
        paging.push(button(
            tr.t("button-prev"),
            Action::ListPage { page: page - 1 },
        ));
    }
    let pages = page_count(total);
    if pages > 1 {
        paging.push(button(
            page_indicator(page, pages),
            Action::ListPage { page },
        ));
    }
    if i64::from(page) + 1 < pages {
        paging.push(button(
            tr.t("button-next"),
            Action::ListPage { page: page + 1 },
        ));
    }
    if !paging.is_empty() {
        rows.push(paging);
    }
    InlineKeyboardMarkup::new(rows)
}

/// The snooze choices for a task, one row.
pub fn snooze_choices(tr: Tr, task_id: TaskId) -> Vec<InlineKeyboardButton> {
    let choice = |key: &str, choice| button(tr.t(key), Action::Snooze { task_id, choice });
    vec![
        choice("button-snooze-10m", Snooze::TenMinutes),
        choice("button-snooze-1h", Snooze::OneHour),
        choice("button-snooze-tomorrow", Snooze::TomorrowMorning),
    ]
}

/// The common time zones, two per row: each city in `tr`'s language with its offset at `now`
/// ("Tashkent (UTC+5)"; UTC alone as "UTC").
pub fn zone_keyboard(tr: Tr, now: DateTime<Utc>) -> InlineKeyboardMarkup {
    let buttons: Vec<InlineKeyboardButton> = COMMON_ZONES
        .iter()
        .zip(0u8..)
        .map(|((name, key), index)| {
            let city = tr.t(key);
            let label = match name.parse::<Tz>() {
                Ok(tz) if !is_fixed_offset(tz) => format!("{city} ({})", utc_offset(tz, now)),
                _ => city,
            };
            button(label, Action::Zone { index })
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(2).map(<[_]>::to_vec))
}

/// The zone question's buttons: the common zones ([`zone_keyboard`]) and a Cancel row that
/// closes the question (onboarding, `/tz`, a task waiting for its zone).
pub fn zone_question_keyboard(tr: Tr, now: DateTime<Utc>) -> InlineKeyboardMarkup {
    zone_asking_keyboard(tr, now, None)
}

/// The zone question's buttons ([`zone_question_keyboard`]), its Cancel naming the `asker` in a
/// group ([`asking_keyboard`]).
pub fn zone_asking_keyboard(
    tr: Tr,
    now: DateTime<Utc>,
    asker: Option<i64>,
) -> InlineKeyboardMarkup {
    asking_keyboard(
        tr,
        Question::TimeZone,
        asker,
        zone_keyboard(tr, now).inline_keyboard,
    )
}

/// The languages, each in its own name, Uzbek in both scripts; two per row, the chat's
/// `current` one ticked.
pub fn language_keyboard(current: Lang) -> InlineKeyboardMarkup {
    let label = |lang: Lang| match lang {
        Lang::En => "English",
        Lang::Ru => "Русский",
        Lang::Uz => "O'zbekcha",
        Lang::UzCyrl => "Ўзбекча",
    };
    let buttons: Vec<InlineKeyboardButton> = Lang::CHOICES
        .iter()
        .zip(0u8..)
        .map(|(lang, index)| {
            let label = if *lang == current {
                format!("✓ {}", label(*lang))
            } else {
                label(*lang).to_owned()
            };
            button(label, Action::Language { index })
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(2).map(<[_]>::to_vec))
}

/// The lead times `/settings` offers as buttons, in minutes: none, 5, 15 and 30 minutes, an hour,
/// a day.
pub const LEAD_CHOICES_MINUTES: [u32; 6] = [0, 5, 15, 30, 60, 1440];

/// The lead-time buttons of `/settings`, three per row, the chat's `current` one ticked.
pub fn lead_keyboard(tr: Tr, current: Lead) -> InlineKeyboardMarkup {
    let buttons: Vec<InlineKeyboardButton> = LEAD_CHOICES_MINUTES
        .iter()
        .map(|&minutes| {
            let lead = Lead::from_secs(i64::from(minutes) * 60).unwrap_or_default();
            let label = if minutes == 0 {
                tr.t("button-lead-none")
            } else {
                dates::duration(tr, lead.duration())
            };
            let label = if lead == current {
                format!("✓ {label}")
            } else {
                label
            };
            button(label, Action::Lead { minutes })
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(3).map(<[_]>::to_vec))
}

/// The two readings of an hour said without am/pm on a named day, as buttons under the new
/// task's card: the morning and the evening one of `chosen`'s hour ("06:00", "18:00"), the
/// chosen one ticked; a tap reads the hour in that half of the day.
pub fn hour_choice_row(task_id: TaskId, chosen: NaiveTime) -> Vec<InlineKeyboardButton> {
    let morning = chosen.with_hour(chosen.hour() % 12).unwrap_or(chosen);
    [
        (morning, HalfOfDay::Morning),
        (morning + TimeDelta::hours(12), HalfOfDay::Evening),
    ]
    .into_iter()
    .map(|(time, half)| {
        let clock = time.format("%H:%M").to_string();
        let label = if time == chosen {
            format!("✓ {clock}")
        } else {
            clock
        };
        button(label, Action::PickHour { task_id, half })
    })
    .collect()
}
