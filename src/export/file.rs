//! The files of `/export`, built when their outbox job is sent: from the chat's open tasks at
//! that moment, in the chat's language at that moment. The job carries only which file
//! ([`ExportJob`]), so an export costs the outbox a few bytes, not the file.

use chrono::Utc;
use sqlx::PgPool;

use super::{CSV_FILE_NAME, ICS_FILE_NAME, MAX_EXPORT_TASKS};
use crate::domain::lang::Lang;
use crate::i18n::{Arg, Tr};
pub use crate::store::jobs::{ExportFormat, ExportJob};
use crate::store::outbox::MessageOp;
use crate::store::{StoreError, chats, tasks};
use crate::text::{RenderError, notice};

/// Why an export's file could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading the tasks failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The caption did not render.
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// What to send for `job` now: the file with its caption; a message saying it would be larger
/// than `max_bytes` (Telegram's limit as configured), or that no task is open any more (for the
/// calendar; the table then sends nothing, `None`).
pub async fn build(
    pool: &PgPool,
    job: ExportJob,
    max_bytes: usize,
) -> Result<Option<MessageOp>, ExportError> {
    let mut conn = pool.acquire().await.map_err(StoreError::from)?;
    let lang = chats::find(&mut *conn, job.chat_id)
        .await?
        .map_or(Lang::En, |chat| chat.lang);
    let tr = Tr::new(lang);
    let total = tasks::count_open(&mut conn, job.chat_id).await?;
    if total == 0 {
        return Ok(match job.format {
            ExportFormat::Calendar => Some(text(&[tr.t("export-empty")])?),
            ExportFormat::Table => None,
        });
    }
    let tasks: Vec<_> = tasks::list_open(&mut conn, job.chat_id, MAX_EXPORT_TASKS, 0)
        .await?
        .into_iter()
        .map(|listed| listed.task)
        .collect();
    let (file_name, content, lines) = match job.format {
        ExportFormat::Calendar => {
            let mut lines = vec![tr.t_with(
                "export-calendar",
                &[("count", Arg::Number(tasks.len() as i64))],
            )];
            if total > MAX_EXPORT_TASKS {
                lines.push(tr.t_with(
                    "export-capped",
                    &[
                        ("max", Arg::Number(MAX_EXPORT_TASKS)),
                        ("count", Arg::Number(total)),
                    ],
                ));
            }
            (
                ICS_FILE_NAME,
                super::ics::calendar(&tasks, Utc::now()),
                lines,
            )
        }
        ExportFormat::Table => (
            CSV_FILE_NAME,
            super::csv::table(&tasks, tr),
            vec![tr.t("export-table")],
        ),
    };
    if content.len() > max_bytes {
        let kib = |bytes: usize| Arg::Number(bytes.div_ceil(1024) as i64);
        return Ok(Some(text(&[tr.t_with(
            "export-too-large",
            &[
                ("file", Arg::Text(file_name)),
                ("size", kib(content.len())),
                ("max", kib(max_bytes)),
            ],
        )])?));
    }
    Ok(Some(MessageOp::SendDocument {
        file_name: file_name.to_owned(),
        content,
        caption: Some(notice(None, &lines)?),
    }))
}

/// A plain message of `lines`.
fn text(lines: &[String]) -> Result<MessageOp, RenderError> {
    Ok(MessageOp::Send {
        text: notice(None, lines)?,
        keyboard: None,
        force_reply: false,
        asks: None,
    })
}
