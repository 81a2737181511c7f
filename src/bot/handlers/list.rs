//! `/list`: the chat's open tasks, a page at a time, with Done, Snooze, Edit and Delete buttons per
//! task; a page button shows another page in place, and a change made from a list page shows the
//! page again with the change applied.

use chrono::Utc;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardButtonKind, Message, MessageId};

use super::context::{Ctx, Turn};
use crate::bot::BotError;
use crate::bot::render::{self, PAGE_SIZE, Reply};
use crate::callback::Action;
use crate::store::tasks;

/// Shows page `page` of the chat's open tasks; with `edit`, replaces that message (a page button).
pub(super) async fn show(
    ctx: &Ctx,
    turn: &Turn,
    page: u32,
    edit: Option<MessageId>,
) -> Result<(), BotError> {
    let zone = turn.zone().unwrap_or(chrono_tz::UTC);
    let mut conn = ctx.db().await;
    let total = tasks::count_open(&mut conn, turn.chat_id).await?;
    let last_page = u32::try_from(render::page_count(total) - 1).unwrap_or(0);
    let page = page.min(last_page);
    let page_tasks = tasks::list_open(
        &mut conn,
        turn.chat_id,
        PAGE_SIZE,
        i64::from(page) * PAGE_SIZE,
    )
    .await?;
    drop(conn);
    let text = render::task_list(turn.tr, &page_tasks, page, total, zone, Utc::now())?;
    let mut keyboard = render::list_keyboard(turn.tr, &page_tasks, page, total);
    // The Mini App shows the same tasks by day.
    keyboard
        .inline_keyboard
        .extend(ctx.open_app_row(turn, None));
    match edit {
        Some(message_id) => {
            ctx.edit(turn.chat_id, message_id, Some(text), Some(keyboard));
            Ok(())
        }
        None => {
            ctx.send(turn.chat_id, Reply::text(text).with_keyboard(keyboard))
                .await
        }
    }
}

/// The page a list message shows (one with rows of Done, Snooze, Edit and Delete), read from its
/// page indicator button (labelled `2/5`, see [`render::list_keyboard`]); page 0 for a one-page
/// list; `None` for any other message.
pub(super) fn page_of(message: &Message) -> Option<u32> {
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

/// After a change made from a list, shows the list's page again with the change applied.
pub(super) async fn refresh(
    ctx: &Ctx,
    turn: &Turn,
    message_id: MessageId,
    page: Option<u32>,
) -> Result<(), BotError> {
    match page {
        Some(page) => show(ctx, turn, page, Some(message_id)).await,
        None => Ok(()),
    }
}
