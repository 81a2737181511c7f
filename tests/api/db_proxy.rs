//! A TCP proxy in front of PostgreSQL that can cut the database off, as a network blip or a
//! failover does: every connection through it is dropped at once and new ones are refused until
//! it is restored. The app connects through it; the test's own pool connects directly.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::{AbortHandle, JoinSet};

/// The proxy; dropping it stops it and drops every connection through it.
pub struct DbProxy {
    /// Where it listens.
    addr: SocketAddr,
    /// Set while the database is cut off: new connections are closed at once.
    cut: Arc<AtomicBool>,
    /// The connections through it.
    connections: Arc<Mutex<Vec<AbortHandle>>>,
    /// The accept loop and the connections.
    tasks: Arc<Mutex<JoinSet<()>>>,
}

impl DbProxy {
    /// A proxy to the server of `database_url` (`postgres://user@host:port/…`).
    pub async fn start(database_url: &str) -> Self {
        let upstream = host_port(database_url).to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("its address");
        let cut = Arc::new(AtomicBool::new(false));
        let connections = Arc::new(Mutex::new(Vec::new()));
        let tasks = Arc::new(Mutex::new(JoinSet::new()));
        let (accept_cut, accept_connections, accept_tasks) =
            (cut.clone(), connections.clone(), tasks.clone());
        tasks.lock().expect("not poisoned").spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if accept_cut.load(Ordering::SeqCst) {
                    continue;
                }
                let upstream = upstream.clone();
                let handle = accept_tasks
                    .lock()
                    .expect("not poisoned")
                    .spawn(async move {
                        if let Ok(mut server) = TcpStream::connect(&upstream).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                        }
                    });
                accept_connections
                    .lock()
                    .expect("not poisoned")
                    .push(handle);
            }
        });
        Self {
            addr,
            cut,
            connections,
            tasks,
        }
    }

    /// `database_url` through the proxy.
    pub fn url(&self, database_url: &str) -> String {
        database_url.replacen(host_port(database_url), &self.addr.to_string(), 1)
    }

    /// Cuts the database off: drops every connection and refuses new ones until
    /// [`DbProxy::restore`].
    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for connection in self.connections.lock().expect("not poisoned").drain(..) {
            connection.abort();
        }
    }

    /// Lets connections through again.
    pub fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for DbProxy {
    fn drop(&mut self) {
        self.tasks.lock().expect("not poisoned").abort_all();
    }
}

/// The `host:port` of a `postgres://user@host:port/database` URL.
fn host_port(database_url: &str) -> &str {
    let after_user = database_url
        .split_once('@')
        .map_or(database_url, |(_, rest)| rest);
    after_user
        .split(['/', '?'])
        .next()
        .expect("a URL with a host")
}
