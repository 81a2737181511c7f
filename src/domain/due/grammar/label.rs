//! Numbers that label or measure something and are never a time or a date: a room, a page or an
//! exercise ("room 3.14", "задачи 4.12 и 4.13", "слайды 1-25", "12-bobni"), a price, a decimal
//! or a share ("цена 12.50", "0.20 per day", "2,5 кг", "20%").
//!
//! They are found once, when the message is lexed, so that no rule reads one as an hour or a day
//! ("standup every weekday at 9:30 in room 3.14" is at 9:30, not at 3:14).

use super::super::keys::{Key, Unit};
use super::super::lexer::{Token, TokenKind};

/// Words a number right after them labels: rooms, flats, floors, pages, chapters, exercises,
/// slides and versions ("room 204", "кв. 15", "стр 12"; Uzbek says it the other way round,
/// "12-bob", see [`LABELLED_AFTER`]).
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
];

/// Words a price follows ("цена 12.50", "price 4.99", "narxi 12.50"): the amount after them is
/// no time, as after a currency sign.
const PRICE_WORDS: &[&str] = &[
    "price",
    "costs",
    "cost",
    "цена",
    "стоимость",
    "стоит",
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
    let message = Message {
        input,
        tokens,
        keys,
    };
    let mut labelled = vec![false; tokens.len()];
    let mut label = |numbers: &[usize]| numbers.iter().for_each(|&i| labelled[i] = true);
    for (first, last) in message.stretches() {
        if names_a_day || message.hour_said_apart(first, last) {
            label(&[first, last]);
        }
    }
    for (number, fraction) in message.lists() {
        label(&[number, fraction]);
    }
    label(&message.phone_numbers());
    label(&message.no_clock_nor_date());
    for i in (0..tokens.len()).filter(|&i| message.is_number(i)) {
        label(&message.ranged_amount(i));
        label(&message.labelled_number(i));
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

/// The tokens of a message with their meanings, read for numbers that label something.
struct Message<'a> {
    input: &'a str,
    tokens: &'a [Token],
    keys: &'a [Vec<Key>],
}

impl Message<'_> {
    /// Whether the token at `i` is a number.
    fn is_number(&self, i: usize) -> bool {
        self.tokens
            .get(i)
            .is_some_and(|t| matches!(t.kind, TokenKind::Number { .. }))
    }

    /// The number at `i`'s value and digit count.
    fn number(&self, i: usize) -> Option<(u64, usize)> {
        match self.tokens.get(i)?.kind {
            TokenKind::Number { value, digits } => Some((value, digits)),
            _ => None,
        }
    }

    /// Whether the token at `i` is typed right after the one before it, with no space.
    fn joined(&self, i: usize) -> bool {
        self.tokens.get(i).is_some_and(|t| !t.spaced)
    }

    /// The punctuation at `i`, if any.
    fn punct(&self, i: usize) -> Option<char> {
        self.tokens.get(i).and_then(Token::punct)
    }

    /// The word at `i`, if any.
    fn word(&self, i: usize) -> Option<&str> {
        self.tokens.get(i).and_then(Token::word)
    }

    /// Whether the word at `i` means something `pick` accepts.
    fn means(&self, i: usize, pick: impl Fn(&Key) -> bool) -> bool {
        self.keys.get(i).is_some_and(|keys| keys.iter().any(pick))
    }

    /// Whether a marker of an hour ("at", "в", "soat", "к") stands right before `i`.
    fn marked(&self, i: usize) -> bool {
        i > 0 && self.keys[i - 1].contains(&Key::At)
    }

    /// Whether the token at `i` is one of the signs `signs`.
    fn is_sign(&self, i: usize, signs: &[char]) -> bool {
        let Some(token) = self.tokens.get(i) else {
            return false;
        };
        let mut chars = self.input.get(token.start..token.end).unwrap_or("").chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if signs.contains(&c))
    }

    /// The number after a dot or a comma typed right after the number at `i` ("3.14", "2,5").
    fn fraction_at(&self, i: usize) -> Option<usize> {
        let separated = self.joined(i + 1) && matches!(self.punct(i + 1), Some('.' | ','));
        (separated && self.joined(i + 2) && self.is_number(i + 2)).then_some(i + 2)
    }

    /// Whether a dash and a number are typed right after token `i`'s end ("1-25").
    fn dashed_number_after(&self, i: usize) -> bool {
        self.joined(i + 1)
            && self.punct(i + 1) == Some('-')
            && self.joined(i + 2)
            && self.is_number(i + 2)
    }

    /// The number at `i` with its fraction and the end of a span after it, when it labels or
    /// measures something: after a word of [`LABEL_WORDS`] or `#`, before a noun of
    /// [`LABELLED_AFTER`], a share, a decimal with a comma ("2,5 кг") or below one before what it
    /// measures ("0.20 a day"), or a price; empty otherwise.
    fn labelled_number(&self, i: usize) -> Vec<usize> {
        let fraction = self.fraction_at(i);
        let end = fraction.map_or(i + 1, |f| f + 1);
        let said_as_time = self.said_as_time(end);
        // "сдать лабу 15.10", "finish chapter 17.30": two digits after the dot that can be a month
        // or round minutes make a date or a time ("лабу 3.2", "room 3.14" number), and so does a
        // year after them ("15.10.2026").
        let date_or_time = fraction.is_some_and(|f| {
            let month_or_round = matches!(self.number(f), Some((m, 2)) if m <= 12 || m % 5 == 0);
            self.punct(f - 1) == Some('.') && (month_or_round || self.fraction_at(f).is_some())
        });
        let after_label = i > 0
            && !said_as_time
            && !date_or_time
            && (self.word(i - 1).is_some_and(|w| LABEL_WORDS.contains(&w))
                || self.is_sign(i - 1, &['#', '№']));
        let before_noun = self.joined(i + 1)
            && self.punct(i + 1) == Some('-')
            && self.joined(i + 2)
            && self
                .word(i + 2)
                .is_some_and(|w| LABELLED_AFTER.contains(&w));
        let share = self.joined(end) && self.punct(end) == Some('%');
        // "2,5 кг", "0.20 a day", "0,5 за штуку"; not "в 9,30", "at 0.30", "tomorrow 0.30",
        // "0.15 da".
        let decimal = fraction.is_some_and(|f| {
            let comma = self.punct(f - 1) == Some(',');
            let measured = self
                .word(end)
                .is_some_and(|w| matches!(w, "per" | "a" | "an" | "each" | "за" | "в"));
            let below_one = matches!(self.number(i), Some((0, 1))) && measured;
            (comma || below_one) && !self.marked(i) && !said_as_time
        });
        let price = fraction.is_some() && !said_as_time && self.is_price(i, end);
        if !(after_label || before_noun || share || decimal || price) {
            return Vec::new();
        }
        let mut numbers = vec![i];
        numbers.extend(fraction);
        // "слайды 1-25": the span's end is labelled too.
        if after_label && self.punct(end) == Some('-') && self.dashed_number_after(end - 1) {
            numbers.push(end + 1);
        }
        numbers
    }

    /// "через 2-3 дня", "in 1-2 hours", "20-25 daqiqadan keyin": the two numbers of an amount
    /// said as a range at `i`, which the bot cannot pick from (and no 01:02, no 20:25); empty
    /// otherwise. Minutes after "in" or "через" are read from the range's start ("in 5-10
    /// min", see the `amount` module).
    fn ranged_amount(&self, i: usize) -> Vec<usize> {
        let after_in = i > 0
            && (self.keys[i - 1].contains(&Key::In) || self.keys[i - 1].contains(&Key::After));
        let ranged = self.dashed_number_after(i)
            && self.means(i + 3, |k| {
                matches!(k, Key::Unit(unit) | Key::UnitFrom(unit) if *unit != Unit::Minute || !after_in)
            });
        if ranged { vec![i, i + 2] } else { Vec::new() }
    }

    /// Numbers joined by a dash that can be neither a clock's face nor a day and month ("при
    /// 30-40 градусах", "размер 42-44"; not "10-30", "25-12"), which no one should be told
    /// are no valid time.
    fn no_clock_nor_date(&self) -> Vec<usize> {
        (0..self.tokens.len())
            .filter(|&i| self.dashed_number_after(i))
            .filter(|&i| {
                matches!((self.number(i), self.number(i + 2)), (Some((first, _)), Some((second, _))) if first > 24 && second > 12)
            })
            .flat_map(|i| [i, i + 2])
            .collect()
    }

    /// Whether the amount at `i` (with its fraction, up to `end`) is a price: after a currency
    /// sign or Russian "за" (for), or before a currency ("$12.50", "за 3.50", "12.50 руб").
    fn is_price(&self, i: usize, end: usize) -> bool {
        const SIGNS: &[char] = &['$', '€', '£', '₽'];
        let before = i > 0
            && (self.is_sign(i - 1, SIGNS)
                || self
                    .word(i - 1)
                    .is_some_and(|w| w == "за" || PRICE_WORDS.contains(&w)));
        let after =
            self.is_sign(end, SIGNS) || self.word(end).is_some_and(|w| CURRENCIES.contains(&w));
        (before || after) && !self.marked(i)
    }

    /// Numbers of a phone number, three or more joined by dashes ("8-800-555-35-35",
    /// "123-45-67"), or a local one ("555-0142").
    fn phone_numbers(&self) -> Vec<usize> {
        let mut found = Vec::new();
        let mut start = 0;
        while start < self.tokens.len() {
            let mut last = start;
            while self.is_number(start) && self.dashed_number_after(last) {
                last += 2;
            }
            // Three parts are a phone number when the first has three digits ("123-45-67"),
            // not a date ("2026-12-31", "31-12-2026"); two when they have three and four
            // ("555-0142").
            let three_digits = matches!(self.number(start), Some((_, 3)));
            let local = three_digits && matches!(self.number(last), Some((_, 4)));
            if last - start >= 6
                || (last - start == 4 && three_digits)
                || (last - start == 2 && local)
            {
                found.extend((start..=last).step_by(2));
            }
            start = last + 1;
        }
        found
    }

    /// Whether what follows a number (from token `end`) says it is an hour, a day or an amount
    /// of time: a clock's face, am/pm, a unit ("через 1,5 часа"), an hour word, Uzbek "da",
    /// "gacha" or "dan", a date noun, a month or an ordinal ending, right after it or after a
    /// dash and a second number ("room 17:30", "room 5pm", "5-6pm", "mashq 7 da", "квартиру 25
    /// числа", "xona 12-martda").
    fn said_as_time(&self, end: usize) -> bool {
        let timely = |at: usize| {
            let key = self.means(at, |k| {
                matches!(
                    k,
                    Key::Meridiem(_)
                        | Key::Unit(_)
                        | Key::UnitFrom(_)
                        | Key::HourWord
                        | Key::Da
                        | Key::UntilSuffix
                        | Key::FromSuffix
                        | Key::DateNoun
                        | Key::Month(_)
                        | Key::OrdinalSuffix
                )
            });
            // "5 p.m.", "5p.m.".
            let dotted_pm = self.word(at) == Some("p") && self.punct(at + 1) == Some('.');
            key || dotted_pm
        };
        // "room 5-6pm" is a span of hours; "room 5 - 5pm" a room and an hour.
        let dashed = self.punct(end) == Some('-') && self.joined(end) && self.joined(end + 1);
        let face = self.joined(end) && self.punct(end) == Some(':');
        face || timely(end)
            || (dashed && timely(end + 1))
            || (dashed && self.is_number(end + 1) && timely(end + 2))
    }

    /// The first and last day numbers of each stretch of days in a month: `D -|to|till|through|по
    /// D MONTH` and `MONTH D-D`; not an hour and a repeat's end ("в 10 до 11 июня", "в 19:00 до
    /// 1 апреля").
    fn stretches(&self) -> Vec<(usize, usize)> {
        let month = |i: usize| self.means(i, |k| matches!(k, Key::Month(_)));
        let joint = |i: usize| {
            self.punct(i) == Some('-')
                || self
                    .word(i)
                    .is_some_and(|w| matches!(w, "to" | "till" | "through" | "thru" | "по" | "до"))
        };
        let value = |i: usize| self.number(i).map(|(value, _)| value);
        (0..self.tokens.len())
            .filter(|&i| self.tokens[i].spaced && joint(i + 1) && !self.marked(i))
            .filter(|&i| {
                matches!((value(i), value(i + 2)), (Some(first), Some(last)) if 0 < first && first < last)
            })
            .filter(|&i| month(i + 3) || (i > 0 && month(i - 1)))
            .map(|i| (i, i + 2))
            .collect()
    }

    /// Whether an hour is said in the message away from the stretch of days over
    /// `first..=last` (and its month): a clock's face, an hour with am/pm, or a marker before a
    /// number, neither right after the stretch ("conference may 12-14 at 9am" is at the
    /// stretch) nor just before it ("daily at 8am from june 1 to 10").
    fn hour_said_apart(&self, first: usize, last: usize) -> bool {
        let is_month = |i: usize| self.means(i, |k| matches!(k, Key::Month(_)));
        let after = last + 1 + usize::from(is_month(last + 1));
        let opens = first - usize::from(first > 0 && is_month(first - 1));
        let hour_at = |i: usize| {
            self.is_number(i)
                && (self.means(i + 1, |k| matches!(k, Key::Meridiem(_)))
                    || (self.joined(i + 1)
                        && self.punct(i + 1) == Some(':')
                        && self.is_number(i + 2))
                    || self.marked(i))
        };
        let adjacent = |i: usize| {
            i == after
                || (i == after + 1 && self.keys[after].contains(&Key::At))
                || (i < opens && i + 4 >= opens)
        };
        (0..self.tokens.len()).any(|i| (i < first || i > last) && !adjacent(i) && hour_at(i))
    }

    /// The dotted numbers of lists that number things ("задачи 4.12 и 4.13", "5.3 va 5.4
    /// машқларни", "4.12 va 4.13 masalalarni"): each number and its fraction. A list is
    /// numbering when a part after the dot has one digit (no minutes do), when a word of
    /// [`LABEL_WORDS`] stands before it, or an exercise or a problem after it; not when it is
    /// said as times or days ("soat 9.30 va 14.30 da", "8.00 va 20.00 da", "25.07 va 26.07
    /// kunlari").
    fn lists(&self) -> Vec<(usize, usize)> {
        const NUMBERED: &[&str] = &[
            "masala",
            "mashq",
            "масала",
            "машқ",
            "exercise",
            "problem",
            "задач",
            "упражн",
        ];
        let joins = |at: usize| {
            matches!(self.punct(at), Some(',' | '&'))
                || self
                    .word(at)
                    .is_some_and(|w| matches!(w, "and" | "и" | "va" | "ва"))
        };
        let mut found = Vec::new();
        let mut i = 0;
        while i < self.tokens.len() {
            let mut members = Vec::new();
            let mut at = i;
            while let Some(f) = self.is_number(at).then(|| self.fraction_at(at)).flatten() {
                members.push((at, f));
                if !(joins(f + 1) && self.is_number(f + 2)) {
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
                .any(|&(_, f)| matches!(self.number(f), Some((_, 1))));
            let named_before = i > 0 && self.word(i - 1).is_some_and(|w| LABEL_WORDS.contains(&w));
            let named_after = self
                .word(last + 1)
                .is_some_and(|w| NUMBERED.iter().any(|stem| w.starts_with(stem)));
            let said_as_time = self.marked(i)
                || self.said_as_time(last + 1)
                || self.means(last + 1, |k| *k == Key::DayNoun);
            if (one_digit || named_before || named_after) && !said_as_time {
                found.extend(members);
            }
            i = last + 1;
        }
        found
    }
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
