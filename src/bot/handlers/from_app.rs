//! The Mini App's changes, made by the chat's own handlers: a request of the app is one turn of
//! the user in their private chat ([`AppTurn`]), in one transaction, and what the chat would say
//! (a new task's card, "Done", "Snoozed until …", a changed card, the buttons taken off a card
//! that no longer holds) goes to the chat through the outbox in that same transaction. A refusal
//! is handed back as a [`Problem`] (what the chat would say, unsaid) and nothing is committed.

use std::sync::Arc;

use chrono::{DateTime, NaiveTime, Utc};
use chrono_tz::Tz;
use sqlx::PgConnection;
use teloxide::Bot;
use tokio::sync::MappedMutexGuard;

use super::context::{Ctx, Effects, Turn};
use super::create::{self, Refused};
use super::replies::{due_problem_text, text_problem_text};
use super::task_extras::{TaskExtras, split_nag};
use super::undo as undo_handler;
use super::{agenda, edit, finish, language, settings, snooze, zone};
use crate::bot::limits::{RateVerdict, UserLimits};
use crate::bot::{BotDeps, BotError, assumed, group_admins::GroupAdmins};
use crate::domain::due::{DueError, ParsedDue, parse_due, parse_edit};
use crate::domain::ids::{ChatId, TaskId, UserId};
use crate::domain::lang::Lang;
use crate::domain::lead::{Lead, LeadError};
use crate::domain::timezone::{parse_zone, zone_at};
use crate::i18n::{Arg, Tr};
use crate::store::chats::{self, Chat};
use crate::store::occurrences;
use crate::store::outbox;
use crate::store::tasks::{self, Task, TaskChange, TaskText, TaskVersion};
use crate::store::types::ChatKind;
use crate::store::undo::{self, Change};

pub(crate) use super::context::Shared;
pub(crate) use super::undo::Undone;

/// The parts of the chat's handlers the Mini App's requests share (the bot's own name and id
/// are not needed: the app reads no commands).
pub(crate) fn shared(bot: Bot, deps: BotDeps) -> Arc<Shared> {
    let limits = UserLimits::new(deps.settings.user_updates_per_minute);
    Arc::new(Shared {
        bot,
        username: String::new(),
        bot_id: teloxide::types::UserId(0),
        deps,
        limits,
        admins: GroupAdmins::default(),
    })
}

/// Counts a request of `user` against their rate, as a message of theirs counts (in a
/// transaction of its own, so that a refused request is counted too).
pub(crate) async fn check_rate(shared: &Shared, user: UserId) -> Result<RateVerdict, BotError> {
    let mut tx = shared.deps.pool.begin().await?;
    let verdict = shared.limits.check(&mut tx, user).await?;
    tx.commit().await?;
    Ok(verdict)
}

/// What was wrong with a request, as the chat says it: the problem and an example that works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// What was wrong.
    pub message: String,
    /// An example that works, if there is one.
    pub example: Option<String>,
}

impl Problem {
    /// The problem `message` with the example of key `example_key`.
    fn with_example(tr: Tr, message: String, example_key: &str) -> Self {
        Self {
            message,
            example: Some(tr.t(example_key)),
        }
    }

    /// The string `key` alone.
    fn key(tr: Tr, key: &str) -> Self {
        Self {
            message: tr.t(key),
            example: None,
        }
    }
}

/// What a task text would create, as read by the chat's parser.
#[derive(Debug)]
pub(crate) struct Preview {
    /// The parse: the text, the due time, the repeat, the lead.
    pub parsed: ParsedDue,
    /// "Until done" and the like.
    pub extras: TaskExtras,
    /// What the parser assumed, in the words of the chat's confirmation.
    pub assumed: Vec<String>,
    /// The zone it was read in.
    pub zone: Tz,
}

/// A change of a task from the app: each part given replaces that part.
#[derive(Clone, Debug, Default)]
pub(crate) struct AppEdit {
    /// A new text.
    pub text: Option<String>,
    /// A new time, read as the chat reads the answer to Edit.
    pub when: Option<String>,
    /// A new repeat, read likewise (with `when`, if given); empty makes the task one-off.
    pub repeat: Option<String>,
    /// A new lead, in minutes.
    pub lead_minutes: Option<i64>,
}

/// The lead of `minutes` the app asks for, or why not in `tr`'s words (with `example_key`):
/// negative, or longer than [`Lead::MAX`].
fn lead_of(tr: Tr, minutes: i64, example_key: &str) -> Result<Lead, Problem> {
    Lead::from_secs(minutes.saturating_mul(60)).map_err(|error| match error {
        LeadError::Negative => Problem::key(tr, "app-err-lead-negative"),
        LeadError::TooLong { max_days } => Problem::with_example(
            tr,
            tr.t_with(
                "err-lead-too-long",
                &[("days", Arg::Number(i64::from(max_days)))],
            ),
            example_key,
        ),
    })
}

/// One request of the app: the user's turn in their private chat, in one transaction.
pub(crate) struct AppTurn {
    ctx: Ctx,
    turn: Turn,
}

impl AppTurn {
    /// Starts a request of `user` (their Telegram language `language_code` for a chat the bot
    /// does not know yet).
    pub async fn begin(
        shared: Arc<Shared>,
        user: UserId,
        language_code: Option<&str>,
    ) -> Result<Self, BotError> {
        let tx = shared.deps.pool.begin().await?;
        let ctx = Ctx::new(shared, tx);
        let lang = Lang::from_code(language_code.unwrap_or(""));
        let chat_id = ChatId(user.0);
        let chat = chats::upsert(&mut *ctx.db().await, chat_id, ChatKind::Private, lang).await?;
        let turn = Turn {
            chat_id,
            user_id: user,
            tr: Tr::new(chat.lang),
            chat,
        };
        Ok(Self { ctx, turn })
    }

    /// The chat's language.
    pub fn tr(&self) -> Tr {
        self.turn.tr
    }

    /// The chat's settings as the request began.
    pub fn chat(&self) -> &Chat {
        &self.turn.chat
    }

    /// The private chat's id.
    pub fn chat_id(&self) -> ChatId {
        self.turn.chat_id
    }

    /// The request's transaction.
    pub async fn db(&self) -> MappedMutexGuard<'_, PgConnection> {
        self.ctx.db().await
    }

    /// Commits the request with the messages the chat gets for it.
    pub async fn commit(self) -> Result<(), BotError> {
        let queue = self.ctx.queue().clone();
        let (mut tx, Effects { outgoing, .. }) = self.ctx.finish()?;
        for message in &outgoing {
            outbox::enqueue(&mut tx, &queue, message).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Reads `text` as a new task, as the chat would.
    pub fn preview(&self, text: &str, now: DateTime<Utc>) -> Result<Preview, Problem> {
        let tr = self.turn.tr;
        let Some(zone) = self.turn.zone() else {
            return Err(Problem::key(tr, "app-err-no-zone"));
        };
        let (phrase, extras) = split_nag(tr, text)
            .map_err(|(problem, example)| Problem::with_example(tr, problem, example))?;
        let parsed = parse_due(&phrase, tr.lang(), now, zone).map_err(|error| {
            let (problem, example) = due_problem_text(tr, zone, now, &error);
            Problem::with_example(tr, problem, example)
        })?;
        if let Err(error) = TaskText::parse(&parsed.text) {
            let (problem, example) = text_problem_text(tr, error);
            return Err(Problem::with_example(tr, problem, example));
        }
        let assumed = assumed::notes_of(tr, zone, now, &parsed);
        Ok(Preview {
            parsed,
            extras,
            assumed,
            zone,
        })
    }

    /// Creates a task from `text` as a message in the chat would, with the chat's card of it;
    /// a text with two times ("every day at 9 and 21 pills") makes two, as the chat does, and
    /// the first is returned (a refusal of the second is said in the chat).
    pub async fn create(&self, text: &str) -> Result<Result<TaskId, Problem>, BotError> {
        let preview = match self.preview(text, Utc::now()) {
            Ok(preview) => preview,
            Err(problem) => return Ok(Err(problem)),
        };
        let (first, second) = preview.parsed.split();
        let created =
            create::create_confirmed(&self.ctx, &self.turn, preview.zone, &first, &preview.extras)
                .await?;
        if created.is_ok()
            && let Some(second) = second
            && let Err(refused) = create::create_confirmed(
                &self.ctx,
                &self.turn,
                preview.zone,
                &second,
                &preview.extras,
            )
            .await?
        {
            create::tell_refused(&self.ctx, &self.turn, refused).await?;
        }
        let tr = self.turn.tr;
        Ok(created
            .map(|saved| saved.task.id)
            .map_err(|refused| match refused {
                Refused::Text(error) => {
                    let (problem, example) = text_problem_text(tr, error);
                    Problem::with_example(tr, problem, example)
                }
                Refused::TooMany(max) => Problem {
                    message: tr.t_with("too-many-tasks", &[("max", Arg::Number(max))]),
                    example: None,
                },
            }))
    }

    /// Done, as the Done button does; returns the id of its Undo.
    pub async fn finish(&self, task_id: TaskId) -> Result<Option<i64>, BotError> {
        finish::finish(&self.ctx, &self.turn, task_id, None).await?;
        self.undo_of(task_id).await
    }

    /// Delete, as the Delete button does; returns the id of its Undo.
    pub async fn delete(&self, task_id: TaskId) -> Result<Option<i64>, BotError> {
        finish::delete(&self.ctx, &self.turn, task_id).await?;
        self.undo_of(task_id).await
    }

    /// Snoozes `task` until `fire_at`, as the Snooze buttons do. The app's Undo of it (the chat
    /// has none) puts the task's reminders back as they were: it is recorded as an edit that
    /// changed nothing but them.
    pub async fn snooze(&self, task: &Task, fire_at: DateTime<Utc>) -> Result<i64, BotError> {
        let before = {
            let mut conn = self.ctx.db().await;
            TaskVersion {
                occurrence: Some(occurrences::current(&mut conn, task).await?.index),
                ..task.version()
            }
        };
        snooze::snooze(&self.ctx, &self.turn, task.id, fire_at, task.zone).await?;
        let mut conn = self.ctx.db().await;
        Ok(undo::record(&mut conn, task.id, Change::Edit, Some(&before)).await?)
    }

    /// Takes back the change recorded as `undo_id`, as its Undo button does.
    pub async fn undo(&self, undo_id: i64) -> Result<Undone, BotError> {
        undo_handler::apply(&self.ctx, &self.turn, undo_id, None).await
    }

    /// Changes `task` as [`AppEdit`] says, as the answer to Edit does (the chat gets the changed
    /// card with its Undo).
    pub async fn edit(
        &self,
        task: &Task,
        change: &AppEdit,
    ) -> Result<Result<(), Problem>, BotError> {
        let tr = self.turn.tr;
        let now = Utc::now();
        let text = match change.text.as_deref().map(TaskText::parse).transpose() {
            Ok(text) => text,
            Err(error) => {
                let (problem, example) = text_problem_text(tr, error);
                return Ok(Err(Problem::with_example(tr, problem, example)));
            }
        };
        let lead = match change.lead_minutes {
            None => task.lead,
            Some(minutes) => match lead_of(tr, minutes, "lead-example") {
                Ok(lead) => lead,
                Err(problem) => return Ok(Err(problem)),
            },
        };
        let words: Vec<&str> = [change.when.as_deref(), change.repeat.as_deref()]
            .into_iter()
            .flatten()
            .map(str::trim)
            .filter(|words| !words.is_empty())
            .collect();
        let one_off = change
            .repeat
            .as_deref()
            .is_some_and(|r| r.trim().is_empty());
        if words.is_empty() && !one_off && change.lead_minutes.is_none() {
            return match text {
                Some(text) => {
                    edit::rename(&self.ctx, &self.turn, task, &text).await?;
                    Ok(Ok(()))
                }
                None => Ok(Err(Problem::key(tr, "app-err-nothing"))),
            };
        }
        let (due_at, recurrence, notes) = if words.is_empty() {
            let recurrence = if one_off { None } else { task.recurrence };
            (task.due_at, recurrence, Vec::new())
        } else {
            let answer = words.join(" ");
            let parsed = match parse_edit(&answer, tr.lang(), now, task.zone) {
                Ok(parsed) if parsed.text.is_none() => parsed,
                Ok(_) | Err(DueError::NoTime) => {
                    let problem = tr.t_with("app-err-when", &[("words", Arg::Text(&answer))]);
                    return Ok(Err(Problem::with_example(tr, problem, "edit-example")));
                }
                Err(error) => {
                    let (problem, example) = due_problem_text(tr, task.zone, now, &error);
                    return Ok(Err(Problem::with_example(tr, problem, example)));
                }
            };
            let schedule = match edit::new_schedule(task, &parsed, now) {
                Ok(schedule) => schedule,
                Err(error) => {
                    let (problem, example) = due_problem_text(tr, task.zone, now, &error);
                    return Ok(Err(Problem::with_example(tr, problem, example)));
                }
            };
            let recurrence = if one_off { None } else { schedule.recurrence };
            let zone = self.turn.zone().unwrap_or(task.zone);
            let notes = assumed::notes(tr, zone, now, &schedule.assumptions, &parsed.unplaced);
            (schedule.due_at, recurrence, notes)
        };
        let change = TaskChange {
            text,
            due_at,
            lead,
            recurrence,
        };
        let changed = {
            let mut conn = self.ctx.db().await;
            let queue = self.ctx.queue().clone();
            tasks::reschedule(&mut conn, &queue, self.turn.chat_id, task.id, &change).await?
        };
        edit::confirm(&self.ctx, &self.turn, task, changed, &notes).await?;
        Ok(Ok(()))
    }

    /// Sets the chat's zone, as the zone buttons do (a task waiting for it is created); what the
    /// request does after it (the agenda) is in that zone.
    pub async fn set_zone(&mut self, name: &str) -> Result<Result<(), Problem>, BotError> {
        let Ok(zone) = parse_zone(name) else {
            return Ok(Err(Problem::with_example(
                self.turn.tr,
                self.turn.tr.t("tz-unknown"),
                "tz-example",
            )));
        };
        self.zone_chosen(zone).await?;
        Ok(Ok(()))
    }

    /// Sets the chat's zone to the zone of the place at `latitude`, `longitude` (found offline),
    /// as a location shared in the chat does, with the same confirmation (a task waiting for it
    /// is created); a point that is no place on Earth is refused with the chat's words. What the
    /// request does after it (the agenda) is in that zone.
    pub async fn set_location(
        &mut self,
        latitude: f64,
        longitude: f64,
    ) -> Result<Result<(), Problem>, BotError> {
        let tr = self.turn.tr;
        let zone = match zone_at(latitude, longitude) {
            Ok(zone) => zone,
            Err(error) => {
                tracing::info!(%error, "a location outside the map");
                return Ok(Err(Problem::with_example(
                    tr,
                    tr.t("tz-location-bad"),
                    "tz-example",
                )));
            }
        };
        self.zone_chosen(zone).await?;
        Ok(Ok(()))
    }

    /// Sets the chat's zone (a task waiting for it is created), and keeps it for the rest of the
    /// request.
    async fn zone_chosen(&mut self, zone: Tz) -> Result<(), BotError> {
        let chosen = zone::tapped(&self.ctx, &self.turn, zone).await?;
        self.turn.chat.zone = Some(chosen.zone);
        create::after_zone(&self.ctx, &self.turn, chosen).await
    }

    /// Sets the chat's language, as the language buttons do; what the request says after it (in
    /// the chat and in its answer) is in that language.
    pub async fn set_lang(&mut self, lang: Lang) -> Result<(), BotError> {
        language::set(&self.ctx, self.turn.chat_id, lang).await?;
        self.turn.tr = Tr::new(lang);
        Ok(())
    }

    /// Sets the chat's default lead, as `/settings <minutes>` does.
    pub async fn set_lead(&self, minutes: i64) -> Result<Result<(), Problem>, BotError> {
        if let Err(problem) = lead_of(self.turn.tr, minutes, "settings-example") {
            return Ok(Err(problem));
        }
        settings::command(&self.ctx, &self.turn, &minutes.to_string()).await?;
        Ok(Ok(()))
    }

    /// Sets the morning agenda to `time` (`None`: off), as `/agenda` does.
    pub async fn set_agenda(
        &self,
        time: Option<NaiveTime>,
    ) -> Result<Result<(), Problem>, BotError> {
        if time.is_some() && self.turn.zone().is_none() {
            return Ok(Err(Problem::key(self.turn.tr, "app-err-no-zone")));
        }
        let args = time.map_or_else(|| "off".to_owned(), |t| t.format("%H:%M").to_string());
        agenda::command(&self.ctx, &self.turn, &args).await?;
        Ok(Ok(()))
    }

    /// The id of the task's Undo, if it has one not used yet.
    async fn undo_of(&self, task_id: TaskId) -> Result<Option<i64>, BotError> {
        Ok(undo::of_task(&mut *self.ctx.db().await, task_id).await?)
    }
}
