//! The start of a user's turn in a chat, in one statement: what every message reads and writes
//! before its handler runs (the user's message rate, the chat's settings, and the user's open
//! question) costs one round trip instead of three.

use chrono::TimeDelta;
use sqlx::PgConnection;

use super::StoreError;
use super::chats::{Chat, ChatRow};
use super::conversation::{self, ANSWER_WITHIN, Pending};
use super::types::ChatKind;
use crate::domain::ids::{ChatId, TaskId, UserId};
use crate::domain::lang::Lang;

/// What a turn starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStart {
    /// The chat (created with the given language when it is new), once the message was counted
    /// within the user's rate; `None` when it did not fit, and then nothing was written but the
    /// rate's row locked (created for a new user), for the rate to be judged.
    pub chat: Option<Chat>,
    /// The user's open question in the chat, if any and not lapsed.
    pub pending: Option<Pending>,
}

/// The rate a message is counted against: each takes `interval` of the user's allowance, which
/// may run up to `window` ahead of now (see [`super::user_rates::take_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// The allowance one message takes.
    pub interval: TimeDelta,
    /// How far ahead of now the allowance may be taken.
    pub window: TimeDelta,
}

/// Counts a message of `user_id` in `chat_id` within `rate` (not at all with `None`: it was
/// counted before) as [`super::user_rates::take_within`] does; when it fits, returns the chat as
/// [`super::chats::upsert`] does (creating it with `kind` and `lang`); and reads the user's open
/// question there as [`conversation::pending`] does. One statement.
#[tracing::instrument(skip_all, fields(chat_id = chat_id.0, user_id = user_id.0))]
pub async fn start(
    conn: &mut PgConnection,
    chat_id: ChatId,
    kind: ChatKind,
    lang: Lang,
    user_id: UserId,
    rate: Option<Rate>,
) -> Result<TurnStart, StoreError> {
    let micros = |delta: TimeDelta| delta.num_microseconds().unwrap_or(i64::MAX);
    let row = sqlx::query!(
        r#"with rate as (
               insert into user_rates as r (user_id, tat)
                   select $4, now() + $5::bigint * interval '1 microsecond'
                   where $5::bigint is not null
               on conflict (user_id) do update
                   set tat = greatest(r.tat, now()) + $5::bigint * interval '1 microsecond'
                   where greatest(r.tat, now()) + $5::bigint * interval '1 microsecond' - now()
                         <= $6::bigint * interval '1 microsecond'
               returning r.user_id),
           allowed as (
               select $5::bigint is null or exists (select 1 from rate) as allowed),
           chat as (
               insert into chats (chat_id, kind, lang)
                   select $1, $2, $3 from allowed where allowed.allowed
               on conflict (chat_id) do update set kind = excluded.kind
               returning chat_id, kind, lang, tz, default_lead_secs, reachable)
           select chat.chat_id as "chat_id?: ChatId", chat.kind as "chat_kind?",
                  chat.lang as "lang?", chat.tz as "tz?",
                  chat.default_lead_secs as "default_lead_secs?", chat.reachable as "reachable?",
                  exists (select 1 from tasks t where t.chat_id = $1 and t.state = 'paused')
                      as "has_paused_tasks!",
                  c.chat_id as "pending_chat_id?: ChatId", c.user_id as "pending_user_id?: UserId",
                  c.kind as "pending_kind?", c.task_id as "task_id?: TaskId", c.text as "text?",
                  c.quote as "quote?", c.message_id as "message_id?", c.said_at as "said_at?"
           from allowed
           left join chat on true
           left join conversations c
               on c.chat_id = $1 and c.user_id = $4
                  and c.created_at > now() - make_interval(secs => $7)"#,
        chat_id.0,
        kind.as_str(),
        lang.as_str(),
        user_id.0,
        rate.map(|rate| micros(rate.interval)),
        rate.map_or(0, |rate| micros(rate.window)),
        ANSWER_WITHIN.as_secs_f64(),
    )
    .fetch_one(conn)
    .await?;
    let chat = match (
        row.chat_id,
        row.chat_kind,
        row.lang,
        row.default_lead_secs,
        row.reachable,
    ) {
        (Some(chat_id), Some(kind), Some(lang), Some(default_lead_secs), Some(reachable)) => {
            Some(Chat::try_from(ChatRow {
                chat_id,
                kind,
                lang,
                tz: row.tz,
                default_lead_secs,
                reachable,
                has_paused_tasks: row.has_paused_tasks,
            })?)
        }
        _ => None,
    };
    let pending = match (row.pending_chat_id, row.pending_user_id, row.pending_kind) {
        (Some(chat_id), Some(user_id), Some(kind)) => Some(Pending::try_from(conversation::Row {
            chat_id,
            user_id,
            kind,
            task_id: row.task_id,
            text: row.text,
            quote: row.quote,
            message_id: row.message_id,
            said_at: row.said_at,
        })?),
        _ => None,
    };
    Ok(TurnStart { chat, pending })
}
