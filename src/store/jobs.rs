//! The outbox's one job kind, [`OutboxJob`], told apart by a `kind` tag, with what each sort
//! carries (a reply or edit, a reminder occurrence, a morning agenda, an export's file) and the
//! priorities they go out by. A leaf: everything that enqueues or handles an outbox job reads its kinds here.

use chrono::{DateTime, Utc};
use pgqueue::{JobKind, Untagged};
use serde::{Deserialize, Serialize};
use teloxide::types::InlineKeyboardMarkup;

use crate::domain::ids::{ChatId, UserId};

/// The queue of everything the bot sends.
pub const OUTBOX_QUEUE: &str = "outbox";
/// The priority of answers to people (lower goes first): someone is waiting for them.
pub const REPLY_PRIORITY: i16 = 0;
/// The priority of reminders.
pub const REMINDER_PRIORITY: i16 = 1;
/// The queue reminder jobs were in before the outbox (existing databases move them).
pub const LEGACY_REMINDER_QUEUE: &str = "reminders";

/// A message to send or edit in a chat (a reply, a list page, a card losing its buttons).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutgoingMessage {
    /// Where.
    pub chat_id: ChatId,
    /// What to do there.
    #[serde(flatten)]
    pub op: MessageOp,
}

/// What an outgoing message does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum MessageOp {
    /// Send a new message (Telegram HTML).
    Send {
        /// The text.
        text: String,
        /// Its buttons.
        keyboard: Option<InlineKeyboardMarkup>,
        /// Ask for a reply (a question in a group, where a bot in privacy mode sees only replies).
        force_reply: bool,
        /// The open question it asks, whose row learns its message id once it is sent (so that
        /// answering the question takes its buttons off). Absent in older releases' jobs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        asks: Option<AskedQuestion>,
    },
    /// Send a new message (Telegram HTML) with a reply keyboard in place of the user's own, or
    /// taking such a keyboard away.
    SendWithReplyKeyboard {
        /// The text.
        text: String,
        /// The keyboard shown, or its removal.
        reply_keyboard: ReplyKeyboard,
    },
    /// Send a file (sendDocument) with an optional caption (Telegram HTML).
    SendDocument {
        /// The file name the user sees; its extension tells the type (`.ics`, `.csv`).
        file_name: String,
        /// The file's content (text, UTF-8), at most MAX_DOCUMENT_BYTES.
        content: String,
        /// The caption, at most 1024 characters.
        caption: Option<String>,
    },
    /// Change a message the bot sent: its text (and buttons), or only its buttons.
    Edit {
        /// The message.
        message_id: i32,
        /// The new text; `None` changes only the buttons.
        text: Option<String>,
        /// The new buttons; `None` removes them.
        keyboard: Option<InlineKeyboardMarkup>,
    },
}

/// A question asked of one user in a chat (a `conversations` row), as one asking of it: a
/// question asked again, or another one, is another asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AskedQuestion {
    /// Whom it asks.
    pub user_id: UserId,
    /// Which asking (`conversations.question_id`).
    pub question_id: i64,
}

/// The largest file sent unless MAX_DOCUMENT_BYTES says otherwise: an export's file over it is
/// not sent, the chat is told why ([`crate::export::file`]).
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// A keyboard that replaces the user's own while it is shown (Telegram's `ReplyKeyboardMarkup`),
/// or its removal (`ReplyKeyboardRemove`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplyKeyboard {
    /// One button that shares the user's location (private chats only), shown once.
    RequestLocation {
        /// The button's label.
        label: String,
    },
    /// Takes a shown reply keyboard away.
    Remove,
}

impl OutgoingMessage {
    /// The serial key of the chat's messages: they leave one at a time, in the order enqueued.
    pub fn serial_key(chat_id: ChatId) -> String {
        format!("chat:{chat_id}")
    }
}

/// What an agenda job carries: the agenda, and the instant it is meant for (its local day is the
/// day it lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgendaJob {
    /// The `agendas` row.
    pub agenda_id: i64,
    /// When it is due.
    pub agenda_at: DateTime<Utc>,
}

/// Which file of an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// The calendar (`.ics`), captioned with how many tasks it holds.
    Calendar,
    /// The table (`.csv`).
    Table,
}

/// What an export's outbox job carries: the chat and which of its files, built when the job is
/// sent ([`crate::export::file`]), so an export costs the outbox a few bytes, not the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportJob {
    /// The chat whose open tasks are exported (and where the file goes).
    pub chat_id: ChatId,
    /// Which file.
    pub format: ExportFormat,
}

/// What a reminder job carries: the reminder occurrence it delivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReminderJob {
    /// The `reminders` row.
    pub reminder_id: i64,
}

/// A job of the outbox, the queue's one kind: its payload is the sort's own fields and a `kind`
/// tag (`"message"`, `"reminder"`, `"agenda"`) that alone decides the sort. A payload with an
/// unknown or missing tag does not read ([`pgqueue::PayloadError`]): its job fails as
/// `bad_payload`, and no other sort's handling ever sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutboxJob {
    /// A reply or an edit.
    Message(OutgoingMessage),
    /// A reminder occurrence falling due.
    Reminder(ReminderJob),
    /// A morning agenda.
    Agenda(AgendaJob),
    /// A file of `/export`, built when it is sent.
    Export(ExportJob),
}

impl JobKind for OutboxJob {
    const QUEUE: &'static str = OUTBOX_QUEUE;
    /// Releases before the tag wrote each sort's fields alone; a field that only one sort has
    /// tells which (such jobs are tagged in place at start-up, [`super::outbox::tag_untagged_jobs`]).
    const UNTAGGED: Untagged = Untagged {
        tag: "kind",
        sorts: &[
            ("op", "message"),
            ("reminder_id", "reminder"),
            ("agenda_id", "agenda"),
        ],
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgqueue::{ClaimedJob, JobId, NewJob, PayloadError};
    use serde_json::{Value, json};
    use teloxide::types::InlineKeyboardButton;

    /// A claimed job of queue `queue` carrying `payload`.
    fn claimed(queue: &str, payload: Value) -> ClaimedJob {
        ClaimedJob {
            id: JobId(1),
            queue: queue.to_owned(),
            payload,
            attempt: 1,
            max_attempts: 5,
            claim: 1,
            throttles: 0,
            serial_key: None,
            priority: 0,
            run_at: chrono::Utc::now(),
            locked_until: chrono::Utc::now(),
        }
    }

    fn every_sort() -> Vec<OutboxJob> {
        let message = |op| {
            OutboxJob::Message(OutgoingMessage {
                chat_id: ChatId(-42),
                op,
            })
        };
        let keyboard = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Done", "d:7")]]);
        vec![
            message(MessageOp::Send {
                text: "<b>hi</b>".into(),
                keyboard: Some(keyboard.clone()),
                force_reply: true,
                asks: None,
            }),
            message(MessageOp::SendWithReplyKeyboard {
                text: "where?".into(),
                reply_keyboard: ReplyKeyboard::RequestLocation {
                    label: "Share".into(),
                },
            }),
            message(MessageOp::SendWithReplyKeyboard {
                text: "thanks".into(),
                reply_keyboard: ReplyKeyboard::Remove,
            }),
            message(MessageOp::SendDocument {
                file_name: "tasks.ics".into(),
                content: "BEGIN:VCALENDAR".into(),
                caption: None,
            }),
            message(MessageOp::Edit {
                message_id: 9,
                text: None,
                keyboard: Some(keyboard),
            }),
            OutboxJob::Reminder(ReminderJob { reminder_id: 7 }),
            OutboxJob::Agenda(AgendaJob {
                agenda_id: 3,
                agenda_at: chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
            }),
            OutboxJob::Export(ExportJob {
                chat_id: ChatId(-42),
                format: ExportFormat::Table,
            }),
        ]
    }

    #[test]
    fn every_sort_round_trips_with_its_tag_beside_a_messages_op() {
        for job in every_sort() {
            let payload = NewJob::of(&job).payload;
            let tag = match &job {
                OutboxJob::Message(message) => {
                    // The message's own tag, `op`, sits beside the job's (flattened).
                    assert!(payload.get("op").is_some(), "{payload}");
                    assert_eq!(payload["chat_id"], message.chat_id.0);
                    "message"
                }
                OutboxJob::Reminder(_) => "reminder",
                OutboxJob::Agenda(_) => "agenda",
                OutboxJob::Export(_) => "export",
            };
            assert_eq!(payload["kind"], tag, "{payload}");
            assert_eq!(
                claimed(OUTBOX_QUEUE, payload).args::<OutboxJob>().unwrap(),
                job
            );
        }
    }

    #[test]
    fn a_question_rides_on_its_message_and_older_messages_ask_none() {
        let asks = AskedQuestion {
            user_id: UserId(5),
            question_id: 12,
        };
        let job = OutboxJob::Message(OutgoingMessage {
            chat_id: ChatId(5),
            op: MessageOp::Send {
                text: "When?".into(),
                keyboard: None,
                force_reply: false,
                asks: Some(asks),
            },
        });
        let payload = NewJob::of(&job).payload;
        assert_eq!(payload["asks"], json!({"user_id": 5, "question_id": 12}));
        assert_eq!(
            claimed(OUTBOX_QUEUE, payload).args::<OutboxJob>().unwrap(),
            job
        );
        let older = json!({"kind": "message", "chat_id": 5, "op": "send", "text": "When?",
                           "keyboard": null, "force_reply": false});
        match claimed(OUTBOX_QUEUE, older).args::<OutboxJob>().unwrap() {
            OutboxJob::Message(OutgoingMessage {
                op: MessageOp::Send { asks, .. },
                ..
            }) => assert_eq!(asks, None),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_previous_releases_untagged_payloads_read_as_their_sort() {
        for job in every_sort() {
            let untagged = match &job {
                OutboxJob::Message(message) => serde_json::to_value(message),
                OutboxJob::Reminder(reminder) => serde_json::to_value(reminder),
                OutboxJob::Agenda(agenda) => serde_json::to_value(agenda),
                // Exports came after the tag: none was ever stored without it.
                OutboxJob::Export(_) => continue,
            }
            .unwrap();
            assert!(untagged.get("kind").is_none(), "{untagged}");
            assert_eq!(
                claimed(OUTBOX_QUEUE, untagged).args::<OutboxJob>().unwrap(),
                job
            );
        }
    }

    /// An outbox job as the release before the tag read it: the first of its sorts whose fields
    /// are there (serde ignores the rest, the tag among them).
    fn as_the_previous_release_read(payload: &Value) -> Option<OutboxJob> {
        fn read<T: serde::de::DeserializeOwned>(payload: &Value) -> serde_json::Result<T> {
            serde_json::from_value(payload.clone())
        }
        read(payload)
            .map(OutboxJob::Message)
            .or_else(|_| read(payload).map(OutboxJob::Reminder))
            .or_else(|_| read(payload).map(OutboxJob::Agenda))
            .ok()
    }

    #[test]
    fn a_tagged_payload_reads_as_its_sort_in_the_previous_release_too() {
        // So that a replica of it, while replicas roll (or after a roll back), sends what this
        // release enqueued.
        for job in every_sort() {
            let payload = NewJob::of(&job).payload;
            let read = as_the_previous_release_read(&payload);
            match job {
                // Newer than those releases: one of them fails it as `bad_payload` (an admin
                // retries it), as the release before exports fails it too.
                OutboxJob::Export(_) => assert_eq!(read, None),
                job => assert_eq!(read, Some(job)),
            }
        }
    }

    #[test]
    fn an_unknown_kind_or_another_queues_job_does_not_read() {
        let unknown = json!({"kind": "nag", "reminder_id": 7});
        let error = claimed(OUTBOX_QUEUE, unknown)
            .args::<OutboxJob>()
            .unwrap_err();
        assert!(matches!(error, PayloadError::Malformed { .. }), "{error}");
        assert!(error.to_string().contains(r#""kind":"nag""#), "{error}");
        // A field of another sort does not make a tagged job that sort.
        let mixed = json!({"kind": "agenda", "reminder_id": 7});
        assert!(claimed(OUTBOX_QUEUE, mixed).args::<OutboxJob>().is_err());
        let update = json!({"inbox_id": 7});
        assert!(matches!(
            claimed("updates", update).args::<OutboxJob>(),
            Err(PayloadError::OtherQueue { .. })
        ));
    }
}
