//! Wake-ups: one LISTEN connection per process turns NOTIFYs into per-queue signals.
//!
//! A NOTIFY is only a hint. After every (re)connect and on any listener error every queue is woken
//! to rescan, and runners also sleep until the earliest due job and poll slowly, so a lost NOTIFY
//! costs latency, never a job.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::NOTIFY_CHANNEL;

/// Per-queue wake-up signals, fed by a listener task (or by nothing, in poll-only mode).
#[derive(Clone, Debug, Default)]
pub struct Wakeups {
    queues: Arc<Mutex<HashMap<String, Vec<Weak<Notify>>>>>,
}

impl Wakeups {
    /// Signals that nothing feeds: runners rely on due-time sleeps and polling alone.
    pub fn poll_only() -> Self {
        Self::default()
    }

    /// Starts the listener task; it holds one connection of `pool` for as long as it listens (size
    /// the pool for it) and stops when `shutdown` is cancelled.
    pub fn listen(pool: PgPool, shutdown: CancellationToken) -> Self {
        let wakeups = Self::default();
        tokio::spawn(wakeups.clone().listen_loop(pool, shutdown));
        wakeups
    }

    /// A new signal for one subscriber of `queue` (each runner its own): a NOTIFY for the queue
    /// stores a permit in every live one, so none is missed between waits.
    pub fn subscribe(&self, queue: &str) -> Arc<Notify> {
        let notify = Arc::new(Notify::new());
        let mut queues = self.queues.lock().expect("wake-up map poisoned");
        queues
            .entry(queue.to_owned())
            .or_default()
            .push(Arc::downgrade(&notify));
        notify
    }

    fn wake(&self, queue: &str) {
        let mut queues = self.queues.lock().expect("wake-up map poisoned");
        if let Some(subscribers) = queues.get_mut(queue) {
            notify_live(subscribers);
        }
    }

    fn wake_all(&self) {
        let mut queues = self.queues.lock().expect("wake-up map poisoned");
        for subscribers in queues.values_mut() {
            notify_live(subscribers);
        }
    }

    async fn listen_loop(self, pool: PgPool, shutdown: CancellationToken) {
        const FIRST_RETRY: Duration = Duration::from_millis(100);
        let mut retry_delay = FIRST_RETRY;
        while !shutdown.is_cancelled() {
            let started = tokio::time::Instant::now();
            match self.listen_until_error(&pool, &shutdown).await {
                Ok(()) => return,
                Err(error) => {
                    if started.elapsed() > Duration::from_secs(10) {
                        retry_delay = FIRST_RETRY;
                    }
                    tracing::warn!(%error, "queue listener lost its connection; reconnecting");
                    self.wake_all();
                }
            }
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = tokio::time::sleep(retry_delay) => {}
            }
            retry_delay = (retry_delay * 2).min(Duration::from_secs(5));
        }
    }

    /// Listens until shutdown (`Ok`) or an error (`Err`, the caller reconnects).
    #[tracing::instrument(skip_all)]
    async fn listen_until_error(
        &self,
        pool: &PgPool,
        shutdown: &CancellationToken,
    ) -> Result<(), sqlx::Error> {
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(NOTIFY_CHANNEL).await?;
        // Whatever was enqueued while we were not listening is found by a rescan.
        self.wake_all();
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => return Ok(()),
                received = listener.try_recv() => match received? {
                    Some(notification) => self.wake(notification.payload()),
                    // The connection dropped and was re-established: notifications may be lost.
                    None => self.wake_all(),
                },
            }
        }
    }
}

/// Wakes every live subscriber and forgets the dropped ones.
fn notify_live(subscribers: &mut Vec<Weak<Notify>>) {
    subscribers.retain(|weak| match weak.upgrade() {
        Some(notify) => {
            notify.notify_one();
            true
        }
        None => false,
    });
}
