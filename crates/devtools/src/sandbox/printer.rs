//! Turns a chat's transcript into terminal lines: each bot message once when it arrives and again
//! when the bot edits it, every line prefixed (`bot> `) so that scripts can match them, and its
//! buttons numbered on one line: `bot> [1] ✅ Done  [2] 10 min  (#7)`.

use std::collections::HashMap;

use tgsim::{ButtonView, ReplyKeyboardView, TranscriptEntry};

/// What was last printed of each message, per chat.
#[derive(Debug, Default)]
pub struct Printer {
    shown: HashMap<(i64, i64), Shown>,
}

#[derive(Debug, PartialEq, Eq)]
struct Shown {
    text: Option<String>,
    buttons: Vec<Vec<ButtonView>>,
}

impl Printer {
    /// Lines for the bot's messages in `transcript` (of `chat_id`) that are new or changed since
    /// the last call, each starting with `prefix`.
    pub fn update(
        &mut self,
        chat_id: i64,
        prefix: &str,
        transcript: &[TranscriptEntry],
    ) -> Vec<String> {
        let mut lines = Vec::new();
        for entry in transcript
            .iter()
            .filter(|e| e.from_bot && e.service.is_none())
        {
            let now = Shown {
                text: entry.text.clone(),
                buttons: entry.buttons.clone(),
            };
            let key = (chat_id, entry.message_id);
            let edited = match self.shown.get(&key) {
                Some(before) if *before == now => continue,
                Some(_) => true,
                None => false,
            };
            lines.extend(message_lines(prefix, entry, edited));
            self.shown.insert(key, now);
        }
        lines
    }
}

/// The buttons of a message in the order they are numbered.
pub fn numbered(entry: &TranscriptEntry) -> Vec<&ButtonView> {
    entry.buttons.iter().flatten().collect()
}

fn message_lines(prefix: &str, entry: &TranscriptEntry, edited: bool) -> Vec<String> {
    let mut lines: Vec<String> = entry
        .document
        .iter()
        .map(|d| {
            format!(
                "{prefix}📎 {} ({}, {} bytes)",
                d.file_name.as_deref().unwrap_or("file"),
                d.mime_type.as_deref().unwrap_or("?"),
                d.file_size.unwrap_or(0)
            )
        })
        .collect();
    let text = entry
        .text
        .as_deref()
        .or(entry.caption.as_deref())
        .unwrap_or_default();
    lines.extend(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{prefix}{l}")),
    );
    if let Some(ReplyKeyboardView::Show { rows }) = &entry.reply_keyboard {
        let labels: Vec<&str> = rows.iter().flatten().map(|b| b.text.as_str()).collect();
        lines.push(format!("{prefix}⌨ {}", labels.join("  ")));
    }
    if lines.is_empty() {
        lines.push(prefix.trim_end().to_owned());
    }
    if edited {
        lines[0] = format!(
            "{prefix}(edited #{}) {}",
            entry.message_id,
            &lines[0][prefix.len()..]
        );
    }
    let buttons = numbered(entry);
    if !buttons.is_empty() {
        let labels: Vec<String> = buttons
            .iter()
            .enumerate()
            .map(|(i, b)| match (&b.url, &b.web_app) {
                (Some(url), _) => format!("[{}] {} <{url}>", i + 1, b.text),
                (None, Some(_)) => format!("[{}] {} <Mini App: /app>", i + 1, b.text),
                (None, None) => format!("[{}] {}", i + 1, b.text),
            })
            .collect();
        lines.push(format!(
            "{prefix}{}  (#{})",
            labels.join("  "),
            entry.message_id
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn button(text: &str) -> ButtonView {
        ButtonView {
            text: text.to_owned(),
            callback_data: Some(text.to_lowercase()),
            url: None,
            web_app: None,
        }
    }

    fn entry(
        id: i64,
        from_bot: bool,
        text: &str,
        buttons: Vec<Vec<ButtonView>>,
    ) -> TranscriptEntry {
        TranscriptEntry {
            message_id: id,
            date: 0,
            from_bot,
            user_id: (!from_bot).then_some(1),
            text: Some(text.to_owned()),
            entities: Vec::new(),
            buttons,
            edited: false,
            reply_to: None,
            service: None,
            document: None,
            caption: None,
            location: None,
            reply_keyboard: None,
            forward_origin: None,
        }
    }

    #[test]
    fn new_messages_once_edits_again_user_messages_never() {
        let mut printer = Printer::default();
        let mut transcript = vec![
            entry(1, false, "/start", vec![]),
            entry(
                2,
                true,
                "Reminder\n\nbuy milk",
                vec![
                    vec![button("Done")],
                    vec![button("10 min"), button("1 hour")],
                ],
            ),
        ];
        assert_eq!(
            printer.update(5, "bot> ", &transcript),
            [
                "bot> Reminder",
                "bot> buy milk",
                "bot> [1] Done  [2] 10 min  [3] 1 hour  (#2)"
            ]
        );
        assert!(printer.update(5, "bot> ", &transcript).is_empty());
        transcript[1] = entry(2, true, "Done: buy milk", vec![]);
        assert_eq!(
            printer.update(5, "bot> ", &transcript),
            ["bot> (edited #2) Done: buy milk"]
        );
        assert_eq!(
            printer.update(6, "bot[2]> ", &transcript[1..]),
            ["bot[2]> Done: buy milk"],
            "chats are apart"
        );
    }
}
