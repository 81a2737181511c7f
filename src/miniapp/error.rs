//! The API's refusals, as JSON: `{"error": "<text in the user's language>"}`, with the task as it
//! is now for a version conflict and an example for bad input. A 401 says nothing else.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::bot::from_app::Problem;

/// Why a request was not done.
#[derive(Debug)]
pub(crate) enum ApiError {
    /// Missing, forged or expired launch data (401).
    Unauthorized(String),
    /// Not a task of the user's (404), the same as a task that does not exist.
    NotFound(String),
    /// Bad input (400): what the chat would say, with an example.
    BadRequest(Problem),
    /// The task changed since the page read it (409), or an Undo no longer applies: the task
    /// as it is now (`null` when it is gone).
    Conflict(String, Value),
    /// Over the user's rate (429).
    TooMany(String),
    /// The database or a template failed (500); the details are logged.
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            Self::Unauthorized(text) => (StatusCode::UNAUTHORIZED, json!({ "error": text })),
            Self::NotFound(text) => (StatusCode::NOT_FOUND, json!({ "error": text })),
            Self::BadRequest(problem) => (
                StatusCode::BAD_REQUEST,
                json!({ "error": problem.message, "example": problem.example }),
            ),
            Self::Conflict(text, task) => {
                (StatusCode::CONFLICT, json!({ "error": text, "task": task }))
            }
            Self::TooMany(text) => (StatusCode::TOO_MANY_REQUESTS, json!({ "error": text })),
            Self::Internal(text) => (StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": text })),
        };
        (status, Json(body)).into_response()
    }
}
