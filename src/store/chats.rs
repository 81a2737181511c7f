//! Chats: where reminders go, in which language and time zone.

use chrono_tz::Tz;
use sqlx::PgExecutor;

use super::StoreError;
use super::types::{ChatKind, Corrupt, read, read_lead};
use crate::domain::ids::ChatId;
use crate::domain::lang::Lang;
use crate::domain::lead::Lead;

/// A chat's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Chat {
    /// Telegram's chat id (negative for groups).
    pub chat_id: ChatId,
    /// Private chat, group, supergroup or channel.
    pub kind: ChatKind,
    /// The language the bot speaks there.
    pub lang: Lang,
    /// The IANA zone, unset until chosen.
    pub zone: Option<Tz>,
    /// How long before a deadline new tasks remind unless they say otherwise.
    pub default_lead: Lead,
    /// Whether Telegram still delivers to it.
    pub reachable: bool,
    /// Whether some of its tasks are paused (they resume when the chat is reachable again).
    pub has_paused_tasks: bool,
}

/// A `chats` row as stored.
pub(crate) struct ChatRow {
    pub(crate) chat_id: ChatId,
    pub(crate) kind: String,
    pub(crate) lang: String,
    pub(crate) tz: Option<String>,
    pub(crate) default_lead_secs: i32,
    pub(crate) reachable: bool,
    pub(crate) has_paused_tasks: bool,
}

impl TryFrom<ChatRow> for Chat {
    type Error = Corrupt;

    fn try_from(row: ChatRow) -> Result<Self, Corrupt> {
        let kind = read(
            "chats",
            row.chat_id,
            "kind",
            &row.kind,
            ChatKind::from_stored,
        )?;
        let lang = read("chats", row.chat_id, "lang", &row.lang, Lang::from_stored)?;
        let zone = row
            .tz
            .as_deref()
            .map(|tz| read("chats", row.chat_id, "tz", tz, |tz| tz.parse().ok()))
            .transpose()?;
        let default_lead = read_lead("chats", row.chat_id, row.default_lead_secs)?;
        Ok(Self {
            chat_id: row.chat_id,
            kind,
            lang,
            zone,
            default_lead,
            reachable: row.reachable,
            has_paused_tasks: row.has_paused_tasks,
        })
    }
}

/// Returns the chat, creating it with `lang` when it is new. Whether it is reachable is left as
/// it is: a chat Telegram stopped delivering to is resumed by [`super::reachability::resume`],
/// which the caller runs when the chat is unreachable or has paused tasks.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn upsert<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    kind: ChatKind,
    lang: Lang,
) -> Result<Chat, StoreError> {
    let row = sqlx::query_as!(
        ChatRow,
        r#"insert into chats (chat_id, kind, lang) values ($1, $2, $3)
           on conflict (chat_id) do update set kind = excluded.kind
           returning chat_id as "chat_id: ChatId", kind, lang, tz, default_lead_secs, reachable,
                     exists (select 1 from tasks t where t.chat_id = $1 and t.state = 'paused')
                         as "has_paused_tasks!""#,
        chat_id.0,
        kind.as_str(),
        lang.as_str(),
    )
    .fetch_one(executor)
    .await?;
    Ok(row.try_into()?)
}

/// Reads a chat.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
) -> Result<Option<Chat>, StoreError> {
    let row = sqlx::query_as!(
        ChatRow,
        r#"select chat_id as "chat_id: ChatId", kind, lang, tz, default_lead_secs, reachable,
                  exists (select 1 from tasks t where t.chat_id = c.chat_id and t.state = 'paused')
                      as "has_paused_tasks!"
           from chats c where chat_id = $1"#,
        chat_id.0,
    )
    .fetch_optional(executor)
    .await?;
    Ok(row.map(Chat::try_from).transpose()?)
}

/// Sets the chat's language, as chosen by a user (it no longer follows what they write in).
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0))]
pub async fn set_lang<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    lang: Lang,
) -> Result<(), StoreError> {
    sqlx::query!(
        "update chats set lang = $2, lang_chosen = true, updated_at = now() where chat_id = $1",
        chat_id.0,
        lang.as_str(),
    )
    .execute(executor)
    .await?;
    Ok(())
}

/// Sets the chat's language to the one its user writes in, unless someone chose its language;
/// returns whether it changed.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0))]
pub async fn follow_written_lang<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    lang: Lang,
) -> Result<bool, StoreError> {
    let changed = sqlx::query!(
        "update chats set lang = $2, updated_at = now()
         where chat_id = $1 and not lang_chosen and lang <> $2",
        chat_id.0,
        lang.as_str(),
    )
    .execute(executor)
    .await?;
    Ok(changed.rows_affected() == 1)
}

/// Sets the chat's IANA time zone (new tasks use it; existing ones keep theirs). The first zone
/// a chat gets is also that of the tasks it saved before it had one (their times were the same
/// in every zone: "in 2 minutes"). Returns whether the chat has a morning agenda in another zone
/// (which the caller moves to this one), read in the same statement.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0))]
pub async fn set_tz<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    tz: Tz,
) -> Result<bool, StoreError> {
    let agenda_elsewhere = sqlx::query_scalar!(
        r#"with zoneless as (
               update tasks set tz = $2
               where chat_id = $1
                 and exists (select 1 from chats where chat_id = $1 and tz is null)
           ),
           chat as (
               update chats set tz = $2, updated_at = now() where chat_id = $1
           )
           select exists (select 1 from agendas where chat_id = $1 and tz <> $2) as "elsewhere!""#,
        chat_id.0,
        tz.name(),
    )
    .fetch_one(executor)
    .await?;
    Ok(agenda_elsewhere)
}

/// Sets how long before a deadline the chat's new tasks are reminded by default.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0))]
pub async fn set_default_lead<'e>(
    executor: impl PgExecutor<'e>,
    chat_id: ChatId,
    lead: Lead,
) -> Result<(), StoreError> {
    sqlx::query!(
        "update chats set default_lead_secs = $2, updated_at = now() where chat_id = $1",
        chat_id.0,
        lead.secs(),
    )
    .execute(executor)
    .await?;
    Ok(())
}
