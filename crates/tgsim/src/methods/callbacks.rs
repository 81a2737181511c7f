//! answerCallbackQuery: the bot answers a button tap, once and within the answer timeout.

use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::world::World;

/// Longest callback answer text, in characters.
const MAX_ANSWER_TEXT: usize = 200;

/// answerCallbackQuery: once per query, within the answer timeout.
pub(super) fn answer_callback_query(world: &mut World, params: &Params) -> Result<bool, ApiError> {
    let id = params.str("callback_query_id").unwrap_or_default();
    let text = params.str("text").filter(|t| !t.is_empty());
    if text
        .as_ref()
        .is_some_and(|t| t.chars().count() > MAX_ANSWER_TEXT)
    {
        return Err(ApiError::bad_request(descriptions::ANSWER_TEXT_TOO_LONG));
    }
    world.answer_callback(&id, text, params.flag("show_alert"), params.str("url"))?;
    Ok(true)
}
