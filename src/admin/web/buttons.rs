//! The admin page's Retry and Cancel buttons: POST forms checked against the session's CSRF
//! token, each action recorded, answered with a redirect to the overview and its notice.

use axum::extract::{Form, Path, State};
use axum::response::Response;
use pgqueue::JobId;

use super::common::{AdminState, CsrfForm, PageError, forbidden, see_other};
use super::pages::Notice;
use super::sign_in::Authenticated;
use crate::admin::AdminError;
use crate::admin::actions::{self, ActionResult};
use crate::admin::session::Access;
use pgqueue::Queue;

pub(super) async fn retry(
    State(state): State<AdminState>,
    Authenticated(access): Authenticated,
    Path(id): Path<JobId>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    act(&state, access, form, |queue, actor| async move {
        actions::retry(&queue, &actor, id).await
    })
    .await
}

pub(super) async fn cancel(
    State(state): State<AdminState>,
    Authenticated(access): Authenticated,
    Path(id): Path<JobId>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    act(&state, access, form, |queue, actor| async move {
        actions::cancel(&queue, &actor, id).await
    })
    .await
}

/// Checks the CSRF token, runs the action, and returns to the overview with a notice.
pub(super) async fn act<F, Fut>(
    state: &AdminState,
    access: Access,
    form: CsrfForm,
    action: F,
) -> Result<Response, PageError>
where
    F: FnOnce(Queue, String) -> Fut,
    Fut: std::future::Future<Output = Result<ActionResult, AdminError>>,
{
    if !access.allows_post(form.csrf.as_deref()) {
        return Ok(forbidden());
    }
    let actor = match access {
        Access::Session { .. } => "web:session",
        Access::Bearer => "web:bearer",
    };
    let result = action(state.reminders.clone(), actor.to_owned()).await?;
    Ok(see_other(&format!(
        "/admin?{}",
        Notice::of(&result).query()
    )))
}
