//! The one idiom of the enums stored in a text column (a task's state, a chat's kind and
//! language, a reminder's kind, an undo's change, a job's error class): [`text_column`] writes
//! their values both ways. A leaf, so that `domain` (the language) and `store` (the rest) both use
//! it without an import cycle.

/// A text column's values, both ways: the one idiom of every enum stored as text (`STORED`,
/// `as_str`, `from_stored`, `Display`).
macro_rules! text_column {
    ($type:ty { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $type {
            /// Every value, as the column's CHECK allows them.
            pub const STORED: &'static [Self] = &[$(Self::$variant),+];

            /// The value as stored.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }

            /// Reads a stored value; `None` when it is none of the known ones.
            pub fn from_stored(text: &str) -> Option<Self> {
                match text {
                    $($text => Some(Self::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use text_column;
