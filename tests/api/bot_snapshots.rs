//! Snapshots of every message template in every language, with user text that needs escaping, so
//! a change to a template or a translation shows up in review. Each snapshot holds the HTML sent
//! to Telegram and the buttons under it. Dates as each language writes them have snapshots of
//! their own, one per language and case.

use chrono::{DateTime, TimeZone, Utc};
use remindbot::bot::render::{self, Reply};
use remindbot::callback::Question;
use remindbot::domain::ids::{ChatId, TaskId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::lead::Lead;
use remindbot::domain::timezone::parse_zone;
use remindbot::i18n::dates::{self, Dates};
use remindbot::i18n::{Arg, Tr};
use remindbot::store::tasks::{ListedTask, Task};

fn task(id: i64, text: &str, lead_secs: i32, rule: Option<&str>) -> Task {
    Task {
        id: TaskId(id),
        chat_id: ChatId(1),
        owner_id: UserId(1),
        text: text.to_owned(),
        due_at: Utc.with_ymd_and_hms(2026, 12, 31, 5, 0, 0).unwrap(),
        lead: remindbot::domain::lead::Lead::from_secs(i64::from(lead_secs)).unwrap(),
        recurrence: rule.map(|rule| {
            remindbot::domain::recurrence::Recurrence::parse_rule_string(rule).unwrap()
        }),
        zone: chrono_tz::Tz::Asia__Tashkent,
        state: remindbot::store::types::TaskState::Open,
    }
}

/// When the template snapshots are rendered: a month before the tasks' 31 December deadline.
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

fn show(reply: Reply) -> String {
    let mut out = reply.text;
    for row in reply
        .keyboard
        .map(|k| k.inline_keyboard)
        .unwrap_or_default()
    {
        out.push_str("\n[");
        let labels: Vec<String> = row
            .iter()
            .map(|b| match &b.kind {
                teloxide::types::InlineKeyboardButtonKind::CallbackData(data) => {
                    format!("{} → {data}", b.text)
                }
                other => format!("{} → {other:?}", b.text),
            })
            .collect();
        out.push_str(&labels.join(" | "));
        out.push(']');
    }
    out
}

#[test]
fn bot_every_template_in_every_language() {
    let zone = parse_zone("Asia/Tashkent").unwrap();
    let tricky = "pay <b>rent</b> & \"fees\" 'now'";
    for lang in Lang::ALL {
        let tr = Tr::new(lang);
        let snap = |name: &str, reply: Reply| {
            insta::assert_snapshot!(format!("bot_{lang}_{name}"), show(reply));
        };
        snap(
            "notice_start",
            Reply::text(render::notice(None, &[tr.t("start-welcome"), tr.t("tz-ask")]).unwrap())
                .with_keyboard(render::zone_question_keyboard(tr, now())),
        );
        snap(
            "notice_languages",
            Reply::text(render::notice(None, &[tr.t("lang-ask")]).unwrap())
                .with_keyboard(render::language_keyboard(lang)),
        );
        snap(
            "problem_invalid_time",
            Reply::text(
                render::problem(
                    tr,
                    &tr.t_with("err-invalid-time", &[("time", Arg::Text("25:61"))]),
                    None,
                    &tr.t("when-example"),
                )
                .unwrap(),
            ),
        );
        let question = |key: &str, example: &str, question, rows| {
            Reply::question(render::question(tr, &tr.t(key), Some(tricky), &tr.t(example)).unwrap())
                .with_keyboard(render::question_keyboard(tr, question, rows))
        };
        snap(
            "question_when",
            question(
                "ask-when",
                "when-example",
                Question::NewTaskTime,
                Vec::new(),
            ),
        );
        snap(
            "question_when_still",
            question(
                "ask-when-still",
                "when-example",
                Question::NewTaskTime,
                Vec::new(),
            ),
        );
        snap(
            "question_edit",
            question(
                "ask-edit",
                "edit-example",
                Question::EditTask { task_id: TaskId(7) },
                Vec::new(),
            ),
        );
        snap(
            "question_snooze",
            question(
                "ask-snooze",
                "snooze-example",
                Question::SnoozeTime { task_id: TaskId(7) },
                vec![render::snooze_choices(tr, TaskId(7))],
            ),
        );
        let card = |key: &str, task: &Task, next_reminder, now| {
            render::task_card(tr, key, task, next_reminder, false, zone, now).unwrap()
        };
        let saved = task(7, tricky, 0, None);
        snap(
            "task_saved",
            Reply::text(card("task-saved", &saved, Some(saved.due_at), now()))
                .with_keyboard(render::confirm_keyboard(tr, 31, TaskId(7))),
        );
        // "call bob in 10 minutes" with a 30-minute lead: the reminder comes at the deadline.
        let soon = Task {
            due_at: now() + chrono::Duration::minutes(10),
            ..task(9, "call bob", 1800, None)
        };
        snap(
            "task_saved_lead_clamped",
            Reply::text(card("task-saved", &soon, Some(soon.due_at), now()))
                .with_keyboard(render::confirm_keyboard(tr, 32, TaskId(9))),
        );
        let standup = task(
            8,
            "standup",
            1800,
            Some("FREQ=DAILY;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
        );
        snap(
            "task_changed_with_lead_and_rule",
            Reply::text(card(
                "task-changed",
                &standup,
                Some(standup.due_at - chrono::Duration::minutes(30)),
                now(),
            ))
            .with_keyboard(render::confirm_keyboard(tr, 33, TaskId(8))),
        );
        // Tomorrow's deadline is named with its weekday.
        snap(
            "task_changed_tomorrow",
            Reply::text(card(
                "task-changed",
                &saved,
                Some(saved.due_at),
                saved.due_at - chrono::Duration::hours(20),
            ))
            .with_keyboard(render::confirm_keyboard(tr, 34, TaskId(7))),
        );
        snap(
            "task_undo_edit",
            Reply::text(card("undo-edit-title", &standup, None, now()))
                .with_keyboard(render::change_time_keyboard(tr, TaskId(8))),
        );
        snap(
            "task_undo_done_time_passed",
            Reply::text(card(
                "undo-done-title",
                &saved,
                None,
                saved.due_at + chrono::Duration::hours(2),
            ))
            .with_keyboard(render::change_time_keyboard(tr, TaskId(7))),
        );
        snap(
            "task_undo_delete",
            Reply::text(card(
                "undo-delete-title",
                &standup,
                Some(standup.due_at - chrono::Duration::minutes(30)),
                now(),
            ))
            .with_keyboard(render::change_time_keyboard(tr, TaskId(8))),
        );
        snap(
            "done_with_undo",
            Reply::text(
                render::notice(
                    None,
                    &[tr.t_with("done-ok", &[("text", Arg::Text(tricky))])],
                )
                .unwrap(),
            )
            .with_keyboard(render::undo_keyboard(tr, 35)),
        );
        snap(
            "deleted_with_undo",
            Reply::text(
                render::notice(
                    None,
                    &[tr.t_with("deleted", &[("text", Arg::Text(tricky))])],
                )
                .unwrap(),
            )
            .with_keyboard(render::undo_keyboard(tr, 36)),
        );
        snap(
            "undo_and_cancel_answers",
            Reply::text(
                [
                    tr.t("undo-used"),
                    tr.t("undo-outdated"),
                    tr.t("callback-undone"),
                    tr.t_with("undone", &[("text", Arg::Text(tricky))]),
                    tr.t("callback-cancelled"),
                    tr.t("cancel-nothing"),
                    tr.t_with("cancel-dropped", &[("text", Arg::Text(tricky))]),
                    tr.t_with("cancel-edit", &[("id", Arg::Number(7))]),
                    tr.t_with("cancel-snooze", &[("id", Arg::Number(7))]),
                    tr.t("cancel-zone"),
                    tr.t("cancel-zone-none"),
                ]
                .join("\n"),
            ),
        );
        let listed = |task: Task, next_reminder| ListedTask {
            task,
            next_reminder,
            on_hold: false,
        };
        let tasks = [
            // Overdue, its reminder sent.
            listed(
                Task {
                    due_at: now() - chrono::Duration::hours(3),
                    ..task(6, "water the plants", 0, None)
                },
                None,
            ),
            // Snoozed until later today.
            listed(
                task(7, tricky, 0, None),
                Some(now() + chrono::Duration::hours(2)),
            ),
            listed(
                task(
                    8,
                    &"long ".repeat(60),
                    1800,
                    Some("FREQ=DAILY;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
                ),
                Some(saved.due_at - chrono::Duration::minutes(30)),
            ),
        ];
        snap(
            "list_page",
            Reply::text(render::task_list(tr, &tasks, 1, 12, zone, now()).unwrap())
                .with_keyboard(render::list_keyboard(tr, &tasks, 1, 12)),
        );
        // A paused repeat (issue 24): the card and the list say so, and its past occurrence is
        // not overdue.
        let paused = Task {
            due_at: now() - chrono::Duration::hours(3),
            ..task(
                9,
                "stretch",
                0,
                Some("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0"),
            )
        };
        snap(
            "task_paused",
            Reply::text(
                render::task_card(tr, "task-changed", &paused, None, true, zone, now()).unwrap(),
            ),
        );
        let listed_paused = [ListedTask {
            task: paused,
            next_reminder: None,
            on_hold: true,
        }];
        snap(
            "list_paused",
            Reply::text(render::task_list(tr, &listed_paused, 0, 1, zone, now()).unwrap()),
        );
        snap(
            "list_empty",
            Reply::text(render::task_list(tr, &[], 0, 0, zone, now()).unwrap()),
        );
        snap("help", Reply::text(render::help(tr).unwrap()));
        snap(
            "lead_times",
            Reply::text(
                [0, 60, 180, 300, 1260, 3600, 7200, 86_400, 172_800]
                    .map(|secs| dates::lead(tr, Lead::from_secs(secs).unwrap()))
                    .join("\n"),
            ),
        );
    }
}

/// The messages of zones and first contact, `/settings` and `/export` (issue 14) in `tr`'s
/// language, by name.
fn first_contact_and_export(tr: Tr) -> Vec<(&'static str, Reply)> {
    let zone = parse_zone("Asia/Tashkent").unwrap();
    let local_now = Dates::new(tr, zone, now()).date_time(now());
    let tz_line = |key: &str, label: &str| {
        tr.t_with(
            key,
            &[("tz", Arg::Text(label)), ("now", Arg::Text(&local_now))],
        )
    };
    let lead = dates::lead(tr, Lead::from_secs(900).unwrap());
    vec![
        (
            "zone_question",
            Reply::text(render::notice(None, &[tr.t("tz-ask")]).unwrap())
                .with_keyboard(render::zone_question_keyboard(tr, now())),
        ),
        (
            "zone_share_location",
            Reply::text(render::notice(None, &[tr.t("tz-share-location")]).unwrap()),
        ),
        (
            "zone_set_first_contact",
            Reply::text(
                render::notice(
                    None,
                    &[
                        tz_line("tz-set", "Asia/Tashkent (UTC+5)"),
                        tr.t("first-task-hint"),
                    ],
                )
                .unwrap(),
            ),
        ),
        (
            "zone_set_offset",
            Reply::text(render::notice(None, &[tz_line("tz-set", "UTC+5")]).unwrap()),
        ),
        (
            "zone_current",
            Reply::text(
                render::notice(
                    None,
                    &[
                        tz_line("tz-current", "Asia/Tashkent (UTC+5)"),
                        tr.t("tz-ask"),
                    ],
                )
                .unwrap(),
            ),
        ),
        (
            "zone_location_bad",
            Reply::text(
                render::problem(tr, &tr.t("tz-location-bad"), None, &tr.t("tz-example")).unwrap(),
            ),
        ),
        (
            "settings_lead_buttons",
            Reply::text(
                render::notice(
                    None,
                    &[
                        tz_line("tz-current", "Asia/Tashkent (UTC+5)"),
                        tr.t_with("settings-current", &[("lead", Arg::Text(&lead))]),
                        tr.t("settings-usage"),
                    ],
                )
                .unwrap(),
            )
            .with_keyboard(render::lead_keyboard(tr, Lead::from_secs(900).unwrap())),
        ),
        ("settings_saved_toast", Reply::text(tr.t("settings-saved"))),
        (
            "export_captions",
            Reply::text(
                render::notice(
                    None,
                    &[
                        tr.t_with("export-calendar", &[("count", Arg::Number(1))]),
                        tr.t_with("export-calendar", &[("count", Arg::Number(3))]),
                        tr.t_with("export-calendar", &[("count", Arg::Number(25))]),
                        tr.t_with(
                            "export-capped",
                            &[("max", Arg::Number(1000)), ("count", Arg::Number(1200))],
                        ),
                        tr.t("export-table"),
                    ],
                )
                .unwrap(),
            ),
        ),
        (
            "export_empty",
            Reply::text(render::notice(None, &[tr.t("export-empty")]).unwrap()),
        ),
        ("command_export", Reply::text(tr.t("cmd-export"))),
    ]
}

#[test]
fn bot_first_contact_settings_and_export_in_every_language() {
    for lang in Lang::ALL {
        for (name, reply) in first_contact_and_export(Tr::new(lang)) {
            insta::assert_snapshot!(format!("bot_{lang}_{name}"), show(reply));
        }
    }
}

/// Key messages in Uzbek written in Cyrillic: the bot's words transliterated, what the user wrote
/// (and HTML, commands, zone names, numbers) as it was.
#[test]
fn bot_key_messages_in_uzbek_cyrillic() {
    let tr = Tr::new(Lang::UzCyrl);
    let zone = parse_zone("Asia/Tashkent").unwrap();
    let tricky = "pay <b>rent</b> & o'zbek \"yo'q\"";
    let snap = |name: &str, reply: Reply| {
        insta::assert_snapshot!(format!("bot_uz-Cyrl_{name}"), show(reply));
    };
    snap(
        "notice_start",
        Reply::text(render::notice(None, &[tr.t("start-welcome"), tr.t("tz-ask")]).unwrap())
            .with_keyboard(render::zone_question_keyboard(tr, now())),
    );
    snap(
        "notice_languages",
        Reply::text(render::notice(None, &[tr.t("lang-set")]).unwrap())
            .with_keyboard(render::language_keyboard(Lang::UzCyrl)),
    );
    let monthly = task(
        8,
        tricky,
        1800,
        Some("FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
    );
    snap(
        "task_changed_with_lead_and_rule",
        Reply::text(
            render::task_card(
                tr,
                "task-changed",
                &monthly,
                Some(monthly.due_at - chrono::Duration::minutes(30)),
                false,
                zone,
                now(),
            )
            .unwrap(),
        )
        .with_keyboard(render::confirm_keyboard(tr, 35, TaskId(8))),
    );
    snap(
        "list_page",
        Reply::text(
            render::task_list(
                tr,
                &[ListedTask {
                    task: task(7, tricky, 0, None),
                    next_reminder: None,
                    on_hold: false,
                }],
                0,
                1,
                zone,
                now(),
            )
            .unwrap(),
        ),
    );
    // A paused repeat: its card and its line in the list say so, transliterated.
    let paused = task(
        9,
        "stretch",
        0,
        Some("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0"),
    );
    snap(
        "task_paused",
        Reply::text(
            render::task_card(tr, "task-changed", &paused, None, true, zone, now()).unwrap(),
        ),
    );
    let listed_paused = [ListedTask {
        task: paused,
        next_reminder: None,
        on_hold: true,
    }];
    snap(
        "list_paused",
        Reply::text(render::task_list(tr, &listed_paused, 0, 1, zone, now()).unwrap()),
    );
    snap(
        "problem_past",
        Reply::text(
            render::problem(
                tr,
                &tr.t_with(
                    "err-past",
                    &[(
                        "when",
                        Arg::Text(&Dates::new(tr, zone, now()).moment(utc(2026, 9, 30, 4, 0))),
                    )],
                ),
                None,
                &tr.t("when-example"),
            )
            .unwrap(),
        ),
    );
    snap("help", Reply::text(render::help(tr).unwrap()));
    for (name, reply) in first_contact_and_export(tr) {
        snap(name, reply);
    }
    use remindbot::egress::render::{ReminderView, reminder_html, reminder_keyboard};
    let due_at = Utc.with_ymd_and_hms(2026, 10, 1, 5, 0, 0).unwrap();
    let view = ReminderView {
        task_id: TaskId(12),
        text: tricky,
        due_at,
        zone,
        late_by: Some(chrono::Duration::minutes(95)),
        now: due_at + chrono::Duration::minutes(95),
    };
    snap(
        "reminder_late",
        Reply::text(reminder_html(tr, &view)).with_keyboard(reminder_keyboard(tr, TaskId(12))),
    );
}

#[test]
fn reminder_template_in_every_language() {
    use remindbot::egress::render::{ReminderView, reminder_html, reminder_keyboard};
    let zone = parse_zone("Europe/Berlin").unwrap();
    for lang in Lang::ALL {
        let tr = Tr::new(lang);
        for (name, late_by) in [
            ("on_time", None),
            ("late", Some(chrono::Duration::minutes(95))),
        ] {
            let due_at = Utc.with_ymd_and_hms(2026, 3, 29, 7, 0, 0).unwrap();
            let view = ReminderView {
                task_id: TaskId(12),
                text: "pay <b>rent</b> & \"fees\"",
                due_at,
                zone,
                late_by,
                now: due_at + late_by.unwrap_or_default(),
            };
            let reply = Reply::text(reminder_html(tr, &view))
                .with_keyboard(reminder_keyboard(tr, TaskId(12)));
            insta::assert_snapshot!(format!("reminder_{lang}_{name}"), show(reply));
        }
    }
}

/// A moment in UTC.
fn utc(year: i32, month: u32, day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, month, day, hour, minute, 0)
        .unwrap()
}

#[test]
fn bot_dates_in_every_language() {
    let berlin = parse_zone("Europe/Berlin").unwrap();
    // (case, now, the moment shown); Berlin is UTC+1 in winter, UTC+2 from 29 March 2026 03:00.
    let cases = [
        ("today", utc(2026, 12, 1, 9, 0), utc(2026, 12, 1, 11, 37)),
        ("tomorrow", utc(2026, 12, 1, 9, 0), utc(2026, 12, 2, 8, 0)),
        (
            "this_year",
            utc(2026, 11, 20, 9, 0),
            utc(2026, 12, 1, 11, 37),
        ),
        ("other_year", utc(2026, 12, 1, 9, 0), utc(2027, 1, 1, 8, 0)),
        (
            "yesterday",
            utc(2026, 12, 1, 9, 0),
            utc(2026, 11, 30, 17, 0),
        ),
        (
            "across_dst",
            utc(2026, 3, 28, 22, 30),
            utc(2026, 3, 29, 1, 0),
        ),
        (
            "midnight",
            utc(2026, 12, 1, 22, 50),
            utc(2026, 12, 1, 23, 0),
        ),
    ];
    let local = |t: DateTime<Utc>| t.with_timezone(&berlin).format("%a %Y-%m-%d %H:%M %:z");
    for lang in Lang::ALL {
        let tr = Tr::new(lang);
        for (case, now, moment) in cases {
            let dates = Dates::new(tr, berlin, now);
            let shown = format!(
                "now:    {} {berlin}\nmoment: {}\nshown:  {}",
                local(now),
                local(moment),
                dates.moment(moment)
            );
            insta::assert_snapshot!(format!("dates_{lang}_{case}"), shown);
        }
        // After choosing a zone the local time is shown with its date, even though it is today.
        let now = utc(2026, 12, 1, 11, 37);
        let shown = format!(
            "now:    {} {berlin}\nshown:  {}",
            local(now),
            Dates::new(tr, berlin, now).date_time(now)
        );
        insta::assert_snapshot!(format!("dates_{lang}_clock"), shown);
    }
}

#[test]
fn nag_quote_and_agenda_messages_in_every_language() {
    use remindbot::egress::agenda::agenda_html;
    use remindbot::egress::extras::nag_note;
    use remindbot::egress::render::{
        ReminderExtras, ReminderView, nag_keyboard, reminder_html_with, reminder_keyboard,
    };
    use remindbot::store::nags::{NagProgress, round_len};
    let zone = parse_zone("Asia/Tashkent").unwrap();
    let tricky = "pay <b>rent</b> & \"fees\" 'now'";
    let every = chrono::Duration::minutes(10);
    for lang in Lang::ALL {
        let tr = Tr::new(lang);
        let snap = |name: &str, reply: Reply| {
            insta::assert_snapshot!(format!("features_{lang}_{name}"), show(reply));
        };
        let duration = dates::duration(tr, every);
        let nag_args = |key: &str, every: &str, max: i64| {
            tr.t_with(
                key,
                &[("every", Arg::Text(every)), ("max", Arg::Number(max))],
            )
        };
        // Nagging: the card's line, the answer to Keep reminding, its toast, a bad interval.
        let card = render::task_card(
            tr,
            "task-saved",
            &task(7, tricky, 0, None),
            None,
            false,
            zone,
            now(),
        )
        .unwrap();
        let line = render::notice(None, &[nag_args("task-nag", &duration, 12)]).unwrap();
        snap(
            "task_saved_until_done",
            Reply::text(format!("{card}\n{line}")).with_keyboard(render::confirm_keyboard(
                tr,
                34,
                TaskId(7),
            )),
        );
        let day = dates::duration(tr, chrono::Duration::hours(24));
        snap(
            "nag_on",
            Reply::text(
                render::notice(
                    None,
                    &[
                        nag_args("nag-on", &duration, 12),
                        nag_args(
                            "nag-on",
                            &day,
                            i64::from(round_len(chrono::Duration::hours(24))),
                        ),
                        tr.t("callback-nag"),
                    ],
                )
                .unwrap(),
            ),
        );
        let minute = dates::duration(tr, chrono::Duration::minutes(1));
        snap(
            "problem_nag_interval",
            Reply::text(
                render::problem(
                    tr,
                    &tr.t_with(
                        "err-nag-interval",
                        &[("min", Arg::Text(&minute)), ("max", Arg::Text(&day))],
                    ),
                    None,
                    &tr.t("nag-example"),
                )
                .unwrap(),
            ),
        );
        // Reminders: a nag, the last nag, and one quoting a message (its text stands for it).
        let due_at = Utc.with_ymd_and_hms(2026, 12, 31, 5, 0, 0).unwrap();
        let view = ReminderView {
            task_id: TaskId(12),
            text: tricky,
            due_at,
            zone,
            late_by: None,
            now: due_at,
        };
        for (name, ordinal) in [("nag", 3), ("nag_last", 12)] {
            let extras = ReminderExtras {
                quote: None,
                note: Some(nag_note(
                    tr,
                    NagProgress {
                        ordinal,
                        of: 12,
                        every,
                    },
                )),
            };
            snap(
                &format!("reminder_{name}"),
                Reply::text(reminder_html_with(tr, &view, &extras))
                    .with_keyboard(nag_keyboard(tr, TaskId(12))),
            );
        }
        let quote = "the <b>wifi</b> password:\n\"hunter2\" & more";
        let preview = remindbot::store::quotes::preview(quote);
        let quoting = ReminderExtras {
            quote: Some(quote),
            note: None,
        };
        snap(
            "reminder_quote",
            Reply::text(reminder_html_with(
                tr,
                &ReminderView {
                    text: &preview,
                    ..view.clone()
                },
                &quoting,
            ))
            .with_keyboard(reminder_keyboard(tr, TaskId(12))),
        );
        snap(
            "reminder_quote_with_its_own_text",
            Reply::text(reminder_html_with(tr, &view, &quoting)),
        );
        let kinds = [
            "photo",
            "video",
            "document",
            "voice",
            "audio",
            "sticker",
            "animation",
            "video_note",
            "location",
            "contact",
            "poll",
            "other",
        ];
        snap(
            "quote_media",
            Reply::text(
                kinds
                    .map(|kind| tr.t_with("quote-media", &[("kind", Arg::Text(kind))]))
                    .join("\n"),
            ),
        );
        snap(
            "quote_hint",
            Reply::text(
                render::question(tr, &tr.t("quote-hint"), None, &tr.t("quote-example")).unwrap(),
            ),
        );
        // The agenda: a day with tasks (more than are listed), an empty day.
        let tasks = [
            task(7, tricky, 0, None),
            task(
                8,
                &"long ".repeat(60),
                0,
                Some("FREQ=DAILY;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
            ),
        ];
        snap(
            "agenda",
            Reply::text(agenda_html(tr, zone, due_at, &tasks, 23)),
        );
        snap(
            "agenda_empty",
            Reply::text(agenda_html(tr, zone, due_at, &[], 0)),
        );
        snap(
            "agenda_one_more",
            Reply::text(agenda_html(tr, zone, due_at, &tasks[..1], 2)),
        );
        // /agenda's answers.
        let lines = |keys: &[&str]| {
            Reply::text(
                render::notice(None, &keys.iter().map(|k| tr.t(k)).collect::<Vec<_>>()).unwrap(),
            )
        };
        snap(
            "agenda_off_state",
            lines(&["agenda-off-state", "agenda-usage"]),
        );
        snap("agenda_turned_off", lines(&["agenda-turned-off"]));
        snap(
            "agenda_needs_zone",
            lines(&["agenda-needs-zone", "tz-ask"])
                .with_keyboard(render::zone_question_keyboard(tr, now())),
        );
        snap(
            "agenda_set_and_current",
            Reply::text(
                render::notice(
                    None,
                    &[
                        tr.t_with(
                            "agenda-set",
                            &[
                                ("time", Arg::Text("08:00")),
                                (
                                    "when",
                                    Arg::Text(&Dates::new(tr, zone, now()).moment(now())),
                                ),
                            ],
                        ),
                        tr.t_with(
                            "agenda-current",
                            &[
                                ("time", Arg::Text("08:00")),
                                ("zone", Arg::Text("Asia/Tashkent (UTC+5)")),
                            ],
                        ),
                    ],
                )
                .unwrap(),
            ),
        );
        snap(
            "problem_agenda",
            Reply::text(
                render::problem(tr, &tr.t("agenda-bad"), None, &tr.t("agenda-example")).unwrap(),
            ),
        );
        let menu = remindbot::bot::commands::menu(lang);
        let agenda = menu
            .iter()
            .find(|c| c.command == "agenda")
            .expect("/agenda in the menu");
        snap("menu_agenda", Reply::text(agenda.description.clone()));
        let other_year = Utc.with_ymd_and_hms(2027, 1, 1, 5, 0, 0).unwrap();
        snap(
            "dates_day",
            Reply::text(format!(
                "{}\n{}",
                Dates::new(tr, zone, now()).day(now()),
                Dates::new(tr, zone, now()).day(other_year)
            )),
        );
    }
}

/// What the chat says about what it assumed or could not use (issue 14), in every language and
/// script, user words that need escaping included: a confirmation with its notes, each kind of
/// note alone, the "when?" that says which repeat it could not make, an edit refused for it; and
/// the confirmations of the richer repeats, each naming its days and interval.
#[test]
fn bot_assumptions_and_richer_repeats_in_every_language() {
    use chrono::{NaiveDate, NaiveTime};
    use remindbot::bot::assumed;
    use remindbot::domain::due::{Assumption, Unplaced, UnplacedKind, parse_due};

    let zone = parse_zone("Asia/Tashkent").unwrap();
    let time = |hour| NaiveTime::from_hms_opt(hour, 0, 0).unwrap();
    let date = |day| NaiveDate::from_ymd_opt(2026, 12, day).unwrap();
    let tricky = "pay <b>rent</b> & \"fees\" 'now'";
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        let snap = |name: &str, reply: Reply| {
            insta::assert_snapshot!(format!("bot_{lang}_{name}"), show(reply));
        };
        let (typed, read) = match lang {
            Lang::En => ("tomorow", "tomorrow"),
            Lang::Ru => ("завтро", "завтра"),
            Lang::Uz => ("ertga", "ertaga"),
            Lang::UzCyrl => ("эртга", "ertaga"),
        };
        let notes = |assumptions: &[Assumption], unplaced: &[Unplaced]| {
            assumed::notes(tr, zone, now(), assumptions, unplaced)
        };
        let confirmation = |task: &Task, notes: &[String]| {
            let card = render::task_card(
                tr,
                "task-saved",
                task,
                Some(task.due_at),
                false,
                zone,
                now(),
            )
            .unwrap();
            Reply::text(assumed::under_card(card, notes).unwrap())
                .with_keyboard(render::confirm_keyboard(tr, 31, task.id))
        };
        let hour = Assumption::HourWithoutAmPm {
            typed: time(3),
            chosen: time(15),
        };
        let typo = Assumption::Typo {
            typed: typed.to_owned(),
            read: read.to_owned(),
        };
        snap(
            "task_saved_assumed",
            confirmation(&task(7, tricky, 0, None), &notes(&[typo, hour], &[])),
        );
        let every_kind = [
            Assumption::HourWithoutAmPm {
                typed: time(3),
                chosen: time(3),
            },
            Assumption::HourWithoutAmPm {
                typed: time(9),
                chosen: time(21),
            },
            Assumption::TimeNotSaid { chosen: time(19) },
            Assumption::NextWeekday { date: date(11) },
            Assumption::NextWeekMonday { date: date(7) },
            Assumption::NightAfterDay { date: date(2) },
            Assumption::TomorrowAfterMidnight {
                date: date(1),
                day_after: false,
            },
            Assumption::TomorrowAfterMidnight {
                date: date(2),
                day_after: true,
            },
            Assumption::Typo {
                typed: "<b>tomorow</b>".to_owned(),
                read: "tomorrow".to_owned(),
            },
        ];
        let lines: Vec<String> = every_kind
            .iter()
            .flat_map(|assumption| notes(std::slice::from_ref(assumption), &[]))
            .collect();
        snap(
            "assumed_lines",
            Reply::text(render::notice(None, &lines).unwrap()),
        );
        let unplaced = [
            Unplaced {
                words: "every 10 <b>minutes</b>".to_owned(),
                kind: UnplacedKind::Repeat,
            },
            Unplaced {
                words: "monday & \"friday\"".to_owned(),
                kind: UnplacedKind::Day,
            },
            Unplaced {
                words: "9 pm".to_owned(),
                kind: UnplacedKind::Time,
            },
        ];
        snap(
            "task_saved_unplaced",
            confirmation(&task(7, tricky, 0, None), &notes(&[], &unplaced)),
        );
        let question =
            render::question(tr, &tr.t("ask-when"), Some(tricky), &tr.t("when-example")).unwrap();
        snap(
            "question_when_loose_repeat",
            Reply::question(
                assumed::above_question(
                    question,
                    &[assumed::loose_repeat(tr, "every 10 <b>minutes</b>")],
                )
                .unwrap(),
            )
            .with_keyboard(render::question_keyboard(
                tr,
                Question::NewTaskTime,
                Vec::new(),
            )),
        );
        snap(
            "problem_edit_repeat_unknown",
            Reply::text(
                render::problem(
                    tr,
                    &tr.t_with(
                        "edit-repeat-unknown",
                        &[("words", Arg::Text("every 10 <b>minutes</b>"))],
                    ),
                    None,
                    &tr.t("repeat-edit-example"),
                )
                .unwrap(),
            ),
        );
        // The richer repeats as a new task's confirmation shows them, read from a phrase.
        let cards: Vec<String> = [
            "every tuesday and thursday at 19:00 gym",
            "every mon, wed and fri at 7:30 run",
            "every 2 days at 8:00 water the plants",
            "every 2 weeks on monday at 10:00 retro",
            "every 3 hours drink water",
            "every month on the last day at 18:00 report",
            "every 3 months on the 15th at 10:00 invoice",
            "flowers every year on 14 Feb",
        ]
        .iter()
        .zip(40..)
        .map(|(phrase, id)| {
            let parsed = parse_due(phrase, Lang::En, now(), zone).unwrap();
            assert!(parsed.recurrence.is_some(), "{phrase} repeats");
            let task = Task {
                due_at: parsed.due,
                recurrence: parsed.recurrence,
                ..task(id, &parsed.text, 0, None)
            };
            let notes = notes(&parsed.assumptions, &parsed.unplaced);
            show(confirmation(&task, &notes))
        })
        .collect();
        insta::assert_snapshot!(format!("bot_{lang}_task_saved_repeats"), cards.join("\n\n"));
    }
}

#[test]
fn forward_messages_in_every_language() {
    let quoted = "the <b>wifi</b> password:\n\"hunter2\" & more";
    let subject = render::shorten(&remindbot::store::quotes::preview(quoted), 200);
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        let snap = |name: &str, reply: Reply| {
            insta::assert_snapshot!(format!("forward_{lang}_{name}"), show(reply));
        };
        let question = |key: &str| {
            Reply::question(
                render::question(tr, &tr.t(key), Some(&subject), &tr.t("quote-example")).unwrap(),
            )
            .with_keyboard(render::question_keyboard(
                tr,
                Question::QuoteTime,
                Vec::new(),
            ))
        };
        snap("question", question("ask-quote-when"));
        snap("question_still", question("ask-quote-when-still"));
        snap(
            "needs_zone",
            Reply::text(
                render::notice(None, &[tr.t("forward-needs-zone"), tr.t("tz-ask")]).unwrap(),
            )
            .with_keyboard(render::zone_question_keyboard(tr, now())),
        );
        snap(
            "cancelled",
            Reply::text(
                render::notice(
                    None,
                    &[tr.t_with("cancel-dropped", &[("text", Arg::Text(&subject))])],
                )
                .unwrap(),
            ),
        );
    }
}

/// Questions and permissions in groups (issue 25), in every language and Uzbek in both scripts:
/// the notice to a member who taps Cancel under someone else's question, a group's question
/// whose Cancel names its asker, and the refusal when a member's rights could not be checked.
#[test]
fn group_guard_messages_in_every_language() {
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        let snap = |name: &str, reply: Reply| {
            insta::assert_snapshot!(format!("group_guard_{lang}_{name}"), show(reply));
        };
        snap("cancel_not_yours", Reply::text(tr.t("cancel-not-yours")));
        snap(
            "permission_unchecked",
            Reply::text(render::notice(None, &[tr.t("permission-unchecked")]).unwrap()),
        );
        snap(
            "question_in_group",
            Reply::question(
                render::question(
                    tr,
                    &tr.t("ask-snooze"),
                    Some("pay rent"),
                    &tr.t("snooze-example"),
                )
                .unwrap(),
            )
            .with_keyboard(render::asking_keyboard(
                tr,
                Question::SnoozeTime { task_id: TaskId(7) },
                Some(UserId(100_000_001)),
                vec![render::snooze_choices(tr, TaskId(7))],
            )),
        );
    }
}

#[test]
fn series_pause_and_card_messages_in_every_language() {
    use remindbot::domain::recurrence::Recurrence;
    use remindbot::i18n::repeats::repeats_text;
    let text = || Arg::Text("stand-up <b>&</b>");
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        let snap = |name: &str, lines: &[String]| {
            insta::assert_snapshot!(
                format!("series_{lang}_{name}"),
                render::notice(None, lines).unwrap()
            );
        };
        let weekly =
            Recurrence::parse_rule_string("FREQ=WEEKLY;BYDAY=FR;BYHOUR=16;BYMINUTE=0").unwrap();
        let counted =
            Recurrence::parse_rule_string("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=10").unwrap();
        let until =
            Recurrence::parse_rule_string("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20270301").unwrap();
        let from_done = Recurrence::parse_rule_string(
            "FREQ=DAILY;INTERVAL=3;BYHOUR=9;BYMINUTE=0;DTSTART=20261201;X-FROM=DONE",
        )
        .unwrap();
        snap(
            "repeats_with_ends",
            &[
                repeats_text(tr, &counted),
                repeats_text(tr, &until),
                repeats_text(tr, &from_done),
            ],
        );
        let weekly = repeats_text(tr, &weekly);
        let rule = Arg::Text(&weekly);
        snap(
            "reminder_lines",
            &[
                tr.t_with("series-repeats", &[("rule", rule)]),
                tr.t_with(
                    "series-next",
                    &[("rule", rule), ("when", Arg::Text("Fri 11 Dec, 16:00"))],
                ),
                tr.t("series-last"),
            ],
        );
        snap(
            "pause_and_resume",
            &[
                tr.t_with("repeat-paused", &[("text", text())]),
                tr.t("repeat-already-paused"),
                tr.t_with(
                    "repeat-resumed",
                    &[("text", text()), ("when", Arg::Text("Fri 11 Dec, 16:00"))],
                ),
                tr.t("repeat-not-paused"),
                tr.t_with("repeat-ended-paused", &[("text", text())]),
                tr.t("repeat-not-repeating"),
                tr.t_with("done-series-ended", &[("text", text())]),
            ],
        );
        snap(
            "buttons_and_toasts",
            &[
                tr.t("button-pause"),
                tr.t("button-resume"),
                tr.t("callback-paused"),
                tr.t("callback-resumed"),
            ],
        );
    }
}

/// `/calendar` (issue 27) in every language and Uzbek in both scripts: the links of a new feed
/// URL, the answer in a chat that has one (with its New link button), how to use it, and the
/// answer when the operator has not set a public URL.
#[test]
fn calendar_messages_in_every_language() {
    use remindbot::domain::feed_secret::FeedSecret;
    use remindbot::feed::PublicUrl;

    let public: PublicUrl = "https://bot.example.org/rb".parse().unwrap();
    let secret = FeedSecret::parse(&"0123456789abcdef".repeat(3)).unwrap();
    for lang in Lang::CHOICES {
        let tr = Tr::new(lang);
        let snap = |name: &str, reply: Reply| {
            insta::assert_snapshot!(format!("calendar_{lang}_{name}"), show(reply));
        };
        snap(
            "links",
            Reply::text(render::calendar_links(tr, &public.feed_urls(&secret)).unwrap()),
        );
        snap(
            "exists",
            Reply::text(render::notice(None, &[tr.t("calendar-exists")]).unwrap())
                .with_keyboard(render::calendar_new_keyboard(tr)),
        );
        snap(
            "usage",
            Reply::text(render::notice(None, &[tr.t("calendar-usage")]).unwrap()),
        );
        snap(
            "off",
            Reply::text(render::notice(None, &[tr.t("calendar-off")]).unwrap()),
        );
        snap("command", Reply::text(tr.t("cmd-calendar")));
    }
}
