//! The Mini App's page: `GET <prefix>/app/` answers one HTML file, and `app.js` and `app.css`
//! beside it its script and style (vanilla, no build step), all three embedded in the binary from
//! `assets/miniapp/`. The page reads Telegram's launch data itself from the URL fragment's
//! `tgWebAppData` (it loads no Telegram script) and sends it with every request to the JSON API beside
//! it (`api/…`, [`super::routes`]); the files carry nothing of the user, so they are the same for
//! everyone.
//!
//! Each answer has a Content-Security-Policy (scripts and styles from this origin only, no inline
//! script, requests to this origin only, framed only by Telegram's web clients), `Cache-Control:
//! no-cache` with an ETag (a reload revalidates and gets 304 while the build is the same) and
//! `nosniff`.

use std::sync::LazyLock;

use axum::Router;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

/// What the page may load and who may frame it: its own files and API only; Telegram's web
/// clients (web.telegram.org, its A and K versions) as the only frames around it.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors https://web.telegram.org https://*.telegram.org";

/// One embedded file with its media type and ETag.
struct Asset {
    body: &'static str,
    content_type: &'static str,
    etag: String,
}

impl Asset {
    fn new(body: &'static str, content_type: &'static str) -> Self {
        let digest = Sha256::digest(body.as_bytes());
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        Self {
            body,
            content_type,
            etag: format!("\"{hex}\""),
        }
    }

    /// 200 with the file, or 304 when `If-None-Match` names its ETag; the page's headers on both.
    fn answer(&self, request: &HeaderMap) -> Response {
        let fresh = request
            .get_all(IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .any(|tag| tag == "*" || tag.trim_start_matches("W/") == self.etag);
        let mut response = if fresh {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            ([(CONTENT_TYPE, self.content_type)], self.body).into_response()
        };
        let headers = response.headers_mut();
        if let Ok(etag) = HeaderValue::from_str(&self.etag) {
            headers.insert(ETAG, etag);
        }
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY_VALUE),
        );
        headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
        response
    }
}

static HTML: LazyLock<Asset> = LazyLock::new(|| {
    Asset::new(
        include_str!("../../assets/miniapp/index.html"),
        "text/html; charset=utf-8",
    )
});
static SCRIPT: LazyLock<Asset> = LazyLock::new(|| {
    Asset::new(
        include_str!("../../assets/miniapp/app.js"),
        "text/javascript; charset=utf-8",
    )
});
static STYLE: LazyLock<Asset> = LazyLock::new(|| {
    Asset::new(
        include_str!("../../assets/miniapp/app.css"),
        "text/css; charset=utf-8",
    )
});

/// The page's routes under `prefix` (the public URL's path, `""` or `/remindbot`):
/// `{prefix}/app/`, its script and style, and `{prefix}/app` sent on to `{prefix}/app/` (the
/// fragment with the launch data stays with the browser).
pub fn router(prefix: &str) -> Router {
    let page = format!("{prefix}/app/");
    let redirect_to = page.clone();
    Router::new()
        .route(
            &format!("{prefix}/app"),
            get(move || async move { Redirect::permanent(&redirect_to) }),
        )
        .route(
            &page,
            get(|headers: HeaderMap| async move { HTML.answer(&headers) }),
        )
        .route(
            &format!("{page}app.js"),
            get(|headers: HeaderMap| async move { SCRIPT.answer(&headers) }),
        )
        .route(
            &format!("{page}app.css"),
            get(|headers: HeaderMap| async move { STYLE.answer(&headers) }),
        )
}

/// The bytes of the first page: the HTML with its script and style.
pub fn first_page_bytes() -> usize {
    HTML.body.len() + SCRIPT.body.len() + STYLE.body.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_page_is_under_100_kb() {
        assert!(first_page_bytes() < 100 * 1024, "{}", first_page_bytes());
    }

    #[test]
    fn an_etag_the_client_has_answers_304_and_another_the_file() {
        let mut request = HeaderMap::new();
        request.insert(IF_NONE_MATCH, HeaderValue::from_str(&HTML.etag).unwrap());
        assert_eq!(HTML.answer(&request).status(), StatusCode::NOT_MODIFIED);
        request.insert(IF_NONE_MATCH, HeaderValue::from_static("\"other\""));
        let response = HTML.answer(&request);
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[CONTENT_SECURITY_POLICY],
            CONTENT_SECURITY_POLICY_VALUE
        );
    }

    #[test]
    fn the_page_has_no_inline_script_and_loads_its_own_files() {
        let html = HTML.body;
        assert!(html.contains(r#"<script src="app.js" defer></script>"#));
        assert!(html.contains(r#"<link rel="stylesheet" href="app.css">"#));
        assert_eq!(
            html.matches("<script").count(),
            1,
            "one script, from a file"
        );
        let handlers = html.match_indices(" on").filter(|(at, _)| {
            let rest = &html[at + 3..];
            let name = rest.len() - rest.trim_start_matches(char::is_alphabetic).len();
            name > 0 && rest[name..].starts_with('=')
        });
        assert_eq!(handlers.count(), 0, "no inline event handlers");
    }
}
