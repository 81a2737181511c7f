//! Files: the bot's document messages (sendDocument, a new upload or a `file_id` sent before) and
//! every file the world keeps by `file_id`, its bytes readable by tests. Files users forward are
//! kept too, by name only.

use super::World;
use super::keyboards::Markup;
use super::records::{Sender, StoredMessage};
use crate::types::{Document, Message, MessageEntity};

/// How `file_id`s of files the bot uploads begin.
const UPLOADED_FILE_ID_PREFIX: &str = "BQACAgIAAxkDAAI";
/// How `file_id`s of files users forward begin.
const FORWARDED_FILE_ID_PREFIX: &str = "BQACAgIAAxkBAAI";

/// A file the bot uploaded, as the simulator keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFile {
    /// How the Bot API describes it.
    pub document: Document,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The file of a sendDocument call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Upload {
    /// A file sent before, by its `file_id`.
    Existing(Document),
    /// A new file, uploaded with the request.
    New {
        /// The name it was uploaded with.
        file_name: String,
        /// Its MIME type, given or detected.
        mime_type: String,
        /// Its bytes.
        bytes: Vec<u8>,
    },
}

impl World {
    /// Stores a document from the bot (with its caption) and keeps the file under a fresh
    /// `file_id`; returns the message as the Bot API shows it.
    pub(crate) fn bot_sends_document(
        &mut self,
        chat_id: i64,
        upload: Upload,
        caption: Option<(String, Vec<MessageEntity>)>,
        markup: Markup,
        reply_to: Option<i64>,
    ) -> Message {
        let document = match upload {
            Upload::Existing(document) => document,
            Upload::New {
                file_name,
                mime_type,
                bytes,
            } => self.keep_file(UPLOADED_FILE_ID_PREFIX, file_name, Some((mime_type, bytes))),
        };
        let now = self.clock.unix();
        let (caption, entities) = caption.map_or((None, Vec::new()), |(c, e)| (Some(c), e));
        let message = StoredMessage {
            document: Some(document),
            caption,
            entities,
            markup: markup.inline,
            reply_keyboard: markup.reply,
            reply_to,
            ..self.new_message(chat_id, Sender::Bot, now)
        };
        self.store(chat_id, message)
    }

    /// A file the bot uploaded, by its `file_id`.
    pub(crate) fn file(&self, file_id: &str) -> Option<&StoredFile> {
        self.files.get(file_id)
    }

    /// Keeps a file a user forwards, known by its name only (no type, size or bytes), and returns
    /// how the Bot API describes it.
    pub(super) fn keep_forwarded_file(&mut self, file_name: String) -> Document {
        self.keep_file(FORWARDED_FILE_ID_PREFIX, file_name, None)
    }

    /// Keeps a file under fresh ids and returns how the Bot API describes it. `content` is its
    /// MIME type and bytes, when known.
    fn keep_file(
        &mut self,
        file_id_prefix: &str,
        file_name: String,
        content: Option<(String, Vec<u8>)>,
    ) -> Document {
        let n = self.files.len() + 1;
        let (mime_type, file_size, bytes) = match content {
            Some((mime_type, bytes)) => (Some(mime_type), Some(bytes.len() as u64), bytes),
            None => (None, None, Vec::new()),
        };
        let document = Document {
            file_id: format!("{file_id_prefix}{n:08}sim"),
            file_unique_id: format!("AgAD{n:06}"),
            file_name: Some(file_name),
            mime_type,
            file_size,
        };
        self.files.insert(
            document.file_id.clone(),
            StoredFile {
                document: document.clone(),
                bytes,
            },
        );
        document
    }
}
