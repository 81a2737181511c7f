//! Chats: where reminders go, in which language and time zone.

use sqlx::PgExecutor;

use super::StoreError;
use crate::domain::lang::Lang;

/// A chat's settings.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Chat {
    /// Telegram's chat id (negative for groups).
    pub chat_id: i64,
    /// `private`, `group`, `supergroup` or `channel`.
    pub kind: String,
    /// `en`, `ru` or `uz`.
    pub lang: String,
    /// IANA zone, unset until chosen.
    pub tz: Option<String>,
    /// Default lead time before deadlines, in seconds.
    pub default_lead_secs: i32,
    /// Whether Telegram still delivers to it.
    pub reachable: bool,
    /// Whether some of its tasks are paused (they resume when the chat is reachable again).
    pub has_paused_tasks: bool,
}

impl Chat {
    /// The chat's language.
    pub fn lang(&self) -> Lang {
        Lang::parse(&self.lang).unwrap_or(Lang::En)
    }
}

/// Returns the chat, creating it with `lang` when it is new. Whether it is reachable is left as
/// it is: a chat Telegram stopped delivering to is resumed by [`super::reachability::resume`],
/// which the caller runs when the chat is unreachable or has paused tasks.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn upsert<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    kind: &str,
    lang: Lang,
) -> Result<Chat, StoreError> {
    Ok(sqlx::query_as(
        "insert into chats (chat_id, kind, lang) values ($1, $2, $3)
         on conflict (chat_id) do update set kind = excluded.kind
         returning chat_id, kind, lang, tz, default_lead_secs, reachable,
                   exists (select 1 from tasks t where t.chat_id = $1 and t.state = 'paused')
                       as has_paused_tasks",
    )
    .bind(chat_id)
    .bind(kind)
    .bind(lang.as_str())
    .fetch_one(executor)
    .await?)
}

/// Reads a chat.
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
) -> Result<Option<Chat>, StoreError> {
    Ok(sqlx::query_as(
        "select chat_id, kind, lang, tz, default_lead_secs, reachable,
                exists (select 1 from tasks t where t.chat_id = c.chat_id and t.state = 'paused')
                    as has_paused_tasks
         from chats c where chat_id = $1",
    )
    .bind(chat_id)
    .fetch_optional(executor)
    .await?)
}

/// Sets the chat's language.
#[tracing::instrument(skip_all, fields(chat_id = chat_id))]
pub async fn set_lang<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    lang: Lang,
) -> Result<(), StoreError> {
    sqlx::query("update chats set lang = $2, updated_at = now() where chat_id = $1")
        .bind(chat_id)
        .bind(lang.as_str())
        .execute(executor)
        .await?;
    Ok(())
}

/// Sets the chat's IANA time zone (new tasks use it; existing ones keep theirs).
#[tracing::instrument(skip_all, fields(chat_id = chat_id))]
pub async fn set_tz<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    tz: chrono_tz::Tz,
) -> Result<(), StoreError> {
    sqlx::query("update chats set tz = $2, updated_at = now() where chat_id = $1")
        .bind(chat_id)
        .bind(tz.name())
        .execute(executor)
        .await?;
    Ok(())
}

/// Sets how long before a deadline the chat's new tasks are reminded by default.
#[tracing::instrument(skip_all, fields(chat_id = chat_id))]
pub async fn set_default_lead<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: i64,
    lead_secs: i32,
) -> Result<(), StoreError> {
    sqlx::query("update chats set default_lead_secs = $2, updated_at = now() where chat_id = $1")
        .bind(chat_id)
        .bind(lead_secs)
        .execute(executor)
        .await?;
    Ok(())
}
