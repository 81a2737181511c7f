//! A minimal HTTP/1.1 client on hyper, for webhook deliveries and the benchmark: one keep-alive
//! connection, JSON bodies, no TLS.

use axum::body::Bytes;
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::{Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tracing::Instrument;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The TCP connection could not be opened.
    #[error("{0}")]
    Connect(#[from] std::io::Error),
    /// The HTTP exchange failed (e.g. the peer closed the connection).
    #[error("{0}")]
    Http(#[from] hyper::Error),
    /// The request could not be built (bad path or header).
    #[error("invalid request: {0}")]
    Request(#[from] axum::http::Error),
}

/// One open HTTP/1.1 connection.
#[derive(Debug)]
pub struct HttpConnection {
    sender: SendRequest<Full<Bytes>>,
    authority: String,
}

impl HttpConnection {
    /// Connects to `authority` (`host:port`).
    pub async fn connect(authority: &str) -> Result<Self, ClientError> {
        let stream = TcpStream::connect(authority).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        let span = tracing::debug_span!("sim_client_connection", peer = authority);
        tokio::spawn(
            async move {
                if let Err(error) = connection.await {
                    tracing::debug!(%error, "client connection ended");
                }
            }
            .instrument(span),
        );
        Ok(Self {
            sender,
            authority: authority.to_owned(),
        })
    }

    /// POSTs a JSON body to `path` with extra `headers`; returns the status and the whole body.
    pub async fn post_json(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
        body: Bytes,
    ) -> Result<(StatusCode, Bytes), ClientError> {
        self.sender.ready().await?;
        let mut request = Request::post(path)
            .header(HOST, &self.authority)
            .header(CONTENT_TYPE, "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = self
            .sender
            .send_request(request.body(Full::new(body))?)
            .await?;
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, body))
    }
}
