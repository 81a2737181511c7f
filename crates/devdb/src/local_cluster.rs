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
    /// Other servers listen on the cluster's port and the 100 after it.
    #[error(
        "port {0} on 127.0.0.1 and the 100 after it are taken. Fix: set REMINDBOT_PG_PORT to a \
         free port, or point DATABASE_URL at a server you run"
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
    /// database, and returns its URL. A cluster of this folder that already runs is used on the
    /// port it runs on.
    #[tracing::instrument(skip_all, fields(dir = %self.dir.display(), port = self.port))]
    pub async fn ensure_running(&self) -> Result<String, ClusterError> {
        let this = self.clone();
        let running = tokio::task::spawn_blocking(move || this.ensure_running_blocking())
            .await
            .expect("cluster start-up task panicked")?;
        running.create_app_database().await?;
        Ok(running.url(APP_DATABASE))
    }

    /// Stops the cluster if it runs (fast shutdown).
    pub fn stop(&self) -> Result<(), ClusterError> {
        let as_postgres = must_run_as_postgres()?;
        let dir = self.cluster_dir(as_postgres)?;
        let _lock = lock_folder(&dir)?;
        let data = dir.join("data");
        if !data.join("PG_VERSION").exists() {
            return Ok(());
        }
        let runner = Runner::find(&data, as_postgres)?;
        if runner.is_running(&data)? {
            runner.run(
                "pg_ctl",
                &["-D", &path_str(&data), "-m", "fast", "-w", "stop"],
            )?;
        }
        Ok(())
    }

    fn ensure_running_blocking(&self) -> Result<Running, ClusterError> {
        let as_postgres = must_run_as_postgres()?;
        let dir = self.cluster_dir(as_postgres)?;
        let _lock = lock_folder(&dir)?;
        let data = dir.join("data");
        let runner = Runner::find(&data, as_postgres)?;
        if !data.join("PG_VERSION").exists() {
            self.initialise(&runner, &dir, &data)?;
        }
        let log = dir.join("server.log");
        if runner.is_running(&data)? {
            let port = running_port(&data).unwrap_or(self.port);
            if port != self.port {
                tracing::info!(
                    port,
                    "the private cluster already runs on another port; using it"
                );
            }
            return Ok(Running { port, log });
        }
        let port = free_port_from(self.port).ok_or(ClusterError::PortTaken(self.port))?;
        if port != self.port {
            tracing::warn!(
                wanted = self.port,
                port,
                "the cluster's port is taken; using the next free one"
            );
        }
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
                &format!("-p {port}"),
                "start",
            ],
        )?;
        tracing::info!(port, dir = %dir.display(), "started the private PostgreSQL cluster");
        Ok(Running { port, log })
    }

    /// The folder the cluster lives in. Under root it must be reachable by the `postgres` user;
    /// when the chosen folder sits below one it cannot enter (such as /root), a private folder
    /// under /var/tmp named after the chosen one is used instead.
    fn cluster_dir(&self, as_postgres: bool) -> Result<PathBuf, ClusterError> {
        fs::create_dir_all(&self.dir).map_err(io("create", &self.dir))?;
        let dir = fs::canonicalize(&self.dir).map_err(io("resolve", &self.dir))?;
        if !as_postgres {
            return Ok(dir);
        }
        if postgres_can_enter(&dir) {
            chown_to_postgres(&dir)?;
            return Ok(dir);
        }
        let fallback = PathBuf::from(format!(
            "/var/tmp/remindbot-pgdata-{:016x}",
            super::fnv1a(dir.as_os_str().as_encoded_bytes())
        ));
        tracing::info!(
            chosen = %dir.display(),
            used = %fallback.display(),
            "the postgres user cannot enter the data folder; using a folder under /var/tmp"
        );
        create_private_folder(&fallback)?;
        chown_to_postgres(&fallback)?;
        Ok(fallback)
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
        let settings = format!(
            "\n# remindbot private cluster\nport = {}\nlisten_addresses = '127.0.0.1'\n\
             unix_socket_directories = ''\nmax_connections = 300\n",
            self.port
        );
        file.write_all(settings.as_bytes())
            .map_err(io("write", &conf))?;
        fs::rename(&staging, data).map_err(io("rename", &staging))?;
        tracing::info!(data = %data.display(), "initialised a private PostgreSQL cluster");
        Ok(())
    }
}

/// A running cluster: its port, and the log to point at when it misbehaves.
struct Running {
    port: u16,
    log: PathBuf,
}

impl Running {
    fn url(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{database}", self.port)
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
                        let created = sqlx::query(sqlx::AssertSqlSafe(format!(
                            "create database {APP_DATABASE}"
                        )))
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
            log: self.log.display().to_string(),
            source,
        }
    }
}

/// `wanted`, or the first of the next 100 ports that is free on 127.0.0.1 (another checkout's
/// cluster, or any other server, may hold it).
fn free_port_from(wanted: u16) -> Option<u16> {
    (wanted..=wanted.saturating_add(100))
        .find(|port| std::net::TcpListener::bind(("127.0.0.1", *port)).is_ok())
}

/// The port a running cluster listens on, from line 4 of its `postmaster.pid`.
fn running_port(data: &Path) -> Option<u16> {
    fs::read_to_string(data.join("postmaster.pid"))
        .ok()?
        .lines()
        .nth(3)?
        .trim()
        .parse()
        .ok()
}

/// Whether `CREATE DATABASE` failed because the database exists: `duplicate_database` (42P04)
/// when it existed before, or `unique_violation` (23505) on `pg_database` when a concurrent
/// caller created it during ours.
fn is_duplicate_database(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| code == "42P04" || code == "23505")
}

/// Runs the server binaries: directly, or as the `postgres` user when we are root.
struct Runner {
    bin: PathBuf,
    as_postgres: bool,
}

impl Runner {
    /// The binaries for the cluster in `data`: those of its major version when it exists.
    fn find(data: &Path, as_postgres: bool) -> Result<Self, ClusterError> {
        let version = fs::read_to_string(data.join("PG_VERSION")).ok();
        let bin = find_server_binaries(version.as_deref().map(str::trim))
            .ok_or(ClusterError::NotInstalled)?;
        Ok(Self { bin, as_postgres })
    }

    fn command(&self, program: &str) -> Command {
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command
                .args(["-u", "postgres", "--"])
                .arg(self.bin.join(program));
            command
        } else {
            Command::new(self.bin.join(program))
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

    fn is_running(&self, data: &Path) -> Result<bool, ClusterError> {
        let output = self.output("pg_ctl", &["-D", &path_str(data), "status"])?;
        Ok(output.status.success())
    }
}

/// Whether server commands must run as the `postgres` user (we are root, which initdb refuses).
fn must_run_as_postgres() -> Result<bool, ClusterError> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        return Ok(false);
    }
    postgres_uid()
        .map(|_| true)
        .ok_or(ClusterError::NoPostgresUser)
}

fn postgres_uid() -> Option<u32> {
    let output = Command::new("id").args(["-u", "postgres"]).output().ok()?;
    if !output.status.success() {
        return None;
    }
    String::from_utf8_lossy(&output.stdout).trim().parse().ok()
}

fn postgres_can_enter(dir: &Path) -> bool {
    Command::new("runuser")
        .args(["-u", "postgres", "--", "test", "-x"])
        .arg(dir.parent().unwrap_or(dir))
        .status()
        .is_ok_and(|s| s.success())
}

/// Hands `dir` to the `postgres` user, without following a symbolic link.
fn chown_to_postgres(dir: &Path) -> Result<(), ClusterError> {
    let args = ["-h", "postgres:", &path_str(dir)];
    let output = Command::new("chown")
        .args(args)
        .output()
        .map_err(|e| ClusterError::Command {
            command: "chown".to_owned(),
            output: e.to_string(),
        })?;
    check("chown", &args, output)
}

/// Creates a folder only we can use; an existing one must be a real folder owned by root or
/// `postgres` (not a link or a folder another user planted).
fn create_private_folder(dir: &Path) -> Result<(), ClusterError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io("create", dir)(e)),
    }
    let meta = fs::symlink_metadata(dir).map_err(io("inspect", dir))?;
    let trusted_owner = meta.uid() == 0 || Some(meta.uid()) == postgres_uid();
    if meta.is_dir() && trusted_owner && meta.mode() & 0o077 == 0 {
        Ok(())
    } else {
        Err(io("use", dir)(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "exists but is not a private folder of root or postgres; remove it",
        )))
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

/// Finds the folder holding `initdb` and `pg_ctl`: `$PG_BIN`, then `/usr/lib/postgresql/<version>/bin`
/// of an existing cluster's version, then `$PATH`, then the newest `/usr/lib/postgresql/*/bin`
/// (Debian keeps the server binaries off `$PATH`), then the usual source and Homebrew prefixes.
fn find_server_binaries(version: Option<&str>) -> Option<PathBuf> {
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
    let same_version = version.map(|v| PathBuf::from(format!("/usr/lib/postgresql/{v}/bin")));
    from_env
        .into_iter()
        .chain(same_version)
        .chain(on_path)
        .chain(debian.into_iter().map(|(_, dir)| dir))
        .chain(others)
        .find(|dir| has_tools(dir))
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
