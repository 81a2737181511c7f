//! Finding the time phrase in a message and cutting it out of the task text.
//!
//! A phrase is a run of parts (see [`grammar`](super::grammar)) with only
//! punctuation or "and" between them. The phrase may open the message, close
//! it, or both ("tomorrow pay rent at 9"); a closing lead time such as
//! "remind 30 min before" may stand apart from the rest, and so may one a few words before its
//! time inside the text ("leave home 30 min before the 7pm concert"). Only when neither
//! edge holds a phrase is one looked for inside the text, and then it must
//! be unmistakable (two parts, a relative time, or a part such as "at 5", "tomorrow" or "on
//! friday" that is no ordinary text), so that a lone "friday" in "prepare friday slides" stays
//! text. A greeting and a request to the bot at the start ("good morning", "remind me",
//! "напомни") are skipped first, so that
//! "remind me at 5 to call mom" finds "at 5". When both edges hold phrases that
//! contradict each other ("monday report tomorrow 9"), the one with more
//! parts wins, the closing one on a tie (unless it is a deadline alone and the other a day), and
//! the other stays text. Whatever the grammar can
//! still read in the text left over is reported as unplaced, with words a one-letter typo was
//! read as (see [`Found`]).

use super::grammar::{
    Context, DayRef, Item, Lexed, PeriodWord, RepeatRef, closing_quote, is_infinitive, parse_item,
};
use super::keys::Key;
use super::lexer::TokenKind;
use super::spec::Spec;
use super::uz;
use super::{Unplaced, UnplacedKind};
use request::{
    asked_right_before, drop_trailing_request, skip_greeting, skip_request, task_after_request,
    without_inner_request,
};

mod request;
mod second;
mod twice;

/// At most this many glue tokens may separate two parts of one phrase.
const MAX_GLUE: usize = 3;

/// The phrase that was found and the text left around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    /// What the phrase says.
    pub spec: Spec,
    /// The task text without the phrase, trimmed.
    pub text: String,
    /// Words of the phrase read as the key word they are a typo of: (as typed, as read).
    pub typos: Vec<(String, &'static str)>,
    /// Time words left in the text.
    pub unplaced: Vec<Unplaced>,
    /// A second time joined by "and" to the phrase's ("every day at 9 and 21 pills"): the phrase
    /// as it reads at that time instead. Its words are cut from the text and said first in
    /// `unplaced`, for a reader that makes one reminder only.
    pub second: Option<Spec>,
}

/// A run of phrase parts over tokens `start..end`.
#[derive(Debug, Clone)]
struct Run {
    start: usize,
    end: usize,
    spec: Spec,
    /// Whether one of its parts cannot be ordinary text ("at 5", "tomorrow", "on friday").
    unmistakable: bool,
}

impl Run {
    fn is_usable(&self) -> bool {
        self.spec.is_anchored() || self.spec.is_detached()
    }
}

/// Finds the time phrase in `input`, or `None` if it has none.
pub(super) fn find(input: &str, lexed: &Lexed) -> Option<Found> {
    let n = lexed.len();
    let first_word = (0..n).find(|&i| !lexed.is_glue(i)).unwrap_or(n);
    let first = skip_request(lexed, skip_greeting(lexed, first_word, n, false), n);
    let prefix = chain(lexed, first).filter(Run::is_usable);
    let from = prefix.as_ref().map_or(first, |r| r.end);
    let suffix = (from..n)
        .filter(|&i| !lexed.is_glue(i))
        .find_map(|i| chain(lexed, i).filter(|r| r.is_usable() && ends_message(lexed, r)));

    if let (Some(p), Some(s)) = (&prefix, &suffix)
        && let Some(spec) = p.spec.merged(&s.spec).filter(Spec::is_anchored)
    {
        // A time between the edges that neither says ("remind me 15 mins before the 10am call
        // tomorrow"): the phrase is at that time, not at the day's default.
        let between = (spec.clock.is_none())
            .then(|| inner_run_within(lexed, p.end, s.start))
            .flatten()
            .and_then(|inner| Some((spec.merged(&inner.spec)?, inner)));
        if let Some((spec, inner)) = between {
            return Some(found(
                input,
                lexed,
                spec,
                &[(p.start, p.end), (inner.start, inner.end), (s.start, s.end)],
            ));
        }
        return Some(found(
            input,
            lexed,
            spec,
            &[(p.start, p.end), (s.start, s.end)],
        ));
    }
    // A day at one edge and a time inside, as Uzbek puts them ("ertaga onamga soat 6 da
    // qo'ng'iroq qilish", "soat 5 da onamga ertaga qo'ng'iroq"), or English ("tomorrow call mom
    // at 5 about dinner").
    let inner_with_edge = [
        prefix.as_ref().and_then(|p| {
            let inner = inner_run_within(lexed, p.end, n)?;
            Some((
                p.spec.merged(&inner.spec)?,
                [(p.start, p.end), (inner.start, inner.end)],
                inner,
            ))
        }),
        suffix.as_ref().and_then(|s| {
            let inner = inner_run_within(lexed, from, s.start)?;
            // "book tickets for the 7:45 train, remind me wednesday": a day asked for after the
            // request is the reminder's, and "the 7:45 train" names the task's train ("dinner at
            // 7pm, remind me tomorrow" is tomorrow at 19:00).
            let day_alone = s.spec.clock.is_none() && s.spec.relative.is_none();
            if day_alone && asked_right_before(lexed, s.start) && names_a_thing(lexed, &inner) {
                return None;
            }
            Some((
                inner.spec.merged(&s.spec)?,
                [(inner.start, inner.end), (s.start, s.end)],
                inner,
            ))
        }),
    ];
    if let Some((spec, ranges, inner)) = inner_with_edge
        .into_iter()
        .flatten()
        .find(|(spec, ..)| spec.is_anchored())
    {
        // "leave for the airport 2 hours before the 6:40pm flight on saturday".
        return Some(found_with_lead_apart(
            input, lexed, first, spec, ranges, &inner,
        ));
    }
    let edge = [prefix, suffix]
        .into_iter()
        .flatten()
        .filter(|r| r.spec.is_anchored())
        // On a tie a deadline alone gives way to a day to do it ("в пятницу продлить ОСАГО, оно
        // до 20 апреля" is Friday).
        .max_by_key(|r| {
            let deadline_only = r.spec.until.is_some() && r.spec.parts == 1;
            (r.spec.parts, !deadline_only)
        });
    // Neither edge holds a phrase, and a day and a time stand apart inside the text ("okay so
    // tomorrow i need to call the bank at like half ten"): they go together.
    if edge.is_none()
        && let Some((spec, ranges, time)) = inner_day_and_time(lexed, first, n)
    {
        // "okay so tomorrow leave home 30 min before the 7pm concert".
        return Some(found_with_lead_apart(
            input, lexed, first, spec, ranges, &time,
        ));
    }
    let run = edge.or_else(|| inner_run(lexed, first, n))?;
    // A holiday, a quarter's end or a month's start is also ordinary text ("christmas eve menu
    // planning, call monday 10am", "в конце квартала налево, завтра в 10 встреча"): a day or
    // time elsewhere in the message comes first.
    let run = if is_occasion_only(&run.spec) {
        day_or_time_apart_from(lexed, first, &run).unwrap_or(run)
    } else {
        run
    };
    if run.start > first && is_adjective_repeat(lexed, &run) {
        return None;
    }
    if let Some((lead, spec)) = lead_apart(lexed, first, &run) {
        // "before" stays with the event it points to: "leave home before the concert".
        let ranges = [(lead.start, lead.end - 1), (run.start, run.end)];
        return Some(found(input, lexed, spec, &ranges));
    }
    Some(found(input, lexed, run.spec, &[(run.start, run.end)]))
}

/// The phrase `spec` over `ranges`, with a lead apart from its time `time` when there is one, as
/// from a time alone ([`lead_apart`]).
fn found_with_lead_apart(
    input: &str,
    lexed: &Lexed,
    first: usize,
    spec: Spec,
    ranges: TwoRanges,
    time: &Run,
) -> Found {
    let lead =
        lead_apart(lexed, first, time).and_then(|(lead, _)| Some((spec.merged(&lead.spec)?, lead)));
    match lead {
        Some((spec, lead)) => {
            let mut with_lead = [(lead.start, lead.end - 1), ranges[0], ranges[1]];
            with_lead.sort_unstable();
            found(input, lexed, spec, &with_lead)
        }
        None => found(input, lexed, spec, &ranges),
    }
}

/// Two ranges of tokens, in order.
type TwoRanges = [(usize, usize); 2];

/// A day alone and a time alone inside tokens `first..to`, both unmistakable and apart: the
/// phrase they make together, their ranges in order, and the time's run.
fn inner_day_and_time(lexed: &Lexed, first: usize, to: usize) -> Option<(Spec, TwoRanges, Run)> {
    let runs: Vec<Run> = (first..to)
        .filter_map(|i| chain(lexed, i))
        .filter(|r| r.end <= to && r.spec.is_anchored() && r.unmistakable)
        .collect();
    let days = runs
        .iter()
        .filter(|r| r.spec.day.is_some() && r.spec.clock.is_none() && r.spec.parts == 1);
    days.flat_map(|day| runs.iter().map(move |time| (day, time)))
        .filter(|(day, time)| {
            (time.start >= day.end || time.end <= day.start)
                && time.spec.clock.is_some()
                && time.spec.day.is_none()
                && time.spec.repeat.is_none()
                && is_plainly_time(lexed, time)
        })
        .find_map(|(day, time)| {
            let spec = day.spec.merged(&time.spec)?;
            let mut ranges = [(day.start, day.end), (time.start, time.end)];
            ranges.sort_unstable();
            Some((spec, ranges, time.clone()))
        })
}

/// Whether the time `run` names a thing after "the" ("the 7:45 train", "the 10am call").
fn names_a_thing(lexed: &Lexed, run: &Run) -> bool {
    lexed.has(run.start, Key::The)
        || run
            .start
            .checked_sub(1)
            .is_some_and(|i| lexed.has(i, Key::The))
}

/// Whether `spec` names a holiday, a quarter's end or a month's start and no time of its own.
fn is_occasion_only(spec: &Spec) -> bool {
    spec.day.is_some_and(DayRef::is_occasion) && spec.clock.is_none() && spec.repeat.is_none()
}

/// The longest run from token `first` on that says a day (not an occasion) or a time and does
/// not overlap `run`.
fn day_or_time_apart_from(lexed: &Lexed, first: usize, run: &Run) -> Option<Run> {
    (first..lexed.len())
        .filter_map(|i| chain(lexed, i))
        .filter(|other| other.end <= run.start || other.start >= run.end)
        .filter(|other| {
            other.is_usable()
                && other.spec.is_anchored()
                && !is_occasion_only(&other.spec)
                && (other.spec.day.is_some() || other.spec.clock.is_some())
        })
        .max_by_key(|other| other.end - other.start)
}

/// A lead time in the text a few words before the time `run`, ending in "before"
/// or "до" ("leave home 30 min before the 7pm concert", "выйти за 30 минут до концерта в 19:00"),
/// and the phrase with it: the reminder is that long before, not at the time. A lead after the
/// time, or without "before", describes the task ("за 30 минут до еды", "отчёт за день").
fn lead_apart(lexed: &Lexed, first: usize, run: &Run) -> Option<(Run, Spec)> {
    if run.spec.lead.is_some() {
        return None;
    }
    let lead = (first..run.start)
        .filter_map(|i| chain(lexed, i))
        .find(|r| {
            r.spec.lead.is_some()
                && r.spec.parts == 1
                && r.end <= run.start
                && run.start - r.end <= MAX_GLUE
                && [Key::Before, Key::Until]
                    .iter()
                    .any(|key| lexed.has(r.end - 1, *key))
        })?;
    let spec = lead.spec.merged(&run.spec)?;
    Some((lead, spec))
}

/// Whether the only phrase is English "daily", "weekly", "monthly" or "yearly" inside the text
/// before a word it describes ("write weekly report", "check daily sales"): no time was said, and
/// the bot asks when rather than make a repeat ("take pills daily", "daily take pills" and "daily
/// at 9 meds" still repeat).
fn is_adjective_repeat(lexed: &Lexed, run: &Run) -> bool {
    let adjective = lexed
        .token(run.start)
        .and_then(|t| t.word())
        .is_some_and(|w| matches!(w, "daily" | "weekly" | "monthly" | "yearly"));
    run.spec.parts == 1
        && run.end == run.start + 1
        && adjective
        && lexed
            .token(run.end)
            .is_some_and(|t| t.word().is_some() && t.spaced && lexed.has_no_meaning(run.end))
}

/// The longest unmistakable phrase with words on both sides of it, within tokens `from..to`,
/// that is plainly a time to join a day at an edge: not "at 12" of "at 12 navoi street".
fn inner_run_within(lexed: &Lexed, from: usize, to: usize) -> Option<Run> {
    inner_run(lexed, from + 1, to.saturating_sub(1))
        .filter(|r| !is_adjective_repeat(lexed, r) && is_plainly_time(lexed, r))
}

/// Whether a run inside the text is plainly a time of day, not a number that happens to follow
/// "at" or "в": written as a clock's face or with am/pm, "soat … da", or followed by punctuation,
/// a key word ("at 5 about dinner", "в 6 насчёт ужина") or a preposition that an hour takes and a
/// house number does not ("breakfast at 8 with the in-laws", "в 6 у врача"), not by plain text
/// ("at 12 navoi street", where 12 is a house).
fn is_plainly_time(lexed: &Lexed, run: &Run) -> bool {
    let Some(clock) = run.spec.clock else {
        return true;
    };
    let face = (run.start..run.end).any(|i| lexed.token(i).and_then(|t| t.punct()) == Some(':'));
    let written = clock.meridiem.is_some() || clock.exact || clock.minute != 0 || face;
    let in_run = |key: Key| (run.start..run.end).any(|i| lexed.has(i, key));
    let soat_da = in_run(Key::At) && in_run(Key::Da);
    let closed = lexed.token(run.end).is_none_or(|t| {
        t.punct().is_some()
            || !lexed.has_no_meaning(run.end)
            || t.word().is_some_and(|w| FOLLOWING_AN_HOUR.contains(&w))
    });
    written || soat_da || closed
}

/// The longest unmistakable phrase inside the text, if any: two parts, a relative time, or a
/// part that cannot be ordinary text ("call mom at 5 about dinner"), so that a lone "friday"
/// in "prepare friday slides" stays text.
fn inner_run(lexed: &Lexed, first: usize, to: usize) -> Option<Run> {
    (first..to)
        .filter_map(|i| chain(lexed, i))
        .filter(|r| {
            r.end <= to
                && r.spec.is_anchored()
                && (r.spec.parts >= 2 || r.spec.relative.is_some() || r.unmistakable)
        })
        .fold(None, |best: Option<Run>, r| match best {
            Some(b) if b.end - b.start >= r.end - r.start => Some(b),
            _ => Some(r),
        })
}

/// The longest run of compatible parts starting at token `start`.
fn chain(lexed: &Lexed, start: usize) -> Option<Run> {
    let mut spec = Spec::default();
    let mut end = start;
    let mut bare_hour = false;
    let mut unmistakable = false;
    let mut last = None;
    let mut asked_inside = false;
    loop {
        let at = if spec.parts == 0 {
            start
        } else {
            skip_glue(lexed, end)
        };
        if at >= lexed.len() || !lexed.starts_word(at) {
            break;
        }
        let context = Context {
            bare_hour,
            has_day: spec.day.is_some() || spec.repeat.is_some(),
            weekday: match spec.day {
                Some(DayRef::Weekday { day, next: false })
                    if spec.weekday.is_none() && spec.clock.is_none() =>
                {
                    Some(day)
                }
                _ => None,
            },
            after_elapsed_repeat: spec
                .repeat
                .is_some_and(|r| matches!(r.kind, RepeatRef::Hourly | RepeatRef::Minutely)),
        };
        // "завтра напомни в 11 скинуть …": a request between two parts of the time joins them,
        // when a marked hour follows it and ends there ("завтра напомни в 2 магазина зайти",
        // "tomorrow remind me 10 minutes of stretching" stay text).
        let after_request = (spec.parts > 0 && lexed.has(at, Key::Remind))
            .then(|| {
                let past = at + 1 + usize::from(lexed.has(at + 1, Key::Me));
                skip_glue(lexed, past)
            })
            .filter(|&past| marked_hour_at(lexed, past, context));
        asked_inside |= after_request.is_some();
        let at = after_request.unwrap_or(at);
        let Some((item, item_end)) = parse_item(lexed, at, context) else {
            break;
        };
        if !lexed.ends_word(item_end) || describes_task(last, item) || !spec.add(item) {
            break;
        }
        last = Some(item);
        unmistakable |= is_unmistakable(lexed, at, item_end, item);
        bare_hour = matches!(
            item,
            Item::Day(_) | Item::Period { .. } | Item::DayPeriod(..) | Item::Repeat(..)
        );
        end = item_end;
    }
    // "tomorrow remind me at 11 to send the deck": the request's "to" goes with it.
    if asked_inside && lexed.token(end).and_then(|t| t.word()) == Some("to") {
        end += 1;
    }
    (spec.parts > 0).then_some(Run {
        start,
        end,
        spec,
        unmistakable,
    })
}

/// Whether a marked hour starts at token `at` ("в 11", "at 11", "часиков в 11") and ends where
/// the task's words begin: the message's or a clause's end, a word of the time, "to" or a Russian
/// verb ("в 11 скинуть"), not a counted noun ("в 3 банка").
fn marked_hour_at(lexed: &Lexed, at: usize, context: Context) -> bool {
    let marked = lexed.has(at, Key::At) || lexed.has(at, Key::HourWord);
    let Some((Item::Time(_), end)) = parse_item(lexed, at, context) else {
        return false;
    };
    let word = lexed.token(end).and_then(|t| t.word());
    let ends = lexed.token(end).is_none_or(|t| t.punct().is_some())
        || !lexed.has_no_meaning(end)
        || word.is_some_and(|w| w == "to" || is_infinitive(w));
    marked && ends
}

/// Whether `item`, read right after the part `last`, is a noun of the task rather than of its
/// time: a part of the day's noun or adjective after a clock time ("9:00 night shift", "soat
/// 10 da kechki ovqat", "в 10 вечер встречи") names the task. An hour's own part of the day ("в
/// 9 вечера", "at 9 in the evening") is the time's, and so is a noun after a day ("friday
/// night").
fn describes_task(last: Option<Item>, item: Item) -> bool {
    matches!(last, Some(Item::Time(_)))
        && matches!(
            item,
            Item::Period {
                word: PeriodWord::Noun,
                ..
            }
        )
}

/// Whether the part `item` over tokens `start..end` cannot be ordinary text: a relative time,
/// a repeat (weekdays without "every" only with a marker: "prepare monday and friday reports"
/// keeps them), an end, a day word, a marked weekday or day of the month ("on friday", "on the
/// 15th"), a date with a month name, a time longer than a bare number, a part of the day said
/// as a time.
fn is_unmistakable(lexed: &Lexed, start: usize, end: usize, item: Item) -> bool {
    let marked = [Key::On, Key::At, Key::Next, Key::This, Key::The]
        .iter()
        .any(|key| lexed.has(start, *key));
    match item {
        Item::Repeat(..) => marked || lexed.pick(start, weekday_word).is_none(),
        Item::Relative(_)
        | Item::RelativeGuessed(..)
        | Item::Lead(_)
        | Item::DayPeriod(..)
        | Item::Until(_)
        | Item::Start(_) => true,
        Item::Count(_) | Item::Lasting(_) => false,
        // Uzbek's "juma kuni" before what to do, closing the message ("do'konga yakshanba kuni
        // borish", "якшанба куни бозорга бориш") says the day as "on friday" does; not in a story
        // ("Ali juma kuni keldi") nor in a clause ("juma kuni uchrashish uchun bugun …").
        Item::Day(DayRef::Weekday { .. }) => {
            let word = |i: usize| lexed.token(i).and_then(|t| t.word());
            let said_with_kuni = (start..end)
                .any(|i| matches!(word(i), Some("kuni" | "kunida" | "куни" | "кунида")));
            let verbal_noun =
                |i: usize| word(i).is_some_and(|w| w.ends_with("sh") || w.ends_with('ш'));
            // A few words of what to do close the message ("qo'ng'iroq qilish", "parkka olib
            // borish"), none of them a clause's verbal noun or object ("borishni aytish").
            let n = lexed.len();
            let clause = |i: usize| {
                word(i).is_some_and(|w| w.ends_with("ni") || w.ends_with("ни")) || verbal_noun(i)
            };
            let to_do = n > end && n - end <= 3 && verbal_noun(n - 1) && !(end..n - 1).any(clause);
            marked || (said_with_kuni && to_do)
        }
        // "15 числа", "3-sanada": a day of the month with its noun is no ordinary text.
        Item::Day(DayRef::MonthDay(_)) => {
            marked || (start..end).any(|i| lexed.has(i, Key::DateNoun))
        }
        // A numeric date without a year may be a price ("15.09") unless its day is typed with a
        // zero ("01.09", as no price is) or Uzbek's "da" follows it ("01.09 da"), and no day is
        // named elsewhere ("в пятницу сдать раздел 02.03 отчёта" numbers a section) and it opens
        // no span of days ("с 01.06 по 10.06 отпуск").
        Item::Day(DayRef::Date { year, .. }) => {
            let opens_a_span = start > 0
                && matches!(
                    lexed.token(start - 1).and_then(|t| t.word()),
                    Some("с" | "со" | "from")
                );
            let zero_day = !opens_a_span
                && lexed.token(start).is_some_and(
                    |t| matches!(t.kind, TokenKind::Number { value, digits: 2 } if value < 10),
                );
            let located = (start..end).any(|i| lexed.has(i, Key::Da));
            year.is_some()
                || ((zero_day || located) && !lexed.names_a_day())
                || (start..end).any(|i| lexed.pick(i, month_key).is_some())
        }
        Item::Day(_) => true,
        Item::Time(_) => {
            let malformed = lexed
                .token(end)
                .is_some_and(|t| !t.spaced && t.punct().is_some())
                && lexed
                    .token(end + 1)
                    .is_some_and(|t| !t.spaced && t.word().is_none());
            !malformed && (end - start >= 2 || lexed.token(start).and_then(|t| t.word()).is_some())
        }
        Item::Period { word, .. } => word == PeriodWord::Alone,
        Item::Zone(_) => true,
    }
}

/// A weekday's name, full or short, in any form.
fn weekday_word(key: Key) -> Option<()> {
    matches!(
        key,
        Key::Weekday(_) | Key::WeekdayShort(_) | Key::WeekdayListed(_)
    )
    .then_some(())
}

fn month_key(key: Key) -> Option<u32> {
    match key {
        Key::Month(m) => Some(m),
        _ => None,
    }
}

fn skip_glue(lexed: &Lexed, from: usize) -> usize {
    (from..lexed.len())
        .take(MAX_GLUE)
        .find(|&i| !lexed.is_glue(i))
        .unwrap_or_else(|| (from + MAX_GLUE).min(lexed.len()))
}

fn only_glue(lexed: &Lexed, from: usize, to: usize) -> bool {
    (from..to).all(|i| lexed.is_glue(i))
}

/// Whether `run` closes the message: only glue follows it, or a second time joined by "and"
/// and the parts that close both ("таблетки каждый день в 9 утра и 9 вечера", "pills every day
/// at 8:00 and 20:00", "every day at 8am and 8pm for 7 days").
fn ends_message(lexed: &Lexed, run: &Run) -> bool {
    let n = lexed.len();
    let after = skip_glue(lexed, run.end);
    only_glue(lexed, run.end, n)
        || second::second_time(lexed, after, &run.spec).is_some_and(|(mut other, end)| {
            let mut spec = run.spec;
            only_glue(
                lexed,
                second::closing_parts(lexed, end, n, &mut spec, &mut other),
                n,
            )
        })
}

/// The result for a phrase made of the given runs (in order): the text is
/// what lies outside them, each piece without edge glue, joined by spaces.
/// A leading "remind me (to)" / "напомни (мне)" / "menga eslat" and a trailing
/// "eslat(ib qo'y)" are dropped too: they address the bot, not the task; so is the "to" of
/// "remind me at 5 to call mom".
fn found(input: &str, lexed: &Lexed, mut spec: Spec, runs: &[(usize, usize)]) -> Found {
    let mut bounds = Vec::new();
    let mut from = 0;
    for &(start, end) in runs {
        bounds.push((from, text_end_before(lexed, from, start)));
        from = end;
    }
    bounds.push((from, lexed.len()));
    let mut pieces: Vec<(usize, usize)> = bounds
        .into_iter()
        .map(|(start, end)| trim_glue(lexed, start, end))
        .filter(|(start, end)| start < end)
        .collect();
    let mut requested = false;
    let pieces_count = pieces.len();
    let first_word = (0..lexed.len())
        .find(|&i| !lexed.is_glue(i))
        .unwrap_or(lexed.len());
    if let Some((start, end)) = pieces.first_mut() {
        let opens_message = *start == first_word;
        let greeted = if opens_message {
            skip_greeting(lexed, *start, *end, pieces_count > 1)
        } else {
            *start
        };
        let past = skip_request(lexed, greeted, *end);
        requested = past > greeted;
        *start = past;
    }
    let mut asked_at_end = false;
    let mut asked_in_uzbek = false;
    if let Some((start, end)) = pieces.last_mut() {
        let before = drop_trailing_request(lexed, *start, *end);
        asked_at_end = before < *end;
        asked_in_uzbek = (before..*end).any(|i| {
            lexed
                .token(i)
                .and_then(|t| t.word())
                .is_some_and(|w| w.starts_with("eslat") || w.starts_with("эслат"))
        });
        *end = before;
    }
    requested |= asked_at_end;
    let mut pieces: Vec<(usize, usize)> = pieces
        .into_iter()
        .flat_map(|(start, end)| without_inner_request(lexed, start, end))
        .collect();
    pieces.retain(|(start, end)| trim_glue(lexed, *start, *end).0 < *end);
    let mut pieces = task_after_request(lexed, &pieces);
    let mut second = second::cut(input, lexed, &mut pieces, &mut spec);
    if let Some((other, _)) = second.as_mut() {
        twice::make_daily(lexed, &mut pieces, &mut spec, other);
    }
    if requested && let Some((start, end)) = pieces.first_mut() {
        let (s, _) = trim_glue(lexed, *start, *end);
        let addressed = matches!(lexed.token(s).and_then(|t| t.word()), Some("to" | "of"))
            || lexed.has(s, Key::About)
            || (lexed.has(s, Key::Me) && !lexed.has(s, Key::Remind));
        *start = if addressed { s + 1 } else { s };
    }
    let pieces: Vec<(usize, usize)> = pieces
        .into_iter()
        .map(|(start, end)| trim_glue(lexed, start, end))
        .filter(|(start, end)| start < end)
        .collect();
    let text = pieces
        .iter()
        .filter_map(|&(start, end)| slice(input, lexed, start, end))
        .collect::<Vec<_>>()
        .join(" ");
    let text = unquoted(input, text);
    let text = if asked_in_uzbek {
        uz::verbal_noun_without_accusative(text)
    } else {
        text
    };
    let typos = runs
        .iter()
        .flat_map(|&(start, end)| start..end)
        .filter_map(|i| {
            let read = lexed.typo(i)?;
            Some((slice(input, lexed, i, i + 1)?.to_owned(), read))
        })
        .collect();
    // A repeat word left in the text ("send weekly report" of "every friday 4pm send weekly
    // report") is no repeat that failed when the task repeats.
    let unplaced = second
        .as_ref()
        .map(|(_, words)| words.clone())
        .into_iter()
        .chain(
            pieces
                .iter()
                .flat_map(|&(start, end)| unplaced_in(input, lexed, start, end)),
        )
        .filter(|words| spec.repeat.is_none() || words.kind != UnplacedKind::Repeat)
        .collect();
    Found {
        spec,
        text,
        typos,
        unplaced,
        second: second.map(|(spec, _)| spec),
    }
}

/// The task text without the quotation marks of a message that is all one quotation
/// (`"every day at 9 pills"`): the phrase cut from inside it leaves them at the text's edges.
fn unquoted(input: &str, text: String) -> String {
    let message = input.trim();
    let mut chars = message.chars();
    let whole = chars
        .next()
        .and_then(|open| Some((open, closing_quote(open)?)))
        .filter(|&(_, close)| chars.next_back() == Some(close) && !chars.as_str().contains(close));
    match whole {
        Some((open, close)) => {
            let text = text.strip_prefix(open).unwrap_or(&text);
            text.strip_suffix(close).unwrap_or(text).trim().to_owned()
        }
        None => text,
    }
}

/// Where the text before a phrase starting at `start` ends: before a preposition that leads
/// the phrase ("встречу на 5 вечера", "сдать отчёт до 18:00", "appointment for 3pm"), which
/// belongs to it.
fn text_end_before(lexed: &Lexed, from: usize, start: usize) -> usize {
    let leads = start > from
        && lexed.starts_word(start)
        && lexed
            .token(start - 1)
            .and_then(|t| t.word())
            .is_some_and(|w| LEADING_PREPOSITIONS.contains(&w));
    if leads { start - 1 } else { start }
}

/// Prepositions that lead a time phrase right after them.
const LEADING_PREPOSITIONS: &[&str] = &[
    "на",
    "до",
    "в",
    "во",
    "к",
    "перед",
    "for",
    "at",
    "by",
    "on",
    "until",
    "till",
    "before",
];

/// Prepositions that follow an hour ("at 8 with the in-laws", "в 7 с коллегами") and not a house
/// or room number.
const FOLLOWING_AN_HOUR: &[&str] = &["with", "to", "с", "со", "у"];

/// Time words anywhere in `input`, for a message in which [`find`] found no phrase.
pub(super) fn loose(input: &str, lexed: &Lexed) -> Vec<Unplaced> {
    unplaced_in(input, lexed, 0, lexed.len())
}

/// Time words in the text `start..end` that the phrase did not take: whatever the grammar
/// reads there ("monday" in "prepare monday report tomorrow 9"), and a repeat word before
/// something it could not read ("every 10 minutes").
fn unplaced_in(input: &str, lexed: &Lexed, start: usize, end: usize) -> Vec<Unplaced> {
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let run = lexed
            .starts_word(i)
            .then(|| chain(lexed, i))
            .flatten()
            .filter(|r| {
                r.is_usable()
                    && !r.spec.is_lasting_only()
                    && !is_occasion_only(&r.spec)
                    && r.end <= end
            });
        let (kind, stop) = match run {
            Some(run) => (Some(kind_of(&run.spec)), run.end),
            None if is_repeat_word(lexed, i) && i + 1 < end && is_timeish(lexed, i + 1) => {
                let words = (i + 1..end)
                    .take(MAX_GLUE)
                    .take_while(|&j| is_timeish(lexed, j))
                    .count();
                (Some(UnplacedKind::Repeat), i + 1 + words)
            }
            None => (None, i + 1),
        };
        if let Some(kind) = kind
            && let Some(words) = slice(input, lexed, i, stop)
        {
            out.push(Unplaced {
                words: words.to_owned(),
                kind,
            });
        }
        i = stop;
    }
    out
}

fn kind_of(spec: &Spec) -> UnplacedKind {
    if spec.repeat.is_some() || spec.count.is_some() {
        UnplacedKind::Repeat
    } else if spec.day.is_some() || spec.relative.is_some() || spec.until.is_some() {
        UnplacedKind::Day
    } else {
        UnplacedKind::Time
    }
}

fn is_repeat_word(lexed: &Lexed, i: usize) -> bool {
    [
        Key::Every,
        Key::Daily,
        Key::Weekly,
        Key::Monthly,
        Key::Yearly,
        Key::Hourly,
        Key::Once,
    ]
    .iter()
    .any(|key| lexed.has(i, *key))
}

/// Whether the token at `i` is a number or a word with a time meaning.
fn is_timeish(lexed: &Lexed, i: usize) -> bool {
    lexed
        .token(i)
        .is_some_and(|t| t.word().is_none() && t.punct().is_none())
        || lexed
            .pick(i, |k| {
                (!matches!(k, Key::And | Key::The | Key::Of | Key::Article | Key::Me)).then_some(())
            })
            .is_some()
}

/// Tokens `start..end` without edge glue on either side.
fn trim_glue(lexed: &Lexed, mut start: usize, mut end: usize) -> (usize, usize) {
    if (start..end).all(|i| lexed.is_glue(i)) {
        return (start, start);
    }
    while start < end && lexed.is_edge_glue(start) {
        start += 1;
    }
    while end > start && lexed.is_edge_glue(end - 1) {
        end -= 1;
    }
    (start, end)
}

/// The input text that tokens `start..end` cover.
fn slice<'a>(input: &'a str, lexed: &Lexed, start: usize, end: usize) -> Option<&'a str> {
    let first = lexed.token(start)?;
    let last = lexed.token(end.checked_sub(1)?)?;
    (start < end)
        .then(|| input.get(first.start..last.end))
        .flatten()
}
