//! The message a task reminds of (`task_quotes`): a reply with only a time to a message makes a
//! task whose reminder quotes that message (its text, caption, or a placeholder for media) and
//! replies to it.

use sqlx::PgConnection;

use super::StoreError;
use crate::domain::ids::TaskId;

/// The longest quote kept, in characters: Telegram's message length.
pub const MAX_QUOTE_CHARS: usize = 4096;

/// The longest preview of a quote, in characters.
pub const PREVIEW_CHARS: usize = 100;

/// A quote's preview, the text of a task made from it (and what /list shows): its words on one
/// line, cut to [`PREVIEW_CHARS`] with an ellipsis.
pub fn preview(quote: &str) -> String {
    let words: Vec<&str> = quote
        .split(crate::domain::fold::is_space)
        .filter(|word| !word.is_empty())
        .collect();
    let line = words.join(" ");
    if line.chars().count() <= PREVIEW_CHARS {
        return line;
    }
    let mut cut: String = line.chars().take(PREVIEW_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// What a task quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    /// The quoted text (at most [`MAX_QUOTE_CHARS`] characters).
    pub text: String,
    /// The quoted message in the task's chat, which the reminder replies to.
    pub message_id: Option<i64>,
}

/// Keeps `quote` as what task `task_id` reminds of (cut to [`MAX_QUOTE_CHARS`]).
#[tracing::instrument(skip_all, fields(task_id))]
pub async fn save(
    conn: &mut PgConnection,
    task_id: TaskId,
    quote: &Quote,
) -> Result<(), StoreError> {
    let text: String = quote.text.chars().take(MAX_QUOTE_CHARS).collect();
    sqlx::query!(
        "insert into task_quotes (task_id, quote, message_id) values ($1, $2, $3)
         on conflict (task_id) do update set quote = excluded.quote,
             message_id = excluded.message_id",
        task_id.0,
        text,
        quote.message_id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_one_short_line() {
        assert_eq!(preview("  buy\n milk \u{200B} now "), "buy milk now");
        let long = preview(&"word ".repeat(50));
        assert_eq!(long.chars().count(), PREVIEW_CHARS);
        assert!(long.ends_with('…'));
    }
}
