//! Replies and edits through the egress worker: a message waits for its turn under the shared
//! budget, then is sent (or the message it edits changed). An edit that a newer edit of the same
//! message supersedes is done without a request; an edit Telegram calls pointless (not modified,
//! the message is gone or too old to edit) counts as done.

use teloxide::payloads::{
    EditMessageReplyMarkupSetters, EditMessageTextSetters, SendDocumentSetters, SendMessageSetters,
};
use teloxide::prelude::*;
use teloxide::types::{
    ButtonRequest, ForceReply, InputFile, KeyboardButton, KeyboardMarkup, KeyboardRemove,
    MessageId, ParseMode,
};
use teloxide::{ApiError, RequestError};

use super::after_failure::KindSteps;
use super::classify::classify;
use super::metrics;
use super::pacing::Recipient;
use super::worker::{Egress, database_retry};
use crate::domain::ids;
use crate::store::outbox::{AskedQuestion, MessageOp, OutgoingMessage, ReplyKeyboard};
use crate::store::{StoreError, budget, conversation};
use pgqueue::{ClaimedJob, Outcome, QueueError};

impl Egress {
    /// Sends or applies `message` and says what became of the job.
    pub(super) async fn message(&self, job: &ClaimedJob, message: &OutgoingMessage) -> Outcome {
        if let MessageOp::Edit { message_id, .. } = &message.op {
            match budget::edit_superseded(self.queue.pool(), message.chat_id, *message_id, job.id)
                .await
            {
                Ok(true) => {
                    metrics::edit_coalesced();
                    return Outcome::Done;
                }
                Ok(false) => {}
                Err(error) => return database_retry(format!("reading newer edits: {error}")),
            }
        }
        let to = Recipient::new(message.chat_id, false);
        // Messages of one chat leave in order: their serial key holds the next back meanwhile.
        if let Some(outcome) = self.turn(job, to, false).await {
            return outcome;
        }
        match self.timed(self.request(message)).await {
            Ok(Some(sent)) => self.sent(job, message, sent).await,
            Ok(None) => self.done(job, message).await,
            Err(error) if ignorable_edit(&message.op, &error) => self.done(job, message).await,
            Err(error) => self.after_failure(job, message, to, classify(&error)).await,
        }
    }

    /// The one Bot API request of `message`; a new text message's id.
    async fn request(&self, message: &OutgoingMessage) -> Result<Option<MessageId>, RequestError> {
        let chat = ChatId(message.chat_id.0);
        match &message.op {
            MessageOp::Send {
                text,
                keyboard,
                force_reply,
                asks: _,
            } => {
                let request = self
                    .bot
                    .send_message(chat, text.clone())
                    .parse_mode(ParseMode::Html);
                let sent = match keyboard {
                    Some(keyboard) => request.reply_markup(keyboard.clone()).await?,
                    None if *force_reply => request.reply_markup(ForceReply::new()).await?,
                    None => request.await?,
                };
                metrics::message_sent(metrics::Kind::Reply);
                return Ok(Some(sent.id));
            }
            MessageOp::SendWithReplyKeyboard {
                text,
                reply_keyboard,
            } => {
                let request = self
                    .bot
                    .send_message(chat, text.clone())
                    .parse_mode(ParseMode::Html);
                match reply_keyboard {
                    ReplyKeyboard::RequestLocation { label } => {
                        let button =
                            KeyboardButton::new(label.clone()).request(ButtonRequest::Location);
                        let keyboard = KeyboardMarkup::new([[button]])
                            .resize_keyboard()
                            .one_time_keyboard();
                        request.reply_markup(keyboard).await?
                    }
                    ReplyKeyboard::Remove => request.reply_markup(KeyboardRemove::new()).await?,
                };
                metrics::message_sent(metrics::Kind::Reply);
            }
            MessageOp::SendDocument {
                file_name,
                content,
                caption,
            } => {
                let file =
                    InputFile::memory(content.clone().into_bytes()).file_name(file_name.clone());
                let request = self.bot.send_document(chat, file);
                match caption {
                    Some(caption) => {
                        request
                            .caption(caption.clone())
                            .parse_mode(ParseMode::Html)
                            .await?
                    }
                    None => request.await?,
                };
                metrics::message_sent(metrics::Kind::Reply);
            }
            MessageOp::Edit {
                message_id,
                text: Some(text),
                keyboard,
            } => {
                let request = self
                    .bot
                    .edit_message_text(chat, MessageId(*message_id), text.clone())
                    .parse_mode(ParseMode::Html);
                match keyboard {
                    Some(keyboard) => request.reply_markup(keyboard.clone()).await?,
                    None => request.await?,
                };
                metrics::message_sent(metrics::Kind::Edit);
            }
            MessageOp::Edit {
                message_id,
                text: None,
                keyboard,
            } => {
                let request = self
                    .bot
                    .edit_message_reply_markup(chat, MessageId(*message_id));
                match keyboard {
                    Some(keyboard) => request.reply_markup(keyboard.clone()).await?,
                    None => request.await?,
                };
                metrics::message_sent(metrics::Kind::Edit);
            }
        }
        Ok(None)
    }

    /// A new text message went out as `sent`: one asking a question has its id written to the
    /// question's row, with the job's completion, in one transaction (see
    /// [`conversation::shown`]); should that fail, the job is done all the same (the question
    /// then keeps its buttons, whose taps answer for themselves).
    async fn sent(&self, job: &ClaimedJob, message: &OutgoingMessage, sent: MessageId) -> Outcome {
        let MessageOp::Send {
            asks: Some(asked), ..
        } = &message.op
        else {
            return self.done(job, message).await;
        };
        match self
            .question_shown(job, message.chat_id, *asked, sent)
            .await
        {
            Ok(()) => Outcome::Recorded,
            Err(error) => {
                tracing::warn!(%error, "recording a question's message failed");
                Outcome::Done
            }
        }
    }

    /// Records the question `asked` shown as `sent` and completes `job`, in one transaction.
    async fn question_shown(
        &self,
        job: &ClaimedJob,
        chat_id: ids::ChatId,
        asked: AskedQuestion,
        sent: MessageId,
    ) -> Result<(), StoreError> {
        let mut tx = self.queue.pool().begin().await?;
        conversation::shown(&mut tx, &self.queue, chat_id, asked, i64::from(sent.0)).await?;
        match self.queue.complete(&mut *tx, job).await {
            Ok(()) | Err(QueueError::LeaseLost { .. }) => {}
            Err(error) => return Err(error.into()),
        }
        tx.commit().await?;
        Ok(())
    }

    /// A message that went out (or an edit with nothing left to do): the job is done.
    async fn done(&self, job: &ClaimedJob, message: &OutgoingMessage) -> Outcome {
        if let MessageOp::Edit { message_id, .. } = &message.op
            && let Err(error) =
                budget::edit_sent(self.queue.pool(), message.chat_id, *message_id, job.id).await
        {
            // Only a stale row: a later edit of the message replaces it.
            tracing::warn!(%error, "forgetting a sent edit failed");
        }
        Outcome::Done
    }
}

/// A message counts an unreadable success as done; after a migration it is put in the outbox
/// again for the supergroup, completing this job, in one transaction.
impl KindSteps for OutgoingMessage {
    fn chat_id(&self) -> ids::ChatId {
        self.chat_id
    }

    async fn count_as_sent(&self, egress: &Egress, job: &ClaimedJob) -> Outcome {
        egress.done(job, self).await
    }

    async fn follow_migration(
        &self,
        egress: &Egress,
        job: &ClaimedJob,
        new_chat_id: ids::ChatId,
    ) -> Outcome {
        match egress.resend_to(job, self, new_chat_id).await {
            Ok(()) => Outcome::Recorded,
            Err(error) => {
                database_retry(format!("sending to {new_chat_id} instead failed: {error}"))
            }
        }
    }
}

impl Egress {
    /// Puts `message` in the outbox again for `new_chat_id`, completing `job`, in one
    /// transaction.
    async fn resend_to(
        &self,
        job: &ClaimedJob,
        message: &OutgoingMessage,
        new_chat_id: ids::ChatId,
    ) -> Result<(), crate::store::StoreError> {
        let mut tx = self.queue.pool().begin().await?;
        let moved = OutgoingMessage {
            chat_id: new_chat_id,
            op: message.op.clone(),
        };
        crate::store::outbox::enqueue(&mut tx, &self.queue, &moved).await?;
        self.queue.complete(&mut *tx, job).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Whether an edit's error means there is nothing to do: the text is the same, or the message is
/// gone or can no longer be edited (telegram-bot-api.md §3, "ignorable on edits").
fn ignorable_edit(op: &MessageOp, error: &RequestError) -> bool {
    matches!(op, MessageOp::Edit { .. })
        && matches!(
            error,
            RequestError::Api(
                ApiError::MessageNotModified
                    | ApiError::MessageCantBeEdited
                    | ApiError::MessageToEditNotFound
                    | ApiError::MessageIdInvalid
            )
        )
}
