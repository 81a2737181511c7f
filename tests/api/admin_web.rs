//! The admin page: refused without the token, with a wrong one, or with a forged CSRF token;
//! shows the failures with their reasons; Retry and Cancel change the job and are recorded. A weak
//! token is refused at start; wrong tokens (form or bearer) slow their address down (429 with
//! `Retry-After`, after the delay) and are logged without the token, yet no flood keeps the right
//! token out; a proxy's forwarding headers count only when it is trusted; every response carries
//! the security headers; the `?done=` notice is one of a fixed set.

use pgqueue::JobId;
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::{Duration, Instant};

use pgqueue::{JobState, QueueConfig, maintenance};
use remindbot::admin::client::TrustedProxies;
use remindbot::admin::session::AdminToken;
use remindbot::admin::session::throttle::SlowdownPolicy;
use remindbot::admin::web::{self, AdminWebSettings};
use remindbot::store::{OUTBOX_QUEUE, outbox_queue};
use reqwest::StatusCode;
use reqwest::header::{
    ACCEPT_LANGUAGE, AUTHORIZATION, COOKIE, HeaderName, LOCATION, RETRY_AFTER, SET_COOKIE,
};
use secrecy::SecretString;
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::support::{TestDb, WAIT, db_now, job_by_id, task_due_now};

const TOKEN: &str = "s3cret-admin-token-0123456789abcdef";

struct AdminSite {
    db: TestDb,
    base: String,
    client: reqwest::Client,
    failed_job: i64,
}

/// The page's settings with [`TOKEN`].
fn settings() -> AdminWebSettings {
    AdminWebSettings::new(AdminToken::new(SecretString::from(TOKEN)).unwrap())
}

/// Settings whose slowdown comes quickly: 2 free failures, then 1 s.
fn quick_slowdown() -> AdminWebSettings {
    AdminWebSettings {
        slowdown: SlowdownPolicy {
            free_failures: 2,
            address_base: Duration::from_secs(1),
            ..SlowdownPolicy::default()
        },
        ..settings()
    }
}

/// `settings` behind a proxy on 127.0.0.1 that the page trusts to name the client.
fn behind_trusted_proxy(settings: AdminWebSettings) -> AdminWebSettings {
    AdminWebSettings {
        trusted_proxies: TrustedProxies::new(vec!["127.0.0.1".parse().unwrap()]),
        ..settings
    }
}

/// Serves the admin router on a free port over a database with one failed reminder.
async fn site(settings: Option<AdminWebSettings>) -> AdminSite {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    task_due_now(&db.pool, &queue, 77, "pay <rent> & call").await;
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.retry(&job, "Bad Gateway", None).await.unwrap();
    // Due again at once, rather than after the backoff.
    let mut conn = db.pool.acquire().await.unwrap();
    let now = db_now(&db.pool).await;
    assert!(
        maintenance::reschedule_job(&mut conn, job.id, now)
            .await
            .unwrap()
    );
    drop(conn);
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue
        .fail(&db.pool, &job, "Forbidden: bot was blocked by the user")
        .await
        .unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = web::router(queue.clone(), settings);
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    AdminSite {
        db,
        base,
        client,
        failed_job: job.id.0,
    }
}

impl AdminSite {
    async fn get_response(
        &self,
        path: &str,
        headers: &[(HeaderName, String)],
    ) -> reqwest::Response {
        let mut request = self.client.get(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(name, value);
        }
        request.send().await.unwrap()
    }

    async fn get(&self, path: &str, headers: &[(HeaderName, String)]) -> (StatusCode, String) {
        let response = self.get_response(path, headers).await;
        (response.status(), response.text().await.unwrap())
    }

    async fn post(
        &self,
        path: &str,
        cookie: Option<&str>,
        form: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = self.client.post(format!("{}{path}", self.base)).form(form);
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        request.send().await.unwrap()
    }

    async fn login(&self, token: &str) -> reqwest::Response {
        self.post("/admin/login", None, &[("token", token)]).await
    }

    /// Signs in with `token` through a proxy that says the client is `forwarded_for`.
    async fn login_via_proxy(&self, token: &str, forwarded_for: &str) -> reqwest::Response {
        self.client
            .post(format!("{}/admin/login", self.base))
            .header("x-forwarded-for", forwarded_for)
            .form(&[("token", token)])
            .send()
            .await
            .unwrap()
    }

    /// Signs in through the form; returns the cookie and the page's CSRF token.
    async fn sign_in(&self) -> (String, String) {
        let response = self.login(TOKEN).await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        let set_cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_owned();
        assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"));
        assert!(set_cookie.contains("Max-Age=43200"), "{set_cookie}");
        let cookie = set_cookie.split(';').next().unwrap().to_owned();
        let (status, html) = self.get("/admin", &[(COOKIE, cookie.clone())]).await;
        assert_eq!(status, StatusCode::OK);
        let csrf = html
            .split("name=\"csrf\" value=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .to_owned();
        (cookie, csrf)
    }

    async fn job_state(&self) -> JobState {
        job_by_id(&self.db.pool, JobId(self.failed_job)).await.state
    }
}

fn bearer(token: &str) -> [(HeaderName, String); 1] {
    [(AUTHORIZATION, format!("Bearer {token}"))]
}

#[tokio::test]
async fn the_page_is_off_without_a_configured_token() {
    let site = site(None).await;
    let (status, _) = site.get("/admin", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = site
        .get("/admin", &[(AUTHORIZATION, "Bearer ".to_owned())])
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_weak_token_stops_run_and_admin_serve_before_they_start() {
    let weak = "change-me";
    for args in [&["run"][..], &["admin", "serve"]] {
        let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_remindbot"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TELOXIDE_TOKEN", "123:not-used")
            .env("ADMIN_TOKEN", weak)
            .env("DATABASE_URL", "postgres://nobody@127.0.0.1:9/never")
            .current_dir(std::env::temp_dir())
            .output()
            .await
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} started: {stderr}");
        assert!(
            stderr.contains("ADMIN_TOKEN") && stderr.contains("openssl rand -hex 32"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains(weak), "the token is not echoed: {stderr}");
        assert!(!stderr.contains("database"), "nothing started: {stderr}");
    }
}

#[tokio::test]
async fn strangers_are_refused_without_or_with_a_wrong_token() {
    let site = site(Some(settings())).await;
    let (status, html) = site.get("/admin", &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(html.contains("Admin token") && !html.contains("blocked"));
    let wrong = bearer("s3cret-admin-token-0123456789abcdeF");
    assert_eq!(site.get("/admin", &wrong).await.0, StatusCode::UNAUTHORIZED);
    let forged_cookie = [(COOKIE, "remindbot_admin=0123456789abcdef".to_owned())];
    assert_eq!(
        site.get("/admin", &forged_cookie).await.0,
        StatusCode::UNAUTHORIZED
    );
    let response = site.login("guess").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert!(response.text().await.unwrap().contains("Wrong token."));
    let path = format!("/admin/jobs/{}/retry", site.failed_job);
    assert_eq!(
        site.post(&path, None, &[]).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(site.job_state().await, JobState::Failed);
}

#[tokio::test]
async fn an_address_that_guesses_is_slowed_down_but_its_right_token_signs_in_at_once() {
    let site = site(Some(quick_slowdown())).await;
    for guess in ["guess-one", "guess-two"] {
        assert_eq!(site.login(guess).await.status(), StatusCode::UNAUTHORIZED);
    }
    let started = Instant::now();
    let slowed = site.login("guess-three").await;
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "the answer waited"
    );
    assert_eq!(slowed.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(slowed.headers()[RETRY_AFTER], "1");
    let page = slowed.text().await.unwrap();
    assert!(
        page.contains("Wrong token.") && page.contains("now waits 1 s"),
        "{page}"
    );

    let signed_in = site.login(TOKEN).await;
    assert_eq!(
        signed_in.status(),
        StatusCode::SEE_OTHER,
        "the right token signs in on its first try"
    );
    assert_eq!(site.get("/admin", &bearer(TOKEN)).await.0, StatusCode::OK);
    assert_eq!(
        site.login("guess-four").await.status(),
        StatusCode::UNAUTHORIZED,
        "a right token resets the count: free tries again"
    );
}

#[tokio::test]
async fn a_flood_of_wrong_tokens_never_keeps_the_right_token_out() {
    // Behind a proxy the page does not know of, every guess comes from one address.
    let site = site(Some(settings())).await;
    for n in 0..6 {
        let status = site.login(&format!("guess-{n}")).await.status();
        assert_ne!(status, StatusCode::SEE_OTHER);
    }
    assert_eq!(site.login(TOKEN).await.status(), StatusCode::SEE_OTHER);

    // 30 addresses × 5 wrong tokens at once: past the budget of all addresses together.
    let site = self::site(Some(behind_trusted_proxy(settings()))).await;
    let mut flood = tokio::task::JoinSet::new();
    for address in 0..30 {
        for guess in 0..5 {
            let client = site.client.clone();
            let url = format!("{}/admin/login", site.base);
            flood.spawn(async move {
                client
                    .post(url)
                    .header("x-forwarded-for", format!("198.51.100.{address}"))
                    .form(&[("token", format!("guess-{address}-{guess}"))])
                    .send()
                    .await
                    .unwrap()
                    .status()
            });
        }
    }
    let statuses = flood.join_all().await;
    assert_eq!(statuses.len(), 150);
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    assert!(statuses.iter().all(|s| *s != StatusCode::SEE_OTHER));
    for admin in ["203.0.113.77", "198.51.100.3"] {
        assert_eq!(
            site.login_via_proxy(TOKEN, admin).await.status(),
            StatusCode::SEE_OTHER,
            "the right token from {admin} signs in on its first try"
        );
    }
}

#[tokio::test]
async fn a_spoofed_forwarded_for_is_ignored_unless_the_proxy_is_trusted() {
    // Not trusted: three guesses naming three clients are one address's, and it is slowed.
    let site = site(Some(quick_slowdown())).await;
    let mut statuses = Vec::new();
    for n in 1..=3 {
        let status = site
            .login_via_proxy("guess", &format!("192.0.2.{n}"))
            .await
            .status();
        statuses.push(status);
    }
    assert_eq!(
        statuses,
        [
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );

    // Trusted: each client named is counted on its own.
    let site = self::site(Some(behind_trusted_proxy(quick_slowdown()))).await;
    for n in 1..=3 {
        let response = site.login_via_proxy("guess", &format!("192.0.2.{n}")).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "client {n}");
    }
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(site.login_via_proxy("guess", "192.0.2.9").await.status());
    }
    assert_eq!(statuses[2], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
}

/// `remindbot admin serve` with [`TOKEN`], JSON logs on standard error; its base URL.
async fn serve_alone(db: &TestDb) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_remindbot"))
        .args(["admin", "serve", "--addr", "127.0.0.1:0"])
        .env("DATABASE_URL", db.url())
        .env("ADMIN_TOKEN", TOKEN)
        .env("LOG_FORMAT", "json")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    // The built binary starts and migrates before its banner.
    let banner = tokio::time::timeout(WAIT * 2, stdout.next_line())
        .await
        .expect("admin serve starts")
        .unwrap()
        .expect("a banner line");
    let base = banner
        .strip_prefix("admin page at ")
        .and_then(|url| url.strip_suffix("/admin"))
        .unwrap_or_else(|| panic!("unexpected banner {banner:?}"))
        .to_owned();
    (child, base)
}

#[tokio::test]
async fn each_wrong_token_is_logged_with_the_address_and_never_the_token() {
    let db = TestDb::new().await;
    let (mut child, base) = serve_alone(&db).await;
    let client = reqwest::Client::new();
    let login = client
        .post(format!("{base}/admin/login"))
        .form(&[("token", "guess-by-form")])
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::UNAUTHORIZED);
    let header = client
        .get(format!("{base}/admin"))
        .bearer_auth("guess-by-header")
        .send()
        .await
        .unwrap();
    assert_eq!(header.status(), StatusCode::UNAUTHORIZED);

    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut failures = Vec::new();
    while failures.len() < 2 {
        let line = tokio::time::timeout(WAIT, stderr.next_line())
            .await
            .unwrap_or_else(|_| panic!("two failures logged: {failures:#?}"))
            .unwrap()
            .expect("the log goes on");
        for secret in [TOKEN, "guess-by-form", "guess-by-header"] {
            assert!(!line.contains(secret), "{secret} is in the log: {line}");
        }
        let entry: serde_json::Value = serde_json::from_str(&line).unwrap();
        if entry["fields"]["message"] == "wrong admin token" {
            failures.push(entry);
        }
    }
    for (entry, via) in failures.iter().zip(["form", "bearer"]) {
        assert_eq!(entry["level"], "WARN", "{entry}");
        assert_eq!(entry["fields"]["client"], "127.0.0.1", "{entry}");
        assert_eq!(entry["fields"]["via"], via, "{entry}");
    }
    assert_eq!(failures[1]["fields"]["failures"], 2);
    child.kill().await.unwrap();
}

#[tokio::test]
async fn wrong_bearer_headers_count_towards_the_slowdown() {
    let site = site(Some(quick_slowdown())).await;
    for _ in 0..2 {
        let (status, _) = site.get("/admin", &bearer("not-the-token")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let response = site.login("not-the-token").await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key(RETRY_AFTER));
    let (status, _) = site.get("/admin", &bearer(TOKEN)).await;
    assert_eq!(status, StatusCode::OK, "the right token passes at once");
}

#[tokio::test]
async fn every_admin_response_carries_the_security_headers() {
    let site = site(Some(settings())).await;
    let (cookie, _) = site.sign_in().await;
    let style = site.get_response("/admin/style.css", &[]).await;
    assert_eq!(style.headers()["content-type"], "text/css; charset=utf-8");
    for response in [
        site.get_response("/admin/login", &[]).await,
        site.get_response("/admin", &[]).await,
        site.get_response("/admin", &[(COOKIE, cookie)]).await,
        site.login("guess").await,
        style,
    ] {
        let headers = response.headers();
        assert_eq!(headers["x-frame-options"], "DENY");
        assert_eq!(headers["referrer-policy"], "no-referrer");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["cache-control"], "no-store");
        let csp = headers["content-security-policy"].to_str().unwrap();
        for directive in [
            "default-src 'none'",
            "style-src 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ] {
            assert!(csp.contains(directive), "{csp}");
        }
        assert!(!csp.contains("unsafe"), "{csp}");
        let html = response.text().await.unwrap();
        assert!(!html.contains("<style") && !html.contains("style="));
    }
}

#[tokio::test]
async fn the_cookie_is_secure_when_configured() {
    let site = site(Some(AdminWebSettings {
        cookie_secure: true,
        ..settings()
    }))
    .await;
    let response = site.login(TOKEN).await;
    let set_cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    assert!(set_cookie.ends_with("; Secure"), "{set_cookie}");
    let plain = self::site(Some(settings())).await.login(TOKEN).await;
    assert!(
        !plain.headers()[SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("Secure")
    );
}

#[tokio::test]
async fn the_done_notice_comes_only_from_a_fixed_set() {
    let site = site(Some(settings())).await;
    let auth = bearer(TOKEN);
    for query in [
        "done=Your+session+expired%2C+sign+in+at+evil.example",
        "done=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "done=retried&count=lots",
        "done=cancelled&job=1%3Cb%3E",
    ] {
        let (status, html) = site.get(&format!("/admin?{query}"), &auth).await;
        assert_eq!(status, StatusCode::OK);
        for planted in ["evil.example", "alert", "lots", "<b>", "&#60;b"] {
            assert!(!html.contains(planted), "{query}: {html}");
        }
        assert!(!html.contains("<p><strong>"), "no notice for {query}");
    }
    let (_, html) = site.get("/admin?done=cancelled&job=12", &auth).await;
    assert!(html.contains("Cancelled job 12."), "{html}");
}

#[tokio::test]
async fn admins_see_the_failures_with_their_reasons_and_history() {
    let site = site(Some(settings())).await;
    let bearer = bearer(TOKEN);
    let (status, html) = site.get("/admin", &bearer).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("Forbidden: bot was blocked by the user"),
        "{html}"
    );
    assert!(
        html.contains("pay &#60;rent&#62; &#38; call"),
        "user text is escaped: {html}"
    );
    assert!(!html.contains(TOKEN), "the token is never shown");
    let (_, filtered) = site.get("/admin?reason=chat+not+found", &bearer).await;
    assert!(filtered.contains("No failed reminders match."));
    let (_, history) = site
        .get(&format!("/admin/jobs/{}", site.failed_job), &bearer)
        .await;
    assert!(
        history.contains("Bad Gateway") && history.contains("retry"),
        "{history}"
    );
    assert!(history.contains("blocked by the user") && history.contains("failed"));
}

#[tokio::test]
async fn retry_needs_the_sessions_csrf_token_and_is_recorded() {
    let site = site(Some(settings())).await;
    let (cookie, csrf) = site.sign_in().await;
    let path = format!("/admin/jobs/{}/retry", site.failed_job);
    let forged = site.post(&path, Some(&cookie), &[("csrf", "forged")]).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let missing = site.post(&path, Some(&cookie), &[]).await;
    assert_eq!(missing.status(), StatusCode::FORBIDDEN);
    assert_eq!(site.job_state().await, JobState::Failed);

    let done = site.post(&path, Some(&cookie), &[("csrf", &csrf)]).await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    let location = done.headers()[LOCATION].to_str().unwrap().to_owned();
    assert_eq!(location, "/admin?done=retried&count=1");
    let (_, html) = site.get(&location, &[(COOKIE, cookie.clone())]).await;
    assert!(html.contains("Returned 1 job(s) to the queue."), "{html}");
    assert_eq!(site.job_state().await, JobState::Pending);
    let actor: String =
        sqlx::query_scalar("select actor from admin_actions where action = 'retry'")
            .fetch_one(&site.db.pool)
            .await
            .unwrap();
    assert_eq!(actor, "web:session");

    let out = site
        .post("/admin/logout", Some(&cookie), &[("csrf", &csrf)])
        .await;
    assert_eq!(out.status(), StatusCode::SEE_OTHER);
    assert!(
        out.headers()[SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    let (status, _) = site.get("/admin", &[(COOKIE, cookie)]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn cancel_works_for_a_script_with_the_bearer_token() {
    let site = site(Some(settings())).await;
    let response = site
        .client
        .post(format!(
            "{}/admin/jobs/{}/cancel",
            site.base, site.failed_job
        ))
        .header(AUTHORIZATION, format!("Bearer {TOKEN}"))
        .form(&[("csrf", "")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()[LOCATION],
        format!("/admin?done=cancelled&job={}", site.failed_job)
    );
    assert_eq!(site.job_state().await, JobState::Cancelled);
}

#[tokio::test]
async fn the_page_speaks_the_browsers_language_or_the_one_chosen_and_remembers_it() {
    let site = site(Some(settings())).await;
    let (_, html) = site.get("/admin/login", &[]).await;
    assert!(
        html.contains("Admin token") && html.contains(r#"lang="en""#),
        "{html}"
    );
    let russian = [(ACCEPT_LANGUAGE, "de-DE, ru;q=0.9, en;q=0.5".to_owned())];
    let (_, html) = site.get("/admin/login", &russian).await;
    assert!(
        html.contains("Токен администратора") && html.contains(r#"lang="ru""#),
        "{html}"
    );

    // A language link chooses Uzbek; the cookie keeps it over the browser's Russian.
    let chosen = site.get_response("/admin/login?lang=uz", &russian).await;
    let cookie = chosen.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("remindbot_admin_lang=uz;") && cookie.contains("HttpOnly"));
    assert!(
        chosen
            .text()
            .await
            .unwrap()
            .contains("Administrator tokeni")
    );
    let remembered = [
        russian[0].clone(),
        (COOKIE, cookie.split(';').next().unwrap().to_owned()),
    ];
    let (_, html) = site.get("/admin/login", &remembered).await;
    assert!(html.contains("Administrator tokeni"), "{html}");

    // Signed in, the overview speaks it too.
    let mut signed_in = bearer(TOKEN).to_vec();
    signed_in.push(remembered[1].clone());
    let (status, html) = site.get("/admin", &signed_in).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("Navbat") && html.contains("Yuborilmagan eslatmalar"),
        "{html}"
    );
}
