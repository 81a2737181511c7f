//! The admin page: refused without the token, with a wrong one, or with a forged CSRF token;
//! shows the failures with their reasons; Retry and Cancel change the job and are recorded.

use remindbot::admin::web;
use remindbot::queue::{Queue, QueueConfig};
use remindbot::store::REMINDER_QUEUE;
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, COOKIE, LOCATION, SET_COOKIE};

use crate::support::{TestDb, task_due_now};

const TOKEN: &str = "s3cret-admin-token";

struct AdminSite {
    db: TestDb,
    base: String,
    client: reqwest::Client,
    failed_job: i64,
}

/// Serves the admin router on a free port over a database with one failed reminder.
async fn site(token: Option<&str>) -> AdminSite {
    let db = TestDb::new().await;
    let queue = Queue::new(db.pool.clone(), QueueConfig::new(REMINDER_QUEUE));
    task_due_now(&db.pool, &queue, 77, "pay <rent> & call").await;
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue.retry(&job, "Bad Gateway", None).await.unwrap();
    sqlx::query("update jobs set run_at = now()")
        .execute(&db.pool)
        .await
        .unwrap();
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    queue
        .fail(&db.pool, &job, "Forbidden: bot was blocked by the user")
        .await
        .unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = web::router(db.pool.clone(), token);
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    AdminSite {
        db,
        base,
        client,
        failed_job: job.id,
    }
}

impl AdminSite {
    async fn get(
        &self,
        path: &str,
        headers: &[(reqwest::header::HeaderName, String)],
    ) -> (StatusCode, String) {
        let mut request = self.client.get(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let response = request.send().await.unwrap();
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

    /// Signs in through the form; returns the cookie and the page's CSRF token.
    async fn sign_in(&self) -> (String, String) {
        let response = self.post("/admin/login", None, &[("token", TOKEN)]).await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        let set_cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_owned();
        assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"));
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

    async fn job_state(&self) -> String {
        sqlx::query_scalar("select state from jobs where id = $1")
            .bind(self.failed_job)
            .fetch_one(&self.db.pool)
            .await
            .unwrap()
    }
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
async fn strangers_are_refused_without_or_with_a_wrong_token() {
    let site = site(Some(TOKEN)).await;
    let (status, html) = site.get("/admin", &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(html.contains("Admin token") && !html.contains("blocked"));
    let wrong = [(AUTHORIZATION, "Bearer s3cret-admin-tokeN".to_owned())];
    assert_eq!(site.get("/admin", &wrong).await.0, StatusCode::UNAUTHORIZED);
    let forged_cookie = [(COOKIE, "remindbot_admin=0123456789abcdef".to_owned())];
    assert_eq!(
        site.get("/admin", &forged_cookie).await.0,
        StatusCode::UNAUTHORIZED
    );
    let response = site.post("/admin/login", None, &[("token", "guess")]).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert!(response.text().await.unwrap().contains("Wrong token."));
    let path = format!("/admin/jobs/{}/retry", site.failed_job);
    assert_eq!(
        site.post(&path, None, &[]).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(site.job_state().await, "failed");
}

#[tokio::test]
async fn admins_see_the_failures_with_their_reasons_and_history() {
    let site = site(Some(TOKEN)).await;
    let bearer = [(AUTHORIZATION, format!("Bearer {TOKEN}"))];
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
    let site = site(Some(TOKEN)).await;
    let (cookie, csrf) = site.sign_in().await;
    let path = format!("/admin/jobs/{}/retry", site.failed_job);
    let forged = site.post(&path, Some(&cookie), &[("csrf", "forged")]).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let missing = site.post(&path, Some(&cookie), &[]).await;
    assert_eq!(missing.status(), StatusCode::FORBIDDEN);
    assert_eq!(site.job_state().await, "failed");

    let done = site.post(&path, Some(&cookie), &[("csrf", &csrf)]).await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert!(
        done.headers()[LOCATION]
            .to_str()
            .unwrap()
            .starts_with("/admin?done=")
    );
    assert_eq!(site.job_state().await, "pending");
    let actor: String =
        sqlx::query_scalar("select actor from admin_actions where action = 'retry'")
            .fetch_one(&site.db.pool)
            .await
            .unwrap();
    assert_eq!(actor, "web:session");
}

#[tokio::test]
async fn cancel_works_for_a_script_with_the_bearer_token() {
    let site = site(Some(TOKEN)).await;
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
    assert_eq!(site.job_state().await, "cancelled");
}
