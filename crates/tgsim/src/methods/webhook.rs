//! setWebhook, deleteWebhook, getWebhookInfo. Delivery itself lives in `crate::delivery`.

use axum::http::Uri;

use super::Success;
use crate::config::WebhookSettings;
use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::types::WebhookInfo;
use crate::world::{Webhook, World};

/// setWebhook: an empty `url` removes the webhook.
pub(super) fn set_webhook(
    world: &mut World,
    settings: &WebhookSettings,
    params: &Params,
) -> Result<Success, ApiError> {
    let url = params.str("url").unwrap_or_default();
    if url.is_empty() {
        return delete_webhook(world, params);
    }
    let uri: Uri = url
        .parse()
        .map_err(|_| ApiError::bad_request(descriptions::WEBHOOK_BAD_URL))?;
    let scheme = uri.scheme_str().unwrap_or("");
    if uri.host().is_none() || !matches!(scheme, "http" | "https") {
        return Err(ApiError::bad_request(descriptions::WEBHOOK_BAD_URL));
    }
    if settings.require_https {
        if scheme != "https" {
            return Err(ApiError::bad_request(descriptions::WEBHOOK_NEEDS_HTTPS));
        }
        if !matches!(uri.port_u16().unwrap_or(443), 80 | 88 | 443 | 8443) {
            return Err(ApiError::bad_request(descriptions::WEBHOOK_BAD_PORT));
        }
    }
    let secret_token = params.str("secret_token").filter(|s| !s.is_empty());
    if let Some(secret) = &secret_token
        && (secret.len() > 256
            || !secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    {
        return Err(ApiError::bad_request(descriptions::BAD_SECRET_TOKEN));
    }
    let max_connections = params.int("max_connections").ok().flatten().unwrap_or(40);
    if !(1..=100).contains(&max_connections) {
        return Err(ApiError::bad_request(
            descriptions::WEBHOOK_BAD_MAX_CONNECTIONS,
        ));
    }
    if let Ok(Some(allowed)) = params.json::<Vec<String>>("allowed_updates") {
        world.updates.set_allowed(allowed);
    }
    if params.flag("drop_pending_updates") {
        world.updates.clear();
    }
    let unchanged = world
        .webhook
        .as_ref()
        .is_some_and(|w| w.url == url && w.secret_token == secret_token);
    world.webhook = Some(Webhook {
        url,
        secret_token,
        max_connections: u32::try_from(max_connections).unwrap_or(40),
        last_error_date: None,
        last_error_message: None,
    });
    world.updates.wake();
    Ok(Success::done(if unchanged {
        "Webhook is already set"
    } else {
        "Webhook was set"
    }))
}

/// deleteWebhook: removes the webhook, optionally dropping pending updates.
pub(super) fn delete_webhook(world: &mut World, params: &Params) -> Result<Success, ApiError> {
    if params.flag("drop_pending_updates") {
        world.updates.clear();
    }
    let existed = world.webhook.take().is_some();
    world.updates.wake();
    Ok(Success::done(if existed {
        "Webhook was deleted"
    } else {
        "Webhook is already deleted"
    }))
}

/// getWebhookInfo.
pub(super) fn get_webhook_info(world: &World) -> WebhookInfo {
    let pending_update_count = world.updates.len();
    match &world.webhook {
        None => WebhookInfo {
            url: String::new(),
            has_custom_certificate: false,
            pending_update_count,
            last_error_date: None,
            last_error_message: None,
            max_connections: None,
            allowed_updates: None,
        },
        Some(w) => WebhookInfo {
            url: w.url.clone(),
            has_custom_certificate: false,
            pending_update_count,
            last_error_date: w.last_error_date,
            last_error_message: w.last_error_message.clone(),
            max_connections: Some(w.max_connections),
            allowed_updates: world.updates.allowed().map(<[String]>::to_vec),
        },
    }
}
