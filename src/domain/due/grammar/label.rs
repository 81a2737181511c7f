//! Numbers that label or measure something and are never a time or a date: a room, a page or an
//! exercise ("room 3.14", "задачи 4.12 и 4.13", "слайды 1-25", "12-bobni"), a price, a decimal
//! or a share ("цена 12.50", "0.20 per day", "2,5 кг", "20%").
//!
//! They are found once, when the message is lexed, so that no rule reads one as an hour or a day
//! ("standup every weekday at 9:30 in room 3.14" is at 9:30, not at 3:14).

use super::super::keys::Key;
use super::super::lexer::{Token, TokenKind};

/// Words a number right after them labels: rooms, flats, floors, pages, chapters, exercises,
/// slides, versions, and prices ("room 204", "кв. 15", "стр 12", "12-bob" is said the other way
/// round, see [`labels`]).
const LABEL_WORDS: &[&str] = &[
    // English.
    "room",
    "rm",
    "flat",
    "apt",
    "apartment",
    "suite",
    "floor",
    "gate",
    "platform",
    "page",
    "pages",
    "pg",
    "chapter",
    "section",
    "exercise",
    "exercises",
    "problem",
    "problems",
    "slide",
    "slides",
    "version",
    "ver",
    "price",
    "costs",
    "cost",
    // Russian.
    "комната",
    "комнату",
    "комнате",
    "кабинет",
    "каб",
    "кв",
    "квартира",
    "квартиру",
    "квартире",
    "ауд",
    "аудитория",
    "аудиторию",
    "аудитории",
    "этаж",
    "этаже",
    "подъезд",
    "стр",
    "страница",
    "страницу",
    "страницы",
    "глава",
    "главу",
    "главы",
    "параграф",
    "задача",
    "задачу",
    "задачи",
    "задание",
    "задания",
    "упражнение",
    "упражнения",
    "упр",
    "номер",
    "лаба",
    "лабу",
    "слайд",
    "слайды",
    "слайдов",
    "версия",
    "версию",
    "версии",
    "цена",
    "стоимость",
    "стоит",
    // Uzbek, in both scripts.
    "xona",
    "xonada",
    "xonaga",
    "kabinet",
    "kabinetda",
    "kvartira",
    "qavat",
    "qavatda",
    "sahifa",
    "mashq",
    "masala",
    "narxi",
    "хона",
    "хонада",
    "хонага",
    "қават",
    "қаватда",
    "саҳифа",
    "бет",
    "боб",
    "машқ",
    "масала",
    "нархи",
];

/// Uzbek nouns a number takes before them with a dash ("12-bobni", "5-mashq", "3-xonada"): the
/// number labels the noun (the chapter, the exercise), and is no date nor hour.
const LABELLED_AFTER: &[&str] = &[
    "bob",
    "bobni",
    "bobda",
    "mashq",
    "mashqni",
    "masala",
    "masalani",
    "xona",
    "xonada",
    "xonaga",
    "qavat",
    "qavatda",
    "sahifa",
    "sahifani",
    "боб",
    "бобни",
    "машқ",
    "машқни",
    "масала",
    "масалани",
    "хона",
    "хонада",
    "хонага",
    "қават",
    "қаватда",
    "саҳифа",
    "саҳифани",
];

/// Which tokens are numbers that label or measure something (see the module's doc); `keys` are
/// the tokens' meanings, so that a marked "в 9,30" stays a time. When the message names a day
/// (`names_a_day`), a stretch of days in it is the task's too ("the kids camp runs july 6-17,
/// pack on sunday", "каникулы с 1 по 31 июля, купить путёвку в среду").
pub(super) fn labels(
    input: &str,
    tokens: &[Token],
    keys: &[Vec<Key>],
    names_a_day: bool,
) -> Vec<bool> {
    let mut labelled = vec![false; tokens.len()];
    if names_a_day {
        for (first, last) in stretches(tokens, keys) {
            labelled[first] = true;
            labelled[last] = true;
        }
    }
    for i in 0..tokens.len() {
        if !is_number(tokens, i) {
            continue;
        }
        let fraction = fraction_at(tokens, i);
        let end = fraction.map_or(i + 1, |f| f + 1);
        // "оплатить квартиру 25 числа": a date noun, a month or an hour word after the number
        // says it is a day or an hour.
        let dated = keys.get(end).is_some_and(|keys| {
            keys.iter().any(|k| {
                matches!(
                    k,
                    Key::DateNoun | Key::Month(_) | Key::OrdinalSuffix | Key::HourWord
                )
            })
        });
        // "room 204", not a clock's face after the word ("gate 7:45").
        let face = joined(tokens, i + 1) && tokens[i + 1].punct() == Some(':');
        let after_label = i > 0
            && !face
            && !dated
            && (tokens[i - 1]
                .word()
                .is_some_and(|w| LABEL_WORDS.contains(&w))
                || is_sign(input, &tokens[i - 1], &['#', '№']));
        let before_noun = joined(tokens, i + 1)
            && tokens[i + 1].punct() == Some('-')
            && joined(tokens, i + 2)
            && tokens
                .get(i + 2)
                .and_then(Token::word)
                .is_some_and(|w| LABELLED_AFTER.contains(&w));
        let share = tokens
            .get(end)
            .is_some_and(|t| !t.spaced && t.punct() == Some('%'));
        let decimal = fraction.is_some_and(|f| {
            let marked = i > 0 && keys[i - 1].contains(&Key::At);
            let comma = tokens[f - 1].punct() == Some(',') && !marked;
            let zero = matches!(
                tokens[i].kind,
                TokenKind::Number {
                    value: 0,
                    digits: 1
                }
            );
            comma || zero || in_a_list(tokens, i, f)
        });
        if after_label || before_noun || share || decimal {
            labelled[i] = true;
            if let Some(f) = fraction {
                labelled[f] = true;
            }
            // "слайды 1-25": the span's end is labelled too.
            if after_label
                && tokens.get(end).and_then(Token::punct) == Some('-')
                && joined(tokens, end)
                && joined(tokens, end + 1)
                && is_number(tokens, end + 1)
            {
                labelled[end + 1] = true;
            }
        }
    }
    labelled
}

/// The first and last day numbers of each stretch of days in a month: `D -|to|till|through|по D
/// MONTH` and `MONTH D-D`.
fn stretches(tokens: &[Token], keys: &[Vec<Key>]) -> Vec<(usize, usize)> {
    let month = |i: usize| {
        keys.get(i)
            .is_some_and(|keys| keys.iter().any(|k| matches!(k, Key::Month(_))))
    };
    let joint = |i: usize| {
        tokens.get(i).is_some_and(|t| {
            t.punct() == Some('-')
                || t.word()
                    .is_some_and(|w| matches!(w, "to" | "till" | "through" | "thru" | "по" | "до"))
        })
    };
    (0..tokens.len())
        .filter(|&i| is_number(tokens, i) && joint(i + 1) && is_number(tokens, i + 2))
        .filter(|&i| month(i + 3) || (i > 0 && month(i - 1)))
        .map(|i| (i, i + 2))
        .collect()
}

/// The number after a dot or a comma typed right after the number at `i` ("3.14", "2,5"), if any.
fn fraction_at(tokens: &[Token], i: usize) -> Option<usize> {
    let separated = joined(tokens, i + 1)
        && matches!(tokens.get(i + 1).and_then(Token::punct), Some('.' | ','));
    (separated && joined(tokens, i + 2) && is_number(tokens, i + 2)).then_some(i + 2)
}

/// Whether the dotted number over `i..=fraction` stands in a list of dotted numbers ("4.12 и
/// 4.13", "5.3 va 5.4", "4.12, 4.13"): numbering, as exercises are.
fn in_a_list(tokens: &[Token], i: usize, fraction: usize) -> bool {
    let joins = |at: usize| {
        tokens.get(at).is_some_and(|t| {
            t.punct().is_some_and(|p| matches!(p, ',' | '&'))
                || t.word()
                    .is_some_and(|w| matches!(w, "and" | "и" | "va" | "ва"))
        })
    };
    let next = fraction + 1;
    let follows =
        joins(next) && is_number(tokens, next + 1) && fraction_at(tokens, next + 1).is_some();
    let precedes = i >= 4
        && joins(i - 1)
        && is_number(tokens, i - 4)
        && fraction_at(tokens, i - 4) == Some(i - 2);
    follows || precedes
}

/// Whether the token at `i` is a number.
fn is_number(tokens: &[Token], i: usize) -> bool {
    tokens
        .get(i)
        .is_some_and(|t| matches!(t.kind, TokenKind::Number { .. }))
}

/// Whether the token at `i` is typed right after the one before it, with no space.
fn joined(tokens: &[Token], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| !t.spaced)
}

/// Whether `token` is one of the signs `signs` (punctuation or any other symbol).
fn is_sign(input: &str, token: &Token, signs: &[char]) -> bool {
    let mut chars = input.get(token.start..token.end).unwrap_or("").chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if signs.contains(&c))
}
