//! Tokens with their meanings, and a backtracking cursor over them.

use chrono::NaiveDate;
use chrono_tz::Tz;

use crate::domain::fold::{fold, is_invisible};
use crate::domain::lang::Lang;
use crate::domain::script::{is_cyrillic, uz_cyrillic_to_latin};

use super::super::keys::{Key, Period};
use super::super::lexer::{Token, TokenKind, tokenize};
use super::super::vocab::{keyboard_uz_meanings, meanings, meanings_in, typo_of};
use super::label::labels;

/// A tokenized message, each word annotated with its meanings.
pub(in crate::domain::due) struct Lexed {
    tokens: Vec<Token>,
    /// Whether each token stands inside quotation marks: a title, never a time.
    quoted: Vec<bool>,
    keys: Vec<Vec<Key>>,
    typos: Vec<Option<&'static str>>,
    hint: Lang,
    /// The local date the message is read on, when known: it tells which reading of `6.04`
    /// falls on a weekday said beside it.
    today: Option<NaiveDate>,
    /// Whether a number after "in" without its unit may be read as minutes ("order pizza in
    /// 20"): a guess, tried only when the message has no time phrase otherwise.
    guesses_minutes: bool,
    /// Whether `06/04` puts the month first, as the United States write it: English, unless
    /// the user's zone is where dates put the day first.
    month_first: bool,
    /// Whether any word of the message names a day ([`Lexed::names_a_day`]), found once.
    names_a_day: bool,
    /// Which tokens are numbers that label or measure something, never a time nor a date
    /// ("room 3.14", "2,5 кг", "20%"; see [`labels`]).
    labels: Vec<bool>,
}

/// The zone areas where dates put the day first, in English too.
const DAY_FIRST_AREAS: &[&str] = &[
    "Europe/",
    "Asia/",
    "Africa/",
    "Australia/",
    "Indian/",
    "Atlantic/",
];

/// The zones of those areas that put the month first.
const MONTH_FIRST_ZONES: &[&str] = &["Asia/Manila"];

impl Lexed {
    /// Tokenizes `input` and looks up every word, `hint`'s language first. A Cyrillic word is
    /// also read as Uzbek through its Latin transliteration ("эртага" is "ertaga"; a Russian
    /// word only in an Uzbek chat: "марта" is March elsewhere, not "marta"), as typed on
    /// a Russian keyboard when it means nothing else ("хар" is "ҳар", see
    /// [`keyboard_uz_meanings`]), and a word
    /// with no meaning that is one letter away from a key word is read as that word (see
    /// [`typo_of`]). Words in quotation marks are a title and mean nothing ("прочитать «Утро»
    /// в 10", "soat 8 da \"Juma\" filmi"), unless the quotes hold the whole message.
    pub fn new(input: &str, hint: Lang) -> Lexed {
        let mut tokens = tokenize(input);
        let quoted = quoted(input, &tokens);
        let (mut keys, typos): (Vec<Vec<Key>>, _) = tokens
            .iter()
            .zip(&quoted)
            .map(|(t, quoted)| match t.word() {
                Some(word) if !quoted => {
                    word_meanings(word, input.get(t.start..t.end).unwrap_or(""), hint)
                }
                _ => (Vec::new(), None),
            })
            .unzip();
        for i in 1..tokens.len() {
            if keys[i - 1].contains(&Key::Greeting) && is_greeted(&tokens[i], &keys[i]) {
                keys[i] = vec![Key::Greeted];
            }
            // "день рождения", "с днём рождения", "с днём учителя": a birthday or a holiday
            // wished, neither a day nor the afternoon.
            if matches!(tokens[i].word(), Some("рождения" | "рожденья")) {
                keys[i - 1].clear();
            }
            if tokens[i - 1].word() == Some("с")
                && matches!(tokens[i].word(), Some("днём" | "днем"))
            {
                keys[i].clear();
            }
        }
        let names_a_day = (0..tokens.len()).any(|i| {
            let has = |i: usize, key: Key| keys[i].contains(&key);
            let from_today = has(i, Key::Today) && i > 0 && has(i - 1, Key::From);
            (has(i, Key::Today) && !from_today)
                || has(i, Key::Tomorrow)
                || has(i, Key::DayAfterTomorrow)
                || keys[i].iter().any(|k| matches!(k, Key::Weekday(_)))
        });
        // "tomorrow9am", "завтра9:00", "sat10am": a day word typed into its hour, as fast thumbs
        // do, is apart from it.
        for i in 1..tokens.len() {
            let day = keys[i - 1]
                .iter()
                .any(|k| k.names_a_day() || matches!(k, Key::WeekdayShort(_)));
            if day && matches!(tokens[i].kind, TokenKind::Number { .. }) {
                tokens[i].spaced = true;
            }
        }
        let labels = labels(input, &tokens, &keys, names_a_day);
        Lexed {
            tokens,
            quoted,
            keys,
            typos,
            hint,
            today: None,
            guesses_minutes: false,
            month_first: hint == Lang::En,
            names_a_day,
            labels,
        }
    }

    /// The same message from a user in `zone`: an English `06/04` is 6 April in London and
    /// Tashkent ([`DAY_FIRST_AREAS`]), June 4th in New York, Manila and where the zone says
    /// nothing, as in `UTC`.
    pub fn written_in(self, zone: Tz) -> Lexed {
        let name = zone.name();
        let day_first = DAY_FIRST_AREAS.iter().any(|area| name.starts_with(area))
            && !MONTH_FIRST_ZONES.contains(&name);
        Lexed {
            month_first: self.month_first && !day_first,
            ..self
        }
    }

    /// Whether `06/04` puts the month first (see [`Lexed::written_in`]).
    pub fn month_first(&self) -> bool {
        self.month_first
    }

    /// The same message, read again with the guess that a number after "in" without its unit
    /// is minutes.
    pub fn guessing_minutes(self) -> Lexed {
        Lexed {
            guesses_minutes: true,
            ..self
        }
    }

    /// Whether a number after "in" without its unit may be read as minutes.
    pub fn guesses_minutes(&self) -> bool {
        self.guesses_minutes
    }

    /// The same message, read on the local date `today`.
    pub fn read_on(self, today: NaiveDate) -> Lexed {
        Lexed {
            today: Some(today),
            ..self
        }
    }

    /// The local date the message is read on, when known.
    pub fn today(&self) -> Option<NaiveDate> {
        self.today
    }

    /// The key word that the word at `i` was read as because it is a typo of it.
    pub fn typo(&self, i: usize) -> Option<&'static str> {
        self.typos.get(i).copied().flatten()
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

    /// Whether the token at `i` has no meaning to the grammar (plain task text).
    pub fn has_no_meaning(&self, i: usize) -> bool {
        self.keys.get(i).is_none_or(Vec::is_empty)
    }

    /// Whether the word at `i` can mean `key`.
    pub fn has(&self, i: usize, key: Key) -> bool {
        self.keys.get(i).is_some_and(|keys| keys.contains(&key))
    }

    /// The first meaning of the word at `i` that `pick` accepts.
    pub fn pick<T>(&self, i: usize, pick: impl Fn(Key) -> Option<T>) -> Option<T> {
        self.keys.get(i)?.iter().find_map(|k| pick(*k))
    }

    /// The part of the day the message's words point to, when they agree: a word of waking up
    /// or of breakfast ("wake", "разбуди", "подъём", "uyg'otib", "breakfast", "завтрак",
    /// "nonushta") or of the morning ("morning", "утром", "ertalab"), or of the evening
    /// ("evening", "вечером", "kechki"), anywhere in it. `None` when there is none, or words of
    /// both. A dinner is no cue here: "call mom at 9 about dinner" is about dinner, not at it
    /// (see [`Lexed::opens_with_dinner`]), while "breakfast at 8" is not at 20:00.
    pub fn cue(&self) -> Option<Period> {
        // "веч." and "утр." stand for "вечера", "утра" after an hour; elsewhere they are
        // adjectives ("веч. смена", an evening shift) and no cue.
        let abbreviated =
            |i: usize| matches!(self.token(i).and_then(Token::word), Some("веч" | "утр"));
        let any = |key: Key| (0..self.len()).any(|i| self.has(i, key) && !abbreviated(i));
        let morning = any(Key::MorningCue)
            || any(Key::Period(Period::Morning))
            || (0..self.len()).any(|i| self.gets_up(i));
        let evening = any(Key::Period(Period::Evening));
        match (morning, evening) {
            (true, false) => Some(Period::Morning),
            (false, true) => Some(Period::Evening),
            _ => None,
        }
    }

    /// Whether any word of the message names a day: a weekday's full name or a day word
    /// ("tomorrow", "ertaga"; not "today" of "from today", nor short forms that are words too,
    /// "sun", Uzbek "pay"). A reading that a day elsewhere would contradict (a date inside the
    /// text, "2 weeks from today", "the end of next year") gives way to it.
    pub fn names_a_day(&self) -> bool {
        self.names_a_day
    }

    /// Whether a dinner opens the message ("dinner at Nando's saturday 8", "ужин у родителей в
    /// субботу в 7"; not as a label, "Dinner: thaw the chicken tomorrow at 8"): a cue of the
    /// evening for an hour a dinner is at (5 to 8, see `event_cue` in the due module).
    pub fn opens_with_dinner(&self) -> bool {
        let labelled = self.token(1).and_then(Token::punct) == Some(':');
        !labelled
            && matches!(
                self.token(0).and_then(Token::word),
                Some("dinner" | "supper" | "ужин" | "ужинать" | "поужинать")
            )
    }

    /// Whether the words at `i` say getting up at a time, a cue of the morning as "wake" is: "get
    /// up" ("getting up", "gets up"), "встать" ("вставать", "встаю") before the time, a day word
    /// or the message's end, with "early" or "for …" between ("get up at 6 tomorrow", "get up
    /// early, at 6", "get up for the flight at 4", "встать пораньше в 6"); not "get up to speed",
    /// "get up and stretch", "встать в очередь", "встать на учёт".
    fn gets_up(&self, i: usize) -> bool {
        let word = |i: usize| self.token(i).and_then(Token::word);
        let number = |i: usize| {
            self.token(i)
                .is_some_and(|t| matches!(t.kind, TokenKind::Number { .. }))
        };
        let mut after = match (word(i), word(i + 1)) {
            (Some("get" | "gets" | "getting"), Some("up")) => i + 2,
            (Some("встать" | "вставать" | "встаю" | "встану"), _) => i + 1,
            _ => return false,
        };
        while matches!(word(after), Some("early" | "earlier" | "пораньше" | "рано"))
            || self.token(after).and_then(Token::punct) == Some(',')
        {
            after += 1;
        }
        // "get up for the flight at 4": a few words of what for, then the time.
        if word(after) == Some("for")
            && let Some(at) =
                (after + 1..(after + 5).min(self.len())).find(|&j| self.has(j, Key::At))
        {
            after = at;
        }
        let at_a_time = (self.has(after, Key::At) && number(after + 1)) || number(after);
        let a_day = [Key::Today, Key::Tomorrow, Key::DayAfterTomorrow]
            .into_iter()
            .any(|key| self.has(after, key));
        after >= self.len() || at_a_time || a_day
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
        let start = i == 0
            || self.tokens.get(i).is_some_and(|t| t.spaced)
            || self.tokens.get(i - 1).is_some_and(|t| t.punct().is_some());
        start && !self.quoted.get(i).copied().unwrap_or(false)
    }

    /// Whether a phrase part may end just before `i`: at the end, or before
    /// a space or punctuation (`9amx` is no time).
    pub fn ends_word(&self, i: usize) -> bool {
        self.tokens
            .get(i)
            .is_none_or(|t| t.spaced || t.punct().is_some())
    }
}

/// Which tokens stand between a pair of quotation marks (`"…"`, `'…'`, `«…»`, `“…”`, `„…“`), when
/// something stands outside them too: a quoted whole message is still read.
fn quoted(input: &str, tokens: &[Token]) -> Vec<bool> {
    let mut inside = vec![false; tokens.len()];
    let mut open: Option<(usize, char)> = None;
    for (i, token) in tokens.iter().enumerate() {
        let mut chars = input.get(token.start..token.end).unwrap_or("").chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            continue;
        };
        // Every apostrophe (`'`, `‘`, `’`) is one mark.
        let c = token.punct().filter(|p| *p == '\'').unwrap_or(c);
        // A quotation opens after a space and closes right after a word: `'Friday' at 8`, not
        // the inch of `5"` or the apostrophe of `students'`.
        match open {
            Some((from, close)) if c == close && !token.spaced => {
                inside[from + 1..i].fill(true);
                open = None;
            }
            None if token.spaced => open = closing_quote(c).map(|close| (i, close)),
            _ => {}
        }
    }
    let outside = tokens
        .iter()
        .zip(&inside)
        .any(|(t, quoted)| !quoted && !matches!(t.kind, TokenKind::Punct(_) | TokenKind::Other));
    if !outside {
        inside.fill(false);
    }
    inside
}

/// The mark that closes a quotation opened with `open`, if `open` opens one.
pub(in crate::domain::due) fn closing_quote(open: char) -> Option<char> {
    match open {
        '"' => Some('"'),
        '\'' => Some('\''),
        '«' => Some('»'),
        '“' => Some('”'),
        '„' => Some('“'),
        _ => None,
    }
}

/// Whether `token`, with the meanings `keys`, is what a greeting wishes ("morning" of "good
/// morning", "утро" of "доброе утро", "tong" of "xayrli tong"): a part of the day, a day, or
/// Uzbek's words for the morning, the evening and the night.
fn is_greeted(token: &Token, keys: &[Key]) -> bool {
    token.spaced
        && (keys
            .iter()
            .any(|k| matches!(k, Key::Period(_) | Key::DayNoun))
            || token
                .word()
                .is_some_and(|w| matches!(w, "tong" | "kech" | "tun" | "day")))
}

/// The meanings of a word (`folded`, and as typed in `original`), and the key word it was
/// read as if it is a typo.
fn word_meanings(folded: &str, original: &str, hint: Lang) -> (Vec<Key>, Option<&'static str>) {
    let mut keys = meanings(folded, hint);
    let latin = original.chars().any(is_cyrillic).then(|| {
        let visible: String = original
            .chars()
            .filter(|c| !is_invisible(*c))
            .flat_map(char::to_lowercase)
            .collect();
        fold(&uz_cyrillic_to_latin(&visible))
    });
    if let Some(latin) = &latin {
        // A Russian word keeps its Russian meaning unless the chat is Uzbek: "марта" is March,
        // not Uzbek "marta" (times), in "30 марта".
        let uzbek_chat = matches!(hint, Lang::Uz | Lang::UzCyrl);
        if uzbek_chat || meanings_in(folded, Lang::Ru).is_empty() {
            keys.extend(meanings_in(latin, Lang::Uz));
        }
        if keys.is_empty() {
            keys = keyboard_uz_meanings(latin);
        }
    }
    if !keys.is_empty() {
        return (keys, None);
    }
    let typo = typo_of(folded).or_else(|| latin.as_deref().and_then(typo_of));
    match typo {
        Some(word) => (meanings(word, hint), Some(word)),
        None => (keys, None),
    }
}

/// A position in a [`Lexed`] message that grammar rules advance; a clone looks ahead.
#[derive(Clone)]
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

    /// The local date the message is read on, when known.
    pub fn today(&self) -> Option<NaiveDate> {
        self.lexed.today()
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

    /// Whether the word at token `pos` has a meaning `pick` accepts.
    pub fn is_at<T>(&self, pos: usize, pick: impl Fn(Key) -> Option<T>) -> bool {
        self.lexed.pick(pos, pick).is_some()
    }

    /// Whether the word at token `pos` can mean `key`.
    pub fn has_at(&self, pos: usize, key: Key) -> bool {
        self.lexed.has(pos, key)
    }

    /// Number of tokens in the message.
    pub fn len(&self) -> usize {
        self.lexed.len()
    }

    /// Whether any word of the message names a day ([`Lexed::names_a_day`]).
    pub fn message_names_a_day(&self) -> bool {
        self.lexed.names_a_day()
    }

    /// Whether the next token is a number.
    pub fn peek_number(&self) -> bool {
        self.is_number_at(self.pos)
    }

    /// The value and digit count of the number at `pos`, if it is one.
    pub fn number_at(&self, pos: usize) -> Option<(u64, usize)> {
        match self.lexed.token(pos)?.kind {
            TokenKind::Number { value, digits } => Some((value, digits)),
            _ => None,
        }
    }

    /// Whether the token at `pos` is a number.
    pub fn is_number_at(&self, pos: usize) -> bool {
        self.lexed
            .token(pos)
            .is_some_and(|t| matches!(t.kind, TokenKind::Number { .. }))
    }

    /// Whether the number at `pos` is joined by a dot to a number before it ("3" and "24" of
    /// "8.3.24", "1" of "v2.1.3"): a later part of a version or a date, never a time's hour.
    pub fn continues_a_dotted_number(&self, pos: usize) -> bool {
        let joined = self.lexed.token(pos).is_some_and(|t| !t.spaced);
        joined
            && pos >= 2
            && self.has_punct_at(pos - 1, '.')
            && self.is_number_at(pos - 2)
            && self.lexed.token(pos - 1).is_some_and(|t| !t.spaced)
    }

    /// Whether token `pos` is the minutes of a clock's face ("7:30", not "2:1" or "3:16" after
    /// a word): two digits up to 59 after a colon and an hour up to 23.
    pub fn ends_a_clock_face(&self, pos: usize) -> bool {
        let number = |i: usize| match self.lexed.token(i).map(|t| &t.kind) {
            Some(TokenKind::Number { value, digits }) => Some((*value, *digits)),
            _ => None,
        };
        let (Some(colon), Some((minute, 2))) = (pos.checked_sub(1), number(pos)) else {
            return false;
        };
        let hour = colon.checked_sub(1).and_then(number);
        self.has_punct_at(colon, ':') && minute < 60 && hour.is_some_and(|(hour, _)| hour < 24)
    }

    /// Whether token `pos` is the punctuation `c`.
    pub fn has_punct_at(&self, pos: usize, c: char) -> bool {
        self.lexed.token(pos).and_then(Token::punct) == Some(c)
    }

    /// The folded word at token `pos`, if that token is a word.
    pub fn word_at(&self, pos: usize) -> Option<&str> {
        self.lexed.token(pos).and_then(Token::word)
    }

    /// Consumes a word that has no meaning to the grammar ("bobni" of "12-bobni").
    pub fn eat_plain_word(&mut self) -> bool {
        let plain = self.word_at(self.pos).is_some() && !self.is_at(self.pos, Some);
        if plain {
            self.pos += 1;
        }
        plain
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

    /// Consumes the folded words `words` in turn, or nothing.
    pub fn eat_all_words(&mut self, words: &[&str]) -> bool {
        self.attempt(|c| words.iter().all(|w| c.eat_word(w)).then_some(()))
            .is_some()
    }

    /// Consumes a number, giving its value and digit count; never one that labels or measures
    /// something ("room 3.14", see [`labels`]).
    pub fn eat_number(&mut self) -> Option<(u64, usize)> {
        if self.lexed.labels.get(self.pos).copied().unwrap_or(false) {
            return None;
        }
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

    /// Whether what was read so far ends a word: at the end, before a space, or before `,`
    /// `;` `!` `?` (the `30` of "at 9 30, call mom", not of "9 30-го").
    pub fn at_word_end(&self) -> bool {
        self.lexed.token(self.pos).is_none_or(|t| {
            t.spaced
                || t.punct()
                    .is_some_and(|p| matches!(p, ',' | ';' | '!' | '?'))
        })
    }

    /// Whether `06/04` puts the month first (see [`Lexed::written_in`]).
    pub fn month_first(&self) -> bool {
        self.lexed.month_first()
    }

    /// Whether a number after "in" without its unit may be read as minutes (see
    /// [`Lexed::guessing_minutes`]).
    pub fn guesses_minutes(&self) -> bool {
        self.lexed.guesses_minutes()
    }

    /// Whether only punctuation is left of the message ("fri.", "пт!").
    pub fn at_message_end(&self) -> bool {
        (self.pos..self.lexed.len())
            .all(|i| self.lexed.token(i).is_some_and(|t| t.punct().is_some()))
    }

    /// Whether the message or a sentence ends here: at the end, or before punctuation other
    /// than `:` and `.` (which may join a time's minutes).
    pub fn ends_phrase(&self) -> bool {
        self.lexed
            .token(self.pos)
            .is_none_or(|t| t.punct().is_some_and(|p| !matches!(p, ':' | '.')))
    }

    fn next_is_spaced(&self) -> bool {
        self.lexed.token(self.pos).is_none_or(|t| t.spaced)
    }
}
