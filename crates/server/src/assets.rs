//! The browser UI: the files of `web/`, embedded in the binary. The app's
//! pages (`/`, `/lobby`, `/game/{id}`, `/archive`, `/analysis`, `/puzzles`,
//! `/puzzles/{id}`, `/perfect`, `/login`, `/register`, `/account`,
//! `/players/{name}`, `/leaderboard`) all get `index.html` (a single-page app); other paths
//! are files.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web/"]
struct Assets;

/// The app's pages: each is `index.html`, which shows the page its path
/// names.
const PAGES: [&str; 13] = [
    "/",
    "/lobby",
    "/game/{id}",
    "/archive",
    "/analysis",
    "/puzzles",
    "/puzzles/{id}",
    "/perfect",
    "/login",
    "/register",
    "/account",
    "/players/{name}",
    "/leaderboard",
];

/// The page routes and the file fallback.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    PAGES
        .into_iter()
        .fold(Router::new(), |router, page| router.route(page, get(index)))
        .fallback(file)
}

async fn index(headers: HeaderMap) -> Response {
    serve("index.html", &headers)
}

async fn file(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.is_empty() {
        return serve("index.html", &headers);
    }
    serve(path, &headers)
}

/// Whether a file name carries a content hash (`app.3f9a2c1b.js`): such
/// files never change and may be cached for good.
fn is_fingerprinted(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split(['.', '-']).any(|part| {
        part.len() >= 8
            && part.chars().all(|c| c.is_ascii_hexdigit())
            && part.chars().any(|c| c.is_ascii_digit())
    })
}

fn serve(path: &str, headers: &HeaderMap) -> Response {
    // Paths never climb out of web/ (the embedded table has no such keys),
    // but refuse odd ones early.
    if path.split('/').any(|seg| seg == ".." || seg.is_empty()) {
        return not_found();
    }
    let Some(file) = Assets::get(path) else {
        return not_found();
    };
    let etag = format!(
        "\"{}\"",
        file.metadata
            .sha256_hash()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let cache = if path.starts_with("assets/") && is_fingerprinted(path) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let mut response = if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag))
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(file.data.into_owned()));
        let content_type = if mime.type_() == "text" || mime.subtype() == "javascript" {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_string()
        };
        if let Ok(v) = HeaderValue::from_str(&content_type) {
            r.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        r
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "not found\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints() {
        assert!(is_fingerprinted("assets/app.3f9a2c1b.js"));
        assert!(is_fingerprinted("assets/index-4d2e8f10.css"));
        assert!(!is_fingerprinted("assets/app.js"));
        assert!(!is_fingerprinted("assets/facade.js"));
    }

    #[test]
    fn index_is_embedded() {
        assert!(Assets::get("index.html").is_some());
    }
}
