//! Admin commands in the chat: /failed (a page of failed reminders with Retry and Cancel buttons),
//! /retry <id> | all, /stats. Only users listed in ADMIN_CHAT_IDS get here; the checks are in the
//! command and button dispatch.

use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use super::callbacks::Toast;
use super::{Ctx, Turn};
use crate::admin::actions::{self, ActionResult};
use crate::admin::failed::{self, FailedFilter};
use crate::admin::stats;
use crate::bot::BotError;
use crate::bot::render::{self, Reply};
use crate::callback::Action;
use crate::i18n::Arg;

/// Failed reminders per /failed page.
const PAGE_SIZE: i64 = 5;

fn actor(turn: &Turn) -> String {
    format!("bot:{}", turn.user_id)
}

/// /failed [page]: the failed reminders, newest first, each with its reason and buttons.
pub(super) async fn failed(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let page = args
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|p| *p >= 1)
        .unwrap_or(1);
    let pool = &ctx.deps.pool;
    let filter = FailedFilter {
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE,
        ..FailedFilter::default()
    };
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
            .map(|text| render::shorten(text, 80))
            .unwrap_or_else(|| job.queue.clone());
        lines.push(tr.t_with(
            "admin-failed-item",
            &[
                ("job", Arg::Number(job.job_id)),
                ("task", Arg::Text(&task)),
                ("chat", Arg::Number(job.chat_id.unwrap_or_default())),
                ("attempts", Arg::Number(i64::from(job.attempts))),
            ],
        ));
        let reason = render::shorten(job.last_error.as_deref().unwrap_or("-"), 200);
        lines.push(tr.t_with("admin-failed-reason", &[("reason", Arg::Text(&reason))]));
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
pub(super) async fn retry(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    let argument = args.trim();
    let result = if argument.eq_ignore_ascii_case("all") {
        actions::retry_all(&ctx.deps.queue, &actor(turn)).await?
    } else if let Ok(id) = argument.trim_start_matches('#').parse::<i64>() {
        actions::retry(&ctx.deps.queue, &actor(turn), id).await?
    } else {
        return ctx.send_lines(turn, &[tr.t("admin-retry-usage")]).await;
    };
    let line = match result {
        ActionResult::Retried(ids) => {
            tr.t_with("admin-retried", &[("count", Arg::Number(ids.len() as i64))])
        }
        ActionResult::NotFound(id) | ActionResult::Cancelled(id) => {
            tr.t_with("admin-not-failed", &[("job", Arg::Number(id))])
        }
    };
    ctx.send_lines(turn, &[line]).await
}

/// /stats: jobs per state, the oldest due job, and the last hour.
pub(super) async fn stats(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    let stats = stats::read(&ctx.deps.pool).await?;
    let mut lines: Vec<String> = stats
        .states
        .iter()
        .map(|(state, count)| format!("{state}: {count}"))
        .collect();
    if let Some(oldest) = &stats.oldest_due {
        lines.push(tr.t_with(
            "admin-stats-oldest",
            &[
                ("job", Arg::Number(oldest.job_id)),
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

/// The Retry button under /failed.
pub(super) async fn retry_tapped(ctx: &Ctx, turn: &Turn, job_id: i64) -> Result<Toast, BotError> {
    Ok(
        match actions::retry(&ctx.deps.queue, &actor(turn), job_id).await? {
            ActionResult::Retried(_) => Toast::Key("admin-toast-retried"),
            _ => Toast::Key("admin-toast-not-failed"),
        },
    )
}

/// The Cancel button under /failed.
pub(super) async fn cancel_tapped(ctx: &Ctx, turn: &Turn, job_id: i64) -> Result<Toast, BotError> {
    Ok(
        match actions::cancel(&ctx.deps.queue, &actor(turn), job_id).await? {
            ActionResult::Cancelled(_) => Toast::Key("admin-toast-cancelled"),
            _ => Toast::Key("admin-toast-not-failed"),
        },
    )
}
