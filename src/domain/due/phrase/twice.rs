//! "Twice a day" beside two times ("meds twice a day at 9 and 21", "2 раза в день в 9 и в 21",
//! "kuniga 2 marta soat 9 va 21 da"): every day at both times. Without a second time the words
//! stay in the text: one daily reminder is not what was asked.

use super::super::grammar::{Item, Lexed, Repeat, RepeatRef};
use super::super::lexer::TokenKind;
use super::super::spec::Spec;

/// The ways to say "twice a day", folded, `2` standing for the number.
const TWICE_A_DAY: &[&[&str]] = &[
    &["twice", "a", "day"],
    &["twice", "per", "day"],
    &["twice", "daily"],
    &["2", "times", "a", "day"],
    &["two", "times", "a", "day"],
    &["2", "x", "a", "day"],
    &["2", "раза", "в", "день"],
    &["два", "раза", "в", "день"],
    &["2", "раза", "в", "сутки"],
    &["два", "раза", "в", "сутки"],
    &["дважды", "в", "день"],
    &["kuniga", "2", "marta"],
    &["kuniga", "ikki", "marta"],
    &["кунига", "2", "марта"],
    &["кунига", "икки", "марта"],
];

/// Whether the token at `at` is `want` ("2" is the number two as digits).
fn token_is(lexed: &Lexed, at: usize, want: &str) -> bool {
    lexed.token(at).is_some_and(|token| match &token.kind {
        TokenKind::Word(word) => word == want,
        TokenKind::Number { value: 2, .. } => want == "2",
        _ => false,
    })
}

/// Where "twice a day" is in the text `pieces`: the piece's index and its tokens.
fn find(lexed: &Lexed, pieces: &[(usize, usize)]) -> Option<(usize, usize, usize)> {
    pieces
        .iter()
        .enumerate()
        .find_map(|(index, &(start, end))| {
            (start..end).find_map(|at| {
                TWICE_A_DAY.iter().find_map(|words| {
                    let past = at + words.len();
                    (past <= end
                        && words
                            .iter()
                            .enumerate()
                            .all(|(i, w)| token_is(lexed, at + i, w)))
                    .then_some((index, at, past))
                })
            })
        })
}

/// With a second time read (`other`), "twice a day" in the text `pieces` makes both times daily
/// and leaves the text; nothing changes when the phrase does not take a daily repeat ("tomorrow
/// twice a day at 9 and 21" is one day).
pub(super) fn make_daily(
    lexed: &Lexed,
    pieces: &mut Vec<(usize, usize)>,
    spec: &mut Spec,
    other: &mut Spec,
) {
    let Some((index, from, past)) = find(lexed, pieces) else {
        return;
    };
    let daily = Item::Repeat(Repeat::each(RepeatRef::Daily), None);
    let (mut with, mut other_with) = (*spec, *other);
    if spec.repeat.is_some() || !(with.add(daily) && other_with.add(daily)) {
        return;
    }
    (*spec, *other) = (with, other_with);
    let (start, end) = pieces[index];
    pieces.splice(index..=index, [(start, from), (past, end)]);
}
