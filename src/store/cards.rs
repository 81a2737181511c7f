//! The reminder messages ("cards") of a task that still show their buttons: one task, one live
//! card. Done, Snooze, Delete and a pause take the buttons off every card of the task, and each
//! new reminder (a nag, the next occurrence, a snooze) takes them off the older ones, through the
//! outbox in the caller's transaction, so that no old card offers what no longer holds.

use pgqueue::Queue;
use sqlx::PgConnection;

use super::StoreError;
use super::outbox::{self, MessageOp, OutgoingMessage};
use crate::domain::ids::{ChatId, TaskId};

/// Takes the buttons off every live card of task `task_id` in `chat_id`, except the message
/// `keep` (the new card, or one its caller edits itself), which counts as closed too unless it is
/// the new card. Returns the message ids edited.
#[tracing::instrument(skip_all, fields(chat_id, task_id))]
pub async fn close(
    conn: &mut PgConnection,
    queue: &Queue,
    chat_id: ChatId,
    task_id: TaskId,
    keep: Keep,
) -> Result<Vec<i64>, StoreError> {
    let (spared, stays_live) = match keep {
        Keep::None => (None, false),
        Keep::EditedByCaller(message_id) => (Some(message_id), false),
        Keep::Live(message_id) => (Some(message_id), true),
    };
    let closed: Vec<i64> = sqlx::query_scalar!(
        r#"update reminders set card_live = false
           where task_id = $1 and sent and card_live and message_id is not null
             and ($3 or message_id is distinct from $2)
           returning message_id as "message_id!""#,
        task_id.0,
        spared,
        !stays_live,
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut edited: Vec<i64> = closed
        .into_iter()
        .filter(|message_id| Some(*message_id) != spared)
        .collect();
    edited.sort_unstable();
    edited.dedup();
    for message_id in &edited {
        let Ok(message_id) = i32::try_from(*message_id) else {
            continue;
        };
        let edit = OutgoingMessage {
            chat_id,
            op: MessageOp::Edit {
                message_id,
                text: None,
                keyboard: None,
            },
        };
        outbox::enqueue(conn, queue, &edit).await?;
    }
    Ok(edited)
}

/// Which card [`close`] leaves alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// None: every card loses its buttons.
    None,
    /// This message, whose buttons its caller changes itself (the card tapped): it is closed
    /// without an edit of its own.
    EditedByCaller(i64),
    /// This message, the task's newest card, which stays live.
    Live(i64),
}
