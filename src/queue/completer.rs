//! Batched completion: finished jobs are marked `done` many per statement, off the handlers' path.

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{JobId, Queue};

/// Collects `(job, claim)` pairs and marks them done in batches of up to `max_batch`.
pub(crate) struct Completer {
    sender: mpsc::UnboundedSender<(JobId, i32)>,
    task: JoinHandle<()>,
}

impl Completer {
    /// Starts the batching task.
    pub(crate) fn start(queue: Queue, max_batch: usize) -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        let task = tokio::spawn(flush_loop(queue, receiver, max_batch.max(1)));
        Self { sender, task }
    }

    /// A handle that job tasks use to hand in completions.
    pub(crate) fn sender(&self) -> mpsc::UnboundedSender<(JobId, i32)> {
        self.sender.clone()
    }

    /// Flushes everything handed in so far and stops (after all senders are dropped).
    pub(crate) async fn finish(self) {
        drop(self.sender);
        if let Err(error) = self.task.await {
            tracing::error!(%error, "the completion task failed");
        }
    }
}

async fn flush_loop(
    queue: Queue,
    mut receiver: mpsc::UnboundedReceiver<(JobId, i32)>,
    max_batch: usize,
) {
    let mut batch = Vec::with_capacity(max_batch);
    while receiver.recv_many(&mut batch, max_batch).await > 0 {
        let mut delay = std::time::Duration::from_millis(50);
        loop {
            match queue.complete_many(&batch).await {
                Ok(lost) => {
                    for (id, claim) in lost {
                        tracing::warn!(
                            job = id,
                            claim,
                            "lease lost before completion; not recorded"
                        );
                    }
                    break;
                }
                // Until the database is back the jobs keep their leases; give up only when they
                // would have expired anyway (the reaper then returns them to the queue).
                Err(error) if delay < queue.config().lease => {
                    tracing::warn!(%error, jobs = batch.len(), "completing jobs failed; retrying");
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                }
                Err(error) => {
                    tracing::error!(%error, jobs = batch.len(), "completing jobs failed; the reaper will return them");
                    break;
                }
            }
        }
        batch.clear();
    }
}
