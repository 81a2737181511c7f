//! Closing a question the bot asked: `/cancel` closes whichever is open, the Cancel button under
//! a question closes that question only. Either way the user is told what was dropped and what
//! stays as it was.

use teloxide::types::MessageId;

use super::context::{Ctx, Turn};
use super::replies::Toast;
use crate::bot::BotError;
use crate::bot::render;
use crate::callback::Question;
use crate::domain::ids::UserId;
use crate::i18n::Arg;
use crate::store::conversation::{self, Pending};
use crate::store::outbox::ReplyKeyboard;
use crate::store::quotes::preview;

/// Answers to a question that mean "never mind" in the three languages (Uzbek in both scripts):
/// they close the question like `/cancel` rather than becoming a task's text or time.
const CANCEL_WORDS: &[&str] = &[
    "cancel",
    "never mind",
    "nevermind",
    "stop",
    "отмена",
    "отменить",
    "отмени",
    "стоп",
    "не надо",
    "bekor",
    "bekor qil",
    "bekor qilish",
    "kerak emas",
    "бекор",
    "бекор қилиш",
    "керак эмас",
];

/// Whether an answer to a question only says "cancel" (see [`CANCEL_WORDS`]).
pub(super) fn is_cancel_word(answer: &str) -> bool {
    let folded = crate::domain::fold::fold(answer.trim().trim_end_matches(['.', '!']));
    CANCEL_WORDS.contains(&folded.as_str())
}

/// `/cancel`.
pub(super) async fn command(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let open = conversation::pending(&mut *ctx.db().await, turn.chat_id, turn.user_id).await?;
    conversation::close(
        &mut *ctx.db().await,
        ctx.queue(),
        turn.chat_id,
        turn.user_id,
    )
    .await?;
    say(ctx, turn, open.as_ref()).await
}

/// The Cancel button under the question `question` (message `message_id`), asked of `asker`
/// (`None`: a private chat's, or a group button made before the asker was written). Someone
/// else's question is left as it is: its asker may still answer or cancel it, and the tapper is
/// told it is not theirs. The asker's tap closes it if it is still open and takes the buttons
/// off the question either way.
pub(super) async fn tapped(
    ctx: &Ctx,
    turn: &Turn,
    question: Question,
    asker: Option<UserId>,
    message_id: MessageId,
) -> Result<Toast, BotError> {
    if asker.is_some_and(|asker| asker != turn.user_id) {
        return Ok(Toast::Tapper("cancel-not-yours"));
    }
    let open = conversation::pending(&mut *ctx.db().await, turn.chat_id, turn.user_id).await?;
    let asked = open.filter(|pending| asks(pending, question));
    if asker.is_some() || turn.is_private() || asked.is_some() {
        // Whose question it is is known (or, on an old group button, the tapper has that very
        // question open): its buttons have served.
        ctx.edit(turn.chat_id, message_id, None, None);
    }
    match asked {
        Some(pending) => {
            conversation::close(
                &mut *ctx.db().await,
                ctx.queue(),
                turn.chat_id,
                turn.user_id,
            )
            .await?;
            say(ctx, turn, Some(&pending)).await?;
            Ok(Toast::Key("callback-cancelled"))
        }
        None => Ok(Toast::Key("cancel-nothing")),
    }
}

/// Whether the open question `pending` is `question`.
fn asks(pending: &Pending, question: Question) -> bool {
    match (pending, question) {
        (Pending::NewTaskTime { .. }, Question::NewTaskTime)
        | (Pending::TimeZone { .. }, Question::TimeZone)
        | (Pending::QuoteTime { .. }, Question::QuoteTime) => true,
        (Pending::EditTask { task_id }, Question::EditTask { task_id: asked })
        | (Pending::SnoozeTime { task_id }, Question::SnoozeTime { task_id: asked }) => {
            *task_id == asked
        }
        _ => false,
    }
}

/// Says what closing `closed` (or nothing) means.
async fn say(ctx: &Ctx, turn: &Turn, closed: Option<&Pending>) -> Result<(), BotError> {
    let tr = turn.tr;
    let dropped = |text: &str| {
        let text = render::shorten(text, 200);
        tr.t_with("cancel-dropped", &[("text", Arg::Text(&text))])
    };
    let lines = match closed {
        // Nobody was asked about a time waiting for a forward.
        None | Some(Pending::TimeForForward { .. }) => vec![tr.t("cancel-nothing")],
        Some(Pending::NewTaskTime { text }) => vec![dropped(text)],
        Some(Pending::QuoteTime { quote, .. }) => vec![dropped(&preview(quote))],
        Some(Pending::EditTask { task_id }) => {
            vec![tr.t_with("cancel-edit", &[("id", Arg::Number(task_id.0))])]
        }
        Some(Pending::SnoozeTime { task_id }) => {
            vec![tr.t_with("cancel-snooze", &[("id", Arg::Number(task_id.0))])]
        }
        Some(Pending::TimeZone { text }) => {
            let zone = if turn.zone().is_some() {
                tr.t("cancel-zone")
            } else {
                tr.t("cancel-zone-none")
            };
            text.as_deref()
                .map(dropped)
                .into_iter()
                .chain([zone])
                .collect()
        }
    };
    if matches!(closed, Some(Pending::TimeZone { .. })) && turn.is_private() {
        // The zone question came with a location button in place of the keyboard: it goes too.
        let text = render::notice(None, &lines)?;
        ctx.send_with_reply_keyboard(turn.chat_id, text, ReplyKeyboard::Remove);
        return Ok(());
    }
    ctx.send_lines(turn, &lines).await
}

#[cfg(test)]
mod tests {
    use super::is_cancel_word;

    #[test]
    fn cancel_words_in_every_language_and_nothing_else() {
        for word in [
            "cancel",
            "Cancel!",
            "Отмена",
            "отменить.",
            "bekor",
            "Bekor qilish",
            "Бекор",
        ] {
            assert!(is_cancel_word(word), "{word}");
        }
        for answer in [
            "cancel the gym tomorrow",
            "stop by the shop at 5",
            "завтра",
            "19:00",
        ] {
            assert!(!is_cancel_word(answer), "{answer}");
        }
    }
}
