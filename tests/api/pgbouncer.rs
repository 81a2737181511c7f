//! PgBouncer in front of the database: in transaction pooling (one server session handed from
//! client to client) `remindbot check` fails its pooling line and `remindbot run` refuses to start,
//! both saying why; in session pooling both are content. Debian's pgbouncer, run by the test.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

use crate::app::TestApp;
use crate::support::{WAIT, eventually};

/// A pgbouncer process in front of the tests' server, killed when dropped.
struct Bouncer {
    addr: SocketAddr,
    _child: Child,
}

impl Bouncer {
    /// Starts pgbouncer in `pool_mode` for every database of the server at `server` (a URL).
    async fn start(server: &str, pool_mode: &str) -> Self {
        let server = reqwest::Url::parse(server).expect("the server's URL");
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let ini = std::env::temp_dir().join(format!("remindbot-pgbouncer-{}.ini", addr.port()));
        std::fs::write(
            &ini,
            format!(
                "[databases]\n* = host={} port={} user={}\n[pgbouncer]\nlisten_addr = 127.0.0.1\n\
                 listen_port = {}\nunix_socket_dir =\nauth_type = any\npool_mode = {pool_mode}\n\
                 max_client_conn = 100\ndefault_pool_size = 5\n\
                 ignore_startup_parameters = extra_float_digits\n",
                server.host_str().unwrap(),
                server.port().unwrap_or(5432),
                server.username(),
                addr.port(),
            ),
        )
        .unwrap();
        // pgbouncer refuses to run as root, as initdb does: the cluster's user runs it then.
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let mut command = if root {
            let mut runuser = Command::new("runuser");
            runuser.args(["-u", "postgres", "--", "pgbouncer"]);
            runuser
        } else {
            Command::new("pgbouncer")
        };
        let child = command
            .arg(&ini)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("pgbouncer starts (apt-get install pgbouncer)");
        eventually(WAIT, "pgbouncer to listen", || async {
            tokio::net::TcpStream::connect(addr).await.is_ok()
        })
        .await;
        Self {
            addr,
            _child: child,
        }
    }

    /// `url` with its host and port this pgbouncer's.
    fn in_front_of(&self, url: &str) -> String {
        let mut url = reqwest::Url::parse(url).unwrap();
        url.set_port(Some(self.addr.port())).unwrap();
        url.to_string()
    }
}

/// What `remindbot <subcommand>` printed (stdout and stderr) and whether it succeeded, run
/// against `database_url`.
async fn output(app: &TestApp, subcommand: &str, database_url: &str) -> (bool, String) {
    let run = app
        .command(subcommand)
        .env("DATABASE_URL", database_url)
        .stdin(Stdio::null())
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("it ends by itself")
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

#[tokio::test]
async fn check_and_run_refuse_transaction_pooling_and_say_why_and_accept_session_pooling() {
    let app = TestApp::builder().prepare().await;
    let server = crate::support::server_url().await;

    let transaction = Bouncer::start(&server, "transaction").await;
    let url = transaction.in_front_of(app.database_url());
    let (passed, said) = output(&app, "check", &url).await;
    assert!(!passed, "{said}");
    assert!(said.contains("FAIL  pooling"), "{said}");
    assert!(said.contains("pool_mode = session"), "{said}");
    let (started, said) = output(&app, "run", &url).await;
    assert!(!started, "{said}");
    assert!(said.contains("transaction or statement pooling"), "{said}");

    let session = Bouncer::start(&server, "session").await;
    let url = session.in_front_of(app.database_url());
    let (_, said) = output(&app, "check", &url).await;
    assert!(
        said.contains("ok    pooling    a server session per connection"),
        "{said}"
    );
}
