//! The control API under `/__sim`: JSON routes for other programs to set up users and groups,
//! act as users, and read transcripts, calls and counters. The typed `SimHandle` offers the same
//! operations in-process. Documented in `crates/tgsim/README.md` ("The control API for tests").

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::clock::ClockMode;
use super::error::SimError;
use super::faults::FaultRule;
use super::limits::LimitsConfig;
use super::methods::{resolve_commands, resolve_menu_button};
use super::paid::PaidBroadcastUpdate;
use super::state::Shared;
use super::world::{BotMembership, Forward, MemberStatus, NewGroup, NewUser, UserState};

type SimState = State<Arc<Shared>>;

/// The control routes, to be nested under `/__sim`.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/users", post(create_user).get(list_users))
        .route("/users/{id}/state", put(set_user_state))
        .route("/users/{id}/messages", post(user_says))
        .route("/users/{id}/locations", post(user_shares_location))
        .route("/users/{id}/forwards", post(user_forwards))
        .route("/groups", post(create_group))
        .route("/chats", get(list_chats))
        .route("/chats/{id}/membership", put(set_membership))
        .route("/chats/{id}/members/{user_id}", put(set_member_status))
        .route("/chats/{id}/upgrade", post(upgrade_group))
        .route("/chats/{id}/messages", post(chat_message))
        .route("/chats/{id}/locations", post(chat_location))
        .route("/chats/{id}/forwards", post(chat_forward))
        .route("/chats/{id}/transcript", get(transcript))
        .route("/chats/{id}/commands", get(commands))
        .route("/chats/{id}/menu_button", get(menu_button))
        .route("/users/{id}/init_data", get(init_data))
        .route("/files/{file_id}", get(file))
        .route("/taps", post(tap))
        .route("/callbacks/{id}", get(callback))
        .route("/calls", get(calls))
        .route("/counters", get(counters).delete(reset_counters))
        .route("/limits", get(limits).put(set_limits))
        .route(
            "/paid_broadcast",
            get(paid_broadcast).put(set_paid_broadcast),
        )
        .route(
            "/faults",
            get(list_faults).post(add_fault).delete(clear_faults),
        )
        .route("/faults/{id}", delete(remove_fault))
        .route("/clock", get(clock).put(set_clock))
        .route("/clock/advance", post(advance_clock))
        .route("/updates", get(pending_updates))
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                Json(json!({"error": "no such control route"})),
            )
        })
}

/// A control failure as `{"error": "..."}` with a fitting status.
struct ControlError(SimError);

impl From<SimError> for ControlError {
    fn from(error: SimError) -> Self {
        Self(error)
    }
}

impl IntoResponse for ControlError {
    fn into_response(self) -> Response {
        let status = match self.0 {
            SimError::UnknownUser(_)
            | SimError::UnknownChat(_)
            | SimError::UnknownMessage { .. } => StatusCode::NOT_FOUND,
            SimError::NoSuchButton { .. } => StatusCode::NOT_FOUND,
            SimError::IdTaken(_) | SimError::InvalidState(_) => StatusCode::CONFLICT,
            SimError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            SimError::BadToken | SimError::Io(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, Json(json!({"error": self.0.to_string()}))).into_response()
    }
}

type Result<T> = std::result::Result<Json<T>, ControlError>;

async fn create_user(State(s): SimState, Json(new): Json<NewUser>) -> Result<Value> {
    Ok(Json(json!(s.with(|w| w.create_user(new))?)))
}

async fn list_users(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.users())))
}

#[derive(Deserialize)]
struct StateBody {
    state: UserState,
}

async fn set_user_state(
    State(s): SimState,
    Path(id): Path<i64>,
    Json(body): Json<StateBody>,
) -> Result<Value> {
    s.with(|w| w.set_user_state(id, body.state))?;
    Ok(Json(json!({})))
}

#[derive(Deserialize)]
struct MessageBody {
    #[serde(default)]
    user_id: Option<i64>,
    text: String,
    #[serde(default)]
    reply_to_message_id: Option<i64>,
}

async fn user_says(
    State(s): SimState,
    Path(id): Path<i64>,
    Json(body): Json<MessageBody>,
) -> Result<Value> {
    let message = s.with(|w| w.inject_message(id, id, &body.text, body.reply_to_message_id))?;
    Ok(Json(json!(message)))
}

async fn chat_message(
    State(s): SimState,
    Path(chat_id): Path<i64>,
    Json(body): Json<MessageBody>,
) -> Result<Value> {
    let user_id = body.user_id.unwrap_or(chat_id);
    let message =
        s.with(|w| w.inject_message(chat_id, user_id, &body.text, body.reply_to_message_id))?;
    Ok(Json(json!(message)))
}

#[derive(Deserialize)]
struct LocationBody {
    #[serde(default)]
    user_id: Option<i64>,
    latitude: f64,
    longitude: f64,
}

async fn user_shares_location(
    State(s): SimState,
    Path(id): Path<i64>,
    Json(body): Json<LocationBody>,
) -> Result<Value> {
    let message = s.with(|w| w.inject_location(id, id, body.latitude, body.longitude))?;
    Ok(Json(json!(message)))
}

async fn chat_location(
    State(s): SimState,
    Path(chat_id): Path<i64>,
    Json(body): Json<LocationBody>,
) -> Result<Value> {
    let user_id = body.user_id.unwrap_or(chat_id);
    let message = s.with(|w| w.inject_location(chat_id, user_id, body.latitude, body.longitude))?;
    Ok(Json(json!(message)))
}

#[derive(Deserialize)]
struct ForwardBody {
    #[serde(default)]
    user_id: Option<i64>,
    #[serde(flatten)]
    forward: Forward,
}

async fn user_forwards(
    State(s): SimState,
    Path(id): Path<i64>,
    Json(body): Json<ForwardBody>,
) -> Result<Value> {
    let message = s.with(|w| w.inject_forward(id, id, body.forward))?;
    Ok(Json(json!(message)))
}

async fn chat_forward(
    State(s): SimState,
    Path(chat_id): Path<i64>,
    Json(body): Json<ForwardBody>,
) -> Result<Value> {
    let user_id = body.user_id.unwrap_or(chat_id);
    let message = s.with(|w| w.inject_forward(chat_id, user_id, body.forward))?;
    Ok(Json(json!(message)))
}

/// The bytes of a file the bot uploaded, with its MIME type.
async fn file(State(s): SimState, Path(file_id): Path<String>) -> Response {
    match s.read(|w| w.file(&file_id).cloned()) {
        Some(stored) => {
            let mime = stored
                .document
                .mime_type
                .unwrap_or_else(|| "application/octet-stream".to_owned());
            ([(axum::http::header::CONTENT_TYPE, mime)], stored.bytes).into_response()
        }
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": format!("no file {file_id}")})),
        )
            .into_response(),
    }
}

async fn create_group(State(s): SimState, Json(new): Json<NewGroup>) -> Result<Value> {
    Ok(Json(json!(s.with(|w| w.create_group(new))?)))
}

async fn list_chats(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.chats())))
}

#[derive(Deserialize)]
struct MembershipBody {
    membership: BotMembership,
    #[serde(default)]
    by_user_id: Option<i64>,
}

async fn set_membership(
    State(s): SimState,
    Path(id): Path<i64>,
    Json(body): Json<MembershipBody>,
) -> Result<Value> {
    s.with(|w| w.set_membership(id, body.membership, body.by_user_id))?;
    Ok(Json(json!({})))
}

#[derive(Deserialize)]
struct MemberBody {
    status: MemberStatus,
}

async fn set_member_status(
    State(s): SimState,
    Path((chat_id, user_id)): Path<(i64, i64)>,
    Json(body): Json<MemberBody>,
) -> Result<Value> {
    s.with(|w| w.set_member_status(chat_id, user_id, body.status))?;
    Ok(Json(json!({})))
}

#[derive(Deserialize, Default)]
struct UpgradeBody {
    #[serde(default)]
    by_user_id: Option<i64>,
}

async fn upgrade_group(
    State(s): SimState,
    Path(id): Path<i64>,
    body: Option<Json<UpgradeBody>>,
) -> Result<Value> {
    let by = body.and_then(|Json(b)| b.by_user_id);
    let new_id = s.with(|w| w.upgrade_group(id, by))?;
    Ok(Json(json!({"migrate_to_chat_id": new_id})))
}

#[derive(Deserialize)]
struct TranscriptQuery {
    #[serde(default)]
    min_messages: usize,
    #[serde(default)]
    timeout_ms: u64,
}

async fn transcript(
    State(s): SimState,
    Path(id): Path<i64>,
    Query(q): Query<TranscriptQuery>,
) -> Result<Value> {
    let entries = s
        .wait_for(Duration::from_millis(q.timeout_ms), |w| {
            match w.transcript(id) {
                Ok(t) if t.len() >= q.min_messages => Some(Ok(t)),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            }
        })
        .await??;
    Ok(Json(json!(entries)))
}

#[derive(Deserialize)]
struct CommandsQuery {
    #[serde(default)]
    user_id: Option<i64>,
}

async fn commands(
    State(s): SimState,
    Path(id): Path<i64>,
    Query(q): Query<CommandsQuery>,
) -> Json<Value> {
    Json(json!(s.read(|w| resolve_commands(w, id, q.user_id))))
}

async fn menu_button(State(s): SimState, Path(id): Path<i64>) -> Json<Value> {
    Json(json!(s.read(|w| resolve_menu_button(w, Some(id)))))
}

async fn init_data(State(s): SimState, Path(id): Path<i64>) -> Result<Value> {
    let data = s.read(|w| w.init_data(id))?;
    Ok(Json(json!({ "init_data": data.sign(&s.token) })))
}

#[derive(Deserialize)]
struct TapBody {
    chat_id: i64,
    message_id: i64,
    #[serde(default)]
    user_id: Option<i64>,
    button: String,
}

async fn tap(State(s): SimState, Json(body): Json<TapBody>) -> Result<Value> {
    let id = s.with(|w| w.tap(body.chat_id, body.message_id, body.user_id, &body.button))?;
    Ok(Json(json!({"callback_query_id": id})))
}

async fn callback(State(s): SimState, Path(id): Path<String>) -> Response {
    match s.read(|w| w.callback(&id)) {
        Some(status) => Json(json!(status)).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": format!("no callback query {id}")})),
        )
            .into_response(),
    }
}

#[derive(Deserialize)]
struct CallsQuery {
    #[serde(default)]
    since: u64,
}

async fn calls(State(s): SimState, Query(q): Query<CallsQuery>) -> Json<Value> {
    Json(json!(s.read(|w| w.stats.calls(q.since))))
}

async fn counters(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.stats.counters.clone())))
}

async fn reset_counters(State(s): SimState) -> Json<Value> {
    s.with(|w| {
        w.stats.reset();
        w.paid.reset_counts();
    });
    Json(json!({}))
}

async fn paid_broadcast(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.paid.state())))
}

async fn set_paid_broadcast(
    State(s): SimState,
    Json(update): Json<PaidBroadcastUpdate>,
) -> Json<Value> {
    Json(json!(s.with(|w| {
        w.paid.update(update);
        w.paid.state()
    })))
}

async fn limits(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.limiter.config().clone())))
}

async fn set_limits(State(s): SimState, Json(config): Json<LimitsConfig>) -> Json<Value> {
    s.with(|w| w.limiter.set_config(config));
    Json(json!({}))
}

async fn list_faults(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.faults.list())))
}

async fn add_fault(State(s): SimState, Json(rule): Json<FaultRule>) -> Json<Value> {
    Json(json!({"id": s.with(|w| w.faults.add(rule))}))
}

async fn clear_faults(State(s): SimState) -> Json<Value> {
    s.with(|w| w.faults.clear());
    Json(json!({}))
}

async fn remove_fault(State(s): SimState, Path(id): Path<u64>) -> Response {
    if s.with(|w| w.faults.remove(id)) {
        Json(json!({})).into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            Json(json!({"error": format!("no fault {id}")})),
        )
            .into_response()
    }
}

async fn clock(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(|w| w.clock.reading())))
}

#[derive(Deserialize)]
struct ClockBody {
    mode: ClockMode,
}

async fn set_clock(State(s): SimState, Json(body): Json<ClockBody>) -> Json<Value> {
    Json(json!(s.with(|w| {
        w.clock.set_mode(body.mode);
        w.clock.reading()
    })))
}

#[derive(Deserialize)]
struct AdvanceBody {
    ms: u64,
}

async fn advance_clock(State(s): SimState, Json(body): Json<AdvanceBody>) -> Json<Value> {
    Json(json!(s.with(|w| {
        w.clock.advance(Duration::from_millis(body.ms));
        w.clock.reading()
    })))
}

async fn pending_updates(State(s): SimState) -> Json<Value> {
    Json(json!(s.read(
        |w| json!({"pending": w.updates.len(), "updates": w.updates.peek(100)})
    )))
}
