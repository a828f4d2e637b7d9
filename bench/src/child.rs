//! The benchmark's server in a process of its own: bots and server sharing one process also
//! share its scheduler and allocator, and the figures then measure the bots as much as the
//! server. The child is `baoqi serve` on the bench's database; its own figures come from
//! `/api/stats`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::crash::process::ServerProcess;
use baoqi_server::metrics::Stats;

/// A `baoqi serve` child (`ServerProcess`, the crash benchmark's); killed when dropped.
pub struct ChildServer {
    /// Held so that the server is killed with it.
    process: ServerProcess,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl ChildServer {
    /// Starts `exe serve` on `db` (which must hold the bench event) on a free loopback port,
    /// without a limit per address (the bots all come from loopback).
    pub fn start(exe: &Path, db: &Path) -> Result<ChildServer, String> {
        let unlimited = u32::MAX.to_string();
        ChildServer::start_with(exe, db, &["--max-per-address", &unlimited])
    }

    /// [`ChildServer::start`] with the server's options given whole (a node of a
    /// federation, `bench::nodes`).
    pub fn start_with(exe: &Path, db: &Path, options: &[&str]) -> Result<ChildServer, String> {
        let process = ServerProcess::spawn_with(exe, db, options).map_err(|e| e.to_string())?;
        let base = format!("http://{}", process.addr);
        Ok(ChildServer { process, base })
    }

    /// The server's resident memory now, in bytes.
    pub fn resident(&self) -> Option<u64> {
        self.process.resident()
    }

    /// The server's own figures.
    pub fn stats(&self) -> Result<Stats, String> {
        let addr = self.base.trim_start_matches("http://");
        let mut tcp = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
        tcp.set_read_timeout(Some(Duration::from_secs(5)))
            .map_err(|e| e.to_string())?;
        write!(
            tcp,
            "GET /api/stats HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .map_err(|e| e.to_string())?;
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).map_err(|e| e.to_string())?;
        let body = answer.split("\r\n\r\n").nth(1).ok_or("no body")?;
        let mut v: serde_json::Value =
            serde_json::from_str(body).map_err(|e| format!("/api/stats: {e}"))?;
        serde_json::from_value(v["stats"].take()).map_err(|e| format!("/api/stats: {e}"))
    }
}

/// A fresh database path for the bench (removed by the caller).
pub fn temp_db() -> PathBuf {
    std::env::temp_dir().join(format!(
        "baoqi-bench-{}-{}.db",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ))
}
