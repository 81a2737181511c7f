//! Entry points for updates, routed to the modules that handle them: a message (a command, a
//! task, or the answer to a question the bot asked), a button tap, or a change of the bot's own
//! membership in a chat. Each module has one concern; the shared context and answers are in
//! [`context`] and [`replies`]; admin commands are a branch of their own ([`admin`]).

pub(crate) mod admin;
mod agenda;
mod before_zone;
mod calendar;
mod callbacks;
mod cancel;
mod context;
mod create;
mod edit;
mod export;
mod finish;
mod forward;
pub(crate) mod from_app;
mod hold;
mod hour_choice;
mod language;
mod list;
mod nag;
mod onboarding;
mod quote;
mod replies;
mod settings;
mod snooze;
mod task_extras;
mod task_message;
mod undo;
mod written;
mod zone;

use std::sync::Arc;

use teloxide::prelude::*;
use teloxide::types::CallbackQuery;

pub(crate) use context::{Ctx, Effects, InboxPlace, Shared, SharedTx, Turn, tapper_lang};
pub(crate) use forward::{is_forward, on_forward};
pub(crate) use quote::{is_media, on_media};

use super::BotError;
use super::commands::{self, Command, Input};
use super::limits::RateVerdict;
use super::render::{self, Reply};
use crate::domain::ids::ChatId;
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::chats;
use crate::store::conversation::{self, Pending};
use crate::store::reachability;
use crate::store::types::ChatKind;
use context::{Started, begin, start_turn, user_id};
use replies::Toast;

/// Whether the message replies to one of this bot's messages.
fn replies_to_bot(ctx: &Ctx, msg: &Message) -> bool {
    msg.reply_to_message()
        .and_then(|replied| replied.from.as_ref())
        .is_some_and(|author| author.id == ctx.shared().bot_id)
}

/// Handles a message: a command for this bot, or text (a task or the answer to a question).
/// In groups, text is read only when it replies to the bot and the bot asked its sender
/// something: other chatter is not for the bot.
#[tracing::instrument(skip_all, fields(chat_id = msg.chat.id.0))]
pub(crate) async fn on_message(ctx: Arc<Ctx>, msg: Message) -> Result<(), BotError> {
    if let (Some(location), Some(user)) = (msg.location(), msg.from.as_ref()) {
        return on_location(&ctx, &msg, user, location).await;
    }
    let (Some(text), Some(user)) = (msg.text(), msg.from.as_ref()) else {
        return Ok(());
    };
    if user.is_bot {
        return Ok(());
    }
    let input = commands::parse(text, &ctx.shared().username);
    match input {
        Input::OtherBot => return Ok(()),
        Input::Text if !msg.chat.is_private() && !replies_to_bot(&ctx, &msg) => return Ok(()),
        Input::Text | Input::Command(_) => {}
    }
    let chat_id = ChatId(msg.chat.id.0);
    let (mut turn, pending) = if msg.chat.is_private() || matches!(input, Input::Command(_)) {
        // The rate, the chat and the open question in one statement.
        match start_turn(&ctx, &msg.chat, user).await? {
            Started::Turn(turn, pending) => (turn, pending.filter(Pending::is_question)),
            Started::Refused(verdict) => return tell_rate(&ctx, chat_id, user, verdict).await,
        }
    } else {
        // A group's text is for the bot, and counted, only when it answers the sender's question.
        let Some(pending) = conversation::pending(&mut *ctx.db().await, chat_id, user_id(user))
            .await?
            .filter(Pending::is_question)
        else {
            return Ok(());
        };
        match ctx.check_rate(user_id(user)).await? {
            RateVerdict::Allow => (begin(&ctx, &msg.chat, user).await?, Some(pending)),
            verdict => return tell_rate(&ctx, chat_id, user, verdict).await,
        }
    };
    let followed = match input {
        Input::Text => written::follow(&ctx, &mut turn, text).await?,
        Input::Command(_) | Input::OtherBot => false,
    };
    let turn = turn;
    let handled = match input {
        Input::Command(Command::Cancel) => cancel::command(&ctx, &turn).await,
        // `/tz` answers the zone question: a task waiting in it is kept.
        Input::Command(command @ Command::Tz(_)) => on_command(&ctx, &turn, command, pending).await,
        Input::Command(command) => {
            close_unless_a_task_waits(&ctx, &turn, pending.as_ref()).await?;
            on_command(&ctx, &turn, command, None).await
        }
        Input::Text if quote::from_reply(&ctx, &turn, &msg, text, pending.is_some()).await? => {
            Ok(())
        }
        Input::Text
            if pending.is_none() && forward::time_alone(&ctx, &turn, &msg, text).await? =>
        {
            Ok(())
        }
        Input::Text => match pending {
            Some(pending) => on_answer(&ctx, &turn, pending, text).await,
            None => task_message::from_text(&ctx, &turn, text).await,
        },
        Input::OtherBot => Ok(()),
    };
    handled?;
    if followed {
        written::offer(&ctx, &turn).await?;
    }
    Ok(())
}

/// Another command closes the open question, except a zone question that keeps a task written
/// before the zone was known: `/help` or `/lang` there must not lose it (a new zone question, as
/// `/start` asks, keeps it too, see [`zone::ask`]). `pending` is the user's open question as the
/// turn started.
async fn close_unless_a_task_waits(
    ctx: &Ctx,
    turn: &Turn,
    pending: Option<&Pending>,
) -> Result<(), BotError> {
    let mut db = ctx.db().await;
    if !matches!(pending, Some(Pending::TimeZone { text: Some(_) })) {
        conversation::close(&mut db, ctx.queue(), turn.chat_id, turn.user_id).await?;
    }
    Ok(())
}

/// Handles a shared location: in a private chat it sets the zone (see [`zone::located`]).
async fn on_location(
    ctx: &Ctx,
    msg: &Message,
    user: &teloxide::types::User,
    location: &teloxide::types::Location,
) -> Result<(), BotError> {
    if user.is_bot || !msg.chat.is_private() || !admitted(ctx, ChatId(msg.chat.id.0), user).await? {
        return Ok(());
    }
    let turn = begin(ctx, &msg.chat, user).await?;
    match zone::located(ctx, &turn, location.latitude, location.longitude).await? {
        Some(chosen) => create::after_zone(ctx, &turn, chosen).await,
        None => Ok(()),
    }
}

/// Whether a message of `user` in `chat_id` is within their message rate: past it, the first
/// one is told to wait (in the user's Telegram language) and the rest are dropped.
async fn admitted(
    ctx: &Ctx,
    chat_id: ChatId,
    user: &teloxide::types::User,
) -> Result<bool, BotError> {
    match ctx.check_rate(user_id(user)).await? {
        RateVerdict::Allow => Ok(true),
        verdict => {
            tell_rate(ctx, chat_id, user, verdict).await?;
            Ok(false)
        }
    }
}

/// Answers a message of `user` in `chat_id` past their rate: the first one is told to wait (in
/// the user's Telegram language), the rest get nothing.
async fn tell_rate(
    ctx: &Ctx,
    chat_id: ChatId,
    user: &teloxide::types::User,
    verdict: RateVerdict,
) -> Result<(), BotError> {
    if verdict != RateVerdict::Warn {
        return Ok(());
    }
    let fallback = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
    let text = render::notice(None, &[Tr::new(fallback).t("rate-limited")])?;
    ctx.send(chat_id, Reply::text(text)).await
}

/// Runs a command; `pending` is the user's open question as the turn started, which `/tz` keeps
/// the waiting task of (`None` once something may have closed it).
async fn on_command(
    ctx: &Ctx,
    turn: &Turn,
    command: Command,
    pending: Option<Pending>,
) -> Result<(), BotError> {
    match command {
        Command::Start => onboarding::start(ctx, turn).await,
        Command::Help => onboarding::help(ctx, turn).await,
        Command::Lang(args) => language::command(ctx, turn, &args).await,
        Command::Tz(args) => {
            match zone::command(ctx, turn, &args, zone::waiting_in(pending)).await? {
                Some(chosen) => create::after_zone(ctx, turn, chosen).await,
                None => Ok(()),
            }
        }
        Command::Settings(args) => settings::command(ctx, turn, &args).await,
        Command::Add(args) => task_message::from_text(ctx, turn, &args).await,
        Command::List => list::show(ctx, turn, 0, None).await,
        Command::Done(args) => finish::done_by_id(ctx, turn, &args).await,
        Command::Delete(args) => finish::delete_by_id(ctx, turn, &args).await,
        Command::Cancel => cancel::command(ctx, turn).await,
        Command::Agenda(args) => agenda::command(ctx, turn, &args).await,
        Command::Export => export::command(ctx, turn).await,
        Command::Calendar(args) => calendar::command(ctx, turn, &args).await,
        Command::Pause(args) => hold::command(ctx, turn, hold::Want::Pause, &args).await,
        Command::Resume(args) => hold::command(ctx, turn, hold::Want::Resume, &args).await,
        // Admins' admin commands are served by the admin branch before this: to anyone else,
        // and in groups, they are unknown commands, word for word.
        Command::Unknown | Command::Failed(_) | Command::Retry(_) | Command::Stats => {
            ctx.send_lines(turn, &[turn.tr.t("unknown-command")]).await
        }
    }
}

/// Takes the answer to the question the bot asked.
async fn on_answer(ctx: &Ctx, turn: &Turn, pending: Pending, text: &str) -> Result<(), BotError> {
    if cancel::is_cancel_word(text) && !matches!(pending, Pending::TimeForForward { .. }) {
        return cancel::command(ctx, turn).await;
    }
    match pending {
        Pending::NewTaskTime { text: task } => match turn.zone() {
            Some(zone) => create::answer_when(ctx, turn, zone, &task, text).await,
            None => task_message::from_text(ctx, turn, &task).await,
        },
        Pending::EditTask { task_id } => edit::answer(ctx, turn, task_id, text).await,
        Pending::SnoozeTime { task_id } => snooze::answer(ctx, turn, task_id, text).await,
        Pending::TimeZone { text: waiting } => before_zone::answer(ctx, turn, text, waiting).await,
        Pending::QuoteTime { quote, message_id } => {
            forward::answer(ctx, turn, quote, message_id, text).await
        }
        // Nobody was asked: the message is a message of its own.
        Pending::TimeForForward { .. } => task_message::from_text(ctx, turn, text).await,
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
    let chat_id = ChatId(update.chat.id.0);
    let lang = Lang::from_code(update.from.language_code.as_deref().unwrap_or(""));
    let mut tx = ctx.db().await;
    chats::upsert(&mut *tx, chat_id, ChatKind::of(&update.chat), lang).await?;
    if update.new_chat_member.kind.is_present() {
        let queue = ctx.queue();
        let resumed = reachability::resume(&mut tx, queue, chat_id).await?;
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
    Ok(())
}

/// Handles a button tap; every tap is answered (once the update commits), forged or stale ones
/// with a short notice.
#[tracing::instrument(skip_all)]
pub(crate) async fn on_callback(ctx: Arc<Ctx>, query: CallbackQuery) -> Result<(), BotError> {
    let fallback = Lang::from_code(query.from.language_code.as_deref().unwrap_or(""));
    let toast = if ctx.check_rate(user_id(&query.from)).await? == RateVerdict::Allow {
        callbacks::handle(&ctx, &query).await?
    } else {
        Toast::Key("rate-limited")
    };
    let lang = match (toast, query.message.as_ref()) {
        (Toast::Tapper(_), _) => tapper_lang(&mut *ctx.db().await, &query.from).await?,
        (_, Some(message)) => chats::find(&mut *ctx.db().await, ChatId(message.chat().id.0))
            .await?
            .map_or(fallback, |chat| chat.lang),
        (_, None) => fallback,
    };
    let text = toast
        .text(Tr::new(lang))
        .map(|text| render::shorten(&text, 200));
    ctx.answer_tap(query.id.clone(), text);
    Ok(())
}
