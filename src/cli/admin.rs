//! `remindbot admin …`: failed reminders, retry, cancel and stats from a terminal or a script.
//! Actions are recorded with the OS user id that ran them (`cli:<name> uid=<uid>`): the name from
//! `$USER` is only a hint anyone can set.

use pgqueue::JobId;
use std::net::SocketAddr;

use anyhow::Context as _;
use clap::Subcommand;
use sqlx::PgPool;

use crate::admin::actions::{self, ActionResult};
use crate::admin::failed::{self, FailedFilter};
use crate::admin::stats;
use crate::config::AdminArgs;
use crate::store::types::ErrorClass;
use crate::store::{OUTBOX_QUEUE, outbox_queue};
use pgqueue::{Queue, QueueConfig};

/// The admin subcommands.
#[derive(Debug, Subcommand)]
pub enum AdminSubcommand {
    /// List the failed reminders, newest first.
    Failed {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Only those whose error contains this text.
        #[arg(long)]
        reason: Option<String>,
        /// Only those of this kind: unreachable, rejected, transient, flood, database,
        /// bad_payload, unreadable, handler, timeout, lease_expired, worker_lost, panic, error.
        #[arg(long, value_parser = error_class)]
        class: Option<ErrorClass>,
        /// At most this many.
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Return a failed reminder (or all of them) to the queue.
    Retry {
        /// The job id, as `admin failed` shows it.
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        id: Option<i64>,
        /// Every failed reminder.
        #[arg(long)]
        all: bool,
    },
    /// Cancel a reminder job.
    Cancel {
        /// The job id.
        id: i64,
    },
    /// Jobs per state, the oldest due job, and the last hour's figures.
    Stats {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Serve the admin web page alone (`remindbot run` serves it on its HTTP side-car too).
    Serve {
        /// Where to listen.
        #[arg(long, env = "HTTP_ADDR", default_value = "127.0.0.1:9090")]
        addr: SocketAddr,
        /// The token (from ADMIN_TOKEN or a file) and the cookie.
        #[command(flatten)]
        admin: AdminArgs,
        /// The listener's timeouts and connection cap.
        #[command(flatten)]
        limits: crate::http::ListenerLimits,
    },
}

/// Reads `--class`: one of the stored words, or an error that lists them.
fn error_class(word: &str) -> Result<ErrorClass, String> {
    ErrorClass::from_stored(word).ok_or_else(|| {
        let words: Vec<&str> = ErrorClass::STORED.iter().map(|c| c.as_str()).collect();
        format!("not a kind of failure; one of: {}", words.join(", "))
    })
}

/// Runs an admin subcommand against `pool`, printing to standard output.
pub async fn run(command: AdminSubcommand, pool: &PgPool) -> anyhow::Result<()> {
    let reminders = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let actor = actor(os_user_name().as_deref(), os_user_id());
    match command {
        AdminSubcommand::Failed {
            json,
            reason,
            class,
            limit,
        } => {
            let filter = FailedFilter {
                reason,
                class,
                limit,
                ..FailedFilter::default()
            };
            let jobs = failed::list(pool, &filter).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&jobs)?);
            } else {
                println!(
                    "{:>8}  {:>8}  {:>14}  {:>3}  {:<20}  {:<13}  error",
                    "job", "task", "chat", "try", "failed at", "kind"
                );
                for job in jobs {
                    println!(
                        "{:>8}  {:>8}  {:>14}  {:>3}  {:<20}  {:<13}  {}",
                        job.job_id,
                        job.task_id.map(|id| id.to_string()).unwrap_or_default(),
                        job.chat_id.map(|id| id.to_string()).unwrap_or_default(),
                        job.attempts,
                        job.failed_at
                            .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
                            .unwrap_or_default(),
                        job.class.map(ErrorClass::as_str).unwrap_or_default(),
                        job.last_error.unwrap_or_default()
                    );
                }
            }
        }
        AdminSubcommand::Retry { id, all } => {
            let result = match id {
                Some(id) if !all => actions::retry(&reminders, &actor, JobId(id)).await?,
                _ => actions::retry_all(&reminders, &actor).await?,
            };
            report(result)?;
        }
        AdminSubcommand::Cancel { id } => {
            report(actions::cancel(&reminders, &actor, JobId(id)).await?)?
        }
        AdminSubcommand::Serve {
            addr,
            admin,
            limits,
        } => serve(reminders, addr, &admin, limits).await?,
        AdminSubcommand::Stats { json } => {
            let stats = stats::read(pool).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                for (state, count) in &stats.states {
                    println!("{state:<10} {count}");
                }
                if let Some(oldest) = &stats.oldest_due {
                    println!(
                        "oldest due: job {} due {} ({:.0} s ago)",
                        oldest.job_id, oldest.run_at, oldest.waiting_secs
                    );
                }
                println!(
                    "last hour: sent {}, failed {}, retried {}, 429s {}, lateness p50 {} p99 {}",
                    stats.sent_last_hour,
                    stats.failed_last_hour,
                    stats.retried_last_hour,
                    stats.too_many_requests_last_hour,
                    seconds(stats.lateness_p50_secs),
                    seconds(stats.lateness_p99_secs),
                );
            }
        }
    }
    Ok(())
}

/// Serves the admin page alone on `addr` within `limits` until Ctrl-C.
async fn serve(
    reminders: Queue,
    addr: SocketAddr,
    admin: &AdminArgs,
    limits: crate::http::ListenerLimits,
) -> anyhow::Result<()> {
    let settings = admin.web().context(
        "set ADMIN_TOKEN or ADMIN_TOKEN_FILE (--admin-token-file): the admin page is off without \
         a token; make one with `openssl rand -hex 32`",
    )?;
    let app = crate::admin::web::router(reminders, Some(settings));
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("admin page at http://{}/admin", listener.local_addr()?);
    let shutdown = tokio_util::sync::CancellationToken::new();
    let stop = shutdown.clone();
    tokio::spawn(async move {
        tokio::signal::ctrl_c().await.ok();
        stop.cancel();
    });
    crate::http::listener::serve(listener, app, limits, shutdown).await?;
    Ok(())
}

/// Who the audit log records for a CLI action: `cli:<name> uid=<uid>`, the name (a hint) cut to
/// 32 safe characters so it cannot pose as another uid.
fn actor(name: Option<&str>, uid: u32) -> String {
    let name: String = name
        .unwrap_or("unknown")
        .chars()
        .take(32)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("cli:{name} uid={uid}")
}

/// The login name from `$USER` or `$LOGNAME`, when set.
fn os_user_name() -> Option<String> {
    ["USER", "LOGNAME"]
        .into_iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
}

/// The real user id of this process.
fn os_user_id() -> u32 {
    // SAFETY: getuid has no preconditions, cannot fail and touches no memory of ours.
    unsafe { libc::getuid() }
}

fn report(result: ActionResult) -> anyhow::Result<()> {
    match result {
        ActionResult::Retried(ids) => println!("returned {} job(s) to the queue", ids.len()),
        ActionResult::Cancelled(id) => println!("cancelled job {id}"),
        ActionResult::NotFound(id) => anyhow::bail!("job {id} is not in a state that allows this"),
    }
    Ok(())
}

fn seconds(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |s| format!("{s:.3} s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_actor_is_the_uid_with_the_name_as_a_hint() {
        assert_eq!(actor(Some("alice"), 1000), "cli:alice uid=1000");
        assert_eq!(actor(None, 0), "cli:unknown uid=0");
        assert_eq!(actor(Some("root uid=0"), 1000), "cli:root_uid_0 uid=1000");
    }
}
