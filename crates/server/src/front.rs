//! What every request passes first, before the router:
//!
//! - a request the connection loop found malformed (a line of its head
//!   ending in a bare LF; see `conn`) is answered `400 bad_request`;
//! - the `Host` header: exactly one, naming the server (an IP address,
//!   `localhost`, or a `--public-host` name); any other name could be an
//!   attacker's domain pointed at this machine (DNS rebinding) and is
//!   answered `400 unknown_host`;
//! - a body declared (`Content-Length`) larger than the endpoint takes is
//!   answered `413 too_large` at once, before any of it is read;
//! - the client's address ([`ClientAddr`]): the connection's, or behind a
//!   trusted proxy (`--trusted-proxy`) the one it names in
//!   `X-Forwarded-For`;
//! - and every answer gets the browser's protections: a
//!   Content-Security-Policy (scripts, styles and connections from the
//!   server itself only; no framing), `X-Frame-Options: DENY`,
//!   `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ipnet::IpNet;

use crate::AppState;
use crate::error::{ApiError, body_limit, too_large};

/// The Content-Security-Policy of every answer: the page's scripts,
/// styles, images, sounds and connections (its WebSockets included) come
/// from the server itself; inline SVG images in the style sheet (`data:`);
/// no plugins, no `<base>`, and no page of any site may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; media-src 'self' data:; font-src 'self'; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// The headers every answer carries.
pub fn security_headers() -> [(HeaderName, HeaderValue); 5] {
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ),
    ]
}

/// A bad `--public-host` or `--trusted-proxy` value.
#[derive(Debug, thiserror::Error)]
pub enum BadFrontOption {
    /// Not a host name.
    #[error("'{0}' is not a host name (like brett.example.org)")]
    Host(String),
    /// Not an address or network.
    #[error("'{0}' is not an IP address or network (like 10.0.0.1 or 10.0.0.0/8)")]
    Proxy(String),
}

/// The checks in front of the router.
pub struct Front {
    /// The host names the server answers to besides IP addresses and
    /// `localhost` (lowercase, without a port).
    hosts: Vec<String>,
    /// The proxies whose `X-Forwarded-For` is believed.
    trusted: Vec<IpNet>,
    /// The hosts given as `https://…` (`--public-host`,
    /// `--allowed-origin`): reached over TLS (through a proxy).
    https_hosts: Vec<String>,
}

/// Whether a request came over TLS: through a trusted proxy that says so
/// (`X-Forwarded-Proto: https`), or for a host configured as `https://…`.
/// A login's cookie is then `Secure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Https(pub bool);

/// The address a request comes from: the connection's, or the client's
/// that a trusted proxy names. Rate limits and the WebSocket limit count
/// against it (by [`address_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The key an address counts under: IPv6 addresses by their /64 (one
/// household or server has a whole /64), IPv4-mapped ones as IPv4.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// The host part of a `Host` header (`name`, `name:port`, `[v6]:port`),
/// lowercase; `None` if it is not one.
fn host_part(value: &str) -> Option<String> {
    let value = value.trim();
    if value.is_empty()
        || value
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '/' | '@' | '?' | '#'))
    {
        return None;
    }
    let host = if let Some(rest) = value.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        if !(after.is_empty() || after.strip_prefix(':').is_some_and(is_port)) {
            return None;
        }
        return v6.parse::<Ipv6Addr>().ok().map(|_| format!("[{v6}]"));
    } else {
        match value.rsplit_once(':') {
            Some((h, port)) if is_port(port) => h,
            Some(_) => return None,
            None => value,
        }
    };
    (!host.is_empty()).then(|| host.trim_end_matches('.').to_ascii_lowercase())
}

fn is_port(p: &str) -> bool {
    !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
}

/// A `--public-host` value as the checks compare it: `name` from `name`,
/// `name:port` or `http(s)://name[:port]`.
fn public_host(text: &str) -> Result<String, BadFrontOption> {
    let bare = text
        .trim()
        .strip_prefix("https://")
        .or_else(|| text.trim().strip_prefix("http://"))
        .unwrap_or(text.trim());
    let bare = bare.strip_suffix('/').unwrap_or(bare);
    match host_part(bare) {
        Some(h)
            if h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._[]:".contains(&b)) =>
        {
            Ok(h)
        }
        _ => Err(BadFrontOption::Host(text.to_string())),
    }
}

/// A `--trusted-proxy` value: an address or a network.
pub fn parse_proxy(text: &str) -> Result<IpNet, BadFrontOption> {
    let t = text.trim();
    t.parse::<IpNet>()
        .or_else(|_| t.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| BadFrontOption::Proxy(text.to_string()))
}

impl Front {
    /// The checks for a server reached by `public_hosts` (and the hosts of
    /// `allowed_origins`), behind `trusted_proxies`.
    pub fn new(
        public_hosts: &[String],
        allowed_origins: &[String],
        trusted_proxies: &[String],
    ) -> Result<Front, BadFrontOption> {
        let mut hosts = public_hosts
            .iter()
            .map(|h| public_host(h))
            .collect::<Result<Vec<_>, _>>()?;
        // The pages of an allowed origin are served under its name.
        hosts.extend(allowed_origins.iter().filter_map(|o| public_host(o).ok()));
        let trusted = trusted_proxies
            .iter()
            .map(|p| parse_proxy(p))
            .collect::<Result<_, _>>()?;
        let https_hosts = public_hosts
            .iter()
            .chain(allowed_origins)
            .filter(|h| h.trim().to_ascii_lowercase().starts_with("https://"))
            .filter_map(|h| public_host(h).ok())
            .collect();
        Ok(Front {
            hosts,
            trusted,
            https_hosts,
        })
    }

    /// Whether the server answers to the host of a `Host` header.
    fn host_allowed(&self, host: &str) -> bool {
        if host.starts_with('[') || host.parse::<IpAddr>().is_ok() {
            // An address cannot be rebound: a page of another site never
            // names this server by its address.
            return true;
        }
        host == "localhost" || host.ends_with(".localhost") || self.hosts.iter().any(|h| h == host)
    }

    /// Whether `ip` is a trusted proxy.
    pub fn is_trusted(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        self.trusted.iter().any(|n| n.contains(&ip))
    }

    /// Whether a request that came over a connection from `peer` reached
    /// the server over TLS ([`Https`]).
    pub fn is_https(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        let forwarded = self.is_trusted(peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .and_then(host_part);
        forwarded || host.is_some_and(|h| self.https_hosts.contains(&h))
    }

    /// The client of a request that came over a connection from `peer`:
    /// `peer`, or, when `peer` is a trusted proxy, the address
    /// `X-Forwarded-For` names last that is not itself a trusted proxy.
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.is_trusted(peer) {
            return peer;
        }
        let mut client = peer;
        // Each proxy appends the address it was reached from: read from
        // the right, through the trusted ones.
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect();
        for hop in hops.into_iter().rev() {
            let Ok(ip) = hop.trim().parse::<IpAddr>() else {
                break;
            };
            client = ip;
            if !self.is_trusted(ip) {
                break;
            }
        }
        client
    }

    /// The refusals of a request's head, in order.
    fn check(&self, req: &Request) -> Result<(), ApiError> {
        if req
            .headers()
            .get(MALFORMED_HEADER)
            .is_some_and(|v| v.as_bytes() == malformed_marker().as_bytes())
        {
            return Err(ApiError::BadRequest(
                "malformed request: every line of the request head must end with CR LF".into(),
            ));
        }
        let mut hosts = req.headers().get_all(header::HOST).iter();
        let (Some(host), None) = (hosts.next(), hosts.next()) else {
            return Err(ApiError::BadRequest(
                "a request needs exactly one Host header".into(),
            ));
        };
        let host_text = String::from_utf8_lossy(host.as_bytes());
        let Some(host) = host_part(&host_text) else {
            return Err(ApiError::BadRequest(format!(
                "'{}' is not a host name",
                host_text.chars().take(100).collect::<String>()
            )));
        };
        if !self.host_allowed(&host) {
            return Err(ApiError::UnknownHost(format!(
                "this server does not answer to the name '{}' (if that is its name, start it \
                 with --public-host {0})",
                host.chars().take(100).collect::<String>()
            )));
        }
        if let Some(len) = req.headers().get(header::CONTENT_LENGTH) {
            let declared = len.to_str().ok().and_then(|l| l.trim().parse::<u64>().ok());
            let limit = body_limit(req.uri().path()) as u64;
            if declared.is_some_and(|n| n > limit) {
                return Err(too_large(req.uri().path()));
            }
        }
        Ok(())
    }
}

/// The header of the request the connection loop puts in place of a
/// malformed one, with [`malformed_marker`] as its value.
pub(crate) const MALFORMED_HEADER: &str = "x-brett-malformed";

/// A random value of this process, so that no client can send the marked
/// request itself.
pub(crate) fn malformed_marker() -> &'static str {
    static MARKER: OnceLock<String> = OnceLock::new();
    MARKER.get_or_init(|| crate::util::new_token().unwrap_or_else(|_| "unset".into()))
}

/// The middleware: every request passes it.
pub async fn middleware(State(app): State<AppState>, mut req: Request, next: Next) -> Response {
    let mut response = match app.front.check(&req) {
        Err(e) => e.into_response(),
        Ok(()) => {
            let peer = req
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
            let client = app.front.client_of(peer, req.headers());
            let https = app.front.is_https(peer, req.headers());
            req.extensions_mut().insert(ClientAddr(client));
            req.extensions_mut().insert(Https(https));
            next.run(req).await
        }
    };
    let headers = response.headers_mut();
    for (name, value) in security_headers() {
        headers.insert(name, value);
    }
    response
}

/// Counts what each address holds (connections, WebSockets) against a
/// limit.
pub struct PerAddress {
    limit: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One unit held by an address; given back when dropped.
pub struct Held {
    counter: Arc<PerAddress>,
    key: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut map = self.counter.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.key);
            }
        }
    }
}

impl PerAddress {
    /// At most `limit` for each address (0: no limit).
    pub fn new(limit: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            limit,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// One more for the address of `ip` ([`address_key`]), unless it holds
    /// the limit already.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Option<Held> {
        let key = address_key(ip);
        let mut map = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let n = map.entry(key).or_insert(0);
        if self.limit > 0 && *n >= self.limit {
            return None;
        }
        *n += 1;
        Some(Held {
            counter: self.clone(),
            key,
        })
    }

    /// What the address of `ip` holds now.
    pub fn held(&self, ip: IpAddr) -> usize {
        let map = self.held.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&address_key(ip)).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front() -> Front {
        Front::new(
            &["brett.example.org".into()],
            &["https://play.example.net:8443".into()],
            &["10.0.0.0/8".into(), "::1".into()],
        )
        .unwrap()
    }

    #[test]
    fn hosts_the_server_answers_to() {
        let f = front();
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "app.localhost",
            "[::1]:8080",
            "192.168.1.5",
            "brett.example.org",
            "Brett.Example.Org:443",
            "play.example.net",
        ] {
            let h = host_part(ok).unwrap();
            assert!(f.host_allowed(&h), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "brett.example.org.evil",
        ] {
            let h = host_part(bad).unwrap();
            assert!(!f.host_allowed(&h), "{bad}");
        }
        for garbage in ["", "a b", "[::1", "x:port", "a/b", "u@h"] {
            assert_eq!(host_part(garbage), None, "{garbage:?}");
        }
        assert!(Front::new(&["a b".into()], &[], &[]).is_err());
        assert!(Front::new(&[], &[], &["not-an-ip".into()]).is_err());
    }

    #[test]
    fn forwarded_addresses_only_from_trusted_proxies() {
        let f = front();
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "203.0.113.9, 10.1.2.3".parse().unwrap());
        let proxy: IpAddr = "10.9.9.9".parse().unwrap();
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        // Through two trusted proxies: the client they name.
        assert_eq!(
            f.client_of(proxy, &h),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // Anyone else's header is not believed.
        assert_eq!(f.client_of(stranger, &h), stranger);
        // A forged first entry behind an untrusted hop is not reached.
        h.insert("x-forwarded-for", "1.1.1.1, 198.51.100.8".parse().unwrap());
        assert_eq!(
            f.client_of(proxy, &h),
            "198.51.100.8".parse::<IpAddr>().unwrap()
        );
        // No header: the proxy itself.
        assert_eq!(f.client_of(proxy, &HeaderMap::new()), proxy);
    }

    #[test]
    fn per_address_limits() {
        let c = PerAddress::new(2);
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let same64: IpAddr = "2001:db8::2".parse().unwrap();
        let other: IpAddr = "127.0.0.2".parse().unwrap();
        let one = c.take(a).unwrap();
        let _two = c.take(same64).unwrap();
        assert!(c.take(a).is_none(), "one /64 is one address");
        assert!(c.take(other).is_some());
        drop(one);
        assert_eq!(c.held(a), 1);
        assert!(c.take(a).is_some());
        assert!(PerAddress::new(0).take(a).is_some());
    }
}
