//! The API's routes under `<PUBLIC_URL's path>/app/api`, with a cap on request bodies. No CORS
//! headers are sent and no cookie is read or set: a page of another origin cannot send the
//! `Authorization` header cross-site without a preflight this server never allows, which is what
//! makes the API safe from cross-site request forgery.

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use super::api;
use super::state::ApiState;

/// The largest request body the API reads (a task text is at most a few KB).
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The API's routes under `prefix` (the public URL's path, `""` or `/remindbot`).
pub(crate) fn router(prefix: &str, state: ApiState) -> Router {
    let at = |path: &str| format!("{prefix}/app/api{path}");
    Router::new()
        .route(&at("/me"), get(api::me))
        .route(&at("/tasks"), get(api::tasks).post(api::create))
        .route(&at("/preview"), post(api::preview))
        .route(&at("/tasks/{id}/done"), post(api::done))
        .route(&at("/tasks/{id}/snooze"), post(api::snooze))
        .route(
            &at("/tasks/{id}"),
            axum::routing::delete(api::delete).patch(api::edit),
        )
        .route(&at("/undo/{token}"), post(api::undo))
        .route(&at("/settings"), axum::routing::put(api::settings))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}
