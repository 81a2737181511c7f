//! Admin commands in the chat: /failed (a page of failed reminders with Retry and Cancel buttons),
//! /retry <id> | all, /stats, and those buttons. They are a dptree branch of their own
//! ([`commands`], [`taps`]) in front of the chat's handlers, guarded once ([`is_admin_here`]):
//! only users listed in ADMIN_CHAT_IDS, and only in their private chat with the bot (in a group
//! the answers would show other users' reminders to everyone there). Anyone else falls through
//! to the chat's handlers, where the commands are unknown and the buttons stale.

use pgqueue::JobId;
use std::sync::Arc;

use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup};

use super::context::{Ctx, Turn, begin, user_id};
use super::replies::Toast;
use crate::admin::actions::{self, ActionResult};
use crate::admin::failed::{self, FailedFilter};
use crate::admin::stats;
use crate::bot::BotError;
use crate::bot::commands::{self, Command, Input};
use crate::bot::render::{self, Reply};
use crate::callback::Action;
use crate::domain::lang::Lang;
use crate::i18n::{Arg, Tr};
use crate::store::types::ErrorClass;

/// Failed reminders per /failed page.
const PAGE_SIZE: i64 = 5;

/// The one admin guard: `user` is listed in ADMIN_CHAT_IDS and writes in their private chat.
fn is_admin_here(ctx: &Ctx, chat: &teloxide::types::Chat, user: &teloxide::types::User) -> bool {
    chat.is_private() && ctx.settings().admin_ids.contains(&user_id(user).0)
}

/// An admin command.
#[derive(Clone, Debug, PartialEq, Eq)]
enum AdminCommand {
    Failed(String),
    Retry(String),
    Stats,
}

/// What an admin button asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AdminTap {
    Retry(JobId),
    Cancel(JobId),
}

/// The branch of message handling that serves admin commands from admins.
pub(crate) fn commands() -> UpdateHandler<BotError> {
    dptree::filter_map(|ctx: Arc<Ctx>, msg: Message| admin_command(&ctx, &msg)).endpoint(on_command)
}

/// The branch of button handling that serves admin buttons tapped by admins.
pub(crate) fn taps() -> UpdateHandler<BotError> {
    dptree::filter_map(|ctx: Arc<Ctx>, query: CallbackQuery| admin_tap(&ctx, &query))
        .endpoint(on_tap)
}

fn admin_command(ctx: &Ctx, msg: &Message) -> Option<AdminCommand> {
    let user = msg.from.as_ref()?;
    if !is_admin_here(ctx, &msg.chat, user) {
        return None;
    }
    match commands::parse(msg.text()?, &ctx.shared().username) {
        Input::Command(Command::Failed(args)) => Some(AdminCommand::Failed(args)),
        Input::Command(Command::Retry(args)) => Some(AdminCommand::Retry(args)),
        Input::Command(Command::Stats) => Some(AdminCommand::Stats),
        _ => None,
    }
}

fn admin_tap(ctx: &Ctx, query: &CallbackQuery) -> Option<AdminTap> {
    let message = query.message.as_ref()?;
    if !is_admin_here(ctx, message.chat(), &query.from) {
        return None;
    }
    match Action::decode(query.data.as_deref()?)? {
        Action::AdminRetry { job_id } => Some(AdminTap::Retry(job_id)),
        Action::AdminCancel { job_id } => Some(AdminTap::Cancel(job_id)),
        _ => None,
    }
}

#[tracing::instrument(skip_all, fields(chat_id = msg.chat.id.0))]
async fn on_command(ctx: Arc<Ctx>, msg: Message, command: AdminCommand) -> Result<(), BotError> {
    let Some(user) = msg.from.as_ref() else {
        return Ok(());
    };
    let turn = begin(&ctx, &msg.chat, user).await?;
    match command {
        AdminCommand::Failed(args) => failed(&ctx, &turn, &args).await,
        AdminCommand::Retry(args) => retry(&ctx, &turn, &args).await,
        AdminCommand::Stats => stats(&ctx, &turn).await,
    }
}

#[tracing::instrument(skip_all)]
async fn on_tap(ctx: Arc<Ctx>, query: CallbackQuery, tap: AdminTap) -> Result<(), BotError> {
    let (toast, tr) = tapped(&ctx, &query, tap).await?;
    let text = toast.text(tr).map(|text| render::shorten(&text, 200));
    ctx.answer_tap(query.id.clone(), text);
    Ok(())
}

/// Retries or cancels the job of an admin button; returns the notice and its language.
async fn tapped(ctx: &Ctx, query: &CallbackQuery, tap: AdminTap) -> Result<(Toast, Tr), BotError> {
    let Some(message) = query.message.as_ref() else {
        return Ok((Toast::Key("stale-button"), Tr::new(Lang::En)));
    };
    let turn = begin(ctx, message.chat(), &query.from).await?;
    // The update's own transaction: see [`actions::retry_in`].
    let mut db = ctx.db().await;
    let toast = match tap {
        AdminTap::Retry(job_id) => {
            match actions::retry_in(&mut db, ctx.queue(), &actor(&turn), job_id).await? {
                ActionResult::Retried(_) => Toast::Key("admin-toast-retried"),
                _ => Toast::Key("admin-toast-not-failed"),
            }
        }
        AdminTap::Cancel(job_id) => {
            match actions::cancel_in(&mut db, ctx.queue(), &actor(&turn), job_id).await? {
                ActionResult::Cancelled(_) => Toast::Key("admin-toast-cancelled"),
                _ => Toast::Key("admin-toast-not-failed"),
            }
        }
    };
    Ok((toast, turn.tr))
}

/// How an admin's actions are recorded.
fn actor(turn: &Turn) -> String {
    format!("bot:{}", turn.user_id)
}

/// /failed [page]: the failed reminders, newest first, each with its reason and buttons.
async fn failed(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let page = args
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|p| *p >= 1)
        .unwrap_or(1);
    let filter = FailedFilter {
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE,
        ..FailedFilter::default()
    };
    let pool = &ctx.shared().deps.pool;
    let jobs = failed::list(pool, &filter).await?;
    let total = failed::count(pool).await?;
    let tr = turn.tr;
    if jobs.is_empty() {
        return ctx.send_lines(turn, &[tr.t("admin-no-failed")]).await;
    }
    let title = tr.t_with(
        "admin-failed-title",
        &[("total", Arg::Number(total)), ("page", Arg::Number(page))],
    );
    let mut lines = Vec::new();
    let mut rows = Vec::new();
    for job in &jobs {
        let task = job
            .task_text
            .as_deref()
            .or(job.user_sent.as_deref())
            .map(|text| render::shorten(text, 80))
            .unwrap_or_else(|| job.queue.clone());
        lines.push(tr.t_with(
            "admin-failed-item",
            &[
                ("job", Arg::Number(job.job_id.0)),
                ("task", Arg::Text(&task)),
                ("chat", Arg::Number(job.chat_id.unwrap_or_default())),
                ("attempts", Arg::Number(i64::from(job.attempts))),
            ],
        ));
        let reason = render::shorten(job.last_error.as_deref().unwrap_or("-"), 200);
        let class = job.class.map_or("-", ErrorClass::as_str);
        lines.push(tr.t_with(
            "admin-failed-reason",
            &[("class", Arg::Text(class)), ("reason", Arg::Text(&reason))],
        ));
        rows.push(vec![
            InlineKeyboardButton::callback(
                format!("{} #{}", tr.t("admin-button-retry"), job.job_id),
                Action::AdminRetry { job_id: job.job_id }.encode(),
            ),
            InlineKeyboardButton::callback(
                format!("{} #{}", tr.t("admin-button-cancel"), job.job_id),
                Action::AdminCancel { job_id: job.job_id }.encode(),
            ),
        ]);
    }
    if page * PAGE_SIZE < total {
        lines.push(tr.t_with("admin-failed-next", &[("page", Arg::Number(page + 1))]));
    }
    let text = render::notice(Some(&title), &lines)?;
    let reply = Reply::text(text).with_keyboard(InlineKeyboardMarkup::new(rows));
    ctx.send(turn.chat_id, reply).await
}

/// /retry <id> or /retry all.
async fn retry(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    let argument = args.trim();
    let all = argument.eq_ignore_ascii_case("all");
    let id = argument
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .map(JobId);
    if !all && id.is_none() {
        return ctx.send_lines(turn, &[tr.t("admin-retry-usage")]).await;
    }
    let result = {
        let mut db = ctx.db().await;
        match id {
            Some(id) if !all => actions::retry_in(&mut db, ctx.queue(), &actor(turn), id).await?,
            _ => actions::retry_all_in(&mut db, ctx.queue(), &actor(turn)).await?,
        }
    };
    let line = match result {
        ActionResult::Retried(ids) => {
            tr.t_with("admin-retried", &[("count", Arg::Number(ids.len() as i64))])
        }
        ActionResult::NotFound(id) | ActionResult::Cancelled(id) => {
            tr.t_with("admin-not-failed", &[("job", Arg::Number(id.0))])
        }
    };
    ctx.send_lines(turn, &[line]).await
}

/// /stats: jobs per state, the oldest due job, and the last hour.
async fn stats(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    let stats = stats::read(&ctx.shared().deps.pool).await?;
    let mut lines: Vec<String> = stats
        .states
        .iter()
        .map(|(state, count)| format!("{state}: {count}"))
        .collect();
    if let Some(oldest) = &stats.oldest_due {
        lines.push(tr.t_with(
            "admin-stats-oldest",
            &[
                ("job", Arg::Number(oldest.job_id.0)),
                ("secs", Arg::Number(oldest.waiting_secs.round() as i64)),
            ],
        ));
    }
    lines.push(tr.t_with(
        "admin-stats-hour",
        &[
            ("sent", Arg::Number(stats.sent_last_hour)),
            ("failed", Arg::Number(stats.failed_last_hour)),
            ("retried", Arg::Number(stats.retried_last_hour)),
            ("limited", Arg::Number(stats.too_many_requests_last_hour)),
        ],
    ));
    let seconds = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |s| format!("{s:.2} s"));
    let (p50, p99) = (
        seconds(stats.lateness_p50_secs),
        seconds(stats.lateness_p99_secs),
    );
    lines.push(tr.t_with(
        "admin-stats-lateness",
        &[("p50", Arg::Text(&p50)), ("p99", Arg::Text(&p99))],
    ));
    let text = render::notice(Some(&tr.t("admin-stats-title")), &lines)?;
    ctx.send(turn.chat_id, Reply::text(text)).await
}
