//! The secret of a calendar-feed URL (`/calendar`): 192 random bits written as 48 lowercase hex
//! digits in the URL, and kept only as their SHA-256 ([`SecretHash`]), so that the database never
//! holds what opens a feed. A secret this long needs no slow hash: nobody can guess it.

use std::fmt;

use sha2::{Digest, Sha256};

/// Random bytes in a secret (192 bits, beyond guessing).
const SECRET_BYTES: usize = 24;

/// A feed URL's secret. Its `Debug` hides it, so that it cannot reach a log by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct FeedSecret([u8; SECRET_BYTES]);

/// The SHA-256 of a secret: what is stored and looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SecretHash(pub [u8; 32]);

impl FeedSecret {
    /// A new random secret (from the operating system's generator, through `rand`).
    pub fn generate() -> Self {
        Self(rand::random())
    }

    /// Reads a secret as the URL writes it (48 lowercase hex digits); anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        if text.len() != SECRET_BYTES * 2 {
            return None;
        }
        let mut bytes = [0; SECRET_BYTES];
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
            let digit = |c: u8| match c {
                b'0'..=b'9' => Some(c - b'0'),
                b'a'..=b'f' => Some(c - b'a' + 10),
                _ => None,
            };
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Self(bytes))
    }

    /// The secret as the URL writes it.
    pub fn expose(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Its SHA-256.
    pub fn hash(&self) -> SecretHash {
        SecretHash(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for FeedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FeedSecret(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_read_back_from_their_text_and_nothing_else_does() {
        let secret = FeedSecret::generate();
        let text = secret.expose();
        assert_eq!(text.len(), 48);
        assert_eq!(FeedSecret::parse(&text), Some(secret.clone()));
        assert_eq!(FeedSecret::parse(&text).unwrap().hash(), secret.hash());
        assert_ne!(FeedSecret::generate().hash(), secret.hash());
        for bad in [
            &text[..47],
            &text.to_uppercase(),
            &format!("{}g", &text[..47]),
            "",
        ] {
            assert_eq!(FeedSecret::parse(bad), None, "{bad}");
        }
        assert!(!format!("{secret:?}").contains(&text));
    }
}
