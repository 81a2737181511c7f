//! getUpdates: long polling with early return, confirmation by offset, `allowed_updates`
//! persistence, and the two 409 conflicts (overtaken poll, active webhook).

use std::time::Duration;

use super::Success;
use crate::error::{ApiError, descriptions};
use crate::params::Params;
use crate::state::Shared;

/// getUpdates. Holds the request up to `timeout` seconds and answers as soon as an update is
/// queued. A newer getUpdates overtakes a waiting one, which then answers 409.
pub(super) async fn get_updates(shared: &Shared, params: &Params) -> Result<Success, ApiError> {
    let offset = params.int("offset").ok().flatten().unwrap_or(0);
    let limit = params
        .int("limit")
        .ok()
        .flatten()
        .unwrap_or(100)
        .clamp(1, 100);
    let limit = usize::try_from(limit).unwrap_or(100);
    let timeout = params.int("timeout").ok().flatten().unwrap_or(0).max(0);
    let allowed = params.json::<Vec<String>>("allowed_updates").ok().flatten();

    let (generation, notify) = shared.with(|world| {
        if world.webhook.is_some() {
            return Err(ApiError::new(409, descriptions::WEBHOOK_ACTIVE));
        }
        world.updates.confirm(offset);
        if let Some(allowed) = allowed {
            world.updates.set_allowed(allowed);
        }
        world.updates.poll_generation += 1;
        world.updates.wake();
        Ok((world.updates.poll_generation, world.updates.notifier()))
    })?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout.unsigned_abs());
    loop {
        let notified = notify.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        let batch = shared.read(|world| {
            if world.updates.poll_generation != generation {
                return Err(ApiError::new(
                    409,
                    descriptions::TERMINATED_BY_OTHER_GET_UPDATES,
                ));
            }
            if world.webhook.is_some() {
                return Err(ApiError::new(409, descriptions::WEBHOOK_ACTIVE));
            }
            Ok(world.updates.peek(limit))
        })?;
        if !batch.is_empty() || tokio::time::Instant::now() >= deadline {
            return Success::of(batch);
        }
        if tokio::time::timeout_at(deadline, notified).await.is_err() {
            let batch = shared.read(|world| world.updates.peek(limit));
            return Success::of(batch);
        }
    }
}
