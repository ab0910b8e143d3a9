//! Accepting connections so that no client can starve the others: a
//! connection that sends nothing for [`HEADER_TIMEOUT`] (new, or kept
//! alive between requests) is closed ([`Idle`]), request headers must
//! arrive whole within the same time (hyper's header timeout, against a
//! byte every few seconds), open connections are capped below the
//! process's file limit, and a socket error on accept (out of file
//! descriptors) pauses instead of spinning.

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long a client may take to send a request's headers, and how long a
/// kept-alive connection may sit idle before its next request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How many connections one `serve` keeps open at most, whatever the file
/// limit allows.
const MAX_CONNECTIONS: u64 = 4096;

/// File descriptors kept free of connections: the site's files, the
/// watcher and the listening sockets need some.
const RESERVED_FILES: u64 = 64;

/// Raises the soft limit on open files to the hard limit, as servers do,
/// and returns how many connections the whole server may hold.
pub fn connection_limit() -> usize {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if let Some(hard) = limit.maximum {
        limit.current = Some(hard);
        let _ = setrlimit(Resource::Nofile, limit);
    }
    let files = getrlimit(Resource::Nofile)
        .current
        .unwrap_or(MAX_CONNECTIONS * 2);
    files
        .saturating_sub(RESERVED_FILES)
        .clamp(16, MAX_CONNECTIONS) as usize
}

/// A listening socket on `addr` that other sockets may share
/// (`SO_REUSEPORT`), one per worker thread.
pub fn listen(addr: SocketAddr) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.set_reuse_port(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&addr.into())?;
    socket.listen(1024)?;
    Ok(socket.into())
}

/// Serves `router` on `socket` until `stopping` turns true, then lets the
/// requests in flight finish. `slots` is shared by every worker: a
/// connection past the cap is closed at once, so the ones being served
/// keep their answers coming.
pub async fn serve(
    socket: std::net::TcpListener,
    router: Router,
    slots: Arc<Semaphore>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(socket)?;
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(HEADER_TIMEOUT))
        .keep_alive_timeout(HEADER_TIMEOUT);
    let graceful = GracefulShutdown::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopping.wait_for(|stop| *stop) => break,
        };
        let tcp = match accepted {
            Ok((tcp, _)) => tcp,
            Err(_) => {
                // EMFILE and the like: give the open connections time to
                // finish or time out instead of failing in a tight loop.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            drop(tcp);
            continue;
        };
        // Answers go out in one write each; Nagle's delay would only hold
        // back the last segment of a large one.
        let _ = tcp.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(Idle::new(tcp)), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// A connection that fails a read which waits longer than
/// [`HEADER_TIMEOUT`] for its first byte: hyper then closes it. hyper's
/// own header timeout starts only once a request's first byte arrives, so
/// a client that connects and sends nothing, or stays silent after an
/// answer, would hold its connection forever.
struct Idle<T> {
    inner: T,
    /// Armed when a read finds nothing to read; cleared by any byte.
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Idle<T> {
    fn new(inner: T) -> Idle<T> {
        Idle {
            inner,
            waiting: None,
        }
    }
}

impl<T: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Idle<T> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        let this = &mut *self;
        match std::pin::Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.waiting = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let waiting = this
                    .waiting
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(HEADER_TIMEOUT)));
                match waiting.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the client sent nothing in time",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<T: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Idle<T> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
