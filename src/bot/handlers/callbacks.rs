//! Button taps: on task cards, list pages, reminders (sent by the delivery worker: Done and
//! Snooze), the zone and language choices. A tap on a task another chat owns, or on forged or
//! stale data, changes nothing.

use chrono::{Days, Duration, Utc};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, InlineKeyboardButton, InlineKeyboardButtonKind, Message, MessageId,
};

use super::list::Changed;
use super::{Ctx, Turn, add, begin, list, start};
use crate::bot::BotError;
use crate::bot::render::{self, COMMON_ZONES, Reply};
use crate::callback::{Action, Snooze};
use crate::domain::due::DEFAULT_TIME;
use crate::domain::lang::Lang;
use crate::domain::timezone::{resolve_local, to_local};
use crate::i18n::Tr;
use crate::store::conversation::{self, Pending};
use crate::store::tasks;

/// The short notice shown on the user's screen in answer to a tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Toast {
    /// No text: the chat shows the result.
    Silent,
    /// The string with this key.
    Key(&'static str),
}

impl Toast {
    /// The notice's text in the user's language.
    pub fn text(self, tr: Tr) -> Option<String> {
        match self {
            Self::Silent => None,
            Self::Key(key) => Some(tr.t(key)),
        }
    }
}

/// The toast for a change: `key` when it was made.
fn changed(changed: Changed, key: &'static str) -> Toast {
    Toast::Key(match changed {
        Changed::Yes => key,
        Changed::NotFound => "not-found",
        Changed::NotAllowed => "not-allowed-task",
    })
}

/// Acts on a tap and returns the notice to answer it with.
pub(crate) async fn handle(ctx: &Ctx, query: &CallbackQuery) -> Result<Toast, BotError> {
    let (Some(action), Some(message)) = (
        query.data.as_deref().and_then(Action::decode),
        query.message.as_ref(),
    ) else {
        return Ok(Toast::Key("stale-button"));
    };
    let turn = begin(ctx, message.chat(), &query.from).await?;
    let list_page = message.regular_message().and_then(list_page_of);
    Ok(match action {
        Action::Done { task_id } => {
            let tapped = i64::from(message.id().0);
            let done = list::finish(ctx, &turn, task_id, Some(tapped)).await?;
            if list_page.is_none() && done == Changed::Yes {
                // Done under a reminder: its buttons have served.
                remove_buttons(ctx, &turn, message.id()).await;
            }
            if done != Changed::NotAllowed {
                refresh_list(ctx, &turn, message.id(), list_page).await?;
            }
            changed(done, "callback-done")
        }
        Action::Delete { task_id } => {
            let deleted = list::delete(ctx, &turn, task_id, "deleted").await?;
            if deleted != Changed::NotAllowed {
                refresh_list(ctx, &turn, message.id(), list_page).await?;
            }
            changed(deleted, "callback-deleted")
        }
        Action::Undo { task_id } => {
            let undone = list::delete(ctx, &turn, task_id, "undone").await?;
            if undone == Changed::Yes {
                remove_buttons(ctx, &turn, message.id()).await;
            }
            changed(undone, "callback-deleted")
        }
        Action::Snooze { task_id, choice } => snooze(ctx, &turn, task_id, choice).await?,
        Action::Edit { task_id } => edit(ctx, &turn, task_id).await?,
        Action::ListPage { page } => {
            list::show(ctx, &turn, page, Some(message.id())).await?;
            Toast::Silent
        }
        Action::Zone { .. } | Action::Language { .. }
            if !settings_open(ctx, &turn, matches!(action, Action::Zone { .. })).await? =>
        {
            Toast::Key("not-allowed-settings")
        }
        Action::Zone { index } => {
            match COMMON_ZONES
                .get(usize::from(index))
                .and_then(|(name, _)| name.parse().ok())
            {
                Some(zone) => {
                    let waiting =
                        match conversation::pending(&ctx.deps.pool, turn.chat_id, turn.user_id)
                            .await?
                        {
                            Some(Pending::TimeZone { text }) => text,
                            _ => None,
                        };
                    start::set_zone(ctx, &turn, zone, waiting).await?;
                    Toast::Silent
                }
                None => Toast::Key("stale-button"),
            }
        }
        Action::Language { index } => match Lang::ALL.get(usize::from(index)) {
            Some(lang) => {
                start::set_language(ctx, turn.chat_id, *lang).await?;
                Toast::Silent
            }
            None => Toast::Key("stale-button"),
        },
        Action::AdminRetry { job_id } if ctx.is_admin(&turn) => {
            super::admin::retry_tapped(ctx, &turn, job_id).await?
        }
        Action::AdminCancel { job_id } if ctx.is_admin(&turn) => {
            super::admin::cancel_tapped(ctx, &turn, job_id).await?
        }
        // To anyone else an admin button is like any stale one.
        Action::AdminRetry { .. } | Action::AdminCancel { .. } => Toast::Key("stale-button"),
    })
}

/// Whether the user of `turn` may change the chat's settings with a button: anyone may choose
/// the zone of a chat that has none yet (the first contact); otherwise see
/// [`Ctx::may_change_settings`].
async fn settings_open(ctx: &Ctx, turn: &Turn, zone: bool) -> Result<bool, BotError> {
    if zone && turn.zone().is_none() {
        return Ok(true);
    }
    ctx.may_change_settings(turn).await
}

/// The page a list message shows (one with rows of Done, Snooze, Edit and Delete), read from its
/// page indicator button (labelled `2/5`, see [`render::list_keyboard`]); page 0 for a one-page
/// list; `None` for any other message.
fn list_page_of(message: &Message) -> Option<u32> {
    let rows = &message.reply_markup()?.inline_keyboard;
    let actions = |row: &[InlineKeyboardButton]| -> Vec<(String, Action)> {
        row.iter()
            .filter_map(|button| match &button.kind {
                InlineKeyboardButtonKind::CallbackData(data) => {
                    Action::decode(data).map(|action| (button.text.clone(), action))
                }
                _ => None,
            })
            .collect()
    };
    let is_task_row = |row: &[InlineKeyboardButton]| {
        matches!(
            actions(row).as_slice(),
            [
                (_, Action::Done { .. }),
                (_, Action::Snooze { .. }),
                (_, Action::Edit { .. }),
                (_, Action::Delete { .. })
            ]
        )
    };
    if !rows.iter().any(|row| is_task_row(row)) {
        return None;
    }
    let current =
        rows.iter()
            .flat_map(|row| actions(row))
            .find_map(|(label, action)| match action {
                Action::ListPage { page } if render::is_page_indicator(&label, page) => Some(page),
                _ => None,
            });
    Some(current.unwrap_or(0))
}

/// Takes the buttons off a message whose buttons have served (a task card after Undo, a reminder
/// after Done); a failure only leaves stale buttons, which answer "not found".
async fn remove_buttons(ctx: &Ctx, turn: &Turn, message_id: MessageId) {
    let removed = ctx
        .bot
        .edit_message_reply_markup(ChatId(turn.chat_id), message_id)
        .await;
    if let Err(error) = removed {
        tracing::warn!(error = %BotError::from(error), "could not remove a message's buttons");
    }
}

/// After a change made from a list, shows the list's page again with the change applied.
async fn refresh_list(
    ctx: &Ctx,
    turn: &Turn,
    message_id: MessageId,
    page: Option<u32>,
) -> Result<(), BotError> {
    match page {
        Some(page) => list::show(ctx, turn, page, Some(message_id)).await,
        None => Ok(()),
    }
}

async fn snooze(ctx: &Ctx, turn: &Turn, task_id: i64, choice: Snooze) -> Result<Toast, BotError> {
    let mut conn = ctx.deps.pool.acquire().await?;
    let task = tasks::find(&mut conn, turn.chat_id, task_id).await?;
    drop(conn);
    let Some(task) = task.filter(|task| task.state == "open") else {
        add::not_found(ctx, turn).await?;
        return Ok(Toast::Key("not-found"));
    };
    if !ctx.may_change(turn, task.owner_id).await? {
        return Ok(Toast::Key("not-allowed-task"));
    }
    let zone = task.zone()?;
    let now = Utc::now();
    let fire_at = match choice {
        Snooze::TenMinutes => now + Duration::minutes(10),
        Snooze::OneHour => now + Duration::hours(1),
        Snooze::TomorrowMorning => {
            let today = to_local(zone, now).date();
            let tomorrow = today.checked_add_days(Days::new(1)).unwrap_or(today);
            resolve_local(zone, tomorrow.and_time(DEFAULT_TIME))
        }
        Snooze::Custom => {
            let pending = Pending::SnoozeTime { task_id };
            let text = ctx
                .ask(turn, &pending, "ask-snooze", &task.text, "snooze-example")
                .await?;
            ctx.send(
                turn.chat_id,
                Reply::text(text).with_keyboard(render::snooze_keyboard(turn.tr, task_id)),
            )
            .await?;
            return Ok(Toast::Silent);
        }
    };
    add::snooze(ctx, turn, task_id, fire_at, zone).await?;
    Ok(Toast::Key("callback-snoozed"))
}

async fn edit(ctx: &Ctx, turn: &Turn, task_id: i64) -> Result<Toast, BotError> {
    let mut conn = ctx.deps.pool.acquire().await?;
    let task = tasks::find(&mut conn, turn.chat_id, task_id).await?;
    drop(conn);
    let Some(task) = task.filter(|task| task.state == "open") else {
        add::not_found(ctx, turn).await?;
        return Ok(Toast::Key("not-found"));
    };
    if !ctx.may_change(turn, task.owner_id).await? {
        return Ok(Toast::Key("not-allowed-task"));
    }
    let pending = Pending::EditTask { task_id };
    let text = ctx
        .ask(turn, &pending, "ask-edit", &task.text, "when-example")
        .await?;
    ctx.send(turn.chat_id, Reply::question(text)).await?;
    Ok(Toast::Silent)
}
