//! When each chat last asked for `/export`, so that it waits between two.

use std::time::Duration;

use sqlx::PgConnection;

use super::StoreError;
use crate::domain::ids::ChatId;

/// Records that chat `chat_id` asks for an export now, unless its last one was less than
/// `cooldown` ago: then nothing changes and the wait left is returned.
#[tracing::instrument(skip_all, fields(chat_id))]
pub async fn request(
    conn: &mut PgConnection,
    chat_id: ChatId,
    cooldown: Duration,
) -> Result<Option<Duration>, StoreError> {
    let secs = cooldown.as_secs_f64();
    let recorded = sqlx::query_scalar!(
        "insert into export_requests (chat_id, requested_at) values ($1, now())
         on conflict (chat_id) do update set requested_at = now()
         where export_requests.requested_at <= now() - make_interval(secs => $2)
         returning chat_id",
        chat_id.0,
        secs,
    )
    .fetch_optional(&mut *conn)
    .await?;
    if recorded.is_some() {
        return Ok(None);
    }
    let left = sqlx::query_scalar!(
        r#"select greatest(0, extract(epoch from
                  requested_at + make_interval(secs => $2) - now()))::float8 as "left!"
           from export_requests where chat_id = $1"#,
        chat_id.0,
        secs,
    )
    .fetch_one(conn)
    .await?;
    Ok(Some(Duration::from_secs_f64(left)))
}
