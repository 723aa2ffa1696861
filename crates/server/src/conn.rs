//! The connection loop under the router: at most so many connections at
//! once, a deadline for each request's header that also ends idle
//! keep-alive connections, the peer's address for the rate limits, and a
//! graceful shutdown.
//!
//! A connection over the limit waits a while for a slot (a burst of
//! half-open connections is cleared by the header deadline meanwhile); when
//! none frees up in time, or too many already wait, it is refused with a
//! plain `503` whose JSON body has the code `too_many_connections` and a
//! `Retry-After`, and closed. One address (IPv6: its /64) holds at most so
//! many connections, served or waiting, so that it can never take the
//! whole pool; a further one is refused at once with `429`. Trusted proxies
//! are exempt. Every connection's request heads are checked for bare LF
//! line ends first (crate::strict). The server never stops accepting because
//! its open-file limit ran out: [`open_file_budget`] raises the soft limit
//! and caps the connection limit below it.

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tower_service::Service;

use crate::front::{Held, PerAddress};
use crate::strict::StrictHttp1;

/// What each connection is held to.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections served at once (WebSockets included).
    pub max_connections: usize,
    /// The time a client has to send a request's header, counted from the
    /// connection's start or the end of the previous answer: a connection
    /// that sends no complete header within it is closed.
    pub header_timeout: Duration,
    /// How long a connection over the limit waits for a slot before it is
    /// refused.
    pub connection_wait: Duration,
}

impl Limits {
    /// Connections over the limit that may wait for a slot at once; further
    /// ones are refused at once.
    pub fn max_waiting(&self) -> usize {
        self.max_connections.clamp(64, 1024)
    }
}

/// File descriptors kept for everything but client connections (the
/// database, the databases of the engine, logs, the listener).
const RESERVED_FILES: u64 = 64;

/// Raise the soft open-file limit to the hard one where it is lower, and
/// return the connections that fit under it: each connection (served or
/// waiting) takes a file descriptor, plus [`RESERVED_FILES`] for the rest.
/// `None` where the limit cannot be read.
pub fn open_file_budget() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit/setrlimit only read and write the struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: lim.rlim_max,
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim.rlim_cur = lim.rlim_max;
                }
            }
        }
        #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every unix
        let soft = lim.rlim_cur as u64;
        Some(soft.saturating_sub(RESERVED_FILES))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The connection limit in force: `requested`, lowered (with a warning)
/// so that the served and waiting connections fit in `budget` files.
pub fn fit_to_budget(requested: usize, budget: Option<u64>) -> usize {
    let requested = requested.max(1);
    let Some(budget) = budget else {
        return requested;
    };
    let needs = |n: usize| {
        n as u64
            + Limits {
                max_connections: n,
                header_timeout: Duration::ZERO,
                connection_wait: Duration::ZERO,
            }
            .max_waiting() as u64
    };
    if needs(requested) <= budget {
        return requested;
    }
    let mut n = requested.min(usize::try_from(budget).unwrap_or(usize::MAX));
    while n > 1 && needs(n) > budget {
        n -= 1;
    }
    let n = n.max(1);
    tracing::warn!(
        requested,
        allowed = n,
        open_file_limit = budget + RESERVED_FILES,
        "the connection limit does not fit under the open-file limit (ulimit -n); it is lowered"
    );
    n
}

/// The slot of the connection limit a request's connection holds, and its
/// share of its address's connections; a WebSocket keeps them after the
/// upgrade.
#[derive(Clone)]
pub struct ConnectionSlot(#[allow(dead_code)] Arc<(OwnedSemaphorePermit, Option<Held>)>);

/// Errors of `accept` that concern one connection only.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// Seconds a refused client is asked to wait.
const REFUSAL_RETRY_AFTER: u64 = 5;

/// Why a connection is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The server holds as many connections as it may (503).
    Full,
    /// The connection's address holds as many as it may (429).
    Address,
}

/// The answer to a connection refused.
fn refusal(why: Refusal) -> Vec<u8> {
    let (status, error) = match why {
        Refusal::Full => (
            "503 Service Unavailable",
            "the server has too many connections open; try again in a few seconds",
        ),
        Refusal::Address => (
            "429 Too Many Requests",
            "your address has too many connections open to this server; close some and try again",
        ),
    };
    let body = serde_json::json!({
        "error": error,
        "code": "too_many_connections",
    })
    .to_string();
    let headers: String = crate::front::security_headers()
        .iter()
        .map(|(k, v)| format!("{k}: {}\r\n", v.to_str().unwrap_or_default()))
        .collect();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n\
         retry-after: {REFUSAL_RETRY_AFTER}\r\n{headers}connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Answer `503` (or `429`) `too_many_connections` and close. The request
/// is read (for a moment) after the answer so that closing does not reset
/// the connection before the client read it.
async fn refuse(mut stream: TcpStream, why: Refusal) {
    let answer = refusal(why);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(&answer).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        std::io::Result::Ok(())
    })
    .await;
}

/// Serve `router` on `listener` until `signal`, then stop accepting, let
/// the requests in progress finish and close the connections.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    per_address: Arc<PerAddress>,
    exempt: impl Fn(IpAddr) -> bool + Send + 'static,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let waiting = Arc::new(AtomicUsize::new(0));
    let max_waiting = limits.max_waiting();
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a sender; all are gone when all ended.
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let builder = Arc::new(builder);
    tokio::pin!(signal);
    let mut warned_full = false;
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    tracing::error!(error = %e, "accept failed; retrying in 0.1 s");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut signal => break,
        };
        let _ = stream.set_nodelay(true);
        let held = if exempt(peer.ip()) {
            None
        } else {
            match per_address.take(peer.ip()) {
                Some(held) => Some(held),
                None => {
                    let alive = alive_tx.clone();
                    tokio::spawn(async move {
                        refuse(stream, Refusal::Address).await;
                        drop(alive);
                    });
                    continue;
                }
            }
        };
        let serve_one = {
            let router = router.clone();
            let builder = builder.clone();
            let mut stop = stop_rx.clone();
            move |stream: TcpStream, permit: OwnedSemaphorePermit| async move {
                let slot = ConnectionSlot(Arc::new((permit, held)));
                let service =
                    hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                        req.extensions_mut().insert(ConnectInfo(peer));
                        req.extensions_mut().insert(slot.clone());
                        let mut router = router.clone();
                        async move { router.call(req).await }
                    });
                let conn = builder
                    .serve_connection(TokioIo::new(StrictHttp1::new(stream)), service)
                    .with_upgrades();
                tokio::pin!(conn);
                tokio::select! {
                    r = conn.as_mut() => {
                        if let Err(e) = r {
                            tracing::debug!(error = %e, %peer, "connection ended");
                        }
                    }
                    _ = async { stop.wait_for(|s| *s).await.is_ok() } => {
                        conn.as_mut().graceful_shutdown();
                        let _ = conn.await;
                    }
                }
            }
        };
        let alive = alive_tx.clone();
        match slots.clone().try_acquire_owned() {
            Ok(permit) => {
                if slots.available_permits() > limits.max_connections / 2 {
                    warned_full = false;
                }
                tokio::spawn(async move {
                    serve_one(stream, permit).await;
                    drop(alive);
                });
            }
            Err(_) => {
                if !warned_full {
                    tracing::warn!(
                        max = limits.max_connections,
                        "connection limit reached; new connections wait, then are refused"
                    );
                    warned_full = true;
                }
                if waiting.fetch_add(1, Ordering::AcqRel) >= max_waiting {
                    waiting.fetch_sub(1, Ordering::AcqRel);
                    tokio::spawn(async move {
                        refuse(stream, Refusal::Full).await;
                        drop(alive);
                    });
                    continue;
                }
                let slots = slots.clone();
                let waiting = waiting.clone();
                let mut stop = stop_rx.clone();
                tokio::spawn(async move {
                    let permit = tokio::select! {
                        p = tokio::time::timeout(limits.connection_wait, slots.acquire_owned()) => {
                            p.ok().and_then(Result::ok)
                        }
                        _ = async { stop.wait_for(|s| *s).await.is_ok() } => None,
                    };
                    waiting.fetch_sub(1, Ordering::AcqRel);
                    match permit {
                        Some(permit) => serve_one(stream, permit).await,
                        None => refuse(stream, Refusal::Full).await,
                    }
                    drop(alive);
                });
            }
        }
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(alive_tx);
    let _ = alive_rx.recv().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_limit_fits_under_the_open_file_budget() {
        assert_eq!(fit_to_budget(512, None), 512);
        assert_eq!(fit_to_budget(512, Some(100_000)), 512);
        // 10,000 served + 1,024 waiting do not fit in 10,000 files.
        assert_eq!(fit_to_budget(10_000, Some(10_000)), 8_976);
        assert_eq!(fit_to_budget(10_000, Some(11_024)), 10_000);
        assert_eq!(fit_to_budget(100, Some(100)), 36);
        assert_eq!(fit_to_budget(0, Some(10)), 1);
    }

    #[test]
    fn the_refusal_is_a_complete_http_answer() {
        let text = String::from_utf8(refusal(Refusal::Address)).unwrap();
        assert!(text.starts_with("HTTP/1.1 429 "));
        assert!(text.contains("x-frame-options: DENY\r\n"));
        let text = String::from_utf8(refusal(Refusal::Full)).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 "));
        assert!(head.contains("retry-after: 5"));
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(len, body.len());
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["code"], "too_many_connections");
    }
}
