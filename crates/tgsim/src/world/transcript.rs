//! A chat as its user sees it now: every message with edits applied and deleted ones gone, its
//! buttons, keyboard, file, location or forward origin, and service messages in words. What tests
//! read to check what the bot said.

use serde::{Deserialize, Serialize};

use super::World;
use super::keyboards::{ButtonView, ReplyKeyboardView, button_rows};
use super::records::Sender;
use crate::error::SimError;
use crate::types::{Document, Location, MessageEntity, MessageOrigin};

/// One message of a chat as the user sees it now: edits applied, deleted messages absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranscriptEntry {
    /// Message id.
    pub message_id: i64,
    /// Unix time it was sent.
    pub date: i64,
    /// Sent by the bot (else by `user_id`).
    pub from_bot: bool,
    /// The sending user, for user messages.
    pub user_id: Option<i64>,
    /// Text after entity parsing (None for service messages).
    pub text: Option<String>,
    /// Entities of the text.
    pub entities: Vec<MessageEntity>,
    /// Inline keyboard rows.
    pub buttons: Vec<Vec<ButtonView>>,
    /// Edited at least once.
    pub edited: bool,
    /// The message it replies to.
    pub reply_to: Option<i64>,
    /// What a service message says, e.g. "migrated to supergroup -1001234".
    pub service: Option<String>,
    /// The file of a document message (its bytes: `SimHandle::file`, or `GET /__sim/files/{file_id}`).
    pub document: Option<Document>,
    /// The caption of a document, after entity parsing (its entities are in `entities`).
    pub caption: Option<String>,
    /// A shared location.
    pub location: Option<Location>,
    /// The reply keyboard the message came with.
    pub reply_keyboard: Option<ReplyKeyboardView>,
    /// Where a forwarded message came from.
    pub forward_origin: Option<MessageOrigin>,
}

impl World {
    /// The chat as its user sees it.
    pub(crate) fn transcript(&self, chat_id: i64) -> Result<Vec<TranscriptEntry>, SimError> {
        let record = self.chat(chat_id)?;
        Ok(record
            .messages
            .values()
            .map(|m| TranscriptEntry {
                message_id: m.id,
                date: m.date,
                from_bot: m.sender == Sender::Bot,
                user_id: match m.sender {
                    Sender::User(id) => Some(id),
                    Sender::Bot => None,
                },
                text: m.text.clone(),
                entities: m.entities.clone(),
                buttons: button_rows(m.markup.as_ref()),
                edited: m.edit_date.is_some(),
                reply_to: m.reply_to,
                service: m
                    .migrate_to
                    .map(|id| format!("migrated to supergroup {id}"))
                    .or_else(|| m.migrate_from.map(|id| format!("migrated from group {id}"))),
                document: m.document.clone(),
                caption: m.caption.clone(),
                location: m.location,
                reply_keyboard: m.reply_keyboard.clone(),
                forward_origin: m.forward_origin.clone(),
            })
            .collect())
    }
}
