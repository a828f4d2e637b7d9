//! The PostgreSQL store's connections: pools of r2d2 (`docs/dependencies.md`), one per role
//! (the appends', the other writes', the lookups', the leases', the recordings'), so that no
//! role waits behind another's calls. A connection the server closed (a restart of PostgreSQL, a fail-over, a
//! network cut) fails the call that meets the closing, which is refused as a storage error
//! and never acknowledged; the pool then drops it and opens another. While PostgreSQL is
//! away a call waits at most [`OUTAGE_WAIT`] for a connection, then fails.

use std::sync::Arc;
use std::time::Duration;

use postgres::NoTls;
use r2d2_postgres::PostgresConnectionManager;
use scheduled_thread_pool::ScheduledThreadPool;

/// A pool of connections to one database.
pub(super) type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// How long a call waits for a connection while none can be opened (PostgreSQL restarting)
/// before it fails: a seat's command is then refused, not left hanging. A pool tries to open
/// a connection again every half of it at most, so that a call soon finds one once
/// PostgreSQL is back; a store's opening waits as long for its first connections.
pub(super) const OUTAGE_WAIT: Duration = Duration::from_secs(1);

/// How long an opening of a connection may take, unless the URL says
/// (`connect_timeout=`).
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// The threads on which a store's pools open their connections (one store, one thread: an
/// opening is rare).
pub(super) fn opener() -> Arc<ScheduledThreadPool> {
    let threads = ScheduledThreadPool::builder()
        .num_threads(1)
        .thread_name_pattern("baoqi-pg-{}")
        .build();
    Arc::new(threads)
}

/// How large a pool is, and when it opens its first connection.
pub(super) struct Sizing {
    /// The most connections it opens.
    pub(super) size: u32,
    /// Whether its first connection is opened at once (the store's opening fails if it
    /// cannot be), or at its first call.
    pub(super) eager: bool,
}

/// A pool of connections to `url`, `schema` first on their search path.
pub(super) fn pool<E: From<postgres::Error> + From<r2d2::Error>>(
    url: &str,
    schema: Option<&str>,
    role: &Sizing,
    opener: Arc<ScheduledThreadPool>,
) -> Result<Pool, E> {
    let mut config: postgres::Config = url.parse()?;
    if config.get_connect_timeout().is_none() {
        // A database behind a cut network answers nothing: an opening must not hold the
        // store's one opener thread for the system's minutes.
        config.connect_timeout(CONNECT_WAIT);
    }
    if let Some(s) = schema {
        config.options(&format!("-c search_path={s}"));
    }
    let builder = r2d2::Pool::builder()
        .max_size(role.size)
        .min_idle(Some(u32::from(role.eager)))
        // A connection is not tried before each call (a round trip per call): a closed one
        // fails its call and is dropped when it comes back (`has_broken`).
        .test_on_check_out(false)
        .connection_timeout(OUTAGE_WAIT)
        .idle_timeout(None)
        .max_lifetime(None)
        .thread_pool(opener)
        .error_handler(Box::new(Logged));
    let manager = PostgresConnectionManager::new(config, NoTls);
    if role.eager {
        Ok(off_runtime(|| builder.build(manager))?)
    } else {
        Ok(builder.build_unchecked(manager))
    }
}

/// Runs `f` on a connection of `pool`, where the blocking client may run (`off_runtime`);
/// fails when no connection could be had within [`OUTAGE_WAIT`].
pub(super) fn on<T: Send, E: From<postgres::Error> + From<r2d2::Error> + Send>(
    pool: &Pool,
    f: impl FnOnce(&mut postgres::Client) -> Result<T, E> + Send,
) -> Result<T, E> {
    off_runtime(|| {
        let mut conn = pool.get()?;
        f(&mut conn)
    })
}

/// [`on`] for a lookup, which may be made again: a connection the server closed while it
/// lay idle in the pool (PostgreSQL restarted meanwhile) fails the lookup, and the lookup is
/// made again on another, up to `tries` times, rather than refused.
pub(super) fn lookup<T: Send, E: From<postgres::Error> + From<r2d2::Error> + Send>(
    pool: &Pool,
    tries: u32,
    f: impl Fn(&mut postgres::Client) -> Result<T, E> + Send + Sync,
) -> Result<T, E> {
    off_runtime(|| {
        let mut left = tries;
        loop {
            let mut conn = pool.get()?;
            let out = f(&mut conn);
            left -= 1;
            // A failed lookup is made again only when its connection is dead: closed
            // already, or failing an empty query (the server's last words may arrive before
            // the client has seen the connection close). Once dead, the pool drops it.
            if out.is_ok() || left == 0 || !(conn.is_closed() || conn.simple_query("").is_err()) {
                return out;
            }
        }
    })
}

/// The pools' failures to open a connection, in the server's log.
#[derive(Debug)]
struct Logged;

impl r2d2::HandleError<postgres::Error> for Logged {
    fn handle_error(&self, error: postgres::Error) {
        tracing::warn!("PostgreSQL: cannot connect: {error}");
    }
}

/// Runs `f` where PostgreSQL's blocking client may run. The client drives its connection
/// with a small runtime of its own, which cannot start on a thread that is running tokio's
/// (a server task calling the store). On the server's multi-threaded runtime `f` runs in
/// place ([`tokio::task::block_in_place`]: the thread leaves the runtime, whose other tasks
/// move to its other workers, while the caller waits as it would wait on the `SQLite` store's
/// lock); off tokio's threads, and on a blocking task's, it simply runs. Only a
/// current-thread runtime (a test's) cannot lend its one thread: there `f` runs on a scoped
/// thread while the caller waits.
pub(super) fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Err(_) => f(),
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        Ok(_) => std::thread::scope(|s| match s.spawn(f).join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        }),
    }
}

#[cfg(test)]
mod tests {
    use std::thread;

    /// A call from a server task runs on the task's own thread (the runtime lends it), not
    /// on a thread started for the call; off tokio's threads, it simply runs.
    #[test]
    fn a_call_from_a_server_task_runs_on_its_own_thread() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .expect("a runtime");
        let (caller, inside) = rt.block_on(async {
            tokio::spawn(async {
                let caller = thread::current().id();
                (caller, super::off_runtime(|| thread::current().id()))
            })
            .await
            .expect("the task")
        });
        assert_eq!(caller, inside);
        let here = thread::current().id();
        assert_eq!(super::off_runtime(|| thread::current().id()), here);
    }
}
