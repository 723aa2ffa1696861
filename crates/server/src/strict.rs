//! The bytes of a connection, checked before hyper reads them: every line
//! of a request's head must end with CR LF. hyper (like most HTTP
//! parsers) also takes a bare LF, and a proxy in front that reads the same
//! bytes otherwise could see other requests than the server does (request
//! smuggling). A request whose head has a bare LF never reaches hyper:
//! in its place hyper reads a request marked by a header only this
//! process knows ([`crate::front::malformed_marker`]) and asking to close
//! the connection, which the router answers `400 bad_request`; nothing
//! after it is read.
//!
//! To know where each head starts, the reader follows the requests'
//! framing: a head, then a body of `Content-Length` bytes or chunked
//! (chunk lines are held to CR LF too); after a head asking for an
//! upgrade (a WebSocket) the rest is passed through. Heads are held back
//! until they are complete (at most [`MAX_HEAD`] bytes; a longer one is
//! refused the same way); bodies pass at once.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The longest request head taken.
pub const MAX_HEAD: usize = 64 * 1024;

/// Where the reader is in the stream of requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Framing {
    /// In a request's head (held in `pending` until complete).
    Head,
    /// In a body with this many bytes left.
    Body(u64),
    /// A chunked body: in a chunk-size line (held until complete).
    ChunkSize,
    /// A chunked body: in a chunk's data, this many bytes left.
    ChunkData(u64),
    /// A chunked body: the CR LF after a chunk's data (this many bytes of
    /// it seen).
    ChunkEnd(u8),
    /// A chunked body: in the trailer lines after the last chunk.
    Trailer,
    /// Upgraded (or given up following): everything passes.
    Through,
    /// A malformed request was replaced; then the connection ends.
    Ended,
}

/// A connection whose request heads are checked (see the module).
pub struct StrictHttp1<S> {
    inner: S,
    framing: Framing,
    /// Bytes read but not yet checked (an incomplete head or chunk line).
    pending: Vec<u8>,
    /// Bytes checked and not yet handed to the reader.
    ready: Vec<u8>,
    /// How much of `ready` was handed over.
    handed: usize,
    /// The request put in place of a malformed one.
    replacement: Vec<u8>,
    eof: bool,
}

/// What a request head says of what follows it.
struct HeadInfo {
    content_length: Option<u64>,
    chunked: bool,
    upgrade: bool,
}

fn head_info(head: &[u8]) -> Option<HeadInfo> {
    let text = std::str::from_utf8(head).ok();
    let mut info = HeadInfo {
        content_length: None,
        chunked: false,
        upgrade: false,
    };
    // Non-UTF-8 heads are hyper's to refuse; their framing is unknown.
    let text = text?;
    for line in text.split("\r\n").skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("content-length") {
            info.content_length = value.parse().ok().or(Some(u64::MAX));
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            info.chunked |= value
                .rsplit(',')
                .next()
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("chunked"));
        } else if name.eq_ignore_ascii_case("upgrade") {
            info.upgrade = true;
        }
    }
    Some(info)
}

/// The position just after the head's end (`CR LF CR LF`), `Err(())` at a
/// bare LF, `Ok(None)` if the head is not complete yet. CR LF before the
/// request line (allowed between requests) is part of the head.
fn head_end(bytes: &[u8]) -> Result<Option<usize>, ()> {
    let mut line_start = 0;
    let mut started = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'\n' {
            continue;
        }
        if i == 0 || bytes[i - 1] != b'\r' {
            return Err(());
        }
        let empty = i + 1 - line_start == 2;
        if empty && started {
            return Ok(Some(i + 1));
        }
        started |= !empty;
        line_start = i + 1;
    }
    Ok(None)
}

/// A whole line ending at CR LF: its length with the CR LF; `Err(())` at a
/// bare LF.
fn line_end(bytes: &[u8]) -> Result<Option<usize>, ()> {
    match bytes.iter().position(|&b| b == b'\n') {
        None => Ok(None),
        Some(0) => Err(()),
        Some(i) if bytes[i - 1] != b'\r' => Err(()),
        Some(i) => Ok(Some(i + 1)),
    }
}

impl<S> StrictHttp1<S> {
    /// Check the requests read from `inner`.
    pub fn new(inner: S) -> StrictHttp1<S> {
        let replacement = format!(
            "GET /api/malformed HTTP/1.1\r\nhost: localhost\r\n{}: {}\r\nconnection: close\r\n\r\n",
            crate::front::MALFORMED_HEADER,
            crate::front::malformed_marker()
        )
        .into_bytes();
        StrictHttp1 {
            inner,
            framing: Framing::Head,
            pending: Vec::new(),
            ready: Vec::new(),
            handed: 0,
            replacement,
            eof: false,
        }
    }

    /// Put the marked request in place of what is pending and end.
    fn malformed(&mut self) {
        self.pending.clear();
        let replacement = std::mem::take(&mut self.replacement);
        self.ready.extend_from_slice(&replacement);
        self.framing = Framing::Ended;
    }

    /// Move what can be checked from `pending` to `ready`.
    fn advance(&mut self) {
        loop {
            if self.pending.is_empty() {
                return;
            }
            match self.framing {
                Framing::Ended => {
                    self.pending.clear();
                    return;
                }
                Framing::Through => {
                    self.ready.append(&mut self.pending);
                    return;
                }
                Framing::Head => match head_end(&self.pending) {
                    Err(()) => return self.malformed(),
                    Ok(None) if self.pending.len() > MAX_HEAD => return self.malformed(),
                    Ok(None) => return,
                    Ok(Some(end)) => {
                        let Some(info) = head_info(&self.pending[..end]) else {
                            // hyper refuses it; nothing after it is read.
                            self.framing = Framing::Through;
                            continue;
                        };
                        self.ready.extend(self.pending.drain(..end));
                        self.framing = if info.upgrade {
                            Framing::Through
                        } else if info.chunked {
                            Framing::ChunkSize
                        } else {
                            match info.content_length {
                                Some(0) | None => Framing::Head,
                                Some(n) => Framing::Body(n),
                            }
                        };
                    }
                },
                Framing::Body(left) | Framing::ChunkData(left) => {
                    let n = usize::try_from(left)
                        .unwrap_or(usize::MAX)
                        .min(self.pending.len());
                    self.ready.extend(self.pending.drain(..n));
                    let left = left - n as u64;
                    self.framing = match (self.framing, left) {
                        (Framing::Body(_), 0) => Framing::Head,
                        (Framing::Body(_), _) => Framing::Body(left),
                        (_, 0) => Framing::ChunkEnd(0),
                        _ => Framing::ChunkData(left),
                    };
                }
                Framing::ChunkEnd(seen) => {
                    let want = &b"\r\n"[usize::from(seen)..];
                    let n = want.len().min(self.pending.len());
                    if self.pending[..n] != want[..n] {
                        // hyper refuses the body; follow no further.
                        self.framing = Framing::Through;
                        continue;
                    }
                    self.ready.extend(self.pending.drain(..n));
                    self.framing = if usize::from(seen) + n == 2 {
                        Framing::ChunkSize
                    } else {
                        Framing::ChunkEnd(seen + n as u8)
                    };
                }
                Framing::ChunkSize | Framing::Trailer => match line_end(&self.pending) {
                    Err(()) => return self.malformed(),
                    Ok(None) if self.pending.len() > MAX_HEAD => return self.malformed(),
                    Ok(None) => return,
                    Ok(Some(end)) => {
                        let line: Vec<u8> = self.pending.drain(..end).collect();
                        let content = &line[..end - 2];
                        self.framing = if self.framing == Framing::Trailer {
                            if content.is_empty() {
                                Framing::Head
                            } else {
                                Framing::Trailer
                            }
                        } else {
                            let size = std::str::from_utf8(content)
                                .ok()
                                .map(|l| l.split(';').next().unwrap_or("").trim())
                                .and_then(|h| u64::from_str_radix(h, 16).ok());
                            match size {
                                Some(0) => Framing::Trailer,
                                Some(n) => Framing::ChunkData(n),
                                None => Framing::Through,
                            }
                        };
                        self.ready.extend_from_slice(&line);
                    }
                },
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for StrictHttp1<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.handed < this.ready.len() {
                let n = (this.ready.len() - this.handed).min(buf.remaining());
                buf.put_slice(&this.ready[this.handed..this.handed + n]);
                this.handed += n;
                if this.handed == this.ready.len() {
                    this.ready.clear();
                    this.handed = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.framing == Framing::Ended {
                // The marked request is all hyper reads. What the client
                // sends after it is dropped; the end comes when it closes
                // (hyper, seeing no end, answers the request and then closes
                // the connection as the request asks).
                let mut sink = [0u8; 4096];
                let mut read = ReadBuf::new(&mut sink);
                ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
                if read.filled().is_empty() {
                    return Poll::Ready(Ok(()));
                }
                continue;
            }
            if this.eof {
                // An incomplete head at the end goes to hyper as it is (it
                // answers or drops it).
                if !this.pending.is_empty() {
                    this.ready.append(&mut this.pending);
                    continue;
                }
                return Poll::Ready(Ok(()));
            }
            if this.framing == Framing::Through && this.pending.is_empty() {
                // Nothing to follow: read straight into the caller's buffer.
                return Pin::new(&mut this.inner).poll_read(cx, buf);
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                this.eof = true;
            } else {
                this.pending.extend_from_slice(read.filled());
                this.advance();
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for StrictHttp1<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// What hyper would read of `input` fed in pieces of `step` bytes.
    async fn through(input: &[u8], step: usize) -> Vec<u8> {
        let mut b = tokio_test_reader(input, step);
        let mut out = Vec::new();
        b.read_to_end(&mut out).await.unwrap();
        out
    }

    fn tokio_test_reader(input: &[u8], step: usize) -> StrictHttp1<Pieces> {
        StrictHttp1::new(Pieces {
            data: input.to_vec(),
            at: 0,
            step,
        })
    }

    /// A reader that gives `step` bytes at a time.
    struct Pieces {
        data: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl AsyncRead for Pieces {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let n = self
                .step
                .min(self.data.len() - self.at)
                .min(buf.remaining());
            let at = self.at;
            buf.put_slice(&self.data[at..at + n]);
            self.at += n;
            Poll::Ready(Ok(()))
        }
    }

    fn replaced(out: &[u8]) -> bool {
        String::from_utf8_lossy(out).contains(crate::front::MALFORMED_HEADER)
    }

    #[tokio::test]
    async fn well_formed_requests_pass_unchanged() {
        let input = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n\
            POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\na\nb\nc\
            POST /y HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
            3;x=y\r\n\n\n\n\r\n0\r\nT: 1\r\n\r\n\
            \r\nGET /z HTTP/1.1\r\nHost: a\r\n\r\n";
        for step in [1, 3, 7, 4096] {
            assert_eq!(through(input, step).await, input.to_vec(), "step {step}");
        }
        // After an upgrade anything passes.
        let ws = b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n\x81\x02\n\n";
        assert_eq!(through(ws, 5).await, ws.to_vec());
    }

    #[tokio::test]
    async fn a_bare_lf_in_a_head_or_chunk_line_is_replaced() {
        for input in [
            &b"GET / HTTP/1.1\nHost: a\n\n"[..],
            b"GET / HTTP/1.1\r\nHost: a\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\n\n",
            b"POST /y HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n",
        ] {
            for step in [1, 4096] {
                let out = through(input, step).await;
                assert!(replaced(&out), "{}", String::from_utf8_lossy(input));
                // Nothing of the malformed head reaches hyper.
                let text = String::from_utf8_lossy(&out);
                assert!(!text.contains("Host: a\n"), "{text}");
            }
        }
        // The well-formed request before it still passes.
        let out = through(
            b"GET /first HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\nHost: a\n\n",
            4096,
        )
        .await;
        assert!(
            String::from_utf8_lossy(&out)
                .starts_with("GET /first HTTP/1.1\r\nHost: a\r\n\r\nGET /api/malformed")
        );
    }

    #[tokio::test]
    async fn an_endless_head_is_replaced() {
        let mut input = b"GET / HTTP/1.1\r\nX: ".to_vec();
        input.extend(std::iter::repeat_n(b'a', MAX_HEAD + 10));
        assert!(replaced(&through(&input, 8192).await));
    }
}
