//! Fresh, migrated databases on demand: one per test, one per benchmark run.
//!
//! The first call in a server migrates a template database named after the migrations' checksums
//! (the caller's migrators, applied in the order given);
//! every scratch database is then a cheap `CREATE DATABASE … TEMPLATE` copy of it. Concurrent
//! processes serialise the template's creation on an advisory lock taken in the `postgres`
//! database (advisory locks are per database). A scratch database is dropped when its handle is
//! dropped, even when a test panics; once per process, leftovers of killed runs older than an hour
//! and templates of other migrations older than a day are dropped.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, ConnectOptions, Connection, PgConnection, PgPool};

use super::DevDbError as DbError;

/// Prefix of every scratch database's name.
const PREFIX: &str = "remindbot_scratch_";
/// Prefix of every template's name.
const TEMPLATE_PREFIX: &str = "remindbot_template_";
/// Scratch databases older than this are taken for leftovers of killed runs.
const LEFTOVER_AGE_SECS: u64 = 3600;
/// Templates of other migrations older than this are dropped (other checkouts may still use
/// younger ones).
const OLD_TEMPLATE_AGE_SECS: u64 = 24 * 3600;

/// A database that exists for as long as this handle does.
#[derive(Debug)]
pub struct ScratchDatabase {
    name: String,
    server: PgConnectOptions,
    url: String,
}

impl ScratchDatabase {
    /// Creates a fresh database on the server that `server_url` points at (any database there
    /// will do; the role must be allowed to create databases), migrated by `migrators` in order.
    #[tracing::instrument(skip_all)]
    pub async fn create(server_url: &str, migrators: &[&Migrator]) -> Result<Self, DbError> {
        let server: PgConnectOptions = server_url.parse()?;
        let mut admin = connect_maintenance(&server).await?;
        static CLEANED: AtomicBool = AtomicBool::new(false);
        if !CLEANED.swap(true, Ordering::Relaxed) {
            drop_leftovers(&mut admin, migrators).await?;
        }
        let template = ensure_template(&mut admin, &server, migrators).await?;
        let name = new_name();
        sqlx::query(AssertSqlSafe(format!(
            "create database {name} template {template}"
        )))
        .execute(&mut admin)
        .await?;
        admin.close().await?;
        let url = with_database(server_url, &name);
        Ok(Self { name, server, url })
    }

    /// A URL for this database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Opens a pool of at most `max_connections` to this database.
    pub async fn pool(&self, max_connections: u32) -> Result<PgPool, DbError> {
        Ok(PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect(&self.url)
            .await?)
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        let name = std::mem::take(&mut self.name);
        let server = self.server.clone();
        // Drop runs inside async code (and during panics): do the work on a thread of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| DbError::Sql(sqlx::Error::Io(e)))?;
            runtime.block_on(async move {
                let mut admin = server.connect().await?;
                drop_database(&mut admin, &name).await
            })
        })
        .join();
        match dropped {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                tracing::warn!(%error, "a scratch database could not be dropped; a later run will")
            }
            Err(_) => tracing::warn!("dropping a scratch database panicked; a later run will"),
        }
    }
}

/// Makes sure the template for the current migrations exists and returns its name.
async fn ensure_template(
    admin: &mut PgConnection,
    server: &PgConnectOptions,
    migrators: &[&Migrator],
) -> Result<String, DbError> {
    let template = format!(
        "{TEMPLATE_PREFIX}{:016x}",
        migrations_fingerprint(migrators)
    );
    if database_exists(admin, &template).await? {
        return Ok(template);
    }
    // One creator at a time across all processes; the others find it made.
    sqlx::query("select pg_advisory_lock(hashtext('remindbot scratch template'))")
        .execute(&mut *admin)
        .await?;
    let created = create_template(admin, server, &template, migrators).await;
    sqlx::query("select pg_advisory_unlock(hashtext('remindbot scratch template'))")
        .execute(&mut *admin)
        .await?;
    created?;
    Ok(template)
}

async fn create_template(
    admin: &mut PgConnection,
    server: &PgConnectOptions,
    template: &str,
    migrators: &[&Migrator],
) -> Result<(), DbError> {
    if database_exists(admin, template).await? {
        return Ok(());
    }
    // Migrate under a temporary name, then rename: a half-made template is never used.
    let building = format!("{template}_building");
    drop_database(admin, &building).await?;
    sqlx::query(AssertSqlSafe(format!("create database {building}")))
        .execute(&mut *admin)
        .await?;
    let mut conn = server.clone().database(&building).connect().await?;
    for migrator in migrators {
        migrator.run(&mut conn).await?;
    }
    conn.close().await?;
    sqlx::query(AssertSqlSafe(format!(
        "alter database {building} rename to {template}"
    )))
    .execute(&mut *admin)
    .await?;
    // The creation time, so that other checkouts drop it only once it is old.
    sqlx::query(AssertSqlSafe(format!(
        "comment on database {template} is 'created {}'",
        unix_now()
    )))
    .execute(&mut *admin)
    .await?;
    Ok(())
}

/// Drops scratch databases of killed runs and old templates of other migrations.
async fn drop_leftovers(admin: &mut PgConnection, migrators: &[&Migrator]) -> Result<(), DbError> {
    let databases: Vec<(String, Option<String>)> = sqlx::query_as(
        "select datname, shobj_description(oid, 'pg_database') from pg_database \
         where datname like 'remindbot\\_scratch\\_%' or datname like 'remindbot\\_template\\_%'",
    )
    .fetch_all(&mut *admin)
    .await?;
    let now = unix_now();
    let current = format!(
        "{TEMPLATE_PREFIX}{:016x}",
        migrations_fingerprint(migrators)
    );
    let older_than = |created: Option<u64>, age: u64| {
        created.is_some_and(|created| now.saturating_sub(created) > age)
    };
    for (name, comment) in databases {
        let stale = if let Some(rest) = name.strip_prefix(PREFIX) {
            let created = rest.split('_').next().and_then(|s| s.parse().ok());
            older_than(created, LEFTOVER_AGE_SECS)
        } else if name.starts_with(&current) {
            false
        } else {
            let created = comment
                .as_deref()
                .and_then(|c| c.strip_prefix("created "))
                .and_then(|s| s.parse().ok());
            older_than(created, OLD_TEMPLATE_AGE_SECS)
        };
        if stale {
            drop_database(admin, &name).await?;
        }
    }
    Ok(())
}

/// A connection for creating and dropping databases: to the `postgres` database when the role
/// may use it (so the template lock is one lock server-wide), else to the given one.
async fn connect_maintenance(server: &PgConnectOptions) -> Result<PgConnection, DbError> {
    match server.clone().database("postgres").connect().await {
        Ok(conn) => Ok(conn),
        Err(_) => Ok(server.connect().await?),
    }
}

async fn database_exists(admin: &mut PgConnection, name: &str) -> Result<bool, DbError> {
    Ok(
        sqlx::query_scalar("select exists (select 1 from pg_database where datname = $1)")
            .bind(name)
            .fetch_one(admin)
            .await?,
    )
}

async fn drop_database(admin: &mut PgConnection, name: &str) -> Result<(), DbError> {
    sqlx::query(AssertSqlSafe(format!(
        "drop database if exists {name} with (force)"
    )))
    .execute(admin)
    .await?;
    Ok(())
}

/// A name that is unique across processes and says when it was made.
fn new_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        "{PREFIX}{}_{}_{}",
        unix_now(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Identifies the migrations (and their order and bookkeeping tables), so a changed migration
/// gets a new template.
fn migrations_fingerprint(migrators: &[&Migrator]) -> u64 {
    let bytes: Vec<u8> = migrators
        .iter()
        .flat_map(|migrator| {
            let table = migrator.table_name.as_bytes().iter().copied();
            table.chain(
                migrator
                    .iter()
                    .flat_map(|m| m.checksum.iter().copied().chain(m.version.to_le_bytes())),
            )
        })
        .collect();
    super::fnv1a(&bytes)
}

/// Replaces the database part of a PostgreSQL URL.
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let authority_end = base
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| base[start..].find('/').map(|i| start + i))
        .unwrap_or(base.len());
    let mut out = format!("{}/{database}", &base[..authority_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn replaces_or_adds_the_database() {
        assert_eq!(
            with_database("postgres://a@h:1/test", "x"),
            "postgres://a@h:1/x"
        );
        assert_eq!(with_database("postgres://a@h:1", "x"), "postgres://a@h:1/x");
        assert_eq!(
            with_database("postgres://a@h/test?sslmode=disable", "x"),
            "postgres://a@h/x?sslmode=disable"
        );
    }
}
