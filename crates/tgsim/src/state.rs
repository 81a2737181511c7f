//! The state shared by the server, the webhook sender and the handle: the world behind a lock,
//! the token, and a change signal that lets waiters await conditions instead of sleeping.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::config::WebhookSettings;
use super::error::SimError;
use super::world::World;

/// Everything the simulator's tasks share.
pub(crate) struct Shared {
    /// The only accepted bot token.
    pub token: String,
    /// Webhook delivery behaviour.
    pub webhook: WebhookSettings,
    /// Cancelled when the simulator stops.
    pub shutdown: CancellationToken,
    world: Mutex<World>,
    changes: watch::Sender<u64>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("token", &"[redacted]")
            .finish_non_exhaustive()
    }
}

impl Shared {
    /// Wraps a world.
    pub(crate) fn new(token: String, webhook: WebhookSettings, world: World) -> Self {
        Self {
            token,
            webhook,
            shutdown: CancellationToken::new(),
            world: Mutex::new(world),
            changes: watch::Sender::new(0),
        }
    }

    /// Runs `f` on the world and then signals a change.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let result = f(&mut self.world.lock().unwrap_or_else(PoisonError::into_inner));
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
        result
    }

    /// Reads the world without signalling.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.world.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Waits until `check` returns `Some`, re-checking after every change, for at most `timeout`.
    pub(crate) async fn wait_for<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&World) -> Option<T>,
    ) -> Result<T, SimError> {
        let mut changes = self.changes.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            changes.borrow_and_update();
            if let Some(found) = self.read(&mut check) {
                return Ok(found);
            }
            match tokio::time::timeout_at(deadline, changes.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => {
                    return self.read(&mut check).ok_or(SimError::Timeout(timeout));
                }
            }
        }
    }
}
