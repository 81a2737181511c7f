//! A private PostgreSQL cluster that the project starts itself from the installed server binaries.
//!
//! It lives in a git-ignored data folder (`.pgdata` by default), listens on 127.0.0.1 only, trusts
//! local connections as the superuser `app`, and is reused between runs. `initdb` refuses to run as
//! root, so under root the cluster belongs to the `postgres` system user and every server command
//! runs through `runuser -u postgres --`. Concurrent callers (parallel test processes) serialise on a
//! lock file, so the cluster is initialised and started once.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The superuser of the private cluster.
const SUPERUSER: &str = "app";
/// The database the application uses inside the private cluster.
const APP_DATABASE: &str = "remindbot";

/// What can go wrong while preparing the private cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// No PostgreSQL server binaries were found.
    #[error(
        "PostgreSQL is not installed: no `initdb`/`pg_ctl` found (looked in $PG_BIN, $PATH and \
         /usr/lib/postgresql/*/bin). Fix: install the server (Debian/Ubuntu: `apt-get install \
         postgresql`; Fedora: `dnf install postgresql-server`; macOS: `brew install postgresql@15`), \
         or set PG_BIN to the folder holding initdb, or set DATABASE_URL to a server you already run"
    )]
    NotInstalled,
    /// Running as root, but there is no unprivileged `postgres` user to own the cluster.
    #[error(
        "running as root, and initdb refuses to run as root, but there is no `postgres` user to run \
         it as. Fix: create one (`useradd --system postgres`) or run as a normal user"
    )]
    NoPostgresUser,
    /// Another server already listens on the cluster's port.
    #[error(
        "port {0} on 127.0.0.1 is taken by another server. Fix: set REMINDBOT_PG_PORT to a free \
         port, or point DATABASE_URL at that server"
    )]
    PortTaken(u16),
    /// A server command failed.
    #[error("`{command}` failed: {output}")]
    Command {
        /// The command that failed.
        command: String,
        /// What it printed.
        output: String,
    },
    /// A file operation on the data folder failed.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The server started but did not accept connections in time.
    #[error("the private cluster did not accept connections on port {port}: {source}; see {log}")]
    NotReady {
        /// The port it should listen on.
        port: u16,
        /// The server log to read.
        log: String,
        /// The last connection error.
        source: sqlx::Error,
    },
}

/// A private cluster in a data folder, on a fixed local port.
#[derive(Clone, Debug)]
pub struct LocalCluster {
    dir: PathBuf,
    port: u16,
}

impl LocalCluster {
    /// Describes the cluster in `dir` on `port`; nothing is started yet.
    pub fn new(dir: &Path, port: u16) -> Self {
        Self {
            dir: dir.to_path_buf(),
            port,
        }
    }

    /// Initialises the cluster if needed, starts it if it is not running, creates the application
    /// database, and returns its URL.
    #[tracing::instrument(skip_all, fields(dir = %self.dir.display(), port = self.port))]
    pub async fn ensure_running(&self) -> Result<String, ClusterError> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.ensure_running_blocking())
            .await
            .expect("cluster start-up task panicked")?;
        let url = self.url(APP_DATABASE);
        self.create_app_database().await?;
        Ok(url)
    }

    /// Stops the cluster if it runs (fast shutdown).
    pub fn stop(&self) -> Result<(), ClusterError> {
        let runner = Runner::detect()?;
        let dir = self.cluster_dir(&runner)?;
        let data = dir.join("data");
        if !data.join("PG_VERSION").exists() || !self.is_running(&runner, &data)? {
            return Ok(());
        }
        runner.run(
            "pg_ctl",
            &["-D", &path_str(&data), "-m", "fast", "-w", "stop"],
        )?;
        Ok(())
    }

    /// The URL of `database` in this cluster.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{database}", self.port)
    }

    fn ensure_running_blocking(&self) -> Result<(), ClusterError> {
        let runner = Runner::detect()?;
        let dir = self.cluster_dir(&runner)?;
        let _lock = lock_folder(&dir)?;
        let data = dir.join("data");
        if !data.join("PG_VERSION").exists() {
            self.initialise(&runner, &dir, &data)?;
        }
        if !self.is_running(&runner, &data)? {
            if std::net::TcpListener::bind(("127.0.0.1", self.port)).is_err() {
                return Err(ClusterError::PortTaken(self.port));
            }
            let log = dir.join("server.log");
            runner.run(
                "pg_ctl",
                &[
                    "-D",
                    &path_str(&data),
                    "-l",
                    &path_str(&log),
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    &format!("-p {}", self.port),
                    "start",
                ],
            )?;
            tracing::info!(port = self.port, dir = %dir.display(), "started the private PostgreSQL cluster");
        }
        Ok(())
    }

    /// The folder the cluster lives in. Under root it must be reachable by the `postgres` user;
    /// when the chosen folder sits below one it cannot enter (such as /root), a folder under
    /// /var/tmp named after the chosen one is used instead.
    fn cluster_dir(&self, runner: &Runner) -> Result<PathBuf, ClusterError> {
        fs::create_dir_all(&self.dir).map_err(io("create", &self.dir))?;
        let dir = fs::canonicalize(&self.dir).map_err(io("resolve", &self.dir))?;
        let Runner::AsPostgres { .. } = runner else {
            return Ok(dir);
        };
        let dir = if runner.postgres_can_enter(&dir) {
            dir
        } else {
            let fallback = PathBuf::from(format!(
                "/var/tmp/remindbot-pgdata-{:016x}",
                super::fnv1a(dir.as_os_str().as_encoded_bytes())
            ));
            tracing::info!(
                chosen = %dir.display(),
                used = %fallback.display(),
                "the postgres user cannot enter the data folder; using a folder under /var/tmp"
            );
            fs::create_dir_all(&fallback).map_err(io("create", &fallback))?;
            fallback
        };
        runner.run_as_root("chown", &["postgres:", &path_str(&dir)])?;
        Ok(dir)
    }

    fn initialise(&self, runner: &Runner, dir: &Path, data: &Path) -> Result<(), ClusterError> {
        let staging = dir.join("data.initdb");
        if staging.exists() {
            fs::remove_dir_all(&staging).map_err(io("remove", &staging))?;
        }
        runner.run(
            "initdb",
            &[
                "-D",
                &path_str(&staging),
                "-A",
                "trust",
                "-U",
                SUPERUSER,
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        )?;
        let conf = staging.join("postgresql.conf");
        let mut file = OpenOptions::new()
            .append(true)
            .open(&conf)
            .map_err(io("open", &conf))?;
        file.write_all(
            b"\n# remindbot private cluster\nlisten_addresses = '127.0.0.1'\n\
              unix_socket_directories = ''\nmax_connections = 300\n",
        )
        .map_err(io("write", &conf))?;
        fs::rename(&staging, data).map_err(io("rename", &staging))?;
        tracing::info!(data = %data.display(), "initialised a private PostgreSQL cluster");
        Ok(())
    }

    fn is_running(&self, runner: &Runner, data: &Path) -> Result<bool, ClusterError> {
        let output = runner.output("pg_ctl", &["-D", &path_str(data), "status"])?;
        Ok(output.status.success())
    }

    async fn create_app_database(&self) -> Result<(), ClusterError> {
        use sqlx::Connection;
        let url = self.url("postgres");
        let mut last_error = None;
        for _ in 0..50 {
            match sqlx::PgConnection::connect(&url).await {
                Ok(mut conn) => {
                    let exists: bool = sqlx::query_scalar(
                        "select exists (select 1 from pg_database where datname = $1)",
                    )
                    .bind(APP_DATABASE)
                    .fetch_one(&mut conn)
                    .await
                    .map_err(|source| self.not_ready(source))?;
                    if !exists {
                        let created = sqlx::query("create database remindbot")
                            .execute(&mut conn)
                            .await;
                        // A concurrent caller may have created it first.
                        if let Err(e) = created
                            && !is_duplicate_database(&e)
                        {
                            return Err(self.not_ready(e));
                        }
                    }
                    return Ok(());
                }
                Err(e) => last_error = Some(e),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(self.not_ready(last_error.expect("at least one attempt")))
    }

    fn not_ready(&self, source: sqlx::Error) -> ClusterError {
        ClusterError::NotReady {
            port: self.port,
            log: self.dir.join("server.log").display().to_string(),
            source,
        }
    }
}

fn is_duplicate_database(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| code == "42P04")
}

/// How server commands are run: directly, or as the `postgres` user when we are root.
enum Runner {
    Direct { bin: PathBuf },
    AsPostgres { bin: PathBuf },
}

impl Runner {
    fn detect() -> Result<Self, ClusterError> {
        let bin = find_server_binaries().ok_or(ClusterError::NotInstalled)?;
        if !is_root() {
            return Ok(Self::Direct { bin });
        }
        let has_user = Command::new("id")
            .args(["-u", "postgres"])
            .output()
            .is_ok_and(|o| o.status.success());
        if has_user {
            Ok(Self::AsPostgres { bin })
        } else {
            Err(ClusterError::NoPostgresUser)
        }
    }

    fn command(&self, program: &str) -> Command {
        match self {
            Self::Direct { bin } => Command::new(bin.join(program)),
            Self::AsPostgres { bin } => {
                let mut command = Command::new("runuser");
                command
                    .args(["-u", "postgres", "--"])
                    .arg(bin.join(program));
                command
            }
        }
    }

    fn output(&self, program: &str, args: &[&str]) -> Result<Output, ClusterError> {
        self.command(program)
            .args(args)
            .output()
            .map_err(|e| ClusterError::Command {
                command: program.to_owned(),
                output: e.to_string(),
            })
    }

    fn run(&self, program: &str, args: &[&str]) -> Result<(), ClusterError> {
        check(program, args, self.output(program, args)?)
    }

    fn run_as_root(&self, program: &str, args: &[&str]) -> Result<(), ClusterError> {
        let output =
            Command::new(program)
                .args(args)
                .output()
                .map_err(|e| ClusterError::Command {
                    command: program.to_owned(),
                    output: e.to_string(),
                })?;
        check(program, args, output)
    }

    fn postgres_can_enter(&self, dir: &Path) -> bool {
        Command::new("runuser")
            .args(["-u", "postgres", "--", "test", "-x"])
            .arg(dir.parent().unwrap_or(dir))
            .status()
            .is_ok_and(|s| s.success())
    }
}

fn check(program: &str, args: &[&str], output: Output) -> Result<(), ClusterError> {
    if output.status.success() {
        return Ok(());
    }
    Err(ClusterError::Command {
        command: format!("{program} {}", args.join(" ")),
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
        .trim()
        .to_owned(),
    })
}

/// Finds the folder holding `initdb` and `pg_ctl`: `$PG_BIN`, then `$PATH`, then the newest
/// `/usr/lib/postgresql/<version>/bin` (Debian keeps the server binaries off `$PATH`), then the
/// usual source and Homebrew prefixes.
fn find_server_binaries() -> Option<PathBuf> {
    let has_tools = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    let from_env = std::env::var_os("PG_BIN").map(PathBuf::from);
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut debian: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .collect();
    debian.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    let others = [
        "/usr/local/pgsql/bin",
        "/opt/homebrew/bin",
        "/usr/local/bin",
    ]
    .into_iter()
    .map(PathBuf::from);
    from_env
        .into_iter()
        .chain(on_path)
        .chain(debian.into_iter().map(|(_, dir)| dir))
        .chain(others)
        .find(|dir| has_tools(dir))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Takes an exclusive lock on `dir/.lock`, held until the returned file is dropped.
fn lock_folder(dir: &Path) -> Result<File, ClusterError> {
    let path = dir.join(".lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io("open", &path))?;
    file.lock().map_err(io("lock", &path))?;
    Ok(file)
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError {
    let path = path.to_path_buf();
    move |source| ClusterError::Io {
        action,
        path,
        source,
    }
}

fn path_str(path: &Path) -> String {
    path.display().to_string()
}
