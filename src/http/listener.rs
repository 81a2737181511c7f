//! Serving a router on a listener with limits no client can get around: a connection must send
//! a request's headers within the header timeout and must not sit without reading or writing a
//! byte for longer than the idle timeout, and at most so many connections are served at once
//! (more wait in the kernel's backlog). Half-open connections therefore neither pile up nor hold
//! the file descriptors the database and Telegram need.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::Service as _;

/// How long connections still open at shutdown get to finish their request.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// The pause after accept fails (out of file descriptors, say) before the next try.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// The limits of every listener (HTTP_HEADER_TIMEOUT_SECS, HTTP_IDLE_TIMEOUT_SECS,
/// HTTP_MAX_CONNECTIONS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::Args)]
pub struct ListenerLimits {
    /// Seconds a connection has to send a request's headers before it is closed.
    #[arg(long = "http-header-timeout-secs", env = "HTTP_HEADER_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_secs: u64,
    /// Seconds a connection may neither send nor take a byte before it is closed.
    #[arg(long = "http-idle-timeout-secs", env = "HTTP_IDLE_TIMEOUT_SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_secs: u64,
    /// Connections served at once by each listener; more wait to be accepted.
    #[arg(long = "http-max-connections", env = "HTTP_MAX_CONNECTIONS", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
}

impl Default for ListenerLimits {
    /// 10 s for the headers, 60 s idle, 256 connections.
    fn default() -> Self {
        Self {
            header_timeout_secs: 10,
            idle_timeout_secs: 60,
            max_connections: 256,
        }
    }
}

/// Serves `router` on `listener` within `limits` until `shutdown`; then stops accepting and
/// gives open connections [`SHUTDOWN_GRACE`] to finish. Handlers can read the peer's address
/// (`ConnectInfo<SocketAddr>`).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ListenerLimits,
    shutdown: CancellationToken,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections as usize));
    let connections = TaskTracker::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(limits.header_timeout_secs));
    let idle = Duration::from_secs(limits.idle_timeout_secs);
    loop {
        let slot = tokio::select! {
            () = shutdown.cancelled() => break,
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
        };
        let (stream, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
        };
        let service = hyper::service::service_fn({
            let router = router.clone();
            move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                router.clone().call(request.map(Body::new))
            }
        });
        let connection = http.serve_connection(TokioIo::new(Idle::new(stream, idle)), service);
        let shutdown = shutdown.clone();
        connections.spawn(async move {
            let _slot = slot;
            tokio::pin!(connection);
            let served = tokio::select! {
                served = connection.as_mut() => served,
                () = shutdown.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    tokio::time::timeout(SHUTDOWN_GRACE, connection)
                        .await
                        .unwrap_or(Ok(()))
                }
            };
            if let Err(error) = served {
                tracing::debug!(%error, %peer, "a connection ended with an error");
            }
        });
    }
    connections.close();
    connections.wait().await;
    Ok(())
}

/// A connection that fails with `TimedOut` once it has neither read nor written a byte for its
/// timeout while something waited on it.
struct Idle<S> {
    io: S,
    timeout: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl<S> Idle<S> {
    fn new(io: S, timeout: Duration) -> Self {
        Self {
            io,
            timeout,
            deadline: Box::pin(tokio::time::sleep(timeout)),
        }
    }

    /// Passes on `polled`: progress moves the deadline, waiting past it is an error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match polled {
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::ErrorKind::TimedOut.into())),
                Poll::Pending => Poll::Pending,
            },
            ready => {
                let next = Instant::now() + self.timeout;
                self.deadline.as_mut().reset(next);
                ready
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Idle<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_read(cx, buf);
        this.watch(cx, polled)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Idle<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write(cx, buf);
        this.watch(cx, polled)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_flush(cx);
        this.watch(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
