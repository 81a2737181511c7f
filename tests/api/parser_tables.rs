//! Table tests of the due-date parser: phrases in English, Russian and
//! Uzbek with a fixed "now", in zones with DST (Europe/Berlin,
//! America/New_York) and without (Asia/Tashkent, Europe/Moscow), on both
//! sides of DST changes; then bad input, which must never panic and must
//! give the expected error or a sane parse; then typed time zones.
//!
//! Calendar used: Fri 2026-03-27; Berlin springs forward Sun 2026-03-29
//! 02:00→03:00 and falls back Sun 2026-10-25 03:00→02:00; New York springs
//! forward Sun 2026-03-08 and falls back Sun 2026-11-01.

use chrono::{NaiveDateTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use remindbot::domain::due::{DueError, ParsedDue, parse_due};
use remindbot::domain::lang::Lang::{self, En, Ru, Uz};
use remindbot::domain::timezone::{ZoneError, parse_zone};

/// A zone and the local "now" of a group of rows.
#[derive(Clone, Copy)]
struct Scene {
    tz: Tz,
    now: &'static str,
}

const BERLIN_FRI: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-27 10:00",
};
const BERLIN_SAT: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-28 10:00",
};
const BERLIN_SUN: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-29 12:00",
};
const BERLIN_OCT: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-10-24 10:00",
};
const NY_MAR: Scene = Scene {
    tz: Tz::America__New_York,
    now: "2026-03-07 10:00",
};
const NY_OCT: Scene = Scene {
    tz: Tz::America__New_York,
    now: "2026-10-31 10:00",
};
const NY_NOV: Scene = Scene {
    tz: Tz::America__New_York,
    now: "2026-11-02 08:00",
};
const TASHKENT: Scene = Scene {
    tz: Tz::Asia__Tashkent,
    now: "2026-03-27 10:00",
};
const TASHKENT_LATE: Scene = Scene {
    tz: Tz::Asia__Tashkent,
    now: "2026-03-27 23:30",
};
const MOSCOW: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-27 10:00",
};
const MOSCOW_NYE: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-12-30 22:00",
};

/// What a row expects.
#[derive(Debug)]
enum Want {
    Due(Expect),
    Fails(DueError),
}

/// An expected parse: local due time, text, and optional extras.
#[derive(Debug, Default)]
struct Expect {
    at: &'static str,
    text: &'static str,
    rule: Option<&'static str>,
    lead_minutes: Option<i64>,
    utc: Option<&'static str>,
}

fn due(at: &'static str, text: &'static str) -> Want {
    Want::Due(Expect {
        at,
        text,
        ..Expect::default()
    })
}

fn fails(error: DueError) -> Want {
    Want::Fails(error)
}

impl Want {
    /// The recurrence's rule without the time part, which must equal `at`'s.
    fn every(self, rule: &'static str) -> Want {
        self.with(|e| e.rule = Some(rule))
    }

    fn lead(self, minutes: i64) -> Want {
        self.with(|e| e.lead_minutes = Some(minutes))
    }

    /// The exact instant, for wall times that happen twice.
    fn utc(self, utc: &'static str) -> Want {
        self.with(|e| e.utc = Some(utc))
    }

    fn with(self, f: impl FnOnce(&mut Expect)) -> Want {
        match self {
            Want::Due(mut e) => {
                f(&mut e);
                Want::Due(e)
            }
            other => other,
        }
    }
}

fn naive(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M"))
        .unwrap_or_else(|e| panic!("bad test datetime {s}: {e}"))
}

fn in_past(s: &str) -> DueError {
    DueError::InPast { local: naive(s) }
}

#[rustfmt::skip]
fn rows() -> Vec<(Scene, Lang, &'static str, Want)> {
    vec![
        // ---- English, Berlin, Friday 2026-03-27 10:00 ----
        (BERLIN_FRI, En, "pay rent tomorrow 9:00", due("2026-03-28 09:00", "pay rent")),
        (BERLIN_FRI, En, "tomorrow 9:00 pay rent", due("2026-03-28 09:00", "pay rent")),
        (BERLIN_FRI, En, "tomorrow at 9 pay rent", due("2026-03-28 09:00", "pay rent")),
        (BERLIN_FRI, En, "Pay rent TOMORROW 9am", due("2026-03-28 09:00", "Pay rent")),
        (BERLIN_FRI, En, "tomorrow pay rent at 9", due("2026-03-28 09:00", "pay rent")),
        (BERLIN_FRI, En, "remind me to pay rent tomorrow at 9", due("2026-03-28 09:00", "pay rent")),
        (BERLIN_FRI, En, "call mom tomorrow at 9 about dinner", due("2026-03-28 09:00", "call mom about dinner")),
        (BERLIN_FRI, En, "in 10 min check the oven", due("2026-03-27 10:10", "check the oven")),
        (BERLIN_FRI, En, "check the oven in 10 minutes", due("2026-03-27 10:10", "check the oven")),
        (BERLIN_FRI, En, "call mom in 2 hours", due("2026-03-27 12:00", "call mom")),
        (BERLIN_FRI, En, "in 30 seconds tea", due("2026-03-27 10:00:30", "tea")),
        (BERLIN_FRI, En, "tea in 1 minute", due("2026-03-27 10:01", "tea")),
        (BERLIN_FRI, En, "in an hour call Bob", due("2026-03-27 11:00", "call Bob")),
        (BERLIN_FRI, En, "in half an hour stretch", due("2026-03-27 10:30", "stretch")),
        (BERLIN_FRI, En, "in 1.5 hours leave", due("2026-03-27 11:30", "leave")),
        (BERLIN_FRI, En, "in 2h30m leave", due("2026-03-27 12:30", "leave")),
        (BERLIN_FRI, En, "in 1 hour and 15 minutes leave", due("2026-03-27 11:15", "leave")),
        (BERLIN_FRI, En, "leave 2 hours later", due("2026-03-27 12:00", "leave")),
        (BERLIN_FRI, En, "gym in 3 days", due("2026-03-30 10:00", "gym")),
        (BERLIN_FRI, En, "gym in 2 days at 7", due("2026-03-29 07:00", "gym")),
        (BERLIN_FRI, En, "review in a week", due("2026-04-03 10:00", "review")),
        (BERLIN_FRI, En, "renew passport in 2 months", due("2026-05-27 10:00", "renew passport")),
        (BERLIN_FRI, En, "today 18:00 gym", due("2026-03-27 18:00", "gym")),
        (BERLIN_FRI, En, "the day after tomorrow dentist", due("2026-03-29 09:00", "dentist")),
        (BERLIN_FRI, En, "dentist day after tomorrow 11:00", due("2026-03-29 11:00", "dentist")),
        (BERLIN_FRI, En, "monday 10:00 standup", due("2026-03-30 10:00", "standup")),
        (BERLIN_FRI, En, "standup on monday", due("2026-03-30 09:00", "standup")),
        (BERLIN_FRI, En, "next monday standup", due("2026-03-30 09:00", "standup")),
        (BERLIN_FRI, En, "friday 18:00 drinks", due("2026-03-27 18:00", "drinks")),
        (BERLIN_FRI, En, "friday 9:00 drinks", due("2026-04-03 09:00", "drinks")),
        (BERLIN_FRI, En, "next friday 18:00 drinks", due("2026-04-03 18:00", "drinks")),
        (BERLIN_FRI, En, "mon 10:00 planning", due("2026-03-30 10:00", "planning")),
        (BERLIN_FRI, En, "call bob at 9", due("2026-03-28 09:00", "call bob")),
        (BERLIN_FRI, En, "call bob 9 pm", due("2026-03-27 21:00", "call bob")),
        (BERLIN_FRI, En, "call bob at 3 p.m.", due("2026-03-27 15:00", "call bob")),
        (BERLIN_FRI, En, "call bob 11:45", due("2026-03-27 11:45", "call bob")),
        (BERLIN_FRI, En, "dinner 21:00", due("2026-03-27 21:00", "dinner")),
        (BERLIN_FRI, En, "dinner 21.00", due("2026-03-27 21:00", "dinner")),
        (BERLIN_FRI, En, "lunch at noon", due("2026-03-27 12:00", "lunch")),
        (BERLIN_FRI, En, "backup at midnight", due("2026-03-28 00:00", "backup")),
        (BERLIN_FRI, En, "tomorrow morning run", due("2026-03-28 09:00", "run")),
        (BERLIN_FRI, En, "movie tomorrow at 8 in the evening", due("2026-03-28 20:00", "movie")),
        (BERLIN_FRI, En, "pay taxes 31.12", due("2026-12-31 09:00", "pay taxes")),
        (BERLIN_FRI, En, "pay taxes 31.12.2026", due("2026-12-31 09:00", "pay taxes")),
        (BERLIN_FRI, En, "pay taxes 2026-12-31", due("2026-12-31 09:00", "pay taxes")),
        (BERLIN_FRI, En, "report December 5", due("2026-12-05 09:00", "report")),
        (BERLIN_FRI, En, "report 5 Dec 14:30", due("2026-12-05 14:30", "report")),
        (BERLIN_FRI, En, "dentist on the 5th of December at 3 pm", due("2026-12-05 15:00", "dentist")),
        (BERLIN_FRI, En, "dentist December 5th, 2027", due("2027-12-05 09:00", "dentist")),
        (BERLIN_FRI, En, "birthday March 5", due("2027-03-05 09:00", "birthday")),
        (BERLIN_FRI, En, "meeting 12/31", due("2026-12-31 09:00", "meeting")),
        (BERLIN_FRI, En, "meeting 5/6", due("2026-05-06 09:00", "meeting")),
        (BERLIN_FRI, En, "every day at 9 standup", due("2026-03-28 09:00", "standup").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "standup daily 9:30", due("2026-03-28 09:30", "standup").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "every weekday 9:30 standup", due("2026-03-30 09:30", "standup").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "standup weekdays at 9:30", due("2026-03-30 09:30", "standup").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "every monday gym", due("2026-03-30 09:00", "gym").every("FREQ=WEEKLY;BYDAY=MO")),
        (BERLIN_FRI, En, "every mon, wed, fri 7:00 gym", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,WE,FR")),
        (BERLIN_FRI, En, "gym every tuesday and thursday at 18:00", due("2026-03-31 18:00", "gym").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (BERLIN_FRI, En, "clean on weekends", due("2026-03-28 09:00", "clean").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (BERLIN_FRI, En, "every month on the 1st pay rent", due("2026-04-01 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (BERLIN_FRI, En, "pay rent every month 1st", due("2026-04-01 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (BERLIN_FRI, En, "report monthly on the 31st", due("2026-03-31 09:00", "report") .every("FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")),
        (BERLIN_FRI, En, "every morning pills", due("2026-03-28 09:00", "pills").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "pay rent tomorrow 9:00, remind 30 min before", due("2026-03-28 09:00", "pay rent").lead(30)),
        (BERLIN_FRI, En, "meeting tomorrow 10:00 30 minutes before", due("2026-03-28 10:00", "meeting").lead(30)),
        (BERLIN_FRI, En, "flight monday 7:00 remind me 2 hours before", due("2026-03-30 07:00", "flight").lead(120)),
        (BERLIN_FRI, En, "exam 5 Dec, a day before", due("2026-12-05 09:00", "exam").lead(1440)),
        (BERLIN_FRI, En, "call 3 clients tomorrow 10:00", due("2026-03-28 10:00", "call 3 clients")),
        (BERLIN_FRI, En, "prepare monday report tomorrow 9", due("2026-03-28 09:00", "prepare monday report")),
        (BERLIN_FRI, En, "walk in the sun tomorrow", due("2026-03-28 09:00", "walk in the sun")),
        // ---- Russian, Moscow (no DST), Friday 2026-03-27 10:00 ----
        (MOSCOW, Ru, "через 2 часа позвонить маме", due("2026-03-27 12:00", "позвонить маме")),
        (MOSCOW, Ru, "позвонить маме через 2 часа", due("2026-03-27 12:00", "позвонить маме")),
        (MOSCOW, Ru, "через 10 минут выключить плиту", due("2026-03-27 10:10", "выключить плиту")),
        (MOSCOW, Ru, "через полчаса выйти", due("2026-03-27 10:30", "выйти")),
        (MOSCOW, Ru, "через час созвон", due("2026-03-27 11:00", "созвон")),
        (MOSCOW, Ru, "через минуту чайник", due("2026-03-27 10:01", "чайник")),
        (MOSCOW, Ru, "через 30 секунд тест", due("2026-03-27 10:00:30", "тест")),
        (MOSCOW, Ru, "через полтора часа звонок", due("2026-03-27 11:30", "звонок")),
        (MOSCOW, Ru, "через 1 час 30 минут звонок", due("2026-03-27 11:30", "звонок")),
        (MOSCOW, Ru, "через два часа обед", due("2026-03-27 12:00", "обед")),
        (MOSCOW, Ru, "через 3 дня в 10 врач", due("2026-03-30 10:00", "врач")),
        (MOSCOW, Ru, "через 2 недели отпуск", due("2026-04-10 10:00", "отпуск")),
        (MOSCOW, Ru, "через месяц продлить подписку", due("2026-04-27 10:00", "продлить подписку")),
        (MOSCOW, Ru, "сегодня в 18:00 спорт", due("2026-03-27 18:00", "спорт")),
        (MOSCOW, Ru, "завтра купить хлеб", due("2026-03-28 09:00", "купить хлеб")),
        (MOSCOW, Ru, "купить хлеб завтра в 19", due("2026-03-28 19:00", "купить хлеб")),
        (MOSCOW, Ru, "Завтра В 9 Позвонить", due("2026-03-28 09:00", "Позвонить")),
        (MOSCOW, Ru, "напомни завтра в 9 позвонить маме", due("2026-03-28 09:00", "позвонить маме")),
        (MOSCOW, Ru, "послезавтра в 9 утра врач", due("2026-03-29 09:00", "врач")),
        (MOSCOW, Ru, "позвонить в 9", due("2026-03-28 09:00", "позвонить")),
        (MOSCOW, Ru, "позвонить в 9 вечера", due("2026-03-27 21:00", "позвонить")),
        (MOSCOW, Ru, "позвонить в 9 утра", due("2026-03-28 09:00", "позвонить")),
        (MOSCOW, Ru, "позвонить в 21:00", due("2026-03-27 21:00", "позвонить")),
        (MOSCOW, Ru, "позвонить в 21.30", due("2026-03-27 21:30", "позвонить")),
        (MOSCOW, Ru, "в 3 часа дня встреча", due("2026-03-27 15:00", "встреча")),
        (MOSCOW, Ru, "в 2 ночи проверить сервер", due("2026-03-28 02:00", "проверить сервер")),
        (MOSCOW, Ru, "в 11 ночи спать", due("2026-03-27 23:00", "спать")),
        (MOSCOW, Ru, "вечером в 8 кино", due("2026-03-27 20:00", "кино")),
        (MOSCOW, Ru, "завтра вечером кино", due("2026-03-28 19:00", "кино")),
        (MOSCOW, Ru, "в полдень обед", due("2026-03-27 12:00", "обед")),
        (MOSCOW, Ru, "в 9 часов 30 минут планёрка", due("2026-03-28 09:30", "планёрка")),
        (MOSCOW, Ru, "в понедельник в 10 созвон", due("2026-03-30 10:00", "созвон")),
        (MOSCOW, Ru, "в следующий понедельник созвон", due("2026-03-30 09:00", "созвон")),
        (MOSCOW, Ru, "в пятницу в 18:00 пиво", due("2026-03-27 18:00", "пиво")),
        (MOSCOW, Ru, "в пятницу в 9 пиво", due("2026-04-03 09:00", "пиво")),
        (MOSCOW, Ru, "в следующую пятницу отчёт", due("2026-04-03 09:00", "отчёт")),
        (MOSCOW, Ru, "во вторник созвон", due("2026-03-31 09:00", "созвон")),
        (MOSCOW, Ru, "в среду в 19 футбол", due("2026-04-01 19:00", "футбол")),
        (MOSCOW, Ru, "в воскресенье в 12 обед у мамы", due("2026-03-29 12:00", "обед у мамы")),
        (MOSCOW, Ru, "пн 10:00 планёрка", due("2026-03-30 10:00", "планёрка")),
        (MOSCOW, Ru, "отчёт 5 декабря", due("2026-12-05 09:00", "отчёт")),
        (MOSCOW, Ru, "31 декабря в 23:59 шампанское", due("2026-12-31 23:59", "шампанское")),
        (MOSCOW, Ru, "1 января 2027 года поздравить", due("2027-01-01 09:00", "поздравить")),
        (MOSCOW, Ru, "на 5 апреля билеты", due("2026-04-05 09:00", "билеты")),
        (MOSCOW, Ru, "сдать отчёт 10.11", due("2026-11-10 09:00", "сдать отчёт")),
        (MOSCOW, Ru, "завтра 10.11 созвон", due("2026-03-28 10:11", "созвон")),
        (MOSCOW, Ru, "в 10.11 созвон", due("2026-03-27 10:11", "созвон")),
        (MOSCOW, Ru, "каждый день в 8 зарядка", due("2026-03-28 08:00", "зарядка").every("FREQ=DAILY")),
        (MOSCOW, Ru, "ежедневно в 22 витамины", due("2026-03-27 22:00", "витамины").every("FREQ=DAILY")),
        (MOSCOW, Ru, "каждое утро зарядка", due("2026-03-28 09:00", "зарядка").every("FREQ=DAILY")),
        (MOSCOW, Ru, "по будням в 9 планёрка", due("2026-03-30 09:00", "планёрка").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "каждый будний день в 9 планёрка", due("2026-03-30 09:00", "планёрка").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "каждый понедельник отчёт", due("2026-03-30 09:00", "отчёт").every("FREQ=WEEKLY;BYDAY=MO")),
        (MOSCOW, Ru, "каждую среду и пятницу в 19 футбол", due("2026-03-27 19:00", "футбол").every("FREQ=WEEKLY;BYDAY=WE,FR")),
        (MOSCOW, Ru, "по понедельникам в 10 отчёт", due("2026-03-30 10:00", "отчёт").every("FREQ=WEEKLY;BYDAY=MO")),
        (MOSCOW, Ru, "по выходным уборка", due("2026-03-28 09:00", "уборка").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (MOSCOW, Ru, "каждое 1 число аренда", due("2026-04-01 09:00", "аренда").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (MOSCOW, Ru, "каждый месяц 15 числа оплата", due("2026-04-15 09:00", "оплата").every("FREQ=MONTHLY;BYMONTHDAY=15")),
        (MOSCOW, Ru, "1 числа каждого месяца оплата", due("2026-04-01 09:00", "оплата").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (MOSCOW, Ru, "встреча завтра в 10 за 30 минут", due("2026-03-28 10:00", "встреча").lead(30)),
        (MOSCOW, Ru, "встреча 5 апреля в 14:00, напомнить за час", due("2026-04-05 14:00", "встреча").lead(60)),
        (MOSCOW, Ru, "напомни за 15 минут до: врач завтра в 11", due("2026-03-28 11:00", "врач").lead(15)),
        (MOSCOW, Ru, "экзамен 5 декабря за 1 день", due("2026-12-05 09:00", "экзамен").lead(1440)),
        // ---- Uzbek, Tashkent (no DST), Friday 2026-03-27 10:00 ----
        (TASHKENT, Uz, "ertaga 18:00 sport", due("2026-03-28 18:00", "sport")),
        (TASHKENT, Uz, "sport ertaga 18:00", due("2026-03-28 18:00", "sport")),
        (TASHKENT, Uz, "2 soatdan keyin uxlash", due("2026-03-27 12:00", "uxlash")),
        (TASHKENT, Uz, "10 daqiqadan keyin choy", due("2026-03-27 10:10", "choy")),
        (TASHKENT, Uz, "30 soniyadan keyin test", due("2026-03-27 10:00:30", "test")),
        (TASHKENT, Uz, "o‘n daqiqadan keyin choy", due("2026-03-27 10:10", "choy")),
        (TASHKENT, Uz, "toʻrt soatdan keyin uxlash", due("2026-03-27 14:00", "uxlash")),
        (TASHKENT, Uz, "yarim soatdan keyin qo'ng'iroq", due("2026-03-27 10:30", "qo'ng'iroq")),
        (TASHKENT, Uz, "bir yarim soatdan keyin qo'ng'iroq", due("2026-03-27 11:30", "qo'ng'iroq")),
        (TASHKENT, Uz, "3 kundan keyin shifokor", due("2026-03-30 10:00", "shifokor")),
        (TASHKENT, Uz, "bugun 20:00 kitob", due("2026-03-27 20:00", "kitob")),
        (TASHKENT, Uz, "ertaga non olish", due("2026-03-28 09:00", "non olish")),
        (TASHKENT, Uz, "indinga soat 10 da uchrashuv", due("2026-03-29 10:00", "uchrashuv")),
        (TASHKENT, Uz, "yig‘ilish ertaga soat 10:00 da", due("2026-03-28 10:00", "yig‘ilish")),
        (TASHKENT, Uz, "yig'ilish ertaga soat 10:00da", due("2026-03-28 10:00", "yig'ilish")),
        (TASHKENT, Uz, "kechqurun 9 kino", due("2026-03-27 21:00", "kino")),
        (TASHKENT, Uz, "kechqurun soat 9 da kino", due("2026-03-27 21:00", "kino")),
        (TASHKENT, Uz, "ertalab 8 yugurish", due("2026-03-28 08:00", "yugurish")),
        (TASHKENT, Uz, "ertalab soat 7 da yugurish", due("2026-03-28 07:00", "yugurish")),
        (TASHKENT, Uz, "soat 9 da dars", due("2026-03-28 09:00", "dars")),
        (TASHKENT, Uz, "kechasi 2 da tekshirish", due("2026-03-28 02:00", "tekshirish")),
        (TASHKENT, Uz, "tushdan keyin 3 da uchrashuv", due("2026-03-27 15:00", "uchrashuv")),
        (TASHKENT, Uz, "tushda ovqat", due("2026-03-27 12:00", "ovqat")),
        (TASHKENT, Uz, "ertaga kechqurun kino", due("2026-03-28 19:00", "kino")),
        (TASHKENT, Uz, "dushanba 10:00 yig'ilish", due("2026-03-30 10:00", "yig'ilish")),
        (TASHKENT, Uz, "dushanbaga hisobot", due("2026-03-30 09:00", "hisobot")),
        (TASHKENT, Uz, "keyingi dushanba yig'ilish", due("2026-03-30 09:00", "yig'ilish")),
        (TASHKENT, Uz, "keyingi juma kuni kino", due("2026-04-03 09:00", "kino")),
        (TASHKENT, Uz, "juma kuni 18:00 futbol", due("2026-03-27 18:00", "futbol")),
        (TASHKENT, Uz, "shanba kuni tozalash", due("2026-03-28 09:00", "tozalash")),
        (TASHKENT, Uz, "hisobot 5-dekabr", due("2026-12-05 09:00", "hisobot")),
        (TASHKENT, Uz, "hisobot 5 dekabr", due("2026-12-05 09:00", "hisobot")),
        (TASHKENT, Uz, "5-dekabrda imtihon", due("2026-12-05 09:00", "imtihon")),
        (TASHKENT, Uz, "imtihon 1-iyun soat 9:00", due("2026-06-01 09:00", "imtihon")),
        (TASHKENT, Uz, "to'lov 31.12.2026", due("2026-12-31 09:00", "to'lov")),
        (TASHKENT, Uz, "har kuni 7:00 yugurish", due("2026-03-28 07:00", "yugurish").every("FREQ=DAILY")),
        (TASHKENT, Uz, "har kuni soat 21 da dori", due("2026-03-27 21:00", "dori").every("FREQ=DAILY")),
        (TASHKENT, Uz, "har dushanba hisobot", due("2026-03-30 09:00", "hisobot").every("FREQ=WEEKLY;BYDAY=MO")),
        (TASHKENT, Uz, "har juma kuni 18:00 futbol", due("2026-03-27 18:00", "futbol").every("FREQ=WEEKLY;BYDAY=FR")),
        (TASHKENT, Uz, "har seshanba va payshanba 19:00 ingliz tili", due("2026-03-31 19:00", "ingliz tili").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (TASHKENT, Uz, "ish kunlari 9:00 yig'ilish", due("2026-03-30 09:00", "yig'ilish").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (TASHKENT, Uz, "har ish kuni soat 8 da", fails(DueError::EmptyText)),
        (TASHKENT, Uz, "har oyning 1-kuni ijara", due("2026-04-01 09:00", "ijara").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (TASHKENT, Uz, "har oyning 15-sanasi to'lov", due("2026-04-15 09:00", "to'lov").every("FREQ=MONTHLY;BYMONTHDAY=15")),
        (TASHKENT, Uz, "har hafta shanba tozalash", due("2026-03-28 09:00", "tozalash").every("FREQ=WEEKLY;BYDAY=SA")),
        (TASHKENT, Uz, "uchrashuv ertaga 10:00 30 daqiqa oldin", due("2026-03-28 10:00", "uchrashuv").lead(30)),
        (TASHKENT, Uz, "uchrashuv ertaga 10:00 1 soat oldin eslatib qo'y", due("2026-03-28 10:00", "uchrashuv").lead(60)),
        (TASHKENT, Uz, "ertaga soat 9 da ijarani to'lashni eslat", due("2026-03-28 09:00", "ijarani to'lashni")),
        // ---- Languages mixed with the hint ----
        (TASHKENT, En, "ertaga 9:00 sport", due("2026-03-28 09:00", "sport")),
        (TASHKENT, Uz, "завтра в 9 спорт", due("2026-03-28 09:00", "спорт")),
        (MOSCOW, Uz, "tomorrow 9:00 gym", due("2026-03-28 09:00", "gym")),
        (MOSCOW, Ru, "встреча 5/6", due("2026-06-05 09:00", "встреча")),
        (TASHKENT, Uz, "uchrashuv 5/6", due("2026-06-05 09:00", "uchrashuv")),
        // ---- Late evening in Tashkent: times roll to tomorrow ----
        (TASHKENT_LATE, Uz, "soat 9 da dars", due("2026-03-28 09:00", "dars")),
        (TASHKENT_LATE, Uz, "bugun 23:45 dori", due("2026-03-27 23:45", "dori")),
        (TASHKENT_LATE, Uz, "soat 23 da dori", due("2026-03-28 23:00", "dori")),
        (TASHKENT_LATE, En, "in 45 min sleep", due("2026-03-28 00:15", "sleep")),
        (TASHKENT_LATE, Ru, "в пятницу в 23:59 отчёт", due("2026-03-27 23:59", "отчёт")),
        (TASHKENT_LATE, Ru, "в пятницу отчёт", due("2026-04-03 09:00", "отчёт")),
        // ---- Year end in Moscow: Wednesday 2026-12-30 22:00 ----
        (MOSCOW_NYE, Ru, "31.12 купить ёлку", due("2026-12-31 09:00", "купить ёлку")),
        (MOSCOW_NYE, Ru, "1.1 поздравить", due("2027-01-01 09:00", "поздравить")),
        (MOSCOW_NYE, Ru, "1 января поздравить", due("2027-01-01 09:00", "поздравить")),
        (MOSCOW_NYE, Ru, "5 декабря отчёт", due("2027-12-05 09:00", "отчёт")),
        (MOSCOW_NYE, Ru, "в 9 позвонить", due("2026-12-31 09:00", "позвонить")),
        (MOSCOW_NYE, Ru, "в 23 позвонить", due("2026-12-30 23:00", "позвонить")),
        (MOSCOW_NYE, Ru, "через 3 часа салют", due("2026-12-31 01:00", "салют")),
        (MOSCOW_NYE, Ru, "в пятницу уборка", due("2027-01-01 09:00", "уборка")),
        (MOSCOW_NYE, Ru, "в среду в 23:00 звонок", due("2026-12-30 23:00", "звонок")),
        (MOSCOW_NYE, Ru, "в среду в 21:00 звонок", due("2027-01-06 21:00", "звонок")),
        (MOSCOW_NYE, Ru, "в следующую среду звонок", due("2027-01-06 09:00", "звонок")),
        (MOSCOW_NYE, Ru, "каждый понедельник отчёт", due("2027-01-04 09:00", "отчёт").every("FREQ=WEEKLY;BYDAY=MO")),
        (MOSCOW_NYE, En, "in 1 month renew", due("2027-01-30 22:00", "renew")),
        // ---- Berlin around the spring-forward gap (Sun 2026-03-29 02:00→03:00) ----
        (BERLIN_FRI, En, "pay rent sunday 02:30", due("2026-03-29 03:00", "pay rent").utc("2026-03-29 01:00")),
        (BERLIN_FRI, Ru, "в воскресенье в 2:30 бэкап", due("2026-03-29 03:00", "бэкап")),
        (BERLIN_FRI, En, "every day at 2:30 pills", due("2026-03-28 02:30", "pills").every("FREQ=DAILY")),
        (BERLIN_SAT, En, "backup tomorrow 2:30", due("2026-03-29 03:00", "backup").utc("2026-03-29 01:00")),
        (BERLIN_SAT, En, "backup 2:30", due("2026-03-29 03:00", "backup")),
        (BERLIN_SAT, Uz, "zaxira ertaga 2:30", due("2026-03-29 03:00", "zaxira")),
        (BERLIN_SAT, En, "pills every day at 2:30", due("2026-03-29 03:00", "pills").every("FREQ=DAILY;BYHOUR=2;BYMINUTE=30")),
        (BERLIN_SAT, En, "in 1 day water plants", due("2026-03-29 10:00", "water plants").utc("2026-03-29 08:00")),
        (BERLIN_SAT, En, "in 24 hours water plants", due("2026-03-29 11:00", "water plants").utc("2026-03-29 09:00")),
        (BERLIN_SAT, Ru, "через 24 часа полить цветы", due("2026-03-29 11:00", "полить цветы")),
        (BERLIN_SAT, Ru, "завтра в 9 полить цветы", due("2026-03-29 09:00", "полить цветы").utc("2026-03-29 07:00")),
        (BERLIN_SAT, En, "every day at 9 standup", due("2026-03-29 09:00", "standup") .every("FREQ=DAILY") .utc("2026-03-29 07:00")),
        (BERLIN_SUN, En, "in 2 hours call", due("2026-03-29 14:00", "call")),
        (BERLIN_SUN, En, "tomorrow call", due("2026-03-30 09:00", "call").utc("2026-03-30 07:00")),
        (BERLIN_SUN, Ru, "сегодня в 18 спорт", due("2026-03-29 18:00", "спорт").utc("2026-03-29 16:00")),
        (BERLIN_SUN, En, "sunday 9:00 brunch", due("2026-04-05 09:00", "brunch")),
        (BERLIN_SUN, Uz, "yakshanba 15:00 sayr", due("2026-03-29 15:00", "sayr")),
        // ---- Berlin around the fall-back overlap (Sun 2026-10-25 03:00→02:00) ----
        (BERLIN_OCT, En, "backup tomorrow 2:30", due("2026-10-25 02:30", "backup").utc("2026-10-25 00:30")),
        (BERLIN_OCT, Ru, "бэкап завтра в 2:30", due("2026-10-25 02:30", "бэкап").utc("2026-10-25 00:30")),
        (BERLIN_OCT, En, "in 1 day water plants", due("2026-10-25 10:00", "water plants").utc("2026-10-25 09:00")),
        (BERLIN_OCT, En, "in 24 hours water plants", due("2026-10-25 09:00", "water plants").utc("2026-10-25 08:00")),
        (BERLIN_OCT, Uz, "har kuni 2:30 dori", due("2026-10-25 02:30", "dori") .every("FREQ=DAILY") .utc("2026-10-25 00:30")),
        (BERLIN_OCT, En, "monday 9:00 standup", due("2026-10-26 09:00", "standup").utc("2026-10-26 08:00")),
        // ---- New York around the spring-forward gap (Sun 2026-03-08 02:00→03:00) ----
        (NY_MAR, En, "backup tomorrow 2:30", due("2026-03-08 03:00", "backup").utc("2026-03-08 07:00")),
        (NY_MAR, En, "in 24 hours water plants", due("2026-03-08 11:00", "water plants")),
        (NY_MAR, En, "in 1 day water plants", due("2026-03-08 10:00", "water plants").utc("2026-03-08 14:00")),
        (NY_MAR, Ru, "завтра в 9 созвон", due("2026-03-08 09:00", "созвон").utc("2026-03-08 13:00")),
        (NY_MAR, En, "every day at 2:30 pills", due("2026-03-08 03:00", "pills").every("FREQ=DAILY;BYHOUR=2;BYMINUTE=30")),
        (NY_MAR, Uz, "2 soatdan keyin ovqat", due("2026-03-07 12:00", "ovqat")),
        // ---- New York around the fall-back overlap (Sun 2026-11-01 02:00→01:00) ----
        (NY_OCT, En, "backup tomorrow 1:30", due("2026-11-01 01:30", "backup").utc("2026-11-01 05:30")),
        (NY_OCT, En, "every day at 1:30 pills", due("2026-11-01 01:30", "pills") .every("FREQ=DAILY") .utc("2026-11-01 05:30")),
        (NY_OCT, En, "in 24 hours water plants", due("2026-11-01 09:00", "water plants").utc("2026-11-01 14:00")),
        (NY_OCT, En, "in 1 day water plants", due("2026-11-01 10:00", "water plants").utc("2026-11-01 15:00")),
        (NY_OCT, Ru, "в воскресенье в 9 бранч", due("2026-11-01 09:00", "бранч").utc("2026-11-01 14:00")),
        (NY_NOV, En, "in 2 hours call", due("2026-11-02 10:00", "call").utc("2026-11-02 15:00")),
        (NY_NOV, En, "every weekday at 8 standup", due("2026-11-03 08:00", "standup").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (NY_NOV, En, "tomorrow 8:30 standup", due("2026-11-03 08:30", "standup").utc("2026-11-03 13:30")),
    ]
}

/// Inputs that are not a task, or odd-looking tasks, in Berlin on Friday
/// 2026-03-27 10:00 (hint English unless the row says otherwise).
#[rustfmt::skip]
fn bad_rows() -> Vec<(Lang, String, Want)> {
    let s = |x: &str| x.to_owned();
    vec![
        (En, s(""), fails(DueError::EmptyInput)),
        (En, s("   "), fails(DueError::EmptyInput)),
        (En, s("\t\n \r\n"), fails(DueError::EmptyInput)),
        (En, s("\u{200B}\u{200F}\u{FEFF}"), fails(DueError::EmptyInput)),
        (En, s("tomorrow 9:00"), fails(DueError::EmptyText)),
        (En, s("9:00"), fails(DueError::EmptyText)),
        (Ru, s("завтра в 9"), fails(DueError::EmptyText)),
        (Uz, s("ertaga soat 9 da"), fails(DueError::EmptyText)),
        (En, s("in 2 hours"), fails(DueError::EmptyText)),
        (En, s("every day at 9"), fails(DueError::EmptyText)),
        (En, s("tomorrow, 9:00!"), fails(DueError::EmptyText)),
        (En, s("31.02"), fails(DueError::InvalidDate { day: 31, month: 2, year: None })),
        (En, s("31.02 pay rent"), fails(DueError::InvalidDate { day: 31, month: 2, year: None })),
        (En, s("pay rent 31.02.2027"), fails(DueError::InvalidDate { day: 31, month: 2, year: Some(2027) })),
        (En, s("party 29.02.2027"), fails(DueError::InvalidDate { day: 29, month: 2, year: Some(2027) })),
        (En, s("party 2026-02-30"), fails(DueError::InvalidDate { day: 30, month: 2, year: Some(2026) })),
        (En, s("32.13"), fails(DueError::InvalidDate { day: 32, month: 13, year: None })),
        (En, s("x 32.13.2026"), fails(DueError::InvalidDate { day: 32, month: 13, year: Some(2026) })),
        (En, s("x 0.0"), fails(DueError::InvalidDate { day: 0, month: 0, year: None })),
        (En, s("25:61"), fails(DueError::InvalidTime { hour: 25, minute: 61 })),
        (En, s("call 25:61"), fails(DueError::InvalidTime { hour: 25, minute: 61 })),
        (En, s("call at 24:00"), fails(DueError::InvalidTime { hour: 24, minute: 0 })),
        (En, s("call 13 pm"), fails(DueError::InvalidTime { hour: 13, minute: 0 })),
        (Ru, s("позвонить в 99:99"), fails(DueError::InvalidTime { hour: 99, minute: 99 })),
        (En, s("party 31.12.3000"), fails(DueError::TooFar { max_year: 2100 })),
        (En, s("party 3000-01-01"), fails(DueError::TooFar { max_year: 2100 })),
        (Ru, s("праздник 1 января 3000"), fails(DueError::TooFar { max_year: 2100 })),
        (En, s("x in 100000 days"), fails(DueError::TooFar { max_year: 2100 })),
        (En, s("x in 99999999999999999999 seconds"), fails(DueError::TooFar { max_year: 2100 })),
        (En, s("report 1.1.2020"), fails(in_past("2020-01-01 09:00"))),
        (En, s("report 2026-03-26"), fails(in_past("2026-03-26 09:00"))),
        (En, s("report 27.03.2026 9:00"), fails(in_past("2026-03-27 09:00"))),
        (En, s("report 27.03 9:00"), fails(in_past("2026-03-27 09:00"))),
        (En, s("report today 9:00"), fails(in_past("2026-03-27 09:00"))),
        (En, s("report today"), fails(in_past("2026-03-27 09:00"))),
        (Ru, s("сегодня в 8 отчёт"), fails(in_past("2026-03-27 08:00"))),
        (Uz, s("bugun soat 8 da hisobot"), fails(in_past("2026-03-27 08:00"))),
        (En, s("yesterday call"), fails(in_past("2026-03-26 09:00"))),
        (Ru, s("вчера позвонить"), fails(in_past("2026-03-26 09:00"))),
        (En, s("12/31/2025 x"), fails(in_past("2025-12-31 09:00"))),
        (Ru, s("каждое 32 число x"), fails(DueError::InvalidDayOfMonth { day: 32 })),
        (En, s("every month on the 0th x"), fails(DueError::InvalidDayOfMonth { day: 0 })),
        (En, s("asdf qwerty zxcv"), fails(DueError::NoTime)),
        (Ru, s("купить молоко"), fails(DueError::NoTime)),
        (Uz, s("non olish"), fails(DueError::NoTime)),
        (En, s("walk in the sun"), fails(DueError::NoTime)),
        (En, s("prepare friday slides"), fails(DueError::NoTime)),
        (En, s("🎉🎉🎉"), fails(DueError::NoTime)),
        (En, s("مرحبا غدا"), fails(DueError::NoTime)),
        (En, s("x at 9:5"), fails(DueError::NoTime)),
        (En, s("in -5 minutes x"), fails(DueError::NoTime)),
        (En, "a".repeat(5000), fails(DueError::TooLong { max: 4096 })),
        (En, s(&"завтра в 9 ".repeat(500)), fails(DueError::TooLong { max: 4096 })),
        (En, s(&"9".repeat(5000)), fails(DueError::TooLong { max: 4096 })),
        (En, s("🎉 party tomorrow 20:00"), due("2026-03-28 20:00", "🎉 party")),
        (En, s("⏰⏰⏰ 10:00"), due("2026-03-28 10:00", "⏰⏰⏰")),
        (En, s("\u{202E}call mom\u{202C} tomorrow 9:00"), due("2026-03-28 09:00", "call mom")),
        (En, s("\u{200F}\u{200F}\u{200E} tomorrow\u{200F} 9:00 \u{200F}call"), due("2026-03-28 09:00", "call")),
        (En, s("tomor\u{200B}row 9 call"), due("2026-03-28 09:00", "call")),
        (En, s("zero\u{200B}width tomorrow 9:00"), due("2026-03-28 09:00", "zero\u{200B}width")),
        (En, s("שלום tomorrow 9:00"), due("2026-03-28 09:00", "שלום")),
        (En, s("'; DROP TABLE tasks; -- tomorrow 9:00"), due("2026-03-28 09:00", "'; DROP TABLE tasks")),
        (En, s("Robert'); DROP TABLE users; tomorrow 9:00"), due("2026-03-28 09:00", "Robert'); DROP TABLE users")),
        (En, s("1 OR 1=1 tomorrow 9:00"), due("2026-03-28 09:00", "1 OR 1=1")),
        (En, s("<b>pay</b> tomorrow 9:00"), due("2026-03-28 09:00", "<b>pay</b>")),
        (Ru, s("<script>alert(1)</script> завтра в 9"), due("2026-03-28 09:00", "<script>alert(1)</script>")),
        (En, s("**bold** _it_ `code` tomorrow 9:00"), due("2026-03-28 09:00", "**bold** _it_ `code`")),
        (En, s("[link](http://x.y) tomorrow 9:00"), due("2026-03-28 09:00", "[link](http://x.y)")),
        (En, s("x 00.00"), due("2026-03-28 00:00", "x")),
        (En, s("tomorrow tomorrow"), due("2026-03-28 09:00", "tomorrow")),
        (En, s("9 pm 21:00"), due("2026-03-27 21:00", "9 pm")),
    ]
}

/// Checks one parse against what a row wants; `None` when it matches.
fn check(scene: Scene, lang: Lang, input: &str, want: &Want) -> Option<String> {
    let now_local = naive(scene.now);
    let now = scene
        .tz
        .from_local_datetime(&now_local)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| panic!("scene time {} exists", scene.now));
    let got = parse_due(input, lang, now, scene.tz);
    let short: String = input.chars().take(60).collect();
    let failure = |msg: String| Some(format!("[{} {}] {short:?}: {msg}", scene.tz, scene.now));
    match (want, got) {
        (Want::Fails(expected), Err(actual)) if *expected == actual => None,
        (Want::Fails(expected), other) => failure(format!("want {expected:?}, got {other:?}")),
        (Want::Due(_), Err(e)) => failure(format!("want a due, got {e:?}")),
        (Want::Due(e), Ok(p)) => {
            let problems = problems(e, &p, now, scene.tz);
            (!problems.is_empty())
                .then(|| failure(problems.join("; ")))
                .flatten()
        }
    }
}

fn problems(e: &Expect, p: &ParsedDue, now: chrono::DateTime<Utc>, tz: Tz) -> Vec<String> {
    let mut out = Vec::new();
    let local = p.due.with_timezone(&tz).naive_local();
    if local != naive(e.at) {
        out.push(format!("due {local}, want {}", e.at));
    }
    if p.text != e.text {
        out.push(format!("text {:?}, want {:?}", p.text, e.text));
    }
    if p.due < now {
        out.push("due is in the past".to_owned());
    }
    if let Some(utc) = e.utc
        && p.due.naive_utc() != naive(utc)
    {
        out.push(format!("utc {}, want {utc}", p.due.naive_utc()));
    }
    let lead = p.lead.map(|l| l.duration().num_minutes());
    if lead != e.lead_minutes {
        out.push(format!("lead {lead:?}, want {:?}", e.lead_minutes));
    }
    match (e.rule, &p.recurrence) {
        (None, None) => {}
        (Some(rule), Some(r)) => {
            let full = if rule.contains("BYHOUR") {
                format!("{rule};BYSECOND=0")
            } else {
                let at = naive(e.at);
                format!(
                    "{rule};BYHOUR={};BYMINUTE={};BYSECOND=0",
                    at.hour(),
                    at.minute()
                )
            };
            if r.to_rule_string() != full {
                out.push(format!("rule {}, want {full}", r.to_rule_string()));
            }
            if r.next_after(now, tz) != p.due {
                out.push("due is not the first occurrence".to_owned());
            }
        }
        (want, got) => out.push(format!(
            "recurrence {:?}, want {want:?}",
            got.map(|r| r.to_rule_string())
        )),
    }
    out
}

#[test]
fn phrase_table() {
    let rows = rows();
    assert!(rows.len() >= 150, "only {} rows", rows.len());
    let langs = [En, Ru, Uz].map(|l| rows.iter().filter(|r| r.1 == l).count());
    assert!(
        langs.iter().all(|n| *n >= 40),
        "rows per language: {langs:?}"
    );
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(scene, lang, input, want)| check(*scene, *lang, input, want))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_input_table() {
    let rows = bad_rows();
    assert!(rows.len() >= 40, "only {} rows", rows.len());
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(lang, input, want)| check(BERLIN_FRI, *lang, input, want))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn zone_table() {
    let long = "Berlin".repeat(1000);
    let rows: Vec<(&str, Result<Tz, ZoneError>)> = vec![
        ("Europe/Berlin", Ok(Tz::Europe__Berlin)),
        ("america/new_york", Ok(Tz::America__New_York)),
        ("  ASIA/TASHKENT ", Ok(Tz::Asia__Tashkent)),
        ("Tashkent", Ok(Tz::Asia__Tashkent)),
        ("Ташкент", Ok(Tz::Asia__Tashkent)),
        ("Toshkent", Ok(Tz::Asia__Tashkent)),
        ("Samarqand", Ok(Tz::Asia__Samarkand)),
        ("Moscow", Ok(Tz::Europe__Moscow)),
        ("москва", Ok(Tz::Europe__Moscow)),
        ("Moskva", Ok(Tz::Europe__Moscow)),
        ("Санкт-Петербург", Ok(Tz::Europe__Moscow)),
        ("Berlin", Ok(Tz::Europe__Berlin)),
        ("Берлин", Ok(Tz::Europe__Berlin)),
        ("London", Ok(Tz::Europe__London)),
        ("New York", Ok(Tz::America__New_York)),
        ("Нью-Йорк", Ok(Tz::America__New_York)),
        ("Almaty", Ok(Tz::Asia__Almaty)),
        ("Kyiv", Ok(Tz::Europe__Kyiv)),
        ("Киев", Ok(Tz::Europe__Kyiv)),
        ("Dubai", Ok(Tz::Asia__Dubai)),
        ("Istanbul", Ok(Tz::Europe__Istanbul)),
        ("Farg\u{2018}ona", Ok(Tz::Asia__Tashkent)),
        ("+5", Ok(Tz::Etc__GMTMinus5)),
        ("UTC+3", Ok(Tz::Etc__GMTMinus3)),
        ("utc +3", Ok(Tz::Etc__GMTMinus3)),
        ("GMT-4", Ok(Tz::Etc__GMTPlus4)),
        ("-04:00", Ok(Tz::Etc__GMTPlus4)),
        ("+14", Ok(Tz::Etc__GMTMinus14)),
        ("-12", Ok(Tz::Etc__GMTPlus12)),
        ("+00:00", Ok(Tz::Etc__UTC)),
        ("+05:30", Ok(Tz::Asia__Kolkata)),
        ("+0545", Ok(Tz::Asia__Kathmandu)),
        ("UTC", Ok(Tz::UTC)),
        ("", Err(ZoneError::Empty)),
        ("   ", Err(ZoneError::Empty)),
        ("\u{200B}", Err(ZoneError::Empty)),
        ("Mars/Olympus", Err(ZoneError::Unknown)),
        ("Atlantis", Err(ZoneError::Unknown)),
        ("🎉", Err(ZoneError::Unknown)),
        ("<b>Berlin</b>", Err(ZoneError::Unknown)),
        ("'; DROP TABLE users; --", Err(ZoneError::Unknown)),
        (&long, Err(ZoneError::Unknown)),
        ("+5:99", Err(ZoneError::Unknown)),
        ("+15", Err(ZoneError::OffsetOutOfRange { minutes: 900 })),
        ("-13:00", Err(ZoneError::OffsetOutOfRange { minutes: -780 })),
        ("+02:15", Err(ZoneError::UnsupportedOffset { minutes: 135 })),
    ];
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(input, want)| {
            let got = parse_zone(input);
            (got != *want).then(|| format!("{input:?}: got {got:?}, want {want:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
