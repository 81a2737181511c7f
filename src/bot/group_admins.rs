//! Who administers a group, asked of Telegram (getChatMember) and remembered briefly, so that a
//! burst of taps in a busy group costs one request per user rather than one per tap.
//!
//! The rule it serves (see docs/usage.md, "Groups"): in a group, a task's creator or a group
//! administrator may change the task, and only administrators change the group's settings.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use teloxide::prelude::*;
use teloxide::types::UserId;

/// How long an answer is trusted: a user promoted or demoted is seen within this time.
const REMEMBER_FOR: Duration = Duration::from_secs(60);
/// Remembered answers past which expired ones are forgotten.
const FORGET_ABOVE: usize = 10_000;

/// A short-lived memory of getChatMember answers, per `(chat, user)`.
#[derive(Debug, Default)]
pub struct GroupAdmins {
    known: Mutex<HashMap<(i64, i64), (bool, Instant)>>,
}

impl GroupAdmins {
    /// Whether `user_id` is the creator or an administrator of group `chat_id`.
    #[tracing::instrument(skip_all, fields(chat_id, user_id))]
    pub async fn is_admin(
        &self,
        bot: &Bot,
        chat_id: i64,
        user_id: i64,
    ) -> Result<bool, teloxide::RequestError> {
        if let Some(known) = self.remembered(chat_id, user_id) {
            return Ok(known);
        }
        let user = UserId(u64::try_from(user_id).unwrap_or_default());
        let member = bot.get_chat_member(ChatId(chat_id), user).await?;
        let admin = member.kind.is_privileged();
        self.remember(chat_id, user_id, admin);
        Ok(admin)
    }

    fn remembered(&self, chat_id: i64, user_id: i64) -> Option<bool> {
        let known = self.known.lock().expect("admin cache poisoned");
        known
            .get(&(chat_id, user_id))
            .filter(|(_, at)| at.elapsed() < REMEMBER_FOR)
            .map(|(admin, _)| *admin)
    }

    fn remember(&self, chat_id: i64, user_id: i64, admin: bool) {
        let mut known = self.known.lock().expect("admin cache poisoned");
        if known.len() >= FORGET_ABOVE {
            known.retain(|_, (_, at)| at.elapsed() < REMEMBER_FOR);
        }
        known.insert((chat_id, user_id), (admin, Instant::now()));
    }
}
