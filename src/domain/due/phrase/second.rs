//! A second time joined by "and" to the phrase's ("every day at 9 and 21 pills", "в 9 утра и 9
//! вечера", "take pills at 8:00 and 20:00 every day"): the same task at that time too. The
//! phrase is read once; the second time is cut from the text and read as the phrase would be
//! with it instead of the first.

use super::super::grammar::{
    Clock, Context, Item, Lexed, PeriodWord, Repeat, RepeatRef, parse_item,
};
use super::super::keys::Key;
use super::super::lexer::TokenKind;
use super::super::spec::Spec;
use super::super::{Unplaced, UnplacedKind};
use super::{skip_glue, slice};

/// Cuts a second time joined by "and" out of the text `pieces` (see [`second_time`] and
/// [`time_before`]), with the parts after it that close both times ([`closing_parts`], added to
/// `spec` too): the phrase as it reads at that time, and its words, said as not used for a
/// reader that makes one reminder only.
pub(super) fn cut(
    input: &str,
    lexed: &Lexed,
    pieces: &mut [(usize, usize)],
    spec: &mut Spec,
) -> Option<(Spec, Unplaced)> {
    pieces.iter_mut().find_map(|(start, end)| {
        let (other, cut) = if let Some((mut other, after)) = second_time(lexed, *start, spec) {
            let next = closing_parts(lexed, after, *end, spec, &mut other);
            let cut = (*start, after);
            *start = next;
            (other, cut)
        } else {
            let (other, at) = time_before(lexed, *start, *end, spec)?;
            let cut = (at, *end);
            *end = at;
            (other, cut)
        };
        let words = slice(input, lexed, cut.0, cut.1)?;
        Some((
            other,
            Unplaced {
                words: words.to_owned(),
                kind: UnplacedKind::SecondTime,
            },
        ))
    })
}

/// A second time joined by "and" to the phrase's time, opening the text left at `start`:
/// "every day at 9 and 21 pills", "в 9 утра и 9 вечера", "at 8:00 and at 20:00". Returns the
/// phrase as it reads at that time (see [`time_instead`]) and the token after the time.
pub(super) fn second_time(lexed: &Lexed, start: usize, spec: &Spec) -> Option<(Spec, usize)> {
    if start == 0 || !lexed.has(start - 1, Key::And) {
        return None;
    }
    time_instead(lexed, start, spec)
}

/// The parts after a second time that belong to both times ("at 8am and 8pm for 7 days",
/// "в 9 и 21 каждый день"): added to `spec` and `other`; returns where the text goes on.
pub(super) fn closing_parts(
    lexed: &Lexed,
    from: usize,
    end: usize,
    spec: &mut Spec,
    other: &mut Spec,
) -> usize {
    let mut pos = from;
    loop {
        let at = skip_glue(lexed, pos);
        let context = Context {
            bare_hour: false,
            has_day: spec.day.is_some() || spec.repeat.is_some(),
            ..Context::default()
        };
        let Some((item, item_end)) = (at < end).then(|| parse_item(lexed, at, context)).flatten()
        else {
            return pos;
        };
        let closing = matches!(
            item,
            Item::Lasting(_)
                | Item::Until(_)
                | Item::Start(_)
                | Item::Count(_)
                | Item::Lead(_)
                | Item::Repeat(..)
        );
        let (mut with, mut other_with) = (*spec, *other);
        // "at 8am and 8pm for 7 days": two times of day for so long are every day.
        if matches!(item, Item::Lasting(_)) && with.repeat.is_none() {
            let daily = Item::Repeat(Repeat::each(RepeatRef::Daily), None);
            if !(with.add(daily) && other_with.add(daily)) {
                return pos;
            }
        }
        if !(closing && lexed.ends_word(item_end) && with.add(item) && other_with.add(item)) {
            return pos;
        }
        (*spec, *other) = (with, other_with);
        pos = item_end;
    }
}

/// A time joined by "and" before the phrase, closing the text piece `start..end`: "take pills
/// at 8:00 and 20:00 every day". Returns the phrase as it reads at that time and where the
/// time starts.
fn time_before(lexed: &Lexed, start: usize, end: usize, spec: &Spec) -> Option<(Spec, usize)> {
    if !lexed.has(end, Key::And) {
        return None;
    }
    (end.saturating_sub(4).max(start)..end).find_map(|at| {
        let (second, time_end) = time_instead(lexed, at, spec)?;
        (time_end == end).then_some((second, at))
    })
}

/// The phrase `spec` read with the time at token `at` instead of its own, and the token after
/// that time. A part of the day said with the phrase's hour goes with it ("в 9 утра и 9
/// вечера"); one said alone stays ("утром в 7 и 9"). An hour of the afternoon counts here even
/// before a plural ("and 21 pills"), while "at 9 and 3 eggs" counts eggs.
fn time_instead(lexed: &Lexed, at: usize, spec: &Spec) -> Option<(Spec, usize)> {
    spec.clock?;
    let context = Context {
        bare_hour: true,
        has_day: true,
        ..Context::default()
    };
    // "and again at 5", "и вечером в 9", "va kechqurun 20:00 da": the part of the day said with
    // the second time is its own.
    let again = matches!(
        lexed.token(at).and_then(|t| t.word()),
        Some("again" | "снова" | "ещё" | "еще" | "yana")
    );
    let mut at = at + usize::from(again);
    let own_period = period_at(lexed, at, context, PeriodWord::Alone);
    if let Some((_, end)) = own_period {
        at = end;
    }
    let own_period = own_period.map(|(item, _)| item);
    // After the hour: the end, punctuation (not a clock's ':' or '.') or a key word, so that
    // "and 2 bread" and "and 1:1 with Ann" are no time.
    let closed = |end: usize| {
        lexed.token(end).is_none_or(|t| {
            t.punct().is_some_and(|p| !matches!(p, ':' | '.')) || !lexed.has_no_meaning(end)
        })
    };
    let bare = lexed
        .token(at)
        .is_some_and(|t| matches!(t.kind, TokenKind::Number { .. }));
    // "и 15 человек придут", "and 20 guests": people are counted, never a time.
    let people = matches!(
        lexed.token(at + 1).and_then(|t| t.word()),
        Some(
            "people"
                | "persons"
                | "guests"
                | "kids"
                | "children"
                | "students"
                | "participants"
                | "человек"
                | "человека"
                | "чел"
                | "гостей"
                | "детей"
                | "учеников"
                | "студентов"
                | "участников"
                | "kishi"
                | "nafar"
                | "киши"
                | "нафар"
        )
    );
    if bare && people {
        return None;
    }
    let (clock, mut end) = match parse_item(lexed, at, context) {
        Some((Item::Time(clock), end))
            if lexed.ends_word(end)
                && (!bare
                    || clock.meridiem.is_some()
                    || clock.exact
                    || clock.minute != 0
                    || own_period.is_some()
                    || clock.hour > 12
                    || closed(end)) =>
        {
            (clock, end)
        }
        // "and 21 pills": an hour of the afternoon, even before what it could count.
        _ => match lexed.token(at).map(|t| &t.kind) {
            Some(TokenKind::Number { value, digits })
                if *digits <= 2 && (13..=24).contains(value) =>
            {
                (Clock::at(u32::try_from(*value).ok()?, 0), at + 1)
            }
            _ => return None,
        },
    };
    let mut second = *spec;
    second.clock = None;
    if !second.period_alone() || own_period.is_some() {
        second.period = None;
    }
    if own_period.is_some_and(|period| !second.add(period)) || !second.add(Item::Time(clock)) {
        return None;
    }
    if let Some((item, period_end)) = period_at(lexed, end, context, PeriodWord::OfHour)
        && second.add(item)
    {
        end = period_end;
    }
    Some((second, end))
}

/// A part of the day said as `word` at token `at`, a whole word, and the token after it.
fn period_at(
    lexed: &Lexed,
    at: usize,
    context: Context,
    word: PeriodWord,
) -> Option<(Item, usize)> {
    parse_item(lexed, at, context).filter(|&(item, end)| {
        matches!(item, Item::Period { word: said, .. } if said == word) && lexed.ends_word(end)
    })
}
