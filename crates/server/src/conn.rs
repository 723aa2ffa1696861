//! The connection loop under the router: at most so many connections at
//! once (further ones wait in the listen queue), a deadline for each
//! request's header that also ends idle keep-alive connections, the peer's
//! address for the rate limits, and a graceful shutdown.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tower_service::Service;

/// What each connection is held to.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections served at once (WebSockets included).
    pub max_connections: usize,
    /// The time a client has to send a request's header, counted from the
    /// connection's start or the end of the previous answer: a connection
    /// that sends no complete header within it is closed.
    pub header_timeout: Duration,
}

/// The slot of the connection limit a request's connection holds; a
/// WebSocket keeps it after the upgrade.
#[derive(Clone)]
pub struct ConnectionSlot(#[allow(dead_code)] Arc<OwnedSemaphorePermit>);

/// Errors of `accept` that concern one connection only.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// Serve `router` on `listener` until `signal`, then stop accepting, let
/// the requests in progress finish and close the connections.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a sender; all are gone when all ended.
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    tokio::pin!(signal);
    let mut warned_full = false;
    loop {
        let permit = match slots.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                if !warned_full {
                    tracing::warn!(
                        max = limits.max_connections,
                        "connection limit reached; new connections wait"
                    );
                    warned_full = true;
                }
                tokio::select! {
                    p = slots.clone().acquire_owned() => match p {
                        Ok(p) => p,
                        Err(_) => break,
                    },
                    () = &mut signal => break,
                }
            }
        };
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    tracing::error!(error = %e, "accept failed; retrying in 1 s");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
            () = &mut signal => break,
        };
        if slots.available_permits() > limits.max_connections / 2 {
            warned_full = false;
        }
        let _ = stream.set_nodelay(true);
        let slot = ConnectionSlot(Arc::new(permit));
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(slot.clone());
            let mut router = router.clone();
            async move { router.call(req).await }
        });
        let conn = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop = stop_rx.clone();
        let alive = alive_tx.clone();
        tokio::spawn(async move {
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
            drop(alive);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(alive_tx);
    let _ = alive_rx.recv().await;
    Ok(())
}
