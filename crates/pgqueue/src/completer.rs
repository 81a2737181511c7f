//! Batched completion: finished jobs are marked `done` many per statement, off the handlers' path.

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::{JobId, Queue, QueueError};

/// Collects `(job, claim)` pairs and marks them done in batches of up to `max_batch`.
pub(crate) struct Completer {
    sender: mpsc::UnboundedSender<(JobId, i32)>,
    task: JoinHandle<()>,
    first_error: Arc<Mutex<Option<QueueError>>>,
}

impl Completer {
    /// Starts the batching task.
    pub(crate) fn start(queue: Queue, max_batch: usize) -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        let first_error = Arc::new(Mutex::new(None));
        let task = tokio::spawn(flush_loop(
            queue,
            receiver,
            max_batch.max(1),
            first_error.clone(),
        ));
        Self {
            sender,
            task,
            first_error,
        }
    }

    /// A handle that job tasks use to hand in completions.
    pub(crate) fn sender(&self) -> mpsc::UnboundedSender<(JobId, i32)> {
        self.sender.clone()
    }

    /// Flushes everything handed in so far (once every sender is dropped) and stops, giving up at
    /// `deadline` if one is set. Returns the first completion that could not be recorded.
    pub(crate) async fn finish(self, deadline: Option<Instant>) -> Result<(), QueueError> {
        drop(self.sender);
        let mut task = self.task;
        let flushed = match deadline {
            Some(deadline) => tokio::time::timeout_at(deadline, &mut task).await.ok(),
            None => Some((&mut task).await),
        };
        match flushed {
            Some(Err(error)) => tracing::error!(%error, "the completion task failed"),
            Some(Ok(())) => {}
            None => {
                task.abort();
                tracing::warn!("completions were still being flushed at the deadline");
            }
        }
        match self.first_error.lock().expect("poisoned").take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// The longest wait between two tries of a batch of completions.
const MAX_RETRY_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

async fn flush_loop(
    queue: Queue,
    mut receiver: mpsc::UnboundedReceiver<(JobId, i32)>,
    max_batch: usize,
    first_error: Arc<Mutex<Option<QueueError>>>,
) {
    let mut batch = Vec::with_capacity(max_batch);
    let remember = |error: QueueError| {
        first_error.lock().expect("poisoned").get_or_insert(error);
    };
    while receiver.recv_many(&mut batch, max_batch).await > 0 {
        let mut delay = std::time::Duration::from_millis(50);
        loop {
            match queue.complete_many(&batch).await {
                Ok(lost) => {
                    for (id, claim) in lost {
                        tracing::warn!(
                            job = id.0,
                            claim,
                            "lease lost before completion; not recorded"
                        );
                        remember(QueueError::LeaseLost { id, claim });
                    }
                    break;
                }
                // Until the database is back: a present worker keeps its jobs past their leases
                // for the reaper's grace after it is back (`crate::reaper`), and a job done is
                // not run again only if its completion is recorded.
                Err(error) => {
                    tracing::warn!(%error, jobs = batch.len(), "completing jobs failed; retrying");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(MAX_RETRY_DELAY);
                }
            }
        }
        batch.clear();
    }
}
