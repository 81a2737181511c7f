//! Finding the time phrase in a message and cutting it out of the task text.
//!
//! A phrase is a run of parts (see [`grammar`](super::grammar)) with only
//! punctuation or "and" between them. The phrase may open the message, close
//! it, or both ("tomorrow pay rent at 9"); a closing lead time such as
//! "remind 30 min before" may stand apart from the rest. Only when neither
//! edge holds a phrase is one looked for inside the text, and then it must
//! be unmistakable (two parts or a relative time), so that a lone "friday"
//! in "prepare friday slides" stays text. When both edges hold phrases that
//! contradict each other ("monday report tomorrow 9"), the one with more
//! parts wins, the closing one on a tie, and the other stays text.

use super::grammar::{Context, Item, Lexed, parse_item};
use super::spec::Spec;
use super::vocab::Key;

/// At most this many glue tokens may separate two parts of one phrase.
const MAX_GLUE: usize = 3;

/// The phrase that was found and the text left around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    /// What the phrase says.
    pub spec: Spec,
    /// The task text without the phrase, trimmed.
    pub text: String,
}

/// A run of phrase parts over tokens `start..end`.
#[derive(Debug, Clone)]
struct Run {
    start: usize,
    end: usize,
    spec: Spec,
}

impl Run {
    fn is_usable(&self) -> bool {
        self.spec.is_anchored() || self.spec.is_lead_only()
    }
}

/// Finds the time phrase in `input`, or `None` if it has none.
pub(super) fn find(input: &str, lexed: &Lexed) -> Option<Found> {
    let n = lexed.len();
    let first = (0..n).find(|&i| !lexed.is_glue(i)).unwrap_or(n);
    let prefix = chain(lexed, first).filter(Run::is_usable);
    let from = prefix.as_ref().map_or(first, |r| r.end);
    let suffix = (from..n)
        .filter(|&i| !lexed.is_glue(i))
        .find_map(|i| chain(lexed, i).filter(|r| r.is_usable() && only_glue(lexed, r.end, n)));

    if let (Some(p), Some(s)) = (&prefix, &suffix)
        && let Some(spec) = p.spec.merged(&s.spec).filter(Spec::is_anchored)
    {
        return Some(found(
            input,
            lexed,
            spec,
            &[(p.start, p.end), (s.start, s.end)],
        ));
    }
    let edge = [prefix, suffix]
        .into_iter()
        .flatten()
        .filter(|r| r.spec.is_anchored())
        .max_by_key(|r| r.spec.parts);
    let run = edge.or_else(|| inner_run(lexed, first))?;
    Some(found(input, lexed, run.spec, &[(run.start, run.end)]))
}

/// The longest unmistakable phrase inside the text, if any.
fn inner_run(lexed: &Lexed, first: usize) -> Option<Run> {
    (first..lexed.len())
        .filter_map(|i| chain(lexed, i))
        .filter(|r| r.spec.is_anchored() && (r.spec.parts >= 2 || r.spec.relative.is_some()))
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
        };
        let Some((item, item_end)) = parse_item(lexed, at, context) else {
            break;
        };
        if !lexed.ends_word(item_end) || !spec.add(item) {
            break;
        }
        bare_hour = matches!(item, Item::Day(_) | Item::Period(_) | Item::Repeat(..));
        end = item_end;
    }
    (spec.parts > 0).then_some(Run { start, end, spec })
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

/// The result for a phrase made of the given runs (in order): the text is
/// what lies outside them, each piece without edge glue, joined by spaces.
/// A leading "remind me (to)" / "напомни (мне)" and a trailing
/// "eslat(ib qo'y)" are dropped too: they address the bot, not the task.
fn found(input: &str, lexed: &Lexed, spec: Spec, runs: &[(usize, usize)]) -> Found {
    let mut bounds = Vec::new();
    let mut from = 0;
    for &(start, end) in runs {
        bounds.push((from, start));
        from = end;
    }
    bounds.push((from, lexed.len()));
    let mut pieces: Vec<(usize, usize)> = bounds
        .into_iter()
        .map(|(start, end)| trim_glue(lexed, start, end))
        .filter(|(start, end)| start < end)
        .collect();
    if let Some((start, end)) = pieces.first_mut() {
        *start = skip_request(lexed, *start, *end);
    }
    if let Some((start, end)) = pieces.last_mut() {
        *end = drop_trailing_request(lexed, *start, *end);
    }
    let text = pieces
        .into_iter()
        .map(|(start, end)| trim_glue(lexed, start, end))
        .filter_map(|(start, end)| slice(input, lexed, start, end))
        .collect::<Vec<_>>()
        .join(" ");
    Found { spec, text }
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

/// Past a leading `remind [me] [to]`.
fn skip_request(lexed: &Lexed, mut start: usize, end: usize) -> usize {
    if start < end && lexed.has(start, Key::Remind) {
        start += 1;
        if start < end && lexed.has(start, Key::Me) {
            start += 1;
        }
        if start < end && lexed.token(start).and_then(|t| t.word()) == Some("to") {
            start += 1;
        }
    }
    start
}

/// Before a trailing `remind [me]`.
fn drop_trailing_request(lexed: &Lexed, start: usize, mut end: usize) -> usize {
    if end > start
        && lexed.has(end - 1, Key::Me)
        && end - start >= 2
        && lexed.has(end - 2, Key::Remind)
    {
        end -= 2;
    } else if end > start && lexed.has(end - 1, Key::Remind) {
        end -= 1;
    }
    end
}

/// The input text that tokens `start..end` cover.
fn slice<'a>(input: &'a str, lexed: &Lexed, start: usize, end: usize) -> Option<&'a str> {
    let first = lexed.token(start)?;
    let last = lexed.token(end.checked_sub(1)?)?;
    (start < end)
        .then(|| input.get(first.start..last.end))
        .flatten()
}
