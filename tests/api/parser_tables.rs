//! Table tests of the due-date parser: phrases in English, Russian and
//! Uzbek with a fixed "now", in zones with DST (Europe/Berlin,
//! America/New_York) and without (Asia/Tashkent, Europe/Moscow), on both
//! sides of DST changes; then bad input, which must never panic and must
//! give the expected error or a sane parse; then typed time zones.
//!
//! Calendar used: Fri 2026-03-27; Berlin springs forward Sun 2026-03-29
//! 02:00→03:00 and falls back Sun 2026-10-25 03:00→02:00; New York springs
//! forward Sun 2026-03-08 and falls back Sun 2026-11-01; Sydney falls back Sun 2026-04-05
//! 03:00→02:00 and springs forward Sun 2026-10-04 02:00→03:00.
//!
//! Rows may also check what the parser assumed (`.noted(…)`, matched against the debug form
//! of its assumptions) and the time words it left in the text (`.unplaced(…)`).

use chrono::{NaiveDateTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use remindbot::domain::due::{DueError, ParsedDue, parse_due};
use remindbot::domain::lang::Lang::{self, En, Ru, Uz, UzCyrl};
use remindbot::domain::timezone::{ZoneError, parse_zone};
use remindbot::i18n::Tr;
use remindbot::i18n::repeats::repeats_text;

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
const TASHKENT_JAN_END: Scene = Scene {
    tz: Tz::Asia__Tashkent,
    now: "2026-01-31 13:40",
};
const TASHKENT_APR: Scene = Scene {
    tz: Tz::Asia__Tashkent,
    now: "2026-04-17 10:00",
};
const MOSCOW_EVENING: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-27 20:00",
};
const BERLIN_EVENING: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-27 20:00",
};
const BERLIN_TUE_NOON: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-24 12:48",
};
const BERLIN_TUE_LATE: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-24 16:00",
};
const MOSCOW_TUE: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-24 12:48",
};
const TASHKENT_TUE: Scene = Scene {
    tz: Tz::Asia__Tashkent,
    now: "2026-03-24 12:48",
};
const SYDNEY_APR: Scene = Scene {
    tz: Tz::Australia__Sydney,
    now: "2026-04-04 10:00",
};
const SYDNEY_OCT: Scene = Scene {
    tz: Tz::Australia__Sydney,
    now: "2026-10-03 10:00",
};
const MOSCOW_NYE: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-12-30 22:00",
};
/// Saturday 2026-03-28 just after midnight, when "tomorrow" is still the coming Saturday, and
/// the last minute of that night, and its end.
const MOSCOW_AFTER_MIDNIGHT: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-28 00:30",
};
const MOSCOW_NIGHT_LAST: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-28 03:59",
};
const MOSCOW_NIGHT_OVER: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-28 04:00",
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
    noted: Option<&'static str>,
    /// A part of the debug form that no assumption may have.
    unnoted: Option<&'static str>,
    unplaced: Option<&'static str>,
    /// No time words at all left unplaced.
    nothing_unplaced: bool,
    /// The two readings of an hour either side of noon, as local moments (morning, evening);
    /// `Some(None)` when the parse must offer none.
    choice: Option<Option<(&'static str, &'static str)>>,
    /// The local moment of the same task at a second time joined by "and"; `Some(None)` when
    /// the message must make one reminder only.
    second: Option<Option<&'static str>>,
    /// The repeat starts on a later day said ("starting monday"): its first occurrence from
    /// then, not from now.
    starts_later: bool,
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

    /// A part of the debug form of what the parser assumed.
    fn noted(self, assumption: &'static str) -> Want {
        self.with(|e| e.noted = Some(assumption))
    }

    /// Nothing assumed whose debug form has this part: the user is told nothing about it.
    fn unnoted(self, assumption: &'static str) -> Want {
        self.with(|e| e.unnoted = Some(assumption))
    }

    /// Words the parser left in the text as unplaced time words.
    fn unplaced(self, words: &'static str) -> Want {
        self.with(|e| e.unplaced = Some(words))
    }

    /// No time words left in the text: nothing to warn about.
    fn nothing_unplaced(self) -> Want {
        self.with(|e| e.nothing_unplaced = true)
    }

    /// Both readings of an hour either side of noon are offered: the local moments of the
    /// morning and of the evening one.
    fn asks(self, morning: &'static str, evening: &'static str) -> Want {
        self.with(|e| e.choice = Some(Some((morning, evening))))
    }

    /// A second reminder of the same text at this local moment ("every day at 9 and 21").
    fn also(self, at: &'static str) -> Want {
        self.with(|e| e.second = Some(Some(at)))
    }

    /// The repeat's first day is said and later than its next occurrence from now.
    fn starting(self) -> Want {
        self.with(|e| e.starts_later = true)
    }

    /// One reminder only: nothing read as a second time.
    fn once(self) -> Want {
        self.with(|e| e.second = Some(None))
    }

    /// No question about the hour: it was clear.
    fn sure(self) -> Want {
        self.with(|e| e.choice = Some(None))
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
        (BERLIN_FRI, En, "in an hour and a half leave for airport", due("2026-03-27 11:30", "leave for airport")),
        (BERLIN_FRI, En, "in 2 hours and a half leave", due("2026-03-27 12:30", "leave")),
        (BERLIN_FRI, En, "in an hour and call bob", due("2026-03-27 11:00", "call bob")),
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
        (BERLIN_FRI, En, "call bob at 9", due("2026-03-27 21:00", "call bob")),
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
        // An English 5/6 is 6 May in New York, 5 June in Europe and Asia.
        (NY_MAR, En, "meeting 5/6", due("2026-05-06 09:00", "meeting")),
        (BERLIN_FRI, En, "meeting 5/6", due("2026-06-05 09:00", "meeting")),
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
        // A time between a lead and a day is the phrase's ("tomorrow" alone took 09:00 and left
        // "10am" in the text: the reminder rang at 08:45).
        (BERLIN_FRI, En, "remind me 15 mins before the 10am call tomorrow", due("2026-03-28 10:00", "the call").lead(15).nothing_unplaced()),
        (BERLIN_FRI, En, "15 mins before the 10am call on monday", due("2026-03-30 10:00", "the call").lead(15).nothing_unplaced()),
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
        (MOSCOW, Ru, "напомни через пол часа выключить плиту", due("2026-03-27 10:30", "выключить плиту")),
        (MOSCOW, Ru, "через два с половиной часа забрать детей", due("2026-03-27 12:30", "забрать детей")),
        (MOSCOW, Ru, "через два часа с половиной забрать детей", due("2026-03-27 12:30", "забрать детей")),
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
        (MOSCOW, Ru, "позвонить в 9", due("2026-03-27 21:00", "позвонить")),
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
        (MOSCOW, Ru, "в 9 часов 30 минут планёрка", due("2026-03-27 21:30", "планёрка")),
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
        (MOSCOW, Ru, "каждое второе число оплата", due("2026-04-02 09:00", "оплата").every("FREQ=MONTHLY;BYMONTHDAY=2")),
        (MOSCOW, Ru, "первого числа каждого месяца оплата", due("2026-04-01 09:00", "оплата").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (MOSCOW, Ru, "встреча завтра в 10 за 30 минут", due("2026-03-28 10:00", "встреча").lead(30)),
        (MOSCOW, Ru, "встреча 5 апреля в 14:00, напомнить за час", due("2026-04-05 14:00", "встреча").lead(60)),
        (MOSCOW, Ru, "напомни за 15 минут до: врач завтра в 11", due("2026-03-28 11:00", "врач").lead(15)),
        (MOSCOW, Ru, "экзамен 5 декабря за 1 день", due("2026-12-05 09:00", "экзамен").lead(1440)),
        // ---- Uzbek, Tashkent (no DST), Friday 2026-03-27 10:00 ----
        (TASHKENT, Uz, "ertaga 18:00 sport", due("2026-03-28 18:00", "sport")),
        (TASHKENT, Uz, "sport ertaga 18:00", due("2026-03-28 18:00", "sport")),
        (TASHKENT, Uz, "2 soatdan keyin uxlash", due("2026-03-27 12:00", "uxlash")),
        (TASHKENT, Uz, "10 daqiqadan keyin choy", due("2026-03-27 10:10", "choy")),
        // "bundan keyin" (from now on) and "undan keyin" (after that) are no typo of "kundan".
        (TASHKENT, Uz, "bundan keyin har kuni soat 7 da yugurish", due("2026-03-28 07:00", "bundan keyin yugurish").every("FREQ=DAILY")),
        (TASHKENT, Uz, "undan keyin onamga qo'ng'iroq qilish", fails(DueError::NoTime)),
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
        (TASHKENT, Uz, "soat 9 da dars", due("2026-03-27 21:00", "dars")),
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
        (TASHKENT, Uz, "ertaga soat 9 da ijarani to'lashni eslat", due("2026-03-28 09:00", "ijarani to'lash")),
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
        (BERLIN_FRI, En, "pay rent sunday 02:30", due("2026-03-29 03:00", "pay rent").utc("2026-03-29 01:00").noted("ClockSkipped { said: 02:30:00, chosen: 03:00:00, date: 2026-03-29 }")),
        (BERLIN_FRI, Ru, "в воскресенье в 02:30 бэкап", due("2026-03-29 03:00", "бэкап")),
        (BERLIN_FRI, En, "every day at 02:30 pills", due("2026-03-28 02:30", "pills").every("FREQ=DAILY")),
        (BERLIN_SAT, En, "backup tomorrow 02:30", due("2026-03-29 03:00", "backup").utc("2026-03-29 01:00")),
        (BERLIN_SAT, En, "backup 02:30", due("2026-03-29 03:00", "backup").noted("ClockSkipped")),
        (BERLIN_SAT, Uz, "zaxira ertaga 02:30", due("2026-03-29 03:00", "zaxira")),
        (BERLIN_SAT, En, "pills every day at 02:30", due("2026-03-29 03:00", "pills").every("FREQ=DAILY;BYHOUR=2;BYMINUTE=30").noted("ClockSkipped")),
        // The clocks moving a time past the gap is said; one that exists is not.
        (BERLIN_FRI, En, "every day at 02:30 pills, again", due("2026-03-28 02:30", "pills, again").every("FREQ=DAILY").unnoted("ClockSkipped")),
        (BERLIN_SAT, En, "backup tomorrow at 03:00", due("2026-03-29 03:00", "backup").unnoted("ClockSkipped")),
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
        (BERLIN_OCT, En, "backup tomorrow 02:30", due("2026-10-25 02:30", "backup").utc("2026-10-25 00:30")),
        (BERLIN_OCT, Ru, "бэкап завтра в 02:30", due("2026-10-25 02:30", "бэкап").utc("2026-10-25 00:30")),
        (BERLIN_OCT, En, "in 1 day water plants", due("2026-10-25 10:00", "water plants").utc("2026-10-25 09:00")),
        (BERLIN_OCT, En, "in 24 hours water plants", due("2026-10-25 09:00", "water plants").utc("2026-10-25 08:00")),
        (BERLIN_OCT, Uz, "har kuni 02:30 dori", due("2026-10-25 02:30", "dori") .every("FREQ=DAILY") .utc("2026-10-25 00:30")),
        (BERLIN_OCT, En, "monday 9:00 standup", due("2026-10-26 09:00", "standup").utc("2026-10-26 08:00")),
        // ---- New York around the spring-forward gap (Sun 2026-03-08 02:00→03:00) ----
        (NY_MAR, En, "backup tomorrow 02:30", due("2026-03-08 03:00", "backup").utc("2026-03-08 07:00")),
        (NY_MAR, En, "in 24 hours water plants", due("2026-03-08 11:00", "water plants")),
        (NY_MAR, En, "in 1 day water plants", due("2026-03-08 10:00", "water plants").utc("2026-03-08 14:00")),
        (NY_MAR, Ru, "завтра в 9 созвон", due("2026-03-08 09:00", "созвон").utc("2026-03-08 13:00")),
        (NY_MAR, En, "every day at 02:30 pills", due("2026-03-08 03:00", "pills").every("FREQ=DAILY;BYHOUR=2;BYMINUTE=30")),
        (NY_MAR, Uz, "2 soatdan keyin ovqat", due("2026-03-07 12:00", "ovqat")),
        // ---- New York around the fall-back overlap (Sun 2026-11-01 02:00→01:00) ----
        (NY_OCT, En, "backup tomorrow 01:30", due("2026-11-01 01:30", "backup").utc("2026-11-01 05:30")),
        (NY_OCT, En, "every day at 01:30 pills", due("2026-11-01 01:30", "pills") .every("FREQ=DAILY") .utc("2026-11-01 05:30")),
        (NY_OCT, En, "in 24 hours water plants", due("2026-11-01 09:00", "water plants").utc("2026-11-01 14:00")),
        (NY_OCT, En, "in 1 day water plants", due("2026-11-01 10:00", "water plants").utc("2026-11-01 15:00")),
        (NY_OCT, Ru, "в воскресенье в 9 бранч", due("2026-11-01 09:00", "бранч").utc("2026-11-01 14:00")),
        (NY_NOV, En, "in 2 hours call", due("2026-11-02 10:00", "call").utc("2026-11-02 15:00")),
        (NY_NOV, En, "every weekday at 8 standup", due("2026-11-03 08:00", "standup").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (NY_NOV, En, "tomorrow 8:30 standup", due("2026-11-03 08:30", "standup").utc("2026-11-03 13:30")),
        // ==== Issue 14: no silent misreadings ====
        // An hour 1–12 without am/pm: the next such time ahead, said as an assumption.
        (BERLIN_TUE_NOON, En, "meeting with Bob at 3", due("2026-03-24 15:00", "meeting with Bob").noted("HourWithoutAmPm { typed: 03:00:00, chosen: 15:00:00 }")),
        (BERLIN_TUE_LATE, En, "meeting with Bob at 3", due("2026-03-25 03:00", "meeting with Bob").noted("chosen: 03:00:00")),
        (BERLIN_TUE_NOON, En, "call at 12", due("2026-03-25 00:00", "call").noted("HourWithoutAmPm")),
        (BERLIN_TUE_NOON, En, "lunch at 12:30", due("2026-03-25 12:30", "lunch")),
        (BERLIN_TUE_NOON, En, "backup at 03:00", due("2026-03-25 03:00", "backup")),
        (BERLIN_TUE_NOON, En, "backup at 15", due("2026-03-24 15:00", "backup")),
        (BERLIN_TUE_NOON, En, "call at 3 pm", due("2026-03-24 15:00", "call")),
        (BERLIN_FRI, En, "tomorrow at 3 dentist", due("2026-03-28 15:00", "dentist").noted("chosen: 15:00:00")),
        (BERLIN_FRI, En, "tomorrow at 03:00 backup", due("2026-03-28 03:00", "backup")),
        (BERLIN_FRI, En, "in 2 days at 3 dentist", due("2026-03-29 15:00", "dentist")),
        (BERLIN_FRI, En, "every day at 2 pills", due("2026-03-27 14:00", "pills").every("FREQ=DAILY").noted("chosen: 14:00:00")),
        (BERLIN_FRI, En, "dinner 9:30", due("2026-03-28 09:30", "dinner")),
        (MOSCOW_TUE, Ru, "встреча с Бобом в 3", due("2026-03-24 15:00", "встреча с Бобом").noted("chosen: 15:00:00")),
        (MOSCOW_TUE, Ru, "встреча в 03:00", due("2026-03-25 03:00", "встреча")),
        (MOSCOW, Ru, "завтра в 5 встреча", due("2026-03-28 17:00", "встреча")),
        (MOSCOW, Ru, "завтра в 5 утра пробежка", due("2026-03-28 05:00", "пробежка")),
        (TASHKENT_TUE, Uz, "Bob bilan uchrashuv soat 3 da", due("2026-03-24 15:00", "Bob bilan uchrashuv").noted("chosen: 15:00:00")),
        (TASHKENT, Uz, "ertaga soat 4 da uchrashuv", due("2026-03-28 16:00", "uchrashuv")),
        // Never drop a word of a rule.
        (BERLIN_FRI, En, "every tuesday and thursday at 19:00 english", due("2026-03-31 19:00", "english").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (BERLIN_FRI, En, "every monday and every thursday gym", due("2026-03-30 09:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TH").noted("TimeNotSaid")),
        (BERLIN_FRI, En, "every mon, wed and fri 7:00 gym", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,WE,FR")),
        (BERLIN_FRI, En, "flowers every year on 14 Feb", due("2027-02-14 09:00", "flowers").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        (MOSCOW, Ru, "каждый вторник и четверг в 19:00 английский", due("2026-03-31 19:00", "английский").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (MOSCOW, Ru, "по вторникам и четвергам в 19 танцы", due("2026-03-31 19:00", "танцы").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (MOSCOW, Ru, "цветы каждый год 14 февраля", due("2027-02-14 09:00", "цветы").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        (TASHKENT, Uz, "har seshanba va payshanba soat 19:00 da ingliz tili", due("2026-03-31 19:00", "ingliz tili").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (TASHKENT, Uz, "seshanba va payshanba kunlari ingliz tili", due("2026-03-31 09:00", "ingliz tili").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (TASHKENT, Uz, "gullar har yili 14-fevralda", due("2027-02-14 09:00", "gullar").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        // Time words that do not fit stay in the text and are reported.
        (BERLIN_FRI, En, "stretch every 10 minutes tomorrow", due("2026-03-28 09:00", "stretch every 10 minutes").unplaced("every 10 minutes")),
        (BERLIN_FRI, En, "prepare the monday report tomorrow at 10", due("2026-03-28 10:00", "prepare the monday report").unplaced("monday")),
        (MOSCOW, Ru, "отчёт за понедельник завтра в 10", due("2026-03-28 10:00", "отчёт за понедельник").unplaced("понедельник")),
        (TASHKENT, Uz, "dushanba hisoboti ertaga soat 10 da", due("2026-03-28 10:00", "dushanba hisoboti")),
        // ==== Parts of the day: tonight, this evening, lunch ====
        (BERLIN_FRI, En, "call mom tonight", due("2026-03-27 19:00", "call mom").noted("TimeNotSaid { chosen: 19:00:00 }")),
        (BERLIN_FRI, En, "call mom this evening", due("2026-03-27 19:00", "call mom")),
        (BERLIN_FRI, En, "tonight at 9 movie", due("2026-03-27 21:00", "movie")),
        (BERLIN_FRI, En, "this afternoon walk", due("2026-03-27 14:00", "walk")),
        (BERLIN_FRI, En, "at lunch call Bob", due("2026-03-27 13:00", "call Bob")),
        (BERLIN_FRI, En, "after lunch call Bob", due("2026-03-27 14:00", "call Bob")),
        (BERLIN_FRI, En, "in the evening call Bob", due("2026-03-27 19:00", "call Bob")),
        (BERLIN_FRI, En, "evening walk tomorrow", due("2026-03-28 09:00", "evening walk")),
        (MOSCOW, Ru, "сегодня вечером позвонить маме", due("2026-03-27 19:00", "позвонить маме")),
        (MOSCOW, Ru, "вечером позвонить маме", due("2026-03-27 19:00", "позвонить маме")),
        (MOSCOW, Ru, "в обед позвонить", due("2026-03-27 13:00", "позвонить")),
        (MOSCOW, Ru, "завтра в обед встреча", due("2026-03-28 13:00", "встреча")),
        (MOSCOW, Ru, "после обеда звонок", due("2026-03-27 14:00", "звонок")),
        (MOSCOW, Ru, "этим вечером кино", due("2026-03-27 19:00", "кино")),
        (MOSCOW, Ru, "обед у мамы завтра в 13:00", due("2026-03-28 13:00", "обед у мамы")),
        (TASHKENT, Uz, "kechqurun kino", due("2026-03-27 19:00", "kino")),
        (TASHKENT, Uz, "bugun kechqurun kino", due("2026-03-27 19:00", "kino")),
        (TASHKENT, Uz, "tushlikda uchrashuv", due("2026-03-27 13:00", "uchrashuv")),
        (TASHKENT, Uz, "tushlikdan keyin uchrashuv", due("2026-03-27 14:00", "uchrashuv")),
        (TASHKENT, Uz, "kechasi serverni tekshirish", due("2026-03-27 22:00", "serverni tekshirish")),
        (TASHKENT, Uz, "ertalab yugurish", due("2026-03-28 09:00", "yugurish")),
        // ==== Midnight today is the coming 00:00 ====
        (BERLIN_FRI, En, "tonight at midnight backup", due("2026-03-28 00:00", "backup").noted("NightAfterDay { date: 2026-03-28 }")),
        // am/pm with a part of the day that agrees: the am/pm sets the hour, the day is kept.
        (BERLIN_FRI, En, "tomorrow morning at 8am gym", due("2026-03-28 08:00", "gym").nothing_unplaced()),
        (BERLIN_FRI, En, "meeting at 10am tomorrow morning", due("2026-03-28 10:00", "meeting").nothing_unplaced()),
        (BERLIN_FRI, En, "call mom at 8pm tonight", due("2026-03-27 20:00", "call mom").nothing_unplaced()),
        (BERLIN_FRI, En, "tonight at 11pm take pills", due("2026-03-27 23:00", "take pills").nothing_unplaced()),
        (BERLIN_FRI, En, "tonight at 1am deploy", due("2026-03-28 01:00", "deploy").nothing_unplaced()),
        // "tonight" with a small hour is the night after today's evening, not this afternoon.
        (BERLIN_FRI, En, "tonight at 1 deploy", due("2026-03-28 01:00", "deploy")),
        (BERLIN_FRI, En, "tonight at 01:30 deploy", due("2026-03-28 01:30", "deploy")),
        (BERLIN_FRI, En, "tonight at 6 dinner", due("2026-03-27 18:00", "dinner")),
        (BERLIN_FRI, En, "every morning at 6am run", due("2026-03-28 06:00", "run").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "every evening at 9pm take pills", due("2026-03-27 21:00", "take pills").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "every saturday morning at 10am market", due("2026-03-28 10:00", "market").every("FREQ=WEEKLY;BYDAY=SA")),
        // A number of days or nights is no hour ("на 3 дня", "for 1 night"); "в 3 дня", "на 5
        // вечера" and "на 9 утра" are.
        (MOSCOW, Ru, "завтра взять отпуск на 3 дня", due("2026-03-28 09:00", "взять отпуск на 3 дня")),
        (MOSCOW, Ru, "назначить встречу на 5 вечера", due("2026-03-27 17:00", "назначить встречу").nothing_unplaced()),
        (MOSCOW, Ru, "завтра будильник на 9 утра", due("2026-03-28 09:00", "будильник")),
        (BERLIN_FRI, En, "book hotel for 1 night tomorrow", due("2026-03-28 09:00", "book hotel for 1 night")),
        (MOSCOW, Ru, "в 3 дня встреча", due("2026-03-27 15:00", "встреча")),
        (MOSCOW, Ru, "взять отпуск на 3 дня", fails(DueError::NoTime)),
        (MOSCOW, Ru, "осталось 24 дня до отпуска", fails(DueError::NoTime)),
        (MOSCOW, Ru, "выпить антибиотики 3 дня подряд", fails(DueError::NoTime)),
        (MOSCOW, Ru, "пить в 2 раза больше воды", fails(DueError::NoTime)),
        (MOSCOW, Ru, "завтра 3 дня подряд пить таблетки", due("2026-03-28 09:00", "3 дня подряд пить таблетки")),
        // Breakfast is in the morning.
        (BERLIN_FRI, En, "breakfast at 8", due("2026-03-28 08:00", "breakfast").noted("HourWithoutAmPm")),
        (MOSCOW, Ru, "завтрак в 8", due("2026-03-28 08:00", "завтрак")),
        (TASHKENT, Uz, "nonushta soat 8 da", due("2026-03-28 08:00", "nonushta")),
        // "after 2 hours", as English learnt from Russian or Uzbek says "in 2 hours".
        (BERLIN_FRI, En, "call mom after 2 hours", due("2026-03-27 12:00", "call mom")),
        (BERLIN_FRI, En, "after 30 min check oven", due("2026-03-27 10:30", "check oven")),
        (BERLIN_FRI, En, "after lunch call bob", due("2026-03-27 14:00", "call bob")),
        (BERLIN_FRI, En, "12 noon lunch", due("2026-03-27 12:00", "lunch")),
        (BERLIN_FRI, En, "backup at 12 midnight", due("2026-03-28 00:00", "backup")),
        (MOSCOW, Ru, "завтра в пол девятого встреча", due("2026-03-28 08:30", "встреча")),
        (MOSCOW, Ru, "завтра в пол-девятого встреча", due("2026-03-28 08:30", "встреча")),
        (MOSCOW, Ru, "помыть пол в 5", due("2026-03-27 17:00", "помыть пол")),
        // A short weekday before a marked time or after a dot is a day ("вт в 19" was today 19:00).
        (MOSCOW, Ru, "вт в 19 танцы", due("2026-03-31 19:00", "танцы").nothing_unplaced()),
        (MOSCOW, Ru, "планерка пн в 10", due("2026-03-30 10:00", "планерка")),
        (MOSCOW, Ru, "вс в 12 обед у мамы", due("2026-03-29 12:00", "обед у мамы")),
        (BERLIN_FRI, En, "tue at 5pm dentist", due("2026-03-31 17:00", "dentist")),
        (BERLIN_FRI, En, "doctor on weds at 3pm", due("2026-04-01 15:00", "doctor")),
        (BERLIN_FRI, En, "thu. 5pm dentist", due("2026-04-02 17:00", "dentist")),
        (BERLIN_FRI, En, "thur 5pm gym", due("2026-04-02 17:00", "gym")),
        (BERLIN_FRI, En, "watch the sun at 6", due("2026-03-27 18:00", "watch the sun")),
        (TASHKENT, Uz, "du soat 10 da yig'ilish", due("2026-03-30 10:00", "yig'ilish")),
        (TASHKENT, Uz, "ду соат 10 да йиғилиш", due("2026-03-30 10:00", "йиғилиш")),
        (MOSCOW, Ru, "в эту пятницу в 18 корпоратив", due("2026-03-27 18:00", "корпоратив")),
        // "на HH" after a day is its time; a count after a day is no hour.
        (MOSCOW, Ru, "такси на завтра на 10", due("2026-03-28 10:00", "такси")),
        (MOSCOW, Ru, "будильник завтра на 6", due("2026-03-28 06:00", "будильник")),
        (MOSCOW, Ru, "забронировать стол на завтра на 4 человека", due("2026-03-28 09:00", "забронировать стол на 4 человека")),
        (MOSCOW, Ru, "завтра 10 штук распечатать", due("2026-03-28 09:00", "10 штук распечатать")),
        (BERLIN_FRI, En, "tomorrow 2 pills", due("2026-03-28 09:00", "2 pills")),
        (TASHKENT, Uz, "ertaga 3 ta non", due("2026-03-28 09:00", "3 ta non")),
        (TASHKENT, Uz, "har kuni 2 mahal dori ichish", due("2026-03-28 09:00", "2 mahal dori ichish").every("FREQ=DAILY")),
        // A preposition leading the phrase leaves the text with it.
        (MOSCOW, Ru, "сдать отчет до 18:00", due("2026-03-27 18:00", "сдать отчет")),
        (BERLIN_FRI, En, "appointment for 3pm on friday", due("2026-03-27 15:00", "appointment")),
        // Minutes in words, after a dash, "ч … мин", "yarimda" after digits.
        (BERLIN_FRI, En, "interview tomorrow at ten thirty", due("2026-03-28 10:30", "interview")),
        (MOSCOW, Ru, "завтра в десять тридцать созвон", due("2026-03-28 10:30", "созвон")),
        (MOSCOW, Ru, "завтра в 10-30 созвон", due("2026-03-28 10:30", "созвон").sure()),
        (MOSCOW, Ru, "завтра с 10-12 совещание", due("2026-03-28 10:00", "совещание")),
        (MOSCOW, Ru, "завтра в 10 ч 30 мин созвон", due("2026-03-28 10:30", "созвон")),
        (MOSCOW, Ru, "в 15 ч позвонить юристу", due("2026-03-27 15:00", "позвонить юристу")),
        (TASHKENT, Uz, "ertaga soat 10 yarimda majlis", due("2026-03-28 10:30", "majlis")),
        // Words of the morning, the evening and midday in Uzbek and English.
        (TASHKENT, Uz, "ertaga saharlik soat 4 da", due("2026-03-28 04:00", "saharlik")),
        (TASHKENT, Uz, "ertaga soat 5 da turish", due("2026-03-28 05:00", "turish")),
        (BERLIN_FRI, En, "alarm tomorrow at 5 for the flight", due("2026-03-28 05:00", "alarm for the flight")),
        (TASHKENT, Uz, "har oqshom soat 9 da dori", due("2026-03-27 21:00", "dori").every("FREQ=DAILY")),
        (TASHKENT, Uz, "ertaga peshinda uchrashuv", due("2026-03-28 13:00", "uchrashuv")),
        (TASHKENT, Uz, "ertaga kechga shifokor", due("2026-03-28 19:00", "shifokor")),
        (BERLIN_FRI, En, "after tomorrow meeting at 10", due("2026-03-29 10:00", "meeting")),
        // A weekday in the dative ("к понедельнику") is no typo.
        (MOSCOW, Ru, "к понедельнику отчет", due("2026-03-30 09:00", "отчет").unnoted("Typo")),
        // A day of the month as an ordinal in words ("пятого апреля в 10" was today 22:00).
        (MOSCOW, Ru, "стоматолог пятого апреля в 10", due("2026-04-05 10:00", "стоматолог")),
        (MOSCOW, Ru, "двадцать третьего апреля в 9 отчёт", due("2026-04-23 09:00", "отчёт")),
        (MOSCOW, Ru, "тридцатое апреля отпуск", due("2026-04-30 09:00", "отпуск")),
        (BERLIN_FRI, En, "dentist april fifth at 3pm", due("2026-04-05 15:00", "dentist")),
        (BERLIN_FRI, En, "the fifth of april dentist", due("2026-04-05 09:00", "dentist")),
        (BERLIN_FRI, En, "party on april twenty-first at 7pm", due("2026-04-21 19:00", "party")),
        // A span of time: the reminder is at its start.
        (BERLIN_FRI, En, "tomorrow from 10 to 12 workshop", due("2026-03-28 10:00", "workshop")),
        (BERLIN_FRI, En, "workshop tomorrow from 9am to 5pm", due("2026-03-28 09:00", "workshop")),
        (MOSCOW, Ru, "завтра с 10 до 12 совещание", due("2026-03-28 10:00", "совещание")),
        (MOSCOW, Ru, "завтра с 10:00-12:00 совещание", due("2026-03-28 10:00", "совещание").sure()),
        (MOSCOW, Ru, "кофе с 2 друзьями в 5", due("2026-03-27 17:00", "кофе с 2 друзьями")),
        // Greetings and courtesy around a request are no task text.
        (BERLIN_FRI, En, "hello, can you remind me tomorrow at 10 to call mom", due("2026-03-28 10:00", "call mom")),
        (MOSCOW, Ru, "привет! напомни завтра в 10 позвонить врачу", due("2026-03-28 10:00", "позвонить врачу")),
        (MOSCOW, Ru, "Добрый день, напомните пожалуйста в понедельник в 11 про договор", due("2026-03-30 11:00", "договор")),
        (TASHKENT, Uz, "Assalomu alaykum, ertaga soat 10 da majlis borligini eslating", due("2026-03-28 10:00", "majlis borligini")),
        (BERLIN_FRI, En, "please remind me at 5 to call bob", due("2026-03-27 17:00", "call bob")),
        (BERLIN_FRI, En, "say hi to grandma tomorrow at 5", due("2026-03-28 17:00", "say hi to grandma")),
        (MOSCOW, Ru, "через 3 часа привет маме", due("2026-03-27 13:00", "привет маме")),
        (BERLIN_FRI, En, "in 2 hours hello", due("2026-03-27 12:00", "hello")),
        (MOSCOW, Ru, "привет маме завтра в 10", due("2026-03-28 10:00", "привет маме")),
        (MOSCOW, Ru, "Доброе утро завтра в 3 встреча", due("2026-03-28 15:00", "встреча")),
        // A day at one edge and a time inside the text are one phrase (Uzbek word order).
        (TASHKENT, Uz, "ertaga onamga soat 6 da qo'ng'iroq qilish", due("2026-03-28 18:00", "onamga qo'ng'iroq qilish").nothing_unplaced()),
        (TASHKENT, Uz, "dushanba kuni bankka soat 10 da borish", due("2026-03-30 10:00", "bankka borish").nothing_unplaced()),
        (TASHKENT, Uz, "soat 5 da onamga ertaga qo'ng'iroq", due("2026-03-28 17:00", "onamga qo'ng'iroq").nothing_unplaced()),
        (BERLIN_FRI, En, "tomorrow call mom at 5 about dinner", due("2026-03-28 17:00", "call mom about dinner")),
        (MOSCOW, Ru, "завтра позвонить маме в 6 насчет ужина", due("2026-03-28 18:00", "позвонить маме насчет ужина")),
        (BERLIN_FRI, En, "tomorrow prepare the friday slides", due("2026-03-28 09:00", "prepare the friday slides")),
        // A number past any hour, or joined to a word by a dash, is no time.
        (TASHKENT, Uz, "ertaga 12-bobni o'qish", due("2026-03-28 09:00", "12-bobni o'qish").noted("TimeNotSaid")),
        (TASHKENT, Uz, "ertaga 45-avtobus 7:15 da", due("2026-03-28 07:15", "45-avtobus")),
        (TASHKENT, Uz, "ertaga +998 90 123 45 67 ga qo'ng'iroq", due("2026-03-28 09:00", "+998 90 123 45 67 ga qo'ng'iroq")),
        // "coming", "ближайший" are "this"; "oclock", "sharp", "ровно"; four digits after a
        // marker or with a leading zero, "9ч30".
        (BERLIN_FRI, En, "coming sunday church at 10", due("2026-03-29 10:00", "church")),
        (MOSCOW, Ru, "в ближайшее воскресенье в 10 в церковь", due("2026-03-29 10:00", "в церковь")),
        (MOSCOW, Ru, "в ближайший понедельник стоматолог", due("2026-03-30 09:00", "стоматолог")),
        (BERLIN_FRI, En, "meeting at 2 oclock tomorrow", due("2026-03-28 14:00", "meeting").nothing_unplaced()),
        (BERLIN_FRI, En, "meeting at 2 pm sharp tomorrow", due("2026-03-28 14:00", "meeting").sure()),
        (MOSCOW, Ru, "встреча в 14:00 ровно завтра", due("2026-03-28 14:00", "встреча").sure()),
        (BERLIN_FRI, En, "in a hour and half call back", due("2026-03-27 11:30", "call back")),
        (BERLIN_FRI, En, "tomorrow 0930 standup", due("2026-03-28 09:30", "standup").sure()),
        (MOSCOW, Ru, "завтра в 9ч30 планерка", due("2026-03-28 09:30", "планерка")),
        (TASHKENT, Uz, "ertaga soat 1030 da majlis", due("2026-03-28 10:30", "majlis").sure()),
        (BERLIN_FRI, En, "call at 1530", due("2026-03-27 15:30", "call").sure()),
        (BERLIN_FRI, En, "flight SU 1234 tomorrow", due("2026-03-28 09:00", "flight SU 1234")),
        // A plural after a bare number after a day is counted, not an hour.
        (BERLIN_FRI, En, "tomorrow 3 eggs and milk", due("2026-03-28 09:00", "3 eggs and milk").noted("TimeNotSaid")),
        (BERLIN_FRI, En, "tonight 2 episodes", due("2026-03-27 19:00", "2 episodes")),
        (BERLIN_FRI, En, "tomorrow 3 discuss budget", due("2026-03-28 15:00", "discuss budget")),
        (MOSCOW, Ru, "в понедельник 5 отчетов сдать", due("2026-03-30 09:00", "5 отчетов сдать")),
        (BERLIN_FRI, En, "watch 'Friday' at 8", due("2026-03-27 20:00", "watch 'Friday'")),
        (BERLIN_FRI, En, "the students' party tomorrow at 5", due("2026-03-28 17:00", "the students' party")),
        // After a weekday, "6.04" and "06/04" are the date that falls on it; else a time.
        (MOSCOW, Ru, "пн 6.04 в 15 стоматолог", due("2026-04-06 15:00", "стоматолог").sure()),
        (MOSCOW, Ru, "пятница 9.05 созвон", due("2026-04-03 09:05", "созвон").sure()),
        (BERLIN_FRI, En, "mon 06/04 dentist at 3pm", due("2026-04-06 15:00", "dentist").sure()),
        // Next month: its 1st (said), a day of it, its end.
        (BERLIN_FRI, En, "pay rent next month", due("2026-04-01 09:00", "pay rent").noted("NextMonthFirst")),
        (BERLIN_FRI, En, "on the 30th of next month renew visa", due("2026-04-30 09:00", "renew visa")),
        (BERLIN_FRI, En, "next month on the 28th dentist", due("2026-04-28 09:00", "dentist")),
        (BERLIN_FRI, En, "end of next month report", due("2026-04-30 09:00", "report")),
        // Read wrong before (what it did, in brackets): a date by which ("к 1 сентября": today
        // 13:00, "сентября" in the text), the end of the year ("до конца года": no end, words
        // in the text), a lead apart from its time ("30 min before the 7pm concert": 19:00), a
        // distance after a part of the day ("ertalab 5 km": 05:00), the end of the day (asked
        // when).
        (MOSCOW, Ru, "к 1 сентября купить форму", due("2026-09-01 09:00", "купить форму").nothing_unplaced()),
        (BERLIN_FRI, En, "finish the essay by 5 july", due("2026-07-05 09:00", "finish the essay")),
        (MOSCOW, Ru, "каждый понедельник до конца года отчёт", due("2026-03-30 09:00", "отчёт").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20261231")),
        (TASHKENT, Uz, "yil oxirigacha har dushanba hisobot", due("2026-03-30 09:00", "hisobot").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20261231")),
        (BERLIN_FRI, En, "every monday until the end of the year gym", due("2026-03-30 09:00", "gym").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20261231")),
        (BERLIN_FRI, En, "leave home 30 min before the 7pm concert", due("2026-03-27 19:00", "leave home before the concert").lead(30).nothing_unplaced()),
        (MOSCOW, Ru, "выйти из дома за 30 минут до концерта в 19:00", due("2026-03-27 19:00", "выйти из дома до концерта").lead(30).nothing_unplaced()),
        (TASHKENT, Uz, "ertaga ertalab 5 km yugurish", due("2026-03-28 09:00", "5 km yugurish").noted("TimeNotSaid")),
        (MOSCOW, Ru, "завтра утром 5 км пробежать", due("2026-03-28 09:00", "5 км пробежать")),
        (BERLIN_FRI, En, "send the weekly report by end of day", due("2026-03-27 19:00", "send the weekly report").noted("TimeNotSaid")),
        (MOSCOW, Ru, "в конце дня отправить отчёт", due("2026-03-27 19:00", "отправить отчёт").noted("TimeNotSaid")),
        (TASHKENT, Uz, "kun oxirida hisobot yuborish", due("2026-03-27 19:00", "hisobot yuborish").noted("TimeNotSaid")),
        (BERLIN_FRI, En, "every day at 9 until the end of next month vitamins", due("2026-03-28 09:00", "vitamins").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (MOSCOW, Ru, "в следующем месяце заплатить налог", due("2026-04-01 09:00", "заплатить налог").noted("NextMonthFirst")),
        (MOSCOW, Ru, "28 числа следующего месяца визит", due("2026-04-28 09:00", "визит")),
        (MOSCOW, Ru, "в следующем месяце 5 числа визит", due("2026-04-05 09:00", "визит")),
        (MOSCOW, Ru, "в конце следующего месяца отчет", due("2026-04-30 09:00", "отчет")),
        (TASHKENT, Uz, "keyingi oy oxirida hisobot", due("2026-04-30 09:00", "hisobot")),
        (TASHKENT, Uz, "kelasi oy ijara haqini to'lash", due("2026-04-01 09:00", "ijara haqini to'lash")),
        (TASHKENT, Uz, "keyingi oyda 5-sanada ijara", due("2026-04-05 09:00", "ijara")),
        // The end of next week is its Friday, said; today after its default time is the next hour.
        (BERLIN_FRI, En, "send invoice at the end of next week", due("2026-04-03 09:00", "send invoice").noted("WeekEndFriday")),
        (MOSCOW, Ru, "в конце следующей недели отправить счет", due("2026-04-03 09:00", "отправить счет").noted("WeekEndFriday")),
        (BERLIN_FRI, En, "today call mom", due("2026-03-27 11:00", "call mom").noted("TimeNotSaid { chosen: 11:00:00 }")),
        (MOSCOW, Ru, "сегодня позвонить маме", due("2026-03-27 11:00", "позвонить маме").noted("TimeNotSaid { chosen: 11:00:00 }")),
        // The evening said in the evening is tonight's next whole hour, as "сегодня вечером" is;
        // the morning said at 10:00 is tomorrow's.
        (MOSCOW_EVENING, Ru, "вечером позвонить маме", due("2026-03-27 21:00", "позвонить маме").noted("TimeNotSaid { chosen: 21:00:00 }")),
        (BERLIN_EVENING, En, "in the evening call mom", due("2026-03-27 21:00", "call mom")),
        (MOSCOW, Ru, "утром позвонить маме", due("2026-03-28 09:00", "позвонить маме")),
        (MOSCOW, Ru, "с утра позвонить в банк", due("2026-03-28 09:00", "позвонить в банк")),
        (MOSCOW, Ru, "завтра с утра позвонить в банк", due("2026-03-28 09:00", "позвонить в банк")),
        // Russian counts by the case a number asks for, and Uzbek "-lik", are no hour.
        (MOSCOW, Ru, "вечером 2 серии", due("2026-03-27 19:00", "2 серии").noted("TimeNotSaid")),
        (MOSCOW, Ru, "в понедельник 3 отчета", due("2026-03-30 09:00", "3 отчета")),
        (MOSCOW, Ru, "завтра 3 урока с 9 до 12", due("2026-03-28 09:00", "3 урока")),
        (MOSCOW, Ru, "завтра 3 помоги маме", due("2026-03-28 15:00", "помоги маме")),
        (MOSCOW, Ru, "завтра 2 встречи с клиентами", due("2026-03-28 09:00", "2 встречи с клиентами")),
        (MOSCOW, Ru, "завтра 5 таблеток", due("2026-03-28 09:00", "5 таблеток")),
        (MOSCOW, Ru, "завтра 3 забери детей", due("2026-03-28 15:00", "забери детей")),
        (MOSCOW, Ru, "завтра 10 встреча", due("2026-03-28 10:00", "встреча")),
        (TASHKENT, Uz, "ertaga 5 kishilik stol band qilish", due("2026-03-28 09:00", "5 kishilik stol band qilish")),
        // After "at", "в", "soat" a number in a monthly repeat is its hour, not its day (was the
        // 10th at 00:00); "every 3 months" counts from today.
        (BERLIN_FRI, En, "every month at 10:00 pay rent", due("2026-04-27 10:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=27")),
        (MOSCOW, Ru, "каждый месяц в 10:00 оплатить интернет", due("2026-04-27 10:00", "оплатить интернет").every("FREQ=MONTHLY;BYMONTHDAY=27")),
        (MOSCOW, Ru, "раз в месяц в 18:30 счетчики", due("2026-03-27 18:30", "счетчики").every("FREQ=MONTHLY;BYMONTHDAY=27")),
        (TASHKENT, Uz, "har oy soat 10:00 da ijara", due("2026-04-27 10:00", "ijara").every("FREQ=MONTHLY;BYMONTHDAY=27")),
        (MOSCOW, Ru, "каждый месяц 10 числа оплатить интернет", due("2026-04-10 09:00", "оплатить интернет").every("FREQ=MONTHLY;BYMONTHDAY=10")),
        (BERLIN_FRI, En, "every month on 10 pay rent", due("2026-04-10 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=10")),
        (BERLIN_FRI, En, "every 3 months at 9am change filter", due("2026-06-27 09:00", "change filter").every("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=27;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260301")),
        // A birthday or a holiday wished is no part of the day (10 was 22:00, silently).
        (MOSCOW, Ru, "завтра в 10 поздравить маму с днём рождения", due("2026-03-28 10:00", "поздравить маму с днём рождения")),
        (MOSCOW, Ru, "завтра в 10 поздравить учителей с днём учителя", due("2026-03-28 10:00", "поздравить учителей с днём учителя")),
        (MOSCOW, Ru, "завтра днём позвонить", due("2026-03-28 14:00", "позвонить")),
        // English writes the afternoon on a 12-hour face; Russian does not.
        (BERLIN_FRI, En, "pick up package at 221 Baker St at 4:30", due("2026-03-27 16:30", "pick up package at 221 Baker St").noted("HourWithoutAmPm")),
        (BERLIN_FRI, En, "tomorrow at 04:30 flight", due("2026-03-28 04:30", "flight")),
        (BERLIN_FRI, En, "gym tomorrow 6:30", due("2026-03-28 06:30", "gym").sure()),
        (BERLIN_FRI, En, "wake me up at 5:30 tomorrow", due("2026-03-28 05:30", "wake me up")),
        (MOSCOW, Ru, "завтра в 4:30 рейс", due("2026-03-28 04:30", "рейс")),
        // "до" and a bare hour after a day is by that hour.
        (MOSCOW, Ru, "сегодня до 18 отправить 3 счета", due("2026-03-27 18:00", "отправить 3 счета")),
        (MOSCOW, Ru, "до 5 человек пригласить завтра", due("2026-03-28 09:00", "до 5 человек пригласить")),
        // A second time with its own part of the day, or "again".
        (MOSCOW, Ru, "утром в 9 и вечером в 9 выгулять собаку", due("2026-03-28 09:00", "выгулять собаку").also("2026-03-27 21:00")),
        (TASHKENT, Uz, "har kuni ertalab 8:00 va kechqurun 20:00 da vitamin", due("2026-03-28 08:00", "vitamin").every("FREQ=DAILY").also("2026-03-27 20:00")),
        (BERLIN_FRI, En, "remind me tomorrow at 9 and again at 5 to feed the fish", due("2026-03-28 09:00", "feed the fish").also("2026-03-28 17:00")),
        // Spans of hours remind at their start ("yoga 6-7pm" was 19:00 with "yoga 6" left).
        (BERLIN_FRI, En, "yoga 6-7pm tomorrow", due("2026-03-28 18:00", "yoga")),
        (BERLIN_FRI, En, "lunch tomorrow 12-1pm", due("2026-03-28 12:00", "lunch")),
        (BERLIN_FRI, En, "between 3 and 4 call the bank", due("2026-03-27 15:00", "call the bank")),
        (BERLIN_FRI, En, "between 3pm and 4pm call the bank", due("2026-03-27 15:00", "call the bank").once()),
        (MOSCOW, Ru, "завтра 2 пары с 8:30", due("2026-03-28 08:30", "2 пары")),
        (MOSCOW, Ru, "завтра с 2 детьми в парк", due("2026-03-28 09:00", "с 2 детьми в парк")),
        (BERLIN_FRI, En, "message from 3 people tomorrow", due("2026-03-28 09:00", "message from 3 people")),
        // Uzbek words around a date or a part of the day, read with it.
        (TASHKENT, Uz, "har yili 9-may kuni bobomni tabriklash", due("2026-05-09 09:00", "bobomni tabriklash").every("FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=9")),
        (TASHKENT, Uz, "9-may kuni bobomni tabriklash", due("2026-05-09 09:00", "bobomni tabriklash")),
        (TASHKENT, UzCyrl, "9-май куни бобомни табриклаш", due("2026-05-09 09:00", "бобомни табриклаш")),
        (TASHKENT, Uz, "iyun oyining 15-sanasida vizani uzaytirish", due("2026-06-15 09:00", "vizani uzaytirish")),
        (TASHKENT, Uz, "mart oyining oxirida soliq to'lash", due("2026-03-31 09:00", "soliq to'lash")),
        (TASHKENT, Uz, "bugun kechki payt onamga qo'ngiroq", due("2026-03-27 19:00", "onamga qo'ngiroq")),
        (TASHKENT, Uz, "soat 16:00 dagi uchrashuvni 15 daqiqa oldin eslat", due("2026-03-27 16:00", "uchrashuvni").lead(15)),
        (TASHKENT, Uz, "yarim soat o'tgach sho'rvani tekshirish", due("2026-03-27 10:30", "sho'rvani tekshirish")),
        // Two times of day for so many days are every day at them; one time with a length stays
        // one reminder ("rent a car at 10am for 3 days").
        (BERLIN_FRI, En, "rent a car at 10am for 3 days", due("2026-03-28 10:00", "rent a car for 3 days")),
        (BERLIN_FRI, En, "take antibiotics at 8am and 8pm for 7 days", due("2026-03-28 08:00", "take antibiotics").every("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20260403").also("2026-03-27 20:00")),
        (BERLIN_FRI, En, "take antibiotics every day at 8am and 8pm for 7 days", due("2026-03-28 08:00", "take antibiotics").every("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20260403").also("2026-03-27 20:00")),
        (MOSCOW, Ru, "пить антибиотик в 8 и в 20 в течение 7 дней", due("2026-03-28 08:00", "пить антибиотик").every("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20260403").also("2026-03-27 20:00")),
        (MOSCOW, Ru, "взять отпуск на 3 дня", fails(DueError::NoTime)),
        // "end of the month" on its last day is today's next whole hour, as "today" is.
        (TASHKENT_JAN_END, En, "pay internet bill end of the month", due("2026-01-31 14:00", "pay internet bill").noted("TimeNotSaid { chosen: 14:00:00 }")),
        // "типа" before an hour is "about": the day before it holds.
        (MOSCOW, Ru, "завтра типа в 3 забрать кроссовки", due("2026-03-28 15:00", "забрать кроссовки")),
        // What is no second time, no span and no deadline.
        (BERLIN_FRI, En, "buy milk at 5 and 2 bread", due("2026-03-27 17:00", "buy milk 2 bread").once()),
        (BERLIN_FRI, En, "standup at 11 and 1:1 with Ann", due("2026-03-27 11:00", "standup 1:1 with Ann").once()),
        (MOSCOW, Ru, "каждый день в 10 утра и в 4 таблетки", due("2026-03-28 10:00", "таблетки").every("FREQ=DAILY").also("2026-03-27 16:00")),
        (MOSCOW, Ru, "посмотреть типа 2 серии", fails(DueError::NoTime)),
        (MOSCOW, Ru, "сегодня до 20 страниц", due("2026-03-27 11:00", "до 20 страниц")),
        (BERLIN_FRI, En, "boil eggs between 5 and 10 minutes", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "\"Dune\" tonight then \"Arrival\"", due("2026-03-27 19:00", "\"Dune\" then \"Arrival\"")),
        (BERLIN_FRI, En, "tomorrow dentist at 3:00 downtown", due("2026-03-28 15:00", "dentist downtown")),
        // A range of amounts asks when, as "a few days" does; parts of one amount still add up.
        (BERLIN_FRI, En, "in a day or two check parcel", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "in 2 or 3 days check parcel", fails(DueError::NoTime)),
        (MOSCOW, Ru, "через день-два проверить посылку", fails(DueError::NoTime)),
        (MOSCOW, Ru, "через 2-3 дня проверить посылку", fails(DueError::NoTime)),
        (TASHKENT, Uz, "bir ikki kundan keyin posilkani tekshirish", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "in 2 days 3 hours call", due("2026-03-29 13:00", "call")),
        // Guillemets end a word, and a message all in quotes loses them; a clock's face may
        // end in "ч"; a range's hours may have their part of the day.
        (MOSCOW, Ru, "«купить молоко завтра в 9»", due("2026-03-28 09:00", "купить молоко")),
        (BERLIN_FRI, En, "\"buy milk tomorrow at 9\"", due("2026-03-28 09:00", "buy milk")),
        (MOSCOW, Ru, "в 10.30ч созвон", due("2026-03-27 10:30", "созвон")),
        (MOSCOW, Ru, "с 9 утра до 6 вечера работа", due("2026-03-28 09:00", "работа")),
        // "weekly", "daily" inside the text before a word describe it: no repeat is made.
        (BERLIN_FRI, En, "write weekly report", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "write weekly report friday", due("2026-04-03 09:00", "write weekly report").unplaced("weekly")),
        (BERLIN_FRI, En, "take pills daily", due("2026-03-28 09:00", "take pills").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "daily at 9 meds", due("2026-03-28 09:00", "meds").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "call mom weekly", due("2026-04-03 09:00", "call mom").every("FREQ=WEEKLY;BYDAY=FR")),
        (MOSCOW, Ru, "ежедневно пить витамины", due("2026-03-28 09:00", "пить витамины").every("FREQ=DAILY")),
        // A day of the month with its noun inside the text; "before 5pm" is a deadline.
        (TASHKENT, Uz, "enagaga 3-sanada pul berish", due("2026-04-03 09:00", "enagaga pul berish")),
        (MOSCOW, Ru, "заплатить 15 числа за квартиру", due("2026-04-15 09:00", "заплатить за квартиру")),
        (BERLIN_FRI, En, "send docs before 5pm", due("2026-03-27 17:00", "send docs")),
        (BERLIN_FRI, En, "remind me 30 min before the meeting at 5pm", due("2026-03-27 17:00", "the meeting").lead(30)),
        // A number after "at" followed by plain text is not joined to a day at an edge (a house);
        // an Uzbek span "soat 9dan 18gacha" reminds at its start.
        (BERLIN_FRI, En, "pick up parcel at 12 navoi street tomorrow", due("2026-03-28 09:00", "pick up parcel at 12 navoi street").unplaced("at 12")),
        (TASHKENT, Uz, "ertaga soat 9dan 18gacha navbatchilik", due("2026-03-28 09:00", "navbatchilik").nothing_unplaced()),
        (TASHKENT, Uz, "ertaga soat 14:00 dan 16:00 gacha majlis", due("2026-03-28 14:00", "majlis")),
        (TASHKENT, Uz, "uy 45 da kvartira 12 ga borish", fails(DueError::NoTime)),
        (TASHKENT, Uz, "ertaga 9 ga ishga", due("2026-03-28 09:00", "ishga")),
        (BERLIN_FRI, En, "meeting at 5 o clock tomorrow", due("2026-03-28 17:00", "meeting")),
        (BERLIN_FRI, En, "call john at three p m tomorrow", due("2026-03-28 15:00", "call john").sure()),
        // A second time joined by "and" is the same task at that time too (each reminder is said
        // in `unplaced` as well, for a reader that makes one only); a count after "and" is none.
        (BERLIN_FRI, En, "every day at 9 and 21 pills", due("2026-03-28 09:00", "pills").every("FREQ=DAILY").unplaced("21").also("2026-03-27 21:00")),
        (MOSCOW, Ru, "каждый день в 9 и 21 таблетки", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY").unplaced("21").also("2026-03-27 21:00")),
        (MOSCOW, Ru, "таблетки каждый день в 9 утра и 9 вечера", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (BERLIN_FRI, En, "take pills at 8:00 and 20:00 every day", due("2026-03-28 08:00", "take pills").every("FREQ=DAILY").unplaced("20:00").also("2026-03-27 20:00")),
        (BERLIN_FRI, En, "take pills, 8:00 and 20:00 daily", due("2026-03-28 08:00", "take pills").every("FREQ=DAILY").also("2026-03-27 20:00")),
        (BERLIN_FRI, En, "every day at 9 am and 9 pm vitamins", due("2026-03-28 09:00", "vitamins").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (MOSCOW, Ru, "завтра в 10 и в 16 позвонить", due("2026-03-28 10:00", "позвонить").also("2026-03-28 16:00")),
        (MOSCOW, Ru, "утром в 7 и 9 разбудить", due("2026-03-28 07:00", "разбудить").also("2026-03-28 09:00")),
        (TASHKENT, Uz, "har kuni soat 9 va 21 da dori ichish", due("2026-03-28 09:00", "dori ichish").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (TASHKENT, Uz, "dori ichish har kuni 8:00 va 20:00 da", due("2026-03-28 08:00", "dori ichish").every("FREQ=DAILY").also("2026-03-27 20:00")),
        (BERLIN_FRI, En, "\"every day at 9 and 21 pills\"", due("2026-03-28 09:00", "pills").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (BERLIN_FRI, En, "tomorrow at 9 and 3 eggs", due("2026-03-28 09:00", "3 eggs").once()),
        // People are counted after "and", never a time ("15 человек" was a reminder at 15:00).
        (MOSCOW, Ru, "встреча завтра в 10 и 15 человек придут", due("2026-03-28 10:00", "встреча 15 человек придут").once()),
        (BERLIN_FRI, En, "meeting tomorrow at 10 and 20 people coming", due("2026-03-28 10:00", "meeting 20 people coming").once()),
        // Two hours typed differently are two times: "at 9 and 21" in the evening is 09:00 tomorrow
        // and 21:00 tonight (9 was read as 21:00, and the reminders merged into one).
        (BERLIN_EVENING, En, "pills at 9 and 21", due("2026-03-28 09:00", "pills").unplaced("21").also("2026-03-27 21:00")),
        (MOSCOW_EVENING, Ru, "таблетки в 9 и в 21", due("2026-03-28 09:00", "таблетки").also("2026-03-27 21:00")),
        (BERLIN_FRI, En, "pills at 9 and 21", due("2026-03-28 09:00", "pills").also("2026-03-27 21:00")),
        (BERLIN_FRI, En, "every day at 9 and 25 pills", due("2026-03-28 09:00", "25 pills").every("FREQ=DAILY").once()),
        (MOSCOW, Ru, "завтра в 9 и в 9 встреча", due("2026-03-28 09:00", "встреча").once()),
        (BERLIN_FRI, En, "buy bread and milk at 5", due("2026-03-27 17:00", "buy bread and milk").once()),
        (BERLIN_FRI, En, "buy milk and 2 breads at 6pm", due("2026-03-27 18:00", "buy milk and 2 breads").nothing_unplaced()),
        // "a few" units is no duration the bot can keep: it asks when ("kundan keyin" alone was a day).
        (TASHKENT, Uz, "bir necha kundan keyin posilkani tekshirish", fails(DueError::NoTime)),
        (MOSCOW, Ru, "через несколько дней проверить посылку", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "in a few days follow up", fails(DueError::NoTime)),
        // Words in quotation marks are a title, not a time.
        (MOSCOW, Ru, "прочитать «Утро» в 10", due("2026-03-27 22:00", "прочитать «Утро»")),
        (TASHKENT, Uz, "soat 8 da \"Juma\" filmini ko'rish", due("2026-03-27 20:00", "\"Juma\" filmini ko'rish")),
        (BERLIN_FRI, En, "read \"Monday\" tomorrow at 9", due("2026-03-28 09:00", "read \"Monday\"").nothing_unplaced()),
        (BERLIN_FRI, En, "watch “Friday Night Lights” at 8pm", due("2026-03-27 20:00", "watch “Friday Night Lights”")),
        // A weekday beside a date: the date, and a weekday that is not its day is said.
        (MOSCOW, Ru, "в среду 1 апреля в 9 утра сдать проект", due("2026-04-01 09:00", "сдать проект").sure()),
        (MOSCOW, Ru, "в четверг 1 апреля в 9 утра сдать проект", due("2026-04-01 09:00", "сдать проект").noted("WeekdayOfDate { said: Thu")),
        (MOSCOW, Ru, "в пятницу 3-го обед с командой", due("2026-04-03 09:00", "обед с командой").nothing_unplaced()),
        (MOSCOW, Ru, "1 апреля, среда, сдать проект", due("2026-04-01 09:00", "сдать проект")),
        (TASHKENT, Uz, "dushanba 30-mart soat 10 da bankka qo'ng'iroq", due("2026-03-30 10:00", "bankka qo'ng'iroq").nothing_unplaced()),
        (TASHKENT, Uz, "chorshanba 1-aprel ertalab 9 da loyihani topshirish", due("2026-04-01 09:00", "loyihani topshirish")),
        (BERLIN_FRI, En, "monday 30th call the bank at 10", due("2026-03-30 10:00", "call the bank").nothing_unplaced()),
        (BERLIN_FRI, En, "on friday the 3rd team lunch", due("2026-04-03 09:00", "team lunch")),
        (BERLIN_FRI, En, "call berlin team on sunday 29 march at 3am", due("2026-03-29 03:00", "call berlin team")),
        (BERLIN_FRI, En, "thursday april 1 submit the report at 9", due("2026-04-01 09:00", "submit the report").noted("WeekdayOfDate")),
        // The weekday is the named day's, not the night after it: no mismatch is said.
        (MOSCOW, Ru, "в среду 1 апреля в 2 ночи проверить сервер", due("2026-04-02 02:00", "проверить сервер").noted("NightAfterDay").unnoted("WeekdayOfDate")),
        (BERLIN_FRI, En, "wednesday april 1 at midnight deploy", due("2026-04-02 00:00", "deploy").noted("NightAfterDay").unnoted("WeekdayOfDate")),
        (MOSCOW, Ru, "привет напомни пожалуйста завтра в 5 позвонить сантехнику", due("2026-03-28 17:00", "позвонить сантехнику")),
        (BERLIN_FRI, En, "hey can you remind me tomorrow at 5 to call the plumber", due("2026-03-28 17:00", "call the plumber")),
        // About when: the time as said ("около 5 человек" still counts people).
        (MOSCOW, Ru, "привет напомни завтра часов в 5 позвонить сантехнику", due("2026-03-28 17:00", "позвонить сантехнику")),
        (MOSCOW, Ru, "завтра около 6 вечера ужин", due("2026-03-28 18:00", "ужин")),
        (MOSCOW, Ru, "примерно в 15:00 созвон", due("2026-03-27 15:00", "созвон")),
        (MOSCOW, Ru, "около 5 человек придут завтра", due("2026-03-28 09:00", "около 5 человек придут")),
        (BERLIN_FRI, En, "remind me tomorrow around 5 to call the plumber", due("2026-03-28 17:00", "call the plumber")),
        (BERLIN_FRI, En, "call bob at around 7pm", due("2026-03-27 19:00", "call bob")),
        (BERLIN_FRI, En, "tomorrow about 10 call the bank", due("2026-03-28 10:00", "call the bank")),
        (BERLIN_FRI, En, "remind me about 5 things tomorrow", due("2026-03-28 09:00", "5 things")),
        (TASHKENT, Uz, "salom ertaga soat 5 larda santexnikga qo'ng'iroq qilish", due("2026-03-28 17:00", "santexnikga qo'ng'iroq qilish")),
        (TASHKENT, Uz, "ertaga taxminan soat 5 da santexnik", due("2026-03-28 17:00", "santexnik")),
        (TASHKENT, Uz, "ertaga soat 5 atrofida santexnik", due("2026-03-28 17:00", "santexnik")),
        // Every night: "каждую ночь", "har kecha" (Uzbek "kecha" alone is yesterday).
        (MOSCOW, Ru, "каждую ночь в 11 чистить зубы", due("2026-03-27 23:00", "чистить зубы").every("FREQ=DAILY;BYHOUR=23;BYMINUTE=0;BYSECOND=0")),
        (TASHKENT, Uz, "har kecha soat 11 da tish yuvish", due("2026-03-27 23:00", "tish yuvish").every("FREQ=DAILY;BYHOUR=23;BYMINUTE=0;BYSECOND=0")),
        (MOSCOW, Ru, "ночь музеев в субботу", due("2026-03-28 09:00", "ночь музеев")),
        // A time said in another zone is that zone's, and noted; a city alone is a place.
        (TASHKENT, Ru, "созвон завтра в 10:00 по москве", due("2026-03-28 12:00", "созвон").noted("OtherZone { zone: Europe/Moscow")),
        // An hour's note and its advice are on the user's clock, and no buttons are offered.
        (TASHKENT, Ru, "созвон в 10 по мск", due("2026-03-27 12:00", "созвон").noted("HourWithoutAmPm { typed: 10:00:00, chosen: 12:00:00 }")),
        (TASHKENT, Ru, "завтра в 6 по мск созвон", due("2026-03-28 20:00", "созвон").sure()),
        (TASHKENT, Ru, "вебинар в 19:00 (мск)", due("2026-03-27 21:00", "вебинар").noted("OtherZone")),
        (TASHKENT, Ru, "вебинар в 19:00 по московскому времени", due("2026-03-27 21:00", "вебинар")),
        (BERLIN_FRI, En, "webinar tomorrow at 3pm UTC", due("2026-03-28 16:00", "webinar").noted("OtherZone { zone: UTC")),
        (BERLIN_FRI, En, "call with NY team tomorrow 10am EST", due("2026-03-28 15:00", "call with NY team")),
        (BERLIN_FRI, En, "call at 5pm moscow time", due("2026-03-27 15:00", "call")),
        (TASHKENT, Uz, "ertaga soat 10:00 da Moskva vaqti bilan majlis", due("2026-03-28 12:00", "majlis")),
        (BERLIN_FRI, En, "flight to moscow at 18:00", due("2026-03-27 18:00", "flight to moscow").nothing_unplaced()),
        (TASHKENT, Ru, "каждый день в 10:00 по мск отчёт", due("2026-03-28 10:00", "по мск отчёт").every("FREQ=DAILY").unplaced("по мск")),
        // "марта" is March in Russian, not Uzbek "marta" (times) transliterated.
        (MOSCOW, Ru, "встреча 30 марта в 10:00", due("2026-03-30 10:00", "встреча").nothing_unplaced()),
        (MOSCOW, Ru, "встреча в 10:00 30 марта", due("2026-03-30 10:00", "встреча").nothing_unplaced()),
        (MOSCOW, Ru, "30 марта в 9 встреча", due("2026-03-30 09:00", "встреча")),
        (MOSCOW, Ru, "подарок маме 31 марта", due("2026-03-31 09:00", "подарок маме")),
        // A greeting is no part of the day, and no task text.
        (MOSCOW, Ru, "Доброе утро. Завтра в 3 встреча", due("2026-03-28 15:00", "встреча").noted("HourWithoutAmPm")),
        (MOSCOW, Ru, "Добрый вечер, завтра в 9 созвон", due("2026-03-28 09:00", "созвон").noted("HourWithoutAmPm")),
        (BERLIN_FRI, En, "good morning, tomorrow at 3 call the dentist", due("2026-03-28 15:00", "call the dentist").noted("HourWithoutAmPm")),
        (BERLIN_FRI, En, "say good night to grandma tomorrow at 8", due("2026-03-28 08:00", "say good night to grandma")),
        (TASHKENT, Uz, "Xayrli tong! ertaga soat 3 da uchrashuv", due("2026-03-28 15:00", "uchrashuv")),
        // A noun or adjective of a part of the day right after a time names the task and does
        // not turn the time round; an hour's own part of the day ("вечера"), one before the
        // time and one after a day still do. Words of the evening anywhere still read a bare hour.
        (BERLIN_FRI, En, "tomorrow 9:00 night shift briefing", due("2026-03-28 09:00", "night shift briefing").sure()),
        (TASHKENT, Uz, "ertaga soat 10:00 da kechki ovqat uchun xarid", due("2026-03-28 10:00", "kechki ovqat uchun xarid").sure()),
        (MOSCOW, Ru, "завтра в 7:30 вечер встречи выпускников", due("2026-03-28 07:30", "вечер встречи выпускников")),
        (MOSCOW, Ru, "завтра в 9:30 вечера кино", due("2026-03-28 21:30", "кино")),
        (BERLIN_FRI, En, "tomorrow evening 8:00 concert", due("2026-03-28 20:00", "concert")),
        (BERLIN_FRI, En, "tomorrow at 9 evening walk", due("2026-03-28 21:00", "evening walk")),
        (BERLIN_FRI, En, "call at 9 tomorrow evening", due("2026-03-28 21:00", "call")),
        // Minutes typed with a space for the colon, when they count nothing.
        (MOSCOW, Ru, "завтра в 9 30 планёрка", due("2026-03-28 09:30", "планёрка")),
        (BERLIN_FRI, En, "call at 9 30, then lunch", due("2026-03-27 21:30", "call then lunch")),
        (TASHKENT, Uz, "ertaga soat 9 30 da yig'ilish", due("2026-03-28 09:30", "yig'ilish")),
        (MOSCOW, Ru, "встреча в 9 30 марта", due("2026-03-30 09:00", "встреча")),
        // …and one that contradicts it is not read as the time, and is said to be left out.
        (BERLIN_FRI, En, "tomorrow evening at 9am review", due("2026-03-28 19:00", "at 9am review").unplaced("at 9am")),
        (BERLIN_FRI, En, "midnight backup", due("2026-03-28 00:00", "backup")),
        (BERLIN_FRI, En, "party friday at midnight", due("2026-03-28 00:00", "party")),
        (BERLIN_FRI, En, "every day at midnight backup", due("2026-03-28 00:00", "backup").every("FREQ=DAILY")),
        (MOSCOW, Ru, "сегодня в полночь выпить таблетку", due("2026-03-28 00:00", "выпить таблетку").noted("NightAfterDay")),
        (MOSCOW, Ru, "в полночь бэкап", due("2026-03-28 00:00", "бэкап")),
        (MOSCOW, Ru, "сегодня в 2 ночи бэкап", due("2026-03-28 02:00", "бэкап")),
        (MOSCOW, Ru, "завтра в 2 ночи бэкап", due("2026-03-29 02:00", "бэкап").noted("NightAfterDay { date: 2026-03-29 }")),
        (TASHKENT, Uz, "bugun yarim tunda dori", due("2026-03-28 00:00", "dori").noted("NightAfterDay")),
        (TASHKENT, Uz, "yarim tunda zaxira", due("2026-03-28 00:00", "zaxira")),
        // ==== "tomorrow" after midnight is the coming day, and said; from 04:00 the calendar's ====
        // "tonight" after midnight is this night while its time is ahead.
        (MOSCOW_AFTER_MIDNIGHT, Ru, "сегодня в 2 ночи проверить сервер", due("2026-03-28 02:00", "проверить сервер").noted("TonightAfterMidnight { date: 2026-03-28 }")),
        (MOSCOW_AFTER_MIDNIGHT, En, "tonight at 2 check the baby", due("2026-03-28 02:00", "check the baby").noted("TonightAfterMidnight")),
        (MOSCOW_AFTER_MIDNIGHT, Uz, "bugun kechasi soat 2 da bolani tekshirish", due("2026-03-28 02:00", "bolani tekshirish").noted("TonightAfterMidnight")),
        (MOSCOW_NIGHT_LAST, Ru, "сегодня в 2 ночи проверить сервер", due("2026-03-29 02:00", "проверить сервер").noted("NightAfterDay")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "завтра в 9 позвонить в банк", due("2026-03-28 09:00", "позвонить в банк").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_AFTER_MIDNIGHT, En, "tomorrow morning call the bank", due("2026-03-28 09:00", "call the bank").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_AFTER_MIDNIGHT, Uz, "ertaga soat 9 da bankka qo'ng'iroq", due("2026-03-28 09:00", "bankka qo'ng'iroq").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_AFTER_MIDNIGHT, Uz, "эртага соат 9 да банкка қўнғироқ", due("2026-03-28 09:00", "банкка қўнғироқ").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_AFTER_MIDNIGHT, En, "tomorow at 9 call the bank", due("2026-03-28 09:00", "call the bank").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_AFTER_MIDNIGHT, En, "call mom by tomorrow", due("2026-03-28 09:00", "call mom").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_AFTER_MIDNIGHT, En, "tomorrow at 6 run", due("2026-03-28 18:00", "run").noted("TomorrowAfterMidnight").asks("2026-03-28 06:00", "2026-03-28 18:00")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "послезавтра позвонить в банк", due("2026-03-29 09:00", "позвонить в банк").noted("TomorrowAfterMidnight { date: 2026-03-29, day_after: true }")),
        (MOSCOW_AFTER_MIDNIGHT, Uz, "indinga soat 10 da uchrashuv", due("2026-03-29 10:00", "uchrashuv").noted("TomorrowAfterMidnight { date: 2026-03-29, day_after: true }")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "завтра в 2 ночи бэкап", due("2026-03-29 02:00", "бэкап").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }, NightAfterDay { date: 2026-03-29 }")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "сегодня в 9 позвонить в банк", due("2026-03-28 09:00", "позвонить в банк").unnoted("TomorrowAfterMidnight")),
        (MOSCOW_AFTER_MIDNIGHT, En, "tomorrow at 00:15 backup", due("2026-03-29 00:15", "backup").unnoted("TomorrowAfterMidnight")),
        (MOSCOW_NIGHT_LAST, En, "tomorrow at 9 call the bank", due("2026-03-28 09:00", "call the bank").noted("TomorrowAfterMidnight { date: 2026-03-28, day_after: false }")),
        (MOSCOW_NIGHT_OVER, En, "tomorrow at 9 call the bank", due("2026-03-29 09:00", "call the bank").unnoted("TomorrowAfterMidnight")),
        (MOSCOW_NIGHT_OVER, Ru, "завтра в 9 позвонить в банк", due("2026-03-29 09:00", "позвонить в банк").unnoted("TomorrowAfterMidnight")),
        (MOSCOW_NIGHT_OVER, Uz, "ertaga soat 9 da bankka qo'ng'iroq", due("2026-03-29 09:00", "bankka qo'ng'iroq").unnoted("TomorrowAfterMidnight")),
        // ==== Next week, next weekday, end of month, a day of the month ====
        (BERLIN_FRI, En, "next week call Bob", due("2026-03-30 09:00", "call Bob").noted("NextWeekMonday { date: 2026-03-30 }")),
        (BERLIN_FRI, En, "next week on tuesday report", due("2026-03-31 09:00", "report")),
        (BERLIN_TUE_NOON, En, "next friday report", due("2026-04-03 09:00", "report").noted("NextWeekday { date: 2026-04-03 }")),
        (BERLIN_TUE_NOON, En, "friday report", due("2026-03-27 09:00", "report")),
        (BERLIN_TUE_NOON, En, "this friday report", due("2026-03-27 09:00", "report")),
        (BERLIN_FRI, En, "end of month pay rent", due("2026-03-31 09:00", "pay rent")),
        (BERLIN_FRI, En, "pay rent by the end of the month", due("2026-03-31 09:00", "pay rent")),
        (BERLIN_FRI, En, "file taxes by the end of april", due("2026-04-30 09:00", "file taxes")),
        (BERLIN_FRI, En, "every day at 9 vitamins until the end of april", due("2026-03-28 09:00", "vitamins").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (BERLIN_FRI, En, "on the last day of the month report", due("2026-03-31 09:00", "report")),
        (BERLIN_FRI, En, "dentist on the 15th", due("2026-04-15 09:00", "dentist")),
        (BERLIN_FRI, En, "dentist on the 15th at 4 pm", due("2026-04-15 16:00", "dentist")),
        (BERLIN_FRI, En, "rent on the 31st", due("2026-03-31 09:00", "rent")),
        (MOSCOW_TUE, Ru, "в следующую пятницу отчёт", due("2026-04-03 09:00", "отчёт").noted("NextWeekday { date: 2026-04-03 }")),
        (MOSCOW_TUE, Ru, "в пятницу отчёт", due("2026-03-27 09:00", "отчёт")),
        (MOSCOW, Ru, "на следующей неделе позвонить", due("2026-03-30 09:00", "позвонить")),
        (MOSCOW, Ru, "на следующей неделе во вторник отчёт", due("2026-03-31 09:00", "отчёт")),
        (MOSCOW, Ru, "в конце месяца оплатить", due("2026-03-31 09:00", "оплатить")),
        (MOSCOW, Ru, "сдать отчёт до конца апреля", due("2026-04-30 09:00", "сдать отчёт").noted("TimeNotSaid")),
        (MOSCOW, Ru, "в конце февраля продлить полис", due("2027-02-28 09:00", "продлить полис")),
        (MOSCOW, Ru, "каждый день в 9 до конца апреля витамины", due("2026-03-28 09:00", "витамины").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (MOSCOW, Ru, "к концу месяца отчёт", due("2026-03-31 09:00", "отчёт")),
        (MOSCOW, Ru, "в последний день месяца отчёт", due("2026-03-31 09:00", "отчёт")),
        (MOSCOW, Ru, "15 числа врач", due("2026-04-15 09:00", "врач")),
        (MOSCOW, Ru, "15-го числа в 10 врач", due("2026-04-15 10:00", "врач")),
        (MOSCOW, Ru, "второго числа в 10 врач", due("2026-04-02 10:00", "врач")),
        (MOSCOW, Ru, "двадцать пятого числа зарплата", due("2026-04-25 09:00", "зарплата")),
        (TASHKENT_TUE, Uz, "keyingi juma hisobot", due("2026-04-03 09:00", "hisobot").noted("NextWeekday")),
        (TASHKENT, Uz, "keyingi hafta hisobot", due("2026-03-30 09:00", "hisobot")),
        (TASHKENT, Uz, "keyingi haftada seshanba kuni hisobot", due("2026-03-31 09:00", "hisobot")),
        (TASHKENT, Uz, "oy oxirida to'lov", due("2026-03-31 09:00", "to'lov")),
        (TASHKENT, Uz, "aprel oxirida sug'urta", due("2026-04-30 09:00", "sug'urta")),
        (TASHKENT, Uz, "oyning oxirgi kuni hisobot", due("2026-03-31 09:00", "hisobot")),
        // An hour without a day whose first reading is in the night: taken, and the afternoon
        // offered with a button ("call client at 1" at 13:40 rang at 01:00 with only a note).
        (TASHKENT_JAN_END, En, "call client at 1", due("2026-02-01 01:00", "call client").asks("2026-02-01 01:00", "2026-02-01 13:00")),
        (TASHKENT_JAN_END, Ru, "в 1 позвонить врачу", due("2026-02-01 01:00", "позвонить врачу").asks("2026-02-01 01:00", "2026-02-01 13:00")),
        (TASHKENT_JAN_END, Ru, "в 2 позвонить врачу", due("2026-01-31 14:00", "позвонить врачу").sure()),
        (TASHKENT_JAN_END, En, "at 3 call mom", due("2026-01-31 15:00", "call mom").sure()),
        (TASHKENT_JAN_END, En, "wake me at 5", due("2026-02-01 05:00", "wake me").sure()),
        // Chat spellings: "2moro" (today, left in the text), Uzbek "daq" and an ablative typed
        // apart (asked when).
        (BERLIN_FRI, En, "remind me 2moro at 11 to collect the documents", due("2026-03-28 11:00", "collect the documents").nothing_unplaced()),
        (BERLIN_FRI, En, "call bob 2morrow", due("2026-03-28 09:00", "call bob")),
        (TASHKENT, Uz, "15 daq dan keyin choynakni o'chirish", due("2026-03-27 10:15", "choynakni o'chirish")),
        (TASHKENT, Uz, "15 daqiqa dan keyin choy", due("2026-03-27 10:15", "choy")),
        // A city of two words, or more cities, with "time" is that zone ("9am New York time" was
        // Tashkent's 9am with "New York time" in the text); a city alone is a place.
        (TASHKENT, En, "team call at 9am New York time", due("2026-03-27 18:00", "team call").noted("OtherZone")),
        (TASHKENT, En, "call at 15:00 Paris time", due("2026-03-27 19:00", "call").noted("OtherZone")),
        (TASHKENT, En, "flight to New York tomorrow at 10", due("2026-03-28 10:00", "flight to New York").unnoted("OtherZone")),
        // Uzbek minutes to or past an hour in digits ("soat 6 ga 15 daqiqa qolganda" was 18:00
        // with the minutes left in the text).
        (TASHKENT, Uz, "soat 6 ga 15 daqiqa qolganda avtobusga chiqish", due("2026-03-27 17:45", "avtobusga chiqish").nothing_unplaced()),
        (TASHKENT, Uz, "soat 5 dan 10 daqiqa o'tganda qo'ng'iroq", due("2026-03-27 17:10", "qo'ng'iroq")),
        // "first thing" is the morning (it stayed in the text), but not "the first thing".
        (BERLIN_FRI, En, "first thing tomorrow email bob", due("2026-03-28 09:00", "email bob").noted("TimeNotSaid")),
        (BERLIN_FRI, En, "email bob first thing tomorrow", due("2026-03-28 09:00", "email bob")),
        (BERLIN_FRI, En, "the first thing to buy is milk tomorrow", due("2026-03-28 09:00", "the first thing to buy is milk")),
        // From review: a lead after the time or without "before"/"до" describes the task; "until
        // the end of the day" after a repeat is no time of day; "9 and 9pm" are two times; more
        // people counted; Uzbek minutes to an hour past 12; one mile.
        (MOSCOW, Ru, "завтра в 18:00 отправить отчёт за день руководителю", due("2026-03-28 18:00", "отправить отчёт за день руководителю")),
        (MOSCOW, Ru, "каждый день в 8 пить таблетки за 30 минут до еды", due("2026-03-28 08:00", "пить таблетки за 30 минут до еды").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "at 8 take medicine 1 hour before breakfast", due("2026-03-28 08:00", "take medicine 1 hour before breakfast")),
        (MOSCOW, Ru, "пить воду каждый час до конца дня", due("2026-03-27 11:00", "пить воду до конца дня").every("FREQ=HOURLY;DTSTART=20260327T080000Z")),
        (BERLIN_EVENING, En, "pills at 9 and 9pm", due("2026-03-28 09:00", "pills").also("2026-03-27 21:00")),
        (MOSCOW_EVENING, Ru, "таблетки в 9 и в 9 вечера", due("2026-03-28 09:00", "таблетки").also("2026-03-27 21:00")),
        (MOSCOW_EVENING, Ru, "таблетки в 9 и в 9", due("2026-03-27 21:00", "таблетки").once()),
        (MOSCOW, Ru, "урок в 3 и 15 учеников", due("2026-03-27 15:00", "урок 15 учеников").once()),
        (MOSCOW, Ru, "встреча завтра в 10 и 15 чел придут", due("2026-03-28 10:00", "встреча 15 чел придут").once()),
        (TASHKENT, Uz, "soat 18 ga 15 daqiqa qolganda chiqish", due("2026-03-27 17:45", "chiqish")),
        (TASHKENT, Uz, "soat 17 dan 10 daqiqa o'tganda qo'ng'iroq", due("2026-03-27 17:10", "qo'ng'iroq")),
        (BERLIN_FRI, En, "tomorrow morning 1 mile swim", due("2026-03-28 09:00", "1 mile swim")),
        // A weekday with the possessive and a case ("jumasida") is that weekday: it rang today.
        (TASHKENT_APR, Uz, "oyning oxirgi jumasida soat 19 da jamoa bilan kechki ovqat", due("2026-04-24 19:00", "jamoa bilan kechki ovqat").nothing_unplaced()),
        (TASHKENT, Uz, "15-sanasida shifokor", due("2026-04-15 09:00", "shifokor")),
        (TASHKENT, Uz, "15-kuni soat 10 da shifokor", due("2026-04-15 10:00", "shifokor")),
        // ==== Spoken times ====
        (BERLIN_FRI, En, "half past five tea", due("2026-03-27 17:30", "tea").noted("typed: 05:30:00")),
        (BERLIN_FRI, En, "quarter to six tea", due("2026-03-27 17:45", "tea")),
        (BERLIN_FRI, En, "tea at a quarter past 7", due("2026-03-27 19:15", "tea")),
        (BERLIN_FRI, En, "ten past five tea", due("2026-03-27 17:10", "tea")),
        (BERLIN_FRI, En, "tomorrow at half past 8 run", due("2026-03-28 08:30", "run")),
        (BERLIN_FRI, En, "work from 9 to 5 tomorrow", due("2026-03-28 09:00", "work")),
        (MOSCOW, Ru, "полшестого чай", due("2026-03-27 17:30", "чай")),
        (MOSCOW, Ru, "в половине шестого чай", due("2026-03-27 17:30", "чай")),
        (MOSCOW, Ru, "в четверть шестого чай", due("2026-03-27 17:15", "чай")),
        (MOSCOW, Ru, "без пятнадцати шесть чай", due("2026-03-27 17:45", "чай")),
        (MOSCOW, Ru, "без четверти час обед", due("2026-03-27 12:45", "обед")),
        (MOSCOW, Ru, "завтра полвосьмого пробежка", due("2026-03-28 07:30", "пробежка")),
        (TASHKENT, Uz, "soat besh yarimda choy", due("2026-03-27 17:30", "choy")),
        (TASHKENT, Uz, "beshdan o'n besh daqiqa o'tganda choy", due("2026-03-27 17:15", "choy")),
        (TASHKENT, Uz, "oltiga chorak qolganda choy", due("2026-03-27 17:45", "choy")),
        (TASHKENT, Uz, "ertaga sakkizdan yigirma daqiqa o'tganda yugurish", due("2026-03-28 08:20", "yugurish")),
        // ==== Remind me at X to Y; a time in the middle of the text ====
        (BERLIN_FRI, En, "remind me at 5 to call mom", due("2026-03-27 17:00", "call mom")),
        (BERLIN_FRI, En, "remind me tomorrow at 9 to call mom", due("2026-03-28 09:00", "call mom")),
        (BERLIN_FRI, En, "call mom at 5 about dinner", due("2026-03-27 17:00", "call mom about dinner")),
        (BERLIN_FRI, En, "send the report on monday to Ann", due("2026-03-30 09:00", "send the report to Ann")),
        (MOSCOW, Ru, "напомни в 5 позвонить маме", due("2026-03-27 17:00", "позвонить маме")),
        (MOSCOW, Ru, "напомни мне завтра купить хлеб", due("2026-03-28 09:00", "купить хлеб")),
        (MOSCOW, Ru, "позвонить маме завтра в 9 про ужин", due("2026-03-28 09:00", "позвонить маме про ужин")),
        (TASHKENT, Uz, "menga ertaga soat 9 da non olishni eslat", due("2026-03-28 09:00", "non olish")),
        (TASHKENT, Uz, "eslat ertaga non olish", due("2026-03-28 09:00", "non olish")),
        (TASHKENT, Uz, "onamga ertaga soat 9 da qo'ng'iroq qilish", due("2026-03-28 09:00", "onamga qo'ng'iroq qilish")),
        // ==== One-letter typos of key words (and no false ones) ====
        (BERLIN_FRI, En, "tomorow 9 call", due("2026-03-28 09:00", "call").noted("Typo { typed: \"tomorow\", read: \"tomorrow\" }")),
        (BERLIN_FRI, En, "call mom tommorrow at 10", due("2026-03-28 10:00", "call mom").noted("Typo")),
        (BERLIN_FRI, En, "fridy 18:00 drinks", due("2026-03-27 18:00", "drinks").noted("read: \"friday\"")),
        (BERLIN_FRI, En, "buy dairy tomorrow", due("2026-03-28 09:00", "buy dairy")),
        (BERLIN_FRI, En, "water the plants in 2 hours", due("2026-03-27 12:00", "water the plants")),
        (MOSCOW, Ru, "завтро в 9 позвонить", due("2026-03-28 09:00", "позвонить").noted("read: \"завтра\"")),
        (MOSCOW, Ru, "черех 2 часа позвонить", due("2026-03-27 12:00", "позвонить").noted("read: \"через\"")),
        (MOSCOW, Ru, "завтрак завтра в 8", due("2026-03-28 08:00", "завтрак")),
        (MOSCOW, Ru, "четверо гостей завтра в 18:00", due("2026-03-28 18:00", "четверо гостей")),
        (TASHKENT, Uz, "ertga 9 da sport", due("2026-03-28 09:00", "sport").noted("read: \"ertaga\"")),
        (TASHKENT, Uz, "kelin bilan ertaga soat 18:00 da", due("2026-03-28 18:00", "kelin bilan")),
        // ==== Number words ====
        (BERLIN_FRI, En, "in five minutes tea", due("2026-03-27 10:05", "tea")),
        (BERLIN_FRI, En, "in twenty five minutes tea", due("2026-03-27 10:25", "tea")),
        (BERLIN_FRI, En, "in twenty-five minutes tea", due("2026-03-27 10:25", "tea")),
        (BERLIN_FRI, En, "in fifteen minutes tea", due("2026-03-27 10:15", "tea")),
        (BERLIN_FRI, En, "at five pm call", due("2026-03-27 17:00", "call")),
        (BERLIN_FRI, En, "at seven call", due("2026-03-27 19:00", "call")),
        (MOSCOW, Ru, "через пять минут чай", due("2026-03-27 10:05", "чай")),
        (MOSCOW, Ru, "через двадцать пять минут чай", due("2026-03-27 10:25", "чай")),
        (MOSCOW, Ru, "через одну минуту чай", due("2026-03-27 10:01", "чай")),
        (MOSCOW, Ru, "в пять позвонить", due("2026-03-27 17:00", "позвонить")),
        (MOSCOW, Ru, "в семь утра зарядка", due("2026-03-28 07:00", "зарядка")),
        (MOSCOW, Ru, "через двенадцать часов проверить", due("2026-03-27 22:00", "проверить")),
        (TASHKENT, Uz, "besh daqiqadan keyin choy", due("2026-03-27 10:05", "choy")),
        (TASHKENT, Uz, "o'n besh daqiqadan keyin choy", due("2026-03-27 10:15", "choy")),
        (TASHKENT, Uz, "yigirma besh daqiqadan keyin choy", due("2026-03-27 10:25", "choy")),
        (TASHKENT, Uz, "soat beshda qo'ng'iroq", due("2026-03-27 17:00", "qo'ng'iroq")),
        (TASHKENT, Uz, "besh kundan keyin shifokor", due("2026-04-01 10:00", "shifokor")),
        // ==== Uzbek in Cyrillic, and Russian still Russian ====
        (TASHKENT, Uz, "эртага соат 9 да спорт", due("2026-03-28 09:00", "спорт")),
        (TASHKENT, Ru, "Эртага соат 10:00 да йиғилиш", due("2026-03-28 10:00", "йиғилиш")),
        (TASHKENT, Uz, "бугун кечқурун кино", due("2026-03-27 19:00", "кино")),
        (TASHKENT, Uz, "ҳар душанба йиғилиш", due("2026-03-30 09:00", "йиғилиш").every("FREQ=WEEKLY;BYDAY=MO")),
        (TASHKENT, Uz, "икки соатдан кейин ухлаш", due("2026-03-27 12:00", "ухлаш")),
        (TASHKENT, Uz, "ўн беш дақиқадан кейин чой", due("2026-03-27 10:15", "чой")),
        (TASHKENT, Uz, "келаси ҳафта ҳисобот", due("2026-03-30 09:00", "ҳисобот")),
        (TASHKENT, Uz, "ой охирида тўлов", due("2026-03-31 09:00", "тўлов")),
        (TASHKENT, Uz, "ҳар йили 14-февралда гуллар", due("2027-02-14 09:00", "гуллар").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        (TASHKENT, Uz, "душанба ва чоршанба кунлари спорт", due("2026-03-30 09:00", "спорт").every("FREQ=WEEKLY;BYDAY=MO,WE")),
        (TASHKENT, Uz, "ҳар куни 07:00 да югуриш", due("2026-03-28 07:00", "югуриш").every("FREQ=DAILY")),
        (TASHKENT, Uz, "эртга 9 да спорт", due("2026-03-28 09:00", "спорт").noted("Typo")),
        (TASHKENT, Uz, "через 2 часа позвонить маме", due("2026-03-27 12:00", "позвонить маме")),
        (TASHKENT, Uz, "да, завтра в 9 позвонить", due("2026-03-28 09:00", "да позвонить")),
        // ==== Richer repeats ====
        (BERLIN_FRI, En, "every 2 days water plants", due("2026-03-28 09:00", "water plants").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (BERLIN_FRI, En, "every other day at 8 water plants", due("2026-03-28 08:00", "water plants").every("FREQ=DAILY;INTERVAL=2;BYHOUR=8;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (BERLIN_FRI, En, "every 3 hours drink water", due("2026-03-27 13:00", "drink water").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T120000Z")),
        (BERLIN_FRI, En, "drink water every hour", due("2026-03-27 11:00", "drink water").every("FREQ=HOURLY;DTSTART=20260327T100000Z")),
        (BERLIN_FRI, En, "every 2 weeks on monday payroll", due("2026-03-30 09:00", "payroll").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (BERLIN_FRI, En, "every two weeks on tuesday and thursday at 18:00 dance", due("2026-03-31 18:00", "dance").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;BYHOUR=18;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (BERLIN_FRI, En, "fortnightly on friday payroll", due("2026-04-03 09:00", "payroll").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (BERLIN_FRI, En, "every 3 months on the 15th invoices", due("2026-04-15 09:00", "invoices").every("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260401")),
        // An ordinal before a unit of days or longer is an interval, not a day of the month;
        // before anything else it stays the day of the month.
        (BERLIN_FRI, En, "every 2nd day at 7pm water plants", due("2026-03-27 19:00", "water plants").every("FREQ=DAILY;INTERVAL=2;BYHOUR=19;BYMINUTE=0;BYSECOND=0;DTSTART=20260327")),
        (BERLIN_FRI, En, "every 3rd day water plants", due("2026-03-28 09:00", "water plants").every("FREQ=DAILY;INTERVAL=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (BERLIN_FRI, En, "every second day water plants", due("2026-03-28 09:00", "water plants").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (BERLIN_FRI, En, "every 2nd week on monday payroll", due("2026-03-30 09:00", "payroll").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330").nothing_unplaced()),
        // "every third week" said on Friday after its 09:00 counts from this week: in 3 weeks.
        (BERLIN_FRI, En, "every third week team sync", due("2026-04-17 09:00", "team sync").every("FREQ=WEEKLY;INTERVAL=3;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260323")),
        (BERLIN_FRI, En, "every 2nd month on the 15th invoices", due("2026-04-15 09:00", "invoices").every("FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260401")),
        (BERLIN_FRI, En, "every 2nd pay rent", due("2026-04-02 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=2")),
        (BERLIN_FRI, En, "every 2nd of the month pay rent", due("2026-04-02 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=2")),
        (BERLIN_FRI, En, "every 2nd day of the month pay rent", due("2026-04-02 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=2")),
        (MOSCOW, Ru, "каждый второй день полить цветы", due("2026-03-28 09:00", "полить цветы").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (MOSCOW, Ru, "каждый третий день в 8 вечера зарядка", due("2026-03-27 20:00", "зарядка").every("FREQ=DAILY;INTERVAL=3;BYHOUR=20;BYMINUTE=0;BYSECOND=0;DTSTART=20260327")),
        (MOSCOW, Ru, "каждую вторую неделю в понедельник отчёт", due("2026-03-30 09:00", "отчёт").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (TASHKENT, Uz, "har ikkinchi kuni gullarga suv", due("2026-03-28 09:00", "gullarga suv").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (TASHKENT, Uz, "har uchinchi kuni soat 20 da sport", due("2026-03-27 20:00", "sport").every("FREQ=DAILY;INTERVAL=3;BYHOUR=20;BYMINUTE=0;BYSECOND=0;DTSTART=20260327")),
        (BERLIN_FRI, En, "every month on the last day report", due("2026-03-31 09:00", "report").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (BERLIN_FRI, En, "on the last day of every month report", due("2026-03-31 09:00", "report").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (BERLIN_FRI, En, "every year birthday", due("2027-03-27 09:00", "birthday").every("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=27")),
        (BERLIN_FRI, En, "annually on 1 April taxes", due("2026-04-01 09:00", "taxes").every("FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=1")),
        (BERLIN_FRI, En, "14 Feb every year flowers", due("2027-02-14 09:00", "flowers").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        (BERLIN_FRI, En, "every 29 February leap party", due("2027-02-28 09:00", "leap party").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1")),
        (BERLIN_FRI, En, "once a week clean", due("2026-04-03 09:00", "clean").every("FREQ=WEEKLY;BYDAY=FR")),
        (BERLIN_FRI, En, "monday every week standup", due("2026-03-30 09:00", "standup").every("FREQ=WEEKLY;BYDAY=MO")),
        (MOSCOW, Ru, "каждые 2 дня полив", due("2026-03-28 09:00", "полив").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (MOSCOW, Ru, "каждые три часа пить воду", due("2026-03-27 13:00", "пить воду").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T100000Z")),
        (MOSCOW, Ru, "каждый час разминка", due("2026-03-27 11:00", "разминка").every("FREQ=HOURLY;DTSTART=20260327T080000Z")),
        (MOSCOW, Ru, "каждые 2 недели по вторникам и четвергам танцы", due("2026-03-31 09:00", "танцы").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (MOSCOW, Ru, "каждый последний день месяца отчёт", due("2026-03-31 09:00", "отчёт").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (MOSCOW, Ru, "в последний день каждого месяца отчёт", due("2026-03-31 09:00", "отчёт").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (MOSCOW, Ru, "каждый месяц в последний день отчёт", due("2026-03-31 09:00", "отчёт").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (MOSCOW, Ru, "ежегодно 14 февраля цветы", due("2027-02-14 09:00", "цветы").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        (MOSCOW, Ru, "14 февраля каждый год цветы", due("2027-02-14 09:00", "цветы").every("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=14")),
        (MOSCOW, Ru, "раз в неделю уборка", due("2026-04-03 09:00", "уборка").every("FREQ=WEEKLY;BYDAY=FR")),
        (MOSCOW, Ru, "раз в 2 недели в понедельник отчёт", due("2026-03-30 09:00", "отчёт").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (MOSCOW, Ru, "каждую неделю в понедельник отчёт", due("2026-03-30 09:00", "отчёт").every("FREQ=WEEKLY;BYDAY=MO")),
        (TASHKENT, Uz, "har 2 kunda gullarga suv", due("2026-03-28 09:00", "gullarga suv").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (TASHKENT, Uz, "kun ora gullarga suv", due("2026-03-28 09:00", "gullarga suv").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (TASHKENT, Uz, "har 3 soatda suv ichish", due("2026-03-27 13:00", "suv ichish").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T080000Z")),
        (TASHKENT, Uz, "har soatda badantarbiya", due("2026-03-27 11:00", "badantarbiya").every("FREQ=HOURLY;DTSTART=20260327T060000Z")),
        (TASHKENT, Uz, "har ikki haftada dushanba kuni hisobot", due("2026-03-30 09:00", "hisobot").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (TASHKENT, Uz, "har oy oxirgi kuni hisobot", due("2026-03-31 09:00", "hisobot").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (TASHKENT, Uz, "har oyning oxirgi kuni hisobot", due("2026-03-31 09:00", "hisobot").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (TASHKENT, Uz, "har oy oxirida ijara", due("2026-03-31 09:00", "ijara").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (TASHKENT, Uz, "har yili tug'ilgan kun", due("2027-03-27 09:00", "tug'ilgan kun").every("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=27")),
        (TASHKENT, Uz, "har 3 oyda 15-kuni soliq", due("2026-04-15 09:00", "soliq").every("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260401")),
        // ==== From the held-out corpus of 2026-12-07 (tests/fixtures/readings) ====
        (BERLIN_FRI, En, "order pizza in 20", due("2026-03-27 10:20", "order pizza").noted("MinutesUnsaid { minutes: 20 }")),
        (MOSCOW, Ru, "перезвонить через 15", due("2026-03-27 10:15", "перезвонить").noted("MinutesUnsaid { minutes: 15 }")),
        (BERLIN_FRI, En, "size in 42", fails(DueError::NoTime)),
        (MOSCOW, Ru, "через 15 перезвонить", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "thanksgiving groceries wendesday", due("2026-04-01 09:00", "thanksgiving groceries").noted("Typo")),
        (BERLIN_FRI, En, "remind me of our anniversary on june 12", due("2026-06-12 09:00", "our anniversary")),
        (BERLIN_FRI, En, "pay back tom 50 euros thu", due("2026-04-02 09:00", "pay back tom 50 euros")),
        (MOSCOW, Ru, "сдать отчёт чт", due("2026-04-02 09:00", "сдать отчёт")),
        (MOSCOW, Ru, "купить лампочку 60 вт", fails(DueError::NoTime)),
        (MOSCOW, Ru, "доделать ср по матану", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "buy spf 50 sun", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "dad turns 50 in 15", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "call after 20", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "tomorrow run 5k in 25", due("2026-03-28 09:00", "run 5k in 25").unnoted("MinutesUnsaid")),
        (BERLIN_FRI, En, "dinner at 7pm, remind me tomorrow", due("2026-03-28 19:00", "dinner")),
        (MOSCOW, Ru, "купить молоко завтра, напомни в 9", due("2026-03-28 09:00", "купить молоко")),
        (BERLIN_FRI, En, "tomorrow leave 30 min before the 5pm meeting", due("2026-03-28 17:00", "leave before the meeting").lead(30)),
        (BERLIN_FRI, En, "night shift 11:30-7am tomorrow", due("2026-03-28 23:30", "night shift")),
        (BERLIN_FRI, En, "look at like 3 apartments tomorrow", due("2026-03-28 09:00", "look at like 3 apartments").nothing_unplaced()),
        (MOSCOW, Ru, "купить вишни завтра напомни", due("2026-03-28 09:00", "купить вишни")),
        (TASHKENT, Uz, "iltimos ertaga soat 12 da pensiya olish", due("2026-03-28 12:00", "pensiya olish")),
        (BERLIN_FRI, En, "please call mom at 5", due("2026-03-27 17:00", "call mom")),
        (BERLIN_FRI, En, "buy champagne on new year's eve at 4pm", due("2026-12-31 16:00", "buy champagne")),
        (BERLIN_FRI, En, "buy christmas tree tomorrow", due("2026-03-28 09:00", "buy christmas tree").nothing_unplaced()),
        (MOSCOW, Ru, "в новогоднюю ночь в 23:55 открыть шампанское", due("2026-12-31 23:55", "открыть шампанское")),
        (TASHKENT, Uz, "yangi yil arafasida soat 18 da dasturxon tayyorlash", due("2026-12-31 18:00", "dasturxon tayyorlash")),
        (TASHKENT, Uz, "Navro'zda sumalak pishirish", due("2027-03-21 09:00", "sumalak pishirish")),
        (BERLIN_FRI, En, "this fri 5 30 pm haircut", due("2026-03-27 17:30", "haircut")),
        (BERLIN_FRI, En, "book table for 6 people at 7:30 sat", due("2026-03-28 07:30", "book table for 6 people")),
        (BERLIN_FRI, En, "pay electric bill 84.50 on monday", due("2026-03-30 09:00", "pay electric bill 84.50")),
        (BERLIN_FRI, En, "every other monday 1:1 with boss 10:00", due("2026-03-30 10:00", "1:1 with boss").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (BERLIN_FRI, En, "tonight 8ish call dad", due("2026-03-27 20:00", "call dad")),
        (TASHKENT, Uz, "seshanba kuni obedda qarzni qaytarish", due("2026-03-31 13:00", "qarzni qaytarish")),
        (TASHKENT, Uz, "segodnya vecherom kassani sanash", due("2026-03-27 19:00", "kassani sanash")),
        (MOSCOW, Ru, "в конце квартала инвентаризация склада", due("2026-03-31 09:00", "инвентаризация склада")),
        (TASHKENT, Uz, "chorak oxirida hisob-kitob qilish", due("2026-03-31 09:00", "hisob-kitob qilish")),
        (TASHKENT, Uz, "oy boshida ijara haqini olish", due("2026-04-01 09:00", "ijara haqini olish").noted("NextMonthFirst")),
        (BERLIN_FRI, En, "start of next month renew gym membership", due("2026-04-01 09:00", "renew gym membership")),
        (BERLIN_FRI, En, "start the month strong", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "pick up the kids on 3rd avenue at 5pm", due("2026-03-27 17:00", "pick up the kids on 3rd avenue")),
        (BERLIN_FRI, En, "by end of day tell priya whether we ship 2.0", due("2026-03-27 19:00", "tell priya whether we ship 2.0")),
        (MOSCOW, Ru, "обновить 1С до 8.3.24 в пятницу", due("2026-04-03 09:00", "обновить 1С до 8.3.24")),
        (BERLIN_FRI, En, "deploy v2.1.3 tomorrow at 10", due("2026-03-28 10:00", "deploy v2.1.3").nothing_unplaced()),
        (BERLIN_FRI, En, "okay so tomorrow i need to call the bank at like half ten", due("2026-03-28 10:30", "okay so i need to call the bank")),
        (BERLIN_FRI, En, "same time next week give the dog his tablet", due("2026-04-03 10:00", "give the dog his tablet")),
        (MOSCOW, Ru, "через неделю в это же время повторить укол", due("2026-04-03 10:00", "повторить укол")),
        (MOSCOW, Ru, "в ночь с пятницы на субботу в 2 выставить лот", due("2026-03-28 02:00", "выставить лот")),
        (BERLIN_FRI, En, "dentist in 2 weeks on thursday at 4:15", due("2026-04-09 16:15", "dentist")),
        (MOSCOW, Ru, "через 2 недели в среду сдать анализы", due("2026-04-08 09:00", "сдать анализы")),
        (BERLIN_FRI, En, "remind me half 6 to ring the plumber", due("2026-03-27 18:30", "ring the plumber")),
        (BERLIN_FRI, En, "renew the permit in a fortnight", due("2026-04-10 10:00", "renew the permit")),
        (BERLIN_FRI, En, "buy half 2 kg of flour tomorrow", due("2026-03-28 09:00", "buy half 2 kg of flour")),
        (BERLIN_FRI, En, "meet at 305 main street tomorrow", due("2026-03-28 09:00", "meet at 305 main street")),
        (BERLIN_FRI, En, "book a 2 night stay tomorrow", due("2026-03-28 09:00", "book a 2 night stay")),
        (BERLIN_FRI, En, "take both pills at the same time tomorrow", due("2026-03-28 09:00", "take both pills at the same time")),
        (MOSCOW, Ru, "через неделю в понедельник отчёт", due("2026-04-06 09:00", "отчёт")),
        (BERLIN_FRI, En, "okay so tomorrow leave home 30 min before the 7pm concert ok", due("2026-03-28 19:00", "okay so leave home before the concert ok").lead(30)),
        (TASHKENT, Uz, "ertaga pul kerak", due("2026-03-28 09:00", "pul kerak")),
        (BERLIN_FRI, En, "remind me 2nite @ 11 to text kev back", due("2026-03-27 23:00", "text kev back")),
        (TASHKENT, Uz, "ertaga soat 9 da ariza topshirish kerak", due("2026-03-28 09:00", "ariza topshirish")),
        (BERLIN_FRI, En, "new year's day brunch planning call monday 10am", due("2026-03-30 10:00", "new year's day brunch planning call").nothing_unplaced()),
        (MOSCOW, Ru, "в конце квартала налево, завтра в 10 встреча", due("2026-03-28 10:00", "в конце квартала налево встреча").nothing_unplaced()),
        (MOSCOW, Ru, "каждый квартал в конце квартала отчёт", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "every quarter end review", fails(DueError::NoTime)),
        (TASHKENT, Uz, "Navruzda kitobim qoldi, olish", fails(DueError::NoTime)),
        (MOSCOW, Ru, "завтра в 10: созвон", due("2026-03-28 10:00", "созвон")),
        (BERLIN_FRI, En, "room 12 10 am tomorrow", due("2026-03-28 10:00", "room 12")),
        (BERLIN_FRI, En, "score 2:1 sat", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "pay 25.50 monday", due("2026-03-30 09:00", "pay 25.50")),
        (BERLIN_FRI, En, "pay 19.99 monday", due("2026-03-30 09:00", "pay 19.99")),
        (BERLIN_FRI, En, "Email the team tomorrow at 9. Remind them to submit timesheets", due("2026-03-28 09:00", "Email the team Remind them to submit timesheets")),
        (BERLIN_FRI, En, "use the coupon before sunday 6pm", due("2026-03-29 18:00", "use the coupon")),
        (BERLIN_FRI, En, "flight dec 23 6:05am remind me the day before", due("2026-12-23 06:05", "flight").lead(1440)),
        (BERLIN_FRI, En, "score was 2-1!! remind me to send highlights at 5:15pm", due("2026-03-27 17:15", "score was 2-1!! send highlights")),
        (BERLIN_FRI, En, "photos of the sun", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "book tickets for the 7:45 train, remind me wednesday", due("2026-04-01 09:00", "book tickets for the 7:45 train").unplaced("7:45")),
        (BERLIN_FRI, En, "book tickets, remind me wed", due("2026-04-01 09:00", "book tickets")),
        (MOSCOW, Ru, "завтра с утреца забрать посылку", due("2026-03-28 09:00", "забрать посылку")),
        (MOSCOW, Ru, "вечерком позвонить брату", due("2026-03-27 19:00", "позвонить брату")),
        (MOSCOW, Ru, "поливать фикус через день в 8 утра", due("2026-03-28 08:00", "поливать фикус").noted("InADay { date: 2026-03-28, time: 08:00:00 }")),
        (TASHKENT, Uz, "zavtra soat 10 da vstrecha ofisda", due("2026-03-28 10:00", "vstrecha ofisda")),
        (TASHKENT, Uz, "yarim soatdan keyin dorini ichishni eslat", due("2026-03-27 10:30", "dorini ichish")),
        (MOSCOW_EVENING, Ru, "завтра в 2:30 ночи забрать сестру из аэропорта", due("2026-03-28 02:30", "забрать сестру из аэропорта").noted("ComingNight { date: 2026-03-28 }").unnoted("NightAfterDay")),
        (MOSCOW_EVENING, Ru, "завтра ночью в 2 забрать сестру", due("2026-03-29 02:00", "забрать сестру").noted("NightAfterDay").unnoted("ComingNight")),
        (BERLIN_FRI, En, "yoga 6:30-7:30pm wed", due("2026-04-01 18:30", "yoga")),
        (BERLIN_FRI, En, "antibiotics every 8 hrs starting 2pm, 10 times", due("2026-03-27 14:00", "antibiotics").every("FREQ=HOURLY;INTERVAL=8;COUNT=10;DTSTART=20260327T130000Z")),
        (BERLIN_FRI, En, "dinner from 8pm", due("2026-03-27 20:00", "dinner")),
        (BERLIN_FRI, En, "party from 3 people", fails(DueError::NoTime)),
        (MOSCOW, Ru, "завтра где-то в полвторого забрать машину", due("2026-03-28 13:30", "забрать машину")),
        (BERLIN_FRI, En, "remind me on thursday at like 3:15 to grab the twins", due("2026-04-02 15:15", "grab the twins")),
        (BERLIN_FRI, En, "leave for the airport 2 hours before the 6:40pm flight on saturday", due("2026-03-28 18:40", "leave for the airport before the flight").lead(120)),
        (MOSCOW, Ru, "черз 10 мин вынуть бельё", due("2026-03-27 10:10", "вынуть бельё")),
        (TASHKENT, Uz, "Assalomu alaykum, menga ertaga soat 4 da kredit to'lovini eslatib qo'ying", due("2026-03-28 16:00", "kredit to'lovini")),
        // ==== Set 6 (held out, 2026-12-07) and what its fixes must not catch ====
        (BERLIN_FRI, En, "get up at 6 tomorrow", due("2026-03-28 06:00", "get up")),
        (BERLIN_FRI, En, "getting up at 5:30 for the flight", due("2026-03-28 05:30", "getting up for the flight")),
        (MOSCOW, Ru, "встать в 6 завтра", due("2026-03-28 06:00", "встать")),
        (BERLIN_FRI, En, "pick up the cake at 6", due("2026-03-27 18:00", "pick up the cake").noted("HourWithoutAmPm")),
        (BERLIN_FRI, En, "breakfast at 8 with the in-laws sunday", due("2026-03-29 08:00", "breakfast with the in-laws")),
        (BERLIN_FRI, En, "call at 4 with the bank monday", due("2026-03-30 16:00", "call with the bank")),
        (MOSCOW, Ru, "встреча в 5 с родителями в субботу", due("2026-03-28 17:00", "встреча с родителями")),
        (BERLIN_FRI, En, "meet at 12 navoi street monday", due("2026-03-30 09:00", "meet at 12 navoi street")),
        (BERLIN_FRI, En, "buy half 6 pack of beer", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "antibiotics every 8 hrs starting 8pm", due("2026-03-27 20:00", "antibiotics").every("FREQ=HOURLY;INTERVAL=8;DTSTART=20260327T190000Z")),
        (BERLIN_FRI, En, "pills every 6 hours from 9pm", due("2026-03-27 21:00", "pills").every("FREQ=HOURLY;INTERVAL=6;DTSTART=20260327T200000Z")),
        (BERLIN_FRI, En, "every 2 hours starting 8am stretch", due("2026-03-27 12:00", "stretch").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260327T070000Z")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "в ночь с пятницы на субботу в 3 проверить сервер", due("2026-03-28 03:00", "проверить сервер").noted("NightAfterDay { date: 2026-03-28 }")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "в пятницу в 2 ночи выключить бойлер", due("2026-03-28 02:00", "выключить бойлер")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "в пятницу в 9 вечера кино", due("2026-04-03 21:00", "кино")),
        (MOSCOW_AFTER_MIDNIGHT, Ru, "в ночь с субботы на воскресенье в 3 бэкап", due("2026-03-29 03:00", "бэкап")),
        (MOSCOW, Ru, "обновить 1С до 8.3.24 в пятницу после 19", due("2026-03-27 19:00", "обновить 1С до 8.3.24")),
        (MOSCOW, Ru, "завтра после 18 забрать посылку", due("2026-03-28 18:00", "забрать посылку")),
        (MOSCOW, Ru, "завтра после 5 подходов растяжка", due("2026-03-28 09:00", "после 5 подходов растяжка")),
        (TASHKENT_LATE, Uz, "bu kecha soat 1 da mashinani boshqa joyga qo'yish", due("2026-03-28 01:00", "mashinani boshqa joyga qo'yish")),
        (TASHKENT_LATE, Uz, "бу кеча соат 2 да дорини ичиш", due("2026-03-28 02:00", "дорини ичиш")),
        (TASHKENT, Uz, "kecha soat 1 da nima bo'ldi", fails(in_past("2026-03-26 13:00"))),
        (TASHKENT, Uz, "ertaga tush payti Dilshod bilan uchrashuv", due("2026-03-28 12:00", "Dilshod bilan uchrashuv")),
        (TASHKENT, Uz, "эртага туш пайти Нодира билан учрашув", due("2026-03-28 12:00", "Нодира билан учрашув")),
        (MOSCOW, Ru, "напомни мне в субботу часиков в 11 отвезти маме лекарства", due("2026-03-28 11:00", "отвезти маме лекарства")),
        (MOSCOW, Ru, "до конца дня отправить Марине подписанный договор", due("2026-03-27 19:00", "отправить Марине подписанный договор")),
        (MOSCOW, Ru, "каждый час до конца дня пить воду", due("2026-03-27 11:00", "до конца дня пить воду").every("FREQ=HOURLY;DTSTART=20260327T080000Z")),
        (BERLIN_FRI, En, "remind me thursday the 2nd at about 4 in the afternoon to pick up the cake", due("2026-04-02 16:00", "pick up the cake")),
        (BERLIN_FRI, En, "tell him at about 5 things", fails(DueError::NoTime)),
        (TASHKENT, Uz, "har dushanba soat 9 da rejalashtirish yig'ilishi yanvargacha", due("2026-03-30 09:00", "rejalashtirish yig'ilishi").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20261231")),
        (MOSCOW, Ru, "каждый понедельник в 9 планёрка до мая", due("2026-03-30 09:00", "планёрка").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (MOSCOW, Ru, "каждый понедельник в 9 планёрка до 5 мая", due("2026-03-30 09:00", "планёрка").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260505")),
        (BERLIN_FRI, En, "call the vet at 5, no wait, 6", due("2026-03-27 18:00", "call the vet")),
        (TASHKENT, Uz, "veterinarga soat 5 da, yo'q, 6 da qo'ng'iroq qilish", due("2026-03-27 18:00", "veterinarga qo'ng'iroq qilish")),
        (MOSCOW, Ru, "созвон завтра в 5, нет, в 6", due("2026-03-28 18:00", "созвон")),
        (BERLIN_FRI, En, "ok so remind me tomorrow around 10 to send greg the invoice for the 3 boxes", due("2026-03-28 10:00", "send greg the invoice for the 3 boxes")),
        (BERLIN_FRI, En, "hey so can you remind me monday at 4pm to pick up the cake", due("2026-03-30 16:00", "pick up the cake")),
        (BERLIN_FRI, En, "we won 3-1 lol. next saturday at 6 remind me to book the pitch again", due("2026-04-04 18:00", "we won 3-1 lol book the pitch again")),
        (BERLIN_FRI, En, "call John and remind me tomorrow at 10 to send the invoice", due("2026-03-28 10:00", "call John send the invoice")),
        (BERLIN_FRI, En, "Pay the gas bill. friday at 6 remind me to do it", due("2026-03-27 18:00", "Pay the gas bill do it")),
        (BERLIN_FRI, En, "call mom, remind me tomorrow at 5", due("2026-03-28 17:00", "call mom")),
        (BERLIN_FRI, En, "dinner with tom saturday at 6 remind me to bring wine", due("2026-03-28 18:00", "dinner with tom bring wine")),
        (BERLIN_FRI, En, "nxt tues 10am quarterly review w/ finance", due("2026-03-31 10:00", "quarterly review w/ finance")),
        (TASHKENT, Uz, "menga shanba kuni soat 11 larda eslatib qo'ying onamga dorilarni olib borish kerak", due("2026-03-28 11:00", "onamga dorilarni olib borish")),
        // A repeat's first day.
        (BERLIN_FRI, En, "every day at 8 starting monday take vitamins", due("2026-03-30 08:00", "take vitamins").every("FREQ=DAILY").starting()),
        (BERLIN_FRI, En, "take vitamins daily at 8 from monday for 5 days", due("2026-03-30 08:00", "take vitamins").every("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20260403").starting()),
        (MOSCOW, Ru, "каждый день в 8 с понедельника зарядка", due("2026-03-30 08:00", "зарядка").every("FREQ=DAILY").starting()),
        (MOSCOW, Ru, "с понедельника каждый день в 7 бегать", due("2026-03-30 07:00", "бегать").every("FREQ=DAILY").starting()),
        (MOSCOW, Ru, "зарядка каждый день в 8 начиная с 1 апреля", due("2026-04-01 08:00", "зарядка").every("FREQ=DAILY").starting()),
        (TASHKENT, Uz, "dushanbadan boshlab har kuni soat 7 da yugurish", due("2026-03-30 07:00", "yugurish").every("FREQ=DAILY").starting()),
        (TASHKENT, Uz, "ertadan boshlab har kuni soat 7 da yugurish", due("2026-03-28 07:00", "yugurish").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "timesheets every other friday at 4 starting next friday", due("2026-04-03 16:00", "timesheets").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (BERLIN_FRI, En, "gym every monday at 7 starting next week", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO")),
        (BERLIN_FRI, En, "ibuprofen every 3 hours starting tomorrow 8am", due("2026-03-28 08:00", "ibuprofen").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260328T070000Z")),
        (MOSCOW, Ru, "с понедельника в 7 зарядка", due("2026-03-30 07:00", "зарядка")),
        (MOSCOW, Ru, "встреча с Петей завтра в 10", due("2026-03-28 10:00", "встреча с Петей")),
        (BERLIN_FRI, En, "notes from friday meeting tomorrow 9am", due("2026-03-28 09:00", "notes from friday meeting")),
        // What the review of a repeat's first day found.
        (BERLIN_FRI, En, "call grandma every week starting monday at 6pm", due("2026-03-30 18:00", "call grandma").every("FREQ=WEEKLY;BYDAY=MO")),
        (BERLIN_FRI, En, "every week from tuesday at 6pm choir", due("2026-03-31 18:00", "choir").every("FREQ=WEEKLY;BYDAY=TU")),
        (TASHKENT, Uz, "dushanbadan boshlab har hafta soat 10 da hisobot", due("2026-03-30 10:00", "hisobot").every("FREQ=WEEKLY;BYDAY=MO")),
        (BERLIN_FRI, En, "pay rent every month from the 1st", due("2026-04-01 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (MOSCOW, Ru, "каждый месяц с 1 числа платить за квартиру", due("2026-04-01 09:00", "платить за квартиру").every("FREQ=MONTHLY;BYMONTHDAY=1")),
        (BERLIN_FRI, En, "every 2 weeks starting monday team sync at 10", due("2026-03-30 10:00", "team sync").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        (BERLIN_FRI, En, "every year starting december 25 call grandma", due("2026-12-25 09:00", "call grandma").every("FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25")),
        (MOSCOW, Ru, "каждую субботу с мая до сентября ездить на дачу", due("2026-05-02 09:00", "ездить на дачу").every("FREQ=WEEKLY;BYDAY=SA;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260831").starting()),
        (BERLIN_FRI, En, "every saturday at 9 from may until september allotment", due("2026-05-02 09:00", "allotment").every("FREQ=WEEKLY;BYDAY=SA;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260831").starting()),
        (MOSCOW, Ru, "каждый день в 9 витамины до мая следующего года", due("2026-03-28 09:00", "витамины до мая следующего года").every("FREQ=DAILY")),
        (MOSCOW, Ru, "в пятницу продлить страховку до мая", due("2026-04-03 09:00", "продлить страховку до мая")),
        (MOSCOW_TUE, Ru, "каждый день в 7 с понедельника до пятницы зарядка", due("2026-03-30 07:00", "зарядка").every("FREQ=DAILY;BYHOUR=7;BYMINUTE=0;BYSECOND=0;UNTIL=20260403").starting()),
        // A span of weekdays with a word of repeating is every week on those days; without
        // one it is a stretch of days.
        (BERLIN_FRI, En, "every day from monday to friday at 7 gym", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "gym mondays through fridays at 7am", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "every week monday to friday at 7am gym", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "trip to berlin from monday to friday, remind me sunday at 6pm to pack", due("2026-03-29 18:00", "trip to berlin from monday to friday pack")),
        (BERLIN_FRI, En, "gym every monday through thursday at 7am", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH")),
        (BERLIN_FRI, En, "every day at 7am from tuesday to saturday walk the dog", due("2026-03-28 07:00", "walk the dog").every("FREQ=WEEKLY;BYDAY=TU,WE,TH,FR,SA")),
        (BERLIN_FRI, En, "move the meeting from monday to friday tomorrow at 10", due("2026-03-28 10:00", "move the meeting from monday to friday")),
        (MOSCOW, Ru, "каждый день с понедельника по пятницу в 7 зарядка", due("2026-03-30 07:00", "зарядка").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "каждую неделю со вторника по субботу в 7 утра зарядка", due("2026-03-28 07:00", "зарядка").every("FREQ=WEEKLY;BYDAY=TU,WE,TH,FR,SA")),
        (MOSCOW, Ru, "каждый день с понедельника по пятницу включительно в 7 зарядка", due("2026-03-30 07:00", "зарядка").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "отпуск с понедельника по пятницу, завтра в 10 предупредить начальника", due("2026-03-28 10:00", "отпуск с понедельника по пятницу предупредить начальника")),
        (MOSCOW, Ru, "командировка с понедельника по пятницу, в воскресенье в 18 собрать чемодан", due("2026-03-29 18:00", "командировка с понедельника по пятницу собрать чемодан")),
        (MOSCOW, Ru, "каждый день в 7 утра с понедельника по пятницу зарядка", due("2026-03-30 07:00", "зарядка").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (TASHKENT, Uz, "dushanbadan jumagacha har kuni soat 7 da sport", due("2026-03-30 07:00", "sport").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (TASHKENT, Uz, "har hafta seshanbadan shanbagacha ertalab soat 7 da yugurish", due("2026-03-28 07:00", "yugurish").every("FREQ=WEEKLY;BYDAY=TU,WE,TH,FR,SA")),
        // A count with "total" said.
        (BERLIN_FRI, En, "eye drops every day at 10pm, 5 times in total", due("2026-03-27 22:00", "eye drops").every("FREQ=DAILY;BYHOUR=22;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (MOSCOW, Ru, "капли в глаза каждый день в 22:00, всего 5 раз", due("2026-03-27 22:00", "капли в глаза").every("FREQ=DAILY;BYHOUR=22;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (TASHKENT, Uz, "har kuni soat 22 da ko'z tomchi, jami 5 marta", due("2026-03-27 22:00", "ko'z tomchi").every("FREQ=DAILY;BYHOUR=22;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        // "Twice a day" beside two times is every day at both.
        (BERLIN_FRI, En, "meds twice a day at 9 and 21", due("2026-03-28 09:00", "meds").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (MOSCOW, Ru, "амоксициллин 2 раза в день в 9 и в 21", due("2026-03-28 09:00", "амоксициллин").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (MOSCOW, Ru, "капли дважды в день в 8 утра и в 8 вечера", due("2026-03-28 08:00", "капли").every("FREQ=DAILY").also("2026-03-27 20:00")),
        (TASHKENT, Uz, "kuniga 2 marta soat 9 va 21 da dori", due("2026-03-28 09:00", "dori").every("FREQ=DAILY").also("2026-03-27 21:00")),
        (BERLIN_FRI, En, "vitamins twice a day", fails(DueError::NoTime)),
        (BERLIN_FRI, En, "tomorrow twice a day at 9 and 21 check the dough", due("2026-03-28 09:00", "twice a day check the dough").also("2026-03-28 21:00")),
        // What the review of spans, totals and corrections found.
        (MOSCOW_TUE, Ru, "таблетки каждый день в 9 по пятницу", due("2026-03-25 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260327")),
        (MOSCOW_TUE, Ru, "каждый день в 9 по 15 апреля таблетки", due("2026-03-25 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260415")),
        (BERLIN_FRI, En, "pills every day at 9 for a total of 5 times", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (BERLIN_FRI, En, "pills every day at 9, 5 times in all", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (MOSCOW, Ru, "капли каждый день в 9, итого 5 раз", due("2026-03-28 09:00", "капли").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (MOSCOW, Ru, "капли каждый день в 9, 5 раз в общей сложности", due("2026-03-28 09:00", "капли").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (TASHKENT, Uz, "har kuni soat 9 da dori, hammasi bo'lib 5 marta", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (MOSCOW, Ru, "купить 3 билета в 19, нет, лучше 4", due("2026-03-27 19:00", "купить 3 билета нет, лучше 4")),
        (BERLIN_FRI, En, "order 3 pizzas at 7pm, no make it 2", due("2026-03-27 19:00", "order 3 pizzas no make it 2")),
        (MOSCOW, Ru, "позвонить маме в 5, нет, давай лучше в 6", due("2026-03-27 18:00", "позвонить маме")),
        (MOSCOW, Ru, "позвонить маме в 5, хотя нет, лучше в 6", due("2026-03-27 18:00", "позвонить маме")),
        (TASHKENT, Uz, "onamga soat 5 da, yo'q, yaxshisi 6 da qo'ng'iroq qilish", due("2026-03-27 18:00", "onamga qo'ng'iroq qilish")),
        // Set 9: a span with a time right after it is a schedule; minutes to seven are seven's
        // half of the day; the end of the year.
        (BERLIN_FRI, En, "standup notes monday to friday at 9:45", due("2026-03-30 09:45", "standup notes").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "с понедельника по пятницу в 8:30 зарядка", due("2026-03-30 08:30", "зарядка").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (TASHKENT, Uz, "dushanbadan jumagacha soat 7 da sport", due("2026-03-30 07:00", "sport").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "tomorrow at quarter to seven leave for work", due("2026-03-28 06:45", "leave for work")),
        (MOSCOW, Ru, "завтра без четверти семь выйти на работу", due("2026-03-28 06:45", "выйти на работу")),
        (TASHKENT, Uz, "ertaga ishga soat 7 ga chorak kam chiqish", due("2026-03-28 06:45", "ishga chiqish")),
        (TASHKENT_LATE, Uz, "yettiga chorak kam bolalarni maktabga olib borish", due("2026-03-28 06:45", "bolalarni maktabga olib borish")),
        (BERLIN_FRI, En, "tomorrow at half past six dinner", due("2026-03-28 18:30", "dinner")),
        (MOSCOW, Ru, "в конце года продлить домен ещё на 2 года", due("2026-12-31 09:00", "продлить домен ещё на 2 года")),
        (BERLIN_FRI, En, "renew the domain at the end of the year", due("2026-12-31 09:00", "renew the domain")),
        (TASHKENT, Uz, "yil oxirida domenni yangilash", due("2026-12-31 09:00", "domenni yangilash")),
        (MOSCOW, Ru, "через 3 дня в обед позвонить в банк", due("2026-03-30 13:00", "позвонить в банк")),
        (BERLIN_FRI, En, "in 3 days in the evening call the bank", due("2026-03-30 19:00", "call the bank")),
        (TASHKENT, Uz, "3 kundan keyin tushlikda bankka qo'ng'iroq qilish", due("2026-03-30 13:00", "bankka qo'ng'iroq qilish")),
        (BERLIN_FRI, En, "in 3 days call the bank", due("2026-03-30 10:00", "call the bank")),
        (TASHKENT, Uz, "ertaga soat o'nlarda notariusga borish", due("2026-03-28 10:00", "notariusga borish")),
        (BERLIN_FRI, En, "dinner at Nando's saturday 8", due("2026-03-28 20:00", "dinner at Nando's")),
        (MOSCOW, Ru, "ужин у родителей в субботу в 7", due("2026-03-28 19:00", "ужин у родителей")),
        (BERLIN_FRI, En, "call mom saturday at 8 about dinner", due("2026-03-28 08:00", "call mom about dinner")),
        (MOSCOW, Ru, "в 6 встреча с Олегом, нет, в 7", due("2026-03-27 19:00", "встреча с Олегом")),
        (TASHKENT, Uz, "soat 5 da Dilnoza bilan uchrashuv, yo'q, 6 da", due("2026-03-27 18:00", "Dilnoza bilan uchrashuv")),
        (TASHKENT, Uz, "shanba kuni kechki ovqatga soat 7 da Aziz akalarnikiga borish", due("2026-03-28 19:00", "kechki ovqatga Aziz akalarnikiga borish")),
        (TASHKENT, Uz, "har kuni kechki ovqatdan keyin dori ichish", due("2026-03-27 19:00", "dori ichish").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "pick up the suit from the tailor at 4 no wait 4:30", due("2026-03-27 16:30", "pick up the suit from the tailor")),
        // What the review of set 9's rules found.
        (BERLIN_FRI, En, "end of the year party planning monday at 3pm", due("2026-03-30 15:00", "end of the year party planning")),
        (TASHKENT, Uz, "yil oxiri hisobotini juma kuni soat 15 da topshirish", due("2026-03-27 15:00", "yil oxiri hisobotini topshirish")),
        (TASHKENT, Uz, "ertaga kechki ovqatda dadamga aytish", due("2026-03-28 19:00", "dadamga aytish")),
        (TASHKENT, Uz, "ertaga kechki ovqat paytida dadamga aytish", due("2026-03-28 19:00", "dadamga aytish")),
        (BERLIN_FRI, En, "dinner reservation call restaurant tomorrow at 10", due("2026-03-28 10:00", "dinner reservation call restaurant")),
        (MOSCOW, Ru, "ужин заказать завтра в 10", due("2026-03-28 10:00", "ужин заказать")),
        (BERLIN_FRI, En, "leave work monday to friday at 5pm", due("2026-03-27 17:00", "leave work").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "turn off the heating monday to friday at 8am", due("2026-03-30 08:00", "turn off the heating").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "after the holiday, gym monday to friday at 7am", due("2026-03-30 07:00", "after the holiday, gym").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "проверять бронь с понедельника по пятницу в 9", due("2026-03-30 09:00", "проверять бронь").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "завтра без двадцати семь разбудить детей", due("2026-03-28 06:40", "разбудить детей")),
        (BERLIN_FRI, En, "walk the dog monday - friday at 7am", due("2026-03-30 07:00", "walk the dog").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "завтра в 5 встреча с Олегом в кафе у метро на Тверской, нет, в 6", due("2026-03-28 18:00", "встреча с Олегом в кафе у метро на Тверской")),
        // Set 10: terse forms.
        (BERLIN_FRI, En, "remind me nxt wk to renew my id", due("2026-03-30 09:00", "renew my id")),
        (BERLIN_FRI, En, "run every mon & thu 6:30am", due("2026-03-30 06:30", "run").every("FREQ=WEEKLY;BYDAY=MO,TH")),
        (MOSCOW, Ru, "пн 8 утр отчёт Петровичу", due("2026-03-30 08:00", "отчёт Петровичу")),
        (MOSCOW, Ru, "в пт в 8 веч той у Азиза", due("2026-03-27 20:00", "той у Азиза")),
        (MOSCOW, Ru, "кружок по шахматам по сб в 11", due("2026-03-28 11:00", "кружок по шахматам").every("FREQ=WEEKLY;BYDAY=SA")),
        (TASHKENT, Uz, "har dush 9 planerka", due("2026-03-30 09:00", "planerka").every("FREQ=WEEKLY;BYDAY=MO")),
        (TASHKENT, Uz, "ert 9 da notarius", due("2026-03-28 09:00", "notarius")),
        // What the review of the terse forms found.
        (MOSCOW, Ru, "каждый день в 9 таблетки, в сб и вс тоже", due("2026-03-28 09:00", "таблетки, в сб и вс тоже").every("FREQ=DAILY")),
        (MOSCOW, Ru, "по пт не работаем, предупредить клиентов в 15", due("2026-03-27 15:00", "по пт не работаем, предупредить клиентов")),
        (MOSCOW, Ru, "в 5 встреча с Олегом, нет, в 3 корпусе", due("2026-03-27 17:00", "встреча с Олегом, нет, в 3 корпусе")),
        (BERLIN_FRI, En, "at 5 meet Ann, no, at 3 Elm Road", due("2026-03-27 17:00", "meet Ann, no, at 3 Elm Road")),
        (MOSCOW, Ru, "веч. смена в пн, позвонить бригадиру в 10", due("2026-03-30 10:00", "веч. смена позвонить бригадиру")),
        (BERLIN_FRI, En, "nxt wk tue call bank", due("2026-03-31 09:00", "call bank")),
        (MOSCOW, Ru, "по вт и по чт в 18 танцы", due("2026-03-31 18:00", "танцы").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (BERLIN_FRI, En, "Dinner: thaw the chicken tomorrow at 8", due("2026-03-28 08:00", "Dinner: thaw the chicken")),
        (TASHKENT, Uz, "har ju-jitsu mashg'ulotidan keyin soat 20 da cho'zilish", due("2026-03-27 20:00", "har ju-jitsu mashg'ulotidan keyin cho'zilish")),
        (BERLIN_FRI, En, "mondays & thursdays at 7am gym", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TH")),
        // More ways to take an hour back.
        (BERLIN_FRI, En, "ring the bank at 4, no sorry make it 5", due("2026-03-27 17:00", "ring the bank")),
        (BERLIN_FRI, En, "lunch with priya at 12:30, no actually 1:15", due("2026-03-27 13:15", "lunch with priya")),
        (BERLIN_FRI, En, "call the garage at 3, make it 4", due("2026-03-27 16:00", "call the garage")),
        (MOSCOW, Ru, "созвон в 5, нет, лучше в 6", due("2026-03-27 18:00", "созвон")),
        (BERLIN_TUE_NOON, En, "gym every day at 7 from monday until friday", due("2026-03-30 07:00", "gym").every("FREQ=DAILY;BYHOUR=7;BYMINUTE=0;BYSECOND=0;UNTIL=20260403").starting()),
        (BERLIN_FRI, En, "every day at 8 starting march 1 vitamins", due("2026-03-28 08:00", "vitamins").every("FREQ=DAILY")),
        (BERLIN_EVENING, En, "drink water every 2 hours starting 8am", due("2026-03-28 08:00", "drink water").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260328T070000Z")),
        (BERLIN_EVENING, En, "pills every 36 hours starting 9am", due("2026-03-28 09:00", "pills").every("FREQ=HOURLY;INTERVAL=36;DTSTART=20260328T080000Z")),
        (BERLIN_EVENING, En, "antibiotics every 8 hrs starting 7pm", due("2026-03-28 03:00", "antibiotics").every("FREQ=HOURLY;INTERVAL=8;DTSTART=20260327T180000Z")),
        (TASHKENT, Uz, "ertadan keyin soat 5 da bozorga borish", due("2026-03-29 17:00", "bozorga borish")),
        (TASHKENT, Uz, "bu kecha kelgan xatga ertaga soat 10 da javob berish", due("2026-03-28 10:00", "bu kecha kelgan xatga javob berish")),
        (BERLIN_FRI, En, "get up to speed on the new project at 2", due("2026-03-27 14:00", "get up to speed on the new project")),
        (BERLIN_FRI, En, "get up and stretch at 3", due("2026-03-27 15:00", "get up and stretch")),
        (MOSCOW, Ru, "завтра в 3 встать на учёт в налоговой", due("2026-03-28 15:00", "встать на учёт в налоговой")),
        (MOSCOW, Ru, "встать в очередь за билетами в 4", due("2026-03-27 16:00", "встать в очередь за билетами")),
        (BERLIN_FRI, En, "half 2 kg of mince for saturday", due("2026-03-28 09:00", "half 2 kg of mince")),
        (BERLIN_FRI, En, "half 3 litres of water every day", due("2026-03-28 09:00", "half 3 litres of water").every("FREQ=DAILY")),
        (BERLIN_FRI, En, "buy avocados at 3 for 5 pounds on saturday", due("2026-03-28 09:00", "buy avocados at 3 for 5 pounds")),
        (MOSCOW, Ru, "с пятницы на субботу в 2 ночи забрать Машу", due("2026-03-28 02:00", "забрать Машу")),
        (MOSCOW_EVENING, Ru, "каждые 3 часа с 8 утра пить таблетку", due("2026-03-28 08:00", "пить таблетку").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260328T050000Z")),
        (MOSCOW, Ru, "с завтрашнего дня каждый день в 8 витамины", due("2026-03-28 08:00", "витамины").every("FREQ=DAILY")),
        (TASHKENT, Uz, "bugundan boshlab har kuni soat 21 da kitob o'qish", due("2026-03-27 21:00", "kitob o'qish").every("FREQ=DAILY")),
        (TASHKENT, Uz, "yanvardan boshlab har kuni soat 7 da yugurish", due("2027-01-01 07:00", "yugurish").every("FREQ=DAILY").starting()),
        // What the second review found.
        (BERLIN_FRI, En, "call dad at 9pm, no, 10 tomorrow", due("2026-03-28 22:00", "call dad")),
        (BERLIN_FRI, En, "give the dog 1 tablet at 8, no, 2 tablets", due("2026-03-27 20:00", "give the dog 1 tablet no, 2 tablets")),
        (BERLIN_FRI, En, "get up early at 6 tomorrow", due("2026-03-28 06:00", "get up early")),
        (BERLIN_FRI, En, "get up for the flight at 4", due("2026-03-28 04:00", "get up for the flight")),
        (MOSCOW, Ru, "завтра встать пораньше в 6", due("2026-03-28 06:00", "встать пораньше")),
        (BERLIN_TUE_LATE, En, "every 8 hours from 7am antibiotics", due("2026-03-24 23:00", "antibiotics").every("FREQ=HOURLY;INTERVAL=8;DTSTART=20260324T060000Z")),
        (BERLIN_FRI, En, "every week from tomorrow water the plants at 8", due("2026-03-28 08:00", "water the plants").every("FREQ=WEEKLY;BYDAY=SA")),
        (BERLIN_FRI, En, "every month starting july 1 pay rent", due("2026-07-01 09:00", "pay rent").every("FREQ=MONTHLY;BYMONTHDAY=1").starting()),
        (MOSCOW, Ru, "с 01.06.2027 каждый день в 8 витамины", due("2027-06-01 08:00", "витамины").every("FREQ=DAILY").starting()),
        (TASHKENT, Uz, "ertadan soat 7 da yugurish", due("2026-03-28 07:00", "yugurish")),
        (TASHKENT, Uz, "kecha olganimni qaytarish soat 5 da", due("2026-03-27 17:00", "kecha olganimni qaytarish")),
        (MOSCOW, Ru, "в пятницу после 7 вечера позвонить", due("2026-03-27 19:00", "позвонить")),
        (MOSCOW, Ru, "завтра после 5 утра выехать", due("2026-03-28 05:00", "выехать")),
        (TASHKENT, Uz, "ertaga tush paytida uchrashuv", due("2026-03-28 12:00", "uchrashuv")),
        (BERLIN_FRI, En, "half 6 pick up Ella from ballet", due("2026-03-27 18:30", "pick up Ella from ballet")),
        // Held-out set 11, times of day: an hourly repeat's first day, minutes after hours,
        // bedtime, a night shift and a party cue the evening, and terse forms.
        (BERLIN_FRI, En, "remind me every 2 hours to stretch starting at 10am tomorrow", due("2026-03-28 10:00", "stretch").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260328T090000Z")),
        (BERLIN_EVENING, En, "stretch every 2 hours from 10am tomorrow", due("2026-03-28 10:00", "stretch").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260328T090000Z")),
        (MOSCOW, Ru, "через час двадцать выключить стиралку", due("2026-03-27 11:20", "выключить стиралку")),
        (MOSCOW, Ru, "через 2 часа 15 выключить стиралку", due("2026-03-27 12:15", "выключить стиралку")),
        (BERLIN_FRI, En, "turn off the oven in an hour 20", due("2026-03-27 11:20", "turn off the oven")),
        (MOSCOW, Ru, "через час 5 страниц прочитать", due("2026-03-27 11:00", "5 страниц прочитать")),
        (MOSCOW, Ru, "через 2 часа 25 декабря обсудить с Олегом", due("2026-03-27 12:00", "25 декабря обсудить с Олегом")),
        (BERLIN_FRI, En, "in 2 hours 10 push ups", due("2026-03-27 12:00", "10 push ups")),
        (MOSCOW, Ru, "через час 2 таблетки выпить", due("2026-03-27 11:00", "2 таблетки выпить")),
        (BERLIN_FRI, En, "bedtime pills tomorrow at 10", due("2026-03-28 22:00", "bedtime pills")),
        (BERLIN_FRI, En, "night shift tmrw at 11", due("2026-03-28 23:00", "night shift")),
        (BERLIN_FRI, En, "night shift ends tomorrow at 7", due("2026-03-28 07:00", "night shift ends")),
        (MOSCOW, Ru, "ночная смена завтра в 11", due("2026-03-28 23:00", "ночная смена")),
        (MOSCOW, Ru, "завтра в 10 таблетки перед сном", due("2026-03-28 22:00", "таблетки перед сном")),
        (TASHKENT, Uz, "tungi smena ertaga 11 da", due("2026-03-28 23:00", "tungi smena")),
        (TASHKENT, Uz, "ertaga 10 da uxlashdan oldin dori ichish", due("2026-03-28 22:00", "uxlashdan oldin dori ichish")),
        (BERLIN_FRI, En, "office christmas party monday at 7", due("2026-03-30 19:00", "office christmas party")),
        (MOSCOW, Ru, "корпоратив в субботу в 7", due("2026-03-28 19:00", "корпоратив")),
        (BERLIN_FRI, En, "party planning call tomorrow at 10", due("2026-03-28 10:00", "party planning call")),
        (BERLIN_FRI, En, "party planning meeting tomorrow at 8", due("2026-03-28 08:00", "party planning meeting")),
        (BERLIN_FRI, En, "buy bedtime story books monday at 10", due("2026-03-30 10:00", "buy bedtime story books")),
        (MOSCOW, Ru, "спать хочется, завтра в 9 позвонить врачу", due("2026-03-28 09:00", "спать хочется позвонить врачу")),
        (MOSCOW, Ru, "после ночной смены завтра в 8 забрать ребёнка", due("2026-03-28 08:00", "после ночной смены забрать ребёнка")),
        (TASHKENT, Uz, "ertaga soat 10 da uxlash xonasini tozalash", due("2026-03-28 10:00", "uxlash xonasini tozalash")),
        (TASHKENT, Uz, "bugun kech 9 da sport", due("2026-03-27 21:00", "sport")),
        (TASHKENT, Uz, "ertaga kech 2 soat ishlash kerak, ertalab xo'jayinga aytish", due("2026-03-28 09:00", "kech 2 soat ishlash kerak xo'jayinga aytish")),
        (TASHKENT, Uz, "keyingi hafta sesh kuni bozor", due("2026-03-31 09:00", "bozor")),
        (MOSCOW, Ru, "после завтра позвонить в банк", due("2026-03-29 09:00", "позвонить в банк")),
        (MOSCOW, Ru, "сег в 18 спорт", due("2026-03-27 18:00", "спорт")),
        (BERLIN_FRI, En, "dentist in 2 wks", due("2026-04-10 10:00", "dentist")),
        (BERLIN_FRI, En, "water plants every wknd", due("2026-03-28 09:00", "water plants").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (BERLIN_FRI, En, "gym monday till friday at 7am", due("2026-03-30 07:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (TASHKENT, Uz, "dush - ju soat 8 da yugurish", due("2026-03-30 08:00", "yugurish").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (MOSCOW, Ru, "в 3 с половиной забрать сына", due("2026-03-27 15:30", "забрать сына")),
        (MOSCOW, Ru, "купить 3 с половиной кг муки завтра", due("2026-03-28 09:00", "купить 3 с половиной кг муки")),
        (MOSCOW, Ru, "до 20-го числа оплатить садик", due("2026-04-20 09:00", "оплатить садик")),
        (MOSCOW, Ru, "в конце следующего года отпуск", due("2027-12-31 09:00", "отпуск")),
        (MOSCOW, Ru, "после 19 в пятницу позвонить", due("2026-03-27 19:00", "позвонить")),
        (MOSCOW, Ru, "до 18 сдать отчёт", due("2026-03-27 18:00", "сдать отчёт")),
        (MOSCOW, Ru, "детям до 14 лет бесплатно, купить билеты завтра", due("2026-03-28 09:00", "детям до 14 лет бесплатно, купить билеты")),
        (MOSCOW, Ru, "созвон завтра в 5, хотя нет, лучше в полшестого", due("2026-03-28 17:30", "созвон")),
        (BERLIN_FRI, En, "every day at 9 pills until friday", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260403")),
        (MOSCOW, Ru, "каждый день в 9 таблетки до пятницы", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260403")),
        // Held-out set 12, life admin: an hourly repeat's start tonight or from an Uzbek hour, an
        // end date after a start hour, weeks from today, a zero-led date inside the text, the day
        // before, the last working day of the month.
        (BERLIN_EVENING, En, "amoxicillin every 8 hours starting 10pm tonight", due("2026-03-27 22:00", "amoxicillin").every("FREQ=HOURLY;INTERVAL=8;DTSTART=20260327T210000Z")),
        (MOSCOW, Ru, "капли в нос каждые 4 часа с 8 утра до 20 мая", due("2026-03-27 12:00", "капли в нос").every("FREQ=HOURLY;INTERVAL=4;UNTIL=20260520;DTSTART=20260327T050000Z")),
        (TASHKENT, Uz, "soat 22 dan boshlab har 8 soatda antibiotik ichish", due("2026-03-27 22:00", "antibiotik ichish").every("FREQ=HOURLY;INTERVAL=8;DTSTART=20260327T170000Z")),
        (TASHKENT, Uz, "ertaga 5 dan ortiq odam keladi", due("2026-03-28 09:00", "5 dan ortiq odam keladi")),
        (BERLIN_EVENING, En, "NCT booking 3 weeks from today at 11", due("2026-04-17 11:00", "NCT booking")),
        (MOSCOW, Ru, "страховка 01.09 заканчивается", due("2026-09-01 09:00", "страховка заканчивается")),
        (TASHKENT, Uz, "mashina sug'urtasi 01.09 da tugaydi", due("2026-09-01 09:00", "mashina sug'urtasi tugaydi")),
        (MOSCOW, Ru, "оплатить 15.09 за свет", fails(DueError::NoTime)),
        (MOSCOW, Ru, "новогодний утренник 25.12 в 10:00, напомни накануне", due("2026-12-25 10:00", "новогодний утренник").lead(1440)),
        (MOSCOW, Ru, "напомни накануне про утренник 25 декабря в 10", due("2026-12-25 10:00", "утренник").lead(1440)),
        (MOSCOW, Ru, "накануне вечером позвонить маме", due("2026-03-27 19:00", "накануне позвонить маме")),
        (BERLIN_FRI, En, "pay rent on the last working day of the month at 10am", due("2026-03-31 10:00", "pay rent")),
        (MOSCOW, Ru, "заплатить за квартиру в последний рабочий день месяца", due("2026-03-31 09:00", "заплатить за квартиру")),
        (TASHKENT, Uz, "oyning oxirgi ish kuni hisobot topshirish", due("2026-03-31 09:00", "hisobot topshirish")),
        (BERLIN_FRI, En, "end of next year renew passport", due("2027-12-31 09:00", "renew passport")),
        (TASHKENT, Uz, "keyingi yil oxirida pasport", due("2027-12-31 09:00", "pasport")),
        (MOSCOW, Ru, "после 7 вечера позвонить Диме", due("2026-03-27 19:00", "позвонить Диме")),
        // What the review of set 12's reading found.
        (MOSCOW, Ru, "завтра каждые 3 часа с 8 капли", due("2026-03-28 08:00", "капли").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260328T050000Z")),
        (MOSCOW, Ru, "каждые 3 часа с 8 капли", due("2026-03-27 11:00", "капли").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T050000Z")),
        (BERLIN_FRI, En, "every hour from 10 tomorrow drink water", due("2026-03-28 10:00", "drink water").every("FREQ=HOURLY;DTSTART=20260328T090000Z")),
        (MOSCOW_TUE, Ru, "в пятницу сдать раздел 02.03 отчёта", due("2026-03-27 09:00", "сдать раздел 02.03 отчёта")),
        (MOSCOW, Ru, "завтра в 10 перезвонить маме, она звонила накануне", due("2026-03-28 10:00", "перезвонить маме, она звонила накануне")),
        // What the broad sweep after the reviews found: a day named elsewhere wins over weeks
        // from today, the end of next year and a date inside the text; opening hours and "half
        // of" are no time; a start of 12 is noon.
        (BERLIN_FRI, En, "notice period is 4 weeks from today, tell HR monday", due("2026-03-30 09:00", "notice period is 4 weeks from today, tell HR")),
        (BERLIN_FRI, En, "lease ends end of next year, call landlord monday", due("2026-03-30 09:00", "lease ends end of next year, call landlord")),
        (TASHKENT, Uz, "sug'urta 01.09 da tugaydi, ertaga soat 11 da agentga qo'ng'iroq", due("2026-03-28 11:00", "sug'urta 01.09 da tugaydi agentga qo'ng'iroq")),
        (MOSCOW, Ru, "банк работает до 18, сходить завтра", due("2026-03-28 09:00", "банк работает до 18, сходить")),
        (MOSCOW, Ru, "аптека до 21, купить лекарства вечером", due("2026-03-27 19:00", "аптека до 21, купить лекарства")),
        (MOSCOW, Ru, "в 9 с половиной группы созвон", due("2026-03-27 21:00", "с половиной группы созвон")),
        (BERLIN_TUE_NOON, En, "every 2 hours from 12 open the windows", due("2026-03-24 14:00", "open the windows").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260324T110000Z")),
        (TASHKENT, Uz, "ertaga soat 10 yarimda bankka", due("2026-03-28 10:30", "bankka")),
        // What the fifth review found, and held-out set 13: courtesies around the request, a
        // request between a day and its hour, a deadline alone beside a day.
        (BERLIN_FRI, En, "every day at 9 pills until 3 weeks from today", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260417")),
        (MOSCOW, Ru, "каждые 3 часа с 2 таблетками угля", due("2026-03-27 13:00", "с 2 таблетками угля").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T100000Z")),
        (MOSCOW, Ru, "каждые 3 часа с 8 детьми проверка", due("2026-03-27 13:00", "с 8 детьми проверка").every("FREQ=HOURLY;INTERVAL=3;DTSTART=20260327T100000Z")),
        (BERLIN_TUE_NOON, En, "every 2 hours from 3 to 9 water the lawn", due("2026-03-24 15:00", "water the lawn").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260324T140000Z")),
        (MOSCOW, Ru, "можешь напомнить в понедельник оплатить интернет?", due("2026-03-30 09:00", "оплатить интернет")),
        (BERLIN_FRI, En, "hey can you remind me to order the 2 new tires for the subaru on wednesday at 9? thanks", due("2026-04-01 09:00", "order the 2 new tires for the subaru")),
        (BERLIN_FRI, En, "remnd me tomorow 2pm hairdresser", due("2026-03-28 14:00", "hairdresser")),
        (MOSCOW, Ru, "короче завтра напомни часиков в 11 скинуть Андрею презентацию", due("2026-03-28 11:00", "короче скинуть Андрею презентацию")),
        (BERLIN_FRI, En, "tomorrow remind me at 11 to send the deck", due("2026-03-28 11:00", "send the deck")),
        (MOSCOW_TUE, Ru, "в пятницу продлить ОСАГО, оно до 20 апреля", due("2026-03-27 09:00", "продлить ОСАГО, оно до 20 апреля")),
        // What the sixth review found: a number after a request is no hour, thanks that is the
        // thing to say stays.
        (MOSCOW, Ru, "завтра напомни 3 вещи купить", due("2026-03-28 09:00", "3 вещи купить")),
        (MOSCOW, Ru, "завтра напомни в 2 магазина зайти", due("2026-03-28 09:00", "в 2 магазина зайти")),
        (BERLIN_FRI, En, "tomorrow remind me 10 minutes of stretching", due("2026-03-28 09:00", "10 minutes of stretching")),
        (BERLIN_FRI, En, "tomorrow at 5 say thanks", due("2026-03-28 17:00", "say thanks")),
        (MOSCOW, Ru, "завтра в 9 сказать учителю спасибо", due("2026-03-28 09:00", "сказать учителю спасибо")),
        (BERLIN_FRI, En, "monday reply to anna: thanks", due("2026-03-30 09:00", "reply to anna: thanks")),
        // Held-out set 14: numbers that are no times (rooms, exercises, prices, decimals,
        // percentages, numbered slides) and spans of hours and of days, whose reminder is at
        // their start.
        (BERLIN_FRI, En, "shift tomorrow 7am to 3pm", due("2026-03-28 07:00", "shift")),
        (BERLIN_FRI, En, "night shift friday 10pm to 6am", due("2026-03-27 22:00", "night shift")),
        (BERLIN_FRI, En, "be home for the delivery tomorrow 10-12", due("2026-03-28 10:00", "be home for the delivery")),
        (BERLIN_FRI, En, "shift monday 8 to 5", due("2026-03-30 08:00", "shift")),
        (TASHKENT, Uz, "эртага смена соат 8 дан 17 гача", due("2026-03-28 08:00", "смена")),
        (TASHKENT, Uz, "эртага 14:00 дан 16:00 гача интернет ўрнатиш", due("2026-03-28 14:00", "интернет ўрнатиш")),
        (TASHKENT, Uz, "шанба куни соат 15 дан 18 гача туғилган кун, 10 кишилик стол", due("2026-03-28 15:00", "туғилган кун, 10 кишилик стол")),
        (MOSCOW, Ru, "выступление в 16:30, слайды 1-25", due("2026-03-27 16:30", "выступление слайды 1-25")),
        (BERLIN_FRI, En, "vacation june 1-10", due("2026-06-01 09:00", "vacation")),
        (BERLIN_FRI, En, "vacation from 19 to 26 december", due("2026-12-19 09:00", "vacation")),
        (MOSCOW, Ru, "отпуск с 1 по 10 июня", due("2026-06-01 09:00", "отпуск")),
        (MOSCOW, Ru, "с 01.06 по 10.06 отпуск", due("2026-06-01 09:00", "отпуск")),
        (TASHKENT, Uz, "1-iyuldan 10-iyulgacha ta'til", due("2026-07-01 09:00", "ta'til")),
        (TASHKENT, Uz, "15-июндан 20-июнгача Самарқандга саёҳат", due("2026-06-15 09:00", "Самарқандга саёҳат")),
        (BERLIN_FRI, En, "standup every weekday at 9:30 in room 3.14", due("2026-03-30 09:30", "standup in room 3.14").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
        (BERLIN_FRI, En, "return library book, fine is 0.20 per day, on thursday", due("2026-04-02 09:00", "return library book, fine is 0.20 per day")),
        (MOSCOW_TUE, Ru, "задачи 4.12 и 4.13 решить к пятнице", due("2026-03-27 09:00", "задачи 4.12 и 4.13 решить")),
        (MOSCOW_TUE, Ru, "в следующий вторник сдать лабу 3.2", due("2026-03-31 09:00", "сдать лабу 3.2")),
        // What the reviews of set 14's fixes found: an hour said after a room or a price, a
        // zero hour after a marker, a stretch of days beside an hour for another task, a story
        // on a weekday, a repeat's end after its hour, a decimal amount of time, a date typed
        // with its month's zero after a lab, opening hours and target values.
        (BERLIN_FRI, En, "call about the flat 5pm", due("2026-03-27 17:00", "call about the flat")),
        (BERLIN_FRI, En, "doctor apt 10am tomorrow", due("2026-03-28 10:00", "doctor apt")),
        (BERLIN_FRI, En, "call john at 10 to 5", due("2026-03-27 16:50", "call john")),
        (BERLIN_FRI, En, "train at 20 to 6", due("2026-03-27 17:40", "train")),
        (BERLIN_FRI, En, "meeting 3 - 4 pm thursday", due("2026-04-02 15:00", "meeting")),
        (BERLIN_FRI, En, "yoga 5 - 6pm tomorrow", due("2026-03-28 17:00", "yoga")),
        (BERLIN_FRI, En, "check oven in 20-25 minutes", due("2026-03-27 10:20", "check oven")),
        (BERLIN_FRI, En, "check the roast in 1-2 hours", fails(DueError::NoTime)),
        (TASHKENT, Uz, "20-25 daqiqadan keyin pishiriqni tekshirish", fails(DueError::NoTime)),
        (MOSCOW, Ru, "позвонить 8-800-555-35-35 завтра", due("2026-03-28 09:00", "позвонить 8-800-555-35-35")),
        (MOSCOW, Ru, "в 16 кофе за 3.50", due("2026-03-27 16:00", "кофе за 3.50")),
        (MOSCOW, Ru, "продать книгу за 12.50 в субботу", due("2026-03-28 09:00", "продать книгу за 12.50")),
        (BERLIN_FRI, En, "pay john $12.50 friday", due("2026-04-03 09:00", "pay john $12.50")),
        (BERLIN_FRI, En, "sat10am haircut", due("2026-03-28 10:00", "haircut")),
        (BERLIN_FRI, En, "festival 3rd to 5th of july", due("2026-07-03 09:00", "festival")),
        (BERLIN_FRI, En, "between june 5 and june 8 trip", due("2026-06-05 09:00", "trip")),
        (BERLIN_FRI, En, "check the room 17:30", due("2026-03-27 17:30", "check the room")),
        (MOSCOW, Ru, "каждый день в 19:00 до 1 апреля читать", due("2026-03-27 19:00", "читать").every("FREQ=DAILY;BYHOUR=19;BYMINUTE=0;BYSECOND=0;UNTIL=20260401")),
        (BERLIN_FRI, En, "clean room 5-6pm", due("2026-03-27 17:00", "clean room")),
        (BERLIN_FRI, En, "feed cat at 0.30", due("2026-03-28 00:30", "feed cat")),
        (BERLIN_FRI, En, "vacation june 1-10 book flights at 5pm", due("2026-03-27 17:00", "vacation june 1-10 book flights")),
        (BERLIN_FRI, En, "conference may 12-14 at 9am", due("2026-05-12 09:00", "conference")),
        (TASHKENT, Uz, "Ali juma kuni keldi", fails(DueError::NoTime)),
        (TASHKENT, Uz, "soat 20 da onamga yakshanba kuni borishni aytish", due("2026-03-27 20:00", "onamga yakshanba kuni borishni aytish")),
        (TASHKENT, Uz, "dadamga yakshanba kuni borish uchun ertaga chipta olish", due("2026-03-28 09:00", "dadamga yakshanba kuni borish uchun chipta olish")),
        (TASHKENT, Uz, "банк 9 дан 17 гача ишлайди, соат 14 да бориш", due("2026-03-27 14:00", "банк 9 дан 17 гача ишлайди бориш")),
        (TASHKENT, Uz, "do'kon 10 dan 22 gacha ishlaydi, bugun soat 20 da borish", due("2026-03-27 20:00", "do'kon 10 dan 22 gacha ishlaydi borish")),
        (MOSCOW, Ru, "завтра с 10 до 12 экзамен в 3", due("2026-03-28 10:00", "экзамен в 3")),
        (BERLIN_FRI, En, "speak at 10 to 4 year 6 classes", due("2026-03-27 22:00", "speak to 4 year 6 classes")),
        (BERLIN_FRI, En, "send it at 10 to 5 people", due("2026-03-27 22:00", "send it to 5 people")),
        (MOSCOW, Ru, "завтра с 10 до 12 приём в 3 кабинете", due("2026-03-28 10:00", "приём в 3 кабинете")),
        (MOSCOW, Ru, "завтра с 10 до 12 собрание в 3-й школе", due("2026-03-28 10:00", "собрание в 3-й школе")),
        (MOSCOW, Ru, "магазин работает с 10 до 22, сегодня в 20 сходить", due("2026-03-27 20:00", "магазин работает с 10 до 22 сходить")),
        (MOSCOW, Ru, "поезд в 20:00, напомни за 1,5 часа", due("2026-03-27 20:00", "поезд").lead(90)),
        (TASHKENT, Uz, "1-aprelda 3 ta daftar olish", due("2026-04-01 09:00", "3 ta daftar olish")),
        (BERLIN_FRI, En, "in 5-10 min flip the steak", due("2026-03-27 10:05", "flip the steak")),
        (MOSCOW, Ru, "через 10-15 минут проверить рис", due("2026-03-27 10:10", "проверить рис")),
        (BERLIN_FRI, En, "call 555-0142 tomorrow", due("2026-03-28 09:00", "call 555-0142")),
        (BERLIN_FRI, En, "room 12 - 3pm interview", due("2026-03-27 15:00", "room 12 interview")),
        (BERLIN_FRI, En, "table 4 - 8pm", due("2026-03-27 20:00", "table 4")),
        (MOSCOW, Ru, "сдать лабу 15.10", due("2026-10-15 09:00", "сдать лабу")),
        (BERLIN_FRI, En, "finish chapter 17.30", due("2026-03-27 17:30", "finish chapter")),
        (MOSCOW_TUE, Ru, "в 0.30 в пятницу выпить таблетку", due("2026-03-27 00:30", "выпить таблетку")),
        (TASHKENT, Uz, "narxi 15.10 gacha", due("2026-10-15 09:00", "narxi")),
        (MOSCOW, Ru, "стирать при 30-40 градусах завтра", due("2026-03-28 09:00", "стирать при 30-40 градусах")),
        (TASHKENT, Uz, "onamga shanba kuni qo'ng'iroq qilish", due("2026-03-28 09:00", "onamga qo'ng'iroq qilish")),
        (MOSCOW, Ru, "сдать отчёт к 25.04", due("2026-04-25 09:00", "сдать отчёт")),
        (MOSCOW, Ru, "к 8.10 в школу", due("2026-03-28 08:10", "в школу")),
        (BERLIN_FRI, En, "send the survey at 10 to 5 clients", due("2026-03-27 22:00", "send the survey to 5 clients")),
        (MOSCOW, Ru, "к 01.04 сдать отчёт", due("2026-04-01 09:00", "сдать отчёт")),
        (MOSCOW, Ru, "сдать отчёт к 15.30", due("2026-03-27 15:30", "сдать отчёт")),
        (BERLIN_FRI, En, "tomorrow 0.30 night feed", due("2026-03-28 00:30", "night feed")),
        (BERLIN_FRI, En, "take pills daily at 8am from june 1 to june 10", due("2026-06-01 08:00", "take pills").every("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20260610").starting()),
        (TASHKENT_TUE, Uz, "чегирма 25%, якшанба куни бозорга бориш", due("2026-03-29 09:00", "чегирма 25% бозорга бориш")),
        (TASHKENT_TUE, Uz, "Dilshod dushanba kuni qarz so'ragan edi, ertaga pulni berish", due("2026-03-25 09:00", "Dilshod dushanba kuni qarz so'ragan edi pulni berish")),
        (TASHKENT, Uz, "Bobur juma kuni ketgan, unga 19:00 da qo'ng'iroq qilish", due("2026-03-27 19:00", "Bobur juma kuni ketgan, unga qo'ng'iroq qilish")),
        (TASHKENT, Uz, "ertaga mashq 7 da", due("2026-03-28 07:00", "mashq")),
        (TASHKENT, Uz, "xona 12-aprelda bo'shaydi", due("2026-04-12 09:00", "xona bo'shaydi")),
        (TASHKENT, Uz, "soat 0.30 da serverni o'chirish", due("2026-03-28 00:30", "serverni o'chirish")),
        (MOSCOW, Ru, "каждый понедельник в 10 до 1 июня планёрка", due("2026-03-30 10:00", "планёрка").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0;UNTIL=20260601")),
        (MOSCOW, Ru, "каждый понедельник в 10 до 11 июня планёрка", due("2026-03-30 10:00", "планёрка").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0;UNTIL=20260611")),
        (MOSCOW, Ru, "каждый день в 9 до 20.04 таблетки", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260420")),
        (MOSCOW, Ru, "через 1,5 часа забрать ребенка", due("2026-03-27 11:30", "забрать ребенка")),
        (MOSCOW, Ru, "купить таблетки, аптека до 21", fails(DueError::NoTime)),
        (MOSCOW, Ru, "довести температуру до 22", fails(DueError::NoTime)),
        (MOSCOW_TUE, Ru, "сдать лабу 27.03 в 10", due("2026-03-27 10:00", "сдать лабу")),
        (MOSCOW, Ru, "цена 12.50 за кг, купить завтра", due("2026-03-28 09:00", "цена 12.50 за кг, купить")),
        (TASHKENT_TUE, Uz, "12-bobni juma kuni o'qish", due("2026-03-27 09:00", "12-bobni o'qish")),
        (TASHKENT_TUE, Uz, "4.12 va 4.13 masalalarni payshanba kuni yechish", due("2026-03-26 09:00", "4.12 va 4.13 masalalarni yechish")),
        (TASHKENT_TUE, Uz, "chegirma 20%, do'konga yakshanba kuni borish", due("2026-03-29 09:00", "chegirma 20%, do'konga borish")),
        (MOSCOW, Ru, "каникулы у детей с 1 по 31 июля, купить путёвку в лагерь в среду", due("2026-04-01 09:00", "каникулы у детей с 1 по 31 июля, купить путёвку в лагерь")),
        (BERLIN_FRI, En, "the kids camp runs july 6-17, pack 5 t-shirts on sunday", due("2026-03-29 09:00", "the kids camp runs july 6-17, pack 5 t-shirts")),
        (BERLIN_FRI, En, "tomorrow9am standup prep", due("2026-03-28 09:00", "standup prep")),
        (MOSCOW, Ru, "завтра9:00 стоматолог", due("2026-03-28 09:00", "стоматолог")),
        (TASHKENT, Uz, "ertaga9:00 stomatolog", due("2026-03-28 09:00", "stomatolog")),
        (MOSCOW, Ru, "оплатить квартиру 25 числа", due("2026-04-25 09:00", "оплатить квартиру")),
        (MOSCOW, Ru, "витамин Д ребенку каждый день в 9 до 20 апреля", due("2026-03-28 09:00", "витамин Д ребенку").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260420")),
        (TASHKENT_TUE, Uz, "пайшанба куни 5.3 ва 5.4 машқларни топшириш", due("2026-03-26 09:00", "5.3 ва 5.4 машқларни топшириш")),
        // ==== Repeats across DST in the southern hemisphere (Sydney) ====
        (SYDNEY_APR, En, "every day at 02:30 pills", due("2026-04-05 02:30", "pills").every("FREQ=DAILY").utc("2026-04-04 15:30")),
        (SYDNEY_APR, En, "every 2 days at 9 walk", due("2026-04-05 09:00", "walk").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260405").utc("2026-04-04 23:00")),
        (SYDNEY_APR, En, "every 12 hours medicine", due("2026-04-04 22:00", "medicine").every("FREQ=HOURLY;INTERVAL=12;DTSTART=20260404T110000Z")),
        (SYDNEY_OCT, En, "backup tomorrow 02:30", due("2026-10-04 03:00", "backup").utc("2026-10-03 16:00")),
        (SYDNEY_OCT, Ru, "каждое воскресенье в 02:30 бэкап", due("2026-10-04 03:00", "бэкап").every("FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30")),
    ]
}

/// The script a row of issue 24's table is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    En,
    Ru,
    UzLatn,
    UzCyrl,
}

/// Issue 24's scenes: Friday 2026-03-27 at 12:16, after 10:00 and before 18:00, in a zone with
/// DST that changes on Sunday (Berlin) and in two without (Moscow, Tashkent).
const BERLIN_1216: Scene = Scene {
    tz: Tz::Europe__Berlin,
    now: "2026-03-27 12:16",
};
const MOSCOW_1216: Scene = Scene {
    tz: Tz::Europe__Moscow,
    now: "2026-03-27 12:16",
};
const TASHKENT_1216: Scene = Scene {
    tz: Tz::Asia__Tashkent,
    now: "2026-03-27 12:16",
};
/// A month's end: Saturday 2026-01-31 20:00 in New York (February 2026 has 28 days, its first
/// Monday is the 2nd and its last Friday the 27th).
const NY_JAN_END: Scene = Scene {
    tz: Tz::America__New_York,
    now: "2026-01-31 20:00",
};

/// Issue 24: clock times as written, morning words, Uzbek in Cyrillic from any keyboard, the
/// repeats people use, ends, "after done", no warnings about repeats that were made, no scraps.
/// Each row asserts the local due time, the rule (or none) and the text left.
#[rustfmt::skip]
fn issue_24_rows() -> Vec<(Script, Scene, Lang, &'static str, Want)> {
    use Script::{En as E, Ru as R, UzCyrl as C, UzLatn as L};
    const B: Scene = BERLIN_1216;
    const M: Scene = MOSCOW_1216;
    const T: Scene = TASHKENT_1216;
    let weekly_fr_2 = "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330";
    let every_3_days_done = "FREQ=DAILY;INTERVAL=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0;X-FROM=DONE;DTSTART=20260328";
    let workdays = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";
    let mon_wed_fri = "FREQ=WEEKLY;BYDAY=MO,WE,FR";
    vec![
        // ==== English ====
        // An H:MM time is a 24-hour time; one that has passed today is tomorrow's.
        (E, B, En, "call the office at 10:00", due("2026-03-28 10:00", "call the office").sure()),
        (E, B, En, "meeting at 7:00", due("2026-03-28 07:00", "meeting")),
        (E, B, En, "dinner 19:30", due("2026-03-27 19:30", "dinner")),
        (E, B, En, "standup 9:30 monday", due("2026-03-30 09:30", "standup")),
        (E, B, En, "report today 11:00", fails(in_past("2026-03-27 11:00"))),
        // Words of the morning decide a bare hour; a named day's 6 or 7 offers both readings.
        (E, B, En, "wake up at 6:30 tomorrow", due("2026-03-28 06:30", "wake up")),
        (E, B, En, "wake me up at 6 tomorrow", due("2026-03-28 06:00", "wake me up").noted("chosen: 06:00:00").sure()),
        (E, B, En, "wake me at 7", due("2026-03-28 07:00", "wake me")),
        (E, B, En, "gym at 6 in the morning tomorrow", due("2026-03-28 06:00", "gym").sure()),
        (E, B, En, "tomorrow at 6 call Bob", due("2026-03-28 18:00", "call Bob").asks("2026-03-28 06:00", "2026-03-28 18:00")),
        (E, B, En, "tomorrow at 7 run", due("2026-03-28 07:00", "run").asks("2026-03-28 07:00", "2026-03-28 19:00")),
        (E, B, En, "in 2 days at 6 yoga", due("2026-03-29 18:00", "yoga").asks("2026-03-29 06:00", "2026-03-29 18:00")),
        (E, B, En, "every day at 6 run", due("2026-03-27 18:00", "run").every("FREQ=DAILY").asks("2026-03-28 06:00", "2026-03-27 18:00")),
        (E, B, En, "tomorrow at 9 dentist", due("2026-03-28 09:00", "dentist").sure()),
        (E, B, En, "call Ann at 3", due("2026-03-27 15:00", "call Ann").noted("chosen: 15:00:00").sure()),
        // A repeat that was made says no more.
        (E, B, En, "every friday 4pm send weekly report", due("2026-03-27 16:00", "send weekly report").every("FREQ=WEEKLY;BYDAY=FR").nothing_unplaced()),
        (E, B, En, "prepare monday report every friday", due("2026-04-03 09:00", "prepare monday report").every("FREQ=WEEKLY;BYDAY=FR").unplaced("monday")),
        // Weekdays of the month.
        (E, B, En, "first monday of every month pay bills", due("2026-04-06 09:00", "pay bills").every("FREQ=MONTHLY;BYDAY=1MO")),
        (E, B, En, "pay bills on the first monday of every month at 10", due("2026-04-06 10:00", "pay bills").every("FREQ=MONTHLY;BYDAY=1MO")),
        (E, B, En, "every first monday of the month pay bills", due("2026-04-06 09:00", "pay bills").every("FREQ=MONTHLY;BYDAY=1MO")),
        (E, B, En, "every last friday of the month review", due("2026-04-24 09:00", "review").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (E, B, En, "every last friday at 18:00 review", due("2026-03-27 18:00", "review").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (E, B, En, "every month on the last friday drinks", due("2026-04-24 09:00", "drinks").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (E, B, En, "monthly on the second tuesday at 14:00 board", due("2026-04-14 14:00", "board").every("FREQ=MONTHLY;BYDAY=2TU")),
        (E, B, En, "every second tuesday of the month review", due("2026-04-14 09:00", "review").every("FREQ=MONTHLY;BYDAY=2TU")),
        (E, B, En, "the last friday of the month report", due("2026-04-24 09:00", "report")),
        (E, B, En, "on the first monday of the month report", due("2026-04-06 09:00", "report")),
        // Every other one.
        (E, B, En, "payday every other friday", due("2026-04-03 09:00", "payday").every(weekly_fr_2)),
        (E, B, En, "every 2nd friday payroll", due("2026-04-03 09:00", "payroll").every(weekly_fr_2)),
        (E, B, En, "every second friday at 18:00 payday", due("2026-03-27 18:00", "payday").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=18;BYMINUTE=0;BYSECOND=0;DTSTART=20260323")),
        (E, B, En, "every third thursday book club", due("2026-04-02 09:00", "book club").every("FREQ=WEEKLY;INTERVAL=3;BYDAY=TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260330")),
        // Weekdays without "every".
        (E, B, En, "standup mon wed fri at 10", due("2026-03-30 10:00", "standup").every(mon_wed_fri)),
        (E, B, En, "mon-fri 9:00 standup", due("2026-03-30 09:00", "standup").every(workdays)),
        (E, B, En, "gym tue thu 19:00", due("2026-03-31 19:00", "gym").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (E, B, En, "on monday and thursday at 8 gym", due("2026-03-30 08:00", "gym").every("FREQ=WEEKLY;BYDAY=MO,TH")),
        (E, B, En, "pay rent mon wed", due("2026-03-30 09:00", "pay rent").every("FREQ=WEEKLY;BYDAY=MO,WE")),
        // Days left out.
        (E, B, En, "every day except weekends at 8 stand up", due("2026-03-30 08:00", "stand up").every(workdays)),
        (E, B, En, "every day except sunday at 10 shop", due("2026-03-28 10:00", "shop").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA")),
        (E, B, En, "daily except saturday and sunday 7:30 run", due("2026-03-30 07:30", "run").every(workdays)),
        (E, B, En, "every weekday except friday 9:00 standup", due("2026-03-30 09:00", "standup").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH")),
        // Minutes.
        (E, B, En, "check email every 30 minutes", due("2026-03-27 12:46", "check email").every("FREQ=MINUTELY;INTERVAL=30;DTSTART=20260327T114600Z")),
        (E, B, En, "every 45 minutes stretch", due("2026-03-27 13:01", "stretch").every("FREQ=MINUTELY;INTERVAL=45;DTSTART=20260327T120100Z")),
        (E, B, En, "every 90 minutes water", due("2026-03-27 13:46", "water").every("FREQ=MINUTELY;INTERVAL=90;DTSTART=20260327T124600Z")),
        (E, B, En, "every 1.5 hours water", due("2026-03-27 13:46", "water").every("FREQ=MINUTELY;INTERVAL=90;DTSTART=20260327T124600Z")),
        (E, B, Ru, "каждые 1,5 часа пить воду", due("2026-03-27 13:46", "пить воду").every("FREQ=MINUTELY;INTERVAL=90;DTSTART=20260327T124600Z")),
        (E, B, En, "every 120 minutes water", due("2026-03-27 14:16", "water").every("FREQ=HOURLY;INTERVAL=2;DTSTART=20260327T131600Z")),
        (E, B, En, "every 2 minutes stretch", fails(DueError::RepeatTooOften { every_secs: 120 })),
        (E, B, En, "every 30 seconds blink", fails(DueError::RepeatTooOften { every_secs: 30 })),
        // One weekend; days from now.
        (E, B, En, "laundry this weekend", due("2026-03-28 09:00", "laundry")),
        (E, B, En, "hike next weekend", due("2026-04-04 09:00", "hike")),
        (E, B, En, "clean on the weekend at 11", due("2026-03-28 11:00", "clean")),
        (E, B, En, "clean weekends at 10", due("2026-03-28 10:00", "clean").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (E, B, En, "call 2 days from now", due("2026-03-29 12:16", "call")),
        (E, B, En, "2 days from now at 9 dentist", due("2026-03-29 09:00", "dentist")),
        // An end.
        (E, B, En, "every day at 9 pills until March 1", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270301")),
        (E, B, En, "every day at 9 pills for 10 days", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260406")),
        (E, B, En, "every monday for 4 weeks piano", due("2026-03-30 09:00", "piano").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260426")),
        (E, B, Ru, "каждый день в 8 утра витамины 14 дней", due("2026-03-28 08:00", "витамины").every("FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20260410")),
        (E, B, Ru, "каждый день в 9 таблетки в течение 10 дней", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260406")),
        (E, B, Uz, "har kuni soat 9 da dori 10 kun davomida", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260406")),
        (E, B, En, "book hotel for 3 days tomorrow", due("2026-03-28 09:00", "book hotel for 3 days").nothing_unplaced()),
        (E, B, En, "every day at 9 pills until 1 April", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260401")),
        (E, B, En, "every monday until April 30 standup", due("2026-03-30 09:00", "standup").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (E, B, En, "every day at 9 10 times stretch", due("2026-03-28 09:00", "stretch").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10")),
        (E, B, En, "every day at 9 pills 10 times", due("2026-03-28 09:00", "pills").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10")),
        (E, B, En, "every week on friday 5 times piano", due("2026-04-03 09:00", "piano").every("FREQ=WEEKLY;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=5")),
        (E, B, En, "every monday until friday gym", fails(DueError::EndsBeforeFirst { until: naive("2026-03-27 00:00").date(), first: naive("2026-03-30 09:00") })),
        // After done.
        (E, B, En, "water plants 3 days after done", due("2026-03-28 09:00", "water plants").every(every_3_days_done)),
        (E, B, En, "water plants every! 3 days", due("2026-03-28 09:00", "water plants").every(every_3_days_done)),
        (E, B, En, "every 2 weeks after done haircut", due("2026-03-28 09:00", "haircut").every("FREQ=DAILY;INTERVAL=14;BYHOUR=9;BYMINUTE=0;BYSECOND=0;X-FROM=DONE;DTSTART=20260328")),
        (E, B, En, "every 4 hours after done stretch", due("2026-03-27 16:16", "stretch").every("FREQ=HOURLY;INTERVAL=4;X-FROM=DONE;DTSTART=20260327T151600Z")),
        // No scraps.
        (E, B, En, "finish slides by 5pm", due("2026-03-27 17:00", "finish slides")),
        (E, B, En, "finish slides by friday", due("2026-04-03 09:00", "finish slides")),
        (E, B, En, "work on the draft until 5pm", due("2026-03-27 17:00", "work on the draft")),
        (E, B, En, "remind me about the webinar tomorrow at 10", due("2026-03-28 10:00", "the webinar")),
        (E, B, En, "submit report until friday", due("2026-04-03 09:00", "submit report")),
        (E, B, En, "call mom at 10:00 every sunday", due("2026-03-29 10:00", "call mom").every("FREQ=WEEKLY;BYDAY=SU")),
        // Across DST and a month's end.
        (E, BERLIN_SAT, En, "every other sunday at 02:30 backup", due("2026-03-29 03:00", "backup").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=2;BYMINUTE=30;BYSECOND=0;DTSTART=20260323")),
        (E, BERLIN_SAT, En, "every 30 minutes stretch", due("2026-03-28 10:30", "stretch").every("FREQ=MINUTELY;INTERVAL=30;DTSTART=20260328T093000Z")),
        (E, NY_JAN_END, En, "first monday of every month rent", due("2026-02-02 09:00", "rent").every("FREQ=MONTHLY;BYDAY=1MO")),
        (E, NY_JAN_END, En, "last friday of every month drinks at 17:00", due("2026-02-27 17:00", "drinks").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (E, NY_JAN_END, En, "every day at 8 until the end of the month vitamins", fails(DueError::EndsBeforeFirst { until: naive("2026-01-31 00:00").date(), first: naive("2026-02-01 08:00") })),
        (E, NY_JAN_END, En, "this weekend laundry", due("2026-02-01 09:00", "laundry")),
        (E, NY_JAN_END, En, "every 3 days after done at 7:00 run", due("2026-02-01 07:00", "run").every("FREQ=DAILY;INTERVAL=3;BYHOUR=7;BYMINUTE=0;BYSECOND=0;X-FROM=DONE;DTSTART=20260201")),
        // ==== Russian ====
        (R, M, Ru, "позвонить в офис в 10:00", due("2026-03-28 10:00", "позвонить в офис")),
        (R, M, Ru, "встреча в 7:00", due("2026-03-28 07:00", "встреча")),
        (R, M, Ru, "разбуди меня завтра в 6", due("2026-03-28 06:00", "разбуди меня").sure()),
        (R, M, Ru, "подъём завтра в 7", due("2026-03-28 07:00", "подъём").sure()),
        (R, M, Ru, "завтра в 6 позвонить Ане", due("2026-03-28 18:00", "позвонить Ане").asks("2026-03-28 06:00", "2026-03-28 18:00")),
        (R, M, Ru, "завтра в 6 утра пробежка", due("2026-03-28 06:00", "пробежка").sure()),
        (R, M, Ru, "каждую вторую пятницу зарплата", due("2026-04-03 09:00", "зарплата").every(weekly_fr_2)),
        (R, M, Ru, "каждую вторую пятницу в 18:00 зарплата", due("2026-03-27 18:00", "зарплата").every("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=18;BYMINUTE=0;BYSECOND=0;DTSTART=20260323")),
        (R, M, Ru, "первый понедельник каждого месяца счета", due("2026-04-06 09:00", "счета").every("FREQ=MONTHLY;BYDAY=1MO")),
        (R, M, Ru, "в первый понедельник каждого месяца в 10 счета", due("2026-04-06 10:00", "счета").every("FREQ=MONTHLY;BYDAY=1MO")),
        (R, M, Ru, "каждый второй вторник месяца ревью", due("2026-04-14 09:00", "ревью").every("FREQ=MONTHLY;BYDAY=2TU")),
        (R, M, Ru, "последняя пятница месяца отчёт", due("2026-04-24 09:00", "отчёт")),
        (R, M, Ru, "в последнюю пятницу месяца в 18:00 отчёт", due("2026-03-27 18:00", "отчёт")),
        (R, M, Ru, "каждый месяц в последнюю пятницу отчёт", due("2026-04-24 09:00", "отчёт").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (R, M, Ru, "каждую последнюю пятницу месяца в 18 пиво", due("2026-03-27 18:00", "пиво").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (R, M, Ru, "тренировка пн ср пт в 7:00", due("2026-03-30 07:00", "тренировка").every(mon_wed_fri)),
        (R, M, Ru, "пн ср пт в 7:00 тренировка", due("2026-03-30 07:00", "тренировка").every(mon_wed_fri)),
        (R, M, Ru, "пн-пт в 9:00 планёрка", due("2026-03-30 09:00", "планёрка").every(workdays)),
        (R, M, Ru, "вт чт 19:00 танцы", due("2026-03-31 19:00", "танцы").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (R, M, Ru, "каждый день кроме выходных в 8 планёрка", due("2026-03-30 08:00", "планёрка").every(workdays)),
        (R, M, Ru, "каждый день, кроме воскресенья, в 10 магазин", due("2026-03-28 10:00", "магазин").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA")),
        (R, M, Ru, "ежедневно кроме субботы и воскресенья в 7:30 пробежка", due("2026-03-30 07:30", "пробежка").every(workdays)),
        (R, M, Ru, "по будням в 8 планёрка", due("2026-03-30 08:00", "планёрка").every(workdays)),
        (R, M, Ru, "проверять почту каждые 15 минут", due("2026-03-27 12:31", "проверять почту").every("FREQ=MINUTELY;INTERVAL=15;DTSTART=20260327T093100Z")),
        (R, M, Ru, "каждые 5 минут разминка", due("2026-03-27 12:21", "разминка").every("FREQ=MINUTELY;INTERVAL=5;DTSTART=20260327T092100Z")),
        (R, M, Ru, "каждые 2 минуты разминка", fails(DueError::RepeatTooOften { every_secs: 120 })),
        (R, M, Ru, "стирка на выходных", due("2026-03-28 09:00", "стирка")),
        (R, M, Ru, "в эти выходные посиделки", due("2026-03-28 09:00", "посиделки")),
        (R, M, Ru, "посиделки в эти выходные", due("2026-03-28 09:00", "посиделки")),
        (R, M, Ru, "на этих выходных в 18 посиделки", due("2026-03-28 18:00", "посиделки")),
        (R, M, Ru, "на следующих выходных поход", due("2026-04-04 09:00", "поход")),
        (R, M, Ru, "на выходных в 11 уборка", due("2026-03-28 11:00", "уборка")),
        (R, M, Ru, "по выходным в 10 уборка", due("2026-03-28 10:00", "уборка").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (R, M, Ru, "через 2 дня позвонить", due("2026-03-29 12:16", "позвонить")),
        (R, M, Ru, "каждый день в 9 таблетки до 1 марта", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270301")),
        (R, M, Ru, "каждый день в 9 таблетки до 30 апреля", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (R, M, Ru, "каждый понедельник до конца месяца отчёт", due("2026-03-30 09:00", "отчёт").every("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260331")),
        (R, M, Ru, "каждый день в 9 таблетки 10 раз", due("2026-03-28 09:00", "таблетки").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10")),
        (R, M, Ru, "через 3 дня после выполнения полить цветы", due("2026-03-28 09:00", "полить цветы").every(every_3_days_done)),
        (R, M, Ru, "каждые 3 дня после выполнения полить цветы", due("2026-03-28 09:00", "полить цветы").every(every_3_days_done)),
        (R, M, Ru, "каждую неделю после выполнения уборка", due("2026-03-28 09:00", "уборка").every("FREQ=DAILY;INTERVAL=7;BYHOUR=9;BYMINUTE=0;BYSECOND=0;X-FROM=DONE;DTSTART=20260328")),
        (R, M, Ru, "сдать отчёт до пятницы", due("2026-04-03 09:00", "сдать отчёт")),
        (R, M, Ru, "напомни про вебинар завтра в 10", due("2026-03-28 10:00", "вебинар")),
        (R, M, Ru, "напомни о встрече в пятницу в 18:00", due("2026-03-27 18:00", "встрече")),
        (R, M, Ru, "каждую пятницу в 16:00 еженедельный отчёт", due("2026-03-27 16:00", "еженедельный отчёт").every("FREQ=WEEKLY;BYDAY=FR").nothing_unplaced()),
        // Russian stays Russian: no Uzbek reading of its words.
        (R, M, Ru, "в пт я пойду в кино", due("2026-04-03 09:00", "я пойду в кино")),
        (R, M, Ru, "каждую пятницу я хожу в бассейн", due("2026-04-03 09:00", "я хожу в бассейн").every("FREQ=WEEKLY;BYDAY=FR")),
        (R, M, Ru, "в пятницу я приду в 19", due("2026-03-27 19:00", "я приду")),
        (R, M, Ru, "ой, завтра в 9 позвонить", due("2026-03-28 09:00", "ой позвонить")),
        (R, M, Ru, "я дам тебе ключи завтра в 9", due("2026-03-28 09:00", "я дам тебе ключи")),
        (R, M, Ru, "куда положить ключи завтра в 9", due("2026-03-28 09:00", "куда положить ключи")),
        (R, M, Ru, "купить хлеб и молоко завтра", due("2026-03-28 09:00", "купить хлеб и молоко")),
        (R, M, Ru, "кто придёт в пятницу в 18:00", due("2026-03-27 18:00", "кто придёт")),
        (R, M, Ru, "гулять с собакой в 7:00", due("2026-03-28 07:00", "гулять с собакой")),
        (R, M, Ru, "хорошо, куплю торт в субботу", due("2026-03-28 09:00", "хорошо, куплю торт")),
        (R, M, Ru, "уголь для мангала в субботу в 12", due("2026-03-28 12:00", "уголь для мангала")),
        // ==== Uzbek (Latin) ====
        (L, T, Uz, "ertaga soat 6 da uyg'otib qo'y", due("2026-03-28 06:00", "uyg'otib qo'y").sure()),
        (L, T, Uz, "ertaga soat 6 da yugurish", due("2026-03-28 18:00", "yugurish").asks("2026-03-28 06:00", "2026-03-28 18:00")),
        (L, T, Uz, "ertalab soat 6 da yugurish", due("2026-03-28 06:00", "yugurish")),
        (L, T, Uz, "har kuni soat 7 da yugurish", due("2026-03-28 07:00", "yugurish").every("FREQ=DAILY").asks("2026-03-28 07:00", "2026-03-27 19:00")),
        (L, T, Uz, "kechqurun soat 7 da kino", due("2026-03-27 19:00", "kino").sure()),
        (L, T, Uz, "shanba soat 10:00 da bozor", due("2026-03-28 10:00", "bozor")),
        (L, T, Uz, "yig'ilish soat 10:00 da", due("2026-03-28 10:00", "yig'ilish")),
        (L, T, Uz, "soat 7:00 da nonushta", due("2026-03-28 07:00", "nonushta")),
        (L, T, Uz, "har ikki haftada juma maosh", due("2026-04-03 09:00", "maosh").every(weekly_fr_2)),
        (L, T, Uz, "har ikkinchi juma maosh", due("2026-04-03 09:00", "maosh").every(weekly_fr_2)),
        (L, T, Uz, "har oyning birinchi dushanbasi hisobot", due("2026-04-06 09:00", "hisobot").every("FREQ=MONTHLY;BYDAY=1MO")),
        (L, T, Uz, "har oyning oxirgi jumasi soat 18:00 da hisobot", due("2026-03-27 18:00", "hisobot").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (L, T, Uz, "har oy birinchi dushanba soat 10 da yig'ilish", due("2026-04-06 10:00", "yig'ilish").every("FREQ=MONTHLY;BYDAY=1MO")),
        (L, T, Uz, "oyning birinchi dushanbasi hisobot", due("2026-04-06 09:00", "hisobot")),
        (L, T, Uz, "oyning oxirgi jumasi hisobot", due("2026-04-24 09:00", "hisobot")),
        (L, T, Uz, "du cho ju 9:00 sport", due("2026-03-30 09:00", "sport").every(mon_wed_fri)),
        (L, T, Uz, "sport du cho ju soat 9 da", due("2026-03-30 09:00", "sport").every(mon_wed_fri)),
        (L, T, Uz, "dushanba, chorshanba va juma 7:00 sport", due("2026-03-30 07:00", "sport").every(mon_wed_fri)),
        (L, T, Uz, "payshanba va seshanba kunlari 19:00 ingliz tili", due("2026-03-31 19:00", "ingliz tili").every("FREQ=WEEKLY;BYDAY=TU,TH")),
        (L, T, Uz, "du-ju soat 9 da yig'ilish", due("2026-03-30 09:00", "yig'ilish").every(workdays)),
        (L, T, Uz, "shanba-yakshanba soat 10 da tozalash", due("2026-03-28 10:00", "tozalash").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (L, T, Uz, "har kuni dam olish kunlaridan tashqari soat 8 da yig'ilish", due("2026-03-30 08:00", "yig'ilish").every(workdays)),
        (L, T, Uz, "dam olish kunlaridan tashqari har kuni soat 8 da yig'ilish", due("2026-03-30 08:00", "yig'ilish").every(workdays)),
        (L, T, Uz, "har kuni yakshanbadan tashqari soat 10 da do'kon", due("2026-03-28 10:00", "do'kon").every("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA")),
        (L, T, Uz, "ish kunlari soat 9 da yig'ilish", due("2026-03-30 09:00", "yig'ilish").every(workdays)),
        (L, T, Uz, "har 30 daqiqada pochtani tekshirish", due("2026-03-27 12:46", "pochtani tekshirish").every("FREQ=MINUTELY;INTERVAL=30;DTSTART=20260327T074600Z")),
        (L, T, Uz, "har 15 daqiqada suv ichish", due("2026-03-27 12:31", "suv ichish").every("FREQ=MINUTELY;INTERVAL=15;DTSTART=20260327T073100Z")),
        (L, T, Uz, "har 45 daqiqada tanaffus", due("2026-03-27 13:01", "tanaffus").every("FREQ=MINUTELY;INTERVAL=45;DTSTART=20260327T080100Z")),
        (L, T, Uz, "har 2 daqiqada cho'zilish", fails(DueError::RepeatTooOften { every_secs: 120 })),
        (L, T, Uz, "shu dam olish kunlari kir yuvish", due("2026-03-28 09:00", "kir yuvish")),
        (L, T, Uz, "hafta oxirida kir yuvish", due("2026-03-28 09:00", "kir yuvish")),
        (L, T, Uz, "keyingi dam olish kunlari sayohat", due("2026-04-04 09:00", "sayohat")),
        (L, T, Uz, "dam olish kunlari soat 10 da tozalash", due("2026-03-28 10:00", "tozalash").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (L, T, Uz, "2 kundan keyin qo'ng'iroq", due("2026-03-29 12:16", "qo'ng'iroq")),
        (L, T, Uz, "har kuni soat 9 da dori 1-martgacha", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270301")),
        (L, T, Uz, "har kuni soat 9 da dori 30-aprelgacha", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (L, T, Uz, "har kuni soat 9 da dori 1-mart gacha", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270301")),
        (L, T, Uz, "har kuni soat 9 da dori oy oxirigacha", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260331")),
        (L, T, Uz, "har kuni soat 9 da dori aprel oxirigacha", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20260430")),
        (L, T, Uz, "har kuni soat 9 da dori 10 marta", due("2026-03-28 09:00", "dori").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10")),
        (L, T, Uz, "bajarilgandan 3 kun keyin gullarga suv", due("2026-03-28 09:00", "gullarga suv").every(every_3_days_done)),
        (L, T, Uz, "bajarilgandan 2 hafta keyin soch oldirish", due("2026-03-28 09:00", "soch oldirish").every("FREQ=DAILY;INTERVAL=14;BYHOUR=9;BYMINUTE=0;BYSECOND=0;X-FROM=DONE;DTSTART=20260328")),
        (L, T, Uz, "hisobotni soat 18 gacha topshirish", due("2026-03-27 18:00", "hisobotni topshirish")),
        (L, T, Uz, "ertaga soat 10 da vebinar haqida eslat", due("2026-03-28 10:00", "vebinar")),
        (L, T, Uz, "hisobot jumagacha", due("2026-04-03 09:00", "hisobot")),
        (L, T, Uz, "har juma soat 16:00 da haftalik hisobot", due("2026-03-27 16:00", "haftalik hisobot").every("FREQ=WEEKLY;BYDAY=FR").nothing_unplaced()),
        // ==== Uzbek in Cyrillic (with ў қ ғ ҳ, and from a Russian keyboard without them) ====
        (C, T, UzCyrl, "шанба куни 19:30 да Малика билан кечки овқат", due("2026-03-28 19:30", "Малика билан кечки овқат")),
        (C, T, Ru, "шанба куни 19:30 да Малика билан кечки овқат", due("2026-03-28 19:30", "Малика билан кечки овқат")),
        (C, T, UzCyrl, "жума куни соат 15:00 да намоз", due("2026-03-27 15:00", "намоз")),
        (C, T, Ru, "хар жума соат 16:00 да хисобот", due("2026-03-27 16:00", "хисобот").every("FREQ=WEEKLY;BYDAY=FR")),
        (C, T, UzCyrl, "хар жума соат 16:00 да хисобот", due("2026-03-27 16:00", "хисобот").every("FREQ=WEEKLY;BYDAY=FR")),
        (C, T, Ru, "5 дакикадан кейин чойнак", due("2026-03-27 12:21", "чойнак")),
        (C, T, UzCyrl, "шанба соат 10:00 да бозор", due("2026-03-28 10:00", "бозор")),
        (C, T, UzCyrl, "эртага соат 6 да уйғотиб қўй", due("2026-03-28 06:00", "уйғотиб қўй").sure()),
        (C, T, Ru, "эртага соат 6 да уйготиб куй", due("2026-03-28 06:00", "уйготиб куй").sure()),
        (C, T, UzCyrl, "эртага соат 6 да югуриш", due("2026-03-28 18:00", "югуриш").asks("2026-03-28 06:00", "2026-03-28 18:00")),
        (C, T, UzCyrl, "эртага кечқурун соат 7 да кино", due("2026-03-28 19:00", "кино").sure()),
        (C, T, UzCyrl, "ҳар икки ҳафтада жума маош", due("2026-04-03 09:00", "маош").every(weekly_fr_2)),
        (C, T, Ru, "хар иккинчи жума маош", due("2026-04-03 09:00", "маош").every(weekly_fr_2)),
        (C, T, UzCyrl, "ҳар ойнинг биринчи душанбаси ҳисобот", due("2026-04-06 09:00", "ҳисобот").every("FREQ=MONTHLY;BYDAY=1MO")),
        (C, T, Ru, "хар ойнинг охирги жумаси хисобот", due("2026-04-24 09:00", "хисобот").every("FREQ=MONTHLY;BYDAY=-1FR")),
        (C, T, UzCyrl, "ойнинг охирги жумаси ҳисобот", due("2026-04-24 09:00", "ҳисобот")),
        (C, T, UzCyrl, "ойнинг биринчи душанбаси соат 10 да йиғилиш", due("2026-04-06 10:00", "йиғилиш")),
        (C, T, UzCyrl, "ду чо жу 9:00 спорт", due("2026-03-30 09:00", "спорт").every(mon_wed_fri)),
        (C, T, UzCyrl, "душанба, чоршанба ва жума 7:00 спорт", due("2026-03-30 07:00", "спорт").every(mon_wed_fri)),
        (C, T, UzCyrl, "ду-жу соат 9 да йиғилиш", due("2026-03-30 09:00", "йиғилиш").every(workdays)),
        (C, T, UzCyrl, "шанба-якшанба соат 10 да тозалаш", due("2026-03-28 10:00", "тозалаш").every("FREQ=WEEKLY;BYDAY=SA,SU")),
        (C, T, UzCyrl, "ҳар куни дам олиш кунларидан ташқари соат 8 да йиғилиш", due("2026-03-30 08:00", "йиғилиш").every(workdays)),
        (C, T, Ru, "хар куни дам олиш кунларидан ташкари соат 8 да йигилиш", due("2026-03-30 08:00", "йигилиш").every(workdays)),
        (C, T, UzCyrl, "ҳар 30 дақиқада почтани текшириш", due("2026-03-27 12:46", "почтани текшириш").every("FREQ=MINUTELY;INTERVAL=30;DTSTART=20260327T074600Z")),
        (C, T, Ru, "хар 30 дакикада почтани текшириш", due("2026-03-27 12:46", "почтани текшириш").every("FREQ=MINUTELY;INTERVAL=30;DTSTART=20260327T074600Z")),
        (C, T, UzCyrl, "ҳар 15 дақиқада сув ичиш", due("2026-03-27 12:31", "сув ичиш").every("FREQ=MINUTELY;INTERVAL=15;DTSTART=20260327T073100Z")),
        (C, T, UzCyrl, "ҳар 2 дақиқада чўзилиш", fails(DueError::RepeatTooOften { every_secs: 120 })),
        (C, T, UzCyrl, "шу дам олиш кунлари кир ювиш", due("2026-03-28 09:00", "кир ювиш")),
        (C, T, UzCyrl, "ҳафта охирида кир ювиш", due("2026-03-28 09:00", "кир ювиш")),
        (C, T, Ru, "хафта охирида тозалаш", due("2026-03-28 09:00", "тозалаш")),
        (C, T, UzCyrl, "келаси дам олиш кунлари саёҳат", due("2026-04-04 09:00", "саёҳат")),
        (C, T, UzCyrl, "2 кундан кейин қўнғироқ", due("2026-03-29 12:16", "қўнғироқ")),
        (C, T, UzCyrl, "ҳар куни соат 9 да дори 1-мартгача", due("2026-03-28 09:00", "дори").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270301")),
        (C, T, UzCyrl, "ҳар куни соат 9 да дори 10 марта", due("2026-03-28 09:00", "дори").every("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10")),
        (C, T, UzCyrl, "бажарилгандан 3 кун кейин гулларга сув", due("2026-03-28 09:00", "гулларга сув").every(every_3_days_done)),
        (C, T, UzCyrl, "ҳисоботни соат 18 гача топшириш", due("2026-03-27 18:00", "ҳисоботни топшириш")),
        (C, T, UzCyrl, "эртага соат 10 да вебинар ҳақида эслат", due("2026-03-28 10:00", "вебинар")),
        (C, T, UzCyrl, "ҳар куни соат 7:00 да югуриш", due("2026-03-28 07:00", "югуриш").every("FREQ=DAILY").sure()),
        (C, T, UzCyrl, "кун ора гулларга сув", due("2026-03-28 09:00", "гулларга сув").every("FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;DTSTART=20260328")),
        (C, T, Ru, "хар куни соат 21 да дори", due("2026-03-27 21:00", "дори").every("FREQ=DAILY")),
        (C, T, UzCyrl, "ҳар душанба соат 10 да йиғилиш", due("2026-03-30 10:00", "йиғилиш").every("FREQ=WEEKLY;BYDAY=MO")),
        (C, T, UzCyrl, "бугун соат 20:00 да китоб", due("2026-03-27 20:00", "китоб")),
        (C, T, UzCyrl, "ҳар ой охирида ижара", due("2026-03-31 09:00", "ижара").every("FREQ=MONTHLY;BYMONTHDAY=-1")),
        (C, T, Ru, "эртага соат 9 да спорт", due("2026-03-28 09:00", "спорт")),
        (C, T, UzCyrl, "индинга соат 10 да учрашув", due("2026-03-29 10:00", "учрашув")),
        (C, T, UzCyrl, "ҳар ойнинг 15-куни тўлов", due("2026-04-15 09:00", "тўлов").every("FREQ=MONTHLY;BYMONTHDAY=15")),
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
        (En, s("32.12"), fails(DueError::InvalidDate { day: 32, month: 12, year: None })),
        // Past any day and any month, a pair of numbers is no date: a price ("84.50").
        (En, s("32.13"), fails(DueError::NoTime)),
        (En, s("x 32.13.2026"), fails(DueError::InvalidDate { day: 32, month: 13, year: Some(2026) })),
        // A day or month 0 without a year is no date ("shipping 2.0": a version).
        (En, s("x 0.0"), fails(DueError::NoTime)),
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
        (En, s("report today 09:00"), fails(in_past("2026-03-27 09:00"))),
        (En, s("report today"), due("2026-03-27 11:00", "report").noted("TimeNotSaid { chosen: 11:00:00 }")),
        (Ru, s("сегодня в 8 отчёт"), due("2026-03-27 20:00", "отчёт")),
        (Ru, s("сегодня в 08:00 отчёт"), fails(in_past("2026-03-27 08:00"))),
        (Uz, s("bugun soat 8 da hisobot"), due("2026-03-27 20:00", "hisobot")),
        (Uz, s("bugun soat 08:00 da hisobot"), fails(in_past("2026-03-27 08:00"))),
        (En, s("yesterday call"), fails(in_past("2026-03-26 09:00"))),
        (Ru, s("вчера позвонить"), fails(in_past("2026-03-26 09:00"))),
        (En, s("12/31/2025 x"), fails(in_past("2025-12-31 09:00"))),
        (Ru, s("каждое 32 число x"), fails(DueError::InvalidDayOfMonth { day: 32 })),
        (En, s("every month on the 0th x"), fails(DueError::InvalidDayOfMonth { day: 0 })),
        (En, s("every 5000 days x"), fails(DueError::NoTime)),
        (En, s("every 0 days x"), fails(DueError::NoTime)),
        (En, s("every 10 minutes x"), due("2026-03-27 10:10", "x").every("FREQ=MINUTELY;INTERVAL=10;DTSTART=20260327T091000Z")),
        (En, s("every 30 february x"), fails(DueError::InvalidDate { day: 30, month: 2, year: None })),
        (En, s("dentist on the 32nd"), fails(DueError::InvalidDayOfMonth { day: 32 })),
        (En, s("this morning gym"), due("2026-03-27 11:00", "gym").noted("TimeNotSaid { chosen: 11:00:00 }")),
        (En, s("tonight"), fails(DueError::EmptyText)),
        (Ru, s("каждые 2 недели"), fails(DueError::EmptyText)),
        (Uz, s("эртага"), fails(DueError::EmptyText)),
        (Ru, s("без пятнадцати x"), fails(DueError::NoTime)),
        (En, s("half past x"), fails(DueError::NoTime)),
        (En, s("call 10 to 5 people"), fails(DueError::NoTime)),
        (En, s("sundae with mom"), fails(DueError::NoTime)),
        (Ru, s("череп динозавра"), fails(DueError::NoTime)),
        (Uz, s("burun tomchisi"), fails(DueError::NoTime)),
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
        (En, s("⏰⏰⏰ 09:00"), due("2026-03-28 09:00", "⏰⏰⏰")),
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
    if let Some(noted) = e.noted
        && !format!("{:?}", p.assumptions).contains(noted)
    {
        out.push(format!("assumed {:?}, want {noted}", p.assumptions));
    }
    if let Some(unnoted) = e.unnoted
        && format!("{:?}", p.assumptions).contains(unnoted)
    {
        out.push(format!("assumed {:?}, want no {unnoted}", p.assumptions));
    }
    if let Some(words) = e.unplaced
        && !p.unplaced.iter().any(|u| u.words == words)
    {
        out.push(format!("unplaced {:?}, want {words:?}", p.unplaced));
    }
    if e.nothing_unplaced && !p.unplaced.is_empty() {
        out.push(format!("unplaced {:?}, want none", p.unplaced));
    }
    if let Some(want) = e.choice {
        let local = |t: chrono::DateTime<Utc>| t.with_timezone(&tz).naive_local();
        let got = p
            .choice
            .map(|c| (local(c.morning.due), local(c.evening.due)));
        let want = want.map(|(m, e)| (naive(m), naive(e)));
        if got != want {
            out.push(format!("choice {got:?}, want {want:?}"));
        }
    }
    if let Some(want) = e.second {
        let got = p.second.as_ref().map(|second| {
            (
                second.due.with_timezone(&tz).naive_local(),
                second.text.as_str(),
            )
        });
        if got != want.map(|at| (naive(at), e.text)) {
            out.push(format!("second {got:?}, want {want:?}"));
        }
    }
    match (e.rule, &p.recurrence) {
        (None, None) => {}
        (Some(rule), Some(r)) => {
            let full = if ["DTSTART", "FREQ=HOURLY", "FREQ=MINUTELY", "BYSECOND"]
                .iter()
                .any(|part| rule.contains(part))
            {
                rule.to_owned()
            } else if rule.contains("BYHOUR") {
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
            let sought_from = if e.starts_later {
                p.due - chrono::Duration::seconds(1)
            } else {
                now
            };
            if r.next_after(sought_from, tz) != p.due {
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
    assert!(rows.len() >= 340, "only {} rows", rows.len());
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

/// Issue 24's rows: at least 150, at least 40 in each script, all as the table says.
#[test]
fn issue_24_table() {
    let rows = issue_24_rows();
    assert!(rows.len() >= 150, "only {} rows", rows.len());
    let scripts = [Script::En, Script::Ru, Script::UzLatn, Script::UzCyrl]
        .map(|script| rows.iter().filter(|r| r.0 == script).count());
    assert!(
        scripts.iter().all(|n| *n >= 40),
        "rows per script (en, ru, uz, uz-Cyrl): {scripts:?}"
    );
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(_, scene, lang, input, want)| check(*scene, *lang, input, want))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// Which tasks a chat may save before it knows the user's zone: those whose moment is the same
/// in every zone (an elapsed time from now), and no other.
#[test]
fn zone_free_tasks_are_told_apart() {
    let now = Utc.with_ymd_and_hms(2026, 3, 27, 11, 16, 0).unwrap();
    let rows = [
        ("remind me to buy milk in 2 minutes", En, true),
        ("через 2 часа позвонить маме", Ru, true),
        ("10 daqiqadan keyin choy", Uz, true),
        ("every 3 hours drink water", En, true),
        ("каждые 30 минут размяться", Ru, true),
        ("завтра в 9 позвонить маме", Ru, false),
        ("call mom in 2 days", En, false),
        ("call the office at 10:00", En, false),
        ("every day at 9 pills", En, false),
        ("har 3 soatda soat 9 dan suv", Uz, false),
    ];
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(input, lang, free)| {
            let got = parse_due(input, *lang, now, Tz::Asia__Tashkent).map(|p| p.zone_free);
            (got != Ok(*free)).then(|| format!("{input:?}: {got:?}, want {free}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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

/// How a confirmation names the repeat a phrase asked for, in each language: its days and its
/// interval, never just "every week".
#[test]
fn repeats_are_named_with_their_days_and_interval() {
    #[rustfmt::skip]
    let rows: Vec<(&str, [&str; 3])> = vec![
        ("every day at 9 x", ["every day", "каждый день", "har kuni"]),
        ("every weekday at 9 x", ["on weekdays", "по будням", "ish kunlari"]),
        ("every friday at 18:00 x", ["every Friday", "каждую пятницу", "har juma"]),
        ("every sunday x", ["every Sunday", "каждое воскресенье", "har yakshanba"]),
        ("every tuesday and thursday at 19:00 x", ["every Tuesday and Thursday", "по вторникам и четвергам", "har seshanba va payshanba"]),
        ("every mon, wed and fri x", ["every Monday, Wednesday and Friday", "по понедельникам, средам и пятницам", "har dushanba, chorshanba va juma"]),
        ("every 2 weeks on tuesday and thursday x", ["every 2 weeks on Tuesday and Thursday", "каждые 2 недели по вторникам и четвергам", "har 2 haftada seshanba va payshanba"]),
        ("every 5 weeks on monday x", ["every 5 weeks on Monday", "каждые 5 недель по понедельникам", "har 5 haftada dushanba"]),
        ("every 2 days x", ["every 2 days", "каждые 2 дня", "har 2 kunda"]),
        ("every 21 days x", ["every 21 days", "каждый 21 день", "har 21 kunda"]),
        ("every 5 days x", ["every 5 days", "каждые 5 дней", "har 5 kunda"]),
        ("every hour x", ["every hour", "каждый час", "har soatda"]),
        ("every 3 hours x", ["every 3 hours", "каждые 3 часа", "har 3 soatda"]),
        ("every 6 hours x", ["every 6 hours", "каждые 6 часов", "har 6 soatda"]),
        ("every month on the 15th x", ["every month on day 15", "каждый месяц, 15-го числа", "har oyning 15-kuni"]),
        ("every 3 months on the 15th x", ["every 3 months on day 15", "каждые 3 месяца, 15-го числа", "har 3 oyda, 15-kuni"]),
        ("every month on the last day x", ["every month on the last day", "каждый месяц в последний день", "har oyning oxirgi kuni"]),
        ("every 2 months on the last day x", ["every 2 months on the last day", "каждые 2 месяца в последний день", "har 2 oyda, oyning oxirgi kuni"]),
        ("every year on 14 Feb x", ["every year on 14 February", "каждый год 14 февраля", "har yili 14-fevral"]),
        ("every 2 years on 1 September x", ["every 2 years on 1 September", "каждые 2 года 1 сентября", "har 2 yilda, 1-sentabr"]),
        ("every other friday x", ["every 2 weeks on Friday", "каждые 2 недели по пятницам", "har 2 haftada juma"]),
        ("first monday of every month x", ["every month on the first Monday", "каждый месяц в первый понедельник", "har oyning birinchi dushanbasi"]),
        ("every last friday x", ["every month on the last Friday", "каждый месяц в последнюю пятницу", "har oyning oxirgi jumasi"]),
        ("every second sunday of the month x", ["every month on the second Sunday", "каждый месяц во второе воскресенье", "har oyning ikkinchi yakshanbasi"]),
        ("every 30 minutes x", ["every 30 minutes", "каждые 30 минут", "har 30 daqiqada"]),
        ("mon wed fri x", ["every Monday, Wednesday and Friday", "по понедельникам, средам и пятницам", "har dushanba, chorshanba va juma"]),
    ];
    let now = Utc.with_ymd_and_hms(2026, 3, 27, 9, 0, 0).unwrap();
    let mut failures = Vec::new();
    for (input, wants) in &rows {
        let rule = parse_due(input, En, now, Tz::Europe__Berlin)
            .ok()
            .and_then(|p| p.recurrence)
            .unwrap_or_else(|| panic!("{input:?} is no repeat"));
        for (lang, want) in [En, Ru, Uz].into_iter().zip(wants) {
            let got = repeats_text(Tr::new(lang), &rule);
            if got != *want {
                failures.push(format!("{input:?} in {lang:?}: {got:?}, want {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
