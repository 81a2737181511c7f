//! Sending a file of `/export`: built now from the chat's tasks ([`crate::export::file`]), then
//! sent as any message is.

use super::worker::{Egress, database_retry};
use crate::export::file::{self, ExportJob};
use crate::store::outbox::OutgoingMessage;
use pgqueue::{ClaimedJob, Outcome};

impl Egress {
    /// Builds the file of `export` and sends it (or the message that replaces it).
    pub(super) async fn export(&self, job: &ClaimedJob, export: ExportJob) -> Outcome {
        let max_bytes = self.config.max_document_bytes;
        match file::build(self.queue.pool(), export, max_bytes).await {
            Ok(Some(op)) => {
                let message = OutgoingMessage {
                    chat_id: export.chat_id,
                    op,
                };
                self.message(job, &message).await
            }
            Ok(None) => Outcome::Done,
            Err(error) => database_retry(format!("building an export's file: {error}")),
        }
    }
}
