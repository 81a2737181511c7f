//! The HTTP side: an accept loop serving each connection with hyper (so a fault can drop a
//! connection without answering), the `/bot<token>/<method>` route with Telegram's envelope, and
//! the control routes under `/__sim`. Request URLs are never logged: they contain the token.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Router};
use hyper_util::rt::TokioIo;
use serde::Serialize;
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;
use tracing::Instrument;

use super::control;
use super::error::ApiError;
use super::faults::Outcome;
use super::methods::{self, Method, Success};
use super::params::Params;
use super::state::Shared;
use super::stats::CallRecord;

/// The largest request body: Telegram takes files of up to 50 MB, and the form around them.
const MAX_UPLOAD_BYTES: usize = 50 * 1024 * 1024 + 64 * 1024;

/// Lets a handler close its own connection without answering.
#[derive(Clone, Debug)]
struct Connection {
    drop: CancellationToken,
}

/// Accepts connections until the simulator shuts down.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let router = Router::new()
        .nest("/__sim", control::routes())
        .fallback(bot_api)
        .layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES))
        .with_state(Arc::clone(&shared));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shared.shutdown.cancelled() => return,
        };
        match accepted {
            Ok((stream, _)) => {
                tokio::spawn(serve_connection(
                    stream,
                    router.clone(),
                    shared.shutdown.clone(),
                ));
            }
            Err(error) => tracing::warn!(%error, "accept failed"),
        }
    }
}

async fn serve_connection(stream: TcpStream, router: Router, shutdown: CancellationToken) {
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%error, "set_nodelay failed");
    }
    let drop = CancellationToken::new();
    let connection = Connection { drop: drop.clone() };
    let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
        request.extensions_mut().insert(connection.clone());
        router.clone().oneshot(request)
    });
    let serving =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        result = serving => if let Err(error) = result {
            tracing::debug!(%error, "connection ended with an error");
        },
        () = drop.cancelled() => tracing::debug!("connection dropped by a fault"),
        () = shutdown.cancelled() => {}
    }
}

/// Everything known about a call, for the log.
struct Call {
    method: String,
    chat_id: Option<i64>,
    params: Value,
    at_ms: i64,
    started: Instant,
    /// Planned delay still to come when the call is logged.
    extra_ms: u64,
}

/// `/bot<token>/<method>`: every Bot API request.
async fn bot_api(
    State(shared): State<Arc<Shared>>,
    Extension(connection): Extension<Connection>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut call = Call {
        method: String::new(),
        chat_id: None,
        params: Value::Null,
        at_ms: shared.read(|w| w.clock.now_ms()),
        started: Instant::now(),
        extra_ms: 0,
    };
    let Some((token, name)) = split_path(uri.path()) else {
        return finish(&shared, call, Reply::Api(Err(ApiError::not_found())));
    };
    call.method = name.to_owned();
    if token != shared.token {
        return finish(&shared, call, Reply::Api(Err(ApiError::unauthorized())));
    }
    let Some(method) = Method::lookup(name) else {
        return finish(&shared, call, Reply::Api(Err(ApiError::not_found())));
    };
    call.method = method.name().to_owned();
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let params = match Params::parse(uri.query(), content_type, &body) {
        Ok(params) => params,
        Err(error) => return finish(&shared, call, Reply::Api(Err(error))),
    };
    call.chat_id = params.chat_hint();
    call.params = params.to_value();
    let span = tracing::info_span!(
        "sim_request",
        method = method.name(),
        chat_id = call.chat_id
    );
    async move {
        let plan = shared.with(|w| {
            let plan = w.faults.plan(method.name(), call.chat_id);
            w.stats.counters.faults_fired += u64::from(plan.fired);
            if matches!(&plan.before, Some(Outcome::Error(e)) if e.error_code == 429) {
                w.stats.counters.too_many_requests.injected += 1;
            }
            plan
        });
        let guard = Unanswered {
            shared: &shared,
            call: Some(call),
        };
        let reply = match plan.before {
            Some(outcome) => Reply::from(outcome),
            None => {
                let result = methods::call(&shared, method, &params).await;
                plan.after.map_or(Reply::Api(result), Reply::from)
            }
        };
        let dropped = matches!(reply, Reply::Drop);
        let response = guard.finish(reply, plan.delay_ms);
        if plan.delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(plan.delay_ms)).await;
        }
        if dropped {
            connection.drop.cancel();
            std::future::pending::<()>().await;
        }
        response
    }
    .instrument(span)
    .await
}

/// Logs a call whose client went away before the answer was ready (e.g. a long poll cut short)
/// with status 499, "client closed request".
struct Unanswered<'a> {
    shared: &'a Shared,
    call: Option<Call>,
}

impl Unanswered<'_> {
    /// Logs the call as answered after `delay_ms` more milliseconds and builds the answer.
    fn finish(mut self, reply: Reply, delay_ms: u64) -> Response {
        let Some(mut call) = self.call.take() else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        call.extra_ms = delay_ms;
        finish(self.shared, call, reply)
    }
}

impl Drop for Unanswered<'_> {
    fn drop(&mut self) {
        if let Some(call) = self.call.take() {
            let response = finish(
                self.shared,
                call,
                Reply::Raw {
                    status: 499,
                    body: String::new(),
                },
            );
            drop(response);
        }
    }
}

/// How a call is answered.
enum Reply {
    Api(Result<Success, ApiError>),
    Raw { status: u16, body: String },
    Drop,
}

impl From<Outcome> for Reply {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Drop => Self::Drop,
            Outcome::Error(error) => Self::Api(Err(error)),
            Outcome::Raw { status, body } => Self::Raw { status, body },
        }
    }
}

/// Logs the call and builds the HTTP answer.
fn finish(shared: &Shared, call: Call, reply: Reply) -> Response {
    let (status, description, response) = match reply {
        Reply::Api(Ok(success)) => (200, None, success_response(&success)),
        Reply::Api(Err(error)) => {
            let response = json_response(error.error_code, &ErrorBody::from(&error));
            (error.error_code, Some(error.description), response)
        }
        Reply::Raw { status, body } => (
            status,
            None,
            with_json_type((status_code(status), body).into_response()),
        ),
        Reply::Drop => (0, None, StatusCode::INTERNAL_SERVER_ERROR.into_response()),
    };
    let record = CallRecord {
        seq: 0,
        at_ms: call.at_ms,
        method: call.method,
        status,
        description,
        chat_id: call.chat_id,
        params: call.params,
        duration_ms: u64::try_from(call.started.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .saturating_add(call.extra_ms),
    };
    shared.with(|w| w.stats.record_call(record));
    response
}

/// `{"ok":true,"result":…}`, plus `description` where Telegram adds one.
fn success_response(success: &Success) -> Response {
    let mut body = String::with_capacity(success.result.len() + 64);
    body.push_str(r#"{"ok":true,"result":"#);
    body.push_str(&success.result);
    if let Some(description) = success.description {
        body.push_str(r#","description":"#);
        body.push_str(&Value::String(description.to_owned()).to_string());
    }
    body.push('}');
    with_json_type((StatusCode::OK, body).into_response())
}

/// `{"ok":false,"error_code":N,"description":"…"[,"parameters":{…}]}`, in Telegram's field order.
#[derive(Serialize)]
struct ErrorBody<'a> {
    ok: bool,
    #[serde(flatten)]
    error: &'a ApiError,
}

impl<'a> From<&'a ApiError> for ErrorBody<'a> {
    fn from(error: &'a ApiError) -> Self {
        Self { ok: false, error }
    }
}

fn json_response(status: u16, body: &impl Serialize) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_else(|_| {
        br#"{"ok":false,"error_code":500,"description":"Internal Server Error"}"#.to_vec()
    });
    with_json_type((status_code(status), Body::from(bytes)).into_response())
}

fn with_json_type(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn status_code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// Splits `/bot<token>/<method>` into token and method name.
fn split_path(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix("/bot")?;
    let (token, method) = rest.split_once('/')?;
    (!token.is_empty() && !method.is_empty() && !method.contains('/')).then_some((token, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(
            split_path("/bot1:A/SendMessage"),
            Some(("1:A", "SendMessage"))
        );
        assert_eq!(split_path("/bot1:A/"), None);
        assert_eq!(split_path("/bot1:A/x/y"), None);
        assert_eq!(split_path("/foo"), None);
    }
}
