//! The ids of the bot's rows and of Telegram's chats and users, each its own type so that a
//! chat's id cannot be passed where a task's or a user's is expected.

use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
            sqlx::Type,
        )]
        #[sqlx(transparent)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// A Telegram chat's id (a private chat's is its user's id; a group's is negative).
    ChatId
);
id_type!(
    /// A task's id (`tasks.id`).
    TaskId
);
id_type!(
    /// A Telegram user's id.
    UserId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_print_and_serialize_as_their_number() {
        assert_eq!(TaskId(42).to_string(), "42");
        assert_eq!(serde_json::to_string(&ChatId(-100)).unwrap(), "-100");
        assert_eq!(serde_json::from_str::<UserId>("7").unwrap(), UserId(7));
    }
}
