//! A runner's handler limit that its owner changes while it runs: a program whose handlers wait
//! on something outside (an API whose latency moves) keeps as many running as that needs, below
//! the runner's fixed [`crate::RunnerConfig::concurrency`], which stays the hard bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;

/// How many handlers a runner may run at once now (see the module docs); cheap to clone, every
/// clone is the same limit.
#[derive(Clone, Debug)]
pub struct ConcurrencyLimit(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    current: AtomicUsize,
    changed: Notify,
}

impl ConcurrencyLimit {
    /// A limit of `n` handlers (at least one).
    pub fn new(n: usize) -> Self {
        Self(Arc::new(Inner {
            current: AtomicUsize::new(n.max(1)),
            changed: Notify::new(),
        }))
    }

    /// The limit now.
    pub fn get(&self) -> usize {
        self.0.current.load(Ordering::Relaxed)
    }

    /// Sets the limit to `n` (at least one). A raise starts buffered jobs and claims more at
    /// once; a cut lets running handlers finish and starts no new one until fewer run.
    pub fn set(&self, n: usize) {
        let n = n.max(1);
        if self.0.current.swap(n, Ordering::Relaxed) < n {
            self.0.changed.notify_one();
        }
    }

    /// Resolves after the next raise (or at once if one happened since the last wait).
    pub(crate) async fn changed(&self) {
        self.0.changed.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_at_least_one_and_shared_by_its_clones() {
        let limit = ConcurrencyLimit::new(0);
        assert_eq!(limit.get(), 1);
        let clone = limit.clone();
        clone.set(60);
        assert_eq!(limit.get(), 60);
        clone.set(0);
        assert_eq!(limit.get(), 1);
    }

    #[tokio::test]
    async fn a_raise_wakes_the_runner_and_a_cut_does_not() {
        let limit = ConcurrencyLimit::new(4);
        limit.set(4);
        limit.set(2);
        let waited =
            tokio::time::timeout(std::time::Duration::from_millis(20), limit.changed()).await;
        assert!(waited.is_err(), "no raise, no wake-up");
        limit.set(8);
        tokio::time::timeout(std::time::Duration::from_secs(1), limit.changed())
            .await
            .expect("a raise wakes the waiter, even one that came before the wait");
    }
}
