//! Whether each connection to `DATABASE_URL` is a session of its own, as the bot needs: named
//! prepared statements (every `query!`), the presence lock, LISTEN and the polling lease all live
//! in a session. A pooler that hands a server connection to a client only for a transaction
//! (PgBouncer's `pool_mode = transaction` or `statement`) breaks them in ways that show late and
//! far from the cause ("prepared statement sqlx_s_1 already exists", a live replica declared
//! dead), so the bot finds out at start and refuses with words that say what to change.

use sqlx::{Connection, PgConnection};

/// What the probe found out about the connections to a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sessions {
    /// Each connection keeps its server session: PostgreSQL itself, or a pool in session mode.
    Kept,
    /// Connections share server sessions between transactions: a pooler in transaction or
    /// statement mode.
    SharedBetweenTransactions,
}

/// Probes `url` with two connections. A client of a transaction-mode pooler gives its server
/// connection back after each statement: a second client that opens a transaction then gets the
/// server the first one just used (PgBouncer hands out the most recently used one), or the
/// first client's next statement lands on another server, or the two clients' prepared
/// statements collide on one server (PostgreSQL's `duplicate_prepared_statement` or
/// `invalid_sql_statement_name`). With sessions kept, none of these can happen.
#[tracing::instrument(skip_all)]
pub async fn probe(url: &str) -> Result<Sessions, sqlx::Error> {
    let mut first = PgConnection::connect(url).await?;
    let mut second = PgConnection::connect(url).await?;
    let found = match compare_backends(&mut first, &mut second).await {
        Ok(sessions) => Ok(sessions),
        Err(error) if is_statement_of_another_client(&error) => {
            Ok(Sessions::SharedBetweenTransactions)
        }
        Err(error) => Err(error),
    };
    // Closing politely is a courtesy; the verdict stands either way.
    let _ = first.close().await;
    let _ = second.close().await;
    found
}

async fn compare_backends(
    first: &mut PgConnection,
    second: &mut PgConnection,
) -> Result<Sessions, sqlx::Error> {
    let before = backend_pid(first).await?;
    let mut held = second.begin().await?;
    let other = backend_pid(&mut held).await?;
    let after = backend_pid(first).await?;
    held.rollback().await?;
    Ok(if other == before || after != before {
        Sessions::SharedBetweenTransactions
    } else {
        Sessions::Kept
    })
}

async fn backend_pid(conn: &mut PgConnection) -> Result<i32, sqlx::Error> {
    sqlx::query_scalar!(r#"select pg_backend_pid() as "pid!""#)
        .fetch_one(conn)
        .await
}

/// Whether PostgreSQL refused a prepared statement that another client made or owns on the same
/// server session: 42P05 `duplicate_prepared_statement`, 26000 `invalid_sql_statement_name`.
pub fn is_statement_of_another_client(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .and_then(|e| e.code())
        .is_some_and(|code| code == "42P05" || code == "26000")
}
