//! The server under test: `baoqi serve` in its own process on the benchmark's database,
//! killed with SIGKILL.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::CrashError;

/// How long a server may take to print that its tables run.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `baoqi serve`; killed when dropped.
pub(crate) struct ServerProcess {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub(crate) addr: String,
    /// From the spawn to `N tables running`: opening and checking the store, rebuilding
    /// the match, storing the restart's pause.
    pub(super) ready_in: Duration,
}

impl ServerProcess {
    /// Starts `exe serve` over `db` on a free port of the loopback and returns once its
    /// tables run.
    pub(super) fn spawn(exe: &Path, db: &Path) -> Result<ServerProcess, CrashError> {
        ServerProcess::spawn_with(exe, db, &[])
    }

    /// [`ServerProcess::spawn`] with more options of `baoqi serve` (the load benchmark's
    /// `--max-per-address`).
    pub(crate) fn spawn_with(
        exe: &Path,
        db: &Path,
        options: &[&str],
    ) -> Result<ServerProcess, CrashError> {
        let started = Instant::now();
        let mut child = Command::new(exe)
            .args(["serve", "--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| CrashError::Spawn {
                exe: exe.to_path_buf(),
                source,
            })?;
        let stdout = child.stdout.take().ok_or_else(|| {
            CrashError::NoServer("the server's standard output is not readable".into())
        })?;
        let (tx, rx) = mpsc::channel();
        // Reads every line, so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            let mut line = String::new();
            while out.read_line(&mut line).unwrap_or(0) > 0 {
                let _ = tx.send(line.trim().to_owned());
                line.clear();
            }
        });
        let mut server = ServerProcess {
            child,
            addr: String::new(),
            ready_in: Duration::ZERO,
        };
        let deadline = started + START_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).map_err(|_| {
                CrashError::NoServer(format!(
                    "no `tables running` from {} within {START_TIMEOUT:?} (printed: {:?})",
                    exe.display(),
                    server.addr
                ))
            })?;
            if let Some(url) = line.strip_prefix("listening on http://") {
                url.clone_into(&mut server.addr);
            } else if line.ends_with("tables running") {
                break;
            }
        }
        if server.addr.is_empty() {
            return Err(CrashError::NoServer(
                "the server did not print its address".into(),
            ));
        }
        server.ready_in = started.elapsed();
        Ok(server)
    }

    /// The process's resident memory now (`VmRSS` of /proc), in bytes; none where /proc
    /// does not say.
    pub(crate) fn resident(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
        kb.trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .ok()
            .map(|k| k * 1024)
    }

    /// `ws://ADDR`.
    pub(super) fn ws_base(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Kills the process at once (SIGKILL on Unix) and reaps it.
    pub(super) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
