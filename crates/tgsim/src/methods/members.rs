//! getChatMember: a user's status in a chat, so a bot can tell owners and administrators from
//! ordinary members. Not subject to flood control.

use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::ChatMember;
use crate::world::World;

/// getChatMember.
pub(super) fn get_chat_member(world: &World, params: &Params) -> Result<ChatMember, ApiError> {
    let chat_id = params.chat_id()?;
    let user_id = match params.int("user_id") {
        Ok(Some(id)) => id,
        _ => return Err(ApiError::bad_request(descriptions::USER_ID_INVALID)),
    };
    world.chat_member(chat_id, user_id)
}
