//! What every handler shares: the context (the bot, the database, the settings), the turn (who,
//! where, in which language and zone), sending replies, asking questions, and who may change
//! what (a task's creator or a group administrator; see [`crate::bot::group_admins`]).

use chrono_tz::Tz;
use teloxide::prelude::*;
use teloxide::types::{ForceReply, ParseMode};

use crate::bot::group_admins::GroupAdmins;
use crate::bot::limits::UserLimits;
use crate::bot::render::{self, Reply};
use crate::bot::{BotDeps, BotError};
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::chats::{self, Chat};
use crate::store::conversation::{self, Pending};
use crate::store::types::ChatKind;
use crate::store::{reachability, tasks};

/// Shared by all handlers.
pub(crate) struct Ctx {
    /// The Bot API client.
    pub bot: Bot,
    /// The bot's username, without `@` (commands may be addressed to it).
    pub username: String,
    /// The bot's own user id (replies to the bot are answers).
    pub bot_id: teloxide::types::UserId,
    /// The database, the reminder queue and the settings.
    pub deps: BotDeps,
    /// Per-user message rates.
    pub limits: UserLimits,
    /// Who administers which group (asked of Telegram, remembered briefly).
    pub admins: GroupAdmins,
}

/// One user's update in one chat.
pub(crate) struct Turn {
    /// Where.
    pub chat_id: i64,
    /// Who.
    pub user_id: i64,
    /// The chat's settings.
    pub chat: Chat,
    /// The chat's language.
    pub tr: Tr,
}

impl Turn {
    /// The chat's zone, once chosen.
    pub fn zone(&self) -> Option<Tz> {
        self.chat.zone
    }

    /// Whether this is the user's private chat with the bot (where they own everything).
    pub fn is_private(&self) -> bool {
        ChatId(self.chat_id).is_user()
    }
}

impl Ctx {
    /// Whether the user of `turn` may change a task created by `owner_id`: in a private chat
    /// always; in a group, when they created it or administer the group.
    pub async fn may_change(&self, turn: &Turn, owner_id: i64) -> Result<bool, BotError> {
        if turn.is_private() || owner_id == turn.user_id {
            return Ok(true);
        }
        Ok(self
            .admins
            .is_admin(&self.bot, turn.chat_id, turn.user_id)
            .await?)
    }

    /// Whether the user of `turn` may change task `task_id` (see [`Ctx::may_change`]). A task the
    /// chat does not have passes: the store then answers "not found".
    pub async fn may_change_task(&self, turn: &Turn, task_id: i64) -> Result<bool, BotError> {
        let mut conn = self.deps.pool.acquire().await?;
        let task = tasks::find(&mut conn, turn.chat_id, task_id).await?;
        drop(conn);
        match task {
            Some(task) => self.may_change(turn, task.owner_id).await,
            None => Ok(true),
        }
    }

    /// Whether the user of `turn` may change the chat's settings (language, zone, lead): in a
    /// private chat always; in a group only its administrators.
    pub async fn may_change_settings(&self, turn: &Turn) -> Result<bool, BotError> {
        if turn.is_private() {
            return Ok(true);
        }
        Ok(self
            .admins
            .is_admin(&self.bot, turn.chat_id, turn.user_id)
            .await?)
    }

    /// Sends `reply` to the chat.
    #[tracing::instrument(skip_all, fields(chat_id = chat_id))]
    pub async fn send(&self, chat_id: i64, reply: Reply) -> Result<(), BotError> {
        let request = self
            .bot
            .send_message(ChatId(chat_id), reply.text)
            .parse_mode(ParseMode::Html);
        match reply.keyboard {
            Some(keyboard) => request.reply_markup(keyboard).await?,
            None if reply.expects_answer && !ChatId(chat_id).is_user() => {
                request.reply_markup(ForceReply::new()).await?
            }
            None => request.await?,
        };
        Ok(())
    }

    /// Sends a problem: what is wrong, an optional hint, and an example (by its string key).
    pub async fn send_problem(
        &self,
        turn: &Turn,
        problem: &str,
        hint: Option<&str>,
        example_key: &str,
    ) -> Result<(), BotError> {
        let text = render::problem(turn.tr, problem, hint, &turn.tr.t(example_key))?;
        self.send(turn.chat_id, Reply::text(text)).await
    }

    /// Opens the question `pending` for this user (kept in PostgreSQL, so a restart loses
    /// nothing) and renders it: the question `question_key` about `subject` (shortened), with the
    /// example `example_key`. The caller sends it with the buttons it needs.
    pub async fn ask(
        &self,
        turn: &Turn,
        pending: &Pending,
        question_key: &str,
        subject: &str,
        example_key: &str,
    ) -> Result<String, BotError> {
        conversation::ask(&self.deps.pool, turn.chat_id, turn.user_id, pending).await?;
        Ok(render::question(
            turn.tr,
            &turn.tr.t(question_key),
            Some(&render::shorten(subject, 200)),
            &turn.tr.t(example_key),
        )?)
    }

    /// Sends lines of plain text.
    pub async fn send_lines(&self, turn: &Turn, lines: &[String]) -> Result<(), BotError> {
        let text = render::notice(None, lines)?;
        self.send(turn.chat_id, Reply::text(text)).await
    }
}

/// Starts a turn: records the chat (language from the user's Telegram language on first contact),
/// and resumes a chat that had been unreachable.
pub(super) async fn begin(
    ctx: &Ctx,
    chat: &teloxide::types::Chat,
    user: &teloxide::types::User,
) -> Result<Turn, BotError> {
    let lang = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
    let mut stored = chats::upsert(&ctx.deps.pool, chat.id.0, ChatKind::of(chat), lang).await?;
    if !stored.reachable || stored.has_paused_tasks {
        // The user writes again after Telegram refused to deliver: their paused tasks resume.
        let mut tx = ctx.deps.pool.begin().await?;
        reachability::resume(&mut tx, &ctx.deps.queue, chat.id.0).await?;
        tx.commit().await?;
        stored.reachable = true;
        stored.has_paused_tasks = false;
    }
    Ok(Turn {
        chat_id: chat.id.0,
        user_id: user_id(user),
        tr: Tr::new(stored.lang),
        chat: stored,
    })
}

/// A Telegram user's id as the store keeps it.
pub(super) fn user_id(user: &teloxide::types::User) -> i64 {
    i64::try_from(user.id.0).unwrap_or(i64::MAX)
}
