//! sendDocument: a file uploaded with the request (multipart/form-data), or one sent before (its
//! `file_id`), with an optional caption in a parse mode.

use super::formatting::caption;
use super::markup::reply_markup;
use super::sending::{admit, checked_reply_target, sent};
use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::Message;
use crate::world::{Upload, World};

/// sendDocument: a file uploaded with the request (multipart/form-data), or one sent before
/// (its `file_id`), with an optional caption in a parse mode.
pub(super) fn send_document(world: &mut World, params: &Params) -> Result<Message, ApiError> {
    let chat_id = params.chat_id()?;
    let upload = upload(world, params)?;
    let caption = caption(params)?;
    let markup = reply_markup(world, params, false)?;
    world.reachable(chat_id)?;
    let reply_to = checked_reply_target(world, chat_id, params)?;
    admit(world, chat_id, params)?;
    let message = world.bot_sends_document(chat_id, upload, caption, markup, reply_to);
    sent(world, chat_id);
    Ok(message)
}

/// The `document` of a sendDocument call: a file part named `document`, or the part that
/// `attach://<name>` names (as teloxide uploads), or a `file_id` the bot got before; an HTTP URL
/// cannot be fetched offline.
fn upload(world: &World, params: &Params) -> Result<Upload, ApiError> {
    let reference = params.str("document").unwrap_or_default();
    let part = match reference.trim().strip_prefix("attach://") {
        Some(name) => Some(
            params
                .file(name)
                .ok_or_else(|| ApiError::bad_request(descriptions::NO_DOCUMENT))?,
        ),
        None => params.file("document"),
    };
    if let Some(file) = part {
        if file.bytes.is_empty() {
            return Err(ApiError::bad_request(descriptions::FILE_EMPTY));
        }
        let mime_type = file
            .content_type
            .as_deref()
            .filter(|t| !t.eq_ignore_ascii_case("application/octet-stream"))
            .map_or_else(|| mime_of(&file.file_name), str::to_owned);
        return Ok(Upload::New {
            file_name: file.file_name.clone(),
            mime_type,
            bytes: file.bytes.clone(),
        });
    }
    if reference.trim().is_empty() {
        return Err(ApiError::bad_request(descriptions::NO_DOCUMENT));
    }
    if let Some(stored) = world.file(reference.trim()) {
        return Ok(Upload::Existing(stored.document.clone()));
    }
    let lower = reference.trim().to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Err(ApiError::bad_request(descriptions::URL_UNREACHABLE));
    }
    Err(ApiError::bad_request(descriptions::WRONG_FILE_ID))
}

/// The MIME type Telegram gives a file uploaded without one, by its extension.
fn mime_of(file_name: &str) -> String {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "ics" => "text/calendar",
        "csv" => "text/csv",
        "txt" => "text/plain",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
    .to_owned()
}
