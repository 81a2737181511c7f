//! Property tests of the due-date parser and of recurrences: one-off due
//! times are never in the past, relative times keep exact elapsed time, a
//! daily recurrence keeps its wall time (and the DST gap policy) for a
//! year, richer repeats (several weekdays, every N days/weeks/months/years, the last day of
//! the month, the Nth or last weekday of the month, yearly dates) fire on the right days at
//! their wall time across DST in Berlin, New York and Sydney and in short months, every other
//! weekday is two weeks apart on the wall clock across DST, minute and hourly repeats keep
//! elapsed time, a series that ends never yields an occurrence past its end date or count,
//! a repeat counted from done comes its interval after the completion, rule strings
//! round-trip, every note that says "send X" gives what it promises when X is sent (as a new
//! task and as the answer to Change time), and no string makes the parser panic.

use chrono::{
    DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveTime, TimeZone, Timelike, Utc,
    Weekday, WeekdaySet,
};
use chrono_tz::Tz;
use proptest::prelude::*;
use proptest::sample::select;
use remindbot::bot::assumed;
use remindbot::domain::due::{Assumption, DueError, ParsedDue, parse_due, parse_edit};
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::{
    Anchor, End, Frequency, MIN_MINUTES, Occurrence, Recurrence, WeekOfMonth,
};
use remindbot::domain::timezone::to_local;
use remindbot::i18n::Tr;

const ZONES: [Tz; 4] = [
    Tz::Europe__Berlin,
    Tz::America__New_York,
    Tz::Asia__Tashkent,
    Tz::Europe__Moscow,
];

fn zone() -> impl Strategy<Value = Tz> {
    select(ZONES.to_vec())
}

/// Zones with DST on both hemispheres.
const DST_ZONES: [Tz; 3] = [
    Tz::Europe__Berlin,
    Tz::America__New_York,
    Tz::Australia__Sydney,
];

/// An instant without its fraction of a second, as a rule keeps its anchor.
fn whole_second(at: DateTime<Utc>) -> DateTime<Utc> {
    at.with_nanosecond(0).unwrap_or(at)
}

fn dst_zone() -> impl Strategy<Value = Tz> {
    select(DST_ZONES.to_vec())
}

fn weekday() -> impl Strategy<Value = Weekday> {
    select(vec![
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ])
}

/// A wall time of day, often one inside a DST gap or overlap of the DST zones.
fn wall_time() -> impl Strategy<Value = NaiveTime> {
    prop_oneof![
        (0u32..24, 0u32..60),
        select(vec![(2, 0), (2, 30), (2, 59), (1, 30), (3, 0)]),
    ]
    .prop_map(|(h, m)| NaiveTime::from_hms_opt(h, m, 0).unwrap())
}

/// A day-based frequency of any kind.
fn day_frequency() -> impl Strategy<Value = Frequency> {
    prop_oneof![
        Just(Frequency::Daily),
        Just(Frequency::Weekdays),
        prop::collection::vec(weekday(), 1..4)
            .prop_map(|days| Frequency::Weekly(days.into_iter().collect())),
        (1u32..=31).prop_map(Frequency::MonthlyOnDay),
        Just(Frequency::MonthlyOnLastDay),
        (1u32..=12, 1u32..=31).prop_filter_map("a date of a leap year", |(month, day)| {
            NaiveDate::from_ymd_opt(2000, month, day).map(|_| Frequency::Yearly { month, day })
        }),
        (week_of_month(), weekday())
            .prop_map(|(week, day)| Frequency::MonthlyOnWeekday { week, day }),
    ]
}

fn week_of_month() -> impl Strategy<Value = WeekOfMonth> {
    select(vec![
        WeekOfMonth::First,
        WeekOfMonth::Second,
        WeekOfMonth::Third,
        WeekOfMonth::Fourth,
        WeekOfMonth::Last,
    ])
}

/// A rule of any kind: day-based with an interval, or every so many minutes or hours.
fn any_rule() -> impl Strategy<Value = Recurrence> {
    prop_oneof![
        (day_frequency(), wall_time(), 1u32..=3, now()).prop_map(|(f, t, n, anchor)| {
            Recurrence::every(f, t, n, anchor.date_naive()).unwrap()
        }),
        (MIN_MINUTES..=600, now()).prop_map(|(m, anchor)| Recurrence::minutely(m, anchor).unwrap()),
        (1u32..=48, now()).prop_map(|(h, anchor)| Recurrence::hourly(h, anchor).unwrap()),
    ]
}

/// The English name of a weekday, as the parser reads it.
fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "monday",
        Weekday::Tue => "tuesday",
        Weekday::Wed => "wednesday",
        Weekday::Thu => "thursday",
        Weekday::Fri => "friday",
        Weekday::Sat => "saturday",
        Weekday::Sun => "sunday",
    }
}

/// The last day of `date`'s month.
fn last_day(date: NaiveDate) -> u32 {
    (28..=31)
        .rev()
        .find(|d| date.with_day(*d).is_some())
        .unwrap()
}

/// Whether `date` is one of the days `frequency` names (month days clamped to short months).
fn on_its_days(frequency: Frequency, date: NaiveDate) -> bool {
    match frequency {
        Frequency::Minutely | Frequency::Hourly | Frequency::Daily => true,
        Frequency::Weekdays => date.weekday().num_days_from_monday() < 5,
        Frequency::Weekly(days) => days.contains(date.weekday()),
        Frequency::MonthlyOnDay(day) => date.day() == day.min(last_day(date)),
        Frequency::MonthlyOnLastDay => date.day() == last_day(date),
        Frequency::MonthlyOnWeekday { week, day } => {
            let nth = (date.day() - 1) / 7 + 1;
            date.weekday() == day
                && match week {
                    WeekOfMonth::Last => date.day() + 7 > last_day(date),
                    _ => i8::try_from(nth).ok() == Some(week.ordinal()),
                }
        }
        Frequency::Yearly { month, day } => {
            date.month() == month && date.day() == day.min(last_day(date))
        }
    }
}

/// How many periods of `frequency` lie between `anchor` and `date` (days, Monday-based weeks,
/// months or years).
fn periods_between(frequency: Frequency, anchor: NaiveDate, date: NaiveDate) -> i64 {
    let monday = |d: NaiveDate| d - Duration::days(i64::from(d.weekday().num_days_from_monday()));
    match frequency {
        Frequency::Minutely | Frequency::Hourly | Frequency::Daily => (date - anchor).num_days(),
        Frequency::Weekdays | Frequency::Weekly(_) => {
            (monday(date) - monday(anchor)).num_days() / 7
        }
        Frequency::MonthlyOnDay(_)
        | Frequency::MonthlyOnLastDay
        | Frequency::MonthlyOnWeekday { .. } => {
            i64::from(date.year() - anchor.year()) * 12 + i64::from(date.month0())
                - i64::from(anchor.month0())
        }
        Frequency::Yearly { .. } => i64::from(date.year() - anchor.year()),
    }
}

fn lang() -> impl Strategy<Value = Lang> {
    select(Lang::ALL.to_vec())
}

/// Any instant from 2026 to 2030, to the nanosecond.
fn now() -> impl Strategy<Value = DateTime<Utc>> {
    let start = Utc
        .with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
        .unwrap()
        .timestamp();
    let end = Utc
        .with_ymd_and_hms(2031, 1, 1, 0, 0, 0)
        .unwrap()
        .timestamp();
    (start..end, 0u32..1_000_000_000)
        .prop_map(|(secs, nanos)| DateTime::from_timestamp(secs, nanos).unwrap())
}

/// A relative phrase and the exact time it adds.
fn relative_phrase() -> impl Strategy<Value = (String, Duration)> {
    let units: [(&str, &str, &str, i64); 3] = [
        ("seconds", "секунд", "soniyadan", 1),
        ("minutes", "минут", "daqiqadan", 60),
        ("hours", "часов", "soatdan", 3600),
    ];
    (1i64..500, select(units.to_vec()), 0usize..3).prop_map(|(n, (en, ru, uz, secs), form)| {
        let phrase = match form {
            0 => format!("in {n} {en}"),
            1 => format!("через {n} {ru}"),
            _ => format!("{n} {uz} keyin"),
        };
        (phrase, Duration::seconds(n * secs))
    })
}

/// A phrase with a time of day, a day word or a weekday in some language.
fn time_phrase() -> impl Strategy<Value = String> {
    let days = [
        "",
        "tomorrow",
        "завтра",
        "ertaga",
        "послезавтра",
        "indinga",
        "monday",
        "в пятницу",
        "next sunday",
        "в следующую среду",
        "keyingi shanba",
        "juma kuni",
        "on saturday",
    ];
    (select(days.to_vec()), 0u32..24, 0u32..60, 0usize..5).prop_map(|(day, h, m, form)| {
        let time = match form {
            0 => format!("{h}:{m:02}"),
            1 => format!("at {h}"),
            2 => format!("в {h}:{m:02}"),
            3 => format!("soat {h} da"),
            _ => format!(
                "{}:{m:02} {}",
                (h % 12) + 1,
                if h < 12 { "am" } else { "pm" }
            ),
        };
        format!("{day} {time}")
    })
}

fn parse(input: &str, lang: Lang, now: DateTime<Utc>, tz: Tz) -> Result<ParsedDue, TestCaseError> {
    parse_due(input, lang, now, tz)
        .map_err(|e| TestCaseError::fail(format!("{input:?} at {now} in {tz}: {e:?}")))
}

/// Checks that occurrence `at`, for wall time `time` on local date `date`,
/// follows the DST policy: the exact wall time if it exists (the earlier
/// instant if it exists twice), else the first instant after the gap.
fn check_occurrence(
    tz: Tz,
    date: NaiveDate,
    time: NaiveTime,
    at: DateTime<Utc>,
) -> Result<(), TestCaseError> {
    let wall = date.and_time(time);
    match tz.from_local_datetime(&wall) {
        LocalResult::Single(t) => prop_assert_eq!(at, t.with_timezone(&Utc)),
        LocalResult::Ambiguous(early, _) => prop_assert_eq!(at, early.with_timezone(&Utc)),
        LocalResult::None => {
            prop_assert!(
                to_local(tz, at) > wall,
                "{} not after the gap at {}",
                at,
                wall
            );
            prop_assert!(
                to_local(tz, at - Duration::seconds(1)) < wall,
                "{} not the first instant after {}",
                at,
                wall
            );
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn relative_due_is_exactly_now_plus_the_duration(
        now in now(), tz in zone(), lang in lang(), (phrase, duration) in relative_phrase(),
    ) {
        let input = format!("{phrase} stretch");
        let parsed = parse(&input, lang, now, tz)?;
        prop_assert_eq!(parsed.due, now + duration);
        prop_assert_eq!(parsed.text, "stretch");
    }

    #[test]
    fn one_off_due_is_never_in_the_past(
        now in now(), tz in zone(), lang in lang(), phrase in time_phrase(), before in any::<bool>(),
    ) {
        let input = if before { format!("{phrase} call mom") } else { format!("call mom {phrase}") };
        let parsed = parse(&input, lang, now, tz)?;
        prop_assert!(parsed.due > now, "{:?}: {} is not after {}", input, parsed.due, now);
        prop_assert!(parsed.due - now <= Duration::days(15), "{:?}: {} too far from {}", input, parsed.due, now);
        prop_assert_eq!(parsed.text, "call mom");
        prop_assert!(parsed.recurrence.is_none());
    }

    #[test]
    fn daily_recurrence_keeps_wall_time_for_a_year(
        start in now(),
        tz in zone(),
        (h, m) in prop_oneof![
            (0u32..24, 0u32..60),
            // Wall times that fall into DST gaps and overlaps of these zones.
            select(vec![(2, 0), (2, 30), (2, 59), (1, 30), (1, 0)]),
        ],
    ) {
        let time = NaiveTime::from_hms_opt(h, m, 0).unwrap();
        let daily = Recurrence::new(Frequency::Daily, time).unwrap();
        let mut at = daily.next_after(start, tz);
        let mut date = to_local(tz, at).date();
        prop_assert!(at > start);
        prop_assert!(date >= to_local(tz, start).date());
        for _ in 0..366 {
            check_occurrence(tz, date, time, at)?;
            let next = daily.next_after(at, tz);
            prop_assert!(next > at);
            date = date.succ_opt().unwrap();
            prop_assert_eq!(to_local(tz, next).date(), date, "skipped or repeated a day after {}", at);
            at = next;
        }
    }

    #[test]
    fn parsed_daily_recurrence_keeps_its_wall_time(
        now in now(), tz in zone(), h in 0u32..24, m in 0u32..60,
        form in select(vec!["every day at {t} pills", "каждый день в {t} таблетки", "har kuni soat {t} da dori"]),
    ) {
        let input = form.replace("{t}", &format!("{h:02}:{m:02}"));
        let parsed = parse(&input, Lang::En, now, tz)?;
        let rule = parsed.recurrence.ok_or_else(|| TestCaseError::fail("no recurrence"))?;
        prop_assert_eq!(rule.time(), NaiveTime::from_hms_opt(h, m, 0).unwrap());
        prop_assert!(parsed.due > now);
        let mut at = parsed.due;
        for _ in 0..400 {
            check_occurrence(tz, to_local(tz, at).date(), rule.time(), at)?;
            at = rule.next_after(at, tz);
        }
    }

    #[test]
    fn recurrences_round_trip_through_rule_strings(
        kind in 0usize..4,
        days in prop::collection::vec(weekday(), 1..7),
        day_of_month in 1u32..=31,
        (h, m, s) in (0u32..24, 0u32..60, 0u32..60),
    ) {
        let frequency = match kind {
            0 => Frequency::Daily,
            1 => Frequency::Weekdays,
            2 => Frequency::Weekly(days.into_iter().collect::<WeekdaySet>()),
            _ => Frequency::MonthlyOnDay(day_of_month),
        };
        let rule = Recurrence::new(frequency, NaiveTime::from_hms_opt(h, m, s).unwrap()).unwrap();
        let text = rule.to_rule_string();
        prop_assert_eq!(Recurrence::parse_rule_string(&text), Ok(rule), "{}", text);
    }

    #[test]
    fn richer_recurrences_round_trip_through_rule_strings(
        frequency in day_frequency(),
        time in wall_time(),
        interval in 1u32..=60,
        anchor in now(),
        hours in 1u32..=1000,
    ) {
        let rule = Recurrence::every(frequency, time, interval, anchor.date_naive()).unwrap();
        let text = rule.to_rule_string();
        prop_assert_eq!(Recurrence::parse_rule_string(&text), Ok(rule), "{}", text);
        prop_assert_eq!(rule.interval(), interval);
        let hourly = Recurrence::hourly(hours, anchor).unwrap();
        let text = hourly.to_rule_string();
        prop_assert_eq!(Recurrence::parse_rule_string(&text), Ok(hourly), "{}", text);
    }

    #[test]
    fn day_based_repeats_keep_their_days_wall_time_and_interval_across_dst(
        frequency in day_frequency(),
        time in wall_time(),
        interval in 1u32..=4,
        anchor_offset in -400i64..400,
        start in now(),
        tz in dst_zone(),
    ) {
        let anchor = start.date_naive() + Duration::days(anchor_offset);
        let rule = Recurrence::every(frequency, time, interval, anchor).unwrap();
        let anchor = match rule.anchor() {
            Some(Anchor::Date(date)) => date,
            _ => anchor,
        };
        let rounds = match frequency {
            Frequency::Yearly { .. } => 6,
            Frequency::MonthlyOnDay(_) | Frequency::MonthlyOnLastDay => 30,
            _ => 120,
        };
        let mut at = rule.next_after(start, tz);
        prop_assert!(at > start);
        let mut previous: Option<NaiveDate> = None;
        for _ in 0..rounds {
            let date = to_local(tz, at).date();
            // The wall time of an occurrence may be pushed past midnight by a gap only if
            // the gap is at midnight, which none of these zones has.
            check_occurrence(tz, date, time, at)?;
            prop_assert!(on_its_days(frequency, date), "{:?} fired on {}", frequency, date);
            let periods = periods_between(frequency, anchor, date);
            prop_assert_eq!(periods.rem_euclid(i64::from(interval)), 0, "{:?} every {} from {}: {}", frequency, interval, anchor, date);
            if let Some(previous) = previous {
                prop_assert!(date > previous, "{} not after {}", date, previous);
                let step = periods - periods_between(frequency, anchor, previous);
                let same_period = matches!(frequency, Frequency::Weekly(_) | Frequency::Weekdays) && step == 0;
                prop_assert!(same_period || step == i64::from(interval), "{:?} skipped from {} to {}", frequency, previous, date);
            }
            let next = rule.next_after(at, tz);
            prop_assert!(next > at, "{} not after {}", next, at);
            previous = Some(date);
            at = next;
        }
    }

    #[test]
    fn hourly_repeats_keep_elapsed_time_across_dst(
        hours in 1u32..=48,
        anchor in now(),
        start in now(),
        tz in dst_zone(),
    ) {
        let rule = Recurrence::hourly(hours, anchor).unwrap();
        let anchor = whole_second(anchor);
        let step = Duration::hours(i64::from(hours));
        let mut at = rule.next_after(start, tz);
        // The anchor is the first occurrence; after it, one step at most separates any instant
        // from the next.
        if start < anchor {
            prop_assert_eq!(at, anchor);
        } else {
            prop_assert!(at > start && at - start <= step);
        }
        prop_assert_eq!(rule.next_after(anchor - Duration::seconds(1), tz), anchor);
        prop_assert_eq!((at - anchor).num_seconds() % step.num_seconds(), 0);
        for _ in 0..200 {
            let next = rule.next_after(at, tz);
            prop_assert_eq!(next - at, step);
            at = next;
        }
    }

    #[test]
    fn parsed_interval_repeats_start_at_their_first_occurrence(
        now in now(), tz in dst_zone(), n in 2u32..=9, h in 0u32..24, m in 0u32..60,
        form in select(vec![
            "every {n} days at {t} water",
            "каждые {n} дня в {t} полив",
            "har {n} kunda soat {t} da suv",
            "every {n} weeks on tuesday and friday at {t} dance",
            "каждые {n} недели по вторникам и пятницам в {t} танцы",
            "har {n} haftada seshanba va juma soat {t} da raqs",
        ]),
    ) {
        let input = form.replace("{n}", &n.to_string()).replace("{t}", &format!("{h:02}:{m:02}"));
        let parsed = parse(&input, Lang::En, now, tz)?;
        let rule = parsed.recurrence.ok_or_else(|| TestCaseError::fail(format!("{input:?}: no recurrence")))?;
        prop_assert_eq!(rule.interval(), n);
        prop_assert_eq!(rule.time(), NaiveTime::from_hms_opt(h, m, 0).unwrap());
        prop_assert_eq!(rule.next_after(now, tz), parsed.due);
        let first = to_local(tz, parsed.due).date();
        let Some(Anchor::Date(anchor)) = rule.anchor() else {
            return Err(TestCaseError::fail("no anchor"));
        };
        prop_assert_eq!(periods_between(rule.frequency(), anchor, first), 0, "{:?}: the first occurrence {} is not in the anchor's period {}", input, first, anchor);
        let second = to_local(tz, rule.next_after(parsed.due, tz)).date();
        if rule.frequency() == Frequency::Daily {
            prop_assert_eq!((second - first).num_days(), i64::from(n));
        }
    }

    #[test]
    fn parsed_hourly_repeats_start_an_interval_from_now(
        now in now(), tz in dst_zone(), n in 1u32..=12,
        form in select(vec!["every {n} hours drink water", "каждые {n} часа пить воду", "har {n} soatda suv ichish"]),
    ) {
        let input = form.replace("{n}", &n.to_string());
        let parsed = parse(&input, Lang::Ru, now, tz)?;
        let rule = parsed.recurrence.ok_or_else(|| TestCaseError::fail("no recurrence"))?;
        prop_assert_eq!(rule.frequency(), Frequency::Hourly);
        let step = Duration::hours(i64::from(n));
        prop_assert!(parsed.due > now && parsed.due - now <= step);
        prop_assert!((parsed.due - now - step).num_seconds().abs() <= 1);
        prop_assert_eq!(rule.next_after(parsed.due, tz) - parsed.due, step);
    }

    #[test]
    fn monthly_on_day_fires_once_a_month_on_the_clamped_day(
        start in now(), tz in zone(), day in 1u32..=31,
    ) {
        let rule = Recurrence::new(Frequency::MonthlyOnDay(day), NaiveTime::from_hms_opt(9, 0, 0).unwrap()).unwrap();
        let mut at = rule.next_after(start, tz);
        for _ in 0..24 {
            let date = to_local(tz, at).date();
            let last_day = (28..=31).rev().find(|d| date.with_day(*d).is_some()).unwrap();
            prop_assert_eq!(date.day(), day.min(last_day));
            let next = rule.next_after(at, tz);
            let next_date = to_local(tz, next).date();
            prop_assert_eq!(next_date.month0(), (date.month0() + 1) % 12);
            at = next;
        }
    }

    #[test]
    fn no_string_makes_the_parser_panic(
        input in any::<String>(), now in now(), tz in zone(), lang in lang(),
    ) {
        if let Ok(parsed) = parse_due(&input, lang, now, tz) {
            prop_assert!(parsed.due >= now);
            prop_assert!(!parsed.text.is_empty());
        }
    }

    #[test]
    fn no_mix_of_phrase_words_makes_the_parser_panic(
        words in prop::collection::vec(select(vec![
            "in", "через", "keyin", "2", "30", "9", "21:00", "9.30", "31.12", "31.02", "2026", "3000",
            "25:61", "-", ",", ".", ":", "/", "@", "at", "в", "soat", "da", "pm", "a.m.", "вечера",
            "kechqurun", "tomorrow", "завтра", "ertaga", "сегодня", "yesterday", "monday", "next",
            "следующую", "пятницу", "dushanba", "kuni", "every", "каждый", "har", "day", "день",
            "weekdays", "по", "будням", "month", "oyning", "1-kuni", "числа", "1st", "the", "of",
            "hours", "минут", "soatdan", "daqiqa", "oldin", "за", "before", "remind", "me", "half",
            "полчаса", "полтора", "yarim", "december", "декабря", "5-dekabr", "noon", "🎉", "x", "task",
            "tonight", "midnight", "полночь", "tunda", "other", "once", "раз", "last", "последний",
            "end", "конце", "oxirgi", "oxirida", "year", "год", "yili", "kunlari", "week", "неделе",
            "hafta", "полшестого", "без", "четверти", "half", "past", "quarter", "to", "o'tganda",
            "qolganda", "beshda", "oltiga", "five", "пять", "besh", "twenty", "o'n", "14-fevral",
            "15th", "15-sanasida", "эртага", "ҳар", "соат", "обед", "lunch", "tomorow", "завтро",
            "hourly", "ежегодно", "29.02", "31st",
        ]), 0..14),
        now in now(), tz in zone(), lang in lang(),
    ) {
        let input = words.join(" ");
        if let Ok(parsed) = parse_due(&input, lang, now, tz) {
            prop_assert!(parsed.due >= now, "{:?}: {} before {}", input, parsed.due, now);
            prop_assert!(!parsed.text.is_empty());
            if let Some(rule) = parsed.recurrence {
                prop_assert_eq!(rule.next_after(now, tz), parsed.due);
            }
        }
    }
}

/// A phrase whose hour may be either side of noon ("at 3", "в 6", "soat 7 da"), written as on a
/// clock's face ("9:30") or not, on a day, in a repeat or alone, in some language and script;
/// sometimes with a repeat the bot cannot make ("every quarter") in its text.
fn hour_phrase() -> impl Strategy<Value = String> {
    let days = [
        "",
        "tomorrow",
        "завтра",
        "ertaga",
        "эртага",
        "in 2 days",
        "через 2 дня",
        "friday",
        "в пятницу",
        "every day",
        "каждый день",
        "har kuni",
        "ҳар куни",
    ];
    let extras = ["", " every quarter"];
    (
        select(days.to_vec()),
        1u32..=12,
        select(vec![0u32, 30]),
        0usize..6,
        select(extras.to_vec()),
    )
        .prop_map(|(day, h, m, form, extra)| {
            let time = match form {
                0 => format!("at {h}"),
                1 => format!("в {h}"),
                2 => format!("soat {h} da"),
                3 => format!("соат {h} да"),
                4 => format!("{h}:{m:02}"),
                _ => format!("at {h}:{m:02}"),
            };
            format!("{day} {time} call mom{extra}")
        })
}

/// What a note tells the user to send, and what they will get: "… send 03:00." gives 03:00;
/// "… send a repeat, for example: every day 9:00" gives a daily repeat at 09:00.
#[derive(Debug)]
enum Advice {
    /// Send this time of day (as typed in the note) to get that time.
    Time(String, NaiveTime),
    /// Send this repeat (as typed in the note) to get a daily repeat at that time.
    Repeat(String, NaiveTime),
}

/// The `HH:MM` times in `line`, in order.
fn clock_faces(line: &str) -> Vec<(String, NaiveTime)> {
    let chars: Vec<char> = line.chars().collect();
    (0..chars.len().saturating_sub(4))
        .filter_map(|i| {
            let face: String = chars[i..i + 5].iter().collect();
            let digits = [0, 1, 3, 4].iter().all(|&j| chars[i + j].is_ascii_digit());
            let before = i == 0 || !chars[i - 1].is_ascii_digit();
            (digits && chars[i + 2] == ':' && before)
                .then(|| {
                    NaiveTime::parse_from_str(&face, "%H:%M")
                        .ok()
                        .map(|t| (face, t))
                })
                .flatten()
        })
        .collect()
}

/// The advice in a note line, if it gives one: a line about an hour names the other reading
/// twice, last ("If you meant 03:00, … send 03:00"; a line that names two different times, "no
/// 02:00 that day, I set 03:00", advises nothing), a line about a repeat ends with an example
/// after a colon.
fn advice(line: &str) -> Option<Advice> {
    let faces = clock_faces(line);
    if let [.., (_, before), (face, time)] = faces.as_slice()
        && before == time
    {
        return Some(Advice::Time(face.clone(), *time));
    }
    let (_, example) = line.rsplit_once(": ")?;
    let time = example
        .split_whitespace()
        .find_map(|word| NaiveTime::parse_from_str(word, "%H:%M").ok())?;
    Some(Advice::Repeat(example.trim().to_owned(), time))
}

proptest! {
    #[test]
    fn every_note_that_says_send_x_gives_what_it_says(
        now in now(), tz in zone(), phrase in hour_phrase(),
        lang in select(vec![Lang::En, Lang::Ru, Lang::Uz, Lang::UzCyrl]),
    ) {
        let Ok(parsed) = parse_due(&phrase, lang, now, tz) else {
            return Ok(());
        };
        let lines = assumed::notes(Tr::new(lang), tz, now, &parsed.assumptions, &parsed.unplaced);
        let advice: Vec<Advice> = lines.iter().filter_map(|line| advice(line)).collect();
        // Nothing vacuous: an hour read with a guess worth saying is advised on, and so is a
        // repeat that was not made.
        let guessed = parsed.assumptions.iter().any(|a| matches!(a,
            Assumption::HourWithoutAmPm { typed, chosen }
                if !(chosen == typed && remindbot::domain::due::daytime_reading(*typed) == *typed)));
        let hour_advice = advice.iter().filter(|a| matches!(a, Advice::Time(..))).count();
        prop_assert_eq!(guessed, hour_advice > 0, "{:?}: {:?}", phrase, lines);
        let unmade = phrase.ends_with("every quarter") && parsed.recurrence.is_none();
        let repeat_advice = advice.iter().any(|a| matches!(a, Advice::Repeat(..)));
        prop_assert_eq!(unmade, repeat_advice, "{:?}: {:?}", phrase, lines);
        for advice in advice {
            match advice {
                Advice::Time(send, want) => {
                    // Sent as the answer to "Change time": a time of day alone, read as it is
                    // written, so the edit keeps the day and takes exactly this time.
                    let edit = parse_edit(&send, lang, now, tz)
                        .map_err(|e| TestCaseError::fail(format!("{send:?}: {e:?}")))?;
                    prop_assert!(edit.said.time && !edit.said.day && !edit.said.repeat, "{:?}", edit);
                    prop_assert!(
                        !edit.assumptions.iter().any(|a| matches!(a, Assumption::HourWithoutAmPm { .. })),
                        "{:?} is read with a guess again: {:?}", send, edit.assumptions
                    );
                    // Unless the clocks skip that time on its day ("02:00" on the night they go
                    // forward), and then the answer says so.
                    let skipped = |assumptions: &[Assumption]| assumptions.iter().any(|a| {
                        matches!(a, Assumption::ClockSkipped { said, .. } if *said == want)
                    });
                    let edited = to_local(tz, edit.due).time();
                    prop_assert!(edited == want || skipped(&edit.assumptions),
                        "{:?} after {:?}: {} {:?}", send, phrase, edited, edit.assumptions);
                    // Sent in a new task, it is that time too.
                    let task = parse(&format!("call mom {send}"), lang, now, tz)?;
                    let taken = to_local(tz, task.due).time();
                    prop_assert!(taken == want || skipped(&task.assumptions), "{} {:?}", taken, task.assumptions);
                }
                Advice::Repeat(send, want) => {
                    let edit = parse_edit(&send, lang, now, tz)
                        .map_err(|e| TestCaseError::fail(format!("{send:?}: {e:?}")))?;
                    let rule = edit.recurrence.ok_or_else(|| TestCaseError::fail(format!("{send:?} is no repeat")))?;
                    prop_assert!(edit.said.repeat);
                    prop_assert_eq!((rule.frequency(), rule.time()), (Frequency::Daily, want), "{:?}", send);
                }
            }
        }
    }

    #[test]
    fn every_other_weekday_is_two_weeks_apart_on_the_wall_clock_across_dst(
        now in now(), tz in dst_zone(), day in weekday(), time in wall_time(),
        form in select(vec!["every other {d} at {t} x", "every second {d} at {t} x", "every 2nd {d} at {t} x"]),
    ) {
        let input = form
            .replace("{d}", weekday_name(day))
            .replace("{t}", &time.format("%H:%M").to_string());
        let parsed = parse(&input, Lang::En, now, tz)?;
        let rule = parsed.recurrence.ok_or_else(|| TestCaseError::fail("no recurrence"))?;
        prop_assert_eq!((rule.frequency(), rule.interval()), (Frequency::Weekly(WeekdaySet::single(day)), 2));
        prop_assert_eq!(rule.next_after(now, tz), parsed.due);
        let mut at = parsed.due;
        let mut date = to_local(tz, at).date();
        for _ in 0..40 {
            prop_assert_eq!(date.weekday(), day);
            check_occurrence(tz, date, time, at)?;
            let next = rule.next_after(at, tz);
            let next_date = to_local(tz, next).date();
            prop_assert_eq!((next_date - date).num_days(), 14, "{} after {}", next_date, date);
            at = next;
            date = next_date;
        }
    }

    #[test]
    fn a_weekday_of_the_month_comes_once_in_every_month_short_ones_too(
        start in now(), tz in dst_zone(), week in week_of_month(), day in weekday(), time in wall_time(),
    ) {
        let rule = Recurrence::new(Frequency::MonthlyOnWeekday { week, day }, time).unwrap();
        let mut at = rule.next_after(start, tz);
        let mut month: Option<i32> = None;
        for _ in 0..30 {
            let date = to_local(tz, at).date();
            prop_assert!(on_its_days(rule.frequency(), date), "{:?} fell on {}", week, date);
            check_occurrence(tz, date, time, at)?;
            let index = date.year() * 12 + date.month0() as i32;
            if let Some(previous) = month {
                prop_assert_eq!(index, previous + 1, "a month skipped before {}", date);
            }
            month = Some(index);
            at = rule.next_after(at, tz);
        }
    }

    #[test]
    fn parsed_weekdays_of_the_month_start_at_their_first_occurrence(
        now in now(), tz in dst_zone(), h in 0u32..24, m in 0u32..60,
        form in select(vec![
            "every last friday at {t} x",
            "в последнюю пятницу каждого месяца в {t} x",
            "har oyning oxirgi jumasi soat {t} da x",
            "хар ойнинг охирги жумаси соат {t} да x",
        ]),
    ) {
        let input = form.replace("{t}", &format!("{h:02}:{m:02}"));
        let parsed = parse(&input, Lang::Ru, now, tz)?;
        let rule = parsed.recurrence.ok_or_else(|| TestCaseError::fail(format!("{input:?}: no recurrence")))?;
        prop_assert_eq!(rule.frequency(), Frequency::MonthlyOnWeekday { week: WeekOfMonth::Last, day: Weekday::Fri });
        prop_assert_eq!(rule.time(), NaiveTime::from_hms_opt(h, m, 0).unwrap());
        prop_assert_eq!(rule.next_after(now, tz), parsed.due);
        let date = to_local(tz, parsed.due).date();
        prop_assert!(date.weekday() == Weekday::Fri && date.day() + 7 > last_day(date));
    }

    #[test]
    fn a_series_never_yields_an_occurrence_past_its_end(
        rule in any_rule(), start in now(), tz in dst_zone(),
        end in prop_oneof![(0i64..120).prop_map(|d| (Some(d), None)), (1u32..=60).prop_map(|c| (None, Some(c)))],
    ) {
        let end = match end {
            (Some(days), _) => End::Until(to_local(tz, start).date() + Duration::days(days)),
            (_, count) => End::Count(count.unwrap_or(1)),
        };
        let rule = rule.ending(end).unwrap();
        let mut current = rule.first_occurrence(start, tz);
        let mut last: Option<Occurrence> = None;
        let mut seen = 0u32;
        while let Some(occurrence) = current {
            seen += 1;
            prop_assert_eq!(occurrence.index, seen);
            prop_assert!(occurrence.at > start);
            if let Some(last) = last {
                prop_assert!(occurrence.at > last.at);
            }
            match end {
                End::Until(until) => prop_assert!(to_local(tz, occurrence.at).date() <= until, "{} past {}", occurrence.at, until),
                End::Count(count) => prop_assert!(occurrence.index <= count),
            }
            last = Some(occurrence);
            if seen == 600 {
                break;
            }
            current = rule.next_occurrence(occurrence, occurrence.at, tz);
        }
        if seen < 600 {
            // It ended because the next slot is past the end, not earlier.
            let after = last.map_or(start, |o| o.at);
            match end {
                End::Count(count) => prop_assert_eq!(seen, count),
                End::Until(until) => prop_assert!(to_local(tz, rule.next_after(after, tz)).date() > until),
            }
        }
    }

    #[test]
    fn minute_repeats_keep_elapsed_time_across_dst(
        minutes in MIN_MINUTES..=600, anchor in now(), start in now(), tz in dst_zone(),
    ) {
        let rule = Recurrence::minutely(minutes, anchor).unwrap();
        let anchor = whole_second(anchor);
        let step = Duration::minutes(i64::from(minutes));
        let mut at = rule.next_after(start, tz);
        if start < anchor {
            prop_assert_eq!(at, anchor);
        } else {
            prop_assert!(at > start && at - start <= step);
        }
        for _ in 0..300 {
            let next = rule.next_after(at, tz);
            prop_assert_eq!(next - at, step);
            at = next;
        }
    }

    #[test]
    fn parsed_minute_repeats_start_an_interval_from_now_and_refuse_under_five(
        now in now(), tz in dst_zone(), n in 1u32..=180,
        form in select(vec!["every {n} minutes x", "каждые {n} минут x", "har {n} daqiqada x", "ҳар {n} дақиқада x"]),
    ) {
        let input = form.replace("{n}", &n.to_string());
        let parsed = parse_due(&input, Lang::En, now, tz);
        if n < MIN_MINUTES {
            prop_assert_eq!(parsed, Err(DueError::RepeatTooOften { every_secs: u64::from(n) * 60 }));
            return Ok(());
        }
        let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{input:?}: {e:?}")))?;
        let rule = parsed.recurrence.ok_or_else(|| TestCaseError::fail("no recurrence"))?;
        let step = Duration::minutes(i64::from(n));
        prop_assert!(parsed.due > now && (parsed.due - now - step).num_seconds().abs() <= 1);
        prop_assert_eq!(rule.next_after(parsed.due, tz) - parsed.due, step);
    }

    #[test]
    fn a_repeat_counted_from_done_comes_its_interval_after_the_completion(
        days in 1u32..=30, hours in 1u32..=48, time in wall_time(), anchor in now(), done in now(),
        tz in dst_zone(),
    ) {
        let daily = Recurrence::every(Frequency::Daily, time, days, anchor.date_naive())
            .and_then(Recurrence::from_done)
            .unwrap();
        let previous = Occurrence { at: anchor, index: 1 };
        let next = daily.after_done(previous, done, tz).unwrap();
        let date = to_local(tz, next.at).date();
        prop_assert_eq!(date, to_local(tz, done).date() + Duration::days(i64::from(days)));
        check_occurrence(tz, date, time, next.at)?;
        prop_assert_eq!(next.index, 2);
        let hourly = Recurrence::hourly(hours, anchor).and_then(Recurrence::from_done).unwrap();
        let next = hourly.after_done(previous, done, tz).unwrap();
        prop_assert_eq!(next.at - done, Duration::hours(i64::from(hours)));
        let counted = daily.ending(End::Count(1)).unwrap();
        prop_assert_eq!(counted.after_done(previous, done, tz), None);
    }
}
