//! Who administers a group, asked of Telegram (getChatMember) and remembered briefly, so that a
//! burst of taps in a busy group costs one request per user rather than one per tap.
//!
//! The rule it serves (see docs/usage.md, "Groups"): in a group, a task's creator or a group
//! administrator may change the task, and only administrators change the group's settings.
//!
//! Telegram is never asked while an update's transaction is open: a handler that needs an answer
//! not remembered stops ([`crate::bot::BotError::NeedsLookUp`]), the update's attempt is rolled
//! back, [`GroupAdmins::look_up`] asks Telegram with a short timeout, and the update is handled
//! again with the answer (see [`crate::bot::updates`]). A look-up that fails is answered as "not
//! allowed, could not be checked" at once, and for a little while the chat's further look-ups
//! fail at once too, so a Telegram that does not answer holds a group's updates for one timeout,
//! not one per update.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use teloxide::prelude::*;
use teloxide::types::UserId;

use crate::domain::ids;

/// How long an answer is trusted: a user promoted or demoted is seen within this time.
const REMEMBER_FOR: Duration = Duration::from_secs(60);
/// Remembered answers past which expired ones are forgotten.
const FORGET_ABOVE: usize = 10_000;
/// How long a look-up may take before it counts as failed (the chat's updates wait meanwhile).
pub const LOOK_UP_TIMEOUT: Duration = Duration::from_secs(5);
/// After a failed look-up in a chat, how long the chat's further look-ups fail without asking.
const FAILING_FOR: Duration = Duration::from_secs(20);

/// A user in a group, whose rights are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupMember {
    /// The group.
    pub chat_id: ids::ChatId,
    /// The user.
    pub user_id: ids::UserId,
}

/// Why a look-up gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum LookUpError {
    /// Telegram refused or could not be reached (shown without the token).
    #[error("getChatMember failed: {}", crate::egress::classify::redact(&.0.to_string()))]
    Telegram(#[from] teloxide::RequestError),
    /// Telegram did not answer within [`LOOK_UP_TIMEOUT`].
    #[error("getChatMember did not answer within {LOOK_UP_TIMEOUT:?}")]
    TimedOut,
    /// A look-up in the same chat failed moments ago: not asked again yet.
    #[error("a look-up in this chat failed less than {FAILING_FOR:?} ago")]
    Failing,
}

/// A short-lived memory of getChatMember answers, per `(chat, user)`, and of the chats whose
/// look-ups fail.
#[derive(Debug, Default)]
pub struct GroupAdmins {
    known: Mutex<HashMap<GroupMember, (bool, Instant)>>,
    failing: Mutex<HashMap<ids::ChatId, Instant>>,
}

impl GroupAdmins {
    /// Whether `member` is the creator or an administrator of their group, if Telegram said so
    /// recently; `None`: it must be looked up ([`GroupAdmins::look_up`]).
    pub fn known(&self, member: GroupMember) -> Option<bool> {
        let known = self.known.lock().expect("admin cache poisoned");
        known
            .get(&member)
            .filter(|(_, at)| at.elapsed() < REMEMBER_FOR)
            .map(|(admin, _)| *admin)
    }

    /// Asks Telegram whether `member` is the creator or an administrator of their group, within
    /// [`LOOK_UP_TIMEOUT`], and remembers the answer. Call it with no transaction open.
    #[tracing::instrument(skip_all, fields(chat_id = member.chat_id.0, user_id = member.user_id.0))]
    pub async fn look_up(&self, bot: &Bot, member: GroupMember) -> Result<bool, LookUpError> {
        if let Some(known) = self.known(member) {
            return Ok(known);
        }
        if self.is_failing(member.chat_id) {
            return Err(LookUpError::Failing);
        }
        let user = UserId(u64::try_from(member.user_id.0).unwrap_or_default());
        let asked = bot.get_chat_member(ChatId(member.chat_id.0), user);
        let answer = match tokio::time::timeout(LOOK_UP_TIMEOUT, asked).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(error)) => return Err(self.failed(member, error.into())),
            Err(_) => return Err(self.failed(member, LookUpError::TimedOut)),
        };
        let admin = answer.kind.is_privileged();
        self.remember(member, admin);
        Ok(admin)
    }

    fn remember(&self, member: GroupMember, admin: bool) {
        let mut known = self.known.lock().expect("admin cache poisoned");
        if known.len() >= FORGET_ABOVE {
            known.retain(|_, (_, at)| at.elapsed() < REMEMBER_FOR);
        }
        known.insert(member, (admin, Instant::now()));
    }

    /// Notes that a look-up in `member`'s chat failed; returns `error`.
    fn failed(&self, member: GroupMember, error: LookUpError) -> LookUpError {
        tracing::warn!(%error, "looking up a group member's rights failed");
        let mut failing = self.failing.lock().expect("admin cache poisoned");
        if failing.len() >= FORGET_ABOVE {
            failing.retain(|_, since| since.elapsed() < FAILING_FOR);
        }
        failing.insert(member.chat_id, Instant::now());
        error
    }

    fn is_failing(&self, chat_id: ids::ChatId) -> bool {
        let failing = self.failing.lock().expect("admin cache poisoned");
        failing
            .get(&chat_id)
            .is_some_and(|since| since.elapsed() < FAILING_FOR)
    }
}
