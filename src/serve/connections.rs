//! Accepting connections so that no client can starve the others: a
//! connection that sends nothing for [`HEADER_TIMEOUT`] (new, or kept
//! alive between requests) is closed ([`Idle`]), request headers must
//! arrive whole within the same time (hyper's header timeout, against a
//! byte every few seconds), open connections are capped below the
//! process's file limit, and per client address, with a reserve for
//! clients that hold few ([`Admission`]), and a socket error on accept
//! (out of file descriptors) pauses instead of spinning.

use super::Served;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

/// Who may open one more connection. One client holding every connection
/// the server can keep (4,096 idle sockets) locked every other client out
/// until the idle timeout freed them, and took them again. So one client
/// address (an IPv6 /64, which one host is usually given) holds at most an
/// eighth of them, and the last quarter is kept for clients that hold
/// fewer than [`FEW`].
#[derive(Debug)]
pub struct Admission {
    limit: usize,
    per_client: usize,
    reserve: usize,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// How many connections a client may hold and still use the reserve: more
/// than a browser opens to one host (six).
pub const FEW: usize = 8;

impl Admission {
    /// For a server that may hold `limit` connections in all.
    pub fn new(limit: usize) -> Admission {
        Admission {
            limit,
            per_client: (limit / 8).max(FEW),
            reserve: limit / 4,
            held: Mutex::default(),
        }
    }

    /// A connection for the client at `address`, if it may open one; it is
    /// given back when the ticket is dropped.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Option<Ticket> {
        let client = client_of(address);
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let mine = held.by_client.get(&client).copied().unwrap_or(0);
        let full = held.total >= self.limit
            || mine >= self.per_client
            || (held.total >= self.limit - self.reserve && mine >= FEW);
        if full {
            return None;
        }
        held.total += 1;
        *held.by_client.entry(client).or_default() += 1;
        Some(Ticket {
            admission: Arc::clone(self),
            client,
        })
    }
}

/// The client a connection counts against: its IPv4 address, or the /64
/// of its IPv6 address (an IPv4-mapped one as IPv4).
fn client_of(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// One admitted connection.
#[derive(Debug)]
pub struct Ticket {
    admission: Arc<Admission>,
    client: IpAddr,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut held = self
            .admission
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        held.total -= 1;
        if let Some(count) = held.by_client.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                held.by_client.remove(&self.client);
            }
        }
    }
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

/// Serves `served` on `socket` until `stopping` turns true, then lets the
/// requests in flight finish. `admission` is shared by every worker: a
/// connection it refuses is closed at once, so the ones being served keep
/// their answers coming.
pub async fn serve(
    socket: std::net::TcpListener,
    served: Served,
    admission: Arc<Admission>,
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
        // Stopping first: `select` polls its left future first, and a
        // backlog of connections must not hold off a stop.
        let stop = std::pin::pin!(stopping.wait_for(|stop| *stop));
        let accept = std::pin::pin!(listener.accept());
        let accepted = match futures_util::future::select(stop, accept).await {
            futures_util::future::Either::Left(_) => break,
            futures_util::future::Either::Right((accepted, _)) => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(_) => {
                // EMFILE and the like: give the open connections time to
                // finish or time out instead of failing in a tight loop.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Some(slot) = admission.admit(peer.ip()) else {
            drop(tcp);
            continue;
        };
        // Answers go out in one write each; Nagle's delay would only hold
        // back the last segment of a large one.
        let _ = tcp.set_nodelay(true);
        let served = served.clone();
        let service = hyper::service::service_fn(move |request| {
            let served = served.clone();
            async move { Ok::<_, std::convert::Infallible>(served.answer(request).await) }
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_client_cannot_take_every_connection() {
        let admission = Arc::new(Admission::new(64));
        let greedy: IpAddr = "192.0.2.1".parse().unwrap();
        let taken: Vec<Ticket> = std::iter::from_fn(|| admission.admit(greedy)).collect();
        assert_eq!(taken.len(), 8, "an eighth");
        // Its neighbour in the same IPv6 /64 is the same client.
        let v6 = |s: &str| -> IpAddr { s.parse().unwrap() };
        let mut held: Vec<Ticket> = (0..8)
            .map(|_| admission.admit(v6("2001:db8::1")).unwrap())
            .collect();
        assert!(admission.admit(v6("2001:db8::2")).is_none());
        assert!(admission.admit(v6("2001:db8:0:1::2")).is_some());
        held.clear();
        // Greedy clients fill up to the reserve; then only those holding
        // fewer than FEW get in, until the limit.
        let greedy_ones: Vec<Ticket> = (2..=6)
            .flat_map(|i| {
                let address: IpAddr = format!("192.0.2.{i}").parse().unwrap();
                std::iter::from_fn(move || Some(address)).take(8)
            })
            .filter_map(|a| admission.admit(a))
            .collect();
        assert_eq!(taken.len() + greedy_ones.len(), 48, "up to the reserve");
        let polite: Vec<Ticket> = (10..=30)
            .filter_map(|i| admission.admit(format!("192.0.2.{i}").parse().unwrap()))
            .collect();
        assert_eq!(polite.len(), 16, "the reserve, one each");
        assert!(
            admission.admit("192.0.2.99".parse().unwrap()).is_none(),
            "full"
        );
        drop(taken);
        assert!(admission.admit("192.0.2.99".parse().unwrap()).is_some());
    }
}
