//! A real headless Chromium driven through WebDriver (Debian's `chromium` and `chromium-driver`):
//! [`Browser::start`] runs `chromedriver` on a free port, opens a session with a phone-sized
//! window and kills the driver with its browser when dropped. The client is the W3C WebDriver
//! protocol's few commands the tests use, as JSON over HTTP with the tests' reqwest (a WebDriver
//! crate would bring some 25 crates into the build for them).
//!
//! Without the two binaries the tests that need them say so and pass, unless
//! `REMINDBOT_REQUIRE_BROWSER` is set, as CI sets it (`.ci/run` installs the packages).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::process::{Child, Command};

use crate::support::WAIT;

/// The window's size: a phone's, in CSS pixels.
pub const PHONE: (u32, u32) = (390, 844);

/// The key of a web element's id in WebDriver's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// `chromedriver` with one browser session; both end when dropped.
pub struct Browser {
    http: reqwest::Client,
    /// `http://127.0.0.1:<port>/session/<id>`.
    session: String,
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

/// Sends one WebDriver command; returns its `value`, or WebDriver's error as text.
async fn command(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    body: Option<Value>,
) -> Result<Value, String> {
    let mut request = http.request(method, url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    let mut answer: Value = response.json().await.map_err(|e| e.to_string())?;
    let value = answer["value"].take();
    if status.is_success() {
        Ok(value)
    } else {
        Err(format!("{status}: {} {}", value["error"], value["message"]))
    }
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
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so that dropping it ends the browser it started too.
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .expect("chromedriver starts");
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--hide-scrollbars",
                ],
                // The page sees a phone's viewport (a desktop window is at least 500 wide).
                "mobileEmulation": {"deviceMetrics": {
                    "width": PHONE.0, "height": PHONE.1, "pixelRatio": 1
                }},
            }
        }}});
        let http = reqwest::Client::new();
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let session = loop {
            let attempt = command(
                &http,
                reqwest::Method::POST,
                &format!("{base}/session"),
                Some(capabilities.clone()),
            )
            .await;
            match attempt {
                Ok(value) => {
                    break value["sessionId"]
                        .as_str()
                        .expect("a session id")
                        .to_owned();
                }
                // chromedriver is still starting; its port answers within a second.
                Err(_) if started.elapsed() < 3 * WAIT => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(error) => panic!("a browser session through chromedriver: {error}"),
            }
        };
        Some(Self {
            http,
            session: format!("{base}/session/{session}"),
            driver,
        })
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        let body = (method != reqwest::Method::GET).then_some(body);
        command(&self.http, method, &format!("{}{path}", self.session), body)
            .await
            .unwrap_or_else(|e| panic!("WebDriver {path}: {e}"))
    }

    /// Opens `url` afresh (WebDriver returns once it has loaded): through a blank page first,
    /// since a URL that differs from the current one only in its fragment would not load again.
    pub async fn open(&self, url: &str) {
        for url in ["about:blank", url] {
            self.call(reqwest::Method::POST, "/url", json!({ "url": url }))
                .await;
        }
    }

    /// Runs `script` (a function body; `arguments` as given) and returns what it returns.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.call(
            reqwest::Method::POST,
            "/execute/sync",
            json!({"script": script, "args": args}),
        )
        .await
    }

    /// Runs the asynchronous `script` (it calls `arguments[arguments.length - 1]` with its
    /// result) and returns its result.
    pub async fn js_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.call(
            reqwest::Method::POST,
            "/execute/async",
            json!({"script": script, "args": args}),
        )
        .await
    }

    /// Waits until `script` returns something other than `null`, `false` or `""`, and returns
    /// it; panics with `what` and the page's text after [`WAIT`].
    pub async fn until(&self, what: &str, script: &str) -> Value {
        let started = Instant::now();
        loop {
            let value = self.js(script, Vec::new()).await;
            if !matches!(&value, Value::Null | Value::Bool(false)) && value.as_str() != Some("") {
                return value;
            }
            if started.elapsed() > WAIT {
                panic!(
                    "timed out waiting for {what}; the page shows: {}",
                    self.text().await
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The element `script` returns (e.g. `return document.querySelector(…)`), once it returns
    /// one; panics with `what` after [`WAIT`].
    async fn element(&self, what: &str, script: &str) -> String {
        let found = self.until(what, script).await;
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: not an element: {found}"))
            .to_owned()
    }

    /// Clicks, as a user does, the element `script` returns, once it does.
    pub async fn click(&self, what: &str, script: &str) {
        let id = self.element(what, script).await;
        self.call(
            reqwest::Method::POST,
            &format!("/element/{id}/click"),
            json!({}),
        )
        .await;
    }

    /// Types `text` into the element `script` returns, once it does, as a keyboard would.
    pub async fn type_into(&self, what: &str, script: &str, text: &str) {
        let id = self.element(what, script).await;
        self.call(
            reqwest::Method::POST,
            &format!("/element/{id}/value"),
            json!({ "text": text }),
        )
        .await;
    }

    /// Sends the DevTools command `cmd` with `params` to the browser through chromedriver's
    /// endpoint for it (e.g. `Browser.grantPermissions`, `Emulation.setGeolocationOverride`).
    pub async fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.call(
            reqwest::Method::POST,
            "/goog/cdp/execute",
            json!({ "cmd": cmd, "params": params }),
        )
        .await
    }

    /// The page's visible text.
    pub async fn text(&self) -> String {
        let text = self.js("return document.body.innerText", Vec::new()).await;
        text.as_str().unwrap_or_default().to_owned()
    }

    /// A PNG of the window.
    pub async fn screenshot(&self) -> Vec<u8> {
        let encoded = self
            .call(reqwest::Method::GET, "/screenshot", Value::Null)
            .await;
        base64_decode(encoded.as_str().expect("base64 text"))
    }

    /// Ends the session and the driver.
    pub async fn close(self) {
        let _ = command(&self.http, reqwest::Method::DELETE, &self.session, None).await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(pid) = self.driver.id() {
            // The driver leads its group: the browser and its helpers end with it.
            // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
            unsafe {
                libc::kill(-(pid as i32), libc::SIGKILL);
            }
        }
    }
}

/// Standard base64 (WebDriver's screenshots) to bytes.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .map(value)
        .collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, d)| n | u32::from(*d) << (18 - 6 * i));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(chunk.len().saturating_sub(1))
        })
        .collect()
}

#[test]
fn base64_decodes_as_rfc_4648_says() {
    assert_eq!(base64_decode("Zm9vYmFy"), b"foobar");
    assert_eq!(base64_decode("Zm9vYg=="), b"foob");
    assert_eq!(base64_decode("Zm9vYmE="), b"fooba");
}
