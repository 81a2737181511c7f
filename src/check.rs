//! `remindbot check`: says in plain words what is wrong before the bot starts, with the settings
//! `remindbot run` would use. It reads and asks, and changes nothing: not the database (no
//! migration is applied), not the webhook.
//!
//! Each finding is one line, `ok`, `warn` or `FAIL`, and the exit code is 1 when any line failed.

use std::fmt;
use std::time::{Duration, Instant};

use chrono::Utc;
use sqlx::migrate::Migrate;
use sqlx::{Connection, PgConnection};
use teloxide::prelude::Requester;
use teloxide::{ApiError, Bot, RequestError};

use crate::bot::BotError;
use crate::bot::intake::IntakeMode;
use crate::config::RunConfig;
use crate::egress::Stars;

/// How far apart the database's clock and this host's may be before the check warns: reminders
/// are due by the database clock, and people read the host's.
const MAX_CLOCK_SKEW: Duration = Duration::from_secs(1);
/// How long any one question may take.
const ASK_TIMEOUT: Duration = Duration::from_secs(10);

/// How one finding came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// As it should be.
    Ok,
    /// Works, but worth a look.
    Warn,
    /// The bot cannot work like this.
    Fail,
}

/// One line of the report.
#[derive(Clone, Debug)]
pub struct Finding {
    /// What was looked at.
    pub topic: &'static str,
    /// How it came out.
    pub verdict: Severity,
    /// What was found, in plain words.
    pub detail: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.verdict {
            Severity::Ok => "ok",
            Severity::Warn => "warn",
            Severity::Fail => "FAIL",
        };
        write!(f, "{verdict:<5} {:<10} {}", self.topic, self.detail)
    }
}

/// The whole report.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every finding, in the order checked.
    pub findings: Vec<Finding>,
}

impl Report {
    fn add(&mut self, topic: &'static str, verdict: Severity, detail: impl Into<String>) {
        self.findings.push(Finding {
            topic,
            verdict,
            detail: detail.into(),
        });
    }

    /// Whether nothing failed (warnings allowed).
    pub fn passed(&self) -> bool {
        self.findings.iter().all(|f| f.verdict != Severity::Fail)
    }
}

/// Checks the token, the webhook, the database (reachable, migrations, clock), the admin page and
/// the limits in force.
pub async fn run(config: &RunConfig) -> Report {
    let mut report = Report::default();
    match crate::app::bot_client(config) {
        Ok(bot) => check_telegram(&bot, config, &mut report).await,
        Err(error) => report.add("token", Severity::Fail, format!("{error:#}")),
    }
    check_database(config, &mut report).await;
    check_admin(config, &mut report);
    check_miniapp(config, &mut report);
    check_limits(config, &mut report);
    report
}

/// getMe (the token), then getWebhookInfo (against the intake mode in force).
async fn check_telegram(bot: &Bot, config: &RunConfig, report: &mut Report) {
    let me = match tokio::time::timeout(ASK_TIMEOUT, bot.get_me()).await {
        Ok(Ok(me)) => me,
        Ok(Err(RequestError::Api(ApiError::InvalidToken))) => {
            report.add(
                "token",
                Severity::Fail,
                "Telegram does not know this token (401 Unauthorized): copy it again from \
                 @BotFather into TELOXIDE_TOKEN",
            );
            return;
        }
        Ok(Err(error)) => {
            let error = BotError::from(error);
            report.add("token", Severity::Fail, format!("getMe failed: {error}"));
            return;
        }
        Err(_) => {
            report.add(
                "token",
                Severity::Fail,
                "Telegram did not answer getMe within 10 s (is the Bot API reachable?)",
            );
            return;
        }
    };
    report.add(
        "token",
        Severity::Ok,
        format!("the bot is @{} (id {})", me.username(), me.id),
    );
    let info = match tokio::time::timeout(ASK_TIMEOUT, bot.get_webhook_info()).await {
        Ok(Ok(info)) => info,
        Ok(Err(error)) => {
            let error = BotError::from(error);
            report.add(
                "webhook",
                Severity::Warn,
                format!("getWebhookInfo failed: {error}"),
            );
            return;
        }
        Err(_) => {
            report.add(
                "webhook",
                Severity::Warn,
                "getWebhookInfo did not answer within 10 s",
            );
            return;
        }
    };
    let pending = info.pending_update_count;
    let last_error = info
        .last_error_message
        .as_deref()
        .map(|message| format!("; Telegram's last delivery error: {message}"))
        .unwrap_or_default();
    match (&config.intake.mode, &info.url) {
        (IntakeMode::Polling, None) => report.add(
            "webhook",
            Severity::Ok,
            format!("none set: the bot long-polls ({pending} updates waiting)"),
        ),
        (IntakeMode::Polling, Some(url)) => report.add(
            "webhook",
            Severity::Warn,
            format!(
                "{} is set but WEBHOOK_URL is not: the bot will remove it and long-poll \
                 ({pending} updates waiting{last_error})",
                url.origin().ascii_serialization()
            ),
        ),
        (IntakeMode::Webhook { url: wanted, .. }, Some(url)) if url == wanted => report.add(
            "webhook",
            if last_error.is_empty() {
                Severity::Ok
            } else {
                Severity::Warn
            },
            format!("set to WEBHOOK_URL ({pending} updates waiting{last_error})"),
        ),
        (IntakeMode::Webhook { .. }, other) => report.add(
            "webhook",
            Severity::Warn,
            format!(
                "Telegram has {} instead of WEBHOOK_URL: the bot will set it when it starts \
                 ({pending} updates waiting)",
                other.as_ref().map_or("no webhook".to_owned(), |url| url
                    .origin()
                    .ascii_serialization())
            ),
        ),
    }
}

/// Reachable, migrations applied (none pending, none newer than this binary), clocks agree.
async fn check_database(config: &RunConfig, report: &mut Report) {
    let url = match config.db.url() {
        Ok(url) => url,
        Err(error) => {
            report.add("database", Severity::Fail, format!("{error:#}"));
            return;
        }
    };
    let connected = tokio::time::timeout(ASK_TIMEOUT, PgConnection::connect(url)).await;
    let mut conn = match connected {
        Ok(Ok(conn)) => conn,
        Ok(Err(error)) => {
            report.add(
                "database",
                Severity::Fail,
                format!("cannot connect to DATABASE_URL: {error}"),
            );
            return;
        }
        Err(_) => {
            report.add(
                "database",
                Severity::Fail,
                "DATABASE_URL did not answer within 10 s",
            );
            return;
        }
    };
    let version = sqlx::query_scalar!(r#"select current_setting('server_version') as "v!""#)
        .fetch_one(&mut conn)
        .await
        .unwrap_or_default();
    report.add(
        "database",
        Severity::Ok,
        format!("reachable (PostgreSQL {version})"),
    );
    check_sessions(url, report).await;
    check_migrations(&mut conn, report).await;
    check_clock(&mut conn, report).await;
    check_vacuum(&mut conn, report).await;
    check_paid_broadcast(config, &mut conn, report).await;
}

/// Paid broadcast: off, on with the budget left today, or stopped by Telegram's refusal.
async fn check_paid_broadcast(config: &RunConfig, conn: &mut PgConnection, report: &mut Report) {
    let Some(settings) = config.paid_broadcast.settings else {
        report.add(
            "paid",
            Severity::Ok,
            "paid broadcast is off: reminders leave at the free rate (PAID_BROADCAST)",
        );
        return;
    };
    let state = match crate::store::paid_broadcast::state(conn).await {
        Ok(state) => state,
        Err(error) => {
            report.add(
                "paid",
                Severity::Warn,
                format!(
                    "paid broadcast is on, but its state cannot be read ({error}): are the \
                     migrations applied?"
                ),
            );
            return;
        }
    };
    let budget = settings.per_day;
    let spent = Stars {
        tenths: state.spent_today_tenths.min(budget.tenths),
    };
    let left = Stars {
        tenths: budget.tenths - spent.tenths,
    };
    let on = format!(
        "paid broadcast is on: reminders later than {} s leave with allow_paid_broadcast, up to \
         1000/s; {spent} of {budget} Stars spent today (UTC), {left} left",
        settings.after.as_secs(),
    );
    match state.refusal {
        Some(refusal) if refusal.current => report.add(
            "paid",
            Severity::Warn,
            format!(
                "{on}; but Telegram refused a paid send at {} ({}): the free rate until {}",
                refusal.at.format("%Y-%m-%d %H:%M:%S UTC"),
                refusal.reason,
                refusal.until.format("%H:%M:%S UTC"),
            ),
        ),
        _ if left.tenths == 0 => report.add(
            "paid",
            Severity::Warn,
            format!("{on}: today's budget is spent, the free rate until midnight UTC"),
        ),
        Some(refusal) => report.add(
            "paid",
            Severity::Ok,
            format!(
                "{on} (Telegram last refused a paid send at {})",
                refusal.at.format("%Y-%m-%d %H:%M:%S UTC")
            ),
        ),
        None => report.add("paid", Severity::Ok, on),
    }
}

/// Whether each connection keeps its session (no pooler in transaction mode in between).
async fn check_sessions(url: &str, report: &mut Report) {
    match tokio::time::timeout(ASK_TIMEOUT, crate::db::pooling::probe(url)).await {
        Ok(Ok(crate::db::pooling::Sessions::Kept)) => report.add(
            "sessions",
            Severity::Ok,
            "each connection keeps its session (PostgreSQL itself, or a pool in session mode)",
        ),
        Ok(Ok(crate::db::pooling::Sessions::SharedBetweenTransactions)) => report.add(
            "sessions",
            Severity::Fail,
            crate::db::DbError::TransactionPooling.to_string(),
        ),
        Ok(Err(error)) => report.add(
            "sessions",
            Severity::Warn,
            format!("could not tell whether connections keep their sessions: {error}"),
        ),
        Err(_) => report.add(
            "sessions",
            Severity::Warn,
            "could not tell within 10 s whether connections keep their sessions",
        ),
    }
}

/// Whether autovacuum runs: every job is written several times and deleted by retention, so
/// without vacuum the queue's table fills with dead rows and its claims slow down (measured by
/// the queue's `soak` benchmark: with it off, 2.5 million dead rows and a fifth of the throughput
/// in 30 minutes; with the server's defaults on, the table stays at 40 MB). Nothing analyzes a
/// growing table either, so statements keep plans made when it was small: the herd benchmark's
/// paid drain of 100,000 reminders took 1,228 s with it off and 283 s with it on.
async fn check_vacuum(conn: &mut PgConnection, report: &mut Report) {
    let on = sqlx::query_scalar!(r#"select current_setting('autovacuum') = 'on' as "on!""#)
        .fetch_one(conn)
        .await;
    match on {
        Ok(true) => report.add("vacuum", Severity::Ok, "autovacuum is on"),
        Ok(false) => report.add(
            "vacuum",
            Severity::Warn,
            "autovacuum is off: the queue's table will fill with dead rows, and statements keep \
             plans made while tables were small, so sending slows down; set autovacuum = on in \
             postgresql.conf (the defaults suffice)",
        ),
        Err(_) => report.add(
            "vacuum",
            Severity::Warn,
            "could not read the autovacuum setting",
        ),
    }
}

/// Compares each migrator's migrations with those the database recorded.
async fn check_migrations(conn: &mut PgConnection, report: &mut Report) {
    let mut pending = Vec::new();
    let mut newer = Vec::new();
    let mut changed = Vec::new();
    for (owner, migrator) in ["queue", "bot"].into_iter().zip(crate::db::migrators()) {
        let applied = conn
            .list_applied_migrations(&migrator.table_name)
            .await
            .unwrap_or_default();
        for migration in migrator
            .iter()
            .filter(|m| m.migration_type.is_up_migration())
        {
            match applied.iter().find(|a| a.version == migration.version) {
                None => pending.push(format!(
                    "{owner} {} {}",
                    migration.version, migration.description
                )),
                Some(a) if a.checksum != migration.checksum => {
                    changed.push(format!("{owner} {}", migration.version));
                }
                Some(_) => {}
            }
        }
        for a in &applied {
            if !migrator.iter().any(|m| m.version == a.version) {
                newer.push(format!("{owner} {}", a.version));
            }
        }
    }
    if !changed.is_empty() {
        report.add(
            "migrations",
            Severity::Fail,
            format!(
                "applied migrations differ from this binary's ({}): the database was migrated \
                 by a different build",
                changed.join(", ")
            ),
        );
    } else if !newer.is_empty() {
        report.add(
            "migrations",
            Severity::Warn,
            format!(
                "the database has migrations newer than this binary ({}): fine while replicas \
                 roll to the newer release, otherwise upgrade this one",
                newer.join(", ")
            ),
        );
    } else if !pending.is_empty() {
        report.add(
            "migrations",
            Severity::Warn,
            format!(
                "{} pending ({}): `remindbot run` applies them when it starts, or run \
                 `remindbot migrate`",
                pending.len(),
                pending.join(", ")
            ),
        );
    } else {
        report.add("migrations", Severity::Ok, "all applied");
    }
}

/// The database clock against this host's, allowing for the round trip.
async fn check_clock(conn: &mut PgConnection, report: &mut Report) {
    let asked = Instant::now();
    let before = Utc::now();
    let Ok(database_now) = sqlx::query_scalar!(r#"select now() as "now!""#)
        .fetch_one(conn)
        .await
    else {
        report.add("clock", Severity::Warn, "could not read the database clock");
        return;
    };
    let round_trip = asked.elapsed();
    let host_now = before + chrono::Duration::from_std(round_trip / 2).unwrap_or_default();
    let skew = (database_now - host_now).abs();
    let skew_ms = skew.num_milliseconds();
    let allowed = chrono::Duration::from_std(MAX_CLOCK_SKEW).unwrap_or_default();
    if skew > allowed {
        report.add(
            "clock",
            Severity::Warn,
            format!(
                "the database clock and this host's differ by {skew_ms} ms: reminders fall due \
                 by the database's; run NTP on both"
            ),
        );
    } else {
        report.add(
            "clock",
            Severity::Ok,
            format!("the database and this host agree within {skew_ms} ms"),
        );
    }
}

/// Whether the admin page is on, and how strong its token looks.
fn check_admin(config: &RunConfig, report: &mut Report) {
    match &config.admin.token {
        None => report.add(
            "admin",
            Severity::Ok,
            "the admin page is off (set ADMIN_TOKEN or ADMIN_TOKEN_FILE to turn it on)",
        ),
        Some(token) => {
            let distinct = token.distinct_characters();
            let cookie = if config.admin.cookie_secure {
                "Secure cookies"
            } else {
                "cookies not marked Secure (set ADMIN_COOKIE_SECURE behind HTTPS)"
            };
            if distinct < 10 {
                report.add(
                    "admin",
                    Severity::Warn,
                    format!(
                        "the admin token uses only {distinct} different characters: make one \
                         with `openssl rand -hex 32`"
                    ),
                );
            } else {
                report.add(
                    "admin",
                    Severity::Ok,
                    format!(
                        "the admin page is on at /admin, with a {}-character token, {cookie}",
                        token.len()
                    ),
                );
            }
        }
    }
}

/// Whether the chat's buttons open the Mini App (off without PUBLIC_URL, and with an http one
/// outside Telegram's test environment).
fn check_miniapp(config: &RunConfig, report: &mut Report) {
    if let Some(reason) = config.bot.miniapp_off_reason() {
        report.add("miniapp", Severity::Warn, reason);
    } else if let Some(url) = config.bot.miniapp_url() {
        report.add(
            "miniapp",
            Severity::Ok,
            format!("the chat's buttons open the Mini App at {}", url.app_url()),
        );
    }
}

/// The limits `remindbot run` would keep to.
fn check_limits(config: &RunConfig, report: &mut Report) {
    let delivery = &config.delivery;
    let per_sec = |rate: u32| {
        if rate == 0 {
            "no limit".to_owned()
        } else {
            rate.to_string()
        }
    };
    let mode = match &config.intake.mode {
        IntakeMode::Polling => "long polling (one replica at a time)".to_owned(),
        IntakeMode::Webhook { url, .. } => {
            format!("webhook at {}", url.origin().ascii_serialization())
        }
    };
    report.add(
        "limits",
        if delivery.rate_per_sec > 30 {
            Severity::Warn
        } else {
            Severity::Ok
        },
        format!(
            "sends: {}/s overall (all replicas), {}/s per chat, {}/min per group; at most {} \
             sends in flight, {} update workers of up to {} updates each; updates by {mode}",
            per_sec(delivery.rate_per_sec),
            per_sec(delivery.rate_per_chat_per_sec),
            per_sec(delivery.rate_per_group_per_min),
            delivery.workers,
            config.intake.update_workers,
            config.intake.update_batch,
        ),
    );
}
