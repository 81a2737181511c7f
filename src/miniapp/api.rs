//! The JSON API under `<PUBLIC_URL's path>/app/api`: who the user is and their settings, their
//! open tasks by section, a preview of what a text would create, and the changes the chat's
//! buttons make (create, done, snooze, delete, undo, edit, settings), each made by the chat's own
//! handlers ([`crate::bot::from_app`]) so that the chat shows the same state. A change names the
//! task's `version` (its revision as the page read it): a task changed meanwhile answers 409 with
//! the task as it is now, and nothing changes.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use chrono::{Duration, NaiveTime, SecondsFormat, Utc};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::error::ApiError;
use super::state::{ApiState, Counted, internal};
use super::strings;
use super::view::{SettingsView, TaskView, sections, shown_zone};
use crate::bot::from_app::{AppEdit, AppTurn, Undone};
use crate::domain::ids::TaskId;
use crate::domain::lang::Lang;
use crate::export::MAX_EXPORT_TASKS;
use crate::i18n::dates::Dates;
use crate::i18n::repeats::repeats_text;
use crate::store::app_tasks::{self, VersionedTask};
use crate::store::{agenda, chats};

/// The answer of a request that went well.
type Answer = Result<Json<Value>, ApiError>;

/// The longest a snooze may be, in minutes (a week).
const MAX_SNOOZE_MINUTES: i64 = 7 * 24 * 60;

/// `GET /app/api/me`: the user's language, zone, the page's strings and the settings.
#[tracing::instrument(skip_all, fields(route = "app me", user_id))]
pub(super) async fn me(State(state): State<ApiState>, headers: HeaderMap) -> Answer {
    let turn = state.turn(&headers, Counted::No).await?;
    let settings = settings_of(&turn).await?;
    let tr = turn.tr();
    turn.commit().await.map_err(internal)?;
    Ok(Json(json!({
        "lang": settings.lang,
        "zone": settings.zone,
        "strings": strings::all(tr),
        "settings": settings,
    })))
}

/// `GET /app/api/tasks`: the open tasks of the user's private chat by section.
#[tracing::instrument(skip_all, fields(route = "app tasks", user_id))]
pub(super) async fn tasks(State(state): State<ApiState>, headers: HeaderMap) -> Answer {
    let turn = state.turn(&headers, Counted::No).await?;
    let open = app_tasks::open_tasks(&mut *turn.db().await, turn.chat_id(), MAX_EXPORT_TASKS)
        .await
        .map_err(|error| internal(error.into()))?;
    let shown = sections(turn.tr(), turn.chat(), Utc::now(), &open);
    turn.commit().await.map_err(internal)?;
    Ok(Json(json!({ "sections": shown })))
}

/// A body with a task text.
#[derive(Deserialize)]
pub(super) struct TextBody {
    text: String,
}

/// `POST /app/api/preview`: what a text would create, as the chat's parser reads it.
#[tracing::instrument(skip_all, fields(route = "app preview", user_id))]
pub(super) async fn preview(
    State(state): State<ApiState>,
    headers: HeaderMap,
    body: Bytes,
) -> Answer {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let body: TextBody = read_body(&turn, &body)?;
    let now = Utc::now();
    let preview = turn
        .preview(&body.text, now)
        .map_err(ApiError::BadRequest)?;
    let tr = turn.tr();
    let dates = Dates::new(tr, preview.zone, now);
    let parsed = &preview.parsed;
    Ok(Json(json!({
        "ok": true,
        "text": parsed.text,
        "due": dates.moment_with_weekday(parsed.due),
        "due_at": parsed.due.to_rfc3339_opts(SecondsFormat::Secs, true),
        "repeat": parsed.recurrence.as_ref().map(|rule| repeats_text(tr, rule)),
        "assumed": preview.assumed,
    })))
}

/// `POST /app/api/tasks`: creates a task from text as a chat message would (the chat gets its
/// card); 201 with the task.
#[tracing::instrument(skip_all, fields(route = "app create", user_id))]
pub(super) async fn create(
    State(state): State<ApiState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let body: TextBody = read_body(&turn, &body)?;
    let task_id = turn
        .create(&body.text)
        .await
        .map_err(internal)?
        .map_err(ApiError::BadRequest)?;
    let task = reread(&turn, task_id).await?;
    turn.commit().await.map_err(internal)?;
    Ok((StatusCode::CREATED, Json(json!({ "task": task }))))
}

/// A body naming the version of the task the page changes.
#[derive(Deserialize)]
pub(super) struct VersionBody {
    version: i32,
}

/// `POST /app/api/tasks/{id}/done`: Done, as the chat's button.
#[tracing::instrument(skip_all, fields(route = "app done", user_id))]
pub(super) async fn done(
    State(state): State<ApiState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Answer {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let body: VersionBody = read_body(&turn, &body)?;
    let task = current(&turn, &id, body.version).await?;
    let undo = turn.finish(task.id).await.map_err(internal)?;
    changed_with_undo(turn, task.id, undo).await
}

/// `DELETE /app/api/tasks/{id}`: Delete, as the chat's button.
#[tracing::instrument(skip_all, fields(route = "app delete", user_id))]
pub(super) async fn delete(
    State(state): State<ApiState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Answer {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let body: VersionBody = read_body(&turn, &body)?;
    let task = current(&turn, &id, body.version).await?;
    let undo = turn.delete(task.id).await.map_err(internal)?;
    changed_with_undo(turn, task.id, undo).await
}

/// A snooze's body.
#[derive(Deserialize)]
pub(super) struct SnoozeBody {
    version: i32,
    minutes: i64,
}

/// `POST /app/api/tasks/{id}/snooze`: an extra reminder in `minutes`, as the chat's Snooze.
#[tracing::instrument(skip_all, fields(route = "app snooze", user_id))]
pub(super) async fn snooze(
    State(state): State<ApiState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Answer {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let body: SnoozeBody = read_body(&turn, &body)?;
    if !(1..=MAX_SNOOZE_MINUTES).contains(&body.minutes) {
        return Err(bad(&turn, "app-err-snooze"));
    }
    let task = current(&turn, &id, body.version).await?;
    let fire_at = Utc::now() + Duration::minutes(body.minutes);
    let undo = turn.snooze(&task, fire_at).await.map_err(internal)?;
    changed_with_undo(turn, task.id, Some(undo)).await
}

/// `POST /app/api/undo/{token}`: takes back the change that gave the token, as the chat's Undo.
#[tracing::instrument(skip_all, fields(route = "app undo", user_id))]
pub(super) async fn undo(
    State(state): State<ApiState>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Answer {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let Ok(undo_id) = token.parse::<i64>() else {
        return Err(ApiError::NotFound(turn.tr().t("not-found")));
    };
    match turn.undo(undo_id).await.map_err(internal)? {
        Undone::Restored(task_id) => {
            let task = reread(&turn, task_id).await?;
            turn.commit().await.map_err(internal)?;
            Ok(Json(json!({ "task": task })))
        }
        Undone::Removed => {
            turn.commit().await.map_err(internal)?;
            Ok(Json(json!({ "task": null })))
        }
        Undone::Refused(key) => Err(ApiError::Conflict(turn.tr().t(key), Value::Null)),
    }
}

/// An edit's body: each part given replaces that part of the task.
#[derive(Deserialize)]
pub(super) struct EditBody {
    version: i32,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    when: Option<String>,
    #[serde(default)]
    repeat: Option<String>,
    #[serde(default)]
    lead_minutes: Option<i64>,
}

/// `PATCH /app/api/tasks/{id}`: changes the text, time, repeat or lead, as the chat's Edit.
#[tracing::instrument(skip_all, fields(route = "app edit", user_id))]
pub(super) async fn edit(
    State(state): State<ApiState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Answer {
    let turn = state.turn(&headers, Counted::Yes).await?;
    let body: EditBody = read_body(&turn, &body)?;
    let task = current(&turn, &id, body.version).await?;
    let change = AppEdit {
        text: body.text,
        when: body.when,
        repeat: body.repeat,
        lead_minutes: body.lead_minutes,
    };
    turn.edit(&task, &change)
        .await
        .map_err(internal)?
        .map_err(ApiError::BadRequest)?;
    let task = reread(&turn, task.id).await?;
    turn.commit().await.map_err(internal)?;
    Ok(Json(json!({ "task": task })))
}

/// The settings' body: each part given is set.
#[derive(Deserialize)]
pub(super) struct SettingsBody {
    #[serde(default)]
    zone: Option<String>,
    /// Where the user is: the zone of the place is set, as a location shared in the chat sets it.
    #[serde(default)]
    location: Option<Location>,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default)]
    lead_minutes: Option<i64>,
    /// `"08:00"` turns the agenda on at that time, `null` off; absent leaves it.
    #[serde(default, deserialize_with = "present")]
    agenda: Option<Option<String>>,
}

/// A point on the map, in degrees (as the browser's and Telegram's geolocation give it).
#[derive(Deserialize)]
struct Location {
    latitude: f64,
    longitude: f64,
}

/// A field that is present (perhaps `null`), told apart from one that is absent.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// `PUT /app/api/settings`: sets the zone (by name or by location), language, default lead and
/// morning agenda, as the chat's commands do; answers the settings as `/me` does.
#[tracing::instrument(skip_all, fields(route = "app settings", user_id))]
pub(super) async fn settings(
    State(state): State<ApiState>,
    headers: HeaderMap,
    body: Bytes,
) -> Answer {
    let mut turn = state.turn(&headers, Counted::Yes).await?;
    let body: SettingsBody = read_body(&turn, &body)?;
    let lang = match body.lang.as_deref() {
        None => None,
        Some(code) => Some(Lang::from_stored(code).ok_or_else(|| bad(&turn, "lang-unknown"))?),
    };
    let agenda_time = match &body.agenda {
        None => None,
        Some(None) => Some(None),
        Some(Some(time)) => Some(Some(
            NaiveTime::parse_from_str(time.trim(), "%H:%M")
                .map_err(|_| bad(&turn, "agenda-bad"))?,
        )),
    };
    // The language first, so that the chat's confirmations of the rest speak it.
    if let Some(lang) = lang {
        turn.set_lang(lang).await.map_err(internal)?;
    }
    if let Some(zone) = &body.zone {
        turn.set_zone(zone)
            .await
            .map_err(internal)?
            .map_err(ApiError::BadRequest)?;
    }
    if let Some(Location {
        latitude,
        longitude,
    }) = body.location
    {
        turn.set_location(latitude, longitude)
            .await
            .map_err(internal)?
            .map_err(ApiError::BadRequest)?;
    }
    if let Some(minutes) = body.lead_minutes {
        turn.set_lead(minutes)
            .await
            .map_err(internal)?
            .map_err(ApiError::BadRequest)?;
    }
    if let Some(time) = agenda_time {
        turn.set_agenda(time)
            .await
            .map_err(internal)?
            .map_err(ApiError::BadRequest)?;
    }
    let settings = settings_of(&turn).await?;
    turn.commit().await.map_err(internal)?;
    Ok(Json(json!(settings)))
}

/// The chat's settings as they are in the request's transaction.
async fn settings_of(turn: &AppTurn) -> Result<SettingsView, ApiError> {
    let mut conn = turn.db().await;
    let chat = chats::find(&mut *conn, turn.chat_id())
        .await
        .map_err(|error| internal(error.into()))?;
    let chat = chat.unwrap_or_else(|| turn.chat().clone());
    let agenda = agenda::find(&mut conn, turn.chat_id())
        .await
        .map_err(|error| internal(error.into()))?;
    Ok(SettingsView::new(&chat, agenda.as_ref()))
}

/// Reads a JSON body, or 400.
fn read_body<T: DeserializeOwned>(turn: &AppTurn, body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|_| bad(turn, "app-err-bad-request"))
}

/// 400 with the string `key`.
fn bad(turn: &AppTurn, key: &str) -> ApiError {
    ApiError::BadRequest(crate::bot::from_app::Problem {
        message: turn.tr().t(key),
        example: None,
    })
}

/// The user's open task `id`, locked, if it is still at `version`: 404 when the user has no
/// such open task (another user's included), 409 with the task as it is when it changed.
async fn current(
    turn: &AppTurn,
    id: &str,
    version: i32,
) -> Result<crate::store::tasks::Task, ApiError> {
    let not_found = || ApiError::NotFound(turn.tr().t("not-found"));
    let task_id = id
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .map(TaskId)
        .ok_or_else(not_found)?;
    let locked = app_tasks::lock_open(&mut *turn.db().await, turn.chat_id(), task_id)
        .await
        .map_err(|error| internal(error.into()))?
        .ok_or_else(not_found)?;
    if locked.revision != version {
        let task = view(turn, &locked);
        return Err(ApiError::Conflict(
            turn.tr().t("app-err-conflict"),
            json!(task),
        ));
    }
    Ok(locked.listed.task)
}

/// The task as it is now in the request's transaction (`None` once it is no longer open).
async fn reread(turn: &AppTurn, task_id: TaskId) -> Result<Option<TaskView>, ApiError> {
    let found = app_tasks::lock_open(&mut *turn.db().await, turn.chat_id(), task_id)
        .await
        .map_err(|error| internal(error.into()))?;
    Ok(found.map(|versioned| view(turn, &versioned)))
}

/// A task as the page shows it, in the chat's language and zone.
fn view(turn: &AppTurn, versioned: &VersionedTask) -> TaskView {
    let zone = shown_zone(turn.chat(), versioned.listed.task.zone);
    TaskView::new(turn.tr(), zone, Utc::now(), versioned)
}

/// Commits a change and answers the task as it is now with the token of its Undo.
async fn changed_with_undo(turn: AppTurn, task_id: TaskId, undo: Option<i64>) -> Answer {
    let task = reread(&turn, task_id).await?;
    turn.commit().await.map_err(internal)?;
    Ok(Json(json!({
        "task": task,
        "undo": undo.map(|id| id.to_string()),
    })))
}
