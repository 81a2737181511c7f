//! Typed jobs: a kind of job declares its payload type (any serde type) and the queue its jobs go
//! to, so that a producer writes and a handler reads the payload through one type, never by
//! string key.
//!
//! **One kind per queue.** A queue's jobs are all of one kind, and a kind's jobs all go to its
//! queue ([`JobKind::QUEUE`]): [`NewJob::of`] remembers the kind's queue, and
//! [`Queue::enqueue`](crate::Queue::enqueue) refuses such a job for any other queue
//! ([`QueueError::OtherQueue`](crate::QueueError::OtherQueue)); [`ClaimedJob::args`] reads only
//! jobs of the kind's queue. When one queue carries several sorts of work (replies and reminders
//! sharing one send budget), its kind is an enum of them told apart by a tag
//! (`#[serde(tag = "kind")]`): a handler reads every job with one `args` and matches once, and a
//! payload with an unknown or missing tag is an error ([`PayloadError::Malformed`]), never a
//! guess among the sorts whose fields happen to fit.
//!
//! **Payloads written before a tag.** A kind that gained its tag in a new version declares how an
//! older version's untagged payloads are recognised ([`JobKind::UNTAGGED`]): by a field that only
//! one sort has. [`ClaimedJob::args`] reads such a payload as if it carried the tag (an older
//! replica may still write one while replicas roll), and
//! [`maintenance::tag_untagged`](crate::maintenance::tag_untagged) writes the tag into the stored
//! ones, so that a later version can drop the declaration.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::hook::GivenUpJob;
use super::{ClaimedJob, JobInfo, NewJob};

/// A kind of job: the payload (the implementing type itself, as JSON) and its queue.
pub trait JobKind: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The queue jobs of this kind go to, and the only one they are read from (see the module
    /// docs, "One kind per queue").
    const QUEUE: &'static str;

    /// How payloads written before the kind had its tag are read; none by default.
    const UNTAGGED: Untagged = Untagged::NONE;
}

/// How to recognise the payloads an earlier version wrote without the tag that a kind's sorts now
/// carry (see the module docs, "Payloads written before a tag").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Untagged {
    /// The tag's field, as in `#[serde(tag = "…")]`.
    pub tag: &'static str,
    /// For each sort: a field that only its untagged payloads have, and the sort's tag value. A
    /// payload that has none of these fields, or more than one, is not recognised.
    pub sorts: &'static [(&'static str, &'static str)],
}

impl Untagged {
    /// No untagged payloads: every payload is read as it is.
    pub const NONE: Self = Self {
        tag: "",
        sorts: &[],
    };

    /// The tag value of `payload` when it is an untagged payload of one sort; `None` when it has
    /// its tag, or is not recognised.
    pub fn sort_of(&self, payload: &Value) -> Option<&'static str> {
        let fields = payload.as_object()?;
        if self.sorts.is_empty() || fields.contains_key(self.tag) {
            return None;
        }
        let mut matching = self
            .sorts
            .iter()
            .filter(|(field, _)| fields.contains_key(*field));
        match (matching.next(), matching.next()) {
            (Some((_, sort)), None) => Some(sort),
            _ => None,
        }
    }
}

/// Why a job's payload could not be read as a kind.
#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    /// The job is in another queue than the kind's.
    #[error("a job of queue {queue:?} is not of a kind of queue {kind_queue:?}")]
    OtherQueue {
        /// The job's queue.
        queue: String,
        /// The kind's queue.
        kind_queue: &'static str,
    },
    /// The payload is not one of the kind (an unknown or missing tag, a missing field, a wrong
    /// type).
    #[error("{source}; the payload: {excerpt}")]
    Malformed {
        /// What serde said.
        source: serde_json::Error,
        /// The payload's first [`PayloadError::EXCERPT_CHARS`] characters, as JSON.
        excerpt: String,
    },
}

impl PayloadError {
    /// How much of a payload a [`PayloadError::Malformed`] quotes.
    pub const EXCERPT_CHARS: usize = 200;
}

/// Reads `payload`, of a job of `queue`, as the kind `J`.
fn read<J: JobKind>(queue: &str, payload: &Value) -> Result<J, PayloadError> {
    if queue != J::QUEUE {
        return Err(PayloadError::OtherQueue {
            queue: queue.to_owned(),
            kind_queue: J::QUEUE,
        });
    }
    let read = match J::UNTAGGED.sort_of(payload) {
        Some(sort) => {
            let mut tagged = payload.clone();
            if let Some(fields) = tagged.as_object_mut() {
                fields.insert(J::UNTAGGED.tag.to_owned(), Value::from(sort));
            }
            J::deserialize(&tagged)
        }
        None => J::deserialize(payload),
    };
    read.map_err(|source| PayloadError::Malformed {
        source,
        excerpt: excerpt(payload),
    })
}

/// The first [`PayloadError::EXCERPT_CHARS`] characters of `payload` as JSON, with `…` when cut.
fn excerpt(payload: &Value) -> String {
    let text = payload.to_string();
    match text.char_indices().nth(PayloadError::EXCERPT_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

impl NewJob {
    /// A job due now carrying `job`, for the queue of its kind only.
    pub fn of<J: JobKind>(job: &J) -> Self {
        let mut new =
            Self::new(serde_json::to_value(job).expect("a job kind's payload serialises to JSON"));
        new.kind_queue = Some(J::QUEUE);
        new
    }
}

impl ClaimedJob {
    /// The payload as the job kind `J`; an error when the job is of another queue, or its payload
    /// is not one of `J` (written by hand, or by a version that knew other sorts).
    pub fn args<J: JobKind>(&self) -> Result<J, PayloadError> {
        read(&self.queue, &self.payload)
    }
}

impl GivenUpJob {
    /// The payload as the job kind `J` (see [`ClaimedJob::args`]).
    pub fn args<J: JobKind>(&self) -> Result<J, PayloadError> {
        read(&self.queue, &self.payload)
    }
}

impl JobInfo {
    /// The payload as the job kind `J` (see [`ClaimedJob::args`]).
    pub fn args<J: JobKind>(&self) -> Result<J, PayloadError> {
        read(&self.queue, &self.payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Email {
        to: String,
    }

    impl JobKind for Email {
        const QUEUE: &'static str = "email";
    }

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Chore {
        Sweep { room: String },
        Water { plant: String },
    }

    impl JobKind for Chore {
        const QUEUE: &'static str = "chores";
        const UNTAGGED: Untagged = Untagged {
            tag: "kind",
            sorts: &[("room", "sweep"), ("plant", "water")],
        };
    }

    #[test]
    fn a_kind_writes_and_reads_its_payload() {
        let job = NewJob::of(&Email { to: "a@b".into() });
        assert_eq!(job.payload, json!({"to": "a@b"}));
        assert_eq!(job.kind_queue(), Some("email"));
        assert_eq!(
            read::<Email>("email", &job.payload).unwrap(),
            Email { to: "a@b".into() }
        );
        assert!(matches!(
            read::<Email>("email", &json!({"n": 1})),
            Err(PayloadError::Malformed { .. })
        ));
    }

    #[test]
    fn a_kind_reads_only_jobs_of_its_queue() {
        let error = read::<Email>("chores", &json!({"to": "a@b"})).unwrap_err();
        assert!(matches!(
            error,
            PayloadError::OtherQueue { ref queue, kind_queue: "email" } if queue == "chores"
        ));
    }

    #[test]
    fn an_unknown_tag_is_an_error_that_quotes_the_payload() {
        let payload = json!({"kind": "polish", "room": "hall"});
        let error = read::<Chore>("chores", &payload).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("unknown variant `polish`"), "{text}");
        assert!(text.contains(r#""kind":"polish""#), "{text}");
    }

    #[test]
    fn a_long_payload_is_quoted_in_part() {
        let payload = json!({"kind": "polish", "room": "x".repeat(10_000)});
        let text = read::<Chore>("chores", &payload).unwrap_err().to_string();
        assert!(text.len() < 600 && text.ends_with('…'), "{text}");
    }

    #[test]
    fn an_untagged_payload_of_one_sort_reads_as_that_sort() {
        let swept = read::<Chore>("chores", &json!({"room": "hall"})).unwrap();
        assert_eq!(
            swept,
            Chore::Sweep {
                room: "hall".into()
            }
        );
        let watered = read::<Chore>("chores", &json!({"plant": "fig"})).unwrap();
        assert_eq!(
            watered,
            Chore::Water {
                plant: "fig".into()
            }
        );
        // A tag decides even where the fields of another sort are there too.
        let tagged = json!({"kind": "water", "plant": "fig", "room": "hall"});
        assert_eq!(
            read::<Chore>("chores", &tagged).unwrap(),
            Chore::Water {
                plant: "fig".into()
            }
        );
    }

    #[test]
    fn an_untagged_payload_of_no_sort_or_of_two_is_an_error() {
        for payload in [
            json!({"n": 1}),
            json!({"room": "hall", "plant": "fig"}),
            json!(7),
        ] {
            assert!(
                matches!(
                    read::<Chore>("chores", &payload),
                    Err(PayloadError::Malformed { .. })
                ),
                "{payload}"
            );
        }
    }
}
