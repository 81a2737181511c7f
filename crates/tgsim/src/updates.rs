//! The bot's update queue: sequential ids, confirmation by offset, `allowed_updates` applied when
//! an update is created, and a wake-up signal for long polls and the webhook sender.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::Notify;

use super::types::{Update, UpdateKind};

/// Update types delivered when `allowed_updates` is `[]` or was never set.
const DEFAULT_EXCLUDED: &[&str] = &["chat_member", "message_reaction", "message_reaction_count"];

/// Pending updates; owned by the simulator's state.
#[derive(Debug)]
pub(crate) struct UpdateQueue {
    next_id: i64,
    pending: VecDeque<Update>,
    allowed: Option<Vec<String>>,
    /// Incremented by every getUpdates call; a waiting poll that sees a newer value was overtaken.
    pub poll_generation: u64,
    notify: Arc<Notify>,
}

impl UpdateQueue {
    /// An empty queue whose first update gets `first_id`.
    pub(crate) fn new(first_id: i64) -> Self {
        Self {
            next_id: first_id,
            pending: VecDeque::new(),
            allowed: None,
            poll_generation: 0,
            notify: Arc::new(Notify::new()),
        }
    }

    /// The signal raised when updates arrive or a poll is overtaken.
    pub(crate) fn notifier(&self) -> Arc<Notify> {
        Arc::clone(&self.notify)
    }

    /// Wakes every waiter (pollers and the webhook sender).
    pub(crate) fn wake(&self) {
        self.notify.notify_waiters();
    }

    /// Queues an update unless `allowed_updates` excludes its type; returns its id.
    pub(crate) fn push(&mut self, kind: UpdateKind) -> Option<i64> {
        let name = kind.name();
        let allowed = match &self.allowed {
            Some(list) if !list.is_empty() => list.iter().any(|t| t == name),
            _ => !DEFAULT_EXCLUDED.contains(&name),
        };
        if !allowed {
            return None;
        }
        let update_id = self.next_id;
        self.next_id += 1;
        self.pending.push_back(Update { update_id, kind });
        self.wake();
        Some(update_id)
    }

    /// Applies a getUpdates `offset`: a positive one confirms (forgets) every update below it; a
    /// negative one keeps only the last `-offset` updates.
    pub(crate) fn confirm(&mut self, offset: i64) {
        if offset > 0 {
            while self.pending.front().is_some_and(|u| u.update_id < offset) {
                self.pending.pop_front();
            }
        } else if offset < 0 {
            let keep = usize::try_from(offset.unsigned_abs()).unwrap_or(usize::MAX);
            while self.pending.len() > keep {
                self.pending.pop_front();
            }
        }
    }

    /// Remembers `allowed_updates` for updates created from now on.
    pub(crate) fn set_allowed(&mut self, allowed: Vec<String>) {
        self.allowed = Some(allowed);
    }

    /// The current `allowed_updates` setting (None = never set).
    pub(crate) fn allowed(&self) -> Option<&[String]> {
        self.allowed.as_deref()
    }

    /// Up to `limit` pending updates, oldest first; they stay queued until confirmed.
    pub(crate) fn peek(&self, limit: usize) -> Vec<Update> {
        self.pending.iter().take(limit).cloned().collect()
    }

    /// The oldest pending update.
    pub(crate) fn front(&self) -> Option<&Update> {
        self.pending.front()
    }

    /// Removes the oldest update if it has this id (after a webhook delivery).
    pub(crate) fn pop_if(&mut self, update_id: i64) {
        if self
            .pending
            .front()
            .is_some_and(|u| u.update_id == update_id)
        {
            self.pending.pop_front();
        }
    }

    /// Forgets every pending update.
    pub(crate) fn clear(&mut self) {
        self.pending.clear();
    }

    /// Number of pending updates.
    pub(crate) fn len(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FIRST_UPDATE_ID;
    use crate::types::{CallbackQuery, User};

    fn tap() -> UpdateKind {
        let from = User {
            id: 1,
            is_bot: false,
            first_name: "A".into(),
            last_name: None,
            username: None,
            language_code: None,
        };
        UpdateKind::CallbackQuery(CallbackQuery {
            id: "1".into(),
            from,
            message: None,
            chat_instance: "1".into(),
            data: None,
        })
    }

    #[test]
    fn offsets_confirm_and_negative_offsets_keep_the_tail() {
        let mut queue = UpdateQueue::new(FIRST_UPDATE_ID);
        let ids: Vec<i64> = (0..5).filter_map(|_| queue.push(tap())).collect();
        assert_eq!(
            ids,
            (FIRST_UPDATE_ID..FIRST_UPDATE_ID + 5).collect::<Vec<_>>()
        );
        queue.confirm(ids[2]);
        assert_eq!(queue.peek(100)[0].update_id, ids[2]);
        queue.confirm(-1);
        assert_eq!(
            queue
                .peek(100)
                .iter()
                .map(|u| u.update_id)
                .collect::<Vec<_>>(),
            vec![ids[4]]
        );
    }

    #[test]
    fn allowed_updates_filter_new_updates() {
        let mut queue = UpdateQueue::new(FIRST_UPDATE_ID);
        queue.set_allowed(vec!["message".into()]);
        assert_eq!(queue.push(tap()), None);
        queue.set_allowed(vec![]);
        assert!(queue.push(tap()).is_some());
    }
}
