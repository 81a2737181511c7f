//! Where each party stands: a user with the bot ([`UserState`]), the bot in a group
//! ([`BotMembership`]) and anyone in a group ([`MemberStatus`]). Plain values, kept apart because
//! every other concern of the world reads them: sends turn them into Telegram's 403s,
//! getChatMember into `ChatMember` objects, and changes into `my_chat_member` updates.

use serde::{Deserialize, Serialize};

use crate::types::{ChatMember, ChatMemberAdministrator, User};

/// Where a user stands with the bot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UserState {
    /// Pressed /start (or wrote to the bot): messages are delivered.
    #[default]
    Started,
    /// Never wrote to the bot: 403 "bot can't initiate conversation with a user". The user's first
    /// message moves them to `Started`.
    NeverStarted,
    /// Blocked the bot: 403 "bot was blocked by the user".
    Blocked,
    /// Deleted their account: 403 "user is deactivated".
    Deactivated,
}

/// Where the bot stands in a group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotMembership {
    /// A member: messages are delivered.
    #[default]
    Member,
    /// Removed by an admin: 403 "bot was kicked from the … chat".
    Kicked,
    /// Left: 403 "bot is not a member of the … chat".
    Left,
}

/// A user's status in a group, as getChatMember reports it (and `my_chat_member` updates for the
/// bot). Lets tests give a group an owner and administrators the bot can check for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberStatus {
    /// The group's owner; a group has at most one.
    Creator,
    /// An administrator with the default rights (see `ChatMemberAdministrator`).
    Administrator,
    /// An ordinary member.
    Member,
    /// Not in the group: left it, or never joined.
    Left,
    /// Removed and banned for good.
    Kicked,
}

impl MemberStatus {
    /// The spec-shaped `ChatMember` of `user` in this status.
    pub(crate) fn of(self, user: User) -> ChatMember {
        match self {
            Self::Creator => ChatMember::Creator {
                user,
                is_anonymous: false,
            },
            Self::Administrator => {
                ChatMember::Administrator(ChatMemberAdministrator::with_default_rights(user))
            }
            Self::Member => ChatMember::Member { user },
            Self::Left => ChatMember::Left { user },
            Self::Kicked => ChatMember::Kicked {
                user,
                until_date: 0,
            },
        }
    }

    /// False for users who may not write in the group.
    pub(super) fn is_present(self) -> bool {
        !matches!(self, Self::Left | Self::Kicked)
    }
}

impl From<BotMembership> for MemberStatus {
    fn from(membership: BotMembership) -> Self {
        match membership {
            BotMembership::Member => Self::Member,
            BotMembership::Kicked => Self::Kicked,
            BotMembership::Left => Self::Left,
        }
    }
}
