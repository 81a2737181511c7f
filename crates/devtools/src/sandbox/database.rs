//! Where the sandbox keeps its data: DATABASE_URL when it is set, else a database of its own
//! (`remindbot_sandbox`) on the private cluster, apart from the one `remindbot run` uses, so that
//! simulated chats never mix with real ones. It is kept between runs unless asked for a fresh one.

use std::ops::RangeInclusive;

use sqlx::postgres::PgConnectOptions;
use sqlx::{AssertSqlSafe, ConnectOptions, Connection, PgConnection};

use devdb::ClusterError;

use crate::database::DevDatabaseArgs;

/// Why the sandbox cannot use a database.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The private cluster could not be started.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// A statement failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The database holds chats of real users.
    #[error(
        "the database holds {0} chat(s) that are not the sandbox's: it looks like a real bot's, \
         whose reminders the sandbox would send to the simulator; unset DATABASE_URL (the sandbox \
         then uses its own database) or point it at an empty database"
    )]
    NotTheSandboxes(i64),
}

/// The sandbox's database on the private cluster.
pub const SANDBOX_DATABASE: &str = "remindbot_sandbox";

/// PostgreSQL's code for "database already exists" (a concurrent start created it).
const DUPLICATE_DATABASE: &str = "42P04";

/// The URL the sandbox uses: DATABASE_URL as it is, or the sandbox's database on the private
/// cluster (started if needed), emptied first when `fresh`.
pub async fn resolve(db: &DevDatabaseArgs, fresh: bool) -> Result<String, DatabaseError> {
    if let Some(url) = db.explicit_url() {
        return Ok(url.to_owned());
    }
    let cluster_url = db.cluster().ensure_running().await?;
    let server: PgConnectOptions = cluster_url.parse()?;
    let mut admin = server.database("postgres").connect().await?;
    if fresh {
        sqlx::query(AssertSqlSafe(format!(
            "drop database if exists {SANDBOX_DATABASE} with (force)"
        )))
        .execute(&mut admin)
        .await?;
    }
    let exists: bool =
        sqlx::query_scalar("select exists (select 1 from pg_database where datname = $1)")
            .bind(SANDBOX_DATABASE)
            .fetch_one(&mut admin)
            .await?;
    if !exists {
        let created = sqlx::query(AssertSqlSafe(format!("create database {SANDBOX_DATABASE}")))
            .execute(&mut admin)
            .await;
        match created {
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some(DUPLICATE_DATABASE) => {}
            other => {
                other?;
            }
        }
    }
    let base = cluster_url
        .rsplit_once('/')
        .map_or(cluster_url.as_str(), |(base, _)| base);
    Ok(format!("{base}/{SANDBOX_DATABASE}"))
}

/// The id the simulator's first update should have: after every update id the sandbox's database
/// still holds, since a new simulator starts numbering afresh while the database outlives it (the
/// bot skips an update whose id it has stored, as it must for Telegram's redeliveries).
pub async fn first_update_id(url: &str) -> Result<i64, DatabaseError> {
    let mut conn = PgConnection::connect(url).await?;
    let has_updates: bool = sqlx::query_scalar("select to_regclass('updates') is not null")
        .fetch_one(&mut conn)
        .await?;
    let stored: Option<i64> = if has_updates {
        sqlx::query_scalar("select max(update_id) from updates")
            .fetch_one(&mut conn)
            .await?
    } else {
        None
    };
    conn.close().await?;
    Ok(stored.map_or(tgsim::FIRST_UPDATE_ID, |last| {
        (last + 1).max(tgsim::FIRST_UPDATE_ID)
    }))
}

/// Refuses a database with chats whose ids are outside `sandbox_chats`.
pub async fn ensure_sandbox_only(
    url: &str,
    sandbox_chats: RangeInclusive<i64>,
) -> Result<(), DatabaseError> {
    let mut conn = PgConnection::connect(url).await?;
    let has_chats: bool = sqlx::query_scalar("select to_regclass('chats') is not null")
        .fetch_one(&mut conn)
        .await?;
    if !has_chats {
        return Ok(());
    }
    let foreign: i64 =
        sqlx::query_scalar("select count(*) from chats where chat_id not between $1 and $2")
            .bind(sandbox_chats.start())
            .bind(sandbox_chats.end())
            .fetch_one(&mut conn)
            .await?;
    conn.close().await?;
    match foreign {
        0 => Ok(()),
        n => Err(DatabaseError::NotTheSandboxes(n)),
    }
}
