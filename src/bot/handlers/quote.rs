//! Remind about a message: in a private chat, a reply to any message with only a time ("in 2
//! hours", "через 2 часа", "2 soatdan keyin", "until done" allowed) makes a task whose reminder
//! quotes that message (its text, its caption, or a placeholder for media without text) and
//! replies to it. The task's text is the quote's preview, which /list shows. Media without text
//! sent to the bot (a photo, a file) gets the hint to reply to it with a time; a forwarded
//! message of any kind is [`super::forward`]'s.

use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use chrono_tz::Tz;
use teloxide::types::Message;

use super::context::{Ctx, Turn, begin, user_id};
use super::create;
use super::task_extras::TaskExtras;
use crate::bot::BotError;
use crate::bot::limits::RateVerdict;
use crate::bot::render::{self, Reply};
use crate::domain::due::{DueError, ParsedDue, parse_due};
use crate::domain::lang::Lang;
use crate::i18n::{Arg, Tr};
use crate::store::quotes::Quote;

/// Stands in for the task text while the due-date parser reads a phrase that has none.
const STAND_IN: &str = "📌";

/// A reply to a message with only a time: makes the task that reminds of that message and
/// returns true; false when the message is something else (no reply, a group, a phrase with a
/// text of its own or without a time, the answer to the bot's open question, no zone yet), which
/// the caller then handles as usual.
pub(super) async fn from_reply(
    ctx: &Ctx,
    turn: &Turn,
    msg: &Message,
    text: &str,
    question_open: bool,
) -> Result<bool, BotError> {
    let (Some(replied), Some(zone)) = (msg.reply_to_message(), turn.zone()) else {
        return Ok(false);
    };
    let to_bot = replied
        .from
        .as_ref()
        .is_some_and(|author| author.id == ctx.shared().bot_id);
    if !turn.is_private() || (to_bot && question_open) {
        return Ok(false);
    }
    let Some(Ok(time)) = time_of(text, turn.tr.lang(), Utc::now(), zone) else {
        return Ok(false);
    };
    let quote = Quote {
        text: quoted_text(turn.tr, replied),
        message_id: Some(i64::from(replied.id.0)),
    };
    create_quoted(ctx, turn, zone, time, quote).await?;
    Ok(true)
}

/// The time a phrase that is only a time gives ("in 2 hours", "завтра в 9", "until done"
/// allowed), and how often to nag then.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TimeOnly {
    /// The due date, read with a stand-in for the text.
    pub due: ParsedDue,
    /// Remind again this often until done.
    pub nag: Option<TimeDelta>,
}

/// Reads `phrase` as a time with no text of its own: `None` when it has a text, no time, or a
/// nag interval out of bounds (the usual path explains those); `Some(Err)` when the time itself
/// is wrong (in the past, an impossible date).
pub(super) fn time_of(
    phrase: &str,
    lang: Lang,
    now: DateTime<Utc>,
    zone: Tz,
) -> Option<Result<TimeOnly, DueError>> {
    let (phrase, nag) = match crate::bot::nag_phrase::find(phrase) {
        Ok(Some(found)) => (found.rest, Some(found.every)),
        Ok(None) => (phrase.to_owned(), None),
        Err(_) => return None,
    };
    if parse_due(&phrase, lang, now, zone) != Err(DueError::EmptyText) {
        return None;
    }
    match parse_due(&format!("{phrase} {STAND_IN}"), lang, now, zone) {
        Ok(due) if due.text == STAND_IN => Some(Ok(TimeOnly { due, nag })),
        Ok(_) => None,
        Err(error) => Some(Err(error)),
    }
}

/// Creates the task that reminds of `quote` at `time`: its text is the quote's preview.
pub(super) async fn create_quoted(
    ctx: &Ctx,
    turn: &Turn,
    zone: Tz,
    time: TimeOnly,
    quote: Quote,
) -> Result<(), BotError> {
    let text = crate::store::quotes::preview(&quote.text);
    let due = ParsedDue {
        text: text.clone(),
        second: time
            .due
            .second
            .map(|second| Box::new(ParsedDue { text, ..*second })),
        ..time.due
    };
    let extras = TaskExtras {
        nag: time.nag,
        quote: Some(quote),
    };
    create::create(ctx, turn, zone, due, extras).await
}

/// Whether `msg` is a photo, a file, a voice message or other media without text from a person
/// in a private chat: the bot says how to be reminded of it (forwarded media is taken before
/// this, as every forward is: see [`super::forward`]).
pub(crate) fn is_media(msg: Message) -> bool {
    msg.chat.is_private()
        && msg.text().is_none()
        && msg.from.as_ref().is_some_and(|user| !user.is_bot)
        && matches!(
            media_kind(&msg),
            "photo"
                | "video"
                | "document"
                | "voice"
                | "audio"
                | "sticker"
                | "animation"
                | "video_note"
        )
}

/// Media without text in a private chat ([`is_media`]): to be reminded of it, reply to it with a
/// time.
#[tracing::instrument(skip_all, fields(chat_id = msg.chat.id.0))]
pub(crate) async fn on_media(ctx: Arc<Ctx>, msg: Message) -> Result<(), BotError> {
    let Some(user) = msg.from.as_ref() else {
        return Ok(());
    };
    if ctx.check_rate(user_id(user)).await? != RateVerdict::Allow {
        return Ok(());
    }
    let turn = begin(&ctx, &msg.chat, user).await?;
    let tr = turn.tr;
    let text = render::question(tr, &tr.t("quote-hint"), None, &tr.t("quote-example"))?;
    ctx.send(turn.chat_id, Reply::text(text)).await
}

/// What a message says, for a quote: its text or caption, else a placeholder naming its kind.
pub(crate) fn quoted_text(tr: Tr, message: &Message) -> String {
    if let Some(text) = message.text().or_else(|| message.caption())
        && !text.chars().all(crate::domain::fold::is_space)
    {
        return text.to_owned();
    }
    tr.t_with("quote-media", &[("kind", Arg::Text(media_kind(message)))])
}

/// The kind of a message without text, as `quote-media` selects it.
fn media_kind(message: &Message) -> &'static str {
    if message.photo().is_some() {
        "photo"
    } else if message.video().is_some() {
        "video"
    } else if message.document().is_some() {
        "document"
    } else if message.voice().is_some() {
        "voice"
    } else if message.audio().is_some() {
        "audio"
    } else if message.sticker().is_some() {
        "sticker"
    } else if message.animation().is_some() {
        "animation"
    } else if message.video_note().is_some() {
        "video_note"
    } else if message.location().is_some() {
        "location"
    } else if message.contact().is_some() {
        "contact"
    } else if message.poll().is_some() {
        "poll"
    } else {
        "other"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(extra: serde_json::Value) -> Message {
        let mut json = serde_json::json!({
            "message_id": 7,
            "date": 1_700_000_000,
            "chat": {"id": 5, "type": "private", "first_name": "Ann"},
            "from": {"id": 5, "is_bot": false, "first_name": "Ann"},
        });
        for (key, value) in extra.as_object().unwrap() {
            json[key] = value.clone();
        }
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn text_then_caption_then_a_placeholder() {
        let tr = Tr::new(Lang::En);
        let text = message(serde_json::json!({"text": "buy <milk>"}));
        assert_eq!(quoted_text(tr, &text), "buy <milk>");
        let photo =
            serde_json::json!([{"file_id": "a", "file_unique_id": "b", "width": 1, "height": 1}]);
        let captioned = message(serde_json::json!({"photo": photo, "caption": "the receipt"}));
        assert_eq!(quoted_text(tr, &captioned), "the receipt");
        let bare = message(serde_json::json!({"photo": photo}));
        assert_eq!(
            quoted_text(tr, &bare),
            tr.t_with("quote-media", &[("kind", Arg::Text("photo"))])
        );
        assert_ne!(quoted_text(tr, &bare), "quote-media");
        let forwarded = message(serde_json::json!({
            "text": "see you at 5",
            "forward_origin": {"type": "hidden_user", "sender_user_name": "Bob", "date": 1_700_000_000},
        }));
        assert_eq!(quoted_text(tr, &forwarded), "see you at 5");
        assert!(is_media(bare.clone()) && is_media(captioned));
        assert!(!is_media(text) && !is_media(forwarded));
        let location =
            message(serde_json::json!({"location": {"latitude": 41.3, "longitude": 69.2}}));
        assert!(!is_media(location), "locations are the zone's");
    }

    #[test]
    fn the_stand_in_is_read_as_text() {
        let zone = chrono_tz::Asia::Tashkent;
        for (phrase, lang) in [
            ("in 2 hours", Lang::En),
            ("через 2 часа", Lang::Ru),
            ("2 soatdan keyin", Lang::Uz),
        ] {
            let now = Utc::now();
            assert_eq!(
                parse_due(phrase, lang, now, zone),
                Err(DueError::EmptyText),
                "{phrase}"
            );
            let parsed = parse_due(&format!("{phrase} {STAND_IN}"), lang, now, zone).unwrap();
            assert_eq!(parsed.text, STAND_IN, "{phrase}");
            assert_eq!((parsed.due - now).num_minutes(), 120, "{phrase}");
        }
    }
}
