//! Entry points for updates, and what every handler shares: the context, the turn (who, where, in
//! which language and zone) and sending replies.

mod add;
mod admin;
mod callbacks;
mod list;
mod settings;
mod start;

use std::sync::Arc;

use chrono_tz::Tz;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ForceReply, ParseMode};

use super::commands::{self, Command, Input};
use super::group_admins::GroupAdmins;
use super::limits::{UserLimits, Verdict};
use super::render::{self, Reply};
use super::{BotDeps, BotError};
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::chats::{self, Chat};
use crate::store::conversation::{self, Pending};
use crate::store::{reachability, tasks};

/// Shared by all handlers.
pub(crate) struct Ctx {
    pub bot: Bot,
    pub username: String,
    pub bot_id: teloxide::types::UserId,
    pub deps: BotDeps,
    pub limits: UserLimits,
    pub admins: GroupAdmins,
}

/// One user's update in one chat.
pub(crate) struct Turn {
    pub chat_id: i64,
    pub user_id: i64,
    pub chat: Chat,
    pub tr: Tr,
}

impl Turn {
    /// The chat's zone, once chosen.
    pub fn zone(&self) -> Option<Tz> {
        self.chat.tz.as_deref().and_then(|tz| tz.parse().ok())
    }

    /// Whether this is the user's private chat with the bot (where they own everything).
    pub fn is_private(&self) -> bool {
        ChatId(self.chat_id).is_user()
    }
}

impl Ctx {
    /// Whether the Telegram user of `turn` may use the admin commands: listed in ADMIN_CHAT_IDS
    /// and writing in their private chat (in a group, the answers would show other users'
    /// reminders to everyone there).
    pub fn is_admin(&self, turn: &Turn) -> bool {
        turn.is_private() && self.deps.settings.admin_ids.contains(&turn.user_id)
    }

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

fn chat_kind(chat: &teloxide::types::Chat) -> &'static str {
    if chat.is_private() {
        "private"
    } else if chat.is_group() {
        "group"
    } else if chat.is_supergroup() {
        "supergroup"
    } else {
        "channel"
    }
}

/// Starts a turn: records the chat (language from the user's Telegram language on first contact),
/// and resumes a chat that had been unreachable.
async fn begin(
    ctx: &Ctx,
    chat: &teloxide::types::Chat,
    user: &teloxide::types::User,
) -> Result<Turn, BotError> {
    let lang = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
    let mut stored = chats::upsert(&ctx.deps.pool, chat.id.0, chat_kind(chat), lang).await?;
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
        tr: Tr::new(stored.lang()),
        chat: stored,
    })
}

fn user_id(user: &teloxide::types::User) -> i64 {
    i64::try_from(user.id.0).unwrap_or(i64::MAX)
}

/// Tells the user something went wrong on our side (nothing they typed is lost: questions stay
/// open and nothing half-done was committed).
async fn report_failure(ctx: &Ctx, chat_id: i64, lang: Lang, error: &BotError) {
    tracing::error!(%error, chat_id, "handling an update failed");
    let tr = Tr::new(lang);
    if let Ok(text) = render::notice(None, &[tr.t("err-internal")])
        && let Err(error) = ctx.send(chat_id, Reply::text(text)).await
    {
        tracing::warn!(%error, "could not report the failure");
    }
}

/// Whether the message replies to one of this bot's messages.
fn replies_to_bot(ctx: &Ctx, msg: &Message) -> bool {
    msg.reply_to_message()
        .and_then(|replied| replied.from.as_ref())
        .is_some_and(|author| author.id == ctx.bot_id)
}

/// Handles a message: a command for this bot, or text (a task or the answer to a question).
/// In groups, text is read only when it replies to the bot and the bot asked its sender
/// something: other chatter is not for the bot.
#[tracing::instrument(skip_all, fields(chat_id = msg.chat.id.0))]
pub(crate) async fn on_message(ctx: Arc<Ctx>, msg: Message) -> Result<(), BotError> {
    let (Some(text), Some(user)) = (msg.text(), msg.from.as_ref()) else {
        return Ok(());
    };
    if user.is_bot {
        return Ok(());
    }
    let input = commands::parse(text, &ctx.username);
    let pending = match input {
        Input::OtherBot => return Ok(()),
        Input::Text if !msg.chat.is_private() && !replies_to_bot(&ctx, &msg) => return Ok(()),
        Input::Text => {
            let pending =
                conversation::pending(&ctx.deps.pool, msg.chat.id.0, user_id(user)).await?;
            if pending.is_none() && !msg.chat.is_private() {
                return Ok(());
            }
            pending
        }
        Input::Command(_) => None,
    };
    let fallback = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
    match ctx.limits.check(user_id(user)) {
        Verdict::Allow => {}
        Verdict::Warn => {
            let text = render::notice(None, &[Tr::new(fallback).t("rate-limited")])?;
            return ctx.send(msg.chat.id.0, Reply::text(text)).await;
        }
        Verdict::Drop => return Ok(()),
    }
    let result = async {
        let turn = begin(&ctx, &msg.chat, user).await?;
        match input {
            Input::Command(command) => {
                conversation::close(&ctx.deps.pool, turn.chat_id, turn.user_id).await?;
                on_command(&ctx, &turn, command).await
            }
            Input::Text => match pending {
                Some(pending) => on_answer(&ctx, &turn, pending, text).await,
                None => add::create_from_text(&ctx, &turn, text).await,
            },
            Input::OtherBot => Ok(()),
        }
    }
    .await;
    if let Err(error) = &result {
        report_failure(&ctx, msg.chat.id.0, fallback, error).await;
    }
    Ok(())
}

async fn on_command(ctx: &Ctx, turn: &Turn, command: Command) -> Result<(), BotError> {
    match command {
        Command::Start => start::start(ctx, turn).await,
        Command::Help => start::help(ctx, turn).await,
        Command::Lang(args) => start::lang(ctx, turn, &args).await,
        Command::Tz(args) => start::tz(ctx, turn, &args).await,
        Command::Settings(args) => settings::settings(ctx, turn, &args).await,
        Command::Add(args) => add::create_from_text(ctx, turn, &args).await,
        Command::List => list::show(ctx, turn, 0, None).await,
        Command::Done(args) => list::done_by_id(ctx, turn, &args).await,
        Command::Delete(args) => list::delete_by_id(ctx, turn, &args).await,
        Command::Failed(args) if ctx.is_admin(turn) => admin::failed(ctx, turn, &args).await,
        Command::Retry(args) if ctx.is_admin(turn) => admin::retry(ctx, turn, &args).await,
        Command::Stats if ctx.is_admin(turn) => admin::stats(ctx, turn).await,
        // To anyone else, and in groups, the admin commands are unknown commands, word for word.
        Command::Unknown | Command::Failed(_) | Command::Retry(_) | Command::Stats => {
            ctx.send_lines(turn, &[turn.tr.t("unknown-command")]).await
        }
    }
}

async fn on_answer(ctx: &Ctx, turn: &Turn, pending: Pending, text: &str) -> Result<(), BotError> {
    match pending {
        Pending::NewTaskTime { text: task } => add::answer_when(ctx, turn, &task, text).await,
        Pending::EditTask { task_id } => add::answer_edit(ctx, turn, task_id, text).await,
        Pending::SnoozeTime { task_id } => add::answer_snooze(ctx, turn, task_id, text).await,
        Pending::TimeZone { text: task } => start::answer_zone(ctx, turn, text, task).await,
    }
}

/// Handles a change of the bot's own membership in a chat (`my_chat_member`): a user who blocks
/// the bot, or a group that removes it, makes the chat unreachable and pauses its recurring
/// tasks; a user who unblocks it, or a group that adds it back, resumes them at once, without
/// waiting for anyone to write.
#[tracing::instrument(skip_all, fields(chat_id = update.chat.id.0))]
pub(crate) async fn on_membership(
    ctx: Arc<Ctx>,
    update: teloxide::types::ChatMemberUpdated,
) -> Result<(), BotError> {
    let chat_id = update.chat.id.0;
    let lang = Lang::from_code(update.from.language_code.as_deref().unwrap_or(""));
    let mut tx = ctx.deps.pool.begin().await?;
    chats::upsert(&mut *tx, chat_id, chat_kind(&update.chat), lang).await?;
    if update.new_chat_member.kind.is_present() {
        let resumed = reachability::resume(&mut tx, &ctx.deps.queue, chat_id).await?;
        tracing::info!(resumed, "the bot is back in the chat");
    } else {
        let reason = if update.chat.is_private() {
            "the user blocked the bot"
        } else {
            "the bot was removed from the group"
        };
        let paused = reachability::mark_unreachable(&mut tx, chat_id, reason, None).await?;
        tracing::info!(paused, reason, "the bot left the chat");
    }
    tx.commit().await?;
    Ok(())
}

/// Handles a button tap; every tap is answered, forged or stale ones with a short notice.
#[tracing::instrument(skip_all)]
pub(crate) async fn on_callback(ctx: Arc<Ctx>, query: CallbackQuery) -> Result<(), BotError> {
    let fallback = Lang::from_code(query.from.language_code.as_deref().unwrap_or(""));
    let verdict = ctx.limits.check(user_id(&query.from));
    let outcome = if verdict == Verdict::Allow {
        callbacks::handle(&ctx, &query).await
    } else {
        Ok(callbacks::Toast::Key("rate-limited"))
    };
    let (toast, failure) = match outcome {
        Ok(toast) => (toast, None),
        Err(error) => (callbacks::Toast::Key("err-internal"), Some(error)),
    };
    let lang = match query.message.as_ref() {
        Some(message) => chats::find(&ctx.deps.pool, message.chat().id.0)
            .await
            .ok()
            .flatten()
            .map_or(fallback, |chat| chat.lang()),
        None => fallback,
    };
    let answer = ctx.bot.answer_callback_query(query.id.clone());
    match toast.text(Tr::new(lang)) {
        Some(text) => answer.text(render::shorten(&text, 200)).await?,
        None => answer.await?,
    };
    if let Some(error) = failure {
        tracing::error!(%error, "handling a button tap failed");
    }
    Ok(())
}
