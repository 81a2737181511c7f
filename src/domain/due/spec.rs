//! What a time phrase says, gathered from its parts, and which parts
//! contradict each other.

use chrono::{Weekday, WeekdaySet};
use chrono_tz::Tz;

use super::grammar::{Clock, DayRef, Item, PeriodWord, RelativeGuess, Repeat, RepeatRef, Span};
use super::keys::Period;

/// The parts of one time phrase, each said at most once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Spec {
    /// "in 2 hours".
    pub relative: Option<Span>,
    /// The guess the relative time was read with, if any ("in 20" as minutes).
    pub relative_guess: Option<RelativeGuess>,
    /// "tomorrow", "friday", "31.12".
    pub day: Option<DayRef>,
    /// "9:30", "9 pm".
    pub clock: Option<Clock>,
    /// "evening": sets am/pm or a default time.
    pub period: Option<Period>,
    /// How the part of the day was said: alone it stands for a time by itself ("вечером", "in
    /// the evening"); after an hour it is that hour's half of the day ("в 2 ночи").
    pub period_word: Option<PeriodWord>,
    /// "every monday".
    pub repeat: Option<Repeat>,
    /// "30 min before".
    pub lead: Option<Span>,
    /// "until March 1": a repeat's last day, or the deadline of a one-off.
    pub until: Option<DayRef>,
    /// "starting monday", "с понедельника": a repeat's first day, or the day of a one-off.
    pub starting: Option<DayRef>,
    /// "10 times": how many occurrences a repeat has.
    pub count: Option<u32>,
    /// "по мск", "UTC": the zone the time is said in, when not the chat's.
    pub zone: Option<Tz>,
    /// "for 10 days", "в течение 2 недель", "10 kun davomida": how long a repeat lasts.
    pub lasting: Option<Span>,
    /// A weekday said beside a date ("в среду 1 апреля", "monday 30th"): the date is taken, and
    /// the weekday checked against it.
    pub weekday: Option<Weekday>,
    /// How many parts were added.
    pub parts: usize,
}

impl Spec {
    /// Adds a part unless it contradicts what is already there (a second
    /// day or time, a day with "in 2 hours", a day with a recurrence, …);
    /// returns whether it was added. A day that completes what is there joins it: "next week"
    /// and "tuesday" are next week's Tuesday, "every year" and "14 Feb" are every 14 February,
    /// "every week" and "monday" every Monday, "every month" and "the 15th" every 15th. An end
    /// ("until March 1") goes with a repeat, or is the day of a one-off; a count ("10 times")
    /// goes with a repeat, or may open a closing part of its own ("…, 10 times").
    pub fn add(&mut self, item: Item) -> bool {
        if let Some(day) = self.weekday_in_weeks(item) {
            self.relative = None;
            self.relative_guess = None;
            self.day = Some(day);
            self.parts += 1;
            return true;
        }
        let elapsed = self.relative.is_some_and(|s| !s.is_calendar_only());
        let deadline = self.until.is_some() && self.repeat.is_none();
        let fits = match item {
            Item::Relative(span) | Item::RelativeGuessed(span, _) => {
                self.relative.is_none()
                    && self.day.is_none()
                    && self.repeat.is_none()
                    && !deadline
                    && self.count.is_none()
                    && self.lasting.is_none()
                    && (span.is_calendar_only() || (self.clock.is_none() && self.period.is_none()))
            }
            Item::Day(day) => {
                if self.joined_day(day) {
                    self.parts += 1;
                    return true;
                }
                self.day.is_none()
                    && self.starting.is_none()
                    && self.repeat.is_none()
                    && self.relative.is_none()
                    && !deadline
                    && self.count.is_none()
                    && self.lasting.is_none()
            }
            Item::DayPeriod(day, period) => {
                // "every 8 hours starting 10pm tonight": the day it starts, after its hour
                // ("every 2 hours until tonight" is no start).
                if let Some(repeat) = self.repeat
                    && self.clock.is_some()
                    && self.starting.is_none()
                    && self.period.is_none()
                    && elapsed_repeat_starts(repeat, day)
                    && !clashes(self.clock, Some(period))
                {
                    self.starting = Some(day);
                    self.period = Some(period);
                    self.parts += 1;
                    return true;
                }
                self.day.is_none()
                    && self.period.is_none()
                    && self.repeat.is_none()
                    && self.relative.is_none()
                    && !deadline
                    && self.count.is_none()
                    && self.lasting.is_none()
                    && !clashes(self.clock, Some(period))
            }
            Item::Time(clock) => {
                self.clock.is_none() && !elapsed && !clashes(Some(clock), self.period)
            }
            // The same part of the day twice is one ("в ночь с пятницы на субботу в 2 ночи").
            Item::Period { period, .. } => {
                (self.period.is_none() || self.period == Some(period))
                    && !elapsed
                    && !clashes(self.clock, Some(period))
            }
            Item::Repeat(repeat, period) => {
                if period.is_none()
                    && let Some(narrowed) = self.repeat.and_then(|had| narrowed(had, repeat))
                {
                    self.repeat = Some(narrowed);
                    self.parts += 1;
                    return true;
                }
                if self.repeat.is_none()
                    && self.starting.is_none()
                    && let Some(day) = self.day
                    && elapsed_repeat_starts(repeat, day)
                {
                    self.day = None;
                    self.starting = Some(day);
                    self.set(item);
                    return true;
                }
                if self.repeat.is_none()
                    && period.is_none()
                    && let Some(day) = self.day
                    && let Some(joined) = join(repeat, day)
                {
                    self.day = None;
                    self.repeat = Some(joined);
                    self.parts += 1;
                    return true;
                }
                self.repeat.is_none()
                    && self.day.is_none()
                    && self.relative.is_none()
                    && self.zone.is_none()
                    && !(period.is_some() && (self.period.is_some() || clashes(self.clock, period)))
            }
            Item::Lead(_) => self.lead.is_none(),
            Item::Start(_) => {
                self.starting.is_none()
                    && self.day.is_none()
                    && self.relative.is_none()
                    && !deadline
            }
            Item::Until(_) => {
                self.until.is_none()
                    && self.lasting.is_none()
                    && (self.repeat.is_some() || (self.day.is_none() && self.relative.is_none()))
            }
            Item::Count(_) => {
                self.count.is_none()
                    && self.lasting.is_none()
                    && (self.repeat.is_some() || self.parts == 0)
            }
            Item::Lasting(_) => {
                self.lasting.is_none()
                    && self.count.is_none()
                    && self.until.is_none()
                    && (self.repeat.is_some() || self.parts == 0)
            }
            // A repeat keeps the chat's zone: a time in another one is left out, and said.
            Item::Zone(_) => self.zone.is_none() && self.repeat.is_none(),
        };
        if fits {
            self.set(item);
        }
        fits
    }

    /// Whether `day` joined the repeat or the "next week" already there (and was taken in).
    fn joined_day(&mut self, day: DayRef) -> bool {
        if let Some(repeat) = self.repeat {
            if self.starting.is_none() && elapsed_repeat_starts(repeat, day) {
                self.starting = Some(day);
                return true;
            }
            let Some(joined) = join(repeat, day) else {
                return false;
            };
            self.repeat = Some(joined);
            return true;
        }
        if let Some(weekday) = self.weekday_beside_date(day) {
            self.weekday = Some(weekday);
            return true;
        }
        let next_month = match (self.day, day) {
            (Some(DayRef::NextMonth), DayRef::MonthDay(d))
            | (Some(DayRef::MonthDay(d)), DayRef::NextMonth) => Some(DayRef::NextMonthDay(d)),
            (Some(DayRef::NextMonth), DayRef::EndOfMonth)
            | (Some(DayRef::EndOfMonth), DayRef::NextMonth) => Some(DayRef::NextMonthEnd),
            _ => None,
        };
        if let Some(day) = next_month {
            self.day = Some(day);
            return true;
        }
        let next_week_day = match (self.day, day) {
            (Some(DayRef::NextWeek), DayRef::Weekday { day, .. })
            | (Some(DayRef::Weekday { day, .. }), DayRef::NextWeek) => day,
            _ => return false,
        };
        self.day = Some(DayRef::Weekday {
            day: next_week_day,
            next: true,
        });
        true
    }

    /// "in 2 weeks" and "on thursday" said together, either way round: that weekday nearest to
    /// the day so many weeks on ("in 2 weeks on thursday", "через 2 недели в среду").
    fn weekday_in_weeks(&self, item: Item) -> Option<DayRef> {
        let whole_weeks = |span: Span| {
            (span.seconds == 0 && span.months == 0 && span.days > 0 && span.days.is_multiple_of(7))
                .then(|| u32::try_from(span.days / 7).ok())
                .flatten()
        };
        let (weeks, day) = match (item, self.relative, self.day) {
            (Item::Day(DayRef::Weekday { day, next: false }), Some(span), None) => {
                (whole_weeks(span)?, day)
            }
            (Item::Relative(span), None, Some(DayRef::Weekday { day, next: false })) => {
                (whole_weeks(span)?, day)
            }
            _ => return None,
        };
        (self.repeat.is_none() && self.weekday.is_none())
            .then_some(DayRef::WeekdayInWeeks { weeks, day })
    }

    /// The weekday of a weekday and a date said together, either way round ("в среду 1 апреля",
    /// "1 апреля, среда"), with the date taken as the day.
    fn weekday_beside_date(&mut self, day: DayRef) -> Option<Weekday> {
        let is_date = |day: DayRef| matches!(day, DayRef::Date { .. } | DayRef::MonthDay(_));
        let said = self.day?;
        if self.weekday.is_some() {
            return None;
        }
        match (said, day) {
            (
                DayRef::Weekday {
                    day: weekday,
                    next: false,
                },
                date,
            ) if is_date(date) => {
                self.day = Some(date);
                Some(weekday)
            }
            (
                date,
                DayRef::Weekday {
                    day: weekday,
                    next: false,
                },
            ) if is_date(date) => Some(weekday),
            _ => None,
        }
    }

    fn set(&mut self, item: Item) {
        match item {
            Item::Relative(span) => self.relative = Some(span),
            Item::RelativeGuessed(span, guess) => {
                self.relative = Some(span);
                self.relative_guess = Some(guess);
            }
            Item::Day(day) => self.day = Some(day),
            Item::DayPeriod(day, period) => {
                self.day = Some(day);
                self.period = Some(period);
            }
            Item::Time(clock) => self.clock = Some(clock),
            Item::Period { period, word } => {
                self.period = Some(period);
                self.period_word = Some(word);
            }
            Item::Repeat(repeat, period) => {
                self.repeat = Some(repeat);
                self.period = period.or(self.period);
            }
            Item::Lead(span) => self.lead = Some(span),
            Item::Until(day) => self.until = Some(day),
            Item::Start(day) => self.starting = Some(day),
            Item::Count(n) => self.count = Some(n),
            Item::Lasting(span) => self.lasting = Some(span),
            Item::Zone(zone) => self.zone = Some(zone),
        }
        self.parts += 1;
    }

    /// Both phrases' parts together, or `None` if they contradict.
    pub fn merged(&self, other: &Spec) -> Option<Spec> {
        let mut merged = *self;
        let items = [
            other.relative.map(|span| match other.relative_guess {
                Some(guess) => Item::RelativeGuessed(span, guess),
                None => Item::Relative(span),
            }),
            other.day.map(Item::Day),
            other
                .weekday
                .map(|day| Item::Day(DayRef::Weekday { day, next: false })),
            other.repeat.map(|r| Item::Repeat(r, None)),
            other.clock.map(Item::Time),
            other.period.map(|period| Item::Period {
                period,
                word: other.period_word.unwrap_or(PeriodWord::Noun),
            }),
            other.lead.map(Item::Lead),
            other.until.map(Item::Until),
            other.starting.map(Item::Start),
            other.count.map(Item::Count),
            other.lasting.map(Item::Lasting),
            other.zone.map(Item::Zone),
        ];
        items
            .into_iter()
            .flatten()
            .all(|item| merged.add(item))
            .then_some(merged)
    }

    /// Whether the part of the day stands for a time by itself ("вечером", "in the evening").
    pub fn period_alone(&self) -> bool {
        self.period_word == Some(PeriodWord::Alone)
    }

    /// Whether it fixes a moment: a relative time, a day, a time, a recurrence, a deadline
    /// ("until friday") or a part of the day said as a time ("вечером"); a lead time alone does
    /// not, and a count only with a repeat.
    pub fn is_anchored(&self) -> bool {
        (self.relative.is_some()
            || self.day.is_some()
            || self.clock.is_some()
            || self.repeat.is_some()
            || self
                .until
                .is_some_and(|day| !matches!(day, DayRef::BeforeMonth(_)))
            || (self.period.is_some() && self.period_alone()))
            && ((self.count.is_none() && self.lasting.is_none()) || self.repeat.is_some())
    }

    /// Whether the moment it says does not depend on the user's zone: an elapsed time from now
    /// ("in 2 minutes", "через 2 часа") or a repeat of minutes or hours from now ("every 3
    /// hours"), with no day, time of day or part of the day.
    pub fn is_zone_free(&self) -> bool {
        let elapsed_repeat = self
            .repeat
            .is_some_and(|r| matches!(r.kind, RepeatRef::Minutely | RepeatRef::Hourly));
        let elapsed_relative = self
            .relative
            .is_some_and(|span| span.days == 0 && span.months == 0);
        (elapsed_relative || elapsed_repeat)
            && self.day.is_none()
            && self.clock.is_none()
            && self.period.is_none()
            && self.until.is_none()
    }

    /// Whether it holds nothing but how long a repeat lasts: ordinary words where nothing repeats
    /// ("взять отпуск на 3 дня", "stay for 2 days").
    pub fn is_lasting_only(&self) -> bool {
        self.lasting.is_some() && self.parts == 1
    }

    /// Whether it holds nothing but a lead time, a count, a length, a first day, an end before a
    /// month ("до мая") or a zone, which
    /// may stand apart from the rest of the phrase ("every friday at 4 timesheets, starting next
    /// friday", "tomorrow 9:00 pay rent, remind 30 min before", "every
    /// day at 9 pills, 10 times", "каждый день в 8 витамины 14 дней", "созвон завтра в 10, по
    /// мск").
    pub fn is_detached(&self) -> bool {
        let detached = usize::from(self.lead.is_some())
            + usize::from(self.count.is_some())
            + usize::from(self.lasting.is_some())
            + usize::from(self.starting.is_some())
            + usize::from(
                self.until
                    .is_some_and(|day| matches!(day, DayRef::BeforeMonth(_))),
            )
            + usize::from(self.zone.is_some());
        detached > 0 && self.parts == detached
    }
}

/// The one repeat that "every day" and a weekly repeat on a span of days said together mean:
/// the days ("every day at 7 from monday to friday", "mon-fri, every day"). Other pairs of
/// repeats contradict: a single weekday ("каждый день в 9 таблетки по пт" is no Fridays) and
/// days left out or added ("every day at 8 except sat and sun", "кроме пн и ср", "в сб и вс
/// тоже") are no span.
fn narrowed(had: Repeat, new: Repeat) -> Option<Repeat> {
    let plain = |r: Repeat| r.every == 1 && !r.from_done;
    if !plain(had) || !plain(new) {
        return None;
    }
    match (had.kind, new.kind) {
        (RepeatRef::Daily, RepeatRef::Weekly(days))
        | (RepeatRef::Weekly(days), RepeatRef::Daily)
            if is_span(days) =>
        {
            Some(Repeat::each(RepeatRef::Weekly(days)))
        }
        _ => None,
    }
}

/// Whether `days` are three or more days in a row (around the week's end too): a span said as
/// one ("monday to friday", "tue-sat").
fn is_span(days: WeekdaySet) -> bool {
    let in_row = days
        .iter(Weekday::Mon)
        .filter(|day| !days.contains(day.pred()))
        .count()
        == 1;
    days.len() >= 3 && (days.len() == 7 || in_row)
}

/// Whether a day said with a repeat of hours is the day it starts ("every 2 hours from 10am
/// tomorrow", "starting 10pm tonight", "завтра каждые 3 часа с 8"): today, tomorrow, the day
/// after or a date; a weekday may say which days it runs on, and minutes ("every 10 minutes
/// tomorrow") a nag for that day only, which the bot does not read.
fn elapsed_repeat_starts(repeat: Repeat, day: DayRef) -> bool {
    repeat.kind == RepeatRef::Hourly
        && matches!(
            day,
            DayRef::Today | DayRef::Tomorrow | DayRef::DayAfterTomorrow | DayRef::Date { .. }
        )
}

/// A repeat that `day` completes: "every week" + "monday", "every month" + "the 15th" or
/// "the end of the month", "every year" + "14 Feb".
fn join(repeat: Repeat, day: DayRef) -> Option<Repeat> {
    let kind = match (repeat.kind, day) {
        (RepeatRef::WeeklyToday, DayRef::Weekday { day, next: false }) => {
            RepeatRef::Weekly(chrono::WeekdaySet::single(day))
        }
        (RepeatRef::MonthlyToday, DayRef::MonthDay(day)) => RepeatRef::MonthlyOnDay(day),
        (RepeatRef::MonthlyToday, DayRef::EndOfMonth) => RepeatRef::MonthlyLastDay,
        (
            RepeatRef::YearlyToday,
            DayRef::Date {
                day,
                month,
                year: None,
            },
        ) => RepeatRef::Yearly { day, month },
        _ => return None,
    };
    Some(Repeat { kind, ..repeat })
}

/// Whether a clock's am/pm and a part of the day say different halves of the day ("9 am in
/// the evening"): such a phrase is not read as one time. Where they agree ("tomorrow morning at
/// 8am", "tonight at 11pm", and the small hours after an evening, "tonight at 1am") the am/pm
/// sets the hour and the part of the day adds nothing but the night's "after midnight".
fn clashes(clock: Option<Clock>, period: Option<Period>) -> bool {
    let (Some(clock), Some(period)) = (clock, period) else {
        return false;
    };
    let Some(pm) = clock.meridiem else {
        return false;
    };
    let small_hours = clock.hour == 12 || clock.hour < 6;
    match period {
        Period::Morning => pm && clock.hour != 12,
        Period::Afternoon => !pm,
        Period::Evening | Period::Tonight => !pm && !small_hours,
        Period::Night | Period::Lunch => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::due::grammar::{Clock, DayRef};

    const NINE: Clock = Clock {
        hour: 9,
        minute: 0,
        meridiem: None,
        exact: false,
        midnight: false,
    };

    #[test]
    fn rejects_contradictions() {
        let mut spec = Spec::default();
        assert!(spec.add(Item::Day(DayRef::Tomorrow)));
        assert!(spec.add(Item::Time(NINE)));
        assert!(!spec.add(Item::Day(DayRef::Today)));
        assert!(!spec.add(Item::Relative(Span {
            seconds: 60,
            ..Span::default()
        })));
        assert!(!spec.add(Item::Repeat(Repeat::each(RepeatRef::Daily), None)));
        assert_eq!(spec.parts, 2);
    }

    #[test]
    fn calendar_relative_takes_a_time_but_elapsed_does_not() {
        let mut days = Spec::default();
        assert!(days.add(Item::Relative(Span {
            days: 2,
            ..Span::default()
        })));
        assert!(days.add(Item::Time(NINE)));
        let mut hours = Spec::default();
        assert!(hours.add(Item::Relative(Span {
            seconds: 7200,
            ..Span::default()
        })));
        assert!(!hours.add(Item::Time(NINE)));
    }

    #[test]
    fn days_complete_repeats_and_next_week() {
        let mut yearly = Spec::default();
        assert!(yearly.add(Item::Day(DayRef::Date {
            day: 14,
            month: 2,
            year: None
        })));
        assert!(yearly.add(Item::Repeat(Repeat::each(RepeatRef::YearlyToday), None)));
        assert_eq!(
            yearly.repeat.map(|r| r.kind),
            Some(RepeatRef::Yearly { day: 14, month: 2 })
        );
        assert_eq!(yearly.day, None);
        let mut next = Spec::default();
        assert!(next.add(Item::Day(DayRef::NextWeek)));
        assert!(next.add(Item::Day(DayRef::Weekday {
            day: chrono::Weekday::Tue,
            next: false
        })));
        assert_eq!(
            next.day,
            Some(DayRef::Weekday {
                day: chrono::Weekday::Tue,
                next: true
            })
        );
    }

    #[test]
    fn an_end_goes_with_a_repeat_and_alone_is_a_deadline() {
        let friday = DayRef::Weekday {
            day: chrono::Weekday::Fri,
            next: false,
        };
        let mut repeat = Spec::default();
        assert!(repeat.add(Item::Repeat(Repeat::each(RepeatRef::Daily), None)));
        assert!(repeat.add(Item::Until(friday)));
        assert!(repeat.add(Item::Count(10)));
        assert!(repeat.is_anchored());
        let mut deadline = Spec::default();
        assert!(deadline.add(Item::Until(friday)));
        assert!(deadline.is_anchored());
        assert!(!deadline.add(Item::Day(DayRef::Tomorrow)));
        let mut one_off = Spec::default();
        assert!(one_off.add(Item::Day(DayRef::Tomorrow)));
        assert!(!one_off.add(Item::Until(friday)));
        assert!(!one_off.add(Item::Count(3)));
    }

    #[test]
    fn a_closing_count_stands_apart_and_joins_a_repeat() {
        let mut times = Spec::default();
        assert!(times.add(Item::Count(10)));
        assert!(times.is_detached() && !times.is_anchored());
        let mut repeat = Spec::default();
        repeat.add(Item::Repeat(Repeat::each(RepeatRef::Daily), None));
        assert_eq!(repeat.merged(&times).and_then(|m| m.count), Some(10));
        let mut day = Spec::default();
        day.add(Item::Day(DayRef::Tomorrow));
        assert_eq!(day.merged(&times), None);
    }

    #[test]
    fn merges_compatible_phrases_only() {
        let mut a = Spec::default();
        a.add(Item::Day(DayRef::Tomorrow));
        let mut b = Spec::default();
        b.add(Item::Time(NINE));
        assert!(a.merged(&b).is_some_and(|m| m.parts == 2));
        assert_eq!(a.merged(&a), None);
    }
}
