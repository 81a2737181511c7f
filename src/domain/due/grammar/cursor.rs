//! Tokens with their meanings, and a backtracking cursor over them.

use crate::domain::lang::Lang;

use super::super::lexer::{Token, TokenKind, tokenize};
use super::super::vocab::{Key, meanings};

/// A tokenized message, each word annotated with its meanings.
pub(in crate::domain::due) struct Lexed {
    tokens: Vec<Token>,
    keys: Vec<Vec<Key>>,
    hint: Lang,
}

impl Lexed {
    /// Tokenizes `input` and looks up every word, `hint`'s language first.
    pub fn new(input: &str, hint: Lang) -> Lexed {
        let tokens = tokenize(input);
        let keys = tokens
            .iter()
            .map(|t| t.word().map_or_else(Vec::new, |w| meanings(w, hint)))
            .collect();
        Lexed { tokens, keys, hint }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The token at `i`.
    pub fn token(&self, i: usize) -> Option<&Token> {
        self.tokens.get(i)
    }

    /// The language whose reading wins ties.
    pub fn hint(&self) -> Lang {
        self.hint
    }

    /// Whether the word at `i` can mean `key`.
    pub fn has(&self, i: usize, key: Key) -> bool {
        self.keys.get(i).is_some_and(|keys| keys.contains(&key))
    }

    /// The first meaning of the word at `i` that `pick` accepts.
    pub fn pick<T>(&self, i: usize, pick: impl Fn(Key) -> Option<T>) -> Option<T> {
        self.keys.get(i)?.iter().find_map(|k| pick(*k))
    }

    /// Whether the token at `i` may sit between phrase parts or around the
    /// phrase without being task text: punctuation other than `@`, or `and`.
    pub fn is_glue(&self, i: usize) -> bool {
        self.tokens
            .get(i)
            .and_then(Token::punct)
            .is_some_and(|c| c != '@')
            || self.has(i, Key::And)
    }

    /// Whether the token at `i` is punctuation that may trim off the edges of
    /// the task text (`,` `;` `:` `-` `.`) or a joining `and`.
    pub fn is_edge_glue(&self, i: usize) -> bool {
        self.tokens
            .get(i)
            .and_then(Token::punct)
            .is_some_and(|c| matches!(c, ',' | ';' | ':' | '-' | '.'))
            || self.has(i, Key::And)
    }

    /// Whether a phrase part may start at `i`: not glued to a preceding word
    /// or number (`room12` is no time).
    pub fn starts_word(&self, i: usize) -> bool {
        i == 0
            || self.tokens.get(i).is_some_and(|t| t.spaced)
            || self.tokens.get(i - 1).is_some_and(|t| t.punct().is_some())
    }

    /// Whether a phrase part may end just before `i`: at the end, or before
    /// a space or punctuation (`9amx` is no time).
    pub fn ends_word(&self, i: usize) -> bool {
        self.tokens
            .get(i)
            .is_none_or(|t| t.spaced || t.punct().is_some())
    }
}

/// A position in a [`Lexed`] message that grammar rules advance.
pub(in crate::domain::due) struct Cursor<'a> {
    lexed: &'a Lexed,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at token `pos`.
    pub fn new(lexed: &'a Lexed, pos: usize) -> Cursor<'a> {
        Cursor { lexed, pos }
    }

    /// The current token index.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The language whose reading wins ties.
    pub fn hint(&self) -> Lang {
        self.lexed.hint()
    }

    /// Runs `rule`, moving back to where it started if it fails.
    pub fn attempt<T>(&mut self, rule: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let start = self.pos;
        let result = rule(self);
        if result.is_none() {
            self.pos = start;
        }
        result
    }

    /// Consumes a word meaning `key`.
    pub fn eat(&mut self, key: Key) -> bool {
        let found = self.lexed.has(self.pos, key);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Consumes words meaning each of `keys` in turn, or nothing.
    pub fn eat_all(&mut self, keys: &[Key]) -> bool {
        self.attempt(|c| keys.iter().all(|k| c.eat(*k)).then_some(()))
            .is_some()
    }

    /// Consumes a word whose meaning `pick` accepts.
    pub fn eat_pick<T>(&mut self, pick: impl Fn(Key) -> Option<T>) -> Option<T> {
        let found = self.lexed.pick(self.pos, pick);
        if found.is_some() {
            self.pos += 1;
        }
        found
    }

    /// Whether the next word can mean something `pick` accepts.
    pub fn peek_pick<T>(&self, pick: impl Fn(Key) -> Option<T>) -> bool {
        self.lexed.pick(self.pos, pick).is_some()
    }

    /// Whether the next token is a number.
    pub fn peek_number(&self) -> bool {
        self.lexed
            .token(self.pos)
            .is_some_and(|t| matches!(t.kind, TokenKind::Number { .. }))
    }

    /// The folded word at token `pos`, if that token is a word.
    pub fn word_at(&self, pos: usize) -> Option<&str> {
        self.lexed.token(pos).and_then(Token::word)
    }

    /// Consumes a specific folded word.
    pub fn eat_word(&mut self, word: &str) -> bool {
        let found = self
            .lexed
            .token(self.pos)
            .is_some_and(|t| t.word() == Some(word));
        if found {
            self.pos += 1;
        }
        found
    }

    /// Consumes a number, giving its value and digit count.
    pub fn eat_number(&mut self) -> Option<(u64, usize)> {
        let found = match self.lexed.token(self.pos)?.kind {
            TokenKind::Number { value, digits } => Some((value, digits)),
            _ => None,
        };
        if found.is_some() {
            self.pos += 1;
        }
        found
    }

    /// Consumes a number written right after the previous token, with no
    /// space between (the `30` of `9:30`).
    pub fn eat_adjacent_number(&mut self) -> Option<(u64, usize)> {
        if self.next_is_spaced() {
            return None;
        }
        self.eat_number()
    }

    /// Consumes the punctuation `c`, wherever spaced.
    pub fn eat_punct(&mut self, c: char) -> bool {
        let found = self
            .lexed
            .token(self.pos)
            .is_some_and(|t| t.punct() == Some(c));
        if found {
            self.pos += 1;
        }
        found
    }

    /// Consumes the punctuation `c` written right after the previous token.
    pub fn eat_adjacent_punct(&mut self, c: char) -> bool {
        !self.next_is_spaced() && self.eat_punct(c)
    }

    /// Consumes a word written right after the previous token.
    pub fn eat_adjacent_word(&mut self, word: &str) -> bool {
        !self.next_is_spaced() && self.eat_word(word)
    }

    fn next_is_spaced(&self) -> bool {
        self.lexed.token(self.pos).is_none_or(|t| t.spaced)
    }
}
