//! What every API request shares and starts with: who is asking (the user Telegram signed in the
//! `Authorization: tma <initData>` header, never an id the page sends), their turn in their
//! private chat, and the per-user rate the chat uses. Neither the header nor the launch data is
//! ever logged: the spans carry the user's id only.

use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderMap;
use axum::http::header::{ACCEPT_LANGUAGE, AUTHORIZATION};
use chrono::Utc;
use secrecy::{ExposeSecret, SecretString};

use super::error::ApiError;
use super::init_data::{self, SignedUser};
use crate::bot::BotError;
use crate::bot::from_app::{self, AppTurn};
use crate::bot::limits::RateVerdict;
use crate::domain::lang::Lang;
use crate::i18n::Tr;

/// The API's state: the chat's handlers' shared parts, the bot token that signs launch data and
/// how old launch data may be.
#[derive(Clone)]
pub(crate) struct ApiState {
    pub shared: Arc<from_app::Shared>,
    pub token: Arc<SecretString>,
    pub max_age: Duration,
}

/// Whether a request counts against the user's rate: changes and previews do, reads do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counted {
    /// It counts.
    Yes,
    /// It does not.
    No,
}

impl ApiState {
    /// The signed user of the request, or 401 in the language the browser asks for.
    pub fn user(&self, headers: &HeaderMap) -> Result<SignedUser, ApiError> {
        let header = headers
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok());
        init_data::from_authorization(header, self.token.expose_secret(), Utc::now(), self.max_age)
            .map_err(|reason| {
                tracing::debug!(%reason, "Mini App launch data refused");
                ApiError::Unauthorized(browser_tr(headers).t("app-err-auth"))
            })
    }

    /// The signed user's turn in their private chat, counted against their rate when `counted`.
    pub async fn turn(&self, headers: &HeaderMap, counted: Counted) -> Result<AppTurn, ApiError> {
        let user = self.user(headers)?;
        tracing::Span::current().record("user_id", user.id.0);
        if counted == Counted::Yes {
            let verdict = from_app::check_rate(&self.shared, user.id)
                .await
                .map_err(internal)?;
            if verdict != RateVerdict::Allow {
                let tr = Tr::new(Lang::from_code(user.language_code.as_deref().unwrap_or("")));
                return Err(ApiError::TooMany(tr.t("app-err-rate")));
            }
        }
        AppTurn::begin(self.shared.clone(), user.id, user.language_code.as_deref())
            .await
            .map_err(internal)
    }
}

/// The language the browser asks for (`Accept-Language`), for a request nobody signed.
fn browser_tr(headers: &HeaderMap) -> Tr {
    let first = headers
        .get(ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split([',', ';']).next())
        .unwrap_or("");
    Tr::new(Lang::from_code(first.trim()))
}

/// A failure of the bot's side: logged, and answered 500 without details.
pub(crate) fn internal(error: BotError) -> ApiError {
    tracing::error!(%error, "a Mini App request failed");
    ApiError::Internal(Tr::new(Lang::En).t("app-err-server"))
}
