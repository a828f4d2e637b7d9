//! `baoqi keypad --raw` in a real terminal (tmux): each key acts when it is pressed, without
//! `Enter`, and is not shown on the screen (a blind player's keys are his own; the screen
//! may be watched); Ctrl-C ends it.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use common::{BIN, Scratch, Server};

/// A tmux session that is killed when dropped.
struct Tmux(String);

impl Tmux {
    fn start(name: &str, command: &str) -> Tmux {
        let ok = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                "100",
                "-y",
                "30",
                command,
            ])
            .status()
            .expect("tmux");
        assert!(ok.success(), "tmux new-session");
        Tmux(name.to_owned())
    }

    fn keys(&self, keys: &[&str]) {
        let ok = Command::new("tmux")
            .args(["send-keys", "-t", &self.0])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(ok.success());
    }

    fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.0])
            .status()
            .is_ok_and(|s| s.success())
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.0])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .status();
    }
}

/// Waits up to `limit` for `f` to hold.
fn within(limit: Duration, f: impl Fn() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    f()
}

#[test]
fn raw_keys_act_at_once_and_are_not_shown() {
    assert!(
        Command::new("tmux").arg("-V").output().is_ok(),
        "tmux is needed for this test (scripts/setup.sh test installs it)"
    );
    let dir = Scratch::new("keypad-raw");
    let server = Server::start(&dir.join("raw.db"), true);
    let token = server.token("red", Some(1));
    let log = dir.join("spoken.log");
    let command = format!(
        "{BIN} keypad --raw --speaker text --spoken-log {} --url {} --token {token}",
        log.display(),
        server.url
    );
    let name = format!("baoqi-raw-{}", std::process::id());
    let tmux = Tmux::start(&name, &command);
    let spoken = || std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        within(Duration::from_secs(10), || spoken().contains("已連線")),
        "the keypad joined: {}\n{}",
        spoken(),
        tmux.screen()
    );
    // 0 then 6: 炮, with no Enter.
    tmux.keys(&["0", "6"]);
    assert!(
        within(Duration::from_secs(5), || spoken().contains("Requested 炮")),
        "the key acted without Enter:\n{}\n{}",
        spoken(),
        tmux.screen()
    );
    let screen = tmux.screen();
    assert!(
        !screen.lines().any(|l| l.trim() == "06"),
        "the keys were echoed by the terminal:\n{screen}"
    );
    // Ctrl-C quits through the client, which puts the terminal back as it was.
    tmux.keys(&["C-c"]);
    assert!(
        within(Duration::from_secs(5), || !tmux.alive()),
        "Ctrl-C did not end the keypad:\n{}",
        tmux.screen()
    );
}
