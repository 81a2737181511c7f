//! A real headless Chromium driven through WebDriver (Debian's `chromium` and `chromium-driver`,
//! fantoccini as the client): [`Browser::start`] runs `chromedriver` on a free port, opens a
//! session with a phone-sized window and kills the driver with its browser when dropped.
//!
//! Without the two binaries the tests that need them say so and pass, unless
//! `REMINDBOT_REQUIRE_BROWSER` is set, as CI sets it (`.ci/run` installs the packages).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use tokio::process::{Child, Command};

use crate::support::WAIT;

/// The window's size: a phone's, in CSS pixels.
pub const PHONE: (u32, u32) = (390, 844);

/// `chromedriver` with one browser session; both end when dropped.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    driver: Child,
}

/// The first of `names` found on `PATH` (or in /usr/bin, /usr/lib/chromium).
fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&path)
        .chain(["/usr/bin", "/usr/lib/chromium"].map(PathBuf::from))
        .collect::<Vec<_>>();
    names
        .iter()
        .flat_map(|name| dirs.iter().map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

impl Browser {
    /// Chromium behind `chromedriver`, or `None` (with a note) where they are not installed and
    /// not required.
    pub async fn start() -> Option<Self> {
        let driver = find(&["chromedriver"]);
        let chromium = find(&["chromium", "chromium-browser", "google-chrome"]);
        let (Some(driver), Some(chromium)) = (driver, chromium) else {
            assert!(
                std::env::var_os("REMINDBOT_REQUIRE_BROWSER").is_none(),
                "REMINDBOT_REQUIRE_BROWSER is set but chromium or chromedriver is missing: \
                 apt-get install chromium chromium-driver"
            );
            eprintln!(
                "chromium or chromedriver is not installed: the browser test did not run \
                 (apt-get install chromium chromium-driver)"
            );
            return None;
        };
        let port = free_port();
        let mut command = Command::new(driver);
        command
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so that dropping it ends the browsers it started too.
            .process_group(0)
            .kill_on_drop(true);
        let driver = command.spawn().expect("chromedriver starts");
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--hide-scrollbars",
                    "--force-device-scale-factor=1",
                    format!("--window-size={},{}", PHONE.0, PHONE.1),
                ],
            }
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!("an object")
        };
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let client = loop {
            let attempt = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&url)
                .await;
            match attempt {
                Ok(client) => break client,
                // chromedriver is still starting; its port answers within a second.
                Err(_) if started.elapsed() < 3 * WAIT => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(error) => panic!("a browser session through chromedriver: {error}"),
            }
        };
        Some(Self { client, driver })
    }

    /// Opens `url` (WebDriver returns once it has loaded).
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.expect("the page opens");
    }

    /// Runs `script` (a function body; `arguments` as given) and returns what it returns.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
    }

    /// Runs the asynchronous `script` (it calls `arguments[arguments.length - 1]` with its
    /// result) and returns its result.
    pub async fn js_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute_async(script, args)
            .await
            .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
    }

    /// Waits until `script` returns something other than `null`, `false` or `""`, and returns
    /// it; panics with `what` and the page's text after [`WAIT`].
    pub async fn until(&self, what: &str, script: &str) -> Value {
        let started = Instant::now();
        loop {
            let value = self.js(script, Vec::new()).await;
            if !matches!(&value, Value::Null | Value::Bool(false))
                && value.as_str() != Some("")
            {
                return value;
            }
            if started.elapsed() > WAIT {
                let page = self.js("return document.body.innerText", Vec::new()).await;
                panic!("timed out waiting for {what}; the page shows: {page}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The page's visible text.
    pub async fn text(&self) -> String {
        let text = self.js("return document.body.innerText", Vec::new()).await;
        text.as_str().unwrap_or_default().to_owned()
    }

    /// A PNG of the window.
    pub async fn screenshot(&self) -> Vec<u8> {
        self.client.screenshot().await.expect("a screenshot")
    }

    /// Ends the session and the driver.
    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        self.kill_group();
    }

    fn kill_group(&mut self) {
        if let Some(pid) = self.driver.id() {
            // The driver leads its group: the browser and its helpers end with it.
            // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
            unsafe {
                libc::kill(-(pid as i32), libc::SIGKILL);
            }
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.kill_group();
    }
}
