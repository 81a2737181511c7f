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
    // Uzbek: the price ("narxi 12.50"); rooms and pages take their number before them.
    "narxi",
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
/// the tokens' meanings, so that a number said as an hour or a day stays one ("room 5pm", "в
/// 9,30", "mashq 7 da", "квартиру 25 числа"). When the message names a day (`names_a_day`) or
/// says an hour apart from it, a stretch of days in it is the task's too ("the kids camp runs
/// july 6-17, pack on sunday", "vacation june 1-10 book flights at 5pm").
pub(super) fn labels(
    input: &str,
    tokens: &[Token],
    keys: &[Vec<Key>],
    names_a_day: bool,
) -> Vec<bool> {
    let mut labelled = vec![false; tokens.len()];
    for (first, last) in stretches(tokens, keys) {
        if names_a_day || hour_said_apart(tokens, keys, first, last) {
            labelled[first] = true;
            labelled[last] = true;
        }
    }
    for (i, fraction) in lists(tokens, keys) {
        labelled[i] = true;
        labelled[fraction] = true;
    }
    for number in phone_numbers(tokens) {
        labelled[number] = true;
    }
    // "in 20-25 minutes", "через 2-3 дня": an amount said as a range, which the bot cannot pick
    // from (and no 20:25).
    for i in (0..tokens.len()).filter(|&i| is_number(tokens, i)) {
        let ranged = tokens.get(i + 1).and_then(Token::punct) == Some('-')
            && joined(tokens, i + 1)
            && joined(tokens, i + 2)
            && is_number(tokens, i + 2)
            && keys.get(i + 3).is_some_and(|keys| {
                keys.iter()
                    .any(|k| matches!(k, Key::Unit(_) | Key::UnitFrom(_)))
            });
        if ranged {
            labelled[i] = true;
            labelled[i + 2] = true;
        }
    }
    for i in (0..tokens.len()).filter(|&i| is_number(tokens, i)) {
        let fraction = fraction_at(tokens, i);
        let end = fraction.map_or(i + 1, |f| f + 1);
        let said_as_time = said_as_time(tokens, keys, end);
        let marked = i > 0 && keys[i - 1].contains(&Key::At);
        // "сдать лабу 18.09": a month typed with its zero makes a date of it ("лабу 3.2",
        // "room 3.14" number).
        let zero_month = fraction.is_some_and(|f| {
            tokens[f - 1].punct() == Some('.')
                && matches!(
                    tokens[f].kind,
                    TokenKind::Number {
                        value: 1..=9,
                        digits: 2
                    }
                )
        });
        let after_label = i > 0
            && !said_as_time
            && !zero_month
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
        // "2,5 кг", "0.20 a day"; not "в 9,30", "at 0.30", "0.15 da".
        let decimal = fraction.is_some_and(|f| {
            let comma = tokens[f - 1].punct() == Some(',');
            let zero = matches!(
                tokens[i].kind,
                TokenKind::Number {
                    value: 0,
                    digits: 1
                }
            );
            // "0.20 a day", "0,5 за штуку"; "tomorrow 0.30" is a time.
            let measured = tokens
                .get(end)
                .and_then(Token::word)
                .is_some_and(|w| matches!(w, "per" | "a" | "an" | "each" | "за" | "в"));
            (comma || (zero && measured)) && !marked && !said_as_time
        });
        let price = fraction.is_some() && !said_as_time && is_price(input, tokens, keys, i, end);
        if after_label || before_noun || share || decimal || price {
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

/// Currency words and signs after an amount ("12.50 usd", "3.50 руб", "12.50$").
const CURRENCIES: &[&str] = &[
    "usd",
    "eur",
    "gbp",
    "rub",
    "dollars",
    "dollar",
    "euros",
    "euro",
    "bucks",
    "руб",
    "рублей",
    "рубля",
    "р",
    "долларов",
    "доллара",
    "евро",
    "тенге",
    "тг",
    "сум",
    "сўм",
    "so'm",
    "som",
];

/// Whether the amount at `i` (with its fraction, up to `end`) is a price: after a currency sign
/// or Russian "за" (for), or before a currency ("$12.50", "за 3.50", "12.50 руб").
fn is_price(input: &str, tokens: &[Token], keys: &[Vec<Key>], i: usize, end: usize) -> bool {
    const SIGNS: &[char] = &['$', '€', '£', '₽'];
    let before =
        i > 0 && (is_sign(input, &tokens[i - 1], SIGNS) || tokens[i - 1].word() == Some("за"));
    let after = tokens.get(end).is_some_and(|t| {
        is_sign(input, t, SIGNS) || t.word().is_some_and(|w| CURRENCIES.contains(&w))
    });
    let marked = i > 0 && keys[i - 1].contains(&Key::At);
    (before || after) && !marked
}

/// Numbers of a phone number, three or more joined by dashes ("8-800-555-35-35", "123-45-67").
fn phone_numbers(tokens: &[Token]) -> Vec<usize> {
    let dashed_to_next = |n: usize| {
        joined(tokens, n + 1)
            && tokens.get(n + 1).and_then(Token::punct) == Some('-')
            && joined(tokens, n + 2)
            && is_number(tokens, n + 2)
    };
    let mut found = Vec::new();
    let mut start = 0;
    while start < tokens.len() {
        let mut last = start;
        while is_number(tokens, start) && dashed_to_next(last) {
            last += 2;
        }
        // Three parts are a phone number when the first has three digits ("123-45-67"), not a
        // date ("2026-12-31", "31-12-2026").
        let first_of_three = matches!(tokens[start].kind, TokenKind::Number { digits: 3, .. });
        if last - start >= 6 || (last - start == 4 && first_of_three) {
            found.extend((start..=last).step_by(2));
        }
        start = last + 1;
    }
    found
}

/// Whether what follows a number (from token `end`) says it is an hour, a day or an amount of
/// time: am/pm, a unit ("через 1,5 часа"), an hour word, Uzbek "da", a date noun, a month or an ordinal ending, right after it or after a dash
/// and a second number ("room 5pm", "5-6pm", "mashq 7 da", "квартиру 25 числа", "xona
/// 12-martda").
fn said_as_time(tokens: &[Token], keys: &[Vec<Key>], end: usize) -> bool {
    let timely = |at: usize| {
        let key = keys.get(at).is_some_and(|keys| {
            keys.iter().any(|k| {
                matches!(
                    k,
                    Key::Meridiem(_)
                        | Key::Unit(_)
                        | Key::UnitFrom(_)
                        | Key::HourWord
                        | Key::Da
                        | Key::DateNoun
                        | Key::Month(_)
                        | Key::OrdinalSuffix
                )
            })
        });
        // "5 p.m.", "5p.m.".
        let dotted_pm = tokens.get(at).and_then(Token::word) == Some("p")
            && tokens.get(at + 1).and_then(Token::punct) == Some('.');
        key || dotted_pm
    };
    let dashed = tokens.get(end).and_then(Token::punct) == Some('-');
    // "check the room 17:30".
    let face = joined(tokens, end) && tokens.get(end).and_then(Token::punct) == Some(':');
    face || timely(end)
        || (dashed && timely(end + 1))
        || (dashed && is_number(tokens, end + 1) && timely(end + 2))
}

/// Whether an hour is said in the message away from the stretch of days over `first..=last`
/// (and the month right after it): a clock's face, an hour with am/pm, or a marker before a
/// number, not right after the stretch ("conference may 12-14 at 9am" is at the stretch).
fn hour_said_apart(tokens: &[Token], keys: &[Vec<Key>], first: usize, last: usize) -> bool {
    let is_month = |i: usize| {
        keys.get(i)
            .is_some_and(|keys| keys.iter().any(|k| matches!(k, Key::Month(_))))
    };
    let after = last + 1 + usize::from(is_month(last + 1));
    // "daily at 8am from june 1 to 10": an hour just before the stretch is at it too.
    let opens = first - usize::from(first > 0 && is_month(first - 1));
    let hour_at = |i: usize| {
        is_number(tokens, i)
            && (keys
                .get(i + 1)
                .is_some_and(|keys| keys.iter().any(|k| matches!(k, Key::Meridiem(_))))
                || (joined(tokens, i + 1)
                    && tokens[i + 1].punct() == Some(':')
                    && is_number(tokens, i + 2))
                || (i > 0 && keys[i - 1].contains(&Key::At)))
    };
    let adjacent = |i: usize| {
        i == after
            || (i == after + 1 && keys[after].contains(&Key::At))
            || (i < opens && i + 4 >= opens)
    };
    (0..tokens.len()).any(|i| (i < first || i > last) && !adjacent(i) && hour_at(i))
}

/// The dotted numbers of lists that number things ("задачи 4.12 и 4.13", "5.3 va 5.4
/// машқларни", "4.12 va 4.13 masalalarni"): each number and its fraction. A list is numbering
/// when a part after the dot has one digit (no minutes do), when a word of the module's lists
/// stands before it, or an exercise or a problem after it; not when it is said as times or days
/// ("soat 9.30 va 14.30 da", "8.00 va 20.00 da", "25.07 va 26.07 kunlari").
fn lists(tokens: &[Token], keys: &[Vec<Key>]) -> Vec<(usize, usize)> {
    let joins = |at: usize| {
        tokens.get(at).is_some_and(|t| {
            t.punct().is_some_and(|p| matches!(p, ',' | '&'))
                || t.word()
                    .is_some_and(|w| matches!(w, "and" | "и" | "va" | "ва"))
        })
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let mut members = Vec::new();
        let mut at = i;
        while let Some(f) = is_number(tokens, at)
            .then(|| fraction_at(tokens, at))
            .flatten()
        {
            members.push((at, f));
            if !(joins(f + 1) && is_number(tokens, f + 2)) {
                break;
            }
            at = f + 2;
        }
        let Some(&(_, last)) = members.last().filter(|_| members.len() >= 2) else {
            i += 1;
            continue;
        };
        let one_digit = members
            .iter()
            .any(|&(_, f)| matches!(tokens[f].kind, TokenKind::Number { digits: 1, .. }));
        let named_before = i > 0
            && tokens[i - 1]
                .word()
                .is_some_and(|w| LABEL_WORDS.contains(&w));
        let named_after = tokens.get(last + 1).and_then(Token::word).is_some_and(|w| {
            [
                "masala",
                "mashq",
                "масала",
                "машқ",
                "exercise",
                "problem",
                "задач",
                "упражн",
            ]
            .iter()
            .any(|stem| w.starts_with(stem))
        });
        let marked = (i > 0 && keys[i - 1].contains(&Key::At))
            || said_as_time(tokens, keys, last + 1)
            || keys
                .get(last + 1)
                .is_some_and(|keys| keys.contains(&Key::DayNoun));
        if (one_digit || named_before || named_after) && !marked {
            found.extend(members);
        }
        i = last + 1;
    }
    found
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
    let value = |i: usize| match tokens.get(i).map(|t| &t.kind) {
        Some(TokenKind::Number { value, .. }) => Some(*value),
        _ => None,
    };
    // "в 10 до 11 июня" is an hour and a repeat's end, and "в 19:00 до 1 апреля" a clock's.
    let marked = |i: usize| i > 0 && keys[i - 1].contains(&Key::At);
    (0..tokens.len())
        .filter(|&i| tokens[i].spaced && joint(i + 1) && !marked(i))
        .filter(|&i| {
            matches!((value(i), value(i + 2)), (Some(first), Some(last)) if 0 < first && first < last)
        })
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

#[cfg(test)]
mod tests {
    use super::super::super::lexer::tokenize;
    use super::*;

    /// The labelled numbers of `input`, read with no word meanings.
    fn labelled(input: &str) -> Vec<&str> {
        let tokens = tokenize(input);
        let keys = vec![Vec::new(); tokens.len()];
        labels(input, &tokens, &keys, false)
            .into_iter()
            .zip(&tokens)
            .filter(|(label, _)| *label)
            .map(|(_, t)| &input[t.start..t.end])
            .collect()
    }

    #[test]
    fn rooms_exercises_slides_prices_decimals_and_shares_are_labels() {
        assert_eq!(labelled("standup at 9:30 in room 3.14"), ["3", "14"]);
        assert_eq!(
            labelled("задачи 4.12 и 4.13 решить"),
            ["4", "12", "4", "13"]
        );
        assert_eq!(
            labelled("4.12, 4.13 va 5.1"),
            ["4", "12", "4", "13", "5", "1"]
        );
        assert_eq!(labelled("слайды 1-25"), ["1", "25"]);
        assert_eq!(labelled("12-bobni o'qish"), ["12"]);
        assert_eq!(labelled("цена 12.50 за кг"), ["12", "50"]);
        assert_eq!(
            labelled("2,5 кг, 0.20 a day, 20%"),
            ["2", "5", "0", "20", "20"]
        );
    }

    #[test]
    fn times_stay_times() {
        assert!(labelled("gate 7:45, at 9.30 in 4.12").is_empty());
        assert!(labelled("tomorrow 10-12, 6.04 at 15").is_empty());
    }
}
