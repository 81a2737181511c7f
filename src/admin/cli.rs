//! `remindbot admin …`: failed reminders, retry, cancel and stats from a terminal or a script.

use clap::Subcommand;
use sqlx::PgPool;

use super::actions::{self, ActionResult};
use super::failed::{self, FailedFilter};
use super::stats;
use crate::store::REMINDER_QUEUE;

/// The admin subcommands.
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// List the failed reminders, newest first.
    Failed {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Only those whose error contains this text.
        #[arg(long)]
        reason: Option<String>,
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
        addr: std::net::SocketAddr,
        /// The token admins sign in with; the page is off without it.
        #[arg(long, env = "ADMIN_TOKEN", hide_env_values = true)]
        admin_token: Option<String>,
    },
}

/// Runs an admin subcommand against `pool`, printing to standard output.
pub async fn run(command: AdminCommand, pool: &PgPool) -> anyhow::Result<()> {
    let actor = format!(
        "cli:{}",
        std::env::var("USER").unwrap_or_else(|_| "unknown".to_owned())
    );
    match command {
        AdminCommand::Failed {
            json,
            reason,
            limit,
        } => {
            let filter = FailedFilter {
                reason,
                limit,
                ..FailedFilter::default()
            };
            let jobs = failed::list(pool, &filter).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&jobs)?);
            } else {
                println!(
                    "{:>8}  {:>8}  {:>14}  {:>3}  {:<20}  error",
                    "job", "task", "chat", "try", "failed at"
                );
                for job in jobs {
                    println!(
                        "{:>8}  {:>8}  {:>14}  {:>3}  {:<20}  {}",
                        job.job_id,
                        job.task_id.map(|id| id.to_string()).unwrap_or_default(),
                        job.chat_id.map(|id| id.to_string()).unwrap_or_default(),
                        job.attempts,
                        job.failed_at
                            .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
                            .unwrap_or_default(),
                        job.last_error.unwrap_or_default()
                    );
                }
            }
        }
        AdminCommand::Retry { id, all } => {
            let result = match id {
                Some(id) if !all => actions::retry(pool, &actor, id).await?,
                _ => actions::retry_all(pool, &actor, REMINDER_QUEUE).await?,
            };
            report(result)?;
        }
        AdminCommand::Cancel { id } => report(actions::cancel(pool, &actor, id).await?)?,
        AdminCommand::Serve { addr, admin_token } => {
            anyhow::ensure!(
                admin_token.as_deref().is_some_and(|t| !t.is_empty()),
                "set ADMIN_TOKEN (or --admin-token): the admin page is off without it"
            );
            let app = super::web::router(pool.clone(), admin_token.as_deref());
            let listener = tokio::net::TcpListener::bind(addr).await?;
            println!("admin page at http://{}/admin", listener.local_addr()?);
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    tokio::signal::ctrl_c().await.ok();
                })
                .await?;
        }
        AdminCommand::Stats { json } => {
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
