//! Text folding shared by everything that matches words typed by users:
//! case, Cyrillic `ё`, the many Uzbek apostrophes and invisible characters.

/// Whether `c` is one of the apostrophes people type in Uzbek Latin words
/// such as `o'z` and `g'alaba` (ASCII `'`, backtick, U+2018, U+2019, U+02BB, U+02BC).
pub fn is_apostrophe(c: char) -> bool {
    matches!(
        c,
        '\'' | '`' | '\u{2018}' | '\u{2019}' | '\u{02BB}' | '\u{02BC}'
    )
}

/// Whether `c` is an invisible formatting character (zero-width spaces and
/// joiners, bidirectional marks and isolates, BOM, soft hyphen); matching
/// treats these like spaces so pasted text behaves like typed text.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// Whether `c` separates words: Unicode whitespace or an invisible character.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || is_invisible(c)
}

/// Folds one character for matching: lowercase, `ё` → `е`, every apostrophe → `'`.
/// A character can lowercase to several (`İ`), hence the iterator.
pub fn fold_char(c: char) -> impl Iterator<Item = char> {
    c.to_lowercase().map(|l| match l {
        'ё' => 'е',
        a if is_apostrophe(a) => '\'',
        other => other,
    })
}

/// Folds a whole string with [`fold_char`], leaving everything else as is.
pub fn fold(s: &str) -> String {
    s.chars().flat_map(fold_char).collect()
}

/// One word of a message split at spaces: where it is (byte offsets), and how it reads folded
/// without the punctuation around it ("5," reads "5"), for the readers that work on whole words
/// before the parser's lexer: "until done" and a time taken back as it is typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoldedWord {
    /// Where it starts in the message.
    pub start: usize,
    /// Where it ends in the message.
    pub end: usize,
    /// The word folded ([`fold`]), without `, . ! ; : — -` at its edges.
    pub folded: String,
}

/// The words of `input` between spaces ([`is_space`]), folded.
pub fn folded_words(input: &str) -> Vec<FoldedWord> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in input.char_indices().chain([(input.len(), ' ')]) {
        match (is_space(c), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let folded = fold(&input[s..i])
                    .trim_matches(|c: char| matches!(c, ',' | '.' | '!' | ';' | ':' | '—' | '-'))
                    .to_owned();
                out.push(FoldedWord {
                    start: s,
                    end: i,
                    folded,
                });
                start = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_yo_and_apostrophes() {
        assert_eq!(fold("ЁЛКА"), "елка");
        assert_eq!(fold("Oʻzbek G’alaba"), "o'zbek g'alaba");
    }

    #[test]
    fn invisible_characters_count_as_space() {
        assert!(is_space('\u{200B}'));
        assert!(is_space('\u{202E}'));
        assert!(!is_space('a'));
    }
}
