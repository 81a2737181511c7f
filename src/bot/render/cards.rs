//! The messages about one thing: a task's card, a problem with what the user sent, a question
//! with an example answer, and the `/help` text.

use askama::Template;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::finish;
use crate::domain::ids::TaskId;
use crate::i18n::dates::{self, Dates};
use crate::i18n::repeats::repeats_text;
use crate::i18n::{Arg, Tr};
use crate::store::tasks::Task;
use crate::text::RenderError;

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
