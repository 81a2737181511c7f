//! The command menu (setMyCommands, getMyCommands, deleteMyCommands) by scope and language code,
//! and the menu a user sees in a chat, resolved as Telegram documents.

use serde_json::Value;

use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::BotCommand;
use crate::world::World;

/// setMyCommands: replaces the menu for one scope and language (an empty list removes it).
pub(super) fn set_my_commands(world: &mut World, params: &Params) -> Result<bool, ApiError> {
    let commands = params
        .json::<Vec<BotCommand>>("commands")
        .map_err(|_| ApiError::bad_request("Bad Request: can't parse commands JSON object"))?
        .ok_or_else(|| ApiError::bad_request("Bad Request: can't parse commands JSON object"))?;
    if commands.len() > 100 {
        return Err(ApiError::bad_request(
            "Bad Request: too many commands specified",
        ));
    }
    for c in &commands {
        let valid_name = (1..=32).contains(&c.command.len())
            && c.command
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid_name {
            return Err(ApiError::bad_request(descriptions::BOT_COMMAND_INVALID));
        }
        if !(1..=256).contains(&c.description.chars().count()) {
            return Err(ApiError::bad_request(
                descriptions::BOT_COMMAND_DESCRIPTION_INVALID,
            ));
        }
    }
    let key = key(params)?;
    if commands.is_empty() {
        world.commands.remove(&key);
    } else {
        world.commands.insert(key, commands);
    }
    Ok(true)
}

/// getMyCommands: the menu set for exactly this scope and language (no fallback).
pub(super) fn get_my_commands(
    world: &mut World,
    params: &Params,
) -> Result<Vec<BotCommand>, ApiError> {
    let key = key(params)?;
    Ok(world.commands.get(&key).cloned().unwrap_or_default())
}

/// deleteMyCommands.
pub(super) fn delete_my_commands(world: &mut World, params: &Params) -> Result<bool, ApiError> {
    let key = key(params)?;
    world.commands.remove(&key);
    Ok(true)
}

/// The menu a user sees in a chat, resolved as Telegram documents: the most specific scope that
/// has commands, each tried with the user's language first, then without.
pub(crate) fn resolve_commands(
    world: &World,
    chat_id: i64,
    user_id: Option<i64>,
) -> Vec<BotCommand> {
    let user_id = user_id.or((chat_id > 0).then_some(chat_id));
    let lang = user_id
        .and_then(|u| world.language_of(u))
        .unwrap_or_default();
    let lang = lang.get(..2).unwrap_or("").to_owned();
    let mut scopes = Vec::new();
    if chat_id < 0
        && let Some(u) = user_id
    {
        scopes.push(format!("chat_member:{chat_id}:{u}"));
    }
    scopes.push(format!("chat:{chat_id}"));
    scopes.push(if chat_id > 0 {
        "all_private_chats".into()
    } else {
        "all_group_chats".into()
    });
    scopes.push("default".into());
    scopes
        .into_iter()
        .flat_map(|s| [(s.clone(), lang.clone()), (s, String::new())])
        .find_map(|k| world.commands.get(&k).cloned())
        .unwrap_or_default()
}

/// The (scope, language) key of a call.
fn key(params: &Params) -> Result<(String, String), ApiError> {
    let bad_scope = || ApiError::bad_request(descriptions::BAD_COMMAND_SCOPE);
    let scope = match params.json::<Value>("scope").map_err(|_| bad_scope())? {
        None => "default".to_owned(),
        Some(scope) => {
            let id = |field: &str| {
                scope.get(field).and_then(|v| {
                    v.as_i64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                })
            };
            match scope
                .get("type")
                .and_then(Value::as_str)
                .ok_or_else(bad_scope)?
            {
                t @ ("default"
                | "all_private_chats"
                | "all_group_chats"
                | "all_chat_administrators") => t.to_owned(),
                t @ ("chat" | "chat_administrators") => {
                    format!("{t}:{}", id("chat_id").ok_or_else(bad_scope)?)
                }
                "chat_member" => {
                    format!(
                        "chat_member:{}:{}",
                        id("chat_id").ok_or_else(bad_scope)?,
                        id("user_id").ok_or_else(bad_scope)?
                    )
                }
                _ => return Err(bad_scope()),
            }
        }
    };
    let lang = params.str("language_code").unwrap_or_default();
    if !(lang.is_empty() || (lang.len() == 2 && lang.bytes().all(|b| b.is_ascii_lowercase()))) {
        return Err(ApiError::bad_request(
            "Bad Request: invalid language code specified",
        ));
    }
    Ok((scope, lang))
}
