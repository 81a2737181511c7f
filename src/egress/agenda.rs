//! The morning agenda through the egress worker: it reads the agenda, skips a job that is no
//! longer the agenda's own or whose day is over (or whose chat changed its zone: the next one is
//! scheduled in the new zone), waits its turn under the shared budget, sends the day's tasks,
//! and records the send with the next day's job in one transaction ([`agenda::sent`]).

use askama::Template;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use teloxide::prelude::*;
use teloxide::types::ParseMode;

use super::after_failure::KindSteps;
use super::classify::classify;
use super::metrics;
use super::pacing::Recipient;
use super::worker::{Egress, database_retry};
use crate::domain::ids;
use crate::domain::timezone::to_local;
use crate::i18n::dates::Dates;
use crate::i18n::{Arg, Tr};
use crate::store::StoreError;
use crate::store::agenda::{self, AgendaJob, DueAgenda};
use crate::store::tasks::Task;
use pgqueue::{ClaimedJob, Outcome};

/// The longest task text an agenda line shows, in characters.
const LINE_TEXT_CHARS: usize = 100;

struct Item {
    time: String,
    text: String,
    repeats: bool,
}

#[derive(Template)]
#[template(path = "agenda.html")]
struct AgendaHtml<'a> {
    title: String,
    items: &'a [Item],
    empty: String,
    more: Option<String>,
}

/// The agenda of the local day of `day` in `zone`: `tasks` (the first of `total` due that day),
/// their times on the zone's clock; a short note when there are none. Telegram HTML, escaped.
pub fn agenda_html(tr: Tr, zone: Tz, day: DateTime<Utc>, tasks: &[Task], total: i64) -> String {
    let items: Vec<Item> = tasks
        .iter()
        .map(|task| Item {
            time: to_local(zone, task.due_at).format("%H:%M").to_string(),
            text: crate::text::shorten(&task.text, LINE_TEXT_CHARS),
            repeats: task.recurs(),
        })
        .collect();
    let shown = i64::try_from(items.len()).unwrap_or(i64::MAX);
    let day_words = Dates::new(tr, zone, day).day(day);
    AgendaHtml {
        title: tr.t_with("agenda-title", &[("day", Arg::Text(&day_words))]),
        items: &items,
        empty: tr.t("agenda-empty"),
        more: (total > shown)
            .then(|| tr.t_with("agenda-more", &[("count", Arg::Number(total - shown))])),
    }
    .render()
    .expect("the agenda template renders from plain strings")
}

impl Egress {
    /// Sends the agenda of `job` and says what became of the job.
    pub(super) async fn agenda(&self, job: &ClaimedJob, payload: AgendaJob) -> Outcome {
        let pool = self.queue.pool();
        let due = match agenda::load(pool, payload.agenda_id).await {
            Ok(Some(due)) if due.agenda.job_id == Some(job.id) => due,
            // Turned off, or set anew (which scheduled a job of its own).
            Ok(_) => return Outcome::Cancel,
            Err(error) => return database_retry(format!("reading the agenda: {error}")),
        };
        tracing::Span::current().record("chat_id", due.chat.chat_id.0);
        if due.agenda.sent_for >= Some(payload.agenda_at) {
            metrics::already_sent();
            return Outcome::Done;
        }
        let zone = due.zone();
        let (_, day_end) = agenda::day_of(payload.agenda_at, zone);
        if zone != due.agenda.zone || Utc::now() >= day_end {
            tracing::info!("the agenda's day is over or its zone changed; scheduling the next");
            return match agenda::skip(pool, &self.queue, job, payload).await {
                Ok(()) => Outcome::Recorded,
                Err(error) => database_retry(format!("skipping the agenda: {error}")),
            };
        }
        let to = Recipient::new(due.chat.chat_id, due.chat.kind.is_group());
        if let Some(outcome) = self.turn(job, to, true).await {
            return outcome;
        }
        let html = match self.agenda_text(&due, payload.agenda_at).await {
            Ok(html) => html,
            Err(error) => return database_retry(format!("reading the day's tasks: {error}")),
        };
        let request = self
            .bot
            .send_message(ChatId(to.chat_id.0), html)
            .parse_mode(ParseMode::Html);
        let sent = self.timed(request).await;
        let send = AgendaSend {
            chat_id: due.chat.chat_id,
            payload,
        };
        match sent {
            Ok(_) => self.record_agenda(job, payload).await,
            Err(error) => self.after_failure(job, &send, to, classify(&error)).await,
        }
    }

    /// The day's tasks, rendered in the chat's language and zone.
    async fn agenda_text(&self, due: &DueAgenda, at: DateTime<Utc>) -> Result<String, StoreError> {
        let zone = due.zone();
        let (from, to) = agenda::day_of(at, zone);
        let (tasks, total) =
            agenda::day_tasks(self.queue.pool(), due.chat.chat_id, from, to).await?;
        Ok(agenda_html(Tr::new(due.chat.lang), zone, at, &tasks, total))
    }

    /// Records a sent agenda with the next day's job; a failure to record means the job runs
    /// again (and the agenda may go out twice), so it is logged.
    async fn record_agenda(&self, job: &ClaimedJob, payload: AgendaJob) -> Outcome {
        metrics::message_sent(metrics::Kind::Reminder);
        match agenda::sent(self.queue.pool(), &self.queue, job, payload).await {
            Ok(()) => Outcome::Recorded,
            Err(error) => {
                tracing::error!(%error, "could not record a sent agenda; it may be sent again");
                database_retry(format!("recording the agenda: {error}"))
            }
        }
    }
}

/// An agenda on its way to a chat.
struct AgendaSend {
    /// The chat.
    chat_id: ids::ChatId,
    /// The job's payload.
    payload: AgendaJob,
}

/// An agenda counts an unreadable success as sent (recording it with the next day's job); after
/// a migration the agenda moves with the chat and is sent again, to the supergroup.
impl KindSteps for AgendaSend {
    fn chat_id(&self) -> ids::ChatId {
        self.chat_id
    }

    async fn count_as_sent(&self, egress: &Egress, job: &ClaimedJob) -> Outcome {
        egress.record_agenda(job, self.payload).await
    }

    async fn follow_migration(
        &self,
        egress: &Egress,
        _: &ClaimedJob,
        new_chat_id: ids::ChatId,
    ) -> Outcome {
        match agenda::move_chat(egress.queue.pool(), self.chat_id, new_chat_id).await {
            Ok(()) => Outcome::Snooze(std::time::Duration::ZERO),
            Err(error) => database_retry(format!("moving the agenda: {error}")),
        }
    }
}
