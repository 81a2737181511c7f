//! The task list: one page of open tasks with their deadlines and reminders, and the buttons
//! under it (per task Done, Snooze, Edit, Delete; then the pages).

use askama::Template;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use super::finish;
use super::keyboards::button;
use crate::callback::{Action, Snooze};
use crate::domain::ids::TaskId;
use crate::i18n::dates::Dates;
use crate::i18n::{Arg, Tr};
use crate::store::tasks::ListedTask;
use crate::text::{RenderError, notice, shorten};

/// Tasks shown per page of `/list`: ten entries of at most two lines and their buttons stay far
/// below Telegram's 4,096 characters and 100 buttons.
pub const PAGE_SIZE: i64 = 10;

/// The longest task text shown in a list entry, in characters.
const LIST_TEXT_CHARS: usize = 120;

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

/// How many pages `total` tasks fill.
pub fn page_count(total: i64) -> i64 {
    ((total + PAGE_SIZE - 1) / PAGE_SIZE).max(1)
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
