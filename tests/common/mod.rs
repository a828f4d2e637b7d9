//! What the integration tests that run the real `baoqi serve` share: starting it on a free
//! port, reading its address and the seats `--demo` prints, a scratch folder per test.
//!
//! Each test binary uses part of this module (unused items are expected), and the module is
//! private to each (its `pub` is for the test files, not an API).
#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The `baoqi` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_baoqi");

/// One seat line printed by `serve --demo` or `event create`: its role (`red`, `referee`, …),
/// the whole line (it names the table) and the seat's token.
#[derive(Clone, Debug)]
pub struct SeatLine {
    /// The first word of the line.
    pub role: String,
    /// The whole line, token included.
    pub line: String,
    /// The token after `#token=`.
    pub token: String,
}

/// Reads the seat lines out of a printed listing.
pub fn seat_lines(text: &str) -> Vec<SeatLine> {
    text.lines().filter_map(seat_line).collect()
}

fn seat_line(line: &str) -> Option<SeatLine> {
    let (head, token) = line.split_once("#token=")?;
    let role = head
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned();
    Some(SeatLine {
        role,
        line: line.trim().to_owned(),
        token: token.trim().to_owned(),
    })
}

/// The token of the first seat of `role` whose line names `table N` (any table when `None`).
pub fn token_of(seats: &[SeatLine], role: &str, table: Option<u32>) -> String {
    let wanted = table.map(|n| format!("table {n} "));
    seats
        .iter()
        .find(|s| s.role == role && wanted.as_deref().is_none_or(|w| s.line.contains(w)))
        .unwrap_or_else(|| panic!("no {role} seat (table {table:?}) in {seats:?}"))
        .token
        .clone()
}

/// A running `baoqi serve`; killed when dropped.
pub struct Server {
    /// The process.
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The seats it printed (with `--demo`).
    pub seats: Vec<SeatLine>,
}

impl Server {
    /// Starts `baoqi serve` on a free port over `db` (with `--demo` when asked) and returns
    /// once its tables run.
    pub fn start(db: &Path, demo: bool) -> Server {
        Server::start_with(db, demo, &[])
    }

    /// [`Server::start`] with environment variables set for the server.
    pub fn start_with(db: &Path, demo: bool, env: &[(&str, &Path)]) -> Server {
        Server::start_on(db, demo, env, "127.0.0.1:0")
    }

    /// [`Server::start_with`] listening on `listen` (a fixed port, to be restarted there).
    pub fn start_on(db: &Path, demo: bool, env: &[(&str, &Path)], listen: &str) -> Server {
        let mut cmd = Command::new(BIN);
        cmd.args(["serve", "--listen", listen, "--db"]).arg(db);
        if demo {
            cmd.arg("--demo");
        } else if std::fs::metadata(db).map_or(true, |m| m.len() == 0) {
            // A test that starts from nothing asks for the empty store.
            cmd.arg("--init");
        }
        cmd.envs(env.iter().copied());
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("baoqi serve");
        let started = started(&mut child);
        let url = started.url;
        let seats = started.lines.iter().filter_map(|l| seat_line(l)).collect();
        Server { child, url, seats }
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// The token of a seat it printed (see [`token_of`]).
    pub fn token(&self, role: &str, table: Option<u32>) -> String {
        token_of(&self.seats, role, table)
    }

    /// Kills the process at once (SIGKILL) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Runs `baoqi ARGS`; panics with its standard error unless it succeeds; its standard output.
pub fn baoqi(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("run baoqi");
    assert!(
        out.status.success(),
        "baoqi {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh scratch folder for one test, removed when dropped unless the test failed (so it
/// can be looked at) or `BAOQI_KEEP_TMP` is set.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `$TMPDIR/baoqi-NAME-PID`, empty.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("baoqi-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    /// A path inside the folder.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::env::var_os("BAOQI_KEEP_TMP").is_none() && !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A plain HTTP/1.1 GET: the status line and the body.
pub fn get(addr: &str, path: &str) -> (String, Vec<u8>) {
    get_with(addr, path, None)
}

/// [`get`] with `Authorization: Bearer <token>` when a token is given (the recordings and
/// the logs are a referee's).
pub fn get_with(addr: &str, path: &str, token: Option<&str>) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).expect("read");
    let split = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header");
    let head = String::from_utf8_lossy(&all[..split]).to_string();
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, all[split + 4..].to_vec())
}
pub mod ear;
pub mod ws;

/// What a starting `baoqi serve` printed, up to its "tables running" line.
pub struct Started {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Every line printed until then.
    pub lines: Vec<String>,
}

/// Reads a starting server's stdout until it runs its tables (asserting that it got there
/// and printed its address), then keeps draining it on a thread so that the server never
/// blocks on a full pipe.
pub fn started(child: &mut Child) -> Started {
    let mut out = BufReader::new(child.stdout.take().expect("stdout piped"));
    let (mut url, mut lines, mut line) = (String::new(), Vec::new(), String::new());
    while out.read_line(&mut line).unwrap_or(0) > 0 {
        if let Some(a) = line.trim().strip_prefix("listening on ") {
            a.clone_into(&mut url);
        }
        let running = line.contains("tables running");
        lines.push(std::mem::take(&mut line));
        if running {
            break;
        }
    }
    assert!(
        lines.last().is_some_and(|l| l.contains("tables running")),
        "the server started: {lines:?}"
    );
    assert!(
        url.starts_with("http://") || url.starts_with("https://"),
        "the server printed its address"
    );
    std::thread::spawn(move || {
        let mut sink = String::new();
        while out.read_line(&mut sink).unwrap_or(0) > 0 {
            sink.clear();
        }
    });
    Started { url, lines }
}

/// Creates the event of `toml` in a new store in `dir` (`baoqi event create`): the store's
/// file and the seats printed.
pub fn create_event(dir: &Scratch, toml: &str) -> (PathBuf, Vec<SeatLine>) {
    let db = dir.join("event.db");
    let file = dir.join("event.toml");
    std::fs::write(&file, toml).unwrap();
    let printed = baoqi(&[
        "event",
        "create",
        "--config",
        file.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    (db, seat_lines(&printed))
}
