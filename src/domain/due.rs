//! The due-date parser: finds the time phrase in a message in English,
//! Russian or Uzbek (Latin or Cyrillic), resolves it in the user's zone, and returns the task
//! text without it, with what it assumed ([`Assumption`]) and the time words it could not
//! place ([`Unplaced`]).
//!
//! Decisions worth knowing:
//! - all three languages are accepted whatever the user's language; the
//!   hint only breaks ties (`5/6` is 6 May for English, 5 June otherwise);
//! - Uzbek in Cyrillic: every Cyrillic word is read as Russian and also, through
//!   [`uz_cyrillic_to_latin`](crate::domain::script::uz_cyrillic_to_latin), as Uzbek, so
//!   "эртага соат 9 да" parses like "ertaga soat 9 da" and Russian stays Russian without a
//!   guess about the whole message; a Cyrillic word that means nothing else is read as typed
//!   on a Russian keyboard, х к г у standing for ҳ қ ғ ў ("хар жума", "5 дакикадан кейин");
//!   a full weekday name is a day whatever its length ("шанба", "жума"); the task text keeps
//!   the script it was written in, and [`written_in`] tells a chat which language and script a
//!   message is in (Uzbek in Cyrillic by its words, not only by ў қ ғ ҳ);
//! - relative times keep elapsed time ("in 2 hours" is exactly `now + 2h`,
//!   seconds kept), while day-based phrases ("in 2 days", "tomorrow",
//!   "every day", "every 2 weeks") keep the wall-clock time across DST; "every 3 hours" and
//!   "every 30 minutes" keep elapsed time and start one interval from now (or at the time
//!   said); a repeat more often than every 5 minutes is [`DueError::RepeatTooOften`] (nagging
//!   is what the user wants then); "2 days from now" is "in 2 days";
//! - no silent misreadings: whatever the parser chose for the user is listed in
//!   [`ParsedDue::assumptions`], time words it could not use stay in the text and are listed in
//!   [`ParsedDue::unplaced`] (a chat must say so, above all when one is a repeat); a repeat word
//!   left in the text of a task that repeats ("every friday 4pm send weekly report") is no
//!   failed repeat and is not listed, a weekday word left in it is;
//! - a date or day without a time is at [`DEFAULT_TIME`]; a part of the day
//!   alone means 09:00 (morning), 13:00 (lunch: "в обед", "at lunch", "tushlikda"), 14:00
//!   (afternoon, "after lunch"), 19:00 (evening, "tonight", "this evening", "вечером",
//!   "kechqurun") or 22:00 (night); both noted as [`Assumption::TimeNotSaid`]. A part of the
//!   day stands for a time by itself only as an adverb or with a marker ("вечером", "in the
//!   evening", "kechqurun"), not as a noun ("evening walk");
//! - a time written as on a clock's face, `H:MM` or `H.MM` ("10:00", "7:00", "6:30", "21.00"),
//!   is a 24-hour time in every language, as everywhere the bot is used: "call the office at
//!   10:00" at 12:16 is tomorrow's 10:00, never 22:00, and nothing is assumed, so the advice
//!   "send 10:00" of a note gives 10:00. One exception: in English a face with an hour from 1
//!   to 5 and no leading zero ("at 4:30") is read as a bare hour is, since English writes the
//!   afternoon so ("04:30" stays 04:30);
//! - a bare hour from 1 to 12 ("at 6", "в 6", "soat 6 da", "at five") without am/pm or a part
//!   of the day may be either side of noon, and the choice is noted
//!   ([`Assumption::HourWithoutAmPm`]). Words of waking up or of the morning anywhere in the
//!   message ("wake me up", "разбуди", "подъём", "uyg'otib qo'y", "morning", "утром",
//!   "ertalab") read it in the morning, words of the evening ("evening", "вечером", "kechki") in
//!   the evening. Otherwise: with no day said it is whichever comes first from now ("at 3" at
//!   12:48 is 15:00 today, at 16:00 it is 03:00 tomorrow); with "today" the reading still
//!   ahead; on any other named day, after "in 2 days" and in repeats, the daytime reading
//!   ([`daytime_reading`]: 1–6 after noon, 7–12 as said, so "tomorrow at 3" is 15:00 and
//!   "every day at 8" 08:00). On such a day 6 and 7 ([`AMBIGUOUS_HOURS`]) are truly either:
//!   the parse takes the daytime reading and gives both ([`ParsedDue::choice`]) for a chat
//!   that asks with two buttons and applies the answer ([`ParsedDue::choose`]). Spoken times
//!   ("half past five", "полшестого", "без пятнадцати шесть", "besh yarimda", "oltiga chorak
//!   qolganda") are read as bare hours; "from 9 to 5" stays text (digit minutes before
//!   "to"/"past" need the word minutes);
//! - midnight ends the day it is said with: "midnight", "tonight at midnight", "сегодня в
//!   полночь", "bugun yarim tunda" are the coming 00:00, "friday at midnight" the 00:00 after
//!   Friday; a small hour said with "night" on a named day belongs to the night after it
//!   ("сегодня в 2 ночи" is tomorrow 02:00): noted as [`Assumption::NightAfterDay`]. In a
//!   repeat, midnight is 00:00 of the repeat's own days;
//! - with no day said, a time already past today means tomorrow;
//! - "tomorrow" / "завтра" / "ertaga" said after midnight and before [`NIGHT_ENDS`] (04:00) is
//!   the coming day, today's date: at 00:30 on Saturday "tomorrow at 9" is Saturday 09:00, and
//!   "the day after tomorrow" / "послезавтра" / "indinga" Sunday; always noted
//!   ([`Assumption::TomorrowAfterMidnight`]). A moment that has passed by then ("tomorrow at
//!   00:15" at 00:30) keeps the calendar's tomorrow; "today" is always today's date;
//! - a weekday said on that very day means today if the time is still ahead, else a week
//!   later; "next monday" / "в следующий понедельник" / "keyingi dushanba" is the Monday of
//!   next week (weeks start on Monday) in every language, noted as
//!   [`Assumption::NextWeekday`] when that is not the coming Monday; "next week" / "на
//!   следующей неделе" / "keyingi hafta" is next week's Monday ([`Assumption::NextWeekMonday`])
//!   unless a weekday is said with it;
//! - "end of the month" / "в конце месяца" / "oy oxirida" is this month's last day (next
//!   month's once that has passed); "on the 15th" / "15 числа" / "15-sanasida" is the next 15th
//!   that exists (today's with a past time is in the past, as for a date); "the last friday of
//!   the month" / "в последнюю пятницу месяца" / "oyning oxirgi jumasi" is the next such day;
//! - "this weekend" / "на выходных" / "в эти выходные" / "shu dam olish kunlari" / "hafta
//!   oxirida" is one day, the coming Saturday (its Sunday once Saturday's time has passed, on
//!   the weekend itself); "next weekend" is next week's Saturday; "weekends" / "по выходным" /
//!   "dam olish kunlari" is a repeat;
//! - a date without a year is its next occurrence (so on 27 March "5 March"
//!   is next year), but today's date with a past time, or any date with an
//!   explicit past year, is [`DueError::InPast`];
//! - repeats: several weekdays ("every tue and thu", "по вторникам и четвергам", "seshanba va
//!   payshanba kunlari"), and several weekdays or a range without "every" ("mon wed fri", "пн ср
//!   пт", "du cho ju", "mon-fri": a weekly repeat; Uzbek short forms only among each other, and
//!   weekdays without "every" inside the text only with a marker); every N
//!   minutes/hours/days/weeks/months/years ("every other day", "каждые 2 недели", "раз в неделю",
//!   "kun ora", "har 3 soatda", "every 30 minutes"); every other or second weekday ("every other
//!   friday", "каждую вторую пятницу", "har ikkinchi juma": every 2 weeks; third and fourth: 3 and
//!   4 weeks); an ordinal before days, weeks, months or years ("every 2nd day", "every second week
//!   on monday", "каждый второй день", "har ikkinchi kuni": every 2 days or weeks; before anything
//!   else "every 2nd" is the 2nd of each month); the first to fourth or last weekday of the month
//!   ("first monday of every month", "every last friday", "каждый второй вторник месяца", "har
//!   oyning birinchi dushanbasi"); a day or weekday repeat less the days it leaves out ("every day
//!   except weekends", "кроме выходных", "dam olish kunlaridan tashqari"); the last day of the
//!   month; a date every year ("every year on 14 Feb", "14 февраля каждый год"). An interval counts
//!   from the first occurrence. A day said next to "every week/month/year" completes it ("monday
//!   every week"). Counts in repeats go up to
//!   [`MAX_INTERVAL`](crate::domain::recurrence::MAX_INTERVAL);
//! - a repeat may end: "until March 1" / "до 1 марта" / "1-martgacha" (the last day with an
//!   occurrence, resolved as a deadline on it would be) or "10 times" / "10 раз" / "10 marta"
//!   ([`End`](crate::domain::recurrence::End)); one that would end before it first comes is
//!   [`DueError::EndsBeforeFirst`]. Without a repeat, "until friday" / "до пятницы" /
//!   "jumagacha" / "by 5pm" / "soat 18 gacha" is a deadline;
//! - a repeat may count from when it was done ("3 days after done", "every! 3 days",
//!   "через 3 дня после выполнения", "bajarilgandan 3 kun keyin"; weeks are 7 days): its first
//!   occurrence is that of the same repeat on the schedule, each next one an interval after
//!   the completion
//!   ([`Recurrence::after_done`](crate::domain::recurrence::Recurrence::after_done));
//! - a phrase inside the text is taken only when it cannot be ordinary text: two parts, a
//!   relative time, or one such as "at 5", "tomorrow", "on friday", "в обед" ("call mom at 5
//!   about dinner"); a leading "remind me (to)", "напомни", "menga … eslat" is dropped, and so
//!   is the "to" of "remind me at 5 to call mom" and the "about" / "про" / "haqida" of "remind
//!   me about the webinar", "напомни про вебинар", "vebinar haqida eslat";
//! - a word of at least 5 letters one letter away from a key word ("tomorow", "завтро",
//!   "черех", "ertga") is read as it and noted ([`Assumption::Typo`]); ordinary words near key
//!   words ("dairy", "завтрак", "sundae") are not: only a curated list of key words is
//!   corrected, and only words that mean nothing else;
//! - numbers may be words: 1–20, the tens and their compounds ("twenty-five", "двадцать пять",
//!   "o'n besh", "yigirma besh"), in durations, times and repeats;
//! - wall times in a DST gap or overlap follow
//!   [`resolve_local`](crate::domain::timezone::resolve_local).

mod choice;
mod correction;
mod cue;
mod edit;
mod en;
mod grammar;
mod keys;
mod lexer;
mod phrase;
mod resolve;
mod ru;
mod spec;
mod uz;
mod vocab;
mod written;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc, Weekday};
use chrono_tz::Tz;

pub use choice::{AMBIGUOUS_HOURS, HalfOfDay, HourChoice, Reading};
pub use edit::{ParsedEdit, Said, parse_edit};
pub use written::written_in;

use crate::domain::fold::is_space;
use crate::domain::lang::Lang;
use crate::domain::lead::Lead;
use crate::domain::recurrence::Recurrence;

/// The time of day used when a day but no time is said ("tomorrow", "5
/// декабря", "every monday").
pub const DEFAULT_TIME: NaiveTime = match NaiveTime::from_hms_opt(9, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// Until this local time "tomorrow" means the coming day: someone still awake at 00:30 on
/// Saturday who says "tomorrow" means Saturday ([`Assumption::TomorrowAfterMidnight`]).
pub const NIGHT_ENDS: NaiveTime = match NaiveTime::from_hms_opt(4, 0, 0) {
    Some(t) => t,
    None => NaiveTime::MIN,
};

/// The last year a due date may fall in; later ones are [`DueError::TooFar`].
pub const MAX_YEAR: i32 = 2100;

/// The longest message parsed, in characters: Telegram's message limit, so
/// that no input makes the parser do unbounded work.
pub const MAX_INPUT_CHARS: usize = 4096;

/// A task parsed from a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedDue {
    /// The task text with the time phrase removed, trimmed, never empty.
    pub text: String,
    /// The deadline (for a recurring task, its first occurrence).
    pub due: DateTime<Utc>,
    /// How the task repeats, if it does.
    pub recurrence: Option<Recurrence>,
    /// How long before the deadline to remind, if the user said so.
    pub lead: Option<Lead>,
    /// What the parser assumed where the message left a choice, in the order the phrase was
    /// read; the chat tells the user ("I took 3 as 15:00"). Empty when nothing was assumed.
    pub assumptions: Vec<Assumption>,
    /// Time words left in the task text because they did not fit the phrase (see
    /// [`Unplaced`]); they never change `due`.
    pub unplaced: Vec<Unplaced>,
    /// For an hour that is truly either side of noon on a named day ("tomorrow at 6"), or one
    /// without a day read first in the night ("at 1" at 13:40), both readings: a chat asks which
    /// with two buttons and applies the answer with [`ParsedDue::choose`]. `None` when the time
    /// was clear or has a natural reading.
    pub choice: Option<HourChoice>,
    /// Whether `due` (and the rule) would be the same in any zone: an elapsed time from now
    /// ("in 2 minutes", "через 2 часа", "every 3 hours"). A chat that does not know the user's
    /// zone yet may save such a task at once instead of holding it for the zone question.
    pub zone_free: bool,
    /// The same task at a second time joined by "and" ("every day at 9 and 21 pills", "в 9 утра
    /// и 9 вечера"): a chat makes both reminders ([`ParsedDue::split`]). Until then the
    /// second time is also in `unplaced`, so that a reader making one reminder says it did not
    /// use it.
    pub second: Option<Box<ParsedDue>>,
}

impl ParsedDue {
    /// The reminders the message asks for: this one, and the [`ParsedDue::second`] time if it
    /// has one, each without the note that the other time was not used.
    pub fn split(mut self) -> (ParsedDue, Option<ParsedDue>) {
        match self.second.take() {
            Some(second) => {
                self.unplaced.clone_from(&second.unplaced);
                (self, Some(*second))
            }
            None => (self, None),
        }
    }

    /// The time of day the message says, read as a repeat reads it: an hour without am/pm in
    /// the daytime ([`daytime_reading`]), else the local time of `due` in `tz`. For a chat
    /// that moves a recurring task to the time the user gives ("10:30", "at 3").
    pub fn time_for_repeat(&self, tz: Tz) -> NaiveTime {
        self.assumptions
            .iter()
            .find_map(|assumption| match assumption {
                Assumption::HourWithoutAmPm { typed, .. } => Some(daytime_reading(*typed)),
                _ => None,
            })
            .unwrap_or_else(|| crate::domain::timezone::to_local(tz, self.due).time())
    }
}

/// The daytime reading of an hour typed without am/pm (`typed` on a 12-hour clock, 1–12):
/// 1–6 are after noon, 7–11 before it, 12 is noon. Used on named days and in repeats. A time
/// past 6:30 is said as minutes to seven ("quarter to seven", "без четверти семь", "yettiga
/// chorak kam") and read as seven is, before noon.
pub fn daytime_reading(typed: NaiveTime) -> NaiveTime {
    let to_seven = typed.hour() == 6 && typed.minute() > 30;
    if matches!(typed.hour(), 1..=6) && !to_seven {
        typed.with_hour(typed.hour() + 12).unwrap_or(typed)
    } else {
        typed
    }
}

/// One thing the parser assumed because the message did not say it, so that the chat can
/// say so instead of saving a silent guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assumption {
    /// An hour from 1 to 12 with no am/pm, no part of the day and no 24-hour form ("at 3",
    /// English "4:30", not "03:00", "9:30", "15" or "3 pm"). Without a day it is the reading that comes
    /// first ("at 3" at 12:48 is 15:00 today); with "today", the reading still ahead; on
    /// another named day or in a repeat, the daytime one (1–6 after noon, 7–12 before or at
    /// noon: "tomorrow at 3" is 15:00, "every day at 8" 08:00).
    HourWithoutAmPm {
        /// The time as typed, on a 12-hour clock (03:00 for "3", 12:00 for "12").
        typed: NaiveTime,
        /// The time of day taken.
        chosen: NaiveTime,
    },
    /// No time of day was said ("tomorrow", "every monday", "вечером"): the part of the day's
    /// time (morning 09:00, lunch 13:00, afternoon 14:00, evening 19:00, night 22:00) or
    /// [`DEFAULT_TIME`] was taken.
    TimeNotSaid {
        /// The time of day taken.
        chosen: NaiveTime,
    },
    /// "next friday", "в следующую пятницу", "keyingi juma": the Friday of next week (weeks
    /// start on Monday), which here is not the coming Friday.
    NextWeekday {
        /// The date taken.
        date: NaiveDate,
    },
    /// "next week" without a day: its Monday.
    NextWeekMonday {
        /// The date taken.
        date: NaiveDate,
    },
    /// "the end of next week": its Friday, the last working day.
    WeekEndFriday {
        /// The date taken.
        date: NaiveDate,
    },
    /// "next month" without a day: its 1st.
    NextMonthFirst {
        /// The date taken.
        date: NaiveDate,
    },
    /// Midnight, or a small hour said with "night" or "evening", on a named day: the night
    /// after that day ("сегодня в полночь" is the coming 00:00, "friday at midnight" the
    /// 00:00 that ends Friday).
    NightAfterDay {
        /// The calendar date of the moment taken.
        date: NaiveDate,
    },
    /// The time was said in another zone than the chat's ("10:00 по мск", "3pm UTC"): it is that
    /// zone's, and the chat shows it in its own ("10:00 UTC+3 is 12:00 your time").
    OtherZone {
        /// The zone named.
        zone: Tz,
        /// The moment taken.
        due: DateTime<Utc>,
    },
    /// "tomorrow", "завтра", "ertaga" said after midnight and before [`NIGHT_ENDS`]: the coming
    /// day, today's date, since the user has not slept yet ("tomorrow at 9" at 00:30 on Saturday
    /// is Saturday 09:00); "the day after tomorrow" then is the day after that.
    TomorrowAfterMidnight {
        /// The date taken for the day said.
        date: NaiveDate,
        /// Whether the day said was "the day after tomorrow", not "tomorrow".
        day_after: bool,
    },
    /// A weekday said beside a date is not that date's ("в четверг 1 апреля" when 1 April is a
    /// Wednesday): the date was taken.
    WeekdayOfDate {
        /// The weekday said.
        said: Weekday,
        /// The date taken.
        date: NaiveDate,
    },
    /// "завтра в 2 ночи", "tomorrow at 2 at night" said in the evening: the coming night, on
    /// tomorrow's date (said in the daytime, it is the night after tomorrow:
    /// [`Assumption::NightAfterDay`]).
    ComingNight {
        /// The date taken.
        date: NaiveDate,
    },
    /// "tonight at 2", "сегодня в 2 ночи" said after midnight and before [`NIGHT_ENDS`]: this
    /// night, today's date, while its time is ahead (not the night after today).
    TonightAfterMidnight {
        /// The date taken.
        date: NaiveDate,
    },
    /// The time said does not exist on its day: the clocks go forward past it ("02:30" on the
    /// day Berlin moves from 02:00 to 03:00). The first instant after the gap was taken.
    ClockSkipped {
        /// The time as said (read on the 24-hour clock).
        said: NaiveTime,
        /// The time taken: where the clocks go to.
        chosen: NaiveTime,
        /// The day it happened on.
        date: NaiveDate,
    },
    /// "in 20", "через 15": a number without its unit after "in", read as that many minutes.
    MinutesUnsaid {
        /// The number, and the minutes taken.
        minutes: u32,
    },
    /// "через день": the day after today was taken, which Russian also says of every other day
    /// (the note says how to make it repeat).
    InADay {
        /// The date taken.
        date: NaiveDate,
        /// The time of day taken, which the advice to repeat keeps.
        time: NaiveTime,
    },
    /// A word one letter away from a key word was read as that word ("tomorow", "завтро").
    Typo {
        /// The word as typed.
        typed: String,
        /// The key word it was read as.
        read: String,
    },
}

/// Words that look like part of a time phrase but were left in the task text, because they
/// contradict the phrase that was used ("prepare monday report tomorrow 9" keeps "monday")
/// or because a repeat word comes with something the parser does not read ("every 10
/// minutes"). The task is still saved with the phrase that was understood; a chat must mention
/// these, and say clearly when one is a [`UnplacedKind::Repeat`] that the task will not repeat:
/// the user probably wanted a repeat that was not understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplaced {
    /// The words, as typed.
    pub words: String,
    /// What they seem to say.
    pub kind: UnplacedKind,
}

/// What [`Unplaced`] words seem to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnplacedKind {
    /// A repeat ("every friday", "every 10 minutes").
    Repeat,
    /// A day ("monday", "tomorrow", "in 2 days").
    Day,
    /// A time of day ("9 pm", "вечером").
    Time,
    /// A second time joined by "and" ("and 21" in "every day at 9 and 21 pills"), cut from the
    /// text: a reader that makes one reminder only (a change of time, a snooze) leaves it out.
    SecondTime,
}

/// Why a message gave no task; each variant is one thing the bot can
/// explain to the user in their language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DueError {
    /// The message is empty or only spaces and invisible characters.
    #[error("the message is empty")]
    EmptyInput,
    /// The message is longer than [`MAX_INPUT_CHARS`].
    #[error("the message is longer than {max} characters")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// No date or time was found: the bot should ask when.
    #[error("no date or time found")]
    NoTime,
    /// Only a date or time was given, no task text.
    #[error("no task text besides the time")]
    EmptyText,
    /// A time of day that does not exist, like 25:61 or 13 pm.
    #[error("{hour:02}:{minute:02} is not a valid time")]
    InvalidTime {
        /// The hour as typed.
        hour: u32,
        /// The minute as typed.
        minute: u32,
    },
    /// A date that does not exist, like 31.02 or 32.13 (or 29.02.2027).
    #[error("{day:02}.{month:02} is not a valid date")]
    InvalidDate {
        /// The day as typed.
        day: u32,
        /// The month as typed.
        month: u32,
        /// The year, if one was typed.
        year: Option<i32>,
    },
    /// A monthly recurrence on a day that no month has, like the 32nd.
    #[error("no month has a day {day}")]
    InvalidDayOfMonth {
        /// The day as typed.
        day: u32,
    },
    /// An explicit date and time that has already passed (a past year,
    /// "yesterday", or today with a time already gone).
    #[error("{local} is in the past")]
    InPast {
        /// The local date and time that was meant.
        local: NaiveDateTime,
    },
    /// A date after [`MAX_YEAR`], or a duration reaching past it.
    #[error("dates after {max_year} are not accepted")]
    TooFar {
        /// The last accepted year.
        max_year: i32,
    },
    /// A repeat more often than every
    /// [`MIN_MINUTES`](crate::domain::recurrence::MIN_MINUTES) minutes ("every 2 minutes",
    /// "every 30 seconds"): too often for a repeat, which a chat may offer as nagging instead
    /// (a reminder repeated until it is done).
    #[error("a repeat every {every_secs} seconds is too often")]
    RepeatTooOften {
        /// The interval asked for, in seconds.
        every_secs: u64,
    },
    /// A repeat whose end ("until March 1") comes before its first occurrence.
    #[error("the repeat ends on {until} before its first time {first}")]
    EndsBeforeFirst {
        /// The last day the repeat was to run.
        until: NaiveDate,
        /// The local date and time of what would have been its first occurrence.
        first: NaiveDateTime,
    },
    /// A lead time longer than [`Lead::MAX`] ("remind 40 days before").
    #[error("a lead time longer than {max_days} days")]
    LeadTooLong {
        /// The longest lead, in days.
        max_days: u32,
    },
}

/// Reads a lead time typed on its own (`/settings 30 min`, "2 hrs", "2 часа", "1 kun"; `0` or
/// "off" for none) with the same duration grammar as the lead times inside task phrases.
/// [`DueError::NoTime`] when it is no duration, [`DueError::LeadTooLong`] past [`Lead::MAX`].
pub fn parse_lead(input: &str, lang_hint: Lang) -> Result<Lead, DueError> {
    if input.chars().count() > MAX_INPUT_CHARS {
        return Err(DueError::TooLong {
            max: MAX_INPUT_CHARS,
        });
    }
    if matches!(
        crate::domain::fold::fold(input.trim()).as_str(),
        "0" | "off" | "none" | "нет" | "0 мин" | "yo'q"
    ) {
        return Ok(Lead::ZERO);
    }
    let lexed = grammar::Lexed::new(input, lang_hint);
    let span = grammar::parse_duration(&lexed)
        .filter(|span| span.months == 0)
        .ok_or(DueError::NoTime)?;
    resolve::lead_duration(span)
}

/// Finds the time phrase in `input` and resolves it, and its [`phrase::Found::second`] time when
/// that resolves too: what [`parse_due`] and [`edit::parse_edit`] share. Refuses empty and
/// over-long input; [`DueError::NoTime`] when there is no time phrase.
fn read_phrase(
    input: &str,
    lang_hint: Lang,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<(phrase::Found, resolve::Resolved, Option<resolve::Resolved>), DueError> {
    if input.chars().all(is_space) {
        return Err(DueError::EmptyInput);
    }
    if input.chars().count() > MAX_INPUT_CHARS {
        return Err(DueError::TooLong {
            max: MAX_INPUT_CHARS,
        });
    }
    // "at 5, no wait, 6": the hour meant, before anything is read.
    let corrected = correction::corrected(input);
    let input = corrected.as_ref();
    let lexed = grammar::Lexed::new(input, lang_hint)
        .read_on(crate::domain::timezone::to_local(tz, now).date())
        .written_in(tz);
    // "order pizza in 20": minutes for a number without its unit, only when nothing else in the
    // message is a time ("tomorrow run 5k in 25" is tomorrow).
    let (lexed, found) = match phrase::find(input, &lexed) {
        Some(found) => (lexed, found),
        None => {
            let lexed = lexed.guessing_minutes();
            let found = phrase::find(input, &lexed).ok_or(DueError::NoTime)?;
            (lexed, found)
        }
    };
    let cue = lexed
        .cue()
        .or_else(|| event_cue(&lexed, &found.text, found.spec.clock));
    let mut resolved = resolve::resolve(&found.spec, cue, now, tz)?;
    // A part of the day said with the first time is its own, not a cue for the second ("в 10
    // утра и в 4": 16:00).
    let second_cue = found.spec.period.map_or_else(|| lexed.cue(), |_| None);
    let second = found
        .second
        .and_then(|spec| resolve::resolve(&spec, second_cue, now, tz).ok());
    // Two times said differently cannot be one: "pills at 9 and 21" or "at 9 and 9pm" in the
    // evening read 9 as 21:00, which the second time says, so the first is the morning ("в 9 и в
    // 9", said alike, stays one reminder).
    if let (Some(first), Some(other)) = (found.spec.clock, found.second)
        && second.as_ref().is_some_and(|s| s.due == resolved.due)
        && (other.clock != Some(first) || other.period != found.spec.period)
        && first.meridiem.is_none()
        && (1..12).contains(&first.hour)
    {
        let evening = crate::domain::timezone::to_local(tz, resolved.due).hour() >= 12;
        let mut spec = found.spec;
        spec.clock = Some(grammar::Clock {
            meridiem: Some(!evening),
            ..first
        });
        if let Ok(other_half) = resolve::resolve(&spec, cue, now, tz) {
            resolved = other_half;
        }
    }
    Ok((found, resolved, second))
}

/// The evening, for an hour said without am/pm that the event of the message is at: from 5 to 8
/// in a message a dinner opens ("dinner at Nando's saturday 8" is 20:00; not "dinner
/// reservation call restaurant tomorrow at 10"), and as the task `text` names a party, a night
/// shift or bedtime ([`cue::event_cue`]).
fn event_cue(
    lexed: &grammar::Lexed,
    text: &str,
    clock: Option<grammar::Clock>,
) -> Option<keys::Period> {
    let hour = clock.filter(|c| c.meridiem.is_none()).map(|c| c.hour)?;
    let dinner = (5..=8).contains(&hour) && lexed.opens_with_dinner();
    dinner
        .then_some(keys::Period::Evening)
        .or_else(|| cue::event_cue(text, hour))
}

/// Parses a task message such as "pay rent tomorrow 9:00", "через 2 часа
/// позвонить маме" or "har dushanba soat 10 da yig'ilish", for a user in
/// `tz` whose language is `lang_hint`, at instant `now`.
///
/// The time phrase may come before or after the text (or both halves
/// around it). One-off due times are always after `now`; a recurring task's
/// `due` is its first occurrence after `now`. Never panics.
pub fn parse_due(
    input: &str,
    lang_hint: Lang,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<ParsedDue, DueError> {
    let (found, resolved, second) = read_phrase(input, lang_hint, now, tz)?;
    if found.text.is_empty() {
        return Err(DueError::EmptyText);
    }
    // The second time's words are said first in `unplaced`; the same time twice ("в 9 и в 9")
    // is one reminder, and nothing was left out.
    let others: Vec<Unplaced> = found.unplaced.iter().skip(1).cloned().collect();
    let twice = second.as_ref().is_some_and(|second| {
        (second.due, second.recurrence) == (resolved.due, resolved.recurrence)
    });
    let second = found
        .second
        .zip(second)
        .filter(|_| !twice)
        .map(|(spec, second)| {
            Box::new(ParsedDue {
                text: found.text.clone(),
                due: second.due,
                recurrence: second.recurrence,
                lead: second.lead,
                assumptions: second.assumptions,
                unplaced: others.clone(),
                choice: second.choice,
                zone_free: spec.is_zone_free(),
                second: None,
            })
        });
    Ok(ParsedDue {
        text: found.text,
        due: resolved.due,
        recurrence: resolved.recurrence,
        lead: resolved.lead,
        assumptions: noted(found.typos, resolved.assumptions),
        unplaced: if twice { others } else { found.unplaced },
        choice: resolved.choice,
        zone_free: found.spec.is_zone_free(),
        second,
    })
}

/// The typos read in a phrase (as typed, as read), then what resolving it assumed.
fn noted(typos: Vec<(String, &'static str)>, resolved: Vec<Assumption>) -> Vec<Assumption> {
    typos
        .into_iter()
        .map(|(typed, read)| Assumption::Typo {
            typed,
            read: read.to_owned(),
        })
        .chain(resolved)
        .collect()
}

/// The time words in a message that has no time phrase the parser can use (where
/// [`parse_due`] says [`DueError::NoTime`]): a repeat it does not read ("every 10 minutes") or
/// words that make no time alone. A chat says what it did not understand instead of taking
/// them for plain text without a word.
pub fn loose_time_words(input: &str, lang_hint: Lang) -> Vec<Unplaced> {
    if input.chars().count() > MAX_INPUT_CHARS {
        return Vec::new();
    }
    let lexed = grammar::Lexed::new(input, lang_hint);
    phrase::loose(input, &lexed)
}
