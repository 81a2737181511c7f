//! Snapshots of every message template in every language, with user text that needs escaping, so
//! a change to a template or a translation shows up in review. Each snapshot holds the HTML sent
//! to Telegram and the buttons under it. Dates as each language writes them have snapshots of
//! their own, one per language and case.

use chrono::{DateTime, TimeZone, Utc};
use remindbot::bot::render::{self, Reply};
use remindbot::domain::lang::Lang;
use remindbot::domain::lead::Lead;
use remindbot::domain::timezone::parse_zone;
use remindbot::i18n::dates::{self, Dates};
use remindbot::i18n::{Arg, Tr};
use remindbot::store::tasks::Task;

fn task(id: i64, text: &str, lead_secs: i32, rule: Option<&str>) -> Task {
    Task {
        id,
        chat_id: 1,
        owner_id: 1,
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
                .with_keyboard(render::zone_keyboard(tr, now())),
        );
        snap(
            "notice_languages",
            Reply::text(render::notice(None, &[tr.t("lang-ask")]).unwrap())
                .with_keyboard(render::language_keyboard()),
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
        snap(
            "question_when",
            Reply::text(
                render::question(tr, &tr.t("ask-when"), Some(tricky), &tr.t("when-example"))
                    .unwrap(),
            ),
        );
        snap(
            "question_snooze",
            Reply::text(
                render::question(
                    tr,
                    &tr.t("ask-snooze"),
                    Some(tricky),
                    &tr.t("snooze-example"),
                )
                .unwrap(),
            )
            .with_keyboard(render::snooze_keyboard(tr, 7)),
        );
        snap(
            "task_saved",
            Reply::text(
                render::task_card(tr, "task-saved", &task(7, tricky, 0, None), zone, now())
                    .unwrap(),
            )
            .with_keyboard(render::confirm_keyboard(tr, 7)),
        );
        snap(
            "task_changed_with_lead_and_rule",
            Reply::text(
                render::task_card(
                    tr,
                    "task-changed",
                    &task(
                        8,
                        "standup",
                        1800,
                        Some("FREQ=DAILY;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
                    ),
                    zone,
                    now(),
                )
                .unwrap(),
            ),
        );
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
            "list_page",
            Reply::text(render::task_list(tr, &tasks, 1, 12, zone, now()).unwrap())
                .with_keyboard(render::list_keyboard(tr, &tasks, 1, 12)),
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
                .with_keyboard(render::zone_keyboard(tr, now())),
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
            .with_keyboard(render::zone_keyboard(tr, now())),
    );
    snap(
        "notice_languages",
        Reply::text(render::notice(None, &[tr.t("lang-set")]).unwrap())
            .with_keyboard(render::language_keyboard()),
    );
    snap(
        "task_changed_with_lead_and_rule",
        Reply::text(
            render::task_card(
                tr,
                "task-changed",
                &task(
                    8,
                    tricky,
                    1800,
                    Some("FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
                ),
                zone,
                now(),
            )
            .unwrap(),
        )
        .with_keyboard(render::confirm_keyboard(tr, 8)),
    );
    snap(
        "list_page",
        Reply::text(render::task_list(tr, &[task(7, tricky, 0, None)], 0, 1, zone, now()).unwrap()),
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
    use remindbot::telegram::render::{ReminderView, reminder_html, reminder_keyboard};
    let due_at = Utc.with_ymd_and_hms(2026, 10, 1, 5, 0, 0).unwrap();
    let view = ReminderView {
        task_id: 12,
        text: tricky,
        due_at,
        zone,
        late_by: Some(chrono::Duration::minutes(95)),
        now: due_at + chrono::Duration::minutes(95),
    };
    snap(
        "reminder_late",
        Reply::text(reminder_html(tr, &view)).with_keyboard(reminder_keyboard(tr, 12)),
    );
}

#[test]
fn reminder_template_in_every_language() {
    use remindbot::telegram::render::{ReminderView, reminder_html, reminder_keyboard};
    let zone = parse_zone("Europe/Berlin").unwrap();
    for lang in Lang::ALL {
        let tr = Tr::new(lang);
        for (name, late_by) in [
            ("on_time", None),
            ("late", Some(chrono::Duration::minutes(95))),
        ] {
            let due_at = Utc.with_ymd_and_hms(2026, 3, 29, 7, 0, 0).unwrap();
            let view = ReminderView {
                task_id: 12,
                text: "pay <b>rent</b> & \"fees\"",
                due_at,
                zone,
                late_by,
                now: due_at + late_by.unwrap_or_default(),
            };
            let reply =
                Reply::text(reminder_html(tr, &view)).with_keyboard(reminder_keyboard(tr, 12));
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
