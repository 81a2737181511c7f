//! Every way a send can fail, sorted into the few that the egress worker tells apart
//! ([`SendFailure`]; what it does about each is [`super::after_failure`]). The one place that
//! knows teloxide's error types; see telegram-bot-api.md §3 for the texts and their mapping.

use std::time::Duration;

use teloxide::{ApiError, RequestError};

use crate::domain::ids::ChatId;

/// The longest `retry_after` the bot honours. Telegram has been seen asking for hours (10,072 s);
/// a larger or absurd value (a broken proxy, a typo in a stand-in) is clamped to this and logged,
/// so no arithmetic on it can overflow and no chat is parked for longer. A chat still refused
/// after the clamp simply gets another 429, which costs no attempt.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);

/// What went wrong with a send. What happens next is decided for every kind of outbox job in one
/// place, [`super::after_failure`], which maps each variant (a new one does not compile until it
/// is mapped there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendFailure {
    /// Flood control (429): the chat waits this long (bounded by [`MAX_RETRY_AFTER`]) and the
    /// message is retried then, without using up an attempt.
    Flood {
        /// Telegram's `retry_after`, bounded.
        retry_after: Duration,
        /// The error text.
        error: String,
    },
    /// Telegram or the network failed for now (5xx, connection, timeout): retry with backoff.
    Transient(String),
    /// The recipient cannot be reached (blocked, deactivated, never started, not found, kicked):
    /// fail at once and pause the chat's recurring tasks.
    Unreachable(String),
    /// The group became a supergroup with this id: move the chat and retry.
    Migrated(ChatId),
    /// Our own request was wrong (bad HTML, too long, …): fail, for admins to see.
    Rejected(String),
    /// Telegram answered something teloxide could not read, but not an error: the message most
    /// likely went out, so it counts as sent rather than risk a second copy.
    AcceptedUnreadable(String),
}

/// Sorts a teloxide error.
pub fn classify(error: &RequestError) -> SendFailure {
    match error {
        RequestError::RetryAfter(seconds) => SendFailure::Flood {
            retry_after: bounded_retry_after(u64::from(seconds.seconds())),
            error: redact(&error.to_string()),
        },
        RequestError::MigrateToChatId(chat) => SendFailure::Migrated(ChatId(chat.0)),
        RequestError::Network(_) | RequestError::Io(_) => {
            SendFailure::Transient(redact(&error.to_string()))
        }
        RequestError::InvalidJson { raw, .. } => classify_unreadable(raw),
        RequestError::Api(api) => classify_api(api),
        // `RequestError` is non-exhaustive: an unknown failure is retried, never dropped.
        #[allow(unreachable_patterns)]
        _ => SendFailure::Transient(redact(&error.to_string())),
    }
}

fn classify_api(api: &ApiError) -> SendFailure {
    let text = redact(&api.to_string());
    match api {
        ApiError::BotBlocked
        | ApiError::UserDeactivated
        | ApiError::ChatNotFound
        | ApiError::UserNotFound
        | ApiError::GroupDeactivated
        | ApiError::BotKicked
        | ApiError::BotKickedFromSupergroup
        | ApiError::BotKickedFromChannel
        | ApiError::CantInitiateConversation
        | ApiError::CantTalkWithBots
        | ApiError::NotEnoughRightsToPostMessages => SendFailure::Unreachable(text),
        ApiError::Unknown(description) => classify_description(description),
        _ => SendFailure::Rejected(text),
    }
}

/// An error teloxide did not recognise, by Telegram's description.
fn classify_description(description: &str) -> SendFailure {
    let text = redact(description);
    if let Some(retry_after) = retry_after_in(description) {
        SendFailure::Flood {
            retry_after,
            error: text,
        }
    } else if description.starts_with("Forbidden:") || description.contains("chat not found") {
        SendFailure::Unreachable(text)
    } else if description.starts_with("Too Many Requests") {
        SendFailure::Flood {
            retry_after: Duration::from_secs(1),
            error: text,
        }
    } else if description.starts_with("Bad Request:") {
        SendFailure::Rejected(text)
    } else {
        SendFailure::Transient(text)
    }
}

/// An answer teloxide could not parse. A 429 envelope teloxide could not read (a `retry_after`
/// too large for it) is flood control; any other error envelope (`"ok":false`) or an HTML page (a
/// proxy's 5xx) is a failure to retry; anything else is taken as Telegram having accepted the
/// message.
fn classify_unreadable(raw: &str) -> SendFailure {
    let parsed: Option<serde_json::Value> = serde_json::from_str(raw).ok();
    let field = |name: &str| parsed.as_ref().and_then(|v| v.get(name));
    let ok = field("ok").and_then(serde_json::Value::as_bool);
    let excerpt = redact(&raw.chars().take(200).collect::<String>());
    if ok == Some(false) && field("error_code").and_then(serde_json::Value::as_i64) == Some(429) {
        let from_parameters = field("parameters")
            .and_then(|p| p.get("retry_after"))
            .and_then(serde_json::Value::as_f64)
            .map(|secs| bounded_retry_after(secs.clamp(0.0, u64::MAX as f64) as u64));
        let from_description = field("description")
            .and_then(serde_json::Value::as_str)
            .and_then(retry_after_in);
        return SendFailure::Flood {
            retry_after: from_parameters
                .or(from_description)
                .unwrap_or(Duration::from_secs(1)),
            error: excerpt,
        };
    }
    if ok == Some(false) || raw.trim_start().starts_with('<') {
        SendFailure::Transient(format!("unreadable error answer: {excerpt}"))
    } else {
        SendFailure::AcceptedUnreadable(format!("unreadable answer: {excerpt}"))
    }
}

/// The wait in "… retry after N" (a 429 whose `parameters` are missing), bounded; a number too
/// long to read is as absurd as a huge one and is clamped the same way.
fn retry_after_in(description: &str) -> Option<Duration> {
    let lower = description.to_ascii_lowercase();
    let at = lower.find("retry after ")? + "retry after ".len();
    let digits: String = lower[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    if digits.is_empty() {
        return None;
    }
    Some(bounded_retry_after(digits.parse().unwrap_or(u64::MAX)))
}

/// `secs` as a wait of at most [`MAX_RETRY_AFTER`] and at least a second; a clamped value is
/// logged.
pub fn bounded_retry_after(secs: u64) -> Duration {
    if secs > MAX_RETRY_AFTER.as_secs() {
        tracing::warn!(
            retry_after = secs,
            max = MAX_RETRY_AFTER.as_secs(),
            "Telegram asked for an absurd wait; clamped"
        );
        return MAX_RETRY_AFTER;
    }
    Duration::from_secs(secs.max(1))
}

/// Removes a bot token from a text: reqwest errors quote the request URL, `/bot<token>/Method`.
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("/bot") {
        let (head, tail) = rest.split_at(at + "/bot".len());
        out.push_str(head);
        let end = tail.find(['/', ' ', ')', '"']).unwrap_or(tail.len());
        if tail[..end].contains(':') {
            out.push_str("[redacted]");
        } else {
            out.push_str(&tail[..end]);
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_429_without_parameters_is_read_from_the_description() {
        let error = RequestError::Api(ApiError::Unknown(
            "Too Many Requests: retry after 35".to_owned(),
        ));
        assert!(matches!(
            classify(&error),
            SendFailure::Flood { retry_after, .. } if retry_after == Duration::from_secs(35)
        ));
    }

    #[test]
    fn absurd_waits_are_clamped_wherever_they_are_read() {
        for description in [
            "Too Many Requests: retry after 10000000000000",
            "Too Many Requests: retry after 99999999999999999999999999999999",
        ] {
            let error = RequestError::Api(ApiError::Unknown(description.to_owned()));
            assert!(matches!(
                classify(&error),
                SendFailure::Flood { retry_after, .. } if retry_after == MAX_RETRY_AFTER
            ));
        }
        let huge = r#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 10000000000000","parameters":{"retry_after":10000000000000}}"#;
        assert!(matches!(
            classify_unreadable(huge),
            SendFailure::Flood { retry_after, .. } if retry_after == MAX_RETRY_AFTER
        ));
        let error = RequestError::RetryAfter(teloxide::types::Seconds::from_seconds(u32::MAX));
        assert!(matches!(
            classify(&error),
            SendFailure::Flood { retry_after, .. } if retry_after == MAX_RETRY_AFTER
        ));
    }

    #[test]
    fn recipients_that_cannot_be_reached_are_permanent() {
        for error in [
            RequestError::Api(ApiError::BotBlocked),
            RequestError::Api(ApiError::ChatNotFound),
            RequestError::Api(ApiError::Unknown(
                "Forbidden: bot can't initiate conversation with a user".to_owned(),
            )),
            RequestError::Api(ApiError::Unknown(
                "Forbidden: bot was kicked from the group chat".to_owned(),
            )),
        ] {
            assert!(
                matches!(classify(&error), SendFailure::Unreachable(_)),
                "{error}"
            );
        }
    }

    #[test]
    fn our_own_mistakes_are_rejected() {
        let error = RequestError::Api(ApiError::CantParseEntities("Bad Request: x".to_owned()));
        assert!(matches!(classify(&error), SendFailure::Rejected(_)));
        let error = RequestError::Api(ApiError::MessageIsTooLong);
        assert!(matches!(classify(&error), SendFailure::Rejected(_)));
    }

    #[test]
    fn an_unreadable_success_counts_as_sent_and_an_unreadable_error_is_retried() {
        assert!(matches!(
            classify_unreadable(r#"{"ok":true,"result":{"message_id":"x"}}"#),
            SendFailure::AcceptedUnreadable(_)
        ));
        assert!(matches!(
            classify_unreadable("<html>502 Bad Gateway</html>"),
            SendFailure::Transient(_)
        ));
    }

    #[test]
    fn tokens_are_redacted_from_urls() {
        let text = "error sending request for url (http://h:1/bot123:ABC-def/SendMessage)";
        assert_eq!(
            redact(text),
            "error sending request for url (http://h:1/bot[redacted]/SendMessage)"
        );
        assert_eq!(redact("a /bots b"), "a /bots b");
    }
}
