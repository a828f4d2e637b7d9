//! The services under the node tests: the test command's PostgreSQL and nats-server, and
//! those a test starts for itself so that it may restart them under play.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The federation's services, or `None` (with a note) when the test command did not start
/// them and nothing requires them.
pub(super) fn services() -> Option<(String, String)> {
    let pg = std::env::var("BAOQI_TEST_POSTGRES").ok();
    let nats = std::env::var("BAOQI_TEST_NATS").ok();
    assert!(
        pg.is_some() || std::env::var_os("BAOQI_REQUIRE_POSTGRES").is_none(),
        "BAOQI_REQUIRE_POSTGRES is set but BAOQI_TEST_POSTGRES is not"
    );
    if pg.is_none() || nats.is_none() {
        eprintln!("skipped: no BAOQI_TEST_POSTGRES / BAOQI_TEST_NATS (scripts/services.sh start)");
    }
    pg.zip(nats)
}

/// A PostgreSQL cluster of a test's own (`scripts/services.sh pg-own`), which it may
/// restart without touching the shared one; stopped and removed when dropped.
pub(super) struct OwnPostgres {
    dir: std::path::PathBuf,
    pub(super) url: String,
}

impl OwnPostgres {
    pub(super) fn start(name: &str) -> OwnPostgres {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target")
            .join(format!("pg-{name}-{}", std::process::id()));
        let url = services_script(&["pg-own", dir.to_str().unwrap()]);
        OwnPostgres { dir, url }
    }

    /// What a crash, a fail-over or a minor upgrade does: `pg_ctl restart -m immediate`.
    pub(super) fn restart(&self) {
        services_script(&["pg-restart", self.dir.to_str().unwrap()]);
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        services_script(&["pg-stop", self.dir.to_str().unwrap()]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `scripts/services.sh` with `args`; its standard output, trimmed.
fn services_script(args: &[&str]) -> String {
    let out = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/services.sh"))
        .args(args)
        .output()
        .expect("scripts/services.sh");
    assert!(
        out.status.success(),
        "services.sh {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A nats-server of a test's own on a port of its own, which the test may kill and start
/// again on that port (what a crash and a supervisor's restart do); killed when dropped.
pub(super) struct OwnNats {
    child: Child,
    port: u16,
    pub(super) url: String,
}

impl OwnNats {
    pub(super) fn start() -> OwnNats {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        OwnNats {
            child: nats_server(port),
            port,
            url: format!("nats://127.0.0.1:{port}"),
        }
    }

    /// Kills it (SIGKILL: no goodbye to its clients).
    pub(super) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts it again on its port.
    pub(super) fn again(&mut self) {
        self.child = nats_server(self.port);
    }
}

impl Drop for OwnNats {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A nats-server on loopback at `port`, once it accepts connections.
fn nats_server(port: u16) -> Child {
    let child = Command::new("nats-server")
        .args(["-a", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server (scripts/setup.sh test)");
    let began = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "nats-server took its port"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}
