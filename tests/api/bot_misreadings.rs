//! No silent misreadings, as the user lives them through the simulator: each "confident
//! misreading" of issue 14 now saves what was meant and the confirmation says what the bot
//! assumed ("I took 3 as 15:00"), names every day of a repeat, or says clearly what it could
//! not use, so that Undo or Change time under it can put it right.
//!
//! The users live in a fixed-offset zone where it is now between 12:00 and 13:00 (the issue's
//! "at 12:48"), chosen from the current time, so every expectation holds whenever the tests run.

use chrono::{DateTime, Datelike, Days, NaiveDate, NaiveTime, Timelike, Utc, Weekday};
use chrono_tz::Tz;
use remindbot::domain::lang::Lang;
use remindbot::domain::timezone::{parse_zone, resolve_local, to_local};
use remindbot::i18n::dates::Dates;
use remindbot::i18n::{Arg, Tr};

use crate::app::{TestApp, buttons, text};
use crate::bot_trust::{button, edit, stored};

/// A zone in which it is now past noon and before 13:00: a whole-hour offset from UTC.
pub(crate) fn noon_zone() -> Tz {
    zone_at(12)
}

/// A zone in which it is now `local_hour`:xx (0–23): a whole-hour offset from UTC.
pub(crate) fn zone_at(local_hour: i32) -> Tz {
    let hour = i32::try_from(Utc::now().hour()).unwrap();
    let offset = (local_hour - hour + 36) % 24 - 12; // -12..=11, so that local = local_hour:xx
    let offset = if offset == -12 { 12 } else { offset };
    let name = match offset {
        0 => "UTC".to_owned(),
        // POSIX signs: Etc/GMT-5 is UTC+5.
        _ => format!("Etc/GMT{:+}", -offset),
    };
    parse_zone(&name).unwrap()
}

/// A user of `lang` in [`noon_zone`].
pub(crate) async fn at_noon(app: &TestApp, lang: &str) -> (i64, Tz) {
    let zone = noon_zone();
    let user = app.user("Ann", lang);
    app.say(user, &format!("/tz {}", zone.name())).await;
    (user, zone)
}

/// The local date of today in `zone`.
pub(crate) fn today(zone: Tz) -> NaiveDate {
    to_local(zone, Utc::now()).date()
}

pub(crate) fn at(zone: Tz, date: NaiveDate, hour: u32, minute: u32) -> DateTime<Utc> {
    resolve_local(
        zone,
        date.and_time(NaiveTime::from_hms_opt(hour, minute, 0).unwrap()),
    )
}

/// The id of the task a confirmation is about (its Change time button).
pub(crate) fn task_id(card: &tgsim::TranscriptEntry) -> i64 {
    button(card, "e:")[2..].parse().unwrap()
}

#[tokio::test]
async fn misreading_an_hour_without_am_pm_is_the_next_one_ahead_and_said() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;

    // "meeting with Bob at 3" at 12:xx: 15:00 today, and the card says how to get 03:00.
    let card = app.say(ann, "meeting with Bob at 3").await;
    let said = tr.t_with(
        "assumed-hour",
        &[
            ("typed", Arg::Text("3")),
            ("chosen", Arg::Text("15:00")),
            ("other", Arg::Text("03:00")),
        ],
    );
    assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
    assert!(text(&card).contains("today at 15:00"), "{card:?}");
    assert!(text(&card).contains(&said), "{card:?} lacks {said}");
    let id = task_id(&card);
    let (task_text, due, ..) = stored(&app, id).await;
    assert_eq!(task_text, "meeting with Bob");
    assert_eq!(due, at(zone, today(zone), 15, 0));

    // Doing what it says: Change time, "03:00". The night it is, and nothing more is assumed.
    let changed = edit(&app, ann, &card, "03:00").await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    let tomorrow = today(zone).succ_opt().unwrap();
    assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, 3, 0));
    assert!(text(&changed).contains("03:00"), "{changed:?}");
    assert!(!text(&changed).contains("ℹ️"), "{changed:?}");
    // An hour of the day as written is not worth a word.
    let plain = app.say(ann, "pay rent tomorrow 9:00").await;
    assert!(!text(&plain).contains("ℹ️"), "{plain:?}");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn misreading_every_tuesday_and_thursday_keeps_and_names_both_days() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app
        .say(ann, "every tuesday and thursday at 19:00 gym")
        .await;
    assert!(
        text(&card).contains("every Tuesday and Thursday"),
        "{card:?}"
    );
    assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
    let (task_text, due, rule, ..) = stored(&app, task_id(&card)).await;
    assert_eq!(task_text, "gym");
    let rule = rule.unwrap();
    assert!(rule.contains("BYDAY=TU,TH"), "{rule}");
    let local = to_local(zone, due);
    assert!(
        matches!(local.weekday(), Weekday::Tue | Weekday::Thu),
        "{local}"
    );
    assert_eq!(local.time(), NaiveTime::from_hms_opt(19, 0, 0).unwrap());
    assert!(!text(&card).contains("⚠️"), "{card:?}");
    app.stop().await;
}

#[tokio::test]
async fn misreading_flowers_every_year_on_14_feb_is_a_yearly_repeat() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app.say(ann, "flowers every year on 14 Feb").await;
    assert!(
        text(&card).contains("every year on 14 February"),
        "{card:?}"
    );
    // No time was said: the card says which one was taken.
    let said = tr.t_with("assumed-time-not-said", &[("chosen", Arg::Text("09:00"))]);
    assert!(text(&card).contains(&said), "{card:?}");
    let (task_text, due, rule, ..) = stored(&app, task_id(&card)).await;
    assert_eq!(task_text, "flowers");
    assert!(
        rule.as_deref()
            .unwrap()
            .contains("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14"),
        "{rule:?}"
    );
    let local = to_local(zone, due);
    assert_eq!((local.month(), local.day(), local.hour()), (2, 14, 9));
    app.stop().await;
}

#[tokio::test]
async fn misreading_next_friday_is_next_weeks_and_says_the_date() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let (ann, zone) = at_noon(&app, "ru").await;
    let card = app.say(ann, "в следующую пятницу в 10:00 отчёт").await;

    // Next week (weeks start on Monday), its Friday.
    let today = today(zone);
    let next_monday = today
        .checked_add_days(Days::new(u64::from(
            7 - today.weekday().num_days_from_monday(),
        )))
        .unwrap();
    let friday = next_monday.checked_add_days(Days::new(4)).unwrap();
    let due = at(zone, friday, 10, 0);
    assert_eq!(stored(&app, task_id(&card)).await.1, due);
    let dates = Dates::new(tr, zone, Utc::now());
    assert!(
        text(&card).contains(&dates.moment_with_weekday(due)),
        "{card:?}"
    );
    // Said whenever it is not the coming Friday (it is from Friday noon on).
    let said = tr.t_with(
        "assumed-next-weekday",
        &[("date", Arg::Text(&dates.day(due)))],
    );
    let coming_friday_is_next_weeks =
        matches!(today.weekday(), Weekday::Fri | Weekday::Sat | Weekday::Sun);
    assert_eq!(
        text(&card).contains(&said),
        !coming_friday_is_next_weeks,
        "{card:?} and {said}"
    );
    app.stop().await;
}

#[tokio::test]
async fn misreading_midnight_today_is_the_coming_midnight() {
    let mut app = TestApp::start().await;
    for (lang, phrase, task) in [
        (Lang::Ru, "сегодня в полночь позвонить", "позвонить"),
        (Lang::Uz, "bugun yarim tunda qo'ng'iroq", "qo'ng'iroq"),
    ] {
        let tr = Tr::new(lang);
        let (ann, zone) = at_noon(&app, lang.as_str()).await;
        let card = app.say(ann, phrase).await;
        assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
        let tomorrow = today(zone).succ_opt().unwrap();
        let due = at(zone, tomorrow, 0, 0);
        let (task_text, stored_due, ..) = stored(&app, task_id(&card)).await;
        assert_eq!((task_text.as_str(), stored_due), (task, due));
        let said = tr.t_with(
            "assumed-night-after",
            &[(
                "date",
                Arg::Text(&Dates::new(tr, zone, Utc::now()).day(due)),
            )],
        );
        assert!(text(&card).contains(&said), "{card:?} lacks {said}");
    }
    app.stop().await;
}

/// A zone in which it is now between 00:00 and 01:00: a whole-hour offset from UTC.
fn after_midnight_zone() -> Tz {
    let hour = i32::try_from(Utc::now().hour()).unwrap();
    let offset = (36 - hour) % 24 - 12; // -12..=11, so that local = 00:xx
    let name = match offset {
        0 => "UTC".to_owned(),
        // POSIX signs: Etc/GMT-5 is UTC+5.
        _ => format!("Etc/GMT{:+}", -offset),
    };
    parse_zone(&name).unwrap()
}

#[tokio::test]
async fn misreading_tomorrow_after_midnight_is_the_coming_day_and_said() {
    let mut app = TestApp::start().await;
    let zone = after_midnight_zone();
    let today = today(zone);
    // Said at 00:xx, "tomorrow" is today's date: the morning that is coming.
    for (lang, phrase, task) in [
        (Lang::Ru, "завтра в 9 позвонить в банк", "позвонить в банк"),
        (Lang::En, "tomorrow morning call the bank", "call the bank"),
        (
            Lang::Uz,
            "ertaga soat 9 da bankka qo'ng'iroq",
            "bankka qo'ng'iroq",
        ),
    ] {
        let tr = Tr::new(lang);
        let user = app.user("Ann", lang.as_str());
        app.say(user, &format!("/tz {}", zone.name())).await;
        let card = app.say(user, phrase).await;
        assert!(text(&card).contains(&tr.t("task-saved")), "{card:?}");
        let due = at(zone, today, 9, 0);
        let (task_text, stored_due, ..) = stored(&app, task_id(&card)).await;
        assert_eq!((task_text.as_str(), stored_due), (task, due));
        let said = tr.t_with(
            "assumed-tomorrow-after-midnight",
            &[(
                "date",
                Arg::Text(&Dates::new(tr, zone, Utc::now()).day(due)),
            )],
        );
        assert!(text(&card).contains(&said), "{card:?} lacks {said}");
    }

    // Change time to "tomorrow at 11": the coming day too, and said again.
    let tr = Tr::new(Lang::En);
    let ann = app.user("Bob", "en");
    app.say(ann, &format!("/tz {}", zone.name())).await;
    let card = app.say(ann, "in 3 days call the bank").await;
    let changed = edit(&app, ann, &card, "tomorrow at 11").await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    let due = at(zone, today, 11, 0);
    assert_eq!(stored(&app, task_id(&card)).await.1, due);
    let said = tr.t_with(
        "assumed-tomorrow-after-midnight",
        &[(
            "date",
            Arg::Text(&Dates::new(tr, zone, Utc::now()).day(due)),
        )],
    );
    assert!(text(&changed).contains(&said), "{changed:?} lacks {said}");
    app.stop().await;
}

#[tokio::test]
async fn misreading_a_typo_is_read_and_said() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app.say(ann, "tomorow 9:00 dentist").await;
    let said = tr.t_with(
        "assumed-typo",
        &[
            ("typed", Arg::Text("tomorow")),
            ("read", Arg::Text("tomorrow")),
        ],
    );
    assert!(text(&card).contains(&said), "{card:?}");
    let tomorrow = today(zone).succ_opt().unwrap();
    let (task_text, due, ..) = stored(&app, task_id(&card)).await;
    assert_eq!(
        (task_text.as_str(), due),
        ("dentist", at(zone, tomorrow, 9, 0))
    );

    // The same in the answer to "when?".
    let ask = app.say(ann, "buy bread").await;
    assert!(text(&ask).contains(&tr.t("ask-when")), "{ask:?}");
    let card = app.say(ann, "tomorow 18:00").await;
    assert!(text(&card).contains("buy bread"), "{card:?}");
    assert!(text(&card).contains(&said), "{card:?}");
    app.stop().await;
}

#[tokio::test]
async fn misreading_a_repeat_not_understood_is_said_and_one_tap_from_fixed() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app
        .say(ann, "stretch every 10 minutes tomorrow at 10:00")
        .await;
    let warned = tr.t_with(
        "unplaced-repeat",
        &[("words", Arg::Text("every 10 minutes"))],
    );
    assert!(text(&card).contains(&warned), "{card:?} lacks {warned}");
    let id = task_id(&card);
    let (task_text, due, rule, ..) = stored(&app, id).await;
    assert_eq!(task_text, "stretch every 10 minutes");
    assert_eq!(rule, None);
    let tomorrow = today(zone).succ_opt().unwrap();
    assert_eq!(due, at(zone, tomorrow, 10, 0));

    // An answer to "new time?" that is only a repeat the bot cannot make changes nothing.
    let refused = edit(&app, ann, &card, "every quarter").await;
    let problem = tr.t_with(
        "edit-repeat-unknown",
        &[("words", Arg::Text("every quarter"))],
    );
    assert!(text(&refused).contains(&problem), "{refused:?}");
    assert_eq!(stored(&app, id).await.0, "stretch every 10 minutes");
    // The question is still open: a repeat it knows makes it repeat.
    let changed = app.say(ann, "every day 10:00").await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    assert!(
        text(&changed).contains(&tr.t("repeat-daily")),
        "{changed:?}"
    );
    assert!(
        stored(&app, id).await.2.unwrap().starts_with("FREQ=DAILY"),
        "the rule is daily"
    );

    // Words of a day kept in the text are mentioned.
    let card = app
        .say(ann, "prepare the monday report tomorrow at 10")
        .await;
    let kept = tr.t_with("unplaced-kept", &[("words", Arg::Text("monday"))]);
    assert!(text(&card).contains(&kept), "{card:?}");

    // A message whose only time words are such a repeat: "when?", saying what was not understood.
    let ask = app.say(ann, "call mom every quarter").await;
    let loose = tr.t_with(
        "unplaced-repeat-loose",
        &[("words", Arg::Text("every quarter"))],
    );
    assert!(text(&ask).contains(&loose), "{ask:?}");
    assert!(text(&ask).contains(&tr.t("ask-when")), "{ask:?}");
    assert_eq!(buttons(&ask), ["q:w"]);
    app.stop().await;
}

#[tokio::test]
async fn misreading_an_edit_says_what_it_assumed() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let card = app.say(ann, "call mom tomorrow 18:00").await;
    let id = task_id(&card);
    // "at 3" on tomorrow's task is tomorrow's daytime 3, and said.
    let changed = edit(&app, ann, &card, "at 3").await;
    let tomorrow = today(zone).succ_opt().unwrap();
    assert_eq!(stored(&app, id).await.1, at(zone, tomorrow, 15, 0));
    let said = tr.t_with(
        "assumed-hour",
        &[
            ("typed", Arg::Text("3")),
            ("chosen", Arg::Text("15:00")),
            ("other", Arg::Text("03:00")),
        ],
    );
    assert!(text(&changed).contains(&said), "{changed:?}");
    // A day alone keeps the time: nothing assumed about it.
    let moved = edit(&app, ann, &changed, "saturday").await;
    let local = to_local(zone, stored(&app, id).await.1);
    assert_eq!((local.weekday(), local.hour()), (Weekday::Sat, 15));
    assert!(!text(&moved).contains("ℹ️"), "{moved:?}");
    app.stop().await;
}

/// A time said in another zone ("в 19:00 по мск") is that zone's: the task is due then, and the
/// card says what it is on the user's clock. A repeat keeps the user's zone and says that the
/// zone was left in the text.
#[tokio::test]
async fn a_time_said_in_another_zone_is_that_zones_and_said() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let (ann, zone) = at_noon(&app, "ru").await;
    let moscow: Tz = "Europe/Moscow".parse().unwrap();

    let card = app.say(ann, "вебинар завтра в 19:00 по мск").await;
    let id = task_id(&card);
    let (task_text, due, ..) = stored(&app, id).await;
    assert_eq!(task_text, "вебинар");
    let moscow_tomorrow = crate::support::said_tomorrow(moscow);
    assert_eq!(due, at(moscow, moscow_tomorrow, 19, 0));
    let yours = to_local(zone, due).format("%H:%M").to_string();
    let said = tr.t_with(
        "assumed-other-zone",
        &[
            ("theirs", Arg::Text("19:00")),
            ("offset", Arg::Text("UTC+3")),
            ("yours", Arg::Text(&yours)),
        ],
    );
    assert!(text(&card).contains(&said), "{card:?} lacks {said}");
    assert!(text(&card).contains(&yours), "{card:?}");

    let repeat = app.say(ann, "каждый день в 10:00 по мск отчёт").await;
    let kept = tr.t_with("unplaced-kept", &[("words", Arg::Text("по мск"))]);
    assert!(text(&repeat).contains(&kept), "{repeat:?} lacks {kept}");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

/// A weekday said beside a date ("thursday april 1" when 1 April is a Wednesday): the date is
/// kept, and the card says the weekday did not match it; a weekday that matches is not said.
#[tokio::test]
async fn a_weekday_beside_a_date_keeps_the_date_and_says_a_mismatch() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let date = today(zone).checked_add_days(Days::new(10)).unwrap();
    let wrong = date.weekday().succ();
    let name = |day: Weekday| {
        NaiveDate::from_isoywd_opt(2026, 10, day)
            .unwrap()
            .format("%A")
    };
    let on_the_date = format!("{} {}", date.format("%B"), date.day());

    let card = app
        .say(
            ann,
            &format!("{} {on_the_date} at 10:00 report", name(wrong)),
        )
        .await;
    let (task_text, due, ..) = stored(&app, task_id(&card)).await;
    assert_eq!(task_text, "report");
    assert_eq!(due, at(zone, date, 10, 0));
    let dates = Dates::new(tr, zone, Utc::now());
    let said = tr.t_with(
        "assumed-weekday-of-date",
        &[
            ("said", Arg::Text(&dates.weekday(wrong))),
            ("date", Arg::Text(&dates.day(due))),
        ],
    );
    assert!(text(&card).contains(&said), "{card:?} lacks {said}");

    let right = app
        .say(
            ann,
            &format!("{} {on_the_date} at 11:00 call", name(date.weekday())),
        )
        .await;
    assert_eq!(stored(&app, task_id(&right)).await.1, at(zone, date, 11, 0));
    assert!(!text(&right).contains("You said"), "{right:?}");
    app.stop().await;
}

#[tokio::test]
async fn two_times_joined_by_and_make_two_reminders_each_with_its_card() {
    let mut app = TestApp::start().await;
    let (ann, zone) = at_noon(&app, "en").await;
    let tomorrow = today(zone).succ_opt().unwrap();

    // "every day at 9 and 21 pills" at 12:xx: pills daily at 09:00 (first tomorrow) and daily
    // at 21:00 (first tonight); the evening dose was lost in the text.
    let cards = app
        .say_expecting(ann, ann, "every day at 9 and 21 pills", 2)
        .await;
    let morning = stored(&app, task_id(&cards[0])).await;
    let evening = stored(&app, task_id(&cards[1])).await;
    assert_eq!((morning.0.as_str(), evening.0.as_str()), ("pills", "pills"));
    assert_eq!(morning.1, at(zone, tomorrow, 9, 0));
    assert_eq!(evening.1, at(zone, today(zone), 21, 0));
    for (rule, hour) in [(&morning.2, "BYHOUR=9;"), (&evening.2, "BYHOUR=21;")] {
        let rule = rule.as_deref().unwrap_or_default();
        assert!(rule.contains("FREQ=DAILY") && rule.contains(hour), "{rule}");
    }
    for card in &cards {
        assert!(text(card).contains("pills"), "{card:?}");
        assert!(
            !text(card).contains("I kept"),
            "no time is left unused: {card:?}"
        );
    }

    // Change time answered with two times: one task has one time, so the card says the second
    // was left out and how to get it, not that its words were kept in the text (they are not).
    let changed = edit(&app, ann, &cards[0], "9 and 21").await;
    let said = Tr::new(Lang::En).t_with("unplaced-second-time", &[("words", Arg::Text("21"))]);
    assert!(text(&changed).contains(&said), "{changed:?} lacks {said}");
    assert!(!text(&changed).contains("I kept"), "{changed:?}");
    assert_eq!(stored(&app, task_id(&cards[0])).await.0, "pills");

    // The first time may come before the repeat, in Russian: "в 8:00 и 20:00 каждый день".
    let (boris, _) = at_noon(&app, "ru").await;
    let cards = app
        .say_expecting(boris, boris, "пить таблетки в 8:00 и 20:00 каждый день", 2)
        .await;
    let mut times: Vec<(String, DateTime<Utc>)> = Vec::new();
    for card in &cards {
        let (task_text, due, ..) = stored(&app, task_id(card)).await;
        times.push((task_text, due));
    }
    times.sort_by_key(|(_, due)| *due);
    assert_eq!(
        times,
        [
            ("пить таблетки".to_owned(), at(zone, today(zone), 20, 0)),
            ("пить таблетки".to_owned(), at(zone, tomorrow, 8, 0)),
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn misreading_through_a_day_is_the_day_after_and_its_advice_makes_it_repeat() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let (ann, zone) = at_noon(&app, "en").await;
    let tomorrow = today(zone).succ_opt().unwrap();

    // "через день" is the day after, or every other day: the day after is taken and said, with
    // how to make it repeat.
    let card = app.say(ann, "поливать фикус через день в 8 утра").await;
    let advice = "every 2 days at 08:00";
    assert!(text(&card).contains(advice), "{card:?} lacks {advice}");
    let id = task_id(&card);
    let (task_text, due, rule, ..) = stored(&app, id).await;
    assert_eq!(task_text, "поливать фикус");
    assert_eq!(due, at(zone, tomorrow, 8, 0));
    assert_eq!(rule, None);

    // Following the advice gives what it says: every 2 days at 08:00, from tomorrow's.
    let changed = edit(&app, ann, &card, advice).await;
    assert!(
        text(&changed).contains(&tr.t("task-changed")),
        "{changed:?}"
    );
    let (_, due, rule, ..) = stored(&app, id).await;
    assert_eq!(due, at(zone, tomorrow, 8, 0));
    let rule = rule.unwrap();
    assert!(rule.starts_with("FREQ=DAILY;INTERVAL=2"), "{rule}");

    // "order pizza in 20": 20 minutes from now, said.
    let before = Utc::now();
    let card = app.say(ann, "order pizza in 20").await;
    let said = tr.t_with("assumed-minutes-unsaid", &[("minutes", Arg::Number(20))]);
    assert!(text(&card).contains(&said), "{card:?} lacks {said}");
    let (task_text, due, ..) = stored(&app, task_id(&card)).await;
    assert_eq!(task_text, "order pizza");
    let minutes = (due - before).num_minutes();
    assert!((19..=20).contains(&minutes), "due in {minutes} minutes");
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}
