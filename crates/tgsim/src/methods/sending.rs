//! What every send (sendMessage, sendDocument) does besides its content: the message it replies
//! to, flood control (a 429 with `retry_after` when the chat's or the bot's turn has not come),
//! the price of a paid broadcast, and counting what was sent.

use serde_json::Value;

use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::world::World;

/// The reply target of a send, checked: a missing one is an error unless allowed.
pub(super) fn checked_reply_target(
    world: &World,
    chat_id: i64,
    params: &Params,
) -> Result<Option<i64>, ApiError> {
    let reply_to = reply_target(params);
    if let Some(r) = reply_to
        && !world.has_message(chat_id, r)
        && !allows_missing_reply(params)
    {
        return Err(ApiError::bad_request(descriptions::REPLY_NOT_FOUND));
    }
    Ok(reply_to.filter(|r| world.has_message(chat_id, *r)))
}

/// The message a send replies to: `reply_parameters.message_id` or the older `reply_to_message_id`.
fn reply_target(params: &Params) -> Option<i64> {
    params
        .json::<Value>("reply_parameters")
        .ok()
        .flatten()
        .and_then(|r| r.get("message_id").and_then(Value::as_i64))
        .or_else(|| params.int("reply_to_message_id").ok().flatten())
}

/// True when a missing reply target may be ignored.
fn allows_missing_reply(params: &Params) -> bool {
    params.flag("allow_sending_without_reply")
        || params
            .json::<Value>("reply_parameters")
            .ok()
            .flatten()
            .and_then(|r| {
                r.get("allow_sending_without_reply")
                    .and_then(Value::as_bool)
            })
            .unwrap_or(false)
}

/// Flood control for a send to `chat_id`: a 429 when its turn has not come. A paid broadcast
/// (`allow_paid_broadcast=true`) is first priced (see `crate::paid`): refused with a 400 when the
/// bot cannot pay, charged once flood control lets it through.
pub(super) fn admit(world: &mut World, chat_id: i64, params: &Params) -> Result<(), ApiError> {
    let is_group = world.is_group(chat_id);
    let now_ms = world.clock.now_ms();
    let paid = params.flag("allow_paid_broadcast");
    let cost = if paid {
        let free_per_sec = world.limiter.config().global.count;
        Some(world.paid.quote(free_per_sec, now_ms)?)
    } else {
        None
    };
    if let Err(refused) = world.limiter.admit(chat_id, is_group, paid, now_ms) {
        world.stats.throttled(refused.kind);
        let with_parameters = !world.limiter.config().omit_parameters;
        return Err(ApiError::too_many_requests(
            refused.retry_after,
            with_parameters,
        ));
    }
    if let Some(cost) = cost {
        world.paid.charge(cost);
    }
    Ok(())
}

/// Counts a message sent to `chat_id`.
pub(super) fn sent(world: &mut World, chat_id: i64) {
    let is_group = world.is_group(chat_id);
    let now_ms = world.clock.now_ms();
    world.stats.message_sent(chat_id, is_group, now_ms);
    world.paid.delivered(now_ms);
}
