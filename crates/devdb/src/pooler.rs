//! PgBouncer in front of a server, for the tests of how the bot behaves behind a connection
//! pooler (most managed PostgreSQL offers put one there): Debian's `pgbouncer` package, started
//! in the foreground on a free port with a configuration of its own, stopped with its handle.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::PgConnectOptions;

/// How PgBouncer hands server connections to its clients (its `pool_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolMode {
    /// A client keeps its server connection until it disconnects.
    Session,
    /// A client holds a server connection only for the length of a transaction.
    Transaction,
}

impl PoolMode {
    fn as_setting(self) -> &'static str {
        match self {
            Self::Session => "session",
            Self::Transaction => "transaction",
        }
    }
}

/// What can go wrong while starting PgBouncer.
#[derive(Debug, thiserror::Error)]
pub enum PoolerError {
    /// No `pgbouncer` binary on this machine.
    #[error("pgbouncer is not installed (apt-get install pgbouncer)")]
    NotInstalled,
    /// The server URL could not be read.
    #[error("the server URL: {0}")]
    Url(#[from] sqlx::Error),
    /// Writing its configuration or starting it failed.
    #[error("starting pgbouncer: {0}")]
    Io(#[from] std::io::Error),
    /// It did not listen within its time; its log says why.
    #[error("pgbouncer did not start within 10 s; its log: {log}")]
    NotReady {
        /// What PgBouncer printed.
        log: String,
    },
}

/// A running PgBouncer in front of one server; killed, and its files removed, when dropped.
pub struct Pooler {
    child: Child,
    dir: PathBuf,
    port: u16,
}

impl Pooler {
    /// Starts PgBouncer in `mode` in front of the server of `server_url`, trusting every user of
    /// `users` (the server must trust them too, as the tests' servers do). As root, it runs as the
    /// `postgres` user, since PgBouncer refuses root.
    pub async fn start(
        server_url: &str,
        mode: PoolMode,
        users: &[&str],
    ) -> Result<Self, PoolerError> {
        let binary = find_binary().ok_or(PoolerError::NotInstalled)?;
        let server = PgConnectOptions::from_str(server_url)?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let dir =
            std::env::temp_dir().join(format!("devdb-pgbouncer-{}-{port}", std::process::id()));
        fs::create_dir_all(&dir)?;
        let auth: String = users
            .iter()
            .map(|user| format!("\"{user}\" \"\"\n"))
            .collect();
        fs::write(dir.join("users.txt"), auth)?;
        let ini = format!(
            "[databases]\n* = host={host} port={server_port}\n\n[pgbouncer]\n\
             listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n\
             auth_type = trust\nauth_file = {auth_file}\npool_mode = {mode}\n\
             max_client_conn = 500\ndefault_pool_size = 40\n\
             ignore_startup_parameters = extra_float_digits,options\n",
            host = server.get_host(),
            server_port = server.get_port(),
            auth_file = dir.join("users.txt").display(),
            mode = mode.as_setting(),
        );
        let ini_path = dir.join("pgbouncer.ini");
        fs::write(&ini_path, ini)?;
        let log_path = dir.join("pgbouncer.log");
        let log = fs::File::create(&log_path)?;
        let mut command = if is_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(binary);
            command
        } else {
            Command::new(binary)
        };
        let child = command
            .arg(&ini_path)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()?;
        let pooler = Self { child, dir, port };
        pooler.wait_listening(&log_path).await?;
        Ok(pooler)
    }

    /// `database_url` with its host and port replaced by PgBouncer's: the same user and database,
    /// through the pooler.
    pub fn url_for(&self, database_url: &str) -> Result<String, PoolerError> {
        let options = PgConnectOptions::from_str(database_url)?;
        Ok(format!(
            "postgres://{}@127.0.0.1:{}/{}",
            options.get_username(),
            self.port,
            options.get_database().unwrap_or(options.get_username()),
        ))
    }

    async fn wait_listening(&self, log: &Path) -> Result<(), PoolerError> {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err(PoolerError::NotReady {
            log: fs::read_to_string(log).unwrap_or_default(),
        })
    }
}

impl Drop for Pooler {
    fn drop(&mut self) {
        // A SIGKILL to runuser would leave PgBouncer, its child, running: kill the child first.
        let _ = Command::new("pkill")
            .args(["-KILL", "-P", &self.child.id().to_string()])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn find_binary() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/local/sbin")])
        .map(|dir| dir.join("pgbouncer"))
        .find(|candidate| candidate.is_file())
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}
