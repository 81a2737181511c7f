//! Text helpers shared by the way in (the chat's answers) and the way out (reminders, agendas,
//! exported files): shortening, and the plain notice every kind of message may carry.

use askama::Template;

/// A template failed to render (a bug, never user input).
#[derive(Debug, thiserror::Error)]
#[error("template failed: {0}")]
pub struct RenderError(#[from] askama::Error);

#[derive(Template)]
#[template(path = "notice.html")]
struct NoticeHtml<'a> {
    title: Option<&'a str>,
    lines: &'a [String],
}

/// A plain notice (Telegram HTML, escaped): an optional bold title and lines of text.
pub fn notice(title: Option<&str>, lines: &[String]) -> Result<String, RenderError> {
    Ok(NoticeHtml { title, lines }.render()?.trim().to_owned())
}

/// `text` cut to `max` characters, with an ellipsis when cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max.saturating_sub(1)).collect();
    short.push('…');
    short
}
