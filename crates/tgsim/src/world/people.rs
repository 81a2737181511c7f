//! The users of the simulated Telegram: creating one (with their private chat, whose id is
//! theirs), listing them, and changing where they stand with the bot (blocking and unblocking tell
//! the bot through a `my_chat_member` update).

use serde::{Deserialize, Serialize};

use super::World;
use super::records::ChatRecord;
use super::status::{MemberStatus, UserState};
use crate::error::SimError;
use crate::types::{Chat, ChatType, User};
use crate::web_app::{InitData, WebAppUser};

/// A user to create. Unset fields get defaults (a fresh id, state `Started`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewUser {
    /// Id (positive); a fresh one when unset.
    pub id: Option<i64>,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: Option<String>,
    /// Username without `@`.
    pub username: Option<String>,
    /// IETF language tag, e.g. "ru".
    pub language_code: Option<String>,
    /// Starting state.
    pub state: UserState,
}

impl NewUser {
    /// A started user with this first name.
    pub fn new(first_name: &str) -> Self {
        Self {
            first_name: first_name.to_owned(),
            ..Self::default()
        }
    }

    /// Sets the id.
    #[must_use]
    pub fn id(mut self, id: i64) -> Self {
        self.id = Some(id);
        self
    }

    /// Sets the language code.
    #[must_use]
    pub fn language(mut self, code: &str) -> Self {
        self.language_code = Some(code.to_owned());
        self
    }

    /// Sets the username.
    #[must_use]
    pub fn username(mut self, username: &str) -> Self {
        self.username = Some(username.to_owned());
        self
    }

    /// Sets the starting state.
    #[must_use]
    pub fn state(mut self, state: UserState) -> Self {
        self.state = state;
        self
    }
}

/// A user as the simulator holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    /// The Bot API `User`.
    pub user: User,
    /// Where the user stands with the bot.
    pub state: UserState,
}

impl World {
    /// Creates a user and their private chat.
    pub(crate) fn create_user(&mut self, new: NewUser) -> Result<UserInfo, SimError> {
        let id = match new.id {
            Some(id) => id,
            None => {
                while self.chats.contains_key(&self.next_user_id) {
                    self.next_user_id += 1;
                }
                self.next_user_id
            }
        };
        if id <= 0 || self.chats.contains_key(&id) || id == self.bot.user.id {
            return Err(SimError::IdTaken(id));
        }
        let first_name = if new.first_name.is_empty() {
            format!("User{id}")
        } else {
            new.first_name
        };
        let user = User {
            id,
            is_bot: false,
            first_name,
            last_name: new.last_name,
            username: new.username,
            language_code: new.language_code,
        };
        let chat = Chat {
            id,
            kind: ChatType::Private,
            title: None,
            username: user.username.clone(),
            first_name: Some(user.first_name.clone()),
            last_name: user.last_name.clone(),
        };
        self.chats.insert(id, ChatRecord::new(chat));
        let info = UserInfo {
            user,
            state: new.state,
        };
        self.users.insert(id, info.clone());
        Ok(info)
    }

    /// All users.
    pub(crate) fn users(&self) -> Vec<UserInfo> {
        let mut users: Vec<UserInfo> = self.users.values().cloned().collect();
        users.sort_by_key(|u| u.user.id);
        users
    }

    /// Changes a user's state. Blocking sends the bot a `my_chat_member` update (member → kicked),
    /// unblocking one the other way round.
    pub(crate) fn set_user_state(
        &mut self,
        user_id: i64,
        state: UserState,
    ) -> Result<(), SimError> {
        let info = self
            .users
            .get_mut(&user_id)
            .ok_or(SimError::UnknownUser(user_id))?;
        let old = std::mem::replace(&mut info.state, state);
        let user = info.user.clone();
        let (from, to) = match (old, state) {
            (UserState::Started, UserState::Blocked) => {
                (MemberStatus::Member, MemberStatus::Kicked)
            }
            (UserState::Blocked, UserState::Started) => {
                (MemberStatus::Kicked, MemberStatus::Member)
            }
            _ => return Ok(()),
        };
        let chat = self.chat(user_id)?.chat.clone();
        self.push_membership_update(chat, user, from, to);
        Ok(())
    }

    /// The user's language code, for command menus.
    pub(crate) fn language_of(&self, user_id: i64) -> Option<String> {
        self.users
            .get(&user_id)
            .and_then(|u| u.user.language_code.clone())
    }

    /// The user with this id, if the simulator knows them.
    pub(crate) fn user(&self, user_id: i64) -> Option<&UserInfo> {
        self.users.get(&user_id)
    }

    /// The launch data of a Mini App the user opens now (by the simulator's clock), unsigned.
    /// The query id is made of the user's id and the time, as unique as Telegram's.
    pub(crate) fn init_data(&self, user_id: i64) -> Result<InitData, SimError> {
        let info = self.user(user_id).ok_or(SimError::UnknownUser(user_id))?;
        Ok(InitData {
            query_id: format!("AAH{user_id:x}{:x}", self.clock.now_ms()),
            user: WebAppUser::from(&info.user),
            auth_date: self.clock.unix(),
        })
    }
}
