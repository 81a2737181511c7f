//! Users forwarding messages to the bot: a text, or a file with an optional caption, with the
//! `forward_origin` Telegram gives it (a user, a hidden user, a chat or a channel, and when the
//! original was sent). Origins Telegram could not produce are refused.

use serde::{Deserialize, Serialize};

use super::World;
use super::records::{Sender, StoredMessage};
use crate::error::SimError;
use crate::text::{self, MAX_CAPTION_LEN};
use crate::types::{ChatType, Message, MessageOrigin};

/// A message a user forwards ([`crate::SimHandle::user_forwards`], `POST
/// /__sim/users/{id}/forwards`): where it came from, and a text, or a file (by its name) with an
/// optional caption.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forward {
    /// Where the original came from.
    pub origin: MessageOrigin,
    /// Its text.
    #[serde(default)]
    pub text: Option<String>,
    /// Its file's name, for a forwarded file.
    #[serde(default)]
    pub file_name: Option<String>,
    /// The file's caption.
    #[serde(default)]
    pub caption: Option<String>,
}

impl Forward {
    /// A forwarded text.
    pub fn text(origin: MessageOrigin, text: &str) -> Self {
        Self {
            origin,
            text: Some(text.to_owned()),
            file_name: None,
            caption: None,
        }
    }

    /// A forwarded file, with an optional caption.
    pub fn file(origin: MessageOrigin, file_name: &str, caption: Option<&str>) -> Self {
        Self {
            origin,
            text: None,
            file_name: Some(file_name.to_owned()),
            caption: caption.map(str::to_owned),
        }
    }
}

/// Whether `origin` is one Telegram could give a forward made at `now`: sent before it, a
/// channel post from a channel, a chat's message from a group or channel.
fn check_origin(origin: &MessageOrigin, now: i64) -> Result<(), SimError> {
    if origin.date() > now {
        return Err(SimError::InvalidState(
            "a forwarded message was sent before it is forwarded".into(),
        ));
    }
    match origin {
        MessageOrigin::Channel { chat, .. } if chat.kind != ChatType::Channel => Err(
            SimError::InvalidState("a channel origin names a channel chat".into()),
        ),
        MessageOrigin::Chat { sender_chat, .. } if sender_chat.kind == ChatType::Private => Err(
            SimError::InvalidState("a chat origin names a group or a channel".into()),
        ),
        _ => Ok(()),
    }
}

impl World {
    /// A user forwards a message into a chat (as the client does, without a comment: a comment
    /// is a message of its own, sent just before); the bot gets a `message` update with
    /// `forward_origin` and the forwarded text, or the file with its caption.
    pub(crate) fn inject_forward(
        &mut self,
        chat_id: i64,
        user_id: i64,
        forward: Forward,
    ) -> Result<Message, SimError> {
        self.check_user_may_write(chat_id, user_id, None)?;
        let now = self.clock.unix();
        check_origin(&forward.origin, now)?;
        let mut message = StoredMessage {
            forward_origin: Some(forward.origin),
            ..self.new_message(chat_id, Sender::User(user_id), now)
        };
        match (forward.text, forward.file_name) {
            (Some(text), None) if forward.caption.is_none() => {
                let (text, entities) = text::finalize(&text, Vec::new());
                if text.is_empty() || text::utf16_len(&text) > text::MAX_TEXT_LEN {
                    return Err(SimError::InvalidState(format!(
                        "a forwarded text has 1-{} characters",
                        text::MAX_TEXT_LEN
                    )));
                }
                message.text = Some(text);
                message.entities = entities;
            }
            (None, Some(file_name)) if !file_name.trim().is_empty() => {
                if let Some(caption) = forward.caption {
                    let (caption, entities) = text::finalize(&caption, Vec::new());
                    if text::utf16_len(&caption) > MAX_CAPTION_LEN {
                        return Err(SimError::InvalidState(format!(
                            "a caption has at most {MAX_CAPTION_LEN} characters"
                        )));
                    }
                    message.entities = entities;
                    message.caption = Some(caption).filter(|c| !c.is_empty());
                }
                message.document = Some(self.keep_forwarded_file(file_name));
            }
            _ => {
                return Err(SimError::InvalidState(
                    "a forward carries a text, or a file_name with an optional caption".into(),
                ));
            }
        }
        Ok(self.user_sends(chat_id, user_id, message))
    }
}
