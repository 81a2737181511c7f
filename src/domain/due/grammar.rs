//! The grammar of time phrases: each rule recognizes one phrase part (an
//! [`Item`]) starting at a token, in any of the three languages.

mod amount;
mod calendar;
mod clock;
mod cursor;
mod end;
mod holiday;
mod label;
mod number;
mod ordinal;
mod repeat;
mod span;
mod zone;

use chrono::{Weekday, WeekdaySet};
use chrono_tz::Tz;

use crate::domain::recurrence::WeekOfMonth;

use super::keys::{Key, Period, Unit};

pub(super) use clock::is_infinitive;
pub(super) use cursor::{Cursor, Lexed, closing_quote};

/// A duration as typed: elapsed seconds plus calendar days and months, kept
/// apart because days and months keep the wall-clock time across DST.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Span {
    /// Elapsed seconds (from seconds, minutes and hours).
    pub seconds: u64,
    /// Calendar days (from days and weeks).
    pub days: u64,
    /// Calendar months.
    pub months: u64,
}

impl Span {
    /// Whether only calendar units were given ("in 2 days"), which may be
    /// combined with a time of day.
    pub fn is_calendar_only(&self) -> bool {
        self.seconds == 0 && (self.days > 0 || self.months > 0)
    }

    fn plus(self, other: Span) -> Span {
        Span {
            seconds: self.seconds.saturating_add(other.seconds),
            days: self.days.saturating_add(other.days),
            months: self.months.saturating_add(other.months),
        }
    }

    /// `tenths / 10` of `unit`, or `None` if that is not a whole number of
    /// seconds, or a fraction of a calendar unit.
    fn of(tenths: u64, unit: Unit) -> Option<Span> {
        let whole = |n: u64| n.is_multiple_of(10).then_some(n / 10);
        // An amount too large to count is kept as "too large" (and later
        // rejected as too far ahead), not mistaken for a fraction.
        let seconds = |per: u64| tenths.checked_mul(per).map_or(Some(u64::MAX), whole);
        Some(match unit {
            Unit::Second => Span {
                seconds: seconds(1)?,
                ..Span::default()
            },
            Unit::Minute => Span {
                seconds: seconds(60)?,
                ..Span::default()
            },
            Unit::Hour => Span {
                seconds: seconds(3600)?,
                ..Span::default()
            },
            Unit::Day => Span {
                days: whole(tenths)?,
                ..Span::default()
            },
            Unit::Week => Span {
                days: whole(tenths)?.saturating_mul(7),
                ..Span::default()
            },
            Unit::Month => Span {
                months: whole(tenths)?,
                ..Span::default()
            },
            Unit::Year => Span {
                months: whole(tenths)?.saturating_mul(12),
                ..Span::default()
            },
        })
    }
}

/// A day named in the phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DayRef {
    /// Yesterday: always in the past.
    Yesterday,
    /// Today.
    Today,
    /// Tomorrow.
    Tomorrow,
    /// The day after tomorrow.
    DayAfterTomorrow,
    /// A weekday; `next` means the one in next week (weeks start on Monday).
    Weekday {
        /// Which weekday.
        day: Weekday,
        /// Whether "next" was said.
        next: bool,
    },
    /// "next week", "на следующей неделе", "keyingi hafta": its Monday unless a weekday is said.
    NextWeek,
    /// "end of the month", "в конце месяца", "oy oxirida": the last day of this month.
    EndOfMonth,
    /// "the last working day of the month", "в последний рабочий день месяца", "oyning oxirgi
    /// ish kuni": this month's last day from Monday to Friday (next month's once it passed).
    MonthLastWorkingDay,
    /// "end of next week", "в конце следующей недели", "keyingi hafta oxirida": next week's
    /// Friday, the last working day.
    NextWeekEnd,
    /// "next month", "в следующем месяце", "keyingi oy": its 1st, unless a day is said.
    NextMonth,
    /// "on the 30th of next month", "28 числа следующего месяца", "next month on the 5th": that
    /// day of next month.
    NextMonthDay(u32),
    /// "end of next month", "в конце следующего месяца", "keyingi oy oxirida": its last day.
    NextMonthEnd,
    /// "end of the quarter", "в конце квартала", "chorak oxirida": the last day of this
    /// quarter (of the next, once its time has passed).
    QuarterEnd,
    /// "at the beginning of the month", "в начале месяца", "oy boshida": the next month's 1st.
    MonthStart,
    /// "in 2 weeks on thursday", "через 2 недели в среду", "ikki haftadan keyin chorshanba
    /// kuni": that weekday nearest to the day so many weeks on.
    WeekdayInWeeks {
        /// How many weeks after this one.
        weeks: u32,
        /// The weekday.
        day: Weekday,
    },
    /// A holiday by its name ("christmas eve", "yangi yil arafasida"): its next date, today's
    /// while the time is ahead.
    Holiday {
        /// Its day of the month.
        day: u32,
        /// Its month.
        month: u32,
    },
    /// "end of April", "в конце апреля", "до конца апреля", "aprel oxirida": the last day of the
    /// next such month (this year's while it is ahead).
    MonthEnd(u32),
    /// "until january", "до мая", "yanvargacha": the last day before that month, which ends a
    /// repeat (with no repeat it is no time: "продлить страховку до мая").
    BeforeMonth(u32),
    /// "this weekend", "на выходных", "shu dam olish kunlari": one weekend's Saturday (or its
    /// Sunday, once Saturday's time has passed); `next` for next week's ("next weekend").
    Weekend {
        /// Whether "next" was said.
        next: bool,
    },
    /// "the first monday of the month", "в последнюю пятницу месяца", "oyning birinchi
    /// dushanbasi": the next such day (this month's, or next month's once it has passed).
    NthWeekday {
        /// Which of the month's such weekdays.
        week: WeekOfMonth,
        /// The weekday.
        day: Weekday,
    },
    /// "on the 15th", "15 числа", "15-sanasida": the next 15th (as typed, not yet checked).
    MonthDay(u32),
    /// A calendar date as typed, not yet validated.
    Date {
        /// Day of month as typed (up to 99).
        day: u32,
        /// Month as typed (up to 99).
        month: u32,
        /// Full year if given (two-digit years already mean 20xx).
        year: Option<u64>,
    },
}

impl DayRef {
    /// Whether the words of this day are also ordinary text ("christmas eve menu", "в конце
    /// квартала налево", "start of the month"): a day or time elsewhere in the message comes
    /// first, and left in the text they are not said to be left out.
    pub fn is_occasion(self) -> bool {
        matches!(
            self,
            DayRef::Holiday { .. } | DayRef::QuarterEnd | DayRef::MonthStart
        )
    }
}

/// A clock time as typed, not yet validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Clock {
    /// The hour as typed (up to 99).
    pub hour: u32,
    /// The minute as typed (up to 99).
    pub minute: u32,
    /// `Some(false)` for am, `Some(true)` for pm.
    pub meridiem: Option<bool>,
    /// Written so that it can only be one time of day: as on a 24-hour clock's face (`9:30`,
    /// `09:30`, `12:30`, `21.00`), with a leading zero (`09`), or as noon or midnight.
    pub exact: bool,
    /// The word midnight ("midnight", "полночь", "yarim tunda"), which ends the day it is on.
    pub midnight: bool,
}

impl Clock {
    /// A time as typed on the clock, not yet read as am or pm.
    pub fn at(hour: u32, minute: u32) -> Clock {
        Clock {
            hour,
            minute,
            ..Clock::default()
        }
    }
}

/// A recurrence as typed: which days, every how many periods, and whether it counts from when
/// it was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Repeat {
    /// On which days (or minutes, or hours).
    pub kind: RepeatRef,
    /// Every how many seconds, minutes, hours, days, weeks, months or years ("every 2 weeks");
    /// 1 if not said.
    pub every: u32,
    /// Whether the next one counts from when the last was done ("3 days after done",
    /// "every! 3 days", "через 3 дня после выполнения", "bajarilgandan 3 kun keyin").
    pub from_done: bool,
}

impl Repeat {
    /// Every single period.
    pub fn each(kind: RepeatRef) -> Repeat {
        Repeat::every(kind, 1)
    }

    /// Every `every` periods.
    pub fn every(kind: RepeatRef, every: u32) -> Repeat {
        Repeat {
            kind,
            every,
            from_done: false,
        }
    }
}

/// On which days a recurrence falls, as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RepeatRef {
    /// Every so many seconds ("every 30 seconds"): too often to be a repeat.
    Secondly,
    /// Every so many minutes ("every 30 minutes").
    Minutely,
    /// Every so many hours ("every 3 hours").
    Hourly,
    /// Every day.
    Daily,
    /// Monday to Friday.
    Weekdays,
    /// On these weekdays.
    Weekly(WeekdaySet),
    /// On this weekday of today ("every week").
    WeeklyToday,
    /// On this day of every month, as typed (not yet checked to be 1–31).
    MonthlyOnDay(u32),
    /// On today's day of the month ("every month").
    MonthlyToday,
    /// On the last day of every month.
    MonthlyLastDay,
    /// On one weekday of one week of every month ("the first monday of every month").
    MonthlyOnWeekday {
        /// Which of the month's such weekdays.
        week: WeekOfMonth,
        /// The weekday.
        day: Weekday,
    },
    /// On this date every year, as typed (not yet checked to exist).
    Yearly {
        /// Day of month as typed.
        day: u32,
        /// Month as typed.
        month: u32,
    },
    /// On today's date every year ("every year").
    YearlyToday,
}

/// One part of a time phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Item {
    /// "in 2 hours", "через 2 часа", "2 soatdan keyin".
    Relative(Span),
    /// A relative time read with a guess that the chat says ([`RelativeGuess`]).
    RelativeGuessed(Span, RelativeGuess),
    /// "tomorrow", "в пятницу", "5-dekabr".
    Day(DayRef),
    /// "at 9", "21:00", "9 pm".
    Time(Clock),
    /// "in the evening", "утром", "kechqurun", "вечера", "evening".
    Period {
        /// Which part of the day.
        period: Period,
        /// How it was said, which decides what it may do.
        word: PeriodWord,
    },
    /// "tonight", "this evening", "this morning": today at that part of the day.
    DayPeriod(DayRef, Period),
    /// "every monday", "каждое утро" (with the part of day it implies).
    Repeat(Repeat, Option<Period>),
    /// "30 min before", "за 30 минут", "30 daqiqa oldin".
    Lead(Span),
    /// "until March 1", "до пятницы", "1-martgacha": a repeat's last day, or a deadline.
    Until(DayRef),
    /// "starting monday", "с понедельника", "dushanbadan boshlab": a repeat's first day (with no
    /// repeat, the day itself).
    Start(DayRef),
    /// "10 times", "10 раз", "10 marta": how many occurrences a repeat has.
    Count(u32),
    /// "for 10 days", "в течение 2 недель", "14 дней", "10 kun davomida": how long a repeat
    /// lasts (days, weeks or months).
    Lasting(Span),
    /// "по мск", "UTC", "Moscow time", "Toshkent vaqti bilan": the zone the time is said in.
    Zone(Tz),
}

/// What reading a relative time took a guess on, which the chat says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RelativeGuess {
    /// "order pizza in 20", "перезвони через 15": the unit was left unsaid, and minutes taken.
    MinutesUnsaid,
    /// "через день": the day after today, which Russian also says of every other day.
    InADay,
}

/// How a part of the day was said, which decides what it may do in a phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PeriodWord {
    /// With a marker or as an adverb ("in the evening", "вечером", "kechqurun", "в обед"): it
    /// stands for a time by itself.
    Alone,
    /// Russian's genitive after an hour ("в 9 вечера", "9:30 утра"): the half of the day of
    /// that hour.
    OfHour,
    /// A bare noun or adjective ("evening", "вечер", "kechki"): a part of the day after a day
    /// ("friday night") or before a time ("evening 8:00"); after a time it names the task
    /// ("9:00 night shift", "soat 10 da kechki ovqat").
    Noun,
}

/// What the rules may assume from the phrase parts already read.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Context {
    /// A bare number may be an hour ("завтра 9", "ertalab 8").
    pub bare_hour: bool,
    /// A day is already known, so `10.11` is a time rather than a date.
    pub has_day: bool,
    /// That day is a weekday alone, which a date may follow: "пн 6.04 в 15" is 6 April when
    /// that is a Monday (and "пт 9.05" 09:05 on Friday).
    pub weekday: Option<Weekday>,
    /// A repeat of hours or minutes is already read, so a bare hour after "from" or "с" is
    /// where it starts ("каждые 3 часа с 8", "every hour from 10 tomorrow").
    pub after_elapsed_repeat: bool,
}

type Rule = fn(&mut Cursor<'_>, Context) -> Option<Item>;

/// Rules in priority order: the first that matches wins.
const RULES: [Rule; 20] = [
    repeat::repeat,
    span::stretch_of_days,
    end::until,
    calendar::night_between,
    end::starting,
    end::count,
    amount::lead,
    amount::relative,
    end::lasting,
    calendar::nth_weekday,
    calendar::span_day,
    calendar::date,
    holiday::holiday,
    calendar::day_word,
    calendar::weekday,
    clock::spoken_time,
    span::range,
    clock::time,
    clock::period,
    zone::zone,
];

/// The phrase part starting at token `at`, and the index just past it.
pub(super) fn parse_item(lexed: &Lexed, at: usize, context: Context) -> Option<(Item, usize)> {
    RULES.iter().find_map(|rule| {
        let mut cursor = Cursor::new(lexed, at);
        rule(&mut cursor, context).map(|item| (item, cursor.pos()))
    })
}

/// The duration that the whole of `lexed` spells ("30 min", "2 hrs", "полтора часа"), if it is
/// one and nothing else.
pub(super) fn parse_duration(lexed: &Lexed) -> Option<Span> {
    let mut cursor = Cursor::new(lexed, 0);
    let span = amount::standalone(&mut cursor)?;
    (cursor.pos() == lexed.len()).then_some(span)
}

/// Picks a period meaning.
fn period_key(key: Key) -> Option<Period> {
    match key {
        Key::Period(p) => Some(p),
        _ => None,
    }
}

/// Picks a unit meaning, in any case (`soat`, `soatdan`).
fn unit_key(key: Key) -> Option<Unit> {
    match key {
        Key::Unit(u) | Key::UnitFrom(u) => Some(u),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lang::Lang;

    fn item(input: &str, context: Context) -> Option<Item> {
        let lexed = Lexed::new(input, Lang::Ru);
        parse_item(&lexed, 0, context)
            .filter(|(_, end)| *end == lexed.len())
            .map(|(item, _)| item)
    }

    fn date(day: u32, month: u32) -> Option<Item> {
        Some(Item::Day(DayRef::Date {
            day,
            month,
            year: None,
        }))
    }

    fn time(hour: u32, minute: u32) -> Option<Item> {
        Some(Item::Time(Clock::at(hour, minute)))
    }

    /// A time written as on a clock's face, `H:MM`: a 24-hour time.
    fn face(hour: u32, minute: u32) -> Option<Item> {
        Some(Item::Time(Clock {
            exact: true,
            ..Clock::at(hour, minute)
        }))
    }

    #[test]
    fn dotted_numbers_are_dates_or_times_by_what_they_can_be() {
        let fresh = Context::default();
        let after_day = Context {
            bare_hour: true,
            has_day: true,
            ..Context::default()
        };
        assert_eq!(item("31.12", fresh), date(31, 12));
        assert_eq!(item("21.00", fresh), face(21, 0));
        assert_eq!(item("9.30", fresh), face(9, 30));
        assert_eq!(item("10.11", fresh), date(10, 11));
        assert_eq!(item("10.11", after_day), face(10, 11));
        assert_eq!(item("5.3", after_day), date(5, 3));
    }

    #[test]
    fn bare_numbers_need_a_cue_to_be_hours() {
        let after_day = Context {
            bare_hour: true,
            has_day: true,
            ..Context::default()
        };
        assert_eq!(item("9", Context::default()), None);
        assert_eq!(item("9", after_day), time(9, 0));
        assert_eq!(item("в 9", Context::default()), time(9, 0));
    }

    fn repeat(input: &str, lang: Lang) -> Option<Repeat> {
        let lexed = Lexed::new(input, lang);
        match parse_item(&lexed, 0, Context::default()) {
            Some((Item::Repeat(repeat, _), end)) if end == lexed.len() => Some(repeat),
            _ => None,
        }
    }

    /// The part read at word `at` of `input`, whatever follows it.
    fn item_at(input: &str, lang: Lang, at: usize) -> Option<Item> {
        parse_item(&Lexed::new(input, lang), at, Context::default()).map(|(item, _)| item)
    }

    #[test]
    fn a_span_of_weekdays_before_a_time_is_a_schedule_unless_a_stretch_or_a_move_is_named() {
        let weekdays = Some(Item::Repeat(
            Repeat::each(RepeatRef::Weekly(crate::domain::recurrence::WORKING_DAYS)),
            None,
        ));
        let is_repeat = |item: Option<Item>| matches!(item, Some(Item::Repeat(..)));
        assert_eq!(
            item_at("зарядка с понедельника по пятницу в 7", Lang::Ru, 1),
            weekdays
        );
        assert_eq!(
            item_at("standup monday to friday at 9:45", Lang::En, 1),
            weekdays
        );
        assert!(!is_repeat(item_at(
            "перенести йогу с понедельника по пятницу в 17",
            Lang::Ru,
            2
        )));
        assert!(!is_repeat(item_at(
            "book a hotel from monday to friday at 3pm",
            Lang::En,
            3
        )));
        assert_eq!(
            item_at("after the trip, gym monday to friday at 7am", Lang::En, 5),
            weekdays
        );
        assert!(!is_repeat(item_at(
            "отпуск с понедельника по пятницу, завтра в 10",
            Lang::Ru,
            1
        )));
    }

    #[test]
    fn repeats_people_use() {
        use chrono::Weekday::{Fri, Mon, Sat, Sun, Wed};
        let weekly = |days: &[Weekday]| RepeatRef::Weekly(days.iter().copied().collect());
        let cases = [
            ("every other friday", Lang::En, weekly(&[Fri]), 2),
            ("каждую вторую пятницу", Lang::Ru, weekly(&[Fri]), 2),
            ("har ikkinchi juma", Lang::Uz, weekly(&[Fri]), 2),
            ("mon wed fri", Lang::En, weekly(&[Mon, Wed, Fri]), 1),
            ("du cho ju", Lang::Uz, weekly(&[Mon, Wed, Fri]), 1),
            ("sat-sun", Lang::En, weekly(&[Sat, Sun]), 1),
            ("every 30 minutes", Lang::En, RepeatRef::Minutely, 30),
            (
                "every day except sunday",
                Lang::En,
                weekly(&[
                    Mon,
                    chrono::Weekday::Tue,
                    Wed,
                    chrono::Weekday::Thu,
                    Fri,
                    Sat,
                ]),
                1,
            ),
            (
                "first monday of every month",
                Lang::En,
                RepeatRef::MonthlyOnWeekday {
                    week: WeekOfMonth::First,
                    day: Mon,
                },
                1,
            ),
        ];
        for (input, lang, kind, every) in cases {
            let got = repeat(input, lang).map(|r| (r.kind, r.every));
            assert_eq!(got, Some((kind, every)), "{input}");
        }
        let done = repeat("every! 2 weeks", Lang::En).expect("a repeat");
        assert_eq!(
            (done.kind, done.every, done.from_done),
            (RepeatRef::Daily, 14, true)
        );
        assert_eq!(repeat("pay", Lang::En), None);
        assert_eq!(repeat("пятницу я", Lang::Ru), None);
    }

    #[test]
    fn spans_keep_elapsed_and_calendar_units_apart() {
        let span = |input| match item(input, Context::default()) {
            Some(Item::Relative(span)) => Some(span),
            _ => None,
        };
        assert_eq!(
            span("через 1 час 30 минут"),
            Some(Span {
                seconds: 5400,
                ..Span::default()
            })
        );
        assert_eq!(
            span("in 2 weeks"),
            Some(Span {
                days: 14,
                ..Span::default()
            })
        );
        assert_eq!(span("in 1.5 days"), None);
    }
}
