//! A message that reads as a task, wherever it comes from (a message, `/add`, the answer to a
//! forward's question): created in the chat's zone, or, before the chat has one, kept or saved as
//! [`super::before_zone`] says.

use super::context::{Ctx, Turn};
use super::{before_zone, create};
use crate::bot::BotError;

/// Creates the task `text` describes in the chat's zone; before the chat has a zone, the task
/// waits for it or is saved at once when its time needs none.
pub(super) async fn from_text(ctx: &Ctx, turn: &Turn, text: &str) -> Result<(), BotError> {
    match turn.zone() {
        Some(zone) => create::in_zone(ctx, turn, zone, text).await,
        None => before_zone::task(ctx, turn, text).await,
    }
}
