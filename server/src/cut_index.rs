//! When the store's WAL index is cut short under the server.
//!
//! `SQLite` keeps the index of its write-ahead log in `FILE-shm`, mapped in memory by every
//! process that opens the database. Another program that truncates or overwrites that file
//! (an organiser copying a backup over the hall's files while the server runs) leaves the
//! mapping without pages: the next touch of it raises SIGBUS, and the process died of it.
//! A zeroed index cannot be acted on — `SQLite` would read old pages for new ones — so the
//! server does not carry on past the fault: the thread that touched the mapping stops there
//! (each return from the handler faults again), this module's watcher sees which mapped
//! file lost its pages, says so, and executes `baoqi serve` again in the same process, at the
//! same address. The new image opens the store as after any restart: `SQLite` rebuilds the
//! index from the log, the store is checked, every acknowledged command is there, and the
//! games resume as after a crash (a restart costs no one time). A SIGBUS of another cause
//! (another mapped file cut, a signal sent by hand) restarts it the same way: carrying on past
//! it is never safe, and a restart loses nothing; after [`MAX_RESTARTS`] it stops.
//!
//! The handler is `signal-hook`'s (it only writes to a pipe), so the workspace keeps no
//! `unsafe` code of its own; the watcher reads `/proc/self/maps` on an ordinary thread.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

use signal_hook::consts::SIGBUS;
use signal_hook::iterator::Signals;

/// The environment variable that counts the in-place restarts of one `baoqi serve`.
pub(crate) const RESTARTS_VAR: &str = "BAOQI_RESTARTS_IN_PLACE";

/// More in-place restarts than this and the server stops (exit status 75): something keeps
/// cutting its files, and a person must find it.
pub(crate) const MAX_RESTARTS: u32 = 3;

/// How many times this process has started again in place (0 on a first start).
pub(crate) fn restarts() -> u32 {
    std::env::var(RESTARTS_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The command line to run again: this process's own, with the address it listens on fixed
/// to the one it bound (a first start on port 0 comes back on the same port), and without
/// `--demo`, whose every start re-issues the demo's tokens: the links the players hold stay
/// good.
pub(crate) fn command_line(
    args: impl IntoIterator<Item = OsString>,
    bound: SocketAddr,
) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--listen" {
            args.next();
        } else if arg != "--demo" && !arg.to_string_lossy().starts_with("--listen=") {
            out.push(arg);
        }
    }
    out.push("--listen".into());
    out.push(bound.to_string().into());
    out
}

/// A mapping of a file, as `/proc/self/maps` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mapping {
    /// Shared with other processes (`s`): `SQLite`'s WAL index is; a library's code is not.
    pub(crate) shared: bool,
    /// The offset in the file of the mapping's first byte.
    pub(crate) offset: u64,
    /// The mapping's length in bytes (whole pages).
    pub(crate) len: u64,
    /// The file.
    pub(crate) path: PathBuf,
}

/// The file mappings of one `/proc/PID/maps` text (anonymous and special ones left out).
pub(crate) fn file_mappings(maps: &str) -> Vec<Mapping> {
    maps.lines().filter_map(mapping).collect()
}

fn mapping(line: &str) -> Option<Mapping> {
    let mut fields = line.splitn(6, ' ');
    let (start, end) = fields.next()?.split_once('-')?;
    let (perms, offset, _dev, _inode) = (
        fields.next()?,
        fields.next()?,
        fields.next()?,
        fields.next()?,
    );
    let path = fields.next()?.trim_start();
    if !path.starts_with('/') {
        return None;
    }
    let hex = |s: &str| u64::from_str_radix(s, 16).ok();
    Some(Mapping {
        shared: perms.ends_with('s'),
        offset: hex(offset)?,
        len: hex(end)?.checked_sub(hex(start)?)?,
        path: PathBuf::from(path),
    })
}

/// Whether a mapping reaches past the end of a file of `size` bytes by a whole page: the
/// pages past the end have nothing behind them, and touching one raises SIGBUS.
pub(crate) fn cut_short(m: &Mapping, size: u64, page: u64) -> bool {
    size.div_ceil(page) * page < m.offset + m.len
}

/// The first of this process's shared file mappings (a library's are private) whose file
/// has been cut short under it.
fn cut_file() -> Option<PathBuf> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let page = rustix::param::page_size() as u64;
    file_mappings(&maps)
        .into_iter()
        .filter(|m| m.shared)
        .find_map(|m| {
            let size = std::fs::metadata(&m.path).ok()?.len();
            cut_short(&m, size, page).then_some(m.path)
        })
}

/// Whether `path` is the WAL index of a `SQLite` database.
pub(crate) fn is_wal_index(path: &Path) -> bool {
    path.to_string_lossy().ends_with("-shm")
}

/// Watches for SIGBUS from now on: on one, says which mapped file was cut short and runs
/// `args` (see [`command_line`]) again in this process, or stops after [`MAX_RESTARTS`].
pub(crate) fn watch(args: Vec<OsString>) -> std::io::Result<()> {
    // The Rust runtime catches SIGBUS to report stack overflows; at the first SIGBUS that is
    // not one, its handler puts the default action back, which would end the process at the
    // fault's next turn before the watcher could act. `signal-hook` calls the handler it
    // finds before its own, so that one is made to step aside first, with a SIGBUS sent to
    // this thread (its address, a process id, is no stack's guard page).
    signal_hook::low_level::raise(SIGBUS)?;
    let mut signals = Signals::new([SIGBUS])?;
    std::thread::Builder::new()
        .name("baoqi-sigbus".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                restart_or_die(&args);
            }
        })?;
    Ok(())
}

fn restart_or_die(args: &[OsString]) -> ! {
    let what = match cut_file() {
        Some(cut) if is_wal_index(&cut) => format!(
            "the store's WAL index {} was cut short by another program",
            cut.display()
        ),
        Some(cut) => format!("{} was cut short under its mapping", cut.display()),
        None => "SIGBUS, of no cause found in its mapped files".to_owned(),
    };
    let done = restarts();
    if done >= MAX_RESTARTS {
        tracing::error!(
            "baoqi serve: {what}, after {done} restarts in place: stopping. Nothing \
             acknowledged is lost; find what writes to the store's files, then start the \
             server again."
        );
        std::process::exit(75);
    }
    tracing::error!(
        "baoqi serve: {what}; stopping before SQLite acts on it and starting again in place \
         (nothing acknowledged is lost; the games resume as after a restart)."
    );
    let mut again = std::process::Command::new("/proc/self/exe");
    if let Some(name) = args.first() {
        again.arg0(name);
    }
    let error = again
        .args(args.iter().skip(1))
        .env(RESTARTS_VAR, (done + 1).to_string())
        .exec();
    tracing::error!("baoqi serve: could not start again: {error}");
    std::process::exit(75);
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAPS: &str = "\
55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1312 /usr/bin/baoqi
7f1e2c000000-7f1e2c008000 rw-s 00000000 08:01 4242 /tmp/x/event.db-shm
7f1e2c008000-7f1e2c010000 rw-s 00008000 08:01 4242 /tmp/x/event.db-shm
7f1e2c010000-7f1e2c011000 rw-p 00000000 00:00 0 
7ffd1a000000-7ffd1a021000 rw-p 00000000 00:00 0                          [stack]
";

    #[test]
    fn the_file_mappings_are_read_from_proc_maps() {
        let found = file_mappings(MAPS);
        assert_eq!(found.len(), 3);
        assert!(!found[0].shared, "the program's code is private");
        assert_eq!(
            found[2],
            Mapping {
                shared: true,
                offset: 0x8000,
                len: 0x8000,
                path: "/tmp/x/event.db-shm".into()
            }
        );
    }

    #[test]
    fn a_mapping_is_cut_short_when_a_whole_page_lies_past_the_end_of_its_file() {
        let m = &file_mappings(MAPS)[2];
        assert!(!cut_short(m, 0x10000, 4096), "the file covers it");
        assert!(
            !cut_short(m, 0x10000 - 10, 4096),
            "its last page is partly backed"
        );
        assert!(cut_short(m, 0xf000, 4096), "its last page is gone");
        assert!(cut_short(m, 0, 4096), "truncated to nothing");
    }

    #[test]
    fn only_a_databases_shm_file_is_a_wal_index() {
        assert!(is_wal_index(Path::new("/srv/hall/baoqi.db-shm")));
        assert!(!is_wal_index(Path::new("/usr/bin/baoqi")));
    }

    #[test]
    fn the_command_line_comes_back_on_the_address_it_bound_and_keeps_the_tokens() {
        let bound: SocketAddr = "127.0.0.1:40111".parse().unwrap();
        let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let again = command_line(
            os(&[
                "baoqi",
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--demo",
                "--db",
                "h.db",
            ]),
            bound,
        );
        assert_eq!(
            again,
            os(&[
                "baoqi",
                "serve",
                "--db",
                "h.db",
                "--listen",
                "127.0.0.1:40111"
            ])
        );
        let again = command_line(os(&["baoqi", "serve", "--listen=0.0.0.0:0"]), bound);
        assert_eq!(
            again,
            os(&["baoqi", "serve", "--listen", "127.0.0.1:40111"])
        );
        let again = command_line(os(&["baoqi", "serve"]), bound);
        assert_eq!(
            again,
            os(&["baoqi", "serve", "--listen", "127.0.0.1:40111"])
        );
    }
}
