//! A series: the occurrences of a rule one after the other, numbered from 1, with its end (a last
//! date or a number of occurrences) and, for a rule counted from completion, the next one a
//! length of time after each was done.
//!
//! What a store keeps for a series is its current [`Occurrence`]: the instant and its number.
//! With that, [`Recurrence::next_occurrence`] (the occurrence is over: sent, skipped) and
//! [`Recurrence::after_done`] (the user marked it done) give the next one, or `None` once the
//! series has ended. A parsed task's first deadline is occurrence 1
//! ([`Recurrence::first_occurrence`]).

use chrono::{DateTime, Days, Months, NaiveDate, TimeDelta, Utc};
use chrono_tz::Tz;

use super::{Frequency, Recurrence};
use crate::domain::timezone::{resolve_local, to_local};

/// The most occurrences a counted series may have ("10 times" … "1000 times").
pub const MAX_COUNT: u32 = 1000;

/// How a series ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// After the occurrences on this local date ("until March 1", "до 1 марта",
    /// "1-martgacha": March 1 is the last day with an occurrence).
    Until(NaiveDate),
    /// After this many occurrences in all, the first one included ("10 times", "10 раз",
    /// "10 marta"), 1 to [`MAX_COUNT`].
    Count(u32),
}

/// One occurrence of a series: when it falls due and its number in the series (1 for the
/// first), which is what a counted series ([`End::Count`]) needs kept between occurrences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    /// When it falls due.
    pub at: DateTime<Utc>,
    /// Its number in the series, from 1.
    pub index: u32,
}

impl Recurrence {
    /// The first occurrence strictly after `after` (occurrence 1), or `None` when the series
    /// ends before it (an end date before the first slot).
    pub fn first_occurrence(&self, after: DateTime<Utc>, tz: Tz) -> Option<Occurrence> {
        self.within_end(
            Occurrence {
                at: self.next_after(after, tz),
                index: 1,
            },
            tz,
        )
    }

    /// The occurrence after `previous` on the schedule that is also strictly after `after`
    /// (the first still to come when a series resumes after a pause, for instance). Slots
    /// passed over are counted: they came and went. `None` once the series has ended: past
    /// its end date, or past its count.
    pub fn next_occurrence(
        &self,
        previous: Occurrence,
        after: DateTime<Utc>,
        tz: Tz,
    ) -> Option<Occurrence> {
        if self.frequency.counts_elapsed_time() {
            // Elapsed steps are counted in one division, however many were passed.
            let at = self.next_after(after.max(previous.at), tz);
            let passed = (at - previous.at).num_seconds() / self.step_seconds().max(1);
            let index = previous
                .index
                .checked_add(u32::try_from(passed.max(1)).ok()?)?;
            return self.within_end(Occurrence { at, index }, tz);
        }
        let mut current = previous;
        loop {
            current = self.within_end(
                Occurrence {
                    at: self.next_after(current.at, tz),
                    index: current.index.checked_add(1)?,
                },
                tz,
            )?;
            if current.at > after || current.at == DateTime::<Utc>::MAX_UTC {
                return Some(current);
            }
        }
    }

    /// The occurrence after `previous` once it was done at `done_at`. For a rule counted from
    /// completion ([`Recurrence::counts_from_done`]) it is the rule's interval after `done_at`
    /// (minutes and hours of elapsed time; days, months or years on the wall clock, at the
    /// rule's time of day); for any other rule, the next slot of the schedule after both
    /// `previous` and `done_at`. `None` once the series has ended.
    pub fn after_done(
        &self,
        previous: Occurrence,
        done_at: DateTime<Utc>,
        tz: Tz,
    ) -> Option<Occurrence> {
        if !self.from_done {
            return self.next_occurrence(previous, done_at, tz);
        }
        let at = self.interval_after(done_at, tz)?;
        self.within_end(
            Occurrence {
                at,
                index: previous.index.checked_add(1)?,
            },
            tz,
        )
    }

    /// The instant one interval after `done_at`.
    fn interval_after(&self, done_at: DateTime<Utc>, tz: Tz) -> Option<DateTime<Utc>> {
        let n = self.interval;
        let date = to_local(tz, done_at).date();
        let date = match self.frequency {
            Frequency::Minutely | Frequency::Hourly => {
                return done_at.checked_add_signed(TimeDelta::try_seconds(self.step_seconds())?);
            }
            Frequency::Daily => date.checked_add_days(Days::new(u64::from(n)))?,
            Frequency::MonthlyOnDay(_) => date.checked_add_months(Months::new(n))?,
            Frequency::Yearly { .. } => date.checked_add_months(Months::new(n.checked_mul(12)?))?,
            // `from_done` refuses rules on fixed days; should one come here, its schedule.
            Frequency::Weekdays
            | Frequency::Weekly(_)
            | Frequency::MonthlyOnLastDay
            | Frequency::MonthlyOnWeekday { .. } => {
                return Some(self.next_after(done_at, tz));
            }
        };
        Some(resolve_local(tz, date.and_time(self.time)))
    }

    /// `occurrence` if the series has not ended by it.
    fn within_end(&self, occurrence: Occurrence, tz: Tz) -> Option<Occurrence> {
        let within = match self.end {
            None => true,
            Some(End::Count(count)) => occurrence.index <= count,
            Some(End::Until(last)) => local_date(occurrence.at, tz) <= last,
        };
        within.then_some(occurrence)
    }
}

fn local_date(at: DateTime<Utc>, tz: Tz) -> NaiveDate {
    to_local(tz, at).date()
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDateTime, NaiveTime, Weekday};

    use super::*;
    use crate::domain::recurrence::WeekOfMonth;

    const BERLIN: Tz = chrono_tz::Europe::Berlin;

    fn at(s: &str) -> DateTime<Utc> {
        resolve_local(
            BERLIN,
            NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").expect("valid"),
        )
    }

    fn nine() -> NaiveTime {
        NaiveTime::from_hms_opt(9, 0, 0).expect("valid")
    }

    fn walk(rule: &Recurrence, from: &str) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        let mut current = rule.first_occurrence(at(from), BERLIN);
        while let Some(occurrence) = current.filter(|_| out.len() < 50) {
            out.push((
                to_local(BERLIN, occurrence.at)
                    .format("%m-%d %H:%M")
                    .to_string(),
                occurrence.index,
            ));
            current = rule.next_occurrence(occurrence, occurrence.at, BERLIN);
        }
        out
    }

    #[test]
    fn a_count_ends_after_that_many_occurrences() {
        let rule = Recurrence::new(Frequency::Daily, nine())
            .and_then(|r| r.ending(End::Count(3)))
            .expect("valid");
        assert_eq!(
            walk(&rule, "2026-03-27 10:00"),
            [
                ("03-28 09:00".to_owned(), 1),
                ("03-29 09:00".to_owned(), 2),
                ("03-30 09:00".to_owned(), 3)
            ]
        );
    }

    #[test]
    fn an_end_date_keeps_the_occurrences_on_that_day() {
        let rule = Recurrence::new(
            Frequency::MonthlyOnWeekday {
                week: WeekOfMonth::Last,
                day: Weekday::Fri,
            },
            nine(),
        )
        .and_then(|r| {
            r.ending(End::Until(
                NaiveDate::from_ymd_opt(2026, 5, 29).expect("valid"),
            ))
        })
        .expect("valid");
        let dates: Vec<String> = walk(&rule, "2026-03-01 10:00")
            .into_iter()
            .map(|(d, _)| d)
            .collect();
        assert_eq!(dates, ["03-27 09:00", "04-24 09:00", "05-29 09:00"]);
        let too_late = rule.ending(End::Until(
            NaiveDate::from_ymd_opt(2026, 3, 1).expect("valid"),
        ));
        assert_eq!(
            too_late
                .expect("valid")
                .first_occurrence(at("2026-03-02 10:00"), BERLIN),
            None
        );
    }

    #[test]
    fn passed_slots_are_counted_when_a_series_resumes() {
        let rule = Recurrence::new(Frequency::Daily, nine())
            .and_then(|r| r.ending(End::Count(5)))
            .expect("valid");
        let first = rule
            .first_occurrence(at("2026-03-27 10:00"), BERLIN)
            .expect("first");
        let resumed = rule
            .next_occurrence(first, at("2026-03-30 12:00"), BERLIN)
            .expect("still on");
        assert_eq!((resumed.at, resumed.index), (at("2026-03-31 09:00"), 4));
        assert_eq!(
            rule.next_occurrence(first, at("2026-04-02 12:00"), BERLIN),
            None
        );
        let every_ten = Recurrence::minutely(10, at("2026-03-27 10:00"))
            .and_then(|r| r.ending(End::Count(7)))
            .expect("valid");
        let start = every_ten
            .first_occurrence(at("2026-03-27 10:00"), BERLIN)
            .expect("first");
        let later = every_ten
            .next_occurrence(start, at("2026-03-27 10:55"), BERLIN)
            .expect("still on");
        assert_eq!((later.at, later.index), (at("2026-03-27 11:00"), 6));
    }

    #[test]
    fn after_done_counts_from_the_completion() {
        let rule = Recurrence::every(
            Frequency::Daily,
            nine(),
            3,
            at("2026-03-28 09:00").date_naive(),
        )
        .and_then(Recurrence::from_done)
        .expect("valid");
        let first = rule
            .first_occurrence(at("2026-03-27 10:00"), BERLIN)
            .expect("first");
        assert_eq!(first.at, at("2026-03-28 09:00"));
        let next = rule
            .after_done(first, at("2026-03-30 18:00"), BERLIN)
            .expect("next");
        assert_eq!((next.at, next.index), (at("2026-04-02 09:00"), 2));
        let hourly = Recurrence::hourly(2, at("2026-03-27 10:00"))
            .and_then(Recurrence::from_done)
            .expect("valid");
        let done = at("2026-03-27 13:17");
        let next = hourly
            .after_done(
                Occurrence {
                    at: at("2026-03-27 12:00"),
                    index: 1,
                },
                done,
                BERLIN,
            )
            .expect("next");
        assert_eq!(next.at - done, TimeDelta::hours(2));
        let on_schedule = Recurrence::new(Frequency::Daily, nine()).expect("valid");
        let late = on_schedule
            .after_done(first, at("2026-03-29 10:00"), BERLIN)
            .expect("next");
        assert_eq!((late.at, late.index), (at("2026-03-30 09:00"), 3));
    }

    #[test]
    fn fixed_days_do_not_count_from_done() {
        let weekly = Recurrence::new(Frequency::Weekdays, nine()).expect("valid");
        assert_eq!(
            weekly.from_done(),
            Err(crate::domain::recurrence::RecurrenceError::FixedDaysFromDone)
        );
        assert_eq!(
            weekly.ending(End::Count(0)),
            Err(crate::domain::recurrence::RecurrenceError::CountOutOfRange { count: 0 })
        );
    }
}
