//! A repeat in words, in the chat's language: its days and interval, whether it counts from each
//! Done, and its end. Shared by the chat's answers, the reminders and the exported table.

use crate::domain::recurrence::{Frequency, Recurrence};
use crate::i18n::{Arg, Tr};

/// A recurrence in words, naming its days and interval, whether it counts from each Done, and its
/// end: "every Tuesday and Thursday", "по вторникам и четвергам", "every 3 days, counted from
/// each Done", "every day, 10 times in all", "har oyning oxirgi kuni, 2027-yil 1-martgacha".
pub fn repeats_text(tr: Tr, rule: &Recurrence) -> String {
    use crate::domain::recurrence::End;
    use chrono::Datelike;

    let mut text = schedule_text(tr, rule);
    if rule.counts_from_done() {
        text = tr.t_with("repeat-from-done", &[("rule", Arg::Text(&text))]);
    }
    match rule.end() {
        None => text,
        Some(End::Count(count)) => tr.t_with(
            "repeat-count",
            &[
                ("rule", Arg::Text(&text)),
                ("n", Arg::Number(i64::from(count))),
            ],
        ),
        Some(End::Until(last)) => {
            let month = tr.t_with(
                "repeat-month-name",
                &[("code", Arg::Text(MONTHS[last.month0() as usize]))],
            );
            tr.t_with(
                "repeat-until",
                &[
                    ("rule", Arg::Text(&text)),
                    ("day", Arg::Number(i64::from(last.day()))),
                    ("month", Arg::Text(&month)),
                    ("year", Arg::Text(&last.year().to_string())),
                ],
            )
        }
    }
}

/// The months' codes in the locales, January first.
const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The schedule alone in words: its days and interval.
fn schedule_text(tr: Tr, rule: &Recurrence) -> String {
    use crate::domain::recurrence::{WORKING_DAYS, WeekOfMonth};
    use chrono::{Weekday, WeekdaySet};

    const WEEKDAYS: [(Weekday, &str); 7] = [
        (Weekday::Mon, "mon"),
        (Weekday::Tue, "tue"),
        (Weekday::Wed, "wed"),
        (Weekday::Thu, "thu"),
        (Weekday::Fri, "fri"),
        (Weekday::Sat, "sat"),
        (Weekday::Sun, "sun"),
    ];
    let codes = |days: WeekdaySet| -> Vec<&str> {
        WEEKDAYS
            .iter()
            .filter(|(day, _)| days.contains(*day))
            .map(|(_, code)| *code)
            .collect()
    };
    // "Monday, Wednesday and Friday", "понедельникам, средам и пятницам".
    let day_list = |days: WeekdaySet| -> String {
        let names: Vec<String> = codes(days)
            .into_iter()
            .map(|code| tr.t_with("repeat-day-in-list", &[("code", Arg::Text(code))]))
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                format!("{} {} {last}", rest.join(", "), tr.t("repeat-and"))
            }
            _ => names.concat(),
        }
    };
    let n = Arg::Number(i64::from(rule.interval()));
    let every_period = rule.interval() == 1;
    match rule.frequency() {
        Frequency::Minutely => tr.t_with("repeat-every-minutes", &[("n", n)]),
        Frequency::Hourly if every_period => tr.t("repeat-hourly"),
        Frequency::Hourly => tr.t_with("repeat-every-hours", &[("n", n)]),
        Frequency::Daily if every_period => tr.t("repeat-daily"),
        Frequency::Daily => tr.t_with("repeat-every-days", &[("n", n)]),
        Frequency::Weekdays if every_period => tr.t("repeat-weekdays"),
        Frequency::Weekly(days) if every_period => match codes(days)[..] {
            [code] => tr.t_with("repeat-weekly-one", &[("code", Arg::Text(code))]),
            _ => tr.t_with(
                "repeat-weekly-many",
                &[("days", Arg::Text(&day_list(days)))],
            ),
        },
        Frequency::Weekdays | Frequency::Weekly(_) => {
            let days = match rule.frequency() {
                Frequency::Weekly(days) => days,
                _ => WORKING_DAYS,
            };
            tr.t_with(
                "repeat-every-weeks",
                &[("n", n), ("days", Arg::Text(&day_list(days)))],
            )
        }
        Frequency::MonthlyOnDay(day) => {
            let day = Arg::Number(i64::from(day));
            if every_period {
                tr.t_with("repeat-monthly", &[("day", day)])
            } else {
                tr.t_with("repeat-every-months", &[("n", n), ("day", day)])
            }
        }
        Frequency::MonthlyOnLastDay if every_period => tr.t("repeat-monthly-last"),
        Frequency::MonthlyOnLastDay => tr.t_with("repeat-every-months-last", &[("n", n)]),
        Frequency::MonthlyOnWeekday { week, day } => {
            let week = match week {
                WeekOfMonth::First => "first",
                WeekOfMonth::Second => "second",
                WeekOfMonth::Third => "third",
                WeekOfMonth::Fourth => "fourth",
                WeekOfMonth::Last => "last",
            };
            let code = codes(WeekdaySet::single(day)).concat();
            let day = tr.t_with(
                "repeat-weekday-of-month",
                &[("week", Arg::Text(week)), ("code", Arg::Text(&code))],
            );
            let args = [("n", n), ("day", Arg::Text(&day))];
            if every_period {
                tr.t_with("repeat-monthly-weekday", &args)
            } else {
                tr.t_with("repeat-every-months-weekday", &args)
            }
        }
        Frequency::Yearly { month, day } => {
            let code = MONTHS.get(month.saturating_sub(1) as usize).copied();
            let month = tr.t_with(
                "repeat-month-name",
                &[("code", Arg::Text(code.unwrap_or("")))],
            );
            let args = [
                ("n", n),
                ("day", Arg::Number(i64::from(day))),
                ("month", Arg::Text(&month)),
            ];
            if every_period {
                tr.t_with("repeat-yearly", &args)
            } else {
                tr.t_with("repeat-every-years", &args)
            }
        }
    }
}
