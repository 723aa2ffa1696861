//! Refusals in front of the API: cross-site requests (CSRF, DNS
//! rebinding), bodies not declared JSON, and per-client rate limits on
//! creating games and on wrong tokens.
//!
//! Wrong tokens are counted by the client's address and by the game: once
//! either has sent (or received) too many in a minute, further wrong tokens
//! are answered `429 rate_limited` instead of `403 wrong_token`. A right
//! token is never refused, so players behind one address (a proxy, a
//! household) keep playing while somebody there guesses tokens. (A token
//! has 192 random bits: guessing is hopeless at any rate.)

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::{ApiError, ErrorCode, TokenHeldNoSeat};
use crate::fair::Client;
use crate::front::{ClientAddr, address_key};

/// A bad `--allowed-origin` value.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not an origin (like http://example.org or https://example.org:8443)")]
pub struct BadOrigin(pub String);

/// What the guard enforces.
pub struct Guard {
    /// Further origins allowed to change state (normalised: lowercase
    /// `scheme://host[:port]`, default ports left out).
    allowed: Vec<String>,
    games: RateLimiter,
    wrong_tokens: RateLimiter,
    wrong_tokens_per_game: RateLimiter,
}

impl Guard {
    pub fn new(
        allowed_origins: &[String],
        games_per_minute: u32,
        wrong_tokens_per_minute: u32,
    ) -> Result<Guard, BadOrigin> {
        let allowed = allowed_origins
            .iter()
            .map(|o| normalize_origin(o).ok_or_else(|| BadOrigin(o.clone())))
            .collect::<Result<_, _>>()?;
        Ok(Guard {
            allowed,
            games: RateLimiter::new(games_per_minute),
            wrong_tokens: RateLimiter::new(wrong_tokens_per_minute),
            wrong_tokens_per_game: RateLimiter::new(wrong_tokens_per_minute),
        })
    }

    /// Whether a request carrying `Origin: origin` may change state, given
    /// its `Host`.
    fn origin_allowed(&self, origin: &str, host: Option<&str>) -> Result<(), ApiError> {
        let Some(origin) = normalize_origin(origin) else {
            return Err(ApiError::CrossOrigin(format!(
                "requests from the origin '{}' may not change anything here",
                origin.chars().take(100).collect::<String>()
            )));
        };
        if self.allowed.contains(&origin) {
            return Ok(());
        }
        let (scheme, authority) = origin.split_once("://").unwrap_or(("", ""));
        let same = host
            .map(str::to_ascii_lowercase)
            .is_some_and(|h| strip_default_port(scheme, &h) == authority);
        if same && local_host_name(authority) {
            return Ok(());
        }
        let hint = if same {
            " (the server is reached by a host name: start it with \
             --allowed-origin for that address)"
        } else {
            ""
        };
        Err(ApiError::CrossOrigin(format!(
            "requests from the origin {origin} may not change anything here{hint}"
        )))
    }
}

/// `scheme://host[:port]` lowercased, without a default port or a trailing
/// slash; `None` unless http(s) with a host and nothing else.
fn normalize_origin(text: &str) -> Option<String> {
    let text = text.trim().to_ascii_lowercase();
    let text = text.strip_suffix('/').unwrap_or(&text);
    let (scheme, authority) = text.split_once("://")?;
    if !matches!(scheme, "http" | "https")
        || authority.is_empty()
        || authority
            .chars()
            .any(|c| matches!(c, '/' | '?' | '#' | '@') || c.is_whitespace() || c.is_control())
    {
        return None;
    }
    Some(format!(
        "{scheme}://{}",
        strip_default_port(scheme, authority)
    ))
}

fn strip_default_port<'a>(scheme: &str, authority: &'a str) -> &'a str {
    let default = if scheme == "https" { ":443" } else { ":80" };
    authority.strip_suffix(default).unwrap_or(authority)
}

/// Whether an authority names this machine or an address: an IP literal,
/// `localhost` or a name under `.localhost`. Any other name could be an
/// attacker's domain pointed at this machine (DNS rebinding), so it must be
/// allowed explicitly.
fn local_host_name(authority: &str) -> bool {
    let host = if let Some(rest) = authority.strip_prefix('[') {
        // [v6]:port
        match rest.split_once(']') {
            Some((v6, _)) => return v6.parse::<Ipv6Addr>().is_ok(),
            None => return false,
        }
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    host.parse::<IpAddr>().is_ok() || host == "localhost" || host.ends_with(".localhost")
}

/// Whether a request changes state (needs a JSON body and a fitting origin).
fn state_changing(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

fn is_websocket_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// The refusals of cross-site requests and non-JSON bodies.
fn check_request(guard: &Guard, req: &Request) -> Result<(), ApiError> {
    let changing = state_changing(req.method());
    if !changing && !is_websocket_upgrade(req.headers()) {
        return Ok(());
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let host = req
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| req.uri().authority().map(|a| a.as_str()));
        guard.origin_allowed(&String::from_utf8_lossy(origin.as_bytes()), host)?;
    }
    if changing && !is_json(req.headers()) {
        return Err(ApiError::UnsupportedMediaType(
            "this request needs a JSON body with the header Content-Type: application/json".into(),
        ));
    }
    Ok(())
}

/// What a request is for the rate limits.
enum Kind {
    /// Creates a game (`POST /api/games`, `POST /api/games/import`).
    Create,
    /// Acts on one game with a token (may be answered `wrong_token`):
    /// changes, and reading a game with `?token=`.
    Game,
    Other,
}

fn kind(method: &Method, path: &str, query: Option<&str>) -> Kind {
    let has_token = query.is_some_and(|q| q.split('&').any(|p| p.starts_with("token=")));
    if *method == Method::POST && matches!(path, "/api/games" | "/api/games/import") {
        Kind::Create
    } else if path.starts_with("/api/games/") && (state_changing(method) || has_token) {
        Kind::Game
    } else {
        Kind::Other
    }
}

/// The client a request counts against: its IP address (IPv6: its /64).
fn client(req: &Request) -> IpAddr {
    client_ip(req.extensions())
}

/// The client's address ([`ClientAddr`]: behind a trusted proxy, the one
/// it names), as the limits key it (IPv6: its /64; an IPv4-mapped address
/// as IPv4).
pub(crate) fn client_ip(extensions: &axum::http::Extensions) -> IpAddr {
    let ip = extensions
        .get::<ClientAddr>()
        .map(|c| c.0)
        .or_else(|| {
            extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip())
        })
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    address_key(ip)
}

/// The header a browser names itself with: a random id the web UI makes
/// once and keeps (docs/API.md, "Engine time").
pub const CLIENT_HEADER: &str = "x-brett-client";

/// The longest browser id taken.
const MAX_BROWSER_ID: usize = 64;

/// The browser id of a request: 1–64 characters of `A–Z a–z 0–9 - _`;
/// anything else counts as none.
fn browser_id(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(CLIENT_HEADER)?.to_str().ok()?.trim();
    (!v.is_empty()
        && v.len() <= MAX_BROWSER_ID
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
    .then(|| v.to_string())
}

/// Who asks, for the analysis limits: the address and the browser id.
pub struct Requester(pub Client);

impl<S: Send + Sync> FromRequestParts<S> for Requester {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Requester(Client {
            ip: client_ip(&parts.extensions),
            browser: browser_id(&parts.headers),
        }))
    }
}

fn too_many(what: &str, secs: u64) -> Response {
    ApiError::RateLimited(
        format!("too many {what} from your address; try again in {secs} s"),
        secs,
    )
    .into_response()
}

/// The middleware: every request under `/api/` passes it.
pub async fn middleware(State(app): State<AppState>, req: Request, next: Next) -> Response {
    if !req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    let guard = &app.guard;
    if let Err(e) = check_request(guard, &req) {
        return e.into_response();
    }
    let ip = client(&req);
    match kind(req.method(), req.uri().path(), req.uri().query()) {
        Kind::Create => {
            if let Err(secs) = guard.games.take(ip) {
                return too_many("new games", secs);
            }
            let response = next.run(req).await;
            if response.status() != StatusCode::CREATED {
                guard.games.refund(ip);
            }
            response
        }
        Kind::Game => {
            let game = game_of(req.uri().path());
            let response = next.run(req).await;
            let wrong = response.extensions().get::<ErrorCode>() == Some(&ErrorCode("wrong_token"))
                || response.extensions().get::<TokenHeldNoSeat>().is_some();
            if !wrong {
                return response;
            }
            // A wrong token changed nothing: counted, and over the limit
            // answered 429 instead.
            if let Err(secs) = guard.wrong_tokens.take(ip) {
                return too_many("wrong tokens", secs);
            }
            if let Some(game) = game
                && let Err(secs) = guard.wrong_tokens_per_game.take_key(Key::Game(game))
            {
                guard.wrong_tokens.refund(ip);
                return ApiError::RateLimited(
                    format!("too many wrong tokens for this game; try again in {secs} s"),
                    secs,
                )
                .into_response();
            }
            response
        }
        Kind::Other => next.run(req).await,
    }
}

/// The game of a path `/api/games/{id}/…`.
fn game_of(path: &str) -> Option<i64> {
    path.strip_prefix("/api/games/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

/// What a bucket is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A client address.
    Ip(IpAddr),
    /// A game.
    Game(i64),
    /// An account name (a hash of its lower-case form): login attempts.
    Name(u64),
}

/// Token buckets by client (or game): `per_minute` tokens at most,
/// refilled at `per_minute` a minute; 0 is no limit.
pub struct RateLimiter {
    per_minute: u32,
    buckets: Mutex<HashMap<Key, Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Buckets kept before full ones are dropped.
const MAX_BUCKETS: usize = 10_000;

impl RateLimiter {
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn capacity(&self) -> f64 {
        f64::from(self.per_minute)
    }

    fn per_second(&self) -> f64 {
        f64::from(self.per_minute) / 60.0
    }

    fn refill(&self, b: &mut Bucket, now: Instant) {
        let secs = now.saturating_duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + secs * self.per_second()).min(self.capacity());
        b.at = now;
    }

    /// Take a token for client `ip`; `Err(seconds until there is one)` if
    /// there is none.
    pub fn take(&self, ip: IpAddr) -> Result<(), u64> {
        self.take_key(Key::Ip(ip))
    }

    /// Take a token of bucket `key`; `Err(seconds until there is one)` if
    /// there is none.
    pub fn take_key(&self, key: Key) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut map = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_BUCKETS {
            let cap = self.capacity();
            let rate = self.per_second();
            map.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * rate < cap
            });
        }
        let b = map.entry(key).or_insert(Bucket {
            tokens: self.capacity(),
            at: now,
        });
        self.refill(b, now);
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - b.tokens) / self.per_second()).ceil().max(1.0) as u64)
        }
    }

    /// Give back a token taken for a request that turned out not to count.
    pub fn refund(&self, ip: IpAddr) {
        self.refund_key(Key::Ip(ip));
    }

    /// Give back a token of bucket `key`.
    pub fn refund_key(&self, key: Key) {
        if self.per_minute == 0 {
            return;
        }
        let mut map = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = map.get_mut(&key) {
            b.tokens = (b.tokens + 1.0).min(self.capacity());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        assert_eq!(
            normalize_origin("HTTP://Example.org:80/").as_deref(),
            Some("http://example.org")
        );
        assert_eq!(
            normalize_origin("https://a.b:8443").as_deref(),
            Some("https://a.b:8443")
        );
        assert_eq!(normalize_origin("null"), None);
        assert_eq!(normalize_origin("ftp://a.b"), None);
        assert_eq!(normalize_origin("http://a.b/path"), None);
        assert_eq!(normalize_origin("http://"), None);
    }

    #[test]
    fn same_origin_and_allowed() {
        let g = Guard::new(&["https://brett.example".into()], 0, 0).unwrap();
        assert!(
            g.origin_allowed("http://127.0.0.1:8080", Some("127.0.0.1:8080"))
                .is_ok()
        );
        assert!(
            g.origin_allowed("http://localhost:8080", Some("localhost:8080"))
                .is_ok()
        );
        assert!(
            g.origin_allowed("http://[::1]:8080", Some("[::1]:8080"))
                .is_ok()
        );
        assert!(
            g.origin_allowed("https://brett.example", Some("10.0.0.1"))
                .is_ok()
        );
        // Another site, another port, no Host, a rebound name, "null".
        assert!(
            g.origin_allowed("http://evil.example", Some("127.0.0.1:8080"))
                .is_err()
        );
        assert!(
            g.origin_allowed("http://127.0.0.1:9999", Some("127.0.0.1:8080"))
                .is_err()
        );
        assert!(g.origin_allowed("http://127.0.0.1:8080", None).is_err());
        assert!(
            g.origin_allowed("http://evil.example:8080", Some("evil.example:8080"))
                .is_err()
        );
        assert!(g.origin_allowed("null", Some("127.0.0.1:8080")).is_err());
        assert!(Guard::new(&["not an origin".into()], 0, 0).is_err());
    }

    #[test]
    fn browser_ids() {
        let id = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(CLIENT_HEADER, v.parse().unwrap());
            browser_id(&h)
        };
        assert_eq!(id("k3J-9_x").as_deref(), Some("k3J-9_x"));
        assert_eq!(id(" abc ").as_deref(), Some("abc"));
        assert_eq!(id(""), None);
        assert_eq!(id("a b"), None);
        assert_eq!(id("a/b"), None);
        assert_eq!(id(&"a".repeat(64)).as_deref(), Some(&*"a".repeat(64)));
        assert_eq!(id(&"a".repeat(65)), None);
        assert_eq!(browser_id(&HeaderMap::new()), None);
    }

    #[test]
    fn token_bucket() {
        let r = RateLimiter::new(3);
        let ip = IpAddr::from([10, 0, 0, 1]);
        let other = IpAddr::from([10, 0, 0, 2]);
        assert!(r.take(ip).is_ok());
        assert!(r.take(ip).is_ok());
        assert!(r.take(ip).is_ok());
        let secs = r.take(ip).unwrap_err();
        assert!((1..=20).contains(&secs), "{secs}");
        assert!(r.take(other).is_ok());
        r.refund(ip);
        assert!(r.take(ip).is_ok());
        assert!(RateLimiter::new(0).take(ip).is_ok());
    }
}
