//! Button taps, routed to what they ask for: on task cards, list pages and reminders (Done,
//! Snooze, Edit, Delete, Undo), list pages, Cancel under questions, and the zone and language
//! choices. A tap on a task
//! another chat owns, or on forged or stale data, changes nothing. Admin buttons never get here
//! from an admin (see [`super::admin`]): to anyone else they are stale.

use teloxide::types::{CallbackQuery, MessageId};

use super::context::{Ctx, Turn, begin};
use super::finish::Changed;
use super::replies::Toast;
use super::{
    calendar, cancel, create, edit, finish, hold, hour_choice, language, list, nag, settings,
    snooze, undo, zone,
};
use crate::bot::BotError;
use crate::bot::render::COMMON_ZONES;
use crate::callback::Action;
use crate::domain::ids::TaskId;
use crate::domain::lang::Lang;
use crate::store::tasks;

/// Acts on a tap and returns the notice to answer it with.
pub(super) async fn handle(ctx: &Ctx, query: &CallbackQuery) -> Result<Toast, BotError> {
    let (Some(action), Some(message)) = (
        query.data.as_deref().and_then(Action::decode),
        query.message.as_ref(),
    ) else {
        return Ok(Toast::Key("stale-button"));
    };
    let turn = begin(ctx, message.chat(), &query.from).await?;
    let list_page = message.regular_message().and_then(list::page_of);
    Ok(match action {
        Action::Done { task_id } => {
            let tapped = i64::from(message.id().0);
            let done = finish::finish(ctx, &turn, task_id, Some(tapped)).await?;
            if list_page.is_none() && done == Changed::Yes {
                // Done under a reminder: its buttons have served.
                remove_buttons(ctx, &turn, message.id());
            }
            if done != Changed::NotAllowed {
                list::refresh(ctx, &turn, message.id(), list_page).await?;
            }
            done.toast("callback-done")
        }
        Action::Delete { task_id } => {
            let deleted = finish::delete(ctx, &turn, task_id).await?;
            if deleted != Changed::NotAllowed {
                list::refresh(ctx, &turn, message.id(), list_page).await?;
            }
            deleted.toast("callback-deleted")
        }
        Action::Undo { task_id } => legacy_undo(ctx, &turn, task_id, message.id()).await?,
        Action::UndoChange { undo_id } => undo::tapped(ctx, &turn, undo_id, message.id()).await?,
        Action::Cancel { question, asker } => {
            cancel::tapped(ctx, &turn, question, asker, message.id()).await?
        }
        Action::Snooze { task_id, choice } => {
            let toast = snooze::tapped(ctx, &turn, task_id, choice).await?;
            if toast == Toast::Key("callback-snoozed") {
                // Answered: the question (or card) it was tapped under has served.
                remove_buttons(ctx, &turn, message.id());
            }
            toast
        }
        Action::Edit { task_id } => edit::tapped(ctx, &turn, task_id).await?,
        Action::ListPage { page } => {
            list::show(ctx, &turn, page, Some(message.id())).await?;
            Toast::Silent
        }
        Action::Zone { index } => zone_tapped(ctx, &turn, index).await?,
        Action::Language { index } => language_tapped(ctx, &turn, index).await?,
        Action::Nag { task_id } => nag::tapped(ctx, &turn, task_id, message.id()).await?,
        Action::Lead { minutes } => settings::tapped(ctx, &turn, minutes, message.id()).await?,
        Action::Pause { task_id } => hold::tapped(ctx, &turn, hold::Want::Pause, task_id).await?,
        Action::Resume { task_id } => hold::tapped(ctx, &turn, hold::Want::Resume, task_id).await?,
        Action::PickHour { task_id, half } => {
            hour_choice::tapped(ctx, &turn, task_id, half, message.id()).await?
        }
        Action::CalendarNew => calendar::tapped(ctx, &turn, message.id()).await?,
        Action::AdminRetry { .. } | Action::AdminCancel { .. } => Toast::Key("stale-button"),
    })
}

/// The Undo button of cards sent before Undo was recorded on the server (`u:<task>`): it removes
/// the task only while the task is as it was created; after any change it no longer applies.
async fn legacy_undo(
    ctx: &Ctx,
    turn: &Turn,
    task_id: TaskId,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    let mut conn = ctx.db().await;
    let open = tasks::find(&mut conn, turn.chat_id, task_id)
        .await?
        .is_some_and(|task| task.is_open());
    let unchanged = tasks::unchanged_since_created(&mut conn, turn.chat_id, task_id).await?;
    drop(conn);
    if !open {
        return Ok(Toast::Key("not-found"));
    }
    if !unchanged {
        return Ok(Toast::Key("undo-outdated"));
    }
    let undone = finish::delete(ctx, turn, task_id).await?;
    if undone == Changed::Yes {
        remove_buttons(ctx, turn, message_id);
    }
    Ok(undone.toast("callback-undone"))
}

/// A zone button: sets the zone (anyone may choose the first one), then creates a task message
/// that waited for it.
async fn zone_tapped(ctx: &Ctx, turn: &Turn, index: u8) -> Result<Toast, BotError> {
    let Some(tz) = COMMON_ZONES
        .get(usize::from(index))
        .and_then(|(name, _)| name.parse().ok())
    else {
        return Ok(Toast::Key("stale-button"));
    };
    if !zone::may_set(ctx, turn).await? {
        return Ok(Toast::Key("not-allowed-settings"));
    }
    let chosen = zone::tapped(ctx, turn, tz).await?;
    create::after_zone(ctx, turn, chosen).await?;
    Ok(Toast::Silent)
}

/// A language button.
async fn language_tapped(ctx: &Ctx, turn: &Turn, index: u8) -> Result<Toast, BotError> {
    let Some(lang) = Lang::CHOICES.get(usize::from(index)) else {
        return Ok(Toast::Key("stale-button"));
    };
    if !ctx.may_change_settings(turn).await? {
        return Ok(Toast::Key("not-allowed-settings"));
    }
    language::set(ctx, turn.chat_id, *lang).await?;
    Ok(Toast::Silent)
}

/// Takes the buttons off a message whose buttons have served (a task card after Undo, a reminder
/// after Done); should that fail, stale buttons only answer "not found".
fn remove_buttons(ctx: &Ctx, turn: &Turn, message_id: MessageId) {
    ctx.edit(turn.chat_id, message_id, None, None);
}
