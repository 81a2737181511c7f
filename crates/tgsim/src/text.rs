//! Message text rules that do not depend on the parse mode: UTF-16 lengths, trimming, clipping
//! given entities to the text, and the entities Telegram detects by itself (commands, mentions,
//! hashtags, URLs).

use super::types::MessageEntity;

/// Longest message text, in UTF-16 code units, after entity parsing.
pub const MAX_TEXT_LEN: usize = 4096;

/// Longest caption, in UTF-16 code units, after entity parsing.
pub(crate) const MAX_CAPTION_LEN: usize = 1024;

/// Length of `s` in UTF-16 code units, the unit of entity offsets.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Trims surrounding whitespace as Telegram does, shifts the entities accordingly, clips them to
/// the text, drops empty ones, adds the detected entities and sorts by offset (longest first).
pub(crate) fn finalize(text: &str, entities: Vec<MessageEntity>) -> (String, Vec<MessageEntity>) {
    let trimmed_start = text.trim_start();
    let lead = utf16_len(&text[..text.len() - trimmed_start.len()]);
    let trimmed = trimmed_start.trim_end().to_owned();
    let total = utf16_len(&trimmed);
    let mut out: Vec<MessageEntity> = entities
        .into_iter()
        .filter_map(|mut e| {
            let start = e.offset.saturating_sub(lead).min(total);
            let end = (e.offset + e.length).saturating_sub(lead).min(total);
            (end > start).then(|| {
                e.offset = start;
                e.length = end - start;
                e
            })
        })
        .collect();
    let detected: Vec<MessageEntity> = detect(&trimmed)
        .into_iter()
        .filter(|d| {
            !out.iter().any(|e| {
                matches!(
                    e.kind.as_str(),
                    "code" | "pre" | "text_link" | "url" | "bot_command"
                ) && d.offset < e.offset + e.length
                    && e.offset < d.offset + d.length
            })
        })
        .collect();
    out.extend(detected);
    out.sort_by(|a, b| a.offset.cmp(&b.offset).then(b.length.cmp(&a.length)));
    (trimmed, out)
}

/// Entities Telegram finds in plain text: `/command[@bot]`, `@username`, `#hashtag`, and
/// `http(s)://` URLs. Each must start at the beginning or after a character that is not part of a
/// word.
pub(crate) fn detect(text: &str) -> Vec<MessageEntity> {
    let chars: Vec<char> = text.chars().collect();
    let mut offsets = Vec::with_capacity(chars.len() + 1);
    let mut pos = 0;
    for c in &chars {
        offsets.push(pos);
        pos += c.len_utf16();
    }
    offsets.push(pos);
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let boundary =
            i == 0 || !(is_word(chars[i - 1]) || matches!(chars[i - 1], '/' | '@' | '#'));
        if !boundary {
            i += 1;
            continue;
        }
        let word_end = |from: usize| {
            (from..chars.len())
                .find(|&j| !is_word(chars[j]))
                .unwrap_or(chars.len())
        };
        let (kind, end) = match chars[i] {
            '/' => {
                let name_end = word_end(i + 1);
                let name_ok = name_end > i + 1
                    && name_end - i - 1 <= 32
                    && chars[i + 1..name_end].iter().all(char::is_ascii);
                let end = if name_ok && chars.get(name_end) == Some(&'@') {
                    let bot_end = word_end(name_end + 1);
                    if bot_end - name_end > 3 {
                        bot_end
                    } else {
                        name_end
                    }
                } else {
                    name_end
                };
                (name_ok.then_some("bot_command"), end)
            }
            '@' => {
                let end = word_end(i + 1);
                ((5..=32).contains(&(end - i - 1)).then_some("mention"), end)
            }
            '#' => {
                let end = word_end(i + 1);
                let has_letter = chars[i + 1..end].iter().any(|c| !c.is_ascii_digit());
                ((end > i + 1 && has_letter).then_some("hashtag"), end)
            }
            'h' | 'H' => {
                let rest: String = chars[i..chars.len().min(i + 8)]
                    .iter()
                    .collect::<String>()
                    .to_ascii_lowercase();
                let scheme = if rest.starts_with("https://") {
                    8
                } else if rest.starts_with("http://") {
                    7
                } else {
                    0
                };
                if scheme == 0 {
                    (None, i + 1)
                } else {
                    let mut end = (i + scheme..chars.len())
                        .find(|&j| chars[j].is_whitespace())
                        .unwrap_or(chars.len());
                    while end > i + scheme
                        && matches!(
                            chars[end - 1],
                            '.' | ',' | ';' | ':' | '!' | '?' | ')' | '\'' | '"'
                        )
                    {
                        end -= 1;
                    }
                    ((end > i + scheme).then_some("url"), end)
                }
            }
            _ => (None, i + 1),
        };
        match kind {
            Some(kind) => {
                found.push(MessageEntity::new(
                    kind,
                    offsets[i],
                    offsets[end] - offsets[i],
                ));
                i = end;
            }
            None => i = end.max(i + 1),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(String, usize, usize)> {
        detect(text)
            .into_iter()
            .map(|e| (e.kind, e.offset, e.length))
            .collect()
    }

    #[test]
    fn detects_commands_mentions_hashtags_and_urls() {
        assert_eq!(kinds("/start"), vec![("bot_command".into(), 0, 6)]);
        assert_eq!(
            kinds("/remind@remindbot_sim_bot in 5m"),
            vec![("bot_command".into(), 0, 25)]
        );
        assert_eq!(
            kinds("see https://example.com/a?b=1."),
            vec![("url".into(), 4, 25)]
        );
        assert_eq!(
            kinds("hi @someone #todo"),
            vec![("mention".into(), 3, 8), ("hashtag".into(), 12, 5)]
        );
        assert_eq!(kinds("a/b x@yy #1"), vec![]);
    }

    #[test]
    fn offsets_are_utf16() {
        assert_eq!(kinds("😀 /help"), vec![("bot_command".into(), 3, 5)]);
    }

    #[test]
    fn finalize_trims_and_shifts_entities() {
        let (text, entities) = finalize(
            "  hi there  ",
            vec![
                MessageEntity::new("bold", 2, 2),
                MessageEntity::new("italic", 0, 2),
            ],
        );
        assert_eq!(text, "hi there");
        assert_eq!(entities, vec![MessageEntity::new("bold", 0, 2)]);
    }
}
