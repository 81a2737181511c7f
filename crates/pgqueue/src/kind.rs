//! Typed jobs: a kind of job declares its payload type (any serde type) and the queue its jobs go
//! to, so that a producer writes and a handler reads the payload through one type, never by
//! string key.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::hook::GivenUpJob;
use super::{ClaimedJob, NewJob};

/// A kind of job: the payload (the implementing type itself, as JSON) and its queue.
pub trait JobKind: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The queue jobs of this kind go to.
    const QUEUE: &'static str;
}

impl NewJob {
    /// A job due now carrying `job`.
    pub fn of<J: JobKind>(job: &J) -> Self {
        Self::new(serde_json::to_value(job).expect("a job kind's payload serialises to JSON"))
    }
}

impl ClaimedJob {
    /// The payload as the job kind `J`; an error when it is not one (a job of another kind, or
    /// written by hand).
    pub fn args<J: JobKind>(&self) -> Result<J, serde_json::Error> {
        J::deserialize(&self.payload)
    }
}

impl GivenUpJob {
    /// The payload as the job kind `J` (see [`ClaimedJob::args`]).
    pub fn args<J: JobKind>(&self) -> Result<J, serde_json::Error> {
        J::deserialize(&self.payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Email {
        to: String,
    }

    impl JobKind for Email {
        const QUEUE: &'static str = "email";
    }

    #[test]
    fn a_kind_writes_and_reads_its_payload() {
        let job = NewJob::of(&Email { to: "a@b".into() });
        assert_eq!(job.payload, serde_json::json!({"to": "a@b"}));
        assert!(serde_json::from_value::<Email>(serde_json::json!({"n": 1})).is_err());
    }
}
