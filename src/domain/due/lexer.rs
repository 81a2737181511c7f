//! Splits a message into words, numbers and punctuation, remembering where
//! each piece came from so the time phrase can be cut out of the original.

use crate::domain::fold::{fold_char, is_apostrophe, is_invisible, is_space};

/// Digits kept per number; longer numbers saturate, which is harmless since
/// they are too large for any date or duration anyway.
const MAX_DIGITS: usize = 19;

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TokenKind {
    /// Letters, lowercased, `ё` folded to `е`, with any apostrophe between
    /// letters kept as `'` (`o'n`, `to'rt`, `o'clock`).
    Word(String),
    /// A run of ASCII digits: its value and how many digits were written.
    Number {
        /// The value, saturated at `u64::MAX`.
        value: u64,
        /// How many digits were typed (`09` has two).
        digits: usize,
    },
    /// One punctuation character; every dash is folded to `-`.
    Punct(char),
    /// Anything else (emoji, symbols, digits of other scripts).
    Other,
}

/// A token and its byte range in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    /// The token itself.
    pub kind: TokenKind,
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset just past the last character.
    pub end: usize,
    /// Whether whitespace (or the start of input) comes right before it.
    pub spaced: bool,
}

impl Token {
    /// The folded word, if this is a word.
    pub fn word(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Word(w) => Some(w),
            _ => None,
        }
    }

    /// The punctuation character, if this is punctuation.
    pub fn punct(&self) -> Option<char> {
        match self.kind {
            TokenKind::Punct(c) => Some(c),
            _ => None,
        }
    }
}

/// Splits `input` into tokens. Whitespace and invisible characters separate
/// tokens and are dropped; everything else becomes a token.
pub(super) fn tokenize(input: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = input.char_indices().peekable();
    let mut spaced = true;
    while let Some((start, c)) = chars.next() {
        if is_space(c) {
            spaced = true;
            continue;
        }
        let mut end = start + c.len_utf8();
        let kind = if c.is_ascii_digit() {
            let mut value = u64::from(c as u8 - b'0');
            let mut digits = 1;
            while let Some(&(i, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                value = value
                    .saturating_mul(10)
                    .saturating_add(u64::from(d as u8 - b'0'));
                digits = (digits + 1).min(MAX_DIGITS);
                end = i + d.len_utf8();
                chars.next();
            }
            TokenKind::Number { value, digits }
        } else if c.is_alphabetic() {
            let mut word: String = fold_char(c).collect();
            loop {
                match chars.peek().copied() {
                    Some((i, l)) if l.is_alphabetic() => {
                        word.extend(fold_char(l));
                        end = i + l.len_utf8();
                        chars.next();
                    }
                    Some((i, a)) if is_apostrophe(a) && letter_at(input, i + a.len_utf8()) => {
                        word.push('\'');
                        end = i + a.len_utf8();
                        chars.next();
                    }
                    Some((i, z))
                        if is_invisible(z) && letter_at(input, after_invisible(input, i)) =>
                    {
                        chars.next();
                    }
                    _ => break,
                }
            }
            TokenKind::Word(word)
        } else if c.is_ascii_punctuation() || is_apostrophe(c) || is_quotation_mark(c) {
            TokenKind::Punct(if is_apostrophe(c) { '\'' } else { c })
        } else if matches!(c, '\u{2010}'..='\u{2015}' | '\u{2212}') {
            TokenKind::Punct('-')
        } else {
            TokenKind::Other
        };
        tokens.push(Token {
            kind,
            start,
            end,
            spaced,
        });
        spaced = false;
    }
    tokens
}

/// The byte offset after the run of invisible characters starting at `at`,
/// so that a zero-width space typed inside a word does not split it.
fn after_invisible(input: &str, at: usize) -> usize {
    input.get(at..).map_or(at, |rest| {
        at + rest
            .char_indices()
            .find(|(_, c)| !is_invisible(*c))
            .map_or(rest.len(), |(i, _)| i)
    })
}

/// Whether a letter starts at byte offset `at` of `input`.
fn letter_at(input: &str, at: usize) -> bool {
    input
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(char::is_alphabetic)
}

/// Quotation marks beyond ASCII (`«»`, `“”`, `„`): punctuation, so that a time right before one
/// ends its word (`«купить молоко завтра в 9»`).
fn is_quotation_mark(c: char) -> bool {
    matches!(c, '«' | '»' | '“' | '”' | '„')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<TokenKind> {
        tokenize(input).into_iter().map(|t| t.kind).collect()
    }

    fn word(w: &str) -> TokenKind {
        TokenKind::Word(w.to_owned())
    }

    fn num(value: u64, digits: usize) -> TokenKind {
        TokenKind::Number { value, digits }
    }

    #[test]
    fn splits_words_numbers_and_punctuation() {
        assert_eq!(
            kinds("Завтра в 9:30pm"),
            [
                word("завтра"),
                word("в"),
                num(9, 1),
                TokenKind::Punct(':'),
                num(30, 2),
                word("pm")
            ]
        );
    }

    #[test]
    fn keeps_uzbek_apostrophes_inside_words() {
        assert_eq!(kinds("Toʻrt o‘n"), [word("to'rt"), word("o'n")]);
        assert_eq!(
            kinds("'quoted'"),
            [
                TokenKind::Punct('\''),
                word("quoted"),
                TokenKind::Punct('\'')
            ]
        );
    }

    #[test]
    fn records_spans_and_spacing() {
        let tokens = tokenize("ёж\u{200B}5-dekabr");
        let spans: Vec<_> = tokens.iter().map(|t| (t.start, t.end, t.spaced)).collect();
        assert_eq!(
            spans,
            [(0, 4, true), (7, 8, true), (8, 9, false), (9, 15, false)]
        );
        assert_eq!(tokens[0].word(), Some("еж"));
        assert_eq!(tokens[2].punct(), Some('-'));
    }

    #[test]
    fn invisible_characters_inside_words_are_dropped() {
        assert_eq!(
            kinds("tomor\u{200B}\u{200D}row\u{200B}9"),
            [word("tomorrow"), num(9, 1)]
        );
    }

    #[test]
    fn numbers_saturate_and_odd_characters_are_other() {
        assert_eq!(
            kinds("99999999999999999999999 🎉 ٣"),
            [
                num(u64::MAX, MAX_DIGITS),
                TokenKind::Other,
                TokenKind::Other
            ]
        );
    }
}
