//! Telegram's HTML parse mode: the tag whitelist, attribute rules and entity decoding, producing
//! the plain text and its entities (UTF-16 offsets). Error texts follow Telegram's
//! ("Unsupported start tag \"foo\" at byte offset 42"); byte offsets are into the input.

use super::types::MessageEntity;

/// Why a text is not valid Telegram HTML. The `Display` text follows "can't parse entities: ".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HtmlError {
    /// A tag outside the whitelist, or a `<` that starts no tag (e.g. "a < b").
    #[error("Unsupported start tag \"{tag}\" at byte offset {offset}")]
    UnsupportedStartTag {
        /// The tag name as read (lowercased; empty for a bare `<`).
        tag: String,
        /// Byte offset of the `<`.
        offset: usize,
    },
    /// The input ends inside a start tag.
    #[error("Unclosed start tag at byte offset {offset}")]
    UnclosedStartTag {
        /// Byte offset of the `<`.
        offset: usize,
    },
    /// An attribute without a name.
    #[error("Empty attribute name in the tag \"{tag}\" at byte offset {offset}")]
    EmptyAttributeName {
        /// The tag.
        tag: String,
        /// Byte offset of the `<`.
        offset: usize,
    },
    /// An attribute name not followed by `=`.
    #[error(
        "Expected equal sign in declaration of an attribute of the tag \"{tag}\" at byte offset {offset}"
    )]
    ExpectedEqualSign {
        /// The tag.
        tag: String,
        /// Byte offset of the `<`.
        offset: usize,
    },
    /// An unquoted attribute value with characters other than letters, digits, `.` and `-`.
    #[error("Unexpected end of name token at byte offset {offset}")]
    BadNameToken {
        /// Byte offset of the value.
        offset: usize,
    },
    /// `<span>` without `class="tg-spoiler"`.
    #[error("Tag \"span\" must have class \"tg-spoiler\" at byte offset {offset}")]
    SpanWithoutSpoilerClass {
        /// Byte offset of the `<`.
        offset: usize,
    },
    /// `<tg-emoji>` without a numeric `emoji-id`.
    #[error("Custom emoji entity must contain a valid emoji-id at byte offset {offset}")]
    MissingEmojiId {
        /// Byte offset of the `<`.
        offset: usize,
    },
    /// The input ends inside an end tag.
    #[error("Unclosed end tag at byte offset {offset}")]
    UnclosedEndTag {
        /// Byte offset of the `</`.
        offset: usize,
    },
    /// An end tag with no open tag.
    #[error("Unexpected end tag at byte offset {offset}")]
    UnexpectedEndTag {
        /// Byte offset of the `</`.
        offset: usize,
    },
    /// An end tag that does not close the innermost open tag.
    #[error(
        "Unmatched end tag at byte offset {offset}, expected \"</{expected}>\", found \"</{found}>\""
    )]
    UnmatchedEndTag {
        /// Byte offset of the `</`.
        offset: usize,
        /// The innermost open tag.
        expected: String,
        /// The tag being closed.
        found: String,
    },
    /// A tag still open at the end of the input.
    #[error("Can't find end tag corresponding to start tag \"{tag}\"")]
    MissingEndTag {
        /// The open tag.
        tag: String,
    },
    /// A `&` that starts no supported entity. Telegram's rules require `&amp;`; the simulator
    /// enforces them strictly (Telegram itself may let some of these through).
    #[error("Unescaped \"&\" at byte offset {offset}: use &amp;")]
    UnescapedAmpersand {
        /// Byte offset of the `&`.
        offset: usize,
    },
}

const TAGS: &[&str] = &[
    "a",
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "tg-spoiler",
    "span",
    "tg-emoji",
    "code",
    "pre",
    "blockquote",
];

struct Open {
    tag: String,
    start: usize,
    url: Option<String>,
    language: Option<String>,
    emoji_id: Option<String>,
    expandable: bool,
}

/// Parses Telegram HTML into plain text and entities.
pub fn parse(input: &str) -> Result<(String, Vec<MessageEntity>), HtmlError> {
    let bytes = input.as_bytes();
    let mut text = String::with_capacity(input.len());
    let mut pos = 0usize; // UTF-16 length of `text`
    let mut stack: Vec<Open> = Vec::new();
    let mut entities = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'&' => {
                let (c, len) = decode_entity(&input[i..])
                    .ok_or(HtmlError::UnescapedAmpersand { offset: i })?;
                text.push(c);
                pos += c.len_utf16();
                i += len;
            }
            b'<' if bytes.get(i + 1) == Some(&b'/') => {
                let (open, next) = end_tag(input, i, &mut stack)?;
                close(open, &text, pos, &mut stack, &mut entities);
                i = next;
            }
            b'<' => {
                let (open, next) = start_tag(input, i, pos)?;
                stack.push(open);
                i = next;
            }
            _ => {
                let c = input[i..].chars().next().unwrap_or('\u{FFFD}');
                text.push(c);
                pos += c.len_utf16();
                i += c.len_utf8();
            }
        }
    }
    if let Some(open) = stack.pop() {
        return Err(HtmlError::MissingEndTag { tag: open.tag });
    }
    entities.sort_by(|a: &MessageEntity, b| a.offset.cmp(&b.offset).then(b.length.cmp(&a.length)));
    Ok((text, entities))
}

/// Decodes the entity at the start of `s` (which starts with `&`): `&lt; &gt; &amp; &quot;` and
/// numeric ones. Returns the character and the bytes consumed.
fn decode_entity(s: &str) -> Option<(char, usize)> {
    let end = s.find(';')?;
    let name = &s[1..end];
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        _ => {
            let digits = name.strip_prefix('#')?;
            let code = match digits.strip_prefix(['x', 'X']) {
                Some(hex)
                    if !hex.is_empty()
                        && hex.len() <= 8
                        && hex.bytes().all(|b| b.is_ascii_hexdigit()) =>
                {
                    u32::from_str_radix(hex, 16).ok()?
                }
                None if !digits.is_empty()
                    && digits.len() <= 10
                    && digits.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    digits.parse().ok()?
                }
                _ => return None,
            };
            char::from_u32(code).filter(|c| *c != '\0')?
        }
    };
    Some((c, end + 1))
}

fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace()
}

fn start_tag(input: &str, begin: usize, pos: usize) -> Result<(Open, usize), HtmlError> {
    let bytes = input.as_bytes();
    let mut i = begin + 1;
    while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
        i += 1;
    }
    if i >= bytes.len() {
        return Err(HtmlError::UnclosedStartTag { offset: begin });
    }
    let tag = input[begin + 1..i].to_ascii_lowercase();
    if !TAGS.contains(&tag.as_str()) {
        return Err(HtmlError::UnsupportedStartTag { tag, offset: begin });
    }
    let mut open = Open {
        tag,
        start: pos,
        url: None,
        language: None,
        emoji_id: None,
        expandable: false,
    };
    let mut class = None;
    loop {
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        match bytes.get(i) {
            None => return Err(HtmlError::UnclosedStartTag { offset: begin }),
            Some(b'>') => break,
            Some(_) => {}
        }
        let name_start = i;
        while i < bytes.len() && !is_space(bytes[i]) && !matches!(bytes[i], b'=' | b'>') {
            i += 1;
        }
        let name = input[name_start..i].to_ascii_lowercase();
        if name.is_empty() {
            return Err(HtmlError::EmptyAttributeName {
                tag: open.tag,
                offset: begin,
            });
        }
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'=') {
            if open.tag == "blockquote" && name == "expandable" {
                open.expandable = true;
                continue;
            }
            return Err(HtmlError::ExpectedEqualSign {
                tag: open.tag,
                offset: begin,
            });
        }
        i += 1;
        while i < bytes.len() && is_space(bytes[i]) {
            i += 1;
        }
        let value = match bytes.get(i) {
            None => return Err(HtmlError::UnclosedStartTag { offset: begin }),
            Some(&quote @ (b'"' | b'\'')) => {
                i += 1;
                let mut value = String::new();
                while i < bytes.len() && bytes[i] != quote {
                    if bytes[i] == b'&' {
                        let (c, len) = decode_entity(&input[i..])
                            .ok_or(HtmlError::UnescapedAmpersand { offset: i })?;
                        value.push(c);
                        i += len;
                    } else {
                        let c = input[i..].chars().next().unwrap_or('\u{FFFD}');
                        value.push(c);
                        i += c.len_utf8();
                    }
                }
                if i >= bytes.len() {
                    return Err(HtmlError::UnclosedStartTag { offset: begin });
                }
                i += 1;
                value
            }
            Some(_) => {
                let token_start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'.' | b'-'))
                {
                    i += 1;
                }
                match bytes.get(i) {
                    None => return Err(HtmlError::UnclosedStartTag { offset: begin }),
                    Some(&b) if !is_space(b) && b != b'>' => {
                        return Err(HtmlError::BadNameToken {
                            offset: token_start,
                        });
                    }
                    Some(_) => input[token_start..i].to_ascii_lowercase(),
                }
            }
        };
        match (open.tag.as_str(), name.as_str()) {
            ("a", "href") => open.url = Some(value),
            ("code", "class") => open.language = value.strip_prefix("language-").map(str::to_owned),
            ("span", "class") => class = Some(value),
            ("tg-emoji", "emoji-id") => open.emoji_id = Some(value),
            _ => {}
        }
    }
    if open.tag == "span" && class.as_deref() != Some("tg-spoiler") {
        return Err(HtmlError::SpanWithoutSpoilerClass { offset: begin });
    }
    if open.tag == "tg-emoji"
        && !open
            .emoji_id
            .as_deref()
            .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(HtmlError::MissingEmojiId { offset: begin });
    }
    Ok((open, i + 1))
}

fn end_tag(input: &str, begin: usize, stack: &mut Vec<Open>) -> Result<(Open, usize), HtmlError> {
    let bytes = input.as_bytes();
    if stack.is_empty() {
        return Err(HtmlError::UnexpectedEndTag { offset: begin });
    }
    let mut i = begin + 2;
    while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
        i += 1;
    }
    let name = input[begin + 2..i].to_ascii_lowercase();
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    if bytes.get(i) != Some(&b'>') {
        return Err(HtmlError::UnclosedEndTag { offset: begin });
    }
    let open = stack
        .pop()
        .ok_or(HtmlError::UnexpectedEndTag { offset: begin })?;
    if !name.is_empty() && name != open.tag {
        return Err(HtmlError::UnmatchedEndTag {
            offset: begin,
            expected: open.tag,
            found: name,
        });
    }
    Ok((open, i + 1))
}

/// Turns a closed tag into its entity (none when empty).
fn close(
    open: Open,
    text: &str,
    pos: usize,
    stack: &mut [Open],
    entities: &mut Vec<MessageEntity>,
) {
    let length = pos - open.start;
    if open.tag == "code"
        && let Some(parent) = stack.last_mut()
        && parent.tag == "pre"
    {
        if open.language.is_some() {
            parent.language = open.language;
        }
        return;
    }
    if length == 0 {
        return;
    }
    let mut entity = MessageEntity::new(
        match open.tag.as_str() {
            "b" | "strong" => "bold",
            "i" | "em" => "italic",
            "u" | "ins" => "underline",
            "s" | "strike" | "del" => "strikethrough",
            "tg-spoiler" | "span" => "spoiler",
            "a" => "text_link",
            "tg-emoji" => "custom_emoji",
            "code" => "code",
            "pre" => "pre",
            _ if open.expandable => "expandable_blockquote",
            _ => "blockquote",
        },
        open.start,
        length,
    );
    match open.tag.as_str() {
        "a" => {
            let inner: String = utf16_slice(text, open.start);
            entity.url = Some(open.url.filter(|u| !u.is_empty()).unwrap_or(inner));
        }
        "pre" => entity.language = open.language,
        "tg-emoji" => entity.custom_emoji_id = open.emoji_id,
        _ => {}
    }
    entities.push(entity);
}

/// The part of `text` from UTF-16 offset `from` to the end.
fn utf16_slice(text: &str, from: usize) -> String {
    let mut pos = 0;
    let mut chars = text.chars();
    for c in chars.by_ref() {
        if pos >= from {
            return std::iter::once(c).chain(chars).collect();
        }
        pos += c.len_utf16();
    }
    String::new()
}
