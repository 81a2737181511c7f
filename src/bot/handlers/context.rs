//! What every handler shares: the context of one update (the bot, its transaction, the messages
//! it will send), the turn (who, where, in which language and zone), replies, questions, and who
//! may change what (a task's creator or a group administrator; see [`crate::bot::group_admins`]).
//!
//! An update is handled in one transaction: every read and write of a handler goes through
//! [`Ctx::db`], and every message it sends or edits is collected ([`Ctx::send`], [`Ctx::edit`])
//! and written to the outbox in that same transaction, with the update's "handled" mark. Either
//! all of it commits, or none of it and the update is handled again.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};

use chrono_tz::Tz;
use sqlx::{PgConnection, Postgres, Transaction};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, UserId,
};
use tokio::sync::MappedMutexGuard;

use crate::bot::group_admins::{GroupAdmins, GroupMember};
use crate::bot::limits::{RateVerdict, UserLimits};
use crate::bot::render::{self, Reply};
use crate::bot::{BotDeps, BotError, BotSettings};
use crate::callback::Question;
use crate::domain::ids;
use crate::domain::lang::Lang;
use crate::i18n::Tr;
use crate::store::chats::{self, Chat};
use crate::store::conversation::{self, Pending};
use crate::store::outbox::{AskedQuestion, MessageOp, OutgoingMessage, ReplyKeyboard};
use crate::store::types::ChatKind;
use crate::store::{reachability, tasks, turns};
use pgqueue::Queue;

/// What the handlers of every update share: made once, when the bot knows who it is.
pub(crate) struct Shared {
    /// The Bot API client (for the few requests that are no messages: getChatMember).
    pub bot: Bot,
    /// The bot's username, without `@` (commands may be addressed to it).
    pub username: String,
    /// The bot's own user id (replies to the bot are answers).
    pub bot_id: UserId,
    /// The database, the queues and the settings.
    pub deps: BotDeps,
    /// Per-user message rates.
    pub limits: UserLimits,
    /// Who administers which group (asked of Telegram, remembered briefly).
    pub admins: GroupAdmins,
}

/// What handling an update produced besides its database changes.
#[derive(Debug, Default)]
pub(crate) struct Effects {
    /// Messages to send or edit, in order.
    pub outgoing: Vec<OutgoingMessage>,
    /// The answer to a button tap: its id and the toast text.
    pub tap_answer: Option<(CallbackQueryId, Option<String>)>,
    /// Handle the update again after this long instead (nothing of this attempt is kept): it
    /// waits for what may follow it in the chat.
    pub defer: Option<Duration>,
}

/// Where the update being handled is in the inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct InboxPlace {
    /// Its `updates` row; the chat's later updates have greater ones.
    pub id: i64,
    /// When it arrived.
    pub received_at: DateTime<Utc>,
}

/// A transaction the contexts of several updates take turns in (a batch of the update workers,
/// each update in a savepoint of its own).
pub(crate) type SharedTx = Arc<tokio::sync::Mutex<Transaction<'static, Postgres>>>;

/// The context of one update.
pub(crate) struct Ctx {
    shared: Arc<Shared>,
    db: SharedTx,
    effects: Mutex<Effects>,
    /// The question opened last in this update, until the message asking it is sent.
    asked: Mutex<Option<AskedQuestion>>,
    place: Option<InboxPlace>,
    looked_up: Option<(GroupMember, bool)>,
}

/// One user's update in one chat.
pub(crate) struct Turn {
    /// Where.
    pub chat_id: ids::ChatId,
    /// Who.
    pub user_id: ids::UserId,
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
        ChatId(self.chat_id.0).is_user()
    }

    /// Whom a question asked in this turn is for, as its Cancel button names them: the user in a
    /// group; nobody in a private chat, which has no one else.
    pub fn asker(&self) -> Option<ids::UserId> {
        (!self.is_private()).then_some(self.user_id)
    }
}

impl Ctx {
    /// The context of an update handled in `tx`.
    pub fn new(shared: Arc<Shared>, tx: Transaction<'static, Postgres>) -> Self {
        Self::in_shared(shared, Arc::new(tokio::sync::Mutex::new(tx)))
    }

    /// The context of an update handled in `db`, which the caller keeps: it commits (or rolls
    /// back) what the handlers did there, and takes their effects with [`Ctx::into_effects`].
    pub fn in_shared(shared: Arc<Shared>, db: SharedTx) -> Self {
        Self {
            shared,
            db,
            effects: Mutex::default(),
            asked: Mutex::default(),
            place: None,
            looked_up: None,
        }
    }

    /// The same context, for an update handled again once Telegram said whether `member`
    /// administers their group (`admin`): an earlier attempt needed it and was rolled back.
    pub fn with_looked_up(self, member: GroupMember, admin: bool) -> Self {
        Self {
            looked_up: Some((member, admin)),
            ..self
        }
    }

    /// The message rate's verdict on an update of `user_id`. An update handled again after a
    /// look-up was counted by its first attempt: it passes.
    pub async fn check_rate(&self, user_id: ids::UserId) -> Result<RateVerdict, BotError> {
        if self.looked_up.is_some() {
            return Ok(RateVerdict::Allow);
        }
        Ok(self
            .shared
            .limits
            .check(&mut *self.db().await, user_id)
            .await?)
    }

    /// The same context, for the update at `place` in the inbox.
    pub fn in_inbox(self, place: InboxPlace) -> Self {
        Self {
            place: Some(place),
            ..self
        }
    }

    /// Where the update is in the inbox (`None` outside the update workers).
    pub fn inbox_place(&self) -> Option<InboxPlace> {
        self.place
    }

    /// Asks for the update to be handled again after `delay`, from the start: what this attempt
    /// changed and queued is dropped. The chat's later updates wait for it (they are handled in
    /// order), so it can see what follows it.
    pub fn defer(&self, delay: Duration) {
        self.effects().defer = Some(delay);
    }

    /// The transaction and what the handlers produced, once they are done; `ContextShared` when
    /// the transaction is shared ([`Ctx::in_shared`]).
    pub fn finish(self) -> Result<(Transaction<'static, Postgres>, Effects), BotError> {
        let db = Arc::into_inner(self.db).ok_or(BotError::ContextShared)?;
        let effects = self.effects.into_inner().unwrap_or_else(|p| p.into_inner());
        Ok((db.into_inner(), effects))
    }

    /// What the handlers produced, once they are done; the transaction stays with whoever
    /// shares it.
    pub fn into_effects(self) -> Effects {
        self.effects.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    /// The update's transaction. Hold it only for a statement or a few: a handler that calls
    /// another helper of the context while holding it would wait for itself.
    pub async fn db(&self) -> MappedMutexGuard<'_, PgConnection> {
        tokio::sync::MutexGuard::map(self.db.lock().await, |tx| &mut **tx)
    }

    /// The shared parts.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// The outbox, where task changes put their reminder jobs.
    pub fn queue(&self) -> &Queue {
        &self.shared.deps.queue
    }

    /// Limits and defaults.
    pub fn settings(&self) -> &BotSettings {
        &self.shared.deps.settings
    }

    /// The "Open app" row for the bottom of a keyboard in `turn`'s chat, opening the app at
    /// `task` if given: in a private chat when the Mini App is served
    /// ([`crate::bot::menu_button::open_app_row`]).
    pub fn open_app_row(
        &self,
        turn: &Turn,
        task: Option<ids::TaskId>,
    ) -> Option<Vec<InlineKeyboardButton>> {
        crate::bot::menu_button::open_app_row(
            turn.tr,
            self.settings().miniapp_url(),
            turn.is_private(),
            task,
        )
    }

    /// Answers the button tap `query_id` with `text` (or silently) once the update commits.
    pub fn answer_tap(&self, query_id: CallbackQueryId, text: Option<String>) {
        self.effects().tap_answer = Some((query_id, text));
    }

    fn effects(&self) -> std::sync::MutexGuard<'_, Effects> {
        self.effects.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Changes message `message_id` of the chat: its text (and buttons), or with `text` `None`
    /// its buttons alone (`keyboard` `None` removes them). Sent after the update commits; a
    /// newer edit of the same message supersedes it.
    pub fn edit(
        &self,
        chat_id: ids::ChatId,
        message_id: MessageId,
        text: Option<String>,
        keyboard: Option<InlineKeyboardMarkup>,
    ) {
        self.effects().outgoing.push(OutgoingMessage {
            chat_id,
            op: MessageOp::Edit {
                message_id: message_id.0,
                text,
                keyboard,
            },
        });
    }

    /// Whether the user of `turn` may change a task created by `owner_id`: in a private chat
    /// always; in a group, when they created it or administer the group.
    pub async fn may_change(&self, turn: &Turn, owner_id: ids::UserId) -> Result<bool, BotError> {
        if turn.is_private() || owner_id == turn.user_id {
            return Ok(true);
        }
        self.administers(turn)
    }

    /// Whether the user of `turn` administers the group, as Telegram said: just now for this
    /// update, or recently. Otherwise [`BotError::NeedsLookUp`]: Telegram is not asked while the
    /// update's transaction is open.
    fn administers(&self, turn: &Turn) -> Result<bool, BotError> {
        let member = GroupMember {
            chat_id: turn.chat_id,
            user_id: turn.user_id,
        };
        match self.looked_up {
            Some((asked, admin)) if asked == member => Ok(admin),
            _ => self
                .shared
                .admins
                .known(member)
                .ok_or(BotError::NeedsLookUp(member)),
        }
    }

    /// Whether the user of `turn` may change task `task_id` (see [`Ctx::may_change`]). A task the
    /// chat does not have passes: the store then answers "not found".
    pub async fn may_change_task(
        &self,
        turn: &Turn,
        task_id: ids::TaskId,
    ) -> Result<bool, BotError> {
        let task = tasks::find(&mut *self.db().await, turn.chat_id, task_id).await?;
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
        self.administers(turn)
    }

    /// Sends `reply` to the chat, through the outbox once the update commits (after the chat's
    /// earlier messages). A question in a group asks for a reply: a bot in privacy mode sees only
    /// those.
    pub async fn send(&self, chat_id: ids::ChatId, reply: Reply) -> Result<(), BotError> {
        self.push_send(chat_id, reply, None);
        Ok(())
    }

    /// Sends `reply`, the message asking the question opened last ([`Ctx::open_question`]), as
    /// [`Ctx::send`] does: with buttons, it carries the question, so that answering it takes
    /// them off.
    pub fn send_asking(&self, chat_id: ids::ChatId, reply: Reply) {
        let asked = self.asked.lock().unwrap_or_else(|p| p.into_inner()).take();
        let asks = asked.filter(|_| reply.keyboard.is_some());
        self.push_send(chat_id, reply, asks);
    }

    fn push_send(&self, chat_id: ids::ChatId, reply: Reply, asks: Option<AskedQuestion>) {
        let force_reply =
            reply.keyboard.is_none() && reply.expects_answer && !ChatId(chat_id.0).is_user();
        self.effects().outgoing.push(OutgoingMessage {
            chat_id,
            op: MessageOp::Send {
                text: reply.text,
                keyboard: reply.keyboard,
                force_reply,
                asks,
            },
        });
    }

    /// Opens the question `pending` for the user of `turn` (kept in PostgreSQL, so a restart
    /// loses nothing), replacing (and taking the buttons off) any earlier one; the message that
    /// asks it goes out by [`Ctx::send_asking`].
    pub async fn open_question(&self, turn: &Turn, pending: &Pending) -> Result<(), BotError> {
        let asked = conversation::ask(
            &mut *self.db().await,
            self.queue(),
            turn.chat_id,
            turn.user_id,
            pending,
        )
        .await?;
        *self.asked.lock().unwrap_or_else(|p| p.into_inner()) = Some(asked);
        Ok(())
    }

    /// Sends `text` (Telegram HTML) with a reply keyboard in place of the user's own, or taking
    /// such a keyboard away; through the outbox once the update commits.
    pub fn send_with_reply_keyboard(
        &self,
        chat_id: ids::ChatId,
        text: String,
        keyboard: ReplyKeyboard,
    ) {
        self.effects().outgoing.push(OutgoingMessage {
            chat_id,
            op: MessageOp::SendWithReplyKeyboard {
                text,
                reply_keyboard: keyboard,
            },
        });
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
        self.open_question(turn, pending).await?;
        Ok(render::question(
            turn.tr,
            &turn.tr.t(question_key),
            Some(&render::shorten(subject, 200)),
            &turn.tr.t(example_key),
        )?)
    }

    /// Sends a question the bot waits to have answered (rendered by [`Ctx::ask`]) with its own
    /// buttons (`rows`, may be none) and a Cancel button that closes it. In a group, a question
    /// with no buttons of its own asks for a reply instead: a bot in privacy mode sees only
    /// replies to it, and Telegram's reply request excludes buttons; `/cancel` closes it there.
    pub async fn send_question(
        &self,
        turn: &Turn,
        text: String,
        question: Question,
        rows: Vec<Vec<InlineKeyboardButton>>,
    ) -> Result<(), BotError> {
        let reply = if rows.is_empty() && !turn.is_private() {
            Reply::question(text)
        } else {
            let keyboard = render::asking_keyboard(turn.tr, question, turn.asker(), rows);
            Reply::question(text).with_keyboard(keyboard)
        };
        self.send_asking(turn.chat_id, reply);
        Ok(())
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
    let mut db = ctx.db().await;
    let stored = chats::upsert(&mut *db, ids::ChatId(chat.id.0), ChatKind::of(chat), lang).await?;
    resumed(ctx, &mut db, stored, user).await
}

/// How a message's turn started ([`start_turn`]).
pub(super) enum Started {
    /// Within the user's rate: the turn, and the user's open question there.
    Turn(Turn, Option<Pending>),
    /// Past the user's rate: warn them or drop the message; nothing else was written.
    Refused(RateVerdict),
}

/// Counts a message of `user` in `chat` against their rate ([`Ctx::check_rate`]) and, within it,
/// starts the turn as [`begin`] does, reading the user's open question there too: one statement
/// where these were three ([`turns::start`]).
pub(super) async fn start_turn(
    ctx: &Ctx,
    chat: &teloxide::types::Chat,
    user: &teloxide::types::User,
) -> Result<Started, BotError> {
    let user_id = user_id(user);
    let limits = &ctx.shared.limits;
    // An update handled again after a look-up was counted by its first attempt.
    let rate = match ctx.looked_up {
        Some(_) => None,
        None if limits.flooding(user_id) => return Ok(Started::Refused(RateVerdict::Drop)),
        None => Some(limits.rate()),
    };
    let chat_id = ids::ChatId(chat.id.0);
    let kind = ChatKind::of(chat);
    let lang = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
    let mut db = ctx.db().await;
    let started = turns::start(&mut db, chat_id, kind, lang, user_id, rate).await?;
    let stored = match started.chat {
        Some(stored) => stored,
        None => match limits.check_past(&mut db, user_id).await? {
            RateVerdict::Allow => chats::upsert(&mut *db, chat_id, kind, lang).await?,
            refused => return Ok(Started::Refused(refused)),
        },
    };
    let turn = resumed(ctx, &mut db, stored, user).await?;
    Ok(Started::Turn(turn, started.pending))
}

/// The turn of `user` in the chat `stored`, resuming the chat first when Telegram had stopped
/// delivering to it or some of its tasks are paused.
async fn resumed(
    ctx: &Ctx,
    db: &mut PgConnection,
    mut stored: Chat,
    user: &teloxide::types::User,
) -> Result<Turn, BotError> {
    let chat_id = stored.chat_id;
    if !stored.reachable || stored.has_paused_tasks {
        // The user writes again after Telegram refused to deliver: their paused tasks resume.
        reachability::resume(db, ctx.queue(), chat_id).await?;
        stored.reachable = true;
        stored.has_paused_tasks = false;
    }
    Ok(Turn {
        chat_id,
        user_id: user_id(user),
        tr: Tr::new(stored.lang),
        chat: stored,
    })
}

/// The language of a notice for `user` alone (the answer to their tap, which only they see):
/// their private chat's with the bot, else their Telegram's.
pub(crate) async fn tapper_lang(
    conn: &mut PgConnection,
    user: &teloxide::types::User,
) -> Result<Lang, BotError> {
    let fallback = Lang::from_code(user.language_code.as_deref().unwrap_or(""));
    Ok(chats::find(conn, ids::ChatId(user_id(user).0))
        .await?
        .map_or(fallback, |chat| chat.lang))
}

/// A Telegram user's id as the store keeps it.
pub(crate) fn user_id(user: &teloxide::types::User) -> ids::UserId {
    ids::UserId(i64::try_from(user.id.0).unwrap_or(i64::MAX))
}
