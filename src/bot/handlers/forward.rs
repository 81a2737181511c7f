//! Remind about a forwarded message. In a private chat a forward (a text, a caption, or media,
//! shown by a placeholder) opens "when?" carrying its quote; the answer ("in 2 hours", "завтра в
//! 9", "ertaga 9 da") makes a task whose reminder quotes the message and replies to it.
//!
//! A forward with a comment: Telegram sends the comment as a message of its own just before the
//! forward. When that comment is only a time, it and the forwards right behind it become quoted
//! tasks at that time, without a question. The chat's updates are handled one at a time in the
//! order they arrived, so while the comment is handled the forward, if it came, is the chat's next
//! update in the inbox. A comment with nothing behind it yet waits up to [`FORWARD_WITHIN`] after
//! it arrived (its update is handled again later, holding the chat's next updates back, which
//! keeps their order); then it is answered as any time without a text is. Whether a forward
//! belongs to the comment is read from Telegram's dates of the two messages, not from when the
//! bot got to them, so a backlog changes nothing.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Deserialize as _;
use teloxide::types::{Message, Update, UpdateKind};

use super::context::{Ctx, Turn, begin};
use super::quote::{self, time_of};
use super::replies::due_problem;
use super::{admitted, create, task_extras, task_message, zone};
use crate::bot::BotError;
use crate::bot::render;
use crate::callback::Question;
use crate::domain::due::parse_due;
use crate::domain::ids::ChatId;
use crate::store::conversation::{self, Pending};
use crate::store::inbox;
use crate::store::quotes::{MAX_QUOTE_CHARS, Quote, preview};

/// How closely a forward follows the time said alone before it, by Telegram's dates (and how long
/// after it arrived such a time waits for its forward).
pub const FORWARD_WITHIN: Duration = Duration::from_secs(3);

/// The longest time phrase kept while it waits for its forward, in characters.
const MAX_PHRASE_CHARS: usize = 1000;

/// Whether `msg` is a message a person forwarded into their private chat with the bot.
pub(crate) fn is_forward(msg: Message) -> bool {
    msg.chat.is_private()
        && msg.forward_origin().is_some()
        && msg.from.as_ref().is_some_and(|user| !user.is_bot)
}

/// A forwarded message ([`is_forward`]): a quoted task at the time said just before it, or
/// "when?" about it.
#[tracing::instrument(skip_all, fields(chat_id = msg.chat.id.0))]
pub(crate) async fn on_forward(ctx: Arc<Ctx>, msg: Message) -> Result<(), BotError> {
    let Some(user) = msg.from.as_ref() else {
        return Ok(());
    };
    if !admitted(&ctx, ChatId(msg.chat.id.0), user).await? {
        return Ok(());
    }
    let turn = begin(&ctx, &msg.chat, user).await?;
    let tr = turn.tr;
    let Some(zone) = turn.zone() else {
        let ask = render::notice(None, &[tr.t("forward-needs-zone"), tr.t("tz-ask")])?;
        return zone::ask(&ctx, &turn, ask, None).await;
    };
    let text: String = quote::quoted_text(tr, &msg)
        .chars()
        .take(MAX_QUOTE_CHARS)
        .collect();
    let message_id = i64::from(msg.id.0);
    let open = conversation::pending(&mut *ctx.db().await, turn.chat_id, turn.user_id).await?;
    if let Some(Pending::TimeForForward { phrase, said_at }) = open
        && follows(said_at, msg.date)
        && let Some(Ok(time)) = time_of(&phrase, tr.lang(), Utc::now(), zone)
    {
        let quote = Quote {
            text,
            message_id: Some(message_id),
        };
        quote::create_quoted(&ctx, &turn, zone, time, quote).await?;
        // Creating the task closed it: the next forwards of the same batch take the time too.
        let again = Pending::TimeForForward { phrase, said_at };
        conversation::ask(
            &mut *ctx.db().await,
            ctx.queue(),
            turn.chat_id,
            turn.user_id,
            &again,
        )
        .await?;
        return Ok(());
    }
    ask_when(&ctx, &turn, "ask-quote-when", text, message_id).await
}

/// Asks when to remind of the forwarded message `message_id` that says `quote` (the question
/// `question_key`), with a Cancel button.
async fn ask_when(
    ctx: &Ctx,
    turn: &Turn,
    question_key: &str,
    quote: String,
    message_id: i64,
) -> Result<(), BotError> {
    let subject = preview(&quote);
    let pending = Pending::QuoteTime { quote, message_id };
    let text = ctx
        .ask(turn, &pending, question_key, &subject, "quote-example")
        .await?;
    ctx.send_question(turn, text, Question::QuoteTime, Vec::new())
        .await
}

/// The answer to "when?" about a forwarded message: a time makes the quoted task; a whole task
/// of its own (a text and a time) is saved as one and the question asked again; anything else
/// is explained, and the question stays open.
pub(super) async fn answer(
    ctx: &Ctx,
    turn: &Turn,
    quote: String,
    message_id: i64,
    answer: &str,
) -> Result<(), BotError> {
    let Some(zone) = turn.zone() else {
        return task_message::from_text(ctx, turn, answer).await;
    };
    let now = Utc::now();
    let lang = turn.tr.lang();
    match time_of(answer, lang, now, zone) {
        Some(Ok(time)) => {
            let quote = Quote {
                text: quote,
                message_id: Some(message_id),
            };
            return quote::create_quoted(ctx, turn, zone, time, quote).await;
        }
        Some(Err(error)) => return due_problem(ctx, turn, zone, &error).await,
        None => {}
    }
    let Some((phrase, extras)) = task_extras::nag_suffix(ctx, turn, answer).await? else {
        return Ok(());
    };
    match parse_due(&phrase, lang, now, zone) {
        Ok(own) => {
            create::create(ctx, turn, zone, own, extras).await?;
            ask_when(ctx, turn, "ask-quote-when-still", quote, message_id).await
        }
        Err(error) => due_problem(ctx, turn, zone, &error).await,
    }
}

/// A private message that is only a time, with no question open: when a forward from the same
/// user follows it within [`FORWARD_WITHIN`], it waits for that forward (nothing is said) and
/// returns true; while nothing follows yet and it arrived less than that ago, it defers the
/// update and returns true; otherwise false, and the caller answers it as usual.
pub(super) async fn time_alone(
    ctx: &Ctx,
    turn: &Turn,
    msg: &Message,
    text: &str,
) -> Result<bool, BotError> {
    let (Some(zone), Some(place)) = (turn.zone(), ctx.inbox_place()) else {
        return Ok(false);
    };
    if !turn.is_private() || text.chars().count() > MAX_PHRASE_CHARS {
        return Ok(false);
    }
    if !matches!(time_of(text, turn.tr.lang(), Utc::now(), zone), Some(Ok(_))) {
        return Ok(false);
    }
    let next = inbox::next_in_chat(&mut *ctx.db().await, turn.chat_id, place.id).await?;
    match next {
        Some(raw) if forward_of(&raw, msg) => {
            let waiting = Pending::TimeForForward {
                phrase: text.to_owned(),
                said_at: msg.date,
            };
            conversation::ask(
                &mut *ctx.db().await,
                ctx.queue(),
                turn.chat_id,
                turn.user_id,
                &waiting,
            )
            .await?;
            Ok(true)
        }
        Some(_) => Ok(false),
        None => {
            let waited = (Utc::now() - place.received_at)
                .to_std()
                .unwrap_or_default();
            match FORWARD_WITHIN.checked_sub(waited) {
                Some(left) if !left.is_zero() => {
                    ctx.defer(left);
                    Ok(true)
                }
                _ => Ok(false),
            }
        }
    }
}

/// Whether the update `raw` is a forward by the author of `said`, sent within [`FORWARD_WITHIN`]
/// after it.
fn forward_of(raw: &serde_json::Value, said: &Message) -> bool {
    let Ok(update) = Update::deserialize(raw) else {
        return false;
    };
    let UpdateKind::Message(next) = update.kind else {
        return false;
    };
    let same_author = match (&next.from, &said.from) {
        (Some(a), Some(b)) => a.id == b.id,
        _ => false,
    };
    same_author && next.forward_origin().is_some() && follows(said.date, next.date)
}

/// Whether a message sent at `forwarded` (Telegram's date) follows one sent at `said` closely
/// enough to be its forward.
fn follows(said: DateTime<Utc>, forwarded: DateTime<Utc>) -> bool {
    let gap = forwarded - said;
    gap >= chrono::TimeDelta::zero()
        && gap <= chrono::TimeDelta::from_std(FORWARD_WITHIN).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn message(extra: serde_json::Value) -> serde_json::Value {
        let mut json = serde_json::json!({
            "message_id": 8,
            "date": 1_700_000_002,
            "chat": {"id": 5, "type": "private", "first_name": "Ann"},
            "from": {"id": 5, "is_bot": false, "first_name": "Ann"},
        });
        for (key, value) in extra.as_object().unwrap() {
            json[key] = value.clone();
        }
        json
    }

    fn said_at(date: i64) -> Message {
        serde_json::from_value(message(
            serde_json::json!({"message_id": 7, "date": date, "text": "in 2 hours"}),
        ))
        .unwrap()
    }

    #[test]
    fn a_forward_right_behind_a_time_belongs_to_it() {
        let origin = serde_json::json!({"type": "hidden_user", "sender_user_name": "Bob",
                                        "date": 1_600_000_000});
        let forward = serde_json::json!({"update_id": 2, "message":
            message(serde_json::json!({"text": "see you at 5", "forward_origin": origin}))});
        assert!(forward_of(&forward, &said_at(1_700_000_000)));
        assert!(forward_of(&forward, &said_at(1_700_000_002)));
        assert!(!forward_of(&forward, &said_at(1_699_999_990)), "too late");
        assert!(!forward_of(&forward, &said_at(1_700_000_010)), "before it");
        let own = serde_json::json!({"update_id": 2, "message":
            message(serde_json::json!({"text": "see you at 5"}))});
        assert!(!forward_of(&own, &said_at(1_700_000_000)), "not a forward");
        let mut other = forward.clone();
        other["message"]["from"]["id"] = serde_json::json!(6);
        assert!(!forward_of(&other, &said_at(1_700_000_000)), "someone else");
        assert!(!forward_of(
            &serde_json::json!({"update_id": 3}),
            &said_at(0)
        ));
    }

    #[test]
    fn follows_within_the_window_only() {
        let at = |s| Utc.timestamp_opt(s, 0).unwrap();
        assert!(follows(at(100), at(100)));
        assert!(follows(at(100), at(103)));
        assert!(!follows(at(100), at(104)));
        assert!(!follows(at(100), at(99)));
    }

    #[test]
    fn only_a_right_time_waits_for_a_forward() {
        let zone = chrono_tz::Asia::Tashkent;
        let now = Utc::now();
        assert!(matches!(
            time_of("in 2 hours", crate::domain::lang::Lang::En, now, zone),
            Some(Ok(quote::TimeOnly { .. }))
        ));
        assert!(
            time_of(
                "call mom in 2 hours",
                crate::domain::lang::Lang::En,
                now,
                zone
            )
            .is_none()
        );
        assert_eq!(
            time_of("buy milk", crate::domain::lang::Lang::En, now, zone),
            None
        );
        for wrong in ["31.02 10:00", "25:61"] {
            assert!(
                !matches!(
                    time_of(wrong, crate::domain::lang::Lang::En, now, zone),
                    Some(Ok(_))
                ),
                "{wrong}"
            );
        }
    }
}
